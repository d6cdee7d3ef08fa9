//! One position to solve, turned into the solver's terms: card values by slot, the packed start
//! state, and per pyramid shape the heuristic and the cards the stock must still supply.
//!
//! Slots: 0..28 are pyramid positions; 28..52 are the stock/waste cards in the order they pass
//! through the stock (waste from its bottom, then stock from its top). A recycle turns the waste
//! back into the stock in the same order, so this order never changes during a game.
//!
//! Packed state (`Key`, 42 bits of a u64):
//! - bits 0..24: which stock/waste slots still hold a card
//! - bits 24..29: the stock's top slot (0..24; 24 when the stock is empty). Slots below it that
//!   still hold a card are the waste, its top the highest of them.
//! - bits 29..31: recycles used
//! - bits 31..42: the pyramid's shape (see `shapes`)

use super::shapes::{ShapeId, Shapes, EMPTY_SHAPE};
use crate::cards::Card;
use crate::games::pyramid::{State, PYRAMID_SIZE};

pub type Key = u64;

pub const STOCK_SLOTS: usize = 24;
/// The stock index meaning "the stock is empty".
pub const STOCK_EMPTY: u32 = STOCK_SLOTS as u32;
pub const KEY_BITS: u32 = 42;
pub const KEY_MASK: u64 = (1 << KEY_BITS) - 1;
const FLAG_MASK: u64 = (1 << STOCK_SLOTS) - 1;

pub fn pack(shape: ShapeId, cycle: u32, stock: u32, flags: u32) -> Key {
    (shape as u64) << 31 | (cycle as u64) << 29 | (stock as u64) << 24 | flags as u64
}
pub fn shape_of(key: Key) -> ShapeId {
    (key >> 31 & 0x7FF) as ShapeId
}
pub fn cycle_of(key: Key) -> u32 {
    (key >> 29 & 3) as u32
}
pub fn stock_of(key: Key) -> u32 {
    (key >> 24 & 31) as u32
}
pub fn flags_of(key: Key) -> u32 {
    (key & FLAG_MASK) as u32
}

/// The first slot at or after `from` that still holds a card, or `STOCK_EMPTY`.
pub fn next_card(flags: u32, from: u32) -> u32 {
    if from >= STOCK_EMPTY {
        return STOCK_EMPTY;
    }
    let rest = flags >> from;
    if rest == 0 {
        STOCK_EMPTY
    } else {
        from + rest.trailing_zeros()
    }
}

/// The waste's top slot (the highest card below the stock index), if any.
pub fn waste_top(flags: u32, stock: u32) -> Option<u32> {
    let below = flags & ((1u64 << stock) - 1) as u32;
    (below != 0).then(|| 31 - below.leading_zeros())
}

/// One requirement on the stock: at least `count` of the slots in `mask` must still hold a card.
#[derive(Clone, Copy, Debug)]
pub struct Need {
    pub mask: u32,
    pub count: u32,
}

impl Need {
    /// Whether the stock and waste cards in `flags` hold enough of it.
    #[inline]
    pub fn met_by(&self, flags: u32) -> bool {
        (flags & self.mask).count_ones() >= self.count
    }
}

/// A position to solve, with everything the search looks up.
pub struct Problem {
    /// The card in each slot (pyramid positions, then stock/waste slots).
    pub cards: [Option<Card>; 52],
    /// Each slot's value (0 where empty).
    pub values: [u8; 52],
    /// Pyramid positions holding kings.
    pub king_positions: u32,
    /// Per value, the pyramid positions holding a card of that value.
    pub pyramid_by_value: [u32; 14],
    /// Per value, the stock/waste slots holding a card of that value.
    pub stock_by_value: [u32; 14],
    /// Per shape: a lower bound on the steps still needed to clear the pyramid.
    pub heuristic: Vec<u8>,
    /// Per shape and value class (v, 13 - v) for v in 1..=6: the pyramid cards of value v, of
    /// value 13 - v, and the most pairs they can form among themselves.
    classes: Vec<Classes>,
    need_start: Vec<u32>,
    needs: Vec<Need>,
    /// The packed start state.
    pub start: Key,
    /// The earliest timeline position (recycles used, stock index) at which the pyramid can be
    /// cleared from the start, when known (see `reach`). No solution ends before it.
    pub earliest_goal: Option<(u32, u32)>,
}

impl Problem {
    /// Sets up the search for a (valid) position.
    pub fn new(state: &State) -> Problem {
        let shapes = Shapes::get();
        let mut cards = [None; 52];
        cards[..PYRAMID_SIZE].copy_from_slice(&state.pyramid);
        for (i, card) in state.waste.iter().chain(&state.stock).enumerate() {
            cards[PYRAMID_SIZE + i] = Some(*card);
        }
        let values = cards.map(|c| c.map_or(0, |c| c.value()));
        let mut value_mask = [0u32; 14];
        for i in 0..STOCK_SLOTS {
            value_mask[values[PYRAMID_SIZE + i] as usize] |= 1 << i;
        }
        let mut pyramid_by_value = [0u32; 14];
        for p in 0..PYRAMID_SIZE {
            pyramid_by_value[values[p] as usize] |= 1 << p;
        }
        let king_positions = pyramid_by_value[13];

        let mut heuristic = Vec::with_capacity(shapes.len());
        let mut need_start = Vec::with_capacity(shapes.len() + 1);
        let mut needs = Vec::new();
        // Per value class (v, 13 - v): its pyramid positions (at most 8), and the matching size
        // for each subset of them still present, computed when first needed.
        let mut classes: Vec<(u8, Vec<usize>, [u8; 256])> = (1..=6u8)
            .map(|low| {
                let mask = pyramid_by_value[low as usize] | pyramid_by_value[13 - low as usize];
                (
                    low,
                    (0..PYRAMID_SIZE).filter(|&p| mask >> p & 1 == 1).collect(),
                    [u8::MAX; 256],
                )
            })
            .collect();
        let mut shape_classes = Vec::with_capacity(shapes.len());
        for &shape_flags in &shapes.flags {
            need_start.push(needs.len() as u32);
            let mut counts = [[0u8; 3]; 6];
            let mut h = (shape_flags & king_positions).count_ones();
            for (low, positions, cache) in classes.iter_mut() {
                let low = *low;
                let subset = positions.iter().enumerate().fold(0usize, |m, (i, &p)| {
                    m | ((shape_flags >> p & 1) as usize) << i
                });
                let (a, b) = (
                    shape_flags & pyramid_by_value[low as usize],
                    shape_flags & pyramid_by_value[13 - low as usize],
                );
                if cache[subset] == u8::MAX {
                    let list = |m: u32| {
                        (0..PYRAMID_SIZE)
                            .filter(|&p| m >> p & 1 == 1)
                            .collect::<Vec<_>>()
                    };
                    cache[subset] = max_matching(&list(a), &list(b), &shapes.related) as u8;
                }
                let matched = cache[subset] as usize;
                let (a, b) = (a.count_ones() as usize, b.count_ones() as usize);
                counts[low as usize - 1] = [a as u8, b as u8, matched as u8];
                h += (a + b - matched) as u32;
                // Unmatched pyramid cards of one value need partners of the other from the stock.
                for (unmatched, partner) in [(a - matched, 13 - low), (b - matched, low)] {
                    if unmatched > 0 {
                        needs.push(Need {
                            mask: value_mask[partner as usize],
                            count: unmatched as u32,
                        });
                    }
                }
            }
            heuristic.push(h as u8);
            shape_classes.push(counts);
        }
        need_start.push(needs.len() as u32);
        let shape = shapes
            .id(pyramid_flags(state))
            .expect("a validated state has a possible pyramid shape");
        let flags = ((1u64 << (state.waste.len() + state.stock.len())) - 1) as u32;
        let stock = next_card(flags, state.waste.len() as u32);
        let start = pack(shape, state.recycles as u32, stock, flags);
        Problem {
            cards,
            values,
            king_positions,
            pyramid_by_value,
            stock_by_value: value_mask,
            heuristic,
            classes: shape_classes,
            need_start,
            needs,
            start,
            earliest_goal: None,
        }
    }

    /// Can the pyramid of this shape still be cleared with the stock/waste cards in `flags`?
    /// (Each value needs enough partners, counting that a card cannot pair with one it covers.)
    #[inline]
    pub fn feasible(&self, shape: ShapeId, flags: u32) -> bool {
        let (from, to) = (
            self.need_start[shape as usize],
            self.need_start[shape as usize + 1],
        );
        self.needs[from as usize..to as usize]
            .iter()
            .all(|n| n.met_by(flags))
    }

    /// `feasible`, and when it is, a lower bound on the stock index at which the pyramid of
    /// `shape` can be cleared in this round, from stock index `here` with the cards in `flags`
    /// left (a later round is later still): `needs_bound` of the shape's needs.
    #[inline]
    pub fn goal_bound(&self, shape: ShapeId, flags: u32, here: u32) -> Option<u32> {
        let (from, to) = (
            self.need_start[shape as usize] as usize,
            self.need_start[shape as usize + 1] as usize,
        );
        needs_bound(&self.needs[from..to], flags, here)
    }

    #[inline]
    pub fn h(&self, shape: ShapeId) -> u32 {
        self.heuristic[shape as usize] as u32
    }

    /// An uncovered pyramid card whose one remaining partner in the whole game is another uncovered
    /// pyramid card: the two must go together, and removing them now never costs a step.
    pub fn forced_pair(&self, shape_flags: u32, open: u32, flags: u32) -> Option<(u32, u32)> {
        let mut bits = open;
        while bits != 0 {
            let a = bits.trailing_zeros();
            bits &= bits - 1;
            let partner = 13 - self.values[a as usize] as usize;
            let in_pyramid = shape_flags & self.pyramid_by_value[partner];
            if in_pyramid.count_ones() == 1
                && flags & self.stock_by_value[partner] == 0
                && in_pyramid & open != 0
            {
                return Some((a, in_pyramid.trailing_zeros()));
            }
        }
        None
    }

    /// A lower bound on the steps still needed from this state: `h` for the pyramid's removals,
    /// plus the steps that getting through the stock to the cards the pyramid needs must cost
    /// (`pass_cost`). Admissible; not always consistent (the search applies path-max).
    pub fn h_full(&self, key: Key) -> u32 {
        let (shape, cycle, stock, flags) =
            (shape_of(key), cycle_of(key), stock_of(key), flags_of(key));
        let to_goal = self.to_reach_goal_position(shape, cycle, stock, flags);
        // Before the earliest goal position, getting there nearly always costs more than reaching
        // what the pyramid needs (measured: the states expanded barely change), so the needs
        // are priced only past it.
        self.h(shape)
            + if to_goal > 0 {
                to_goal
            } else {
                self.to_reach_needs(shape, cycle, stock, flags)
            }
    }

    /// The steps it costs to get to the earliest position a solution can end at: every card
    /// still ahead in this round of the stock up to there is passed, and each recycle is a step.
    fn to_reach_goal_position(&self, shape: ShapeId, cycle: u32, stock: u32, flags: u32) -> u32 {
        let Some(goal) = self.earliest_goal else {
            return 0;
        };
        let key = pack(shape, cycle, stock, flags);
        self.to_reach_position(goal, &self.classes[shape as usize], key)
    }

    /// `to_reach_goal_position` for any set of pyramid cards (`classes`, as in
    /// `needs_reach_cost`) and any position (recycles used, stock index) a line must get to.
    pub fn to_reach_position(&self, goal: (u32, u32), classes: &Classes, key: Key) -> u32 {
        let (goal_cycle, goal_stock) = goal;
        let (shape, cycle, stock, flags) =
            (shape_of(key), cycle_of(key), stock_of(key), flags_of(key));
        let pass = |counts: &[u32; 14]| pass_cost(classes, counts);
        let below = |slot: u32| ((1u64 << slot) - 1) as u32;
        let ahead = flags & !below(stock);
        if cycle < goal_cycle {
            let rounds = goal_cycle - cycle;
            let last_round = below(goal_stock);
            // The cards behind are passed again in the next round unless removed first: with a
            // pyramid card, or from the waste with a card passing the stock's top (whose step
            // counts already).
            let behind = flags
                & !ahead
                & if rounds >= 2 {
                    FLAG_MASK as u32
                } else {
                    last_round
                };
            let (in_ahead, in_behind) = (self.value_counts(ahead), self.value_counts(behind));
            let mut with_passing = 0;
            let mut in_both = in_ahead;
            for v in 1..=13 {
                in_both[v] += in_behind[v];
                if v <= 12 {
                    with_passing += in_ahead[v].min(in_behind[13 - v]);
                }
            }
            let this_round = pass(&in_ahead).max(pass(&in_both).saturating_sub(with_passing));
            // A card nothing left in the game can pair with is drawn again in every round that
            // passes it.
            let dead = self.unpairable(shape, flags);
            let (dead_ahead, dead_behind) = (dead & ahead, dead & !ahead);
            let mut again =
                (rounds - 1) * dead_ahead.count_ones() + (dead_ahead & last_round).count_ones();
            if rounds >= 2 {
                again += (rounds - 2) * dead_behind.count_ones()
                    + (dead_behind & last_round).count_ones();
            }
            this_round + rounds + again
        } else if cycle == goal_cycle && stock < goal_stock {
            pass(&self.value_counts(ahead & below(goal_stock)))
        } else {
            0
        }
    }

    /// The stock and waste cards other than kings that nothing left in the game can pair with.
    fn unpairable(&self, shape: ShapeId, flags: u32) -> u32 {
        let pyramid = Shapes::get().flags[shape as usize];
        (1..=12)
            .filter(|&v| {
                self.pyramid_by_value[13 - v] & pyramid == 0
                    && self.stock_by_value[13 - v] & flags == 0
            })
            .fold(0, |m, v| m | self.stock_by_value[v] & flags)
    }

    /// The steps it costs to bring within reach a partner for every pyramid card that needs one
    /// from the stock or waste. For each need the cheapest route
    /// counts (on through the stock, down the waste, or round after a recycle), and the largest
    /// over the needs.
    fn to_reach_needs(&self, shape: ShapeId, cycle: u32, stock: u32, flags: u32) -> u32 {
        let (from, to) = (
            self.need_start[shape as usize] as usize,
            self.need_start[shape as usize + 1] as usize,
        );
        let key = pack(shape, cycle, stock, flags);
        self.needs_reach_cost(&self.needs[from..to], &self.classes[shape as usize], key)
    }

    /// `to_reach_needs` for any set of pyramid cards: `needs` are its partners from the stock and
    /// waste, `classes` its cards per value class (as `classes` holds them for a whole shape), the
    /// unmatched ones of which take passed stock cards for free.
    pub fn needs_reach_cost(&self, needs: &[Need], classes: &Classes, key: Key) -> u32 {
        let (cycle, stock, flags) = (cycle_of(key), stock_of(key), flags_of(key));
        let below = |slot: u32| ((1u64 << slot) - 1) as u32;
        let open = (if stock < STOCK_EMPTY { 1 << stock } else { 0 })
            | waste_top(flags, stock).map_or(0, |w| 1 << w);
        let ahead_all = flags & !below(stock);
        let pass = |slots: u32| pass_cost(classes, &self.value_counts(slots));
        let mut worst = 0;
        for need in needs {
            let cards = flags & need.mask;
            if cards & open != 0 {
                continue;
            }
            let (ahead, behind) = (cards & ahead_all, cards & below(stock));
            let mut best = u32::MAX;
            if ahead != 0 {
                let x = ahead.trailing_zeros();
                best = best.min(pass(ahead_all & below(x)));
            }
            if behind != 0 {
                let y = 31 - behind.leading_zeros();
                best = best.min(pass(flags & below(stock) & !below(y + 1)));
            }
            if cycle < 2 && cards != 0 {
                let z = cards.trailing_zeros();
                best = best.min(1 + pass(ahead_all | flags & below(z)));
            }
            if best != u32::MAX {
                worst = worst.max(best);
            }
        }
        worst
    }

    /// How many of the stock/waste slots in `slots` hold each value.
    #[inline]
    fn value_counts(&self, slots: u32) -> [u32; 14] {
        let mut counts = [0; 14];
        for (count, mask) in counts.iter_mut().zip(&self.stock_by_value).skip(1) {
            *count = (slots & mask).count_ones();
        }
        counts
    }

    pub fn is_goal(key: Key) -> bool {
        shape_of(key) == EMPTY_SHAPE
    }
}

/// `Problem::goal_bound` for any set of needs: `None` when the cards in `flags` cannot meet
/// them, else the earliest stock index in this round, from `here`, at which they can all be met.
/// Each need's partners come from the waste, taken as at hand, or from the stock ahead: a card in
/// slot s no sooner than when s is the stock's top.
#[inline]
pub fn needs_bound(needs: &[Need], flags: u32, here: u32) -> Option<u32> {
    let behind = ((1u64 << here) - 1) as u32;
    let mut bound = here;
    for need in needs {
        let cards = flags & need.mask;
        let at_hand = (cards & behind).count_ones();
        if at_hand >= need.count {
            continue;
        }
        // The (count - at_hand)-th card ahead.
        let mut ahead = cards & !behind;
        for _ in 1..need.count - at_hand {
            ahead &= ahead.wrapping_sub(1);
        }
        if ahead == 0 {
            return None;
        }
        bound = bound.max(ahead.trailing_zeros());
    }
    Some(bound)
}

/// Per value class (v, 13 - v) for v in 1..=6, of a set of pyramid cards: its cards of value v,
/// of value 13 - v, and the most pairs they can form among themselves.
pub type Classes = [[u8; 3]; 6];

/// The fewest steps beyond the removals a set of pyramid cards needs (`classes`) that passing
/// stock cards (`counts` per value) must cost. Each passed card is drawn, removed as a king or
/// with the waste top (a step each), or removed from the stock's top with a pyramid partner,
/// which is free only while that pyramid card had no partner among the set anyway: past that,
/// each pair it breaks costs a step more. The same prices digging down the waste to a card: each
/// card above it is removed with a pyramid partner, as a king, or with the stock's top.
#[inline]
pub fn pass_cost(classes: &Classes, counts: &[u32; 14]) -> u32 {
    let mut cost = counts[13];
    for (i, &[a, b, m]) in classes.iter().enumerate() {
        let v = i + 1;
        let (a, b, m) = (a as u32, b as u32, m as u32);
        // Stock cards of value 13 - v pair with pyramid cards of value v, and the other way.
        let into_a = counts[13 - v];
        let into_b = counts[v];
        let (free_a, free_b) = (into_a.min(a - m), into_b.min(b - m));
        let (more_a, more_b) = (into_a.min(a) - free_a, into_b.min(b) - free_b);
        cost += into_a + into_b - free_a - free_b - more_a.min(more_b);
    }
    cost
}

/// The pyramid's occupied positions as flags.
pub fn pyramid_flags(state: &State) -> u32 {
    (0..PYRAMID_SIZE)
        .filter(|&p| state.pyramid[p].is_some())
        .fold(0, |m, p| m | 1 << p)
}

/// The largest number of disjoint pairs (x from `a`, y from `b`) with x and y not covering each other.
pub fn max_matching(a: &[usize], b: &[usize], related: &[u32; PYRAMID_SIZE]) -> usize {
    fn augment(
        x: usize,
        a: &[usize],
        b: &[usize],
        related: &[u32],
        seen: &mut u32,
        owner: &mut [usize],
    ) -> bool {
        for (j, &y) in b.iter().enumerate() {
            if related[a[x]] >> y & 1 == 1 || *seen >> j & 1 == 1 {
                continue;
            }
            *seen |= 1 << j;
            if owner[j] == usize::MAX || augment(owner[j], a, b, related, seen, owner) {
                owner[j] = x;
                return true;
            }
        }
        false
    }
    let mut owner = vec![usize::MAX; b.len()];
    (0..a.len())
        .filter(|&x| augment(x, a, b, related, &mut 0, &mut owner))
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Deck;

    #[test]
    fn stock_index_helpers() {
        assert_eq!(next_card(0b1010, 0), 1);
        assert_eq!(next_card(0b1010, 2), 3);
        assert_eq!(next_card(0b1010, 4), STOCK_EMPTY);
        assert_eq!(waste_top(0b1010, 3), Some(1));
        assert_eq!(waste_top(0b1010, 1), None);
        assert_eq!(waste_top(0b1010, STOCK_EMPTY), Some(3));
    }

    #[test]
    fn start_of_a_deal() {
        let p = Problem::new(&State::deal(&Deck::shuffled(3)));
        assert_eq!(flags_of(p.start), (1 << 24) - 1);
        assert_eq!(stock_of(p.start), 0);
        assert_eq!(cycle_of(p.start), 0);
        assert_eq!(p.h(EMPTY_SHAPE), 0);
        assert!(p.h(shape_of(p.start)) >= 14);
    }

    #[test]
    fn matching_respects_covering() {
        let shapes = Shapes::get();
        // 0 covers-relation with 12; 21 and 27 are unrelated.
        assert_eq!(max_matching(&[0], &[12], &shapes.related), 0);
        assert_eq!(max_matching(&[21, 0], &[27, 12], &shapes.related), 1);
        assert_eq!(max_matching(&[21, 22], &[27, 26], &shapes.related), 2);
    }
}
