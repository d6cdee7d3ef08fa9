//! The search for the fewest steps that win a Klondike deal with every card known.
//!
//! 1. **A\*** over `state::Move`s (a stock play costs its draws, its recycle and the play), with a
//!    lower bound that never overestimates: one step for each card not on its foundation, the
//!    draws the stock's cards still need, and one more step for each card that must leave its
//!    pile before it can go up (it lies over a face-down card of its suit and lower rank; the
//!    face-up ones of a pile count once, as one step may carry them all). When it ends within its
//!    budget, the line is the shortest there is, or no line wins.
//! 2. Otherwise a **depth-first search** decides the deal: a winning line (often long) or proof
//!    that none exists, within its own budget, in rounds that try the moves in other orders
//!    (`rounds`). It moves from class of positions to class (`class_search`; `State::class`):
//!    which cards are face up is the same across a class, and only which of two same-coloured
//!    cards of a rank lies on which of the two that could hold it differs, which changes nothing
//!    about what can be won. With one card a draw it also ignores where the waste ends: every
//!    stock and waste card can be brought up from anywhere. The tests compare it with the same
//!    search over every position (`Reductions::classes` off), whose moves this module makes.
//! 3. When won, the A\* again with the bound counted twice (weighted A\*) looks for a shorter
//!    line (at most twice the shortest) within its own budget; if it runs out, with the bound
//!    counted three times, then eight times.
//!
//! A line from step 2 or 3 is not proven shortest: the answer gives the bound step 1 reached,
//! below which no line wins.
//!
//! All play a card to its foundation at once when nothing could still need it on a pile: an ace
//! or two, or a card whose two lower cards of the other colour and the card two lower of its own
//! colour's other suit are on the foundations (the card could only hold those). Such a move is
//! made by every winning line sooner or later, and making it sooner takes no step more.
//!
//! The A\* and the search of positions move part of a run only when the card it uncovers can be
//! used by the next move (go up, take a card, or move with the cards under it), and a whole run
//! that leaves its pile empty only when a king could go there next. A line that makes such a move earlier can make it just before
//! the move that uses what it freed, in as many steps: until then nothing touches the pile it left,
//! and whatever is done with the run where it went can be done where it was; if a move carries the
//! run on with the cards it was put on, those go first and the run follows (two moves for two).

use super::class_search;
use super::rounds::{self, Child, Outcome, Space};
use super::state::{fits, rank, red, suit, Deal, Dest, Move, State, C};
use super::{Draw, KlondikeDeck, Step, PILES};
use crate::games::key_hash::WideKeyMap;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::time::Instant;

/// The cards that go onto each card: one rank lower, the other colour.
static ONTO: std::sync::LazyLock<[u64; 52]> = std::sync::LazyLock::new(|| {
    std::array::from_fn(|t| {
        (0..52u8)
            .filter(|&c| fits(c, Some(t as C)))
            .fold(0, |m, c| m | 1 << c)
    })
});

/// The four kings, which alone go to an empty pile.
const KINGS: u64 = 1 << 12 | 1 << 25 | 1 << 38 | 1 << 51;

/// What the search found.
#[derive(Clone, Debug)]
pub struct Answer {
    /// A winning line, or None.
    pub steps: Option<Vec<Step>>,
    /// The line is the shortest there is (or, with no line, there is none: `decided`).
    pub proven: bool,
    /// Whether the deal was decided: a line found or every line ruled out.
    pub decided: bool,
    /// No line wins in fewer steps than this.
    pub bound: u32,
    /// Positions expanded.
    pub states: u64,
    /// Bytes of the search's main structures at their largest.
    pub peak_bytes: usize,
    pub millis: f64,
}

/// How many times the bound counts in the searches for a short line (step 3 of `solve`), each
/// tried when the one before runs out of room: lines found so are at most this many times the
/// shortest.
const LINE_WEIGHTS: [u32; 3] = [2, 3, 8];

/// How far each search may go.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Positions the A\* for the shortest line may keep.
    pub shortest: usize,
    /// Positions the weighted A\* for a short line may keep.
    pub line: usize,
    /// Classes of positions (`State::class`) the depth-first search may remember.
    pub decide: usize,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            shortest: 100_000,
            line: 1_000_000,
            decide: 20_000_000,
        }
    }
}

/// Face-down cards over a lower face-down card of their suit, and per suit the lowest rank among
/// the face-down cards, for each pile and count of face-down cards.
struct Blockers {
    down: [[u8; 8]; PILES],
    lowest: [[[u8; 4]; 8]; PILES],
}

impl Blockers {
    fn new(deal: &Deal) -> Blockers {
        let mut b = Blockers {
            down: [[0; 8]; PILES],
            lowest: [[[14; 4]; 8]; PILES],
        };
        for i in 0..PILES {
            for d in 1..=i {
                let c = deal.piles[i][d - 1];
                let low = b.lowest[i][d - 1];
                b.down[i][d] = b.down[i][d - 1] + (low[suit(c)] < rank(c)) as u8;
                b.lowest[i][d] = low;
                b.lowest[i][d][suit(c)] = low[suit(c)].min(rank(c));
            }
        }
        b
    }
}

/// Whether no winning line could need `c` (playable to its foundation, with `found` on the
/// foundations) on a pile.
pub(super) fn safe(found: &[u8; 4], c: C) -> bool {
    let r = rank(c);
    if r <= 2 {
        return true;
    }
    let mine = suit(c);
    (0..4).all(|t| {
        if t == mine {
            true
        } else if red(t as C * 13) != red(c) {
            found[t] + 1 >= r
        } else {
            found[t] + 2 >= r
        }
    })
}

/// The search's view of one deal.
struct Search<'d> {
    deal: &'d Deal,
    blockers: Blockers,
    tops: Vec<(u8, bool, u8, u8)>,
    /// Scratch lists of `moves`: runs that empty their pile, parts of runs.
    emptying: Vec<Move>,
    partial: Vec<Move>,
    /// Part of a run, or a whole run that empties its pile, moves only when what it frees can
    /// be used at once (see the module's notes).
    follow_up: bool,
    /// Deciding Draw 1, where any stock or waste card can be had at any time: one goes onto a
    /// pile only when a card could go onto it next.
    free_stock: bool,
    /// The moves of the position the search is at.
    scratch: Vec<Move>,
}

impl<'d> Search<'d> {
    fn new(deal: &'d Deal, reductions: Reductions) -> Search<'d> {
        Search {
            deal,
            blockers: Blockers::new(deal),
            tops: Vec::with_capacity(32),
            emptying: Vec::new(),
            partial: Vec::new(),
            follow_up: reductions.put_off,
            scratch: Vec::new(),
            free_stock: false,
        }
    }

    /// The lower bound on the steps left (see the module's notes).
    fn bound(&self, s: &State) -> u32 {
        let on: u32 = s.found.iter().map(|&n| n as u32).sum();
        let stock = (s.talon_len() - s.waste) as u32;
        let draws = stock.div_ceil(self.deal.draw as u32);
        let mut extra = 0;
        for i in 0..PILES {
            let d = s.down[i] as usize;
            extra += self.blockers.down[i][d] as u32;
            let low = &self.blockers.lowest[i][d];
            if s.up[i][..s.len[i] as usize]
                .iter()
                .any(|&c| low[suit(c)] < rank(c))
            {
                extra += 1;
            }
        }
        52 - on + draws + extra
    }

    fn to_foundation(s: &State, c: C) -> bool {
        s.found[suit(c)] + 1 == rank(c)
    }

    /// The moves from `s`; only the one forced move when a card goes up safely.
    fn moves(&mut self, s: &State, out: &mut Vec<Move>) {
        out.clear();
        let tops: [Option<C>; PILES] = std::array::from_fn(|i| s.top(i));
        let (seq, _) = s.talon_sequence();
        // Safe plays to the foundations first, alone.
        for (i, top) in tops.iter().enumerate() {
            if let Some(c) = *top {
                if Self::to_foundation(s, c) && safe(&s.found, c) {
                    out.push(Move::PileToFoundation(i as u8));
                    return;
                }
            }
        }
        if s.waste > 0 {
            let c = self.deal.stock[seq[s.waste as usize - 1] as usize];
            if Self::to_foundation(s, c) && safe(&s.found, c) {
                out.push(Move::Talon {
                    before: 0,
                    recycle: false,
                    after: 0,
                    top: s.waste,
                    dest: Dest::Foundation,
                });
                return;
            }
        }
        let empty = tops.iter().position(Option::is_none);
        for (i, top) in tops.iter().enumerate() {
            if let Some(c) = *top {
                if Self::to_foundation(s, c) {
                    out.push(Move::PileToFoundation(i as u8));
                }
            }
        }
        // What could be played onto a card or into an empty pile next: cards the stock can bring
        // up, foundations' top cards, face-up pile cards.
        let mut ways = std::mem::take(&mut self.tops);
        s.talon_tops(self.deal.draw, &mut ways);
        let mut ready = 0u64;
        for &(.., top) in &ways {
            ready |= 1 << self.deal.stock[seq[top as usize - 1] as usize];
        }
        for (x, &n) in s.found.iter().enumerate() {
            if n >= 1 {
                ready |= 1 << (x as u8 * 13 + n - 1);
            }
        }
        let mut face_up = [0u64; PILES];
        for (i, mask) in face_up.iter_mut().enumerate() {
            for &u in &s.up[i][..s.len[i] as usize] {
                *mask |= 1 << u;
            }
        }
        let all_up = face_up.iter().fold(0, |a, b| a | b);
        // Whether a card that is ready (or face up on a pile but `not`) could go onto `c`.
        let wanted_on = |c: C, not: usize| {
            let onto = ready | (all_up & !face_up[not]);
            rank(c) > 1
                && (0..4u8)
                    .filter(|&y| red(y * 13) != red(c))
                    .any(|y| onto & (1 << (y * 13 + rank(c) - 2)) != 0)
        };
        // Runs from pile to pile, in the order a line most often wants them: a whole run that
        // turns a card up, then (after the stock's cards) one that empties a pile, then part of a
        // run.
        let mut emptying = std::mem::take(&mut self.emptying);
        let mut partial = std::mem::take(&mut self.partial);
        // The cards each pile takes (kings on the first empty one), and all of them.
        let takes: [u64; PILES] = std::array::from_fn(|to| match tops[to] {
            Some(t) => ONTO[t as usize],
            None if Some(to) == empty => KINGS,
            None => 0,
        });
        let taken = takes.iter().fold(0, |a, b| a | b);
        // After part of a run moves from `from` to `to`, whether the card it uncovers can be used
        // at once: go up, take a card, or move with what lies under it (see `follow_up`).
        let uncovered_used = |from: usize, to: usize, count: usize| {
            let len = s.len[from] as usize;
            let y = s.up[from][len - count - 1];
            if Self::to_foundation(s, y)
                || ONTO[y as usize] & (ready | (all_up & !face_up[from])) != 0
            {
                return true;
            }
            let moved_top = s.up[from][len - 1];
            let elsewhere = (0..PILES)
                .filter(|&j| j != from && j != to)
                .fold(ONTO[moved_top as usize], |m, j| m | takes[j]);
            s.up[from][..len - count]
                .iter()
                .any(|&q| elsewhere & (1 << q) != 0)
        };
        for (from, mine) in face_up.iter().enumerate() {
            let len = s.len[from] as usize;
            for count in (1..=len).rev() {
                let c = s.up[from][len - count];
                if taken & (1 << c) == 0 {
                    continue;
                }
                for (to, top) in tops.iter().enumerate() {
                    if to == from || takes[to] & (1 << c) == 0 {
                        continue;
                    }
                    // A king's run that fills its pile gains nothing on an empty one.
                    if top.is_none() && count == len && s.down[from] == 0 {
                        continue;
                    }
                    let m = Move::PileToPile {
                        from: from as u8,
                        to: to as u8,
                        count: count as u8,
                    };
                    if count < len {
                        if self.follow_up && !uncovered_used(from, to, count) {
                            continue;
                        }
                        partial.push(m);
                    } else if s.down[from] > 0 {
                        out.push(m);
                    } else {
                        if self.follow_up && KINGS & (ready | (all_up & !mine)) == 0 {
                            continue;
                        }
                        emptying.push(m);
                    }
                }
            }
        }
        // Cards from the stock and waste, the fewest draws first.
        for &(before, recycle, after, top) in &ways {
            let c = self.deal.stock[seq[top as usize - 1] as usize];
            let talon = |dest| Move::Talon {
                before,
                recycle,
                after,
                top,
                dest,
            };
            if Self::to_foundation(s, c) {
                out.push(talon(Dest::Foundation));
            }
            if taken & (1 << c) == 0 {
                continue;
            }
            for (to, take) in takes.iter().enumerate() {
                if take & (1 << c) != 0 {
                    if self.free_stock && ONTO[c as usize] & (ready | (all_up & !face_up[to])) == 0
                    {
                        continue;
                    }
                    out.push(talon(Dest::Pile(to as u8)));
                }
            }
        }
        self.tops = ways;
        out.append(&mut emptying);
        out.append(&mut partial);
        self.emptying = emptying;
        self.partial = partial;
        // A card comes back down from a foundation only when a card could go on it next: a line
        // that brings it down earlier can bring it down just before that, with nothing lost (it
        // covers a pile top and lowers its foundation meanwhile). A two could hold only an ace,
        // which goes up instead.
        for (x, &n) in s.found.iter().enumerate() {
            if n < 3 {
                continue;
            }
            let c = x as C * 13 + n - 1;
            for (to, t) in tops.iter().enumerate() {
                if t.is_some() && fits(c, *t) && wanted_on(c, to) {
                    out.push(Move::FoundationToPile {
                        suit: x as u8,
                        to: to as u8,
                    });
                }
            }
        }
    }
}

/// A position the A\* reached: how, and in how many steps.
struct Node {
    state: State,
    parent: u32,
    mv: Option<Move>,
    g: u16,
}

/// The line of moves that reaches node `i`, as steps.
fn line(nodes: &[Node], deal: &Deal, mut i: usize) -> Vec<Step> {
    let mut moves = Vec::new();
    while let Some(m) = nodes[i].mv {
        let parent = nodes[i].parent as usize;
        moves.push((parent, m));
        i = parent;
    }
    moves
        .iter()
        .rev()
        .flat_map(|&(p, m)| nodes[p].state.steps(deal, m))
        .collect()
}

enum Shortest {
    Line(Vec<Step>),
    None,
    /// Out of budget, with the least bound still open.
    OutOfBudget(u32),
}

/// A\* for the fewest steps, keeping at most `budget` positions; with `weight` above 1 the bound
/// counts that many times (a line at most `weight` times the shortest, found far sooner).
fn shortest(
    search: &mut Search,
    budget: usize,
    weight: u32,
    states: &mut u64,
    peak: &mut usize,
) -> Shortest {
    let deal = search.deal;
    let start = State::start(deal);
    let mut best: WideKeyMap<u16> = WideKeyMap::default();
    let mut heap = BinaryHeap::new();
    best.insert(start.key(), 0);
    heap.push((Reverse(weight * search.bound(&start)), 0u16, 0u32));
    let mut nodes = vec![Node {
        state: start,
        parent: 0,
        mv: None,
        g: 0,
    }];
    let mut moves = Vec::new();
    let node_bytes = std::mem::size_of::<Node>() + 40;
    while let Some((Reverse(f), g, i)) = heap.pop() {
        let i = i as usize;
        if nodes[i].g != g || best.get(&nodes[i].state.key()).is_some_and(|&b| b < g) {
            continue;
        }
        if nodes[i].state.is_won() {
            *peak = (*peak).max(nodes.len() * node_bytes);
            return Shortest::Line(line(&nodes, deal, i));
        }
        if nodes.len() >= budget {
            *peak = (*peak).max(nodes.len() * node_bytes);
            return Shortest::OutOfBudget(f);
        }
        *states += 1;
        let state = nodes[i].state.clone();
        search.moves(&state, &mut moves);
        for &m in &moves {
            let mut next = state.clone();
            next.apply(deal, m);
            let ng = g + m.cost() as u16;
            let key = next.key();
            match best.get(&key) {
                Some(&b) if b <= ng => continue,
                _ => {}
            }
            best.insert(key, ng);
            let f = ng as u32 + weight * search.bound(&next);
            heap.push((Reverse(f), ng, nodes.len() as u32));
            nodes.push(Node {
                state: next,
                parent: i as u32,
                mv: Some(m),
                g: ng,
            });
        }
    }
    *peak = (*peak).max(nodes.len() * node_bytes);
    Shortest::None
}

/// The positions the depth-first search without classes explores (`rounds::search`): each
/// remembered by its key folded to 64 bits (with Draw 1, without where the waste ends).
impl Space for Search<'_> {
    type Node = State;
    type Move = Move;

    fn children(&mut self, node: &State, out: &mut Vec<Child<Self>>) {
        let mut moves = std::mem::take(&mut self.scratch);
        self.moves(node, &mut moves);
        for &mv in &moves {
            let mut next = node.clone();
            next.apply(self.deal, mv);
            out.push(Child {
                mv,
                key: Space::key(self, &next),
                node: next,
            });
        }
        self.scratch = moves;
    }

    fn key(&self, node: &State) -> u64 {
        let mut k = node.key();
        if self.deal.draw == 1 {
            k &= !(0xFFu128 << 104);
        }
        // 63 bits: the table's empty slot is all ones.
        ((k >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ k as u64 >> 1
    }

    fn won(&self, node: &State) -> bool {
        node.is_won()
    }

    fn distance(&self, node: &State) -> u32 {
        let downs: u32 = node.down.iter().map(|&d| d as u32).sum();
        self.bound(node) + 2 * downs
    }
}

/// The fewest steps that win the deal, or proof that none do, within `budget`.
pub fn solve(deck: &KlondikeDeck, draw: Draw, budget: Budget) -> Answer {
    solve_with(deck, draw, budget, Reductions::ALL)
}

/// Which of the search's reductions are on; the tests compare each with the search without it.
#[derive(Clone, Copy, Debug)]
pub struct Reductions {
    /// Part of a run, or a whole run that empties its pile, moves only when what it frees is used
    /// at once (and, deciding Draw 1, a stock card goes onto a pile only when a card could go onto
    /// it next).
    pub put_off: bool,
    /// The depth-first search moves between classes of positions (`class_search`), not between
    /// positions.
    pub classes: bool,
}

impl Reductions {
    pub const ALL: Reductions = Reductions {
        put_off: true,
        classes: true,
    };
}

/// `solve` with only some of the reductions (`Reductions`).
pub fn solve_with(
    deck: &KlondikeDeck,
    draw: Draw,
    budget: Budget,
    reductions: Reductions,
) -> Answer {
    let began = Instant::now();
    let deal = Deal::new(deck, draw);
    let mut search = Search::new(&deal, reductions);
    let (mut states, mut peak) = (0, 0);
    let start_bound = search.bound(&State::start(&deal));
    let answer = |steps, proven, decided, bound, states, peak| Answer {
        steps,
        proven,
        decided,
        bound,
        states,
        peak_bytes: peak,
        millis: began.elapsed().as_secs_f64() * 1000.0,
    };
    let bound = match shortest(&mut search, budget.shortest, 1, &mut states, &mut peak) {
        Shortest::Line(steps) => {
            let n = steps.len() as u32;
            return answer(Some(steps), true, true, n, states, peak);
        }
        Shortest::None => return answer(None, true, true, start_bound, states, peak),
        Shortest::OutOfBudget(bound) => bound,
    };
    let decided = if reductions.classes {
        class_search::decide(
            &deal,
            reductions.put_off,
            budget.decide,
            &mut states,
            &mut peak,
        )
    } else {
        // Deciding Draw 1, any stock or waste card can be had at any time: one goes onto a pile
        // only when a card could go onto it next.
        search.free_stock = reductions.put_off && deal.draw == 1;
        let decided = match rounds::search(
            &mut search,
            State::start(&deal),
            budget.decide,
            &mut states,
            &mut peak,
        ) {
            Outcome::Won(moves) => {
                let mut s = State::start(&deal);
                let mut steps = Vec::new();
                for m in moves {
                    steps.extend(s.steps(&deal, m));
                    s.apply(&deal, m);
                }
                Outcome::Won(steps)
            }
            Outcome::Lost => Outcome::Lost,
            Outcome::OutOfBudget => Outcome::OutOfBudget,
        };
        search.free_stock = false;
        decided
    };
    let line = match decided {
        Outcome::Won(steps) => steps,
        Outcome::Lost => return answer(None, true, true, bound, states, peak),
        Outcome::OutOfBudget => return answer(None, false, false, bound, states, peak),
    };
    // Won: a shorter line than the depth-first search's, when the weighted A* finds one in time
    // (with the bound counted more, it finds one sooner and longer).
    let mut line = line;
    for weight in LINE_WEIGHTS {
        let found = shortest(&mut search, budget.line, weight, &mut states, &mut peak);
        if let Shortest::Line(steps) = found {
            if steps.len() < line.len() {
                line = steps;
            }
            break;
        }
    }
    answer(Some(line), false, true, bound, states, peak)
}
