//! Card goals (`clear:R:N`): what removing cards of one rank takes, per shape (`Cones`: each
//! card with the cards over it, and all of them together), the bound and pruning of the A* that
//! removes N of them (`Cards`), and the measure for the most of them a deal allows (`MostCards`).

use super::*;

impl Counts {
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
    use super::super::tests::{counts_of, timeline_position};
    use super::*;
    use crate::cards::Deck;
    use crate::games::pyramid::goal::Goal;
    use crate::games::pyramid::solver::solve_goal;
    use crate::games::pyramid::State;

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
