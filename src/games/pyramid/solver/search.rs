//! A* over packed states with a bucket queue: the fewest steps that clear the pyramid, or proof
//! that no sequence of steps does.
//!
//! - f = g + h, with h from `Problem::heuristic` (admissible and consistent), so the first goal
//!   taken from the queue is optimal. Within a bucket the newest state comes first (deeper first),
//!   which finds solutions sooner among equal f.
//! - States that can no longer clear the pyramid (`Problem::feasible`) are recorded, never queued.
//! - An uncovered pyramid king is always removed at once: doing it first never lengthens a solution
//!   (it only uncovers cards), so it is the only successor considered.
//! - A king on the stock's top is never drawn (for every goal): removing it moves the stock on as
//!   drawing would, and leaves out whatever the line would later spend drawing or removing it.
//! - Each state's entry records the move that reached it, so the path is rebuilt backwards from the
//!   goal without storing parents.

use super::problem::*;
use super::shapes::{ShapeId, Shapes};
use super::visited::{Visited, BATCH, MAX_G};
use crate::games::pyramid::{Step, PYRAMID_SIZE};

/// What the search looks for: the Board challenge's cleared pyramid, or another goal
/// (`goal::Target`). Monomorphised, so the board's search pays nothing for the others.
pub trait Target {
    /// Every goal state has the pyramid cleared, so what holds of clearing lines holds here:
    /// a state that cannot clear is dropped, an uncovered king and a forced pair go at once.
    fn clears(&self) -> bool;
    /// Which kings are removed at once, as the only successor.
    fn kings(&self) -> Kings {
        if self.clears() {
            Kings::Pyramid
        } else {
            Kings::Tried
        }
    }
    fn is_goal(&self, problem: &Problem, key: Key) -> bool;
    /// A lower bound on the steps from `key` to a goal.
    fn h(&self, problem: &Problem, key: Key) -> u32;
    /// Whether a goal can still be reached from a state a removal led to (draws and recycles
    /// change nothing this judges).
    fn viable(&self, problem: &Problem, key: Key) -> bool;
}

/// The Board challenge: clear the pyramid.
pub struct Board;

impl Target for Board {
    #[inline]
    fn clears(&self) -> bool {
        true
    }
    #[inline]
    fn is_goal(&self, _: &Problem, key: Key) -> bool {
        Problem::is_goal(key)
    }
    #[inline]
    fn h(&self, problem: &Problem, key: Key) -> u32 {
        problem.h_full(key)
    }
    #[inline]
    fn viable(&self, problem: &Problem, key: Key) -> bool {
        problem.feasible(shape_of(key), flags_of(key))
    }
}

/// Which kings a search removes at once, as the only successor (`Target::kings`). Doing so never
/// lengthens a line to a goal when every such line removes that king anyway: removing it only
/// uncovers cards, or moves the stock on as a draw would.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Kings {
    /// None: every successor is tried.
    Tried,
    /// An uncovered pyramid king: every goal clears the pyramid.
    Pyramid,
    /// An uncovered pyramid king, and a king on the stock's top: the goal is the most points the
    /// deal allows, and a goal where either was still there could remove it for more.
    Every,
}

/// How a state was reached: kind in bits 12..14, removed slots in bits 0..6 and 6..12 (63 = none).
/// Kinds: draw, recycle, removal, and removal that took the stock's top card (held in slot `b`).
#[derive(Clone, Copy)]
pub struct Move(pub u32);

const DRAW: u32 = 0;
const RECYCLE: u32 = 1;
const REMOVE: u32 = 2;
const REMOVE_STOCK_TOP: u32 = 3;
const NO_SLOT: u32 = 63;

impl Move {
    fn new(kind: u32, a: u32, b: u32) -> Move {
        Move(kind << 12 | a << 6 | b)
    }
    pub const START: Move = Move(NO_SLOT << 6 | NO_SLOT);
    pub fn kind(self) -> u32 {
        self.0 >> 12
    }
    fn a(self) -> u32 {
        self.0 >> 6 & 63
    }
    fn b(self) -> u32 {
        self.0 & 63
    }
}

/// What a search found.
pub struct Found {
    /// The steps of an optimal solution, or `None` when none exists.
    pub steps: Option<Vec<Step>>,
    /// States taken from the queue and expanded.
    pub expanded: u64,
    /// Distinct states reached.
    pub reached: u64,
    /// Bytes of the search's main structures at their largest.
    pub peak_bytes: usize,
}

/// A card the next step could remove: its slot and value.
#[derive(Clone, Copy)]
struct Open {
    slot: u32,
    value: u8,
}

pub fn search<T: Target>(problem: &Problem, target: &T) -> Found {
    let shapes = Shapes::get();
    let mut visited = Visited::new();
    let mut buckets: Vec<Vec<u64>> = vec![Vec::new(); 256];
    let mut queued_bytes = 0usize;
    let start = problem.start;
    let mut expanded = 0u64;

    let done = |visited: &Visited, goal: Option<Key>, expanded: u64, queued_bytes: usize| Found {
        steps: goal.map(|g| rebuild(problem, visited, g)),
        expanded,
        reached: visited.len() as u64,
        peak_bytes: visited.bytes() + queued_bytes,
    };

    visited.improve(start, 0, Move::START.0);
    if target.is_goal(problem, start) {
        return done(&visited, Some(start), 0, 0);
    }
    if !target.viable(problem, start) {
        return done(&visited, None, 0, 0);
    }
    let mut f = target.h(problem, start) as usize;
    buckets[f].push(start);
    // States are taken from the queue a batch at a time, and the table slots of the whole batch,
    // then of all their successors, are prefetched before they are read: the table is far larger
    // than the caches, and waiting for one slot at a time was most of the search's time.
    let mut batch: Vec<u64> = Vec::with_capacity(BATCH);
    let mut succ: Vec<(Key, Move)> = Vec::with_capacity(48);
    let mut all_succ: Vec<(Key, Move, u32)> = Vec::with_capacity(48 * BATCH);

    while f < buckets.len() {
        if buckets[f].is_empty() {
            queued_bytes = queued_bytes.max(buckets.iter().map(|b| b.capacity() * 8).sum());
            buckets[f] = Vec::new();
            f += 1;
            continue;
        }
        let from = buckets[f].len().saturating_sub(BATCH);
        batch.clear();
        batch.extend(buckets[f].drain(from..).rev());
        for &item in &batch {
            visited.prefetch(item & KEY_MASK);
        }
        all_succ.clear();
        for &item in &batch {
            let key = item & KEY_MASK;
            let g = (item >> KEY_BITS) as u32;
            if visited.get(key).is_some_and(|(best, _)| best < g) {
                continue; // queued again since with fewer steps
            }
            if target.is_goal(problem, key) {
                return done(&visited, Some(key), expanded, queued_bytes);
            }
            expanded += 1;
            successors(
                problem,
                shapes,
                key,
                target.clears(),
                target.kings(),
                &mut succ,
            );
            let g2 = g + 1;
            assert!(g2 <= MAX_G, "step count beyond the table's range");
            for &(next, mv) in &succ {
                visited.prefetch(next);
                all_succ.push((next, mv, g2));
            }
        }
        for &(next, mv, g2) in &all_succ {
            if !visited.improve(next, g2, mv.0) {
                continue;
            }
            // Judged only when first recorded (or improved): a state that cannot clear the
            // pyramid stays recorded, so that it is not judged again.
            if mv.kind() >= REMOVE && !target.viable(problem, next) {
                continue;
            }
            // Path-max keeps f from falling below the parent's (the bound is admissible, not
            // always consistent), so buckets are taken in order and the first goal is optimal.
            let f2 = (g2 as usize + target.h(problem, next) as usize).max(f);
            if target.is_goal(problem, next) && f2 == f {
                // Nothing in the queue can be shorter than f: this goal is optimal.
                return done(&visited, Some(next), expanded, queued_bytes);
            }
            buckets[f2].push(next | (g2 as u64) << KEY_BITS);
        }
    }
    done(&visited, None, expanded, queued_bytes)
}

/// The states one step from `key`, with the moves that reach them. With `clearing` (every line
/// sought clears the pyramid), a forced pair is the only successor, and so are the kings `kings`
/// names. Once the pyramid is cleared the deal is over: no successors.
pub fn successors(
    problem: &Problem,
    shapes: &Shapes,
    key: Key,
    clearing: bool,
    kings: Kings,
    out: &mut Vec<(Key, Move)>,
) {
    out.clear();
    let (shape, cycle, stock, flags) = (shape_of(key), cycle_of(key), stock_of(key), flags_of(key));
    if shape == super::shapes::EMPTY_SHAPE {
        return;
    }
    let open_pyramid = shapes.uncovered[shape as usize];

    let open_kings = open_pyramid & problem.king_positions;
    let stock_top = (stock < STOCK_EMPTY).then_some(stock);
    let stock_king = stock_top.is_some_and(|s| problem.values[PYRAMID_SIZE + s as usize] == 13);
    if kings != Kings::Tried && open_kings != 0 {
        let p = open_kings.trailing_zeros();
        let next = shapes.after_removing[shape as usize][p as usize];
        out.push((
            pack(next, cycle, stock, flags),
            Move::new(REMOVE, NO_SLOT, p),
        ));
        return;
    }
    if kings == Kings::Every && stock_king {
        let flags = flags & !(1 << stock);
        out.push((
            pack(shape, cycle, next_card(flags, stock + 1), flags),
            Move::new(REMOVE_STOCK_TOP, NO_SLOT, PYRAMID_SIZE as u32 + stock),
        ));
        return;
    }

    if let Some((a, b)) = clearing
        .then(|| problem.forced_pair(shapes.flags[shape as usize], open_pyramid, flags))
        .flatten()
    {
        let next = shapes.without_pair(shape, a, b);
        out.push((pack(next, cycle, stock, flags), Move::new(REMOVE, a, b)));
        return;
    }
    let mut open = [Open { slot: 0, value: 0 }; PYRAMID_SIZE + 2];
    let mut n = 0;
    let mut bits = open_pyramid;
    while bits != 0 {
        let p = bits.trailing_zeros();
        bits &= bits - 1;
        open[n] = Open {
            slot: p,
            value: problem.values[p as usize],
        };
        n += 1;
    }
    let waste = waste_top(flags, stock);
    for s in [stock_top, waste].into_iter().flatten() {
        let slot = PYRAMID_SIZE as u32 + s;
        open[n] = Open {
            slot,
            value: problem.values[slot as usize],
        };
        n += 1;
    }
    let open = &open[..n];

    let remove = |slots: &[u32]| -> (Key, Move) {
        let (mut shape, mut flags, mut stock_next, mut took_stock_top) =
            (shape, flags, stock, false);
        for &slot in slots {
            if slot < PYRAMID_SIZE as u32 {
                shape = shapes.after_removing[shape as usize][slot as usize];
            } else {
                let s = slot - PYRAMID_SIZE as u32;
                flags &= !(1 << s);
                if Some(s) == stock_top {
                    took_stock_top = true;
                }
            }
        }
        if took_stock_top {
            stock_next = next_card(flags, stock + 1);
        }
        let slot_of_stock_top = PYRAMID_SIZE as u32 + stock;
        let mv = match slots {
            [a] if took_stock_top => Move::new(REMOVE_STOCK_TOP, NO_SLOT, *a),
            [a] => Move::new(REMOVE, NO_SLOT, *a),
            [a, b] if took_stock_top => {
                let other = if *a == slot_of_stock_top { *b } else { *a };
                Move::new(REMOVE_STOCK_TOP, other, slot_of_stock_top)
            }
            [a, b] => Move::new(REMOVE, *a, *b),
            _ => unreachable!(),
        };
        (pack(shape as ShapeId, cycle, stock_next, flags), mv)
    };

    for (i, x) in open.iter().enumerate() {
        if x.value == 13 {
            out.push(remove(&[x.slot]));
            continue;
        }
        for y in &open[i + 1..] {
            if x.value + y.value == 13 {
                out.push(remove(&[x.slot, y.slot]));
            }
        }
    }
    if let Some(s) = stock_top {
        if stock_king {
            // A king on the stock's top is removed, never drawn: removing it moves the stock on
            // as drawing does, and a line that draws it can remove it there instead and leave
            // out every later step that draws or removes it, so it is no longer.
            return;
        }
        out.push((
            pack(shape, cycle, next_card(flags, s + 1), flags),
            Move::new(DRAW, NO_SLOT, NO_SLOT),
        ));
    } else if cycle < 2 && flags != 0 {
        out.push((
            pack(shape, cycle + 1, next_card(flags, 0), flags),
            Move::new(RECYCLE, NO_SLOT, NO_SLOT),
        ));
    }
}

/// The steps from the start to `goal`, read backwards from the moves recorded in `visited`.
pub fn rebuild(problem: &Problem, visited: &Visited, goal: Key) -> Vec<Step> {
    let shapes = Shapes::get();
    let mut steps = Vec::new();
    let mut key = goal;
    while key != problem.start {
        let (_, mv) = visited.get(key).expect("every reached state is recorded");
        let mv = Move(mv);
        let (shape, cycle, stock, flags) =
            (shape_of(key), cycle_of(key), stock_of(key), flags_of(key));
        let card = |slot: u32| problem.cards[slot as usize].expect("a removed slot held a card");
        key = match mv.kind() {
            DRAW => {
                steps.push(Step::Draw);
                let drawn = waste_top(flags, stock).expect("a drawn card is on the waste");
                pack(shape, cycle, drawn, flags)
            }
            RECYCLE => {
                steps.push(Step::Recycle);
                pack(shape, cycle - 1, STOCK_EMPTY, flags)
            }
            kind => {
                let removed: Vec<u32> = [mv.a(), mv.b()]
                    .into_iter()
                    .filter(|&s| s != NO_SLOT)
                    .collect();
                steps.push(match removed[..] {
                    [k] => Step::King(card(k)),
                    [a, b] => Step::pair(card(a), card(b)),
                    _ => unreachable!(),
                });
                let (mut pyramid, mut flags) = (shapes.flags[shape as usize], flags);
                for &slot in &removed {
                    if slot < PYRAMID_SIZE as u32 {
                        pyramid |= 1 << slot;
                    } else {
                        flags |= 1 << (slot - PYRAMID_SIZE as u32);
                    }
                }
                let stock = if kind == REMOVE_STOCK_TOP {
                    mv.b() - PYRAMID_SIZE as u32
                } else {
                    stock
                };
                pack(
                    shapes.id(pyramid).expect("a parent shape exists"),
                    cycle,
                    stock,
                    flags,
                )
            }
        };
    }
    steps.reverse();
    steps
}
