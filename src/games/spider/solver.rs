//! Deciding a Spider deal with every card known: a solution, or proof that none exists.
//!
//! Best-first searches over positions: each position is scored by how far the table is from
//! sorted (face-down cards, cards not resting on the next higher card of their suit, cards still
//! in the stock, less empty piles), and the best-scored position found so far is expanded next;
//! every position met is remembered by a 64-bit hash of its packed form.
//!
//! 1. **Sensible moves, in short searches.** A move carries a descending sequence (runs of one
//!    suit, each on the next higher card of another) across through empty piles, and moves that
//!    only shift a sequence from one next-higher card to another of no better suit are left out.
//!    Many short searches, each breaking ties among equal scores its own way and each allowed a
//!    little more than the last, find solutions far sooner than one long search, which can spend
//!    its whole budget below one early wrong turn.
//! 2. **Every legal step**, when the sensible moves ran out without a solution: a search that
//!    runs out of positions then has proved that no solution exists.
//!
//! A search that reaches its budget of positions first says so: the deal is undecided, never
//! called unsolvable.

use super::{SpiderDeck, Step, DEALS, PILES};
use crate::games::key_hash::KeySet;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::time::Instant;

/// Positions expanded before the search gives up, unless the caller gives another budget.
pub const BUDGET: u64 = 1_000_000;
/// Positions the first of the searches among sensible moves may expand.
const FIRST_TRY: u64 = 10_000;

/// The Luby sequence (1, 1, 2, 1, 1, 2, 4, 1, …) from i = 1: how many times `FIRST_TRY` the i-th
/// search may expand, so that short searches are many and long ones still come.
fn luby(i: u64) -> u64 {
    let mut i = i;
    loop {
        let mut k = 1;
        while (1u64 << k) - 1 < i {
            k += 1;
        }
        if i == (1 << k) - 1 {
            return 1 << (k - 1);
        }
        i -= (1 << (k - 1)) - 1;
    }
}

/// The answer for one deal.
#[derive(Clone, Debug)]
pub struct Answer {
    /// The steps of a solution, or `None` when none was found.
    pub steps: Option<Vec<Step>>,
    /// `false` when the budget ran out before a solution or a proof: the deal is undecided.
    pub decided: bool,
    /// Positions expanded.
    pub states: u64,
    /// Bytes of the search's positions, open list and visited set at their largest.
    pub peak_bytes: usize,
    pub millis: f64,
}

/// A card as the solver keeps it: suit × 16 + rank (1–13), so that a card rests on the next
/// higher card of its suit exactly when `below == above + 1`.
type Code = u8;

fn rank(c: Code) -> u8 {
    c & 15
}

/// The table in the solver's terms.
#[derive(Clone)]
struct Position {
    piles: [Vec<Code>; PILES],
    down: [u8; PILES],
    dealt: u8,
    done: u8,
}

impl Position {
    fn start(deck: &SpiderDeck) -> Position {
        let piles = std::array::from_fn(|i| deck.pile(i).iter().map(|&c| code(c)).collect());
        let down = std::array::from_fn(|i| deck.pile(i).len() as u8 - 1);
        Position {
            piles,
            down,
            dealt: 0,
            done: 0,
        }
    }

    /// The packed form: deals made, runs done, face-down counts, heights, then the cards.
    fn pack(&self, out: &mut Vec<u8>) {
        out.clear();
        out.push(self.dealt);
        out.push(self.done);
        out.extend_from_slice(&self.down);
        out.extend(self.piles.iter().map(|p| p.len() as u8));
        for p in &self.piles {
            out.extend_from_slice(p);
        }
    }

    fn unpack(bytes: &[u8]) -> Position {
        let mut down = [0u8; PILES];
        down.copy_from_slice(&bytes[2..2 + PILES]);
        let mut at = 2 + 2 * PILES;
        let piles = std::array::from_fn(|i| {
            let n = bytes[2 + PILES + i] as usize;
            let pile = bytes[at..at + n].to_vec();
            at += n;
            pile
        });
        Position {
            piles,
            down,
            dealt: bytes[0],
            done: bytes[1],
        }
    }

    /// Every legal step: a run of one suit (or the top part of one) onto the next higher card or
    /// into an empty pile, or a deal.
    fn legal_steps(&self, out: &mut Vec<Step>) {
        out.clear();
        for from in 0..PILES {
            let pile = &self.piles[from];
            let n = pile.len();
            let up = n - self.down[from] as usize;
            let mut count = 0;
            while count < up && (count == 0 || pile[n - count - 1] == pile[n - count] + 1) {
                count += 1;
                let base = rank(pile[n - count]);
                self.moves_to(
                    from,
                    count,
                    |top| top.is_none_or(|t| rank(t) == base + 1),
                    out,
                );
            }
        }
        if self.can_deal() {
            out.push(Step::Deal);
        }
    }

    /// Moves of `count` cards from pile `from` onto every other pile whose top card (`None` when
    /// empty) `fits` takes.
    fn moves_to(
        &self,
        from: usize,
        count: usize,
        fits: impl Fn(Option<Code>) -> bool,
        out: &mut Vec<Step>,
    ) {
        for to in 0..PILES {
            if to != from && fits(self.piles[to].last().copied()) {
                out.push(Step::Move {
                    from: from as u8,
                    to: to as u8,
                    count: count as u8,
                });
            }
        }
    }

    fn can_deal(&self) -> bool {
        (self.dealt as usize) < DEALS && self.piles.iter().all(|p| !p.is_empty())
    }

    /// The moves worth trying, each perhaps several steps: a descending sequence off the top of a
    /// pile (runs of one suit, each resting on the next higher card of another suit), carried
    /// across through empty piles when it is more than one run. A sequence resting on the next
    /// higher card moves only onto the next higher card of its own suit, or (resting on another
    /// suit) into an empty pile; one at a pile's bottom does not move into an empty pile. Written
    /// as `Move { count }` with the cards moved; [`Position::expand`] gives the steps.
    fn sensible_moves(&self, out: &mut Vec<Step>) {
        out.clear();
        let empties = self.piles.iter().filter(|p| p.is_empty()).count();
        for from in 0..PILES {
            let pile = &self.piles[from];
            let n = pile.len();
            let up = n - self.down[from] as usize;
            let mut runs = 1;
            let mut count = 0;
            while count < up {
                count += 1;
                let at = n - count;
                if count > 1 && pile[at] != pile[at + 1] + 1 {
                    if rank(pile[at]) != rank(pile[at + 1]) + 1 {
                        break;
                    }
                    runs += 1;
                }
                if runs > empties + 1 {
                    break;
                }
                let base = pile[at];
                // It rests on the next higher card, face up.
                let resting = at > self.down[from] as usize && rank(pile[at - 1]) == rank(base) + 1;
                // The part of a run of one suit stays together but for joining its own suit.
                let in_run = resting && pile[at - 1] == base + 1;
                let fits = |top: Option<Code>| match top {
                    None => !in_run && at > 0 && runs <= empties,
                    Some(top) if resting => top == base + 1,
                    Some(top) => rank(top) == rank(base) + 1,
                };
                self.moves_to(from, count, fits, out);
            }
        }
        if self.can_deal() {
            out.push(Step::Deal);
        }
    }

    /// The steps of a sensible move: the runs above the lowest go into empty piles (the
    /// leftmost first), the lowest run goes across, and the others follow it back.
    fn expand(&self, step: Step, out: &mut Vec<Step>) {
        let Step::Move { from, to, count } = step else {
            out.push(step);
            return;
        };
        let pile = &self.piles[from as usize];
        let n = pile.len();
        // The runs' lengths, top first.
        let mut runs = vec![1u8];
        for k in (n - count as usize + 1..n).rev() {
            if pile[k - 1] == pile[k] + 1 {
                *runs.last_mut().expect("a run") += 1;
            } else {
                runs.push(1);
            }
        }
        let mut spare = (0..PILES as u8).filter(|&i| i != to && self.piles[i as usize].is_empty());
        let parked: Vec<(u8, u8)> = runs[..runs.len() - 1]
            .iter()
            .map(|&len| (spare.next().expect("an empty pile for each run"), len))
            .collect();
        for &(place, len) in &parked {
            out.push(Step::Move {
                from,
                to: place,
                count: len,
            });
        }
        out.push(Step::Move {
            from,
            to,
            count: *runs.last().expect("a run"),
        });
        for &(place, len) in parked.iter().rev() {
            out.push(Step::Move {
                from: place,
                to,
                count: len,
            });
        }
    }

    fn play(&mut self, step: Step, stock: &[Code]) {
        match step {
            Step::Deal => {
                let at = self.dealt as usize * PILES;
                for i in 0..PILES {
                    self.piles[i].push(stock[at + i]);
                    self.clear_run(i);
                }
                self.dealt += 1;
            }
            Step::Move { from, to, count } => {
                let (from, to) = (from as usize, to as usize);
                let at = self.piles[from].len() - count as usize;
                let (a, b) = if from < to {
                    let (l, r) = self.piles.split_at_mut(to);
                    (&mut l[from], &mut r[0])
                } else {
                    let (l, r) = self.piles.split_at_mut(from);
                    (&mut r[0], &mut l[to])
                };
                b.extend_from_slice(&a[at..]);
                a.truncate(at);
                self.turn_up(from);
                self.clear_run(to);
            }
        }
    }

    fn turn_up(&mut self, i: usize) {
        if self.down[i] > 0 && self.down[i] as usize == self.piles[i].len() {
            self.down[i] -= 1;
        }
    }

    fn clear_run(&mut self, i: usize) {
        let pile = &self.piles[i];
        let n = pile.len();
        if n < 13 || n - 13 < self.down[i] as usize || rank(pile[n - 1]) != 1 {
            return;
        }
        let top = &pile[n - 13..];
        if rank(top[0]) == 13 && top.windows(2).all(|w| w[0] == w[1] + 1) {
            self.piles[i].truncate(n - 13);
            self.done += 1;
            self.turn_up(i);
        }
    }

    /// How far from won: lower is nearer. Face-down cards count most, then cards resting on
    /// anything but the next higher card, then those on the next higher card of another suit;
    /// cards in the stock count least (a deal should wait until the table is stuck), runs still
    /// to make count, and empty piles (as many as runs are left to make) count for.
    fn score(&self) -> u32 {
        const DOWN: i64 = 6;
        const LOOSE: i64 = 3;
        const OTHER_SUIT: i64 = 1;
        const STOCK: i64 = 1;
        const RUN_LEFT: i64 = 3;
        const EMPTY: i64 = 4;
        let mut total = 0i64;
        let mut empty = 0i64;
        for (i, pile) in self.piles.iter().enumerate() {
            let d = self.down[i] as usize;
            if pile.is_empty() {
                empty += 1;
                continue;
            }
            total += d as i64 * DOWN;
            for k in d..pile.len() {
                total += if k == 0 {
                    (rank(pile[k]) != 13) as i64 * LOOSE
                } else if k == d {
                    LOOSE
                } else if pile[k - 1] == pile[k] + 1 {
                    0
                } else if rank(pile[k - 1]) == rank(pile[k]) + 1 {
                    OTHER_SUIT
                } else {
                    LOOSE
                };
            }
        }
        let stock = (DEALS - self.dealt as usize) as i64 * PILES as i64;
        let left = 8 - self.done as i64;
        (1000 + total + stock * STOCK + left * RUN_LEFT - empty.min(left) * EMPTY).max(0) as u32
    }
}

/// A search's own order among positions of near-equal score: none for the first search (the
/// order steps are found in); for the others a pseudo-random spread of up to 128 score points
/// (about a third of what a fresh deal scores): on seeded deals this solved more than spreads of
/// 8 or 32 points, and more four-suit deals than spreads of 256 or more (docs/spider.md).
fn tie_break(packed: &[u8], salt: u64) -> u32 {
    if salt == 0 {
        0
    } else {
        ((hash(packed) ^ salt).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 55) as u32
    }
}

fn code(c: crate::cards::Card) -> Code {
    c.suit.index() as u8 * 16 + c.value()
}

/// The steps of a line of sensible moves, played from the deal.
fn expand_line(deck: &SpiderDeck, stock: &[Code], moves: &[Step]) -> Vec<Step> {
    let mut position = Position::start(deck);
    let mut line = Vec::with_capacity(moves.len() * 2);
    let mut parts = Vec::new();
    for &step in moves {
        parts.clear();
        position.expand(step, &mut parts);
        for &part in &parts {
            position.play(part, stock);
        }
        line.extend_from_slice(&parts);
    }
    line
}

/// 64-bit hash of a packed position, eight bytes at a time.
fn hash(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0x9E37_79B9_7F4A_7C15 ^ bytes.len() as u64;
    for chunk in bytes.chunks(8) {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        h = (h ^ u64::from_le_bytes(word)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        h ^= h >> 29;
    }
    h.wrapping_mul(0x94D0_49BB_1331_11EB) ^ (h >> 32)
}

/// A position found: how it was reached, and its packed form until it is expanded.
struct Node {
    parent: u32,
    step: Step,
    packed: Option<Box<[u8]>>,
}

/// Decides the deal within the default budget.
pub fn solve(deck: &SpiderDeck) -> Answer {
    solve_within(deck, BUDGET)
}

/// Decides the deal, expanding at most `budget` positions: first among sensible steps only
/// (quick to find a solution when there is one), then, when those run out without one, among
/// every legal step (what a proof needs).
pub fn solve_within(deck: &SpiderDeck, budget: u64) -> Answer {
    let began = Instant::now();
    let mut first = search(deck, FIRST_TRY.min(budget), true, 0);
    let mut salt = 1;
    // A search that ran out of sensible moves has seen them all: no other order finds more.
    while first.steps.is_none() && !first.decided && first.states < budget {
        let room = FIRST_TRY * luby(salt + 1);
        let used = first.states;
        first = search(deck, room.min(budget - used), true, salt);
        first.states += used;
        salt += 1;
    }
    let mut answer = if first.steps.is_none() && first.decided {
        let mut second = search(deck, budget.saturating_sub(first.states), false, 0);
        second.states += first.states;
        second.peak_bytes = second.peak_bytes.max(first.peak_bytes);
        second
    } else {
        first
    };
    answer.millis = began.elapsed().as_secs_f64() * 1000.0;
    answer
}

/// One best-first search; `decided` means its positions ran out (among sensible steps, that
/// proves nothing).
fn search(deck: &SpiderDeck, budget: u64, sensible: bool, salt: u64) -> Answer {
    let stock: Vec<Code> = deck.stock().iter().map(|&c| code(c)).collect();
    let start = Position::start(deck);
    let mut buf = Vec::with_capacity(160);
    start.pack(&mut buf);
    let mut seen = KeySet::default();
    seen.insert(hash(&buf));
    let mut nodes = vec![Node {
        parent: u32::MAX,
        step: Step::Deal,
        packed: Some(buf.clone().into_boxed_slice()),
    }];
    let mut open = BinaryHeap::new();
    open.push((Reverse(start.score() * 4), 0u16, 0u32));
    let mut steps = Vec::with_capacity(64);
    let mut parts = Vec::with_capacity(8);
    let (mut states, mut stored, mut peak) = (0u64, buf.len(), 0usize);
    let finish = |nodes: &[Node], end: Option<u32>, decided, states, peak| {
        let steps = end.map(|mut i| {
            let mut line = Vec::new();
            while nodes[i as usize].parent != u32::MAX {
                line.push(nodes[i as usize].step);
                i = nodes[i as usize].parent;
            }
            line.reverse();
            if sensible {
                line = expand_line(deck, &stock, &line);
            }
            line
        });
        Answer {
            steps,
            decided,
            states,
            peak_bytes: peak,
            millis: 0.0,
        }
    };
    while let Some((_, depth, index)) = open.pop() {
        if states >= budget {
            return finish(&nodes, None, false, states, peak);
        }
        let packed = nodes[index as usize]
            .packed
            .take()
            .expect("an open position keeps its packed form");
        stored -= packed.len();
        let position = Position::unpack(&packed);
        states += 1;
        if sensible {
            position.sensible_moves(&mut steps);
        } else {
            position.legal_steps(&mut steps);
        }
        for &step in &steps {
            let mut next = position.clone();
            if sensible {
                parts.clear();
                position.expand(step, &mut parts);
                for &part in &parts {
                    next.play(part, &stock);
                }
            } else {
                next.play(step, &stock);
            }
            next.pack(&mut buf);
            if !seen.insert(hash(&buf)) {
                continue;
            }
            nodes.push(Node {
                parent: index,
                step,
                packed: Some(buf.clone().into_boxed_slice()),
            });
            let child = nodes.len() as u32 - 1;
            if next.done == 8 {
                return finish(&nodes, Some(child), true, states, peak);
            }
            stored += buf.len();
            let score = next.score() * 4 + tie_break(&buf, salt);
            open.push((Reverse(score), depth + 1, child));
        }
        if states % 4096 == 0 {
            let bytes = stored
                + nodes.capacity() * std::mem::size_of::<Node>()
                + open.capacity() * 12
                + seen.capacity() * 9;
            peak = peak.max(bytes);
        }
    }
    finish(&nodes, None, true, states, peak)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::spider::{rules, Suits};

    #[test]
    fn solutions_replay_through_the_rules() {
        for (seed, suits) in [(2, Suits::One), (5, Suits::Two)] {
            let deck = SpiderDeck::shuffled(seed, suits);
            let answer = solve(&deck);
            let steps: Vec<String> = answer
                .steps
                .expect("these deals are solved")
                .iter()
                .map(Step::to_string)
                .collect();
            rules::replay(&deck, &steps).unwrap();
        }
    }
}
