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

use super::problem::*;
use super::reach;
use super::search::Target;
use super::shapes::{ShapeId, Shapes};
use crate::games::pyramid::score::{REMOVAL_POINTS, ROW_BONUS};
use crate::games::pyramid::{Position, ROWS};
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
    /// other), else one step each; returns those steps. Each unpaired card needs a partner of its
    /// own from the pyramid cards `outside` or else from the stock and waste: what the stock and
    /// waste must hold is pushed onto `needs`, and the set's cards per value class are written
    /// into `classes`. `matchings` keeps the matching of each value class's cards present (by
    /// their positions), computed once.
    fn removing(
        &self,
        set: u32,
        outside: u32,
        matchings: &mut HashMap<u32, u32>,
        needs: &mut Vec<Need>,
        classes: &mut Classes,
    ) -> u32 {
        let positions = |m: u32| (0..28).filter(|&p| m >> p & 1 == 1).collect::<Vec<usize>>();
        let related = &Shapes::get().related;
        let by_value = &self.pyramid_by_value;
        let mut steps = (set & self.king_positions).count_ones();
        for low in 1..=6usize {
            let (a, b) = (set & by_value[low], set & by_value[13 - low]);
            let m = *matchings
                .entry(a | b)
                .or_insert_with(|| max_matching(&positions(a), &positions(b), related) as u32);
            let (na, nb) = (a.count_ones(), b.count_ones());
            classes[low - 1] = [na as u8, nb as u8, m as u8];
            steps += na + nb - m;
            for (unmatched, partner) in [(na - m, 13 - low), (nb - m, low)] {
                let there = (outside & by_value[partner]).count_ones();
                if unmatched > there {
                    needs.push(Need {
                        mask: self.stock_by_value[partner],
                        count: unmatched - there,
                    });
                }
            }
        }
        steps
    }
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
}

impl Counts {
    pub fn new(problem: &Problem) -> Counts {
        let shapes = Shapes::get();
        let start_pyramid = shapes.flags[shape_of(problem.start) as usize];
        let row_mask = |r: usize| {
            Position::all()
                .filter(|p| p.row() == r)
                .fold(0u32, |m, p| m | 1 << p.index())
        };
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
            clear |= Position::all()
                .filter(|p| p.row() == row)
                .fold(0u32, |m, p| m | 1 << p.index());
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
    fn stuck(&self, pyramid: u32, flags: u32) -> u32 {
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
        let pyramid = pyramid & !self.stuck(pyramid, flags);
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

    /// Cards of `value` removed since the start.
    pub fn removed_of(&self, value: u8, key: Key) -> u32 {
        let gone = self.start_pyramid & !self.pyramid(key);
        let gone_stock = self.start_flags & !flags_of(key);
        (gone & self.problem.pyramid_by_value[value as usize]).count_ones()
            + (gone_stock & self.problem.stock_by_value[value as usize]).count_ones()
    }

    /// Cards of `value` still in play.
    fn left_of(&self, value: u8, key: Key) -> u32 {
        (self.pyramid(key) & self.problem.pyramid_by_value[value as usize]).count_ones()
            + (flags_of(key) & self.problem.stock_by_value[value as usize]).count_ones()
    }

    /// Whether removing `count` cards of `value` takes every one in play.
    pub fn takes_all(&self, value: u8, count: u32) -> bool {
        let start = self.problem.start;
        count >= self.removed_of(value, start) + self.left_of(value, start)
    }

    /// Whether removing `count` cards of `value` takes every one in play, the apex among them.
    pub fn needs_the_apex(&self, value: u8, count: u32) -> bool {
        let start = self.problem.start;
        self.pyramid(start) & 1 != 0
            && self.problem.apex_value == value
            && count >= self.removed_of(value, start) + self.left_of(value, start)
    }

    /// When every card of `value` must go: the earliest timeline position (recycles used, stock
    /// index) a line can have taken them all at, as far as the stock's order alone tells (each
    /// one still ahead in this round is taken no sooner than when it is the stock's top).
    pub fn all_taken_from(&self, value: u8) -> Option<(u32, u32)> {
        let start = self.problem.start;
        let ahead = flags_of(start) & !(((1u64 << stock_of(start)) - 1) as u32);
        let last = ahead & self.problem.stock_by_value[value as usize];
        (last != 0).then(|| (cycle_of(start), 32 - last.leading_zeros()))
    }

    /// Cards of the cones' value still in play that could be removed: stock and waste cards,
    /// and pyramid cards whose cone could be cleared; each needs its own partner that could be
    /// removed too (a king none).
    fn removable_of(&self, cones: &Cones, key: Key) -> u32 {
        let in_stock = |c: &Cones| {
            (flags_of(key) & self.problem.stock_by_value[c.value as usize]).count_ones()
        };
        let left = in_stock(cones) + cones.removable_in_pyramid(self, key);
        match &cones.partners {
            None => left,
            Some(p) => left.min(in_stock(p) + p.removable_in_pyramid(self, key)),
        }
    }

    /// The fewest steps that remove `more` cards of the cones' value, the least over every
    /// choice of which: for a pyramid card, its cone's removals; for a stock card, the cards to
    /// pass before it. And together: each step removes at most two of the chosen pyramid cards
    /// and their cones, and one that also passes a stock card (a draw, or a pyramid card taking
    /// the stock's or waste's top) removes at most one, so the steps are at least half of those
    /// cards plus the stock cards to pass (to the chosen ones and the partners the cones need).
    fn steps_for_cards(&self, cones: &Cones, more: u32, key: Key) -> u32 {
        if more == 0 {
            return 0;
        }
        let (own, n) = self.card_options(cones, key);
        let mut mine = [(0, 0, 0); 70];
        let mine = picks(&own[..n], more, &mut mine);
        let mut theirs = [(0, 0, 0); 70];
        let theirs = match &cones.partners {
            Some(p) => {
                let (partners, m) = self.card_options(p, key);
                picks(&partners[..m], more, &mut theirs)
            }
            None => picks(&[], 0, &mut theirs),
        };
        let bound = |picks: &[(u32, u32, u32)]| {
            picks
                .iter()
                .map(|&(steps, passed, cards)| {
                    more.max(steps)
                        .max(passed)
                        .max((cards.count_ones() + passed).div_ceil(2))
                })
                .min()
                .unwrap_or(u32::MAX / 4)
        };
        bound(mine).max(bound(theirs))
    }

    /// The cards of the cones' value that could still go, each as (its own fewest steps, stock
    /// cards to pass, pyramid cards removed with it): for a pyramid card, its cone's removals and
    /// the stock cards to pass for the partners the cone needs; for a stock card, the cards to
    /// pass before it. At most eight (four of a value, each in the pyramid or the stock).
    fn card_options(&self, cones: &Cones, key: Key) -> ([(u32, u32, u32); 8], usize) {
        let mut options = [(0u32, 0u32, 0u32); 8];
        let mut n = 0;
        let all = self.problem.pyramid_by_value[cones.value as usize];
        let pyramid = self.pyramid(key);
        for i in 0..all.count_ones() as usize {
            if let Some(steps) = cones.cost(key, i) {
                let reach = cones.partners_reach(key, i);
                options[n] = (steps, reach, cones.sets[i] & pyramid);
                n += 1;
            }
        }
        let (flags, stock, cycle) = (flags_of(key), stock_of(key), cycle_of(key));
        let mut bits = flags & self.problem.stock_by_value[cones.value as usize];
        while bits != 0 && n < options.len() {
            let s = bits.trailing_zeros();
            bits &= bits - 1;
            let reach = stock_card_cost(flags, stock, cycle, s);
            options[n] = (reach, reach, 0);
            n += 1;
        }
        (options, n)
    }
}

/// The fewest steps that take the stock or waste card in slot `s`: every card that must pass
/// the stock's top or leave the waste before it is reached costs a step (a draw, or a removal
/// taking at most one of them), a recycle one more, and taking it one.
fn stock_card_cost(flags: u32, stock: u32, cycle: u32, s: u32) -> u32 {
    let between = |from: u32, to: u32| {
        // Cards in slots from..to.
        let m = ((1u64 << to) - 1) as u32 & !(((1u64 << from) - 1) as u32);
        (flags & m).count_ones()
    };
    if s >= stock {
        return between(stock, s) + 1;
    }
    let down_the_waste = between(s + 1, stock) + 1;
    if cycle < 2 {
        // Round again: the cards ahead pass, the stock is turned over, the cards before `s` pass.
        // Before the turn, one step can take a card ahead and one behind together (the stock's
        // top with the waste's), so only the larger of the two counts in full.
        let (ahead, behind) = (between(stock, STOCK_SLOTS as u32), between(0, s));
        let round_again = ahead.max(behind) + 2;
        down_the_waste.min(round_again)
    } else {
        down_the_waste
    }
}

/// Every way to pick `k` of `options` (own steps, stock cards to pass, pyramid cards), each as
/// the largest own steps, the largest stock cards to pass and every pyramid card: written into
/// `out` (C(8, 4) = 70 ways at most), the ways returned.
fn picks<'o>(
    options: &[(u32, u32, u32)],
    k: u32,
    out: &'o mut [(u32, u32, u32); 70],
) -> &'o [(u32, u32, u32)] {
    let mut n = 0;
    for chosen in 0u32..1 << options.len() {
        if chosen.count_ones() != k {
            continue;
        }
        let mut pick = (0, 0, 0);
        for (j, &(steps, passed, cards)) in options.iter().enumerate() {
            if chosen >> j & 1 == 1 {
                pick = (pick.0.max(steps), pick.1.max(passed), pick.2 | cards);
            }
        }
        out[n] = pick;
        n += 1;
    }
    &out[..n]
}

/// The fewest steps that bring within reach the stock and waste cards `needs` asks for: for each
/// need, `stock_card_cost` of the last of the cheapest cards that meet it; the largest of those.
/// Every need must be met by the cards left.
fn needs_reach(needs: &[Need], key: Key) -> u32 {
    let (flags, stock, cycle) = (flags_of(key), stock_of(key), cycle_of(key));
    needs
        .iter()
        .map(|need| {
            let mut costs = [u32::MAX; 4];
            let mut bits = flags & need.mask;
            for cost in costs.iter_mut() {
                if bits == 0 {
                    break;
                }
                *cost = stock_card_cost(flags, stock, cycle, bits.trailing_zeros());
                bits &= bits - 1;
            }
            costs.sort_unstable();
            costs[need.count as usize - 1]
        })
        .max()
        .unwrap_or(0)
}

/// Earn at least `points`.
pub struct Points<'c> {
    pub counts: &'c Counts,
    pub points: u32,
    pub clears: bool,
}

impl Target for Points<'_> {
    fn clears(&self) -> bool {
        self.clears
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

/// Per shape, for each pyramid card of one value (in position order, at most four): what
/// removing it takes. Its cone (the cards over it) goes first, then the card: every card of
/// that set pairs with another of the set that it does not cover, or else with a partner from
/// outside, which is never a card the removed one covers (that one stays until after it).
pub struct Cones {
    value: u8,
    /// Per shape and card: the fewest steps (kings alone, the others paired among themselves where
    /// they can be, else one step each); 0 for a card gone, or an apex that stays.
    steps: Vec<[u8; 4]>,
    /// Per shape and card: its partners' needs, `needs[from..to]`, from the stock and waste.
    ranges: Vec<[(u32, u32); 4]>,
    needs: Vec<Need>,
    /// Each card's position with its whole cone.
    sets: [u32; 4],
    /// The same for the partner value (13 less this one; none for kings): each card removed
    /// takes one of them with it.
    partners: Option<Box<Cones>>,
    /// Per shape: what removing every card of the value left in it takes, with all their cones.
    all: Vec<Rows>,
    /// The earliest timeline position at which a line from the start can have taken every card
    /// of the value (`find_earliest_all`), when known.
    earliest_all: Option<(u32, u32)>,
}

impl Cones {
    pub fn new(counts: &Counts, value: u8) -> Cones {
        let mut cones = Cones::of_value(counts, value);
        if value != 13 {
            cones.partners = Some(Box::new(Cones::of_value(counts, 13 - value)));
        }
        cones
    }

    /// The cones of one value's pyramid cards, without their partners'.
    fn of_value(counts: &Counts, value: u8) -> Cones {
        let (shapes, problem) = (Shapes::get(), &counts.problem);
        let (mut matchings, mut unions) = (HashMap::new(), HashMap::new());
        let mut needs = Vec::new();
        // The fewest steps that remove `set` (a card and its cone), and the needs of its unpaired
        // cards given the pyramid cards `outside` that may partner them. The card itself pairs
        // with none of the cards over it: a step of its own.
        let mut removing = |set: u32, outside: u32, needs: &mut Vec<Need>| {
            let steps =
                problem.removing(set, outside, &mut matchings, needs, &mut Classes::default());
            steps.max((set.count_ones() - 1).div_ceil(2) + 1)
        };
        let own: Vec<usize> = (0..28)
            .filter(|&p| problem.pyramid_by_value[value as usize] >> p & 1 == 1)
            .collect();
        let (mut steps, mut ranges, mut all) = (Vec::new(), Vec::new(), Vec::new());
        for &flags in &shapes.flags {
            let (mut row, mut range) = ([0u8; 4], [(0u32, 0u32); 4]);
            // Every card of the value with its cone; any other card may partner them.
            let union = own
                .iter()
                .filter(|&&p| flags >> p & 1 == 1)
                .fold(0u32, |m, &p| m | Position(p as u8).cone_below() | 1 << p)
                & flags;
            let (from, mut classes) = (needs.len(), Classes::default());
            let union_steps =
                problem.removing(union, flags & !union, &mut unions, &mut needs, &mut classes);
            all.push(Rows {
                steps: union_steps as u8,
                bonus: 0,
                from: from as u16,
                to: needs.len() as u16,
                classes,
            });
            for (i, &p) in own.iter().enumerate().take(4) {
                if flags >> p & 1 == 1 && !(p == 0 && counts.apex_stays) {
                    let set = (Position(p as u8).cone_below() | 1 << p) & flags;
                    let outside = flags & !set & !shapes.related[p];
                    let from = needs.len() as u32;
                    row[i] = removing(set, outside, &mut needs) as u8;
                    range[i] = (from, needs.len() as u32);
                }
            }
            steps.push(row);
            ranges.push(range);
        }
        let mut sets = [0u32; 4];
        for (set, &p) in sets.iter_mut().zip(&own) {
            *set = Position(p as u8).cone_below() | 1 << p;
        }
        Cones {
            value,
            steps,
            ranges,
            needs,
            sets,
            partners: None,
            all,
            earliest_all: None,
        }
    }

    /// Finds the earliest timeline position at which a line from the start can have taken every
    /// card of the value (`reach_aim`, its states bounded by what removing them all needs from
    /// the stock, and by the last of them still ahead in it). Returns the states expanded and
    /// the bytes of the search.
    pub fn find_earliest_all(&mut self, problem: &Problem) -> (u64, usize) {
        let v = self.value as usize;
        let aim = reach::Aim {
            clear: problem.pyramid_by_value[v],
            take: problem.stock_by_value[v],
        };
        let (all, needs, take) = (&self.all, &self.needs, aim.take);
        let bucket = |_: &Problem, shape: ShapeId, flags: u32, p: usize| {
            let union = &all[shape as usize];
            let round = p - p % (STOCK_SLOTS + 1);
            let here = (p - round) as u32;
            let needs = &needs[union.from as usize..union.to as usize];
            let bound = needs_bound(needs, flags, here)?;
            // The last card of the value still ahead in this round is taken no sooner.
            let ahead = flags & take & !(((1u64 << here) - 1) as u32);
            let last = if ahead == 0 {
                here
            } else {
                31 - ahead.leading_zeros()
            };
            Some(round + bound.max(last) as usize)
        };
        let found = reach::reach_aim(problem, aim, bucket);
        self.earliest_all = found.earliest_goal;
        (found.expanded, found.bytes)
    }

    /// A lower bound on the steps that take every card of the value left: the removals of all of
    /// them and their cones, and the steps that passing the stock on the way must cost beyond
    /// them: to the earliest position they can all be gone at, or past it to the last of the
    /// value's stock cards and to the partners the cones need.
    fn all_bound(&self, problem: &Problem, stock_by_value: &[u32; 14], key: Key) -> u32 {
        let union = &self.all[shape_of(key) as usize];
        let to_position = self
            .earliest_all
            .map_or(0, |p| problem.to_reach_position(p, &union.classes, key));
        let passing = if to_position > 0 {
            to_position
        } else {
            let needs = &self.needs[union.from as usize..union.to as usize];
            let mut own = [Need { mask: 0, count: 1 }; 4];
            let mut n = 0;
            let mut bits = flags_of(key) & stock_by_value[self.value as usize];
            while bits != 0 && n < own.len() {
                own[n].mask = 1 << bits.trailing_zeros();
                bits &= bits - 1;
                n += 1;
            }
            problem
                .needs_reach_cost(needs, &union.classes, key)
                .max(problem.needs_reach_cost(&own[..n], &union.classes, key))
        };
        union.steps as u32 + passing
    }

    pub fn value(&self) -> u8 {
        self.value
    }

    /// Whether the stock and waste cards left could partner every card that removing the
    /// `i`-th card of the value takes.
    fn removable(&self, key: Key, i: usize) -> bool {
        let (from, to) = self.ranges[shape_of(key) as usize][i];
        let flags = flags_of(key);
        self.needs[from as usize..to as usize]
            .iter()
            .all(|need| need.met_by(flags))
    }

    /// The fewest steps that remove the `i`-th pyramid card of the value, if it can be.
    fn cost(&self, key: Key, i: usize) -> Option<u32> {
        match self.steps[shape_of(key) as usize][i] {
            0 => None,
            steps => self.removable(key, i).then_some(steps as u32),
        }
    }

    /// The fewest steps that bring within reach the stock and waste partners that removing the
    /// `i`-th card and its cone needs (`stock_card_cost` of the last of them).
    fn partners_reach(&self, key: Key, i: usize) -> u32 {
        let (from, to) = self.ranges[shape_of(key) as usize][i];
        needs_reach(&self.needs[from as usize..to as usize], key)
    }

    /// The value's pyramid cards left that could still be removed.
    fn removable_in_pyramid(&self, counts: &Counts, key: Key) -> u32 {
        let all = counts.problem.pyramid_by_value[self.value as usize];
        (0..all.count_ones() as usize)
            .filter(|&i| self.cost(key, i).is_some())
            .count() as u32
    }
}

/// Remove at least `count` cards of `value`.
pub struct Cards<'c> {
    counts: &'c Counts,
    cones: &'c Cones,
    count: u32,
    /// Every line to the goal clears the pyramid (`Counts::needs_the_apex`).
    clears: bool,
    /// Every line to the goal takes every card of the value (`Counts::takes_all`).
    all: bool,
}

impl<'c> Cards<'c> {
    pub fn new(counts: &'c Counts, cones: &'c Cones, count: u32, clears: bool) -> Self {
        Cards {
            counts,
            cones,
            count,
            clears,
            all: counts.takes_all(cones.value, count),
        }
    }
}

impl Target for Cards<'_> {
    fn clears(&self) -> bool {
        self.clears
    }
    fn is_goal(&self, _: &Problem, key: Key) -> bool {
        self.counts.removed_of(self.cones.value, key) >= self.count
    }
    fn h(&self, problem: &Problem, key: Key) -> u32 {
        let more = self
            .count
            .saturating_sub(self.counts.removed_of(self.cones.value, key));
        let mut own = self.counts.steps_for_cards(self.cones, more, key);
        if self.all {
            own = own.max(
                self.cones
                    .all_bound(problem, &self.counts.problem.stock_by_value, key),
            );
        }
        if self.clears {
            own.max(problem.h_full(key))
        } else {
            own
        }
    }
    fn viable(&self, problem: &Problem, key: Key) -> bool {
        self.counts.removed_of(self.cones.value, key) + self.counts.removable_of(self.cones, key)
            >= self.count
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

/// Cards of one value removed.
pub struct MostCards<'c>(pub &'c Counts, pub &'c Cones);
impl Measure for MostCards<'_> {
    fn value(&self, key: Key) -> u32 {
        self.0.removed_of(self.1.value, key)
    }
    fn upper(&self, key: Key) -> u32 {
        self.0.removed_of(self.1.value, key) + self.0.removable_of(self.1, key)
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
    fn counts_of(problem: &mut Problem) -> (Counts, bool) {
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
    fn timeline_position(state: &State, deal_stock: &[Card]) -> (u32, u32) {
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

    #[test]
    fn no_line_takes_every_card_of_a_value_before_the_earliest_position() {
        let mut later = 0;
        for (seed, rank) in (0..24).zip([1u8, 12, 6, 13].into_iter().cycle()) {
            let deal = State::deal(&Deck::shuffled(seed));
            let mut problem = Problem::new(&deal);
            let (counts, _) = counts_of(&mut problem);
            let mut cones = Cones::new(&counts, rank);
            cones.find_earliest_all(&problem);
            let goal = Goal::Clear {
                rank: crate::cards::Rank::new(rank).unwrap(),
                count: 4,
            };
            let Some(line) = solve_goal(&deal, goal).unwrap().steps else {
                assert_eq!(cones.earliest_all, None, "deal {seed}, rank {rank}");
                continue;
            };
            let earliest = cones.earliest_all.expect("a line takes them all");
            let mut state = deal.clone();
            for step in line {
                state.apply(step).unwrap();
            }
            let at = timeline_position(&state, &deal.stock);
            assert!(
                at >= earliest,
                "deal {seed}, rank {rank}: {at:?} < {earliest:?}"
            );
            later += (at > earliest) as usize;
        }
        assert!(later > 0, "every line ended at the earliest position");
    }
}
