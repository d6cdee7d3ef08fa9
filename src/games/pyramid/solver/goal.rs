//! The solver for goals other than clearing the board: a score, the highest score, or cards of one
//! rank removed. Both scores and counts depend only on which cards are gone, so each is a function
//! of the packed state, counted from the position solved (cards removed before it earned their
//! points already).
//!
//! - A goal of reaching an amount (`score:N`, `clear:R:N`) is the board's A* (`search`) with
//!   another goal test and bound (`Target`). When N is more than any line that keeps the apex can
//!   earn, every line that reaches it clears the pyramid, and the board's pruning and bound hold
//!   too; the reachability proof comes first, as for the board.
//! - The most a deal allows (`max-score`, and the best line when an amount cannot be reached) is
//!   found by `most`, then reached in the fewest steps as an amount.

mod cards;

use super::problem::*;
use super::reach;
use super::search::{Kings, Target};
use super::shapes::{ShapeId, Shapes};
use crate::games::pyramid::score::{REMOVAL_POINTS, ROW_BONUS};
use crate::games::pyramid::{Position, ROWS};
pub use cards::{Cards, Cones, MostCards};
use std::cell::Cell;
use std::collections::HashMap;

/// One row of a shape, with every row under it: what clearing them takes.
#[derive(Clone, Copy, Default)]
struct Rows {
    /// The fewest removals that clear it and the rows under it: kings one each, and each other
    /// card alone unless paired with one of these rows' cards that it does not cover.
    steps: u8,
    /// The bonus for clearing it and the rows under it.
    bonus: u16,
    /// Its needs: `needs[from..to]`, partners the stock and waste must still hold.
    from: u16,
    to: u16,
    /// Its cards per value class, for pricing the stock cards passed to reach the needs.
    classes: Classes,
}

/// The problem's cards as the counts need them (copied, so the problem stays free to change).
struct Dealt {
    start: Key,
    king_positions: u32,
    pyramid_by_value: [u32; 14],
    stock_by_value: [u32; 14],
    apex_value: u8,
    /// The value of the card at each pyramid position.
    values: [u8; 28],
    /// Per position, the positions it covers (directly or not): cards that stay until it goes.
    covers: [u32; 28],
}

impl Dealt {
    fn new(problem: &Problem, shapes: &Shapes) -> Dealt {
        Dealt {
            start: problem.start,
            king_positions: problem.king_positions,
            pyramid_by_value: problem.pyramid_by_value,
            stock_by_value: problem.stock_by_value,
            apex_value: problem.values[0],
            values: std::array::from_fn(|p| problem.values[p]),
            covers: std::array::from_fn(|p| shapes.related[p] & !Position(p as u8).cone_below()),
        }
    }

    /// What removing every pyramid card of `set` takes: kings one step each, and the other cards
    /// paired among themselves where they can be (two cards pair only if neither covers the
    /// other), else one step each; returns those steps. A card of the set that no line can pair
    /// with a pyramid card (of the set, or of those `outside` it that it neither covers nor is
    /// covered by: each partners one card at most) needs a partner from the stock and waste: what
    /// they must hold is pushed onto `needs`, and the set's cards per value class are written into
    /// `classes`. `matchings` keeps each matching found (by the positions on either side), so
    /// that each is computed once.
    fn removing(
        &self,
        set: u32,
        outside: u32,
        matchings: &mut HashMap<u64, u32>,
        needs: &mut Vec<Need>,
        classes: &mut Classes,
    ) -> u32 {
        let positions = |m: u32| (0..28).filter(|&p| m >> p & 1 == 1).collect::<Vec<usize>>();
        let related = &Shapes::get().related;
        let mut matching = |a: u32, b: u32| {
            *matchings
                .entry((a as u64) << 32 | b as u64)
                .or_insert_with(|| max_matching(&positions(a), &positions(b), related) as u32)
        };
        let by_value = &self.pyramid_by_value;
        let mut steps = (set & self.king_positions).count_ones();
        for low in 1..=6usize {
            let high = 13 - low;
            let (a, b) = (set & by_value[low], set & by_value[high]);
            let m = matching(a, b);
            let (na, nb) = (a.count_ones(), b.count_ones());
            classes[low - 1] = [na as u8, nb as u8, m as u8];
            steps += na + nb - m;
            // Each side's cards paired with any pyramid partner they can have: the rest need the
            // stock's.
            let mut paired =
                |own: u32, partners: u32, partner: usize| match outside & by_value[partner] {
                    0 => m,
                    more => matching(own, partners | more),
                };
            let (paired_a, paired_b) = (paired(a, b, high), paired(b, a, low));
            for (unpaired, partner) in [(na - paired_a, high), (nb - paired_b, low)] {
                if unpaired > 0 {
                    needs.push(Need {
                        mask: self.stock_by_value[partner],
                        count: unpaired,
                    });
                }
            }
        }
        steps
    }
}

/// The pyramid positions of row `r` (0 the apex's).
fn row_mask(r: usize) -> u32 {
    Position::all()
        .filter(|p| p.row() == r)
        .fold(0u32, |m, p| m | 1 << p.index())
}

/// What a state has earned since the start, and what it could still earn.
pub struct Counts {
    problem: Dealt,
    start_pyramid: u32,
    start_flags: u32,
    /// Per shape: bonus points won since the start.
    bonus_won: Vec<u16>,
    /// Per shape, the rows still holding cards from the bottom up (`row_count` of them).
    rows: Vec<[Rows; ROWS]>,
    row_count: Vec<u8>,
    needs: Vec<Need>,
    /// The pyramid is not yet cleared at the start.
    apex_left: bool,
    /// No line from the start clears the pyramid (`limit_rows`): the apex is never removed.
    apex_stays: bool,
    /// The most rows, counted from the bottom, that any line from the start clears (`limit_rows`).
    most_rows: usize,
    /// Per count of rows cleared from the bottom: the earliest timeline position (recycles used,
    /// stock index) at which any line from the start has cleared them, where known.
    pub earliest_rows: [Option<(u32, u32)>; ROWS + 1],
    /// What `stuck` found for recent states (`Memo`).
    memo: Memo,
}

/// `Counts::stuck` for recently asked states, in a direct-mapped table. It depends only on the
/// pyramid's shape and which values the stock and waste still hold, which few removals change:
/// most states a search asks about share them with one asked shortly before.
struct Memo(Box<[Cell<u64>]>);

/// Memo entries: bits 0..28 the stuck positions, 28..40 the values the stock and waste hold (bit
/// v - 1 for value v, kings left out), 40..51 the shape; an empty slot is all ones.
const MEMO_BITS: u32 = 14;
const MEMO_EMPTY: u64 = u64::MAX;

impl Memo {
    fn new() -> Memo {
        Memo((0..1 << MEMO_BITS).map(|_| Cell::new(MEMO_EMPTY)).collect())
    }

    fn clear(&self) {
        self.0.iter().for_each(|c| c.set(MEMO_EMPTY));
    }
}

impl Counts {
    pub fn new(problem: &Problem) -> Counts {
        let shapes = Shapes::get();
        let start_pyramid = shapes.flags[shape_of(problem.start) as usize];
        let masks: Vec<u32> = (0..ROWS).map(row_mask).collect();
        let dealt = Dealt::new(problem, shapes);
        let mut matchings = HashMap::new();
        let mut needs = Vec::new();
        let (mut bonus_won, mut rows, mut row_count) = (Vec::new(), Vec::new(), Vec::new());
        for &flags in &shapes.flags {
            let (mut won, mut list, mut n) = (0, [Rows::default(); ROWS], 0);
            let (mut set, mut bonus) = (0u32, 0u16);
            for r in (0..ROWS).rev() {
                if flags & masks[r] == 0 {
                    if start_pyramid & masks[r] != 0 {
                        won += ROW_BONUS[r] as u16;
                    }
                    continue;
                }
                set |= flags & masks[r];
                bonus += ROW_BONUS[r] as u16;
                let above = flags & !set;
                let from = needs.len() as u16;
                // Unpaired cards' partners may be the cards left above these rows.
                let mut classes = Classes::default();
                let steps = dealt.removing(set, above, &mut matchings, &mut needs, &mut classes);
                list[n] = Rows {
                    steps: steps as u8,
                    bonus,
                    from,
                    to: needs.len() as u16,
                    classes,
                };
                n += 1;
            }
            bonus_won.push(won);
            rows.push(list);
            row_count.push(n as u8);
        }
        Counts {
            problem: dealt,
            start_pyramid,
            start_flags: flags_of(problem.start),
            apex_left: start_pyramid & 1 != 0,
            apex_stays: false,
            most_rows: ROWS,
            earliest_rows: [None; ROWS + 1],
            memo: Memo::new(),
            bonus_won,
            rows,
            row_count,
            needs,
        }
    }

    /// Records that no line from the start clears more than `rows` rows (counted from the
    /// bottom, of all seven): the rows above, and their bonus, are out of every bound; when the
    /// pyramid is never cleared, so is the apex.
    pub fn limit_rows(&mut self, rows: usize) {
        self.most_rows = rows;
        self.apex_stays = rows < ROWS && self.apex_left;
        // An apex that stays is stuck.
        self.memo.clear();
    }

    /// Finds, for each count of rows from the bottom up to the most any line clears, the earliest
    /// timeline position at which a line from the start has cleared them (`reach_aim`, its
    /// states bounded by the rows' needs); rows no line clears are out of every bound after.
    /// Returns the states expanded and the bytes of the largest search.
    pub fn find_earliest_rows(&mut self, problem: &Problem) -> (u64, usize) {
        let (mut expanded, mut bytes) = (0, 0);
        let mut clear = 0u32;
        for k in 1..=self.most_rows {
            let row = ROWS - k;
            clear |= row_mask(row);
            let earliest = if k == ROWS && self.apex_left {
                // The board's own reach found it, or that no line clears the pyramid.
                problem.earliest_goal
            } else {
                let bucket = |_: &Problem, shape: ShapeId, flags: u32, p: usize| {
                    let s = shape as usize;
                    let cleared = ROWS - self.row_count[s] as usize;
                    if cleared >= k {
                        return Some(p);
                    }
                    let rows = &self.rows[s][k - cleared - 1];
                    let round = p - p % (STOCK_SLOTS + 1);
                    let needs = &self.needs[rows.from as usize..rows.to as usize];
                    needs_bound(needs, flags, (p - round) as u32).map(|h| round + h as usize)
                };
                let found = reach::reach_aim(problem, reach::Aim { clear, take: 0 }, bucket);
                expanded += found.expanded;
                bytes = bytes.max(found.bytes);
                found.earliest_goal
            };
            self.earliest_rows[k] = earliest;
            if earliest.is_none() {
                self.limit_rows(k - 1);
                break;
            }
        }
        (expanded, bytes)
    }

    /// Whether `find_earliest_rows` has been run.
    pub fn rows_found(&self) -> bool {
        self.earliest_rows[1].is_some() || self.most_rows == 0
    }

    /// Rows emptied, from the bottom.
    fn rows_cleared(&self, key: Key) -> usize {
        ROWS - self.row_count[shape_of(key) as usize] as usize
    }

    /// The shape's rows that the cards left could still clear, from the bottom up (rows clear
    /// only in that order).
    fn clearable(&self, key: Key) -> &[Rows] {
        let s = shape_of(key) as usize;
        let flags = flags_of(key);
        let n =
            (self.row_count[s] as usize).min(self.most_rows.saturating_sub(self.rows_cleared(key)));
        let list = &self.rows[s][..n];
        let n = list
            .iter()
            .take_while(|rows| {
                self.needs[rows.from as usize..rows.to as usize]
                    .iter()
                    .all(|need| need.met_by(flags))
            })
            .count();
        &list[..n]
    }

    /// The most bonus points a state could still win.
    fn bonus_left(&self, key: Key) -> u32 {
        self.clearable(key).last().map_or(0, |r| r.bonus as u32)
    }

    fn pyramid(&self, key: Key) -> u32 {
        Shapes::get().flags[shape_of(key) as usize]
    }

    /// Removals since the start.
    fn removals(&self, key: Key) -> u32 {
        let gone = self.start_pyramid & !self.pyramid(key);
        let gone_stock = self.start_flags & !flags_of(key);
        let kings = (gone & self.problem.king_positions).count_ones()
            + (gone_stock & self.problem.stock_by_value[13]).count_ones();
        let others = gone.count_ones() + gone_stock.count_ones() - kings;
        others / 2 + kings
    }

    /// The pyramid cards that can never be removed: an apex that stays, those with no partner
    /// left (none in the stock or waste, none in the pyramid that they neither cover nor are
    /// covered by), every card they cover, and so on while that leaves others without a partner.
    fn stuck(&self, shape: ShapeId, flags: u32) -> u32 {
        let by_value = &self.problem.stock_by_value;
        let held = (1..=12).fold(0u64, |m, v| {
            m | ((flags & by_value[v] != 0) as u64) << (v - 1)
        });
        let id = (shape as u64) << 12 | held;
        let slot = (id.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - MEMO_BITS)) as usize;
        let cell = &self.memo.0[slot];
        let e = cell.get();
        if e >> 28 == id {
            return (e & ((1 << 28) - 1)) as u32;
        }
        let stuck = self.find_stuck(Shapes::get().flags[shape as usize], flags);
        cell.set(id << 28 | stuck as u64);
        stuck
    }

    fn find_stuck(&self, pyramid: u32, flags: u32) -> u32 {
        let (dealt, related) = (&self.problem, &Shapes::get().related);
        let mut stuck = pyramid & self.apex_stays as u32;
        loop {
            let live = pyramid & !stuck;
            let before = stuck;
            let mut bits = live & !dealt.king_positions;
            while bits != 0 {
                let p = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let partner = 13 - dealt.values[p] as usize;
                let in_pyramid = live & dealt.pyramid_by_value[partner] & !related[p];
                if in_pyramid == 0 && flags & dealt.stock_by_value[partner] == 0 {
                    stuck |= (1 << p | dealt.covers[p]) & pyramid;
                }
            }
            if stuck == before {
                return stuck;
            }
        }
    }

    /// The most removals still possible: each king, and per pair of values summing to 13 as many
    /// pairs as the scarcer value has cards left that are not stuck.
    fn removals_left(&self, key: Key) -> u32 {
        let (pyramid, flags) = (self.pyramid(key), flags_of(key));
        let pyramid = pyramid & !self.stuck(shape_of(key), flags);
        let left = |v: usize| {
            (pyramid & self.problem.pyramid_by_value[v]).count_ones()
                + (flags & self.problem.stock_by_value[v]).count_ones()
        };
        left(13) + (1..=6).map(|v| left(v).min(left(13 - v))).sum::<u32>()
    }

    /// Points earned since the start.
    pub fn points(&self, key: Key) -> u32 {
        REMOVAL_POINTS * self.removals(key) + self.bonus_won[shape_of(key) as usize] as u32
    }

    /// The most points a state could end with.
    pub fn points_upper(&self, key: Key) -> u32 {
        self.points(key) + REMOVAL_POINTS * self.removals_left(key) + self.bonus_left(key)
    }

    /// More than this many points can only be earned by clearing the pyramid.
    pub fn most_without_clearing(&self) -> u32 {
        let start = self.problem.start;
        let rows = self.clearable(start);
        // The rows but the apex's (the last of a full list).
        let kept = match rows.len() {
            n if n == self.row_count[shape_of(start) as usize] as usize && self.apex_left => n - 1,
            n => n,
        };
        let bonus = kept.checked_sub(1).map_or(0, |i| rows[i].bonus as u32);
        self.points(start) + REMOVAL_POINTS * self.removals_left(start) + bonus
    }

    /// The fewest steps that earn `deficit` more points: each removal earns 5, and the rows the
    /// cards left can clear give their bonus once all their cards are gone. Clearing rows takes
    /// their removals, and the steps that passing the stock to their partners must cost beyond
    /// them (`Problem::needs_reach_cost`).
    fn steps_for_points(&self, problem: &Problem, key: Key, deficit: u32) -> u32 {
        let removals = |bonus: u32| deficit.saturating_sub(bonus).div_ceil(REMOVAL_POINTS);
        // A count of rows whose bonus leaves more removals to make than the cards left allow is
        // no line's.
        let left = self.removals_left(key);
        let mut best = match removals(0) {
            r if r <= left => r,
            _ => u32::MAX / 4,
        };
        let cleared = self.rows_cleared(key);
        for (n, r) in self.clearable(key).iter().enumerate() {
            let (steps, removals) = (r.steps as u32, removals(r.bonus as u32));
            if removals > left || steps.max(removals) >= best {
                continue;
            }
            let to_position = self.earliest_rows[cleared + n + 1]
                .map_or(0, |p| problem.to_reach_position(p, &r.classes, key));
            let passing = if to_position > 0 {
                to_position
            } else {
                let needs = &self.needs[r.from as usize..r.to as usize];
                problem.needs_reach_cost(needs, &r.classes, key)
            };
            best = best.min((steps + passing).max(removals));
        }
        best
    }
}

/// Earn at least `points`.
pub struct Points<'c> {
    pub counts: &'c Counts,
    pub points: u32,
    pub clears: bool,
    /// `points` is the most the deal allows.
    pub most: bool,
}

impl Target for Points<'_> {
    fn clears(&self) -> bool {
        self.clears
    }
    fn kings(&self) -> Kings {
        match (self.most, self.clears) {
            (true, _) => Kings::Every,
            (false, true) => Kings::Pyramid,
            (false, false) => Kings::Tried,
        }
    }
    fn is_goal(&self, _: &Problem, key: Key) -> bool {
        self.counts.points(key) >= self.points
    }
    fn h(&self, problem: &Problem, key: Key) -> u32 {
        let deficit = self.points.saturating_sub(self.counts.points(key));
        if self.clears {
            // Clearing earns every bonus left; the rest must come from removals.
            let bonus = self.counts.bonus_left(key);
            let removals = deficit.saturating_sub(bonus).div_ceil(REMOVAL_POINTS);
            problem.h_full(key).max(removals)
        } else {
            self.counts.steps_for_points(problem, key, deficit)
        }
    }
    fn viable(&self, problem: &Problem, key: Key) -> bool {
        self.counts.points_upper(key) >= self.points
            && (!self.clears || problem.feasible(shape_of(key), flags_of(key)))
    }
}

/// What to make the most of.
pub trait Measure {
    fn value(&self, key: Key) -> u32;
    /// The most `value` any state reachable from `key` can have.
    fn upper(&self, key: Key) -> u32;
}

/// Rows cleared, counted from the bottom (the tests hold `Counts::find_earliest_rows` to it).
#[cfg(test)]
pub struct MostRows<'c>(pub &'c Counts);
#[cfg(test)]
impl Measure for MostRows<'_> {
    fn value(&self, key: Key) -> u32 {
        self.0.rows_cleared(key) as u32
    }
    fn upper(&self, key: Key) -> u32 {
        (self.0.rows_cleared(key) + self.0.clearable(key).len()) as u32
    }
}

/// Points.
pub struct MostPoints<'c>(pub &'c Counts);
impl Measure for MostPoints<'_> {
    fn value(&self, key: Key) -> u32 {
        self.0.points(key)
    }
    fn upper(&self, key: Key) -> u32 {
        self.0.points_upper(key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{Card, Deck};
    use crate::games::pyramid::goal::Goal;
    use crate::games::pyramid::solver::{most, solve_goal};
    use crate::games::pyramid::State;

    /// The counts for a deal, with the board's reach done (as `solve_goal` does first), and
    /// whether the pyramid can be cleared.
    pub(super) fn counts_of(problem: &mut Problem) -> (Counts, bool) {
        let r = reach::reach(problem);
        problem.earliest_goal = r.earliest_goal;
        let mut counts = Counts::new(problem);
        if !r.solvable {
            counts.limit_rows(ROWS - 1);
        }
        (counts, r.solvable)
    }

    /// Rows emptied from the bottom, by the rules' own state.
    fn rows_cleared(state: &State) -> usize {
        (0..ROWS)
            .rev()
            .take_while(|&r| {
                Position::all()
                    .filter(|p| p.row() == r)
                    .all(|p| state.pyramid[p.index()].is_none())
            })
            .count()
    }

    /// Recycles used, and the deal's stock slot of the stock's top (24 when it is empty).
    pub(super) fn timeline_position(state: &State, deal_stock: &[Card]) -> (u32, u32) {
        let stock = state.stock.first().map_or(STOCK_SLOTS as u32, |top| {
            deal_stock.iter().position(|c| c == top).unwrap() as u32
        });
        (state.recycles as u32, stock)
    }

    #[test]
    fn the_most_rows_are_those_the_rows_search_finds() {
        let mut unclearable = 0;
        for seed in 0..40 {
            let mut problem = Problem::new(&State::deal(&Deck::shuffled(seed)));
            let (mut counts, clearable) = counts_of(&mut problem);
            let most_rows = if clearable {
                ROWS as u32
            } else {
                unclearable += 1;
                most::most(&problem, &MostRows(&counts), ROWS as u32 - 1, u64::MAX).value
            };
            counts.find_earliest_rows(&problem);
            assert_eq!(counts.most_rows as u32, most_rows, "deal {seed}");
            for k in 1..=ROWS {
                assert_eq!(
                    counts.earliest_rows[k].is_some(),
                    k as u32 <= most_rows,
                    "deal {seed}, {k} rows"
                );
            }
        }
        assert!(unclearable >= 5, "only {unclearable} unclearable deals");
    }

    #[test]
    fn no_line_clears_rows_before_their_earliest_position() {
        let mut later = 0;
        for seed in 0..25 {
            let deal = State::deal(&Deck::shuffled(seed));
            let mut problem = Problem::new(&deal);
            let (mut counts, _) = counts_of(&mut problem);
            counts.find_earliest_rows(&problem);
            // The best line, replayed by the rules: each count of rows first has its place on
            // the timeline at or after the earliest found.
            let line = solve_goal(&deal, Goal::MaxScore).unwrap().steps.unwrap();
            let mut state = deal.clone();
            let mut seen = 0;
            for step in line {
                state.apply(step).unwrap();
                let rows = rows_cleared(&state);
                while seen < rows {
                    seen += 1;
                    let at = timeline_position(&state, &deal.stock);
                    let earliest = counts.earliest_rows[seen].expect("a line clears them");
                    assert!(
                        at >= earliest,
                        "deal {seed}, {seen} rows: {at:?} < {earliest:?}"
                    );
                    later += (at > earliest) as usize;
                }
            }
        }
        assert!(
            later > 0,
            "every line cleared its rows at the earliest position"
        );
    }
}
