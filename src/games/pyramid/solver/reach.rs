//! Can the pyramid be cleared at all, and how far along the stock's timeline must a game go before
//! it can? A fast answer that comes before the optimal search: unsolvable deals are proved without
//! A*'s step counting, and for the others the earliest goal position bounds the draws and recycles
//! every solution needs (`Problem::h_full`).
//!
//! Step counts do not matter here, and that allows two reductions the optimal search cannot make:
//! - Draws and recycles only move along the stock's timeline (position = recycles used, stock
//!   index), which never goes back. With the same pyramid and the same cards left in stock and
//!   waste, an earlier position can do all a later one can. So a state is just (pyramid shape, stock
//!   cards left), kept with its earliest position.
//! - Expanding a state walks the rest of its timeline in place, trying the removals each position
//!   offers: pyramid pairs at the start only (later is never better), the waste top at the start
//!   only (a card later on the waste could have been taken as the stock top one draw earlier, giving
//!   the same state), and the stock top, alone or with the waste top, at every position.
//!
//! States are taken in A*'s order with the timeline as the cost: by the earliest goal position
//! each could lead to (`Problem::goal_bound`), then by the position it was reached at. The search
//! stops when that order gets to the earliest goal found, so a state that could only lead to a
//! later goal is never expanded. A state found again at an earlier position after it was expanded
//! is expanded again; the second order key keeps that rare.

use super::problem::*;
use super::shapes::{ShapeId, Shapes};
use super::visited::{Visited, BATCH};
use crate::games::pyramid::PYRAMID_SIZE;

const POSITIONS: usize = 3 * (STOCK_SLOTS + 1);

/// What the reachability search found.
pub struct Reach {
    pub solvable: bool,
    /// The earliest timeline position (recycles used, stock index) at which any sequence of
    /// steps can clear the pyramid: every solution ends there or later.
    pub earliest_goal: Option<(u32, u32)>,
    /// States (shape, stock cards left) expanded.
    pub expanded: u64,
    pub bytes: usize,
}

fn position(cycle: u32, stock: u32) -> usize {
    cycle as usize * (STOCK_SLOTS + 1) + stock as usize
}

fn state_key(shape: ShapeId, flags: u32) -> u64 {
    (shape as u64) << STOCK_SLOTS | flags as u64
}

pub fn reach(problem: &Problem) -> Reach {
    reach_aim(problem, Aim::BOARD, goal_bound)
}

/// What a line must do, for `reach_aim`: clear the pyramid positions in `clear` and take the
/// stock and waste slots in `take`.
#[derive(Clone, Copy)]
pub struct Aim {
    pub clear: u32,
    pub take: u32,
}

impl Aim {
    /// The board's: every pyramid card.
    const BOARD: Aim = Aim {
        clear: (1 << PYRAMID_SIZE) - 1,
        take: 0,
    };
}

/// `reach` for any aim (the board, the bottom rows, every card of a value): whether any line gets
/// there, and the earliest timeline position at which one can have. States are taken in the
/// order of `bucket` (a position for a state reached at a position, or `None` for one that can
/// no longer get there), which must be at or after that position and at or before every goal
/// position the state can lead to.
pub fn reach_aim(
    problem: &Problem,
    aim: Aim,
    bucket: impl Fn(&Problem, ShapeId, u32, usize) -> Option<usize> + Copy,
) -> Reach {
    let shapes = Shapes::get();
    let mut earliest = Visited::new();
    let mut buckets: Vec<Vec<u64>> = vec![Vec::new(); POSITIONS * POSITIONS];
    let mut expanded = 0u64;
    let (shape0, flags0) = (shape_of(problem.start), flags_of(problem.start));
    let p0 = position(cycle_of(problem.start), stock_of(problem.start));
    let is_goal = move |shape: ShapeId, flags: u32| {
        shapes.flags[shape as usize] & aim.clear == 0 && flags & aim.take == 0
    };
    if is_goal(shape0, flags0) {
        return Reach {
            solvable: true,
            earliest_goal: Some((cycle_of(problem.start), stock_of(problem.start))),
            expanded,
            bytes: 0,
        };
    }
    if let Some(f) = bucket(problem, shape0, flags0, p0) {
        earliest.improve(state_key(shape0, flags0), p0 as u32, 0);
        buckets[f * POSITIONS + p0].push(Entry::state(state_key(shape0, flags0), p0));
    }

    // Buckets by (goal bound f, position q), taken f first; every successor of a state lies at
    // or after its position, and goes in its bucket or a later one.
    // `noted.goal`: the earliest goal position found so far. Every goal a state leads to lies at
    // or after its bucket's f, so once the buckets taken reach it, nothing earlier can be found;
    // and no walk along the stock goes past it.
    let mut noted = Noted {
        goal: POSITIONS,
        offers: Vec::new(),
        is_goal,
    };
    let mut batch: Vec<u64> = Vec::with_capacity(BATCH);
    for (f, q) in (p0..POSITIONS).flat_map(|f| (p0..=f).map(move |q| (f, q))) {
        let i = f * POSITIONS + q;
        // A batch at a time, with table slots prefetched, as in `search`.
        while f < noted.goal && !buckets[i].is_empty() {
            let from = buckets[i].len().saturating_sub(BATCH);
            batch.clear();
            batch.extend(buckets[i].drain(from..).rev());
            for &entry in &batch {
                earliest.prefetch(Entry(entry).key());
            }
            noted.offers.clear();
            for &entry in &batch {
                let entry = Entry(entry);
                let (key, p) = (entry.key(), entry.position());
                let (shape, flags) = split_key(key);
                let limit = noted.goal;
                let mut offer =
                    |shape, flags, cycle, stock| noted.note(&earliest, shape, flags, cycle, stock);
                let round = p / (STOCK_SLOTS + 1);
                let walked_on = if entry.is_recycled() {
                    // A walk that reached the end of the last round goes on after the recycle.
                    let by_value = open_by_value(problem, shapes, shape);
                    let stock = next_card(flags, 0);
                    walk(
                        problem,
                        shapes,
                        shape,
                        &by_value,
                        flags,
                        round as u32,
                        stock,
                        limit,
                        &mut offer,
                    )
                } else {
                    if earliest
                        .get(key)
                        .is_some_and(|(best, _)| (best as usize) < p)
                    {
                        continue;
                    }
                    expanded += 1;
                    let forced_pairs = aim.clear == Aim::BOARD.clear;
                    expand(
                        problem,
                        shapes,
                        shape,
                        flags,
                        p,
                        limit,
                        forced_pairs,
                        &mut offer,
                    )
                };
                if walked_on {
                    // The walk goes on in the next round, when the search gets there (if no goal
                    // comes first).
                    let next = (round + 1) * (STOCK_SLOTS + 1);
                    if let Some(g) = bucket(problem, shape, flags, next) {
                        buckets[g.max(f) * POSITIONS + next].push(Entry::recycled(key, next));
                    }
                }
            }
            settle(
                problem,
                &noted.offers,
                &mut earliest,
                &mut buckets,
                f,
                bucket,
            );
        }
        buckets[i] = Vec::new();
    }
    let goal = noted.goal;
    Reach {
        solvable: goal < POSITIONS,
        earliest_goal: (goal < POSITIONS).then_some((
            (goal / (STOCK_SLOTS + 1)) as u32,
            (goal % (STOCK_SLOTS + 1)) as u32,
        )),
        expanded,
        bytes: earliest.bytes(),
    }
}

/// A queued state with the timeline position it was reached at, or a walk to go on with after a
/// recycle: key in bits 0..35, position in 35..42, bit 42 for a walk after a recycle.
#[derive(Clone, Copy)]
struct Entry(u64);

impl Entry {
    const POSITION_SHIFT: u32 = STOCK_SLOTS as u32 + 11;
    const RECYCLED: u64 = 1 << (Entry::POSITION_SHIFT + 7);
    fn state(key: u64, p: usize) -> u64 {
        key | (p as u64) << Entry::POSITION_SHIFT
    }
    fn recycled(key: u64, p: usize) -> u64 {
        Entry::state(key, p) | Entry::RECYCLED
    }
    fn key(self) -> u64 {
        self.0 & ((1 << Entry::POSITION_SHIFT) - 1)
    }
    fn position(self) -> usize {
        (self.0 >> Entry::POSITION_SHIFT & 127) as usize
    }
    fn is_recycled(self) -> bool {
        self.0 & Entry::RECYCLED != 0
    }
}

/// The bucket for a state reached at position `p`: the earliest goal position it could lead to,
/// from `Problem::goal_bound`; `None` when it can no longer clear the pyramid. Taking states in
/// this order (A*'s, with the timeline as the cost) leaves out every state that could only lead
/// to a goal later than the earliest: a third of the states the plain timeline order took on the
/// corpus's solvable decks.
fn goal_bound(problem: &Problem, shape: ShapeId, flags: u32, p: usize) -> Option<usize> {
    let round = p - p % (STOCK_SLOTS + 1);
    problem
        .goal_bound(shape, flags, (p - round) as u32)
        .map(|here| round + here as usize)
}

fn split_key(key: u64) -> (ShapeId, u32) {
    (
        (key >> STOCK_SLOTS) as ShapeId,
        (key & ((1 << STOCK_SLOTS) - 1)) as u32,
    )
}

/// What the expansions of one batch offered: the earliest goal position found so far, and the
/// states to settle (see `settle`).
struct Noted<G> {
    goal: usize,
    offers: Vec<(u64, usize)>,
    is_goal: G,
}

impl<G: Fn(ShapeId, u32) -> bool> Noted<G> {
    /// Takes note of a state offered at a position: the goal, or a state to settle, its table
    /// slot prefetched.
    fn note(&mut self, earliest: &Visited, shape: ShapeId, flags: u32, cycle: u32, stock: u32) {
        if (self.is_goal)(shape, flags) {
            self.goal = self.goal.min(position(cycle, stock));
        } else {
            let key = state_key(shape, flags);
            earliest.prefetch(key);
            self.offers.push((key, position(cycle, stock)));
        }
    }
}

/// Records the offered states that were not reached before at their positions or earlier, and
/// queues those that can still clear the pyramid, each in the bucket of the earliest goal it could
/// lead to, and not before the bucket `f` being taken. (A state that cannot is recorded all the
/// same, so that it is judged once.)
fn settle(
    problem: &Problem,
    offers: &[(u64, usize)],
    earliest: &mut Visited,
    buckets: &mut [Vec<u64>],
    f: usize,
    bucket: impl Fn(&Problem, ShapeId, u32, usize) -> Option<usize>,
) {
    for &(key, q) in offers {
        if earliest.improve(key, q as u32, 0) {
            let (shape, flags) = split_key(key);
            if let Some(g) = bucket(problem, shape, flags, q) {
                buckets[g.max(f) * POSITIONS + q].push(Entry::state(key, q));
            }
        }
    }
}

/// Per value, the uncovered pyramid positions holding it.
fn open_by_value(problem: &Problem, shapes: &Shapes, shape: ShapeId) -> [u32; 14] {
    let mut by_value = [0u32; 14];
    let mut bits = shapes.uncovered[shape as usize];
    while bits != 0 {
        let p = bits.trailing_zeros();
        bits &= bits - 1;
        by_value[problem.values[p as usize] as usize] |= 1 << p;
    }
    by_value
}

/// Offers every state worth reaching from (shape, flags) at timeline position `p`, in this round
/// and before position `limit`. True when the walk along the stock reached the end of the round
/// and a recycle could take it on (see `walk`). With `forced_pairs` (every card must go), a
/// pyramid card whose only partner left is an uncovered pyramid card goes with it at once.
#[allow(clippy::too_many_arguments)]
fn expand(
    problem: &Problem,
    shapes: &Shapes,
    shape: ShapeId,
    flags: u32,
    p: usize,
    limit: usize,
    forced_pairs: bool,
    offer: &mut impl FnMut(ShapeId, u32, u32, u32),
) -> bool {
    // A position may name a slot whose king was just removed: the stock's top is then the next
    // card, but what is done here and now stays at that position (`here`).
    let (cycle, here) = (
        (p / (STOCK_SLOTS + 1)) as u32,
        (p % (STOCK_SLOTS + 1)) as u32,
    );
    let stock = next_card(flags, here);
    let open = shapes.uncovered[shape as usize];
    let values = &problem.values;
    let kings = open & problem.king_positions;
    if kings != 0 {
        // An uncovered pyramid king goes first: never worse.
        let next = shapes.after_removing[shape as usize][kings.trailing_zeros() as usize];
        offer(next, flags, cycle, here);
        return false;
    }
    if let Some((a, b)) = forced_pairs
        .then(|| problem.forced_pair(shapes.flags[shape as usize], open, flags))
        .flatten()
    {
        offer(shapes.without_pair(shape, a, b), flags, cycle, here);
        return false;
    }
    // A king on top of the stock or waste goes first: the state without it can do all that the
    // state with it can (it pairs with nothing and only hides the cards under it).
    let is_king = |slot: u32| values[PYRAMID_SIZE + slot as usize] == 13;
    if let Some(w) = waste_top(flags, stock).filter(|&w| is_king(w)) {
        offer(shape, flags & !(1 << w), cycle, here);
        return false;
    }
    if stock < STOCK_EMPTY && is_king(stock) {
        // Offered at the king's own position: a game that leaves the king on the stock can end
        // there, and the earliest goal position must not move past it.
        offer(shape, flags & !(1 << stock), cycle, here);
        return false;
    }
    // Pyramid pairs, here and now.
    let by_value = open_by_value(problem, shapes, shape);
    let mut bits = open;
    while bits != 0 {
        let a = bits.trailing_zeros();
        bits &= bits - 1;
        let mut partners = by_value[13 - values[a as usize] as usize] & bits;
        while partners != 0 {
            let b = partners.trailing_zeros();
            partners &= partners - 1;
            offer(shapes.without_pair(shape, a, b), flags, cycle, here);
        }
    }
    if let Some(w) = waste_top(flags, stock) {
        take(
            problem,
            shapes,
            shape,
            &by_value,
            w,
            flags & !(1 << w),
            cycle,
            here,
            offer,
        );
    }
    walk(
        problem, shapes, shape, &by_value, flags, cycle, stock, limit, offer,
    )
}

/// Walks along the stock from `stock` in this round, before position `limit`, offering what each
/// card on top of the stock can be taken with. True when it reached the end of the round and a
/// recycle could take the walk on into the next (done later, when the search gets there).
#[allow(clippy::too_many_arguments)]
fn walk(
    problem: &Problem,
    shapes: &Shapes,
    shape: ShapeId,
    by_value: &[u32; 14],
    flags: u32,
    cycle: u32,
    mut stock: u32,
    limit: usize,
    offer: &mut impl FnMut(ShapeId, u32, u32, u32),
) -> bool {
    let values = &problem.values;
    let is_king = |slot: u32| values[PYRAMID_SIZE + slot as usize] == 13;
    loop {
        if position(cycle, stock) >= limit {
            return false;
        }
        if stock == STOCK_EMPTY {
            return cycle < 2 && flags != 0;
        }
        let rest = flags & !(1 << stock);
        if is_king(stock) {
            // Walking on past a king is never better than removing it (see above).
            offer(shape, rest, cycle, stock);
            return false;
        }
        let after = next_card(rest, stock + 1);
        take(
            problem, shapes, shape, by_value, stock, rest, cycle, after, offer,
        );
        if let Some(w) = waste_top(flags, stock) {
            let v = values[PYRAMID_SIZE + w as usize] + values[PYRAMID_SIZE + stock as usize];
            if v == 13 {
                offer(shape, rest & !(1 << w), cycle, after);
            }
        }
        stock = next_card(flags, stock + 1);
    }
}

/// Offers taking the stock/waste card in `slot` alone (a king) or with each uncovered pyramid partner.
#[allow(clippy::too_many_arguments)]
fn take(
    problem: &Problem,
    shapes: &Shapes,
    shape: ShapeId,
    by_value: &[u32; 14],
    slot: u32,
    flags_after: u32,
    cycle: u32,
    stock_after: u32,
    offer: &mut impl FnMut(ShapeId, u32, u32, u32),
) {
    let v = problem.values[PYRAMID_SIZE + slot as usize] as usize;
    if v == 13 {
        offer(shape, flags_after, cycle, stock_after);
        return;
    }
    let mut partners = by_value[13 - v];
    while partners != 0 {
        let b = partners.trailing_zeros();
        partners &= partners - 1;
        offer(
            shapes.after_removing[shape as usize][b as usize],
            flags_after,
            cycle,
            stock_after,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Deck;
    use crate::games::pyramid::State;

    /// Where the stock's index stands in a position: recycles used, and the slot of the stock's top
    /// card in the deal's stock order (24 when the stock is empty).
    fn timeline_position(state: &State, deal_stock: &[crate::cards::Card]) -> (u32, u32) {
        let stock = state.stock.first().map_or(STOCK_SLOTS as u32, |top| {
            deal_stock
                .iter()
                .position(|c| c == top)
                .expect("a stock card") as u32
        });
        (state.recycles as u32, stock)
    }

    #[test]
    fn the_bound_changes_the_order_not_the_answer() {
        let in_timeline_order =
            |problem: &Problem, shape, flags, p| problem.feasible(shape, flags).then_some(p);
        let mut fewer = 0;
        for seed in 100..160 {
            let problem = Problem::new(&State::deal(&Deck::shuffled(seed)));
            let (bounded, plain) = (
                reach(&problem),
                reach_aim(&problem, Aim::BOARD, in_timeline_order),
            );
            assert_eq!(bounded.solvable, plain.solvable, "deal {seed}");
            assert_eq!(bounded.earliest_goal, plain.earliest_goal, "deal {seed}");
            fewer += (bounded.expanded < plain.expanded) as usize;
        }
        assert!(
            fewer >= 20,
            "the bound left states out in only {fewer} deals"
        );
    }

    #[test]
    fn no_solution_ends_before_the_earliest_goal_position() {
        let mut solved = 0;
        let mut recycled = 0;
        for seed in 0..60 {
            let deal = State::deal(&Deck::shuffled(seed));
            let found = reach(&Problem::new(&deal));
            let solution = crate::games::pyramid::solver::solve(&deal).unwrap();
            assert_eq!(found.solvable, solution.is_solvable(), "deal {seed}");
            let Some(steps) = solution.steps else {
                assert_eq!(found.earliest_goal, None);
                continue;
            };
            let earliest = found
                .earliest_goal
                .expect("a solvable deal has a goal position");
            // The optimal solution, replayed through the rules, ends there or later.
            let mut state = deal.clone();
            for step in steps {
                state.apply(step).unwrap();
            }
            assert!(state.is_cleared());
            let end = timeline_position(&state, &deal.stock);
            assert!(
                end >= earliest,
                "deal {seed}: ends at {end:?}, earliest {earliest:?}"
            );
            solved += 1;
            recycled += (earliest.0 > 0) as usize;
        }
        assert!(
            solved >= 20 && recycled >= 5,
            "{solved} solved, {recycled} needing a recycle"
        );
    }
}
