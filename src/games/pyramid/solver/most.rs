//! The most of a measure (points, or cards of one rank removed) that any line from a position can
//! reach. Both measures depend only on which cards are gone, so, as in `reach`, a state is just
//! the pyramid's shape and the stock and waste cards left, kept with the earliest point of the
//! stock's timeline (recycles used, stock index) it was reached at: an earlier point can do all
//! that a later one can, by drawing. Expanding a state walks the rest of its timeline in place:
//! pyramid removals and the waste's top at its own point (later is never better), and the stock's
//! top, alone, with a pyramid card or with the waste's top, at every point after.
//!
//! States are taken by the most they could still reach (`Measure::upper`, up to the amount asked),
//! highest first, then by what they have already (deepest first, so that good lines are found
//! early), then by timeline point; a state found again at an earlier point is expanded again from
//! there. The bound depends on the cards alone and never grows along a line, so once the best
//! bound left is no better than the best found, nothing can beat it and the search ends.
//! The fewest steps to that most come after, from the A* (`goal`).

use super::goal::Measure;
use super::problem::*;
use super::shapes::{ShapeId, Shapes, EMPTY_SHAPE};
use super::visited::Visited;
use crate::games::pyramid::PYRAMID_SIZE;
use std::collections::BinaryHeap;

const ROUND: usize = STOCK_SLOTS + 1;

/// What the search found.
pub struct Most {
    /// The most found: the most there is, unless the budget ran out first.
    pub value: u32,
    pub expanded: u64,
    pub bytes: usize,
}

fn key_of(shape: ShapeId, flags: u32) -> u64 {
    (shape as u64) << STOCK_SLOTS | flags as u64
}

/// The most of `measure` from the problem's start, or as soon as `enough` is reached, that;
/// `budget` states expanded at most.
pub fn most<M: Measure>(problem: &Problem, measure: &M, enough: u32, budget: u64) -> Most {
    let shapes = Shapes::get();
    let full = |key: u64| {
        pack(
            (key >> STOCK_SLOTS) as ShapeId,
            0,
            0,
            (key & ((1 << STOCK_SLOTS) - 1)) as u32,
        )
    };
    let start = problem.start;
    let start_key = key_of(shape_of(start), flags_of(start));
    let p0 = cycle_of(start) as usize * ROUND + stock_of(start) as usize;
    let mut best = measure.value(start);
    let ceiling = measure.upper(start).min(enough);
    let mut earliest = Visited::new();
    // Highest bound first, a bound at or past `enough` counting as `enough` (any line there will
    // do, and the deepest finds one soonest); among equals the state that has most already
    // (deepest), then the earliest point. A state found again at an earlier point after it was
    // expanded is expanded again from there.
    let mut queue = BinaryHeap::new();
    earliest.improve(start_key, p0 as u32, 0);
    queue.push(Entry::new(
        measure.upper(start).min(enough),
        best,
        p0,
        start_key,
    ));
    let mut expanded = 0u64;
    let mut offers: Vec<(u64, usize)> = Vec::new();
    while let Some(entry) = queue.pop() {
        let (upper, p, key) = entry.parts();
        if upper <= best || best >= ceiling {
            break;
        }
        if expanded == budget {
            return Most {
                value: best,
                expanded,
                bytes: earliest.bytes(),
            };
        }
        if earliest.get(key).is_some_and(|(q, _)| (q as usize) < p) {
            continue;
        }
        expanded += 1;
        offers.clear();
        expand(problem, shapes, key, p, &mut offers);
        // The table is far larger than the caches: its slots for all the offers are asked for
        // first, so that their loads overlap.
        for &(next, _) in &offers {
            earliest.prefetch(next);
        }
        for &(next, q) in &offers {
            if earliest.improve(next, q as u32, 0) {
                let full = full(next);
                let value = measure.value(full);
                best = best.max(value);
                let u = measure.upper(full);
                if next >> STOCK_SLOTS != EMPTY_SHAPE as u64 && u > best {
                    queue.push(Entry::new(u.min(enough), value, q, next));
                }
            }
        }
    }
    Most {
        value: best,
        expanded,
        bytes: earliest.bytes(),
    }
}

/// A queued state, packed so that a larger entry is taken first: its bound (bits 53..64), what it
/// has already (42..53), its timeline point, the earliest largest (35..42), and its key (0..35).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Entry(u64);

impl Entry {
    fn new(upper: u32, value: u32, p: usize, key: u64) -> Entry {
        assert!(upper < 1 << 11 && value < 1 << 11 && p < 128 && key < 1 << 35);
        Entry((upper as u64) << 53 | (value as u64) << 42 | (127 - p as u64) << 35 | key)
    }

    /// Its bound, timeline point and key.
    fn parts(self) -> (u32, usize, u64) {
        let p = 127 - (self.0 >> 35 & 127) as usize;
        ((self.0 >> 53) as u32, p, self.0 & ((1 << 35) - 1))
    }
}

/// Offers every state one removal away from `key` at point `p` or later in its timeline.
fn expand(problem: &Problem, shapes: &Shapes, key: u64, p: usize, out: &mut Vec<(u64, usize)>) {
    let shape = (key >> STOCK_SLOTS) as ShapeId;
    let flags = (key & ((1 << STOCK_SLOTS) - 1)) as u32;
    let (mut cycle, here) = (p / ROUND, (p % ROUND) as u32);
    let values = &problem.values;
    let value = |slot: u32| values[PYRAMID_SIZE + slot as usize];
    let open = shapes.uncovered[shape as usize];
    let mut by_value = [0u32; 14];
    let mut bits = open;
    while bits != 0 {
        let a = bits.trailing_zeros();
        bits &= bits - 1;
        by_value[values[a as usize] as usize] |= 1 << a;
    }
    let at = |cycle: usize, stock: u32| cycle * ROUND + stock as usize;
    // A stock or waste card of value v taken with each uncovered pyramid partner, or alone (a king).
    let take = |out: &mut Vec<(u64, usize)>, v: u8, rest: u32, q: usize| {
        if v == 13 {
            out.push((key_of(shape, rest), q));
            return;
        }
        let mut partners = by_value[13 - v as usize];
        while partners != 0 {
            let b = partners.trailing_zeros();
            partners &= partners - 1;
            out.push((
                key_of(shapes.after_removing[shape as usize][b as usize], rest),
                q,
            ));
        }
    };
    // An uncovered pyramid king goes first: removing it never loses anything (it pairs with
    // nothing, and only uncovers cards), so it is the only successor.
    let kings = open & problem.king_positions;
    if kings != 0 {
        let a = kings.trailing_zeros() as usize;
        out.push((key_of(shapes.after_removing[shape as usize][a], flags), p));
        return;
    }
    // Here: pyramid pairs, and the waste's top.
    let mut bits = open;
    while bits != 0 {
        let a = bits.trailing_zeros();
        bits &= bits - 1;
        let v = values[a as usize];
        let mut partners = by_value[13 - v as usize] & bits;
        while partners != 0 {
            let b = partners.trailing_zeros();
            partners &= partners - 1;
            out.push((key_of(shapes.without_pair(shape, a, b), flags), p));
        }
    }
    let mut stock = next_card(flags, here);
    if let Some(w) = waste_top(flags, stock) {
        take(out, value(w), flags & !(1 << w), p);
    }
    // On along the stock: each card on its top, alone, with the pyramid or with the waste's top.
    loop {
        if stock == STOCK_EMPTY {
            if cycle < 2 && flags != 0 {
                cycle += 1;
                stock = next_card(flags, 0);
                continue;
            }
            return;
        }
        let rest = flags & !(1 << stock);
        let after = next_card(rest, stock + 1);
        take(out, value(stock), rest, at(cycle, after));
        if value(stock) == 13 {
            // A king on the stock's top is taken, never passed: the state without it can do
            // all that one with it can, and the walk goes on from there.
            return;
        }
        if let Some(w) = waste_top(flags, stock) {
            if value(w) + value(stock) == 13 {
                out.push((key_of(shape, rest & !(1 << w)), at(cycle, after)));
            }
        }
        stock = next_card(flags, stock + 1);
    }
}
