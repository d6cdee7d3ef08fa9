//! The depth-first search that decides a deal, in rounds: each round tries the moves in another
//! order (`ORDERS`) within a budget of new nodes that grows. Every node met is remembered by its
//! key: one searched to the end without a win is lost in every order, so a round takes up where
//! the others left off, and only the nodes on the path a round was following when it stopped are
//! forgotten. A round that ends within its budget has searched the whole game. Which order finds
//! a winning line soon differs from deal to deal by factors of a thousand.
//!
//! The nodes are classes of positions (`class_search`), or positions for the search without
//! classes the tests compare it with (`solver`).

use crate::cards::SplitMix64;
use crate::games::packed_set::PackedSet;

/// What the search explores: nodes, the moves between them, and what it needs to know of each.
pub trait Space {
    type Node: Clone;
    type Move: Copy;
    /// The moves from `node`, each with the node it makes, in the generator's order.
    fn children(&mut self, node: &Self::Node, out: &mut Vec<Child<Self>>);
    /// The node's key: equal keys are the same node.
    fn key(&self, node: &Self::Node) -> u64;
    /// Whether the game is won at `node`.
    fn won(&self, node: &Self::Node) -> bool;
    /// Lower first in the second order: how far `node` looks from a win.
    fn distance(&self, node: &Self::Node) -> u32;
}

/// A move of the search, the node it makes and that node's key.
pub struct Child<S: Space + ?Sized> {
    pub mv: S::Move,
    pub node: S::Node,
    pub key: u64,
}

/// What the search found.
pub enum Outcome<M> {
    /// The moves of a winning line, from the start.
    Won(Vec<M>),
    Lost,
    OutOfBudget,
}

/// The orders the search tries moves in, one a round: as `Space::children` gives them, by
/// `Space::distance`, and shuffled.
const ORDERS: usize = 3;

/// Nodes the first round may add; each round after the first two doubles it.
const FIRST_ROUND: usize = 20_000;

/// Puts a node's `children` in the order of round `round` (see `ORDERS`).
fn order<S: Space>(space: &S, children: &mut [Child<S>], round: usize, rng: &mut SplitMix64) {
    match round % ORDERS {
        0 => {}
        1 => children.sort_by_cached_key(|c| space.distance(&c.node)),
        _ => {
            for i in (1..children.len()).rev() {
                let j = (rng.next_u64() % (i as u64 + 1)) as usize;
                children.swap(i, j);
            }
        }
    }
}

/// Decides the game from `start` within `budget` nodes remembered; `states` counts the nodes
/// searched and `peak` the bytes of the table of keys.
pub fn search<S: Space>(
    space: &mut S,
    start: S::Node,
    budget: usize,
    states: &mut u64,
    peak: &mut usize,
) -> Outcome<S::Move> {
    /// A node on the search's path, with its children (made before they are searched, so that
    /// their slots in the table can be prefetched together: the table is far larger than the
    /// caches).
    struct Frame<S: Space> {
        key: u64,
        children: Vec<Child<S>>,
        next: usize,
        /// The remaining children's slots are to be prefetched: the frame is new, or the search
        /// has just come back to it.
        fetch: bool,
    }
    let mut seen = PackedSet::default();
    let mut rng = SplitMix64(0x4B4C_4F4E);
    let mut spare: Vec<Vec<Child<S>>> = Vec::new();
    let frame = |space: &mut S,
                 spare: &mut Vec<Vec<Child<S>>>,
                 rng: &mut SplitMix64,
                 round: usize,
                 node: &S::Node,
                 key: u64| {
        let mut children = spare.pop().unwrap_or_default();
        children.clear();
        space.children(node, &mut children);
        order(space, &mut children, round, rng);
        Frame {
            key,
            children,
            next: 0,
            fetch: true,
        }
    };
    if space.won(&start) {
        return Outcome::Won(Vec::new());
    }
    let mut round_budget = FIRST_ROUND;
    let mut round = 0;
    let result = 'rounds: loop {
        let start_key = space.key(&start);
        seen.insert(start_key);
        let first = frame(space, &mut spare, &mut rng, round, &start, start_key);
        let mut stack = vec![first];
        let round_end = seen.len() + round_budget;
        loop {
            let Some(top) = stack.last_mut() else {
                break 'rounds Outcome::Lost;
            };
            if top.next == top.children.len() {
                if let Some(done) = stack.pop() {
                    spare.push(done.children);
                }
                if let Some(back) = stack.last_mut() {
                    back.fetch = true;
                }
                continue;
            }
            if top.fetch {
                top.fetch = false;
                for c in &top.children[top.next..] {
                    seen.prefetch(c.key);
                }
            }
            let i = top.next;
            top.next += 1;
            let key = top.children[i].key;
            if space.won(&top.children[i].node) {
                let line = stack.iter().map(|f| f.children[f.next - 1].mv).collect();
                break 'rounds Outcome::Won(line);
            }
            if !seen.insert(key) {
                continue;
            }
            *states += 1;
            if seen.len() >= budget {
                break 'rounds Outcome::OutOfBudget;
            }
            if seen.len() >= round_end {
                // The nodes on the path are not searched to the end: not lost yet.
                for f in &stack {
                    seen.remove(f.key);
                }
                seen.remove(key);
                break;
            }
            let node = top.children[i].node.clone();
            let pushed = frame(space, &mut spare, &mut rng, round, &node, key);
            stack.push(pushed);
        }
        round += 1;
        if round >= 2 {
            round_budget *= 2;
        }
    };
    *peak = (*peak).max(seen.bytes());
    result
}
