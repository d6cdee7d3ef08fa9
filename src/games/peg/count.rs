//! Counting every solution of a game of peg solitaire (every sequence of jumps that ends with one
//! peg on the goal hole).
//!
//! A sequence of jumps played backwards is a sequence of jumps of the opposite game, in which holes
//! jump over holes and pegs are pegs' places left empty: the ways from a position P to the goal
//! (one peg on e) are as many as the ways from the goal's opposite (every hole filled but e) to
//! P's opposite. So both halves are counted forwards, by layers (one jump each): the ways from the
//! start to each position of its middle layer, and from the goal's opposite to the layer one jump
//! short of meeting it. The last jump is never stored: each position of that layer times the ways
//! from the start to the opposite of each position one jump on, summed, is the count.
//!
//! Positions are kept up to the symmetries that keep both the start and the goal hole (every way
//! count is the same over a position's images); each layer's count is that of the whole class of
//! images, which adds up without dividing, and the class's size divides out once, in the middle.
//!
//! A layer is built without a shared map: the positions one jump on are spread over shards by
//! their hash, and each shard is sorted and its repeats added up on its own (in parallel, in a
//! shard small enough for the cache).
//!
//! Layers count in 64 bits (half the memory of 128); should a count not fit, the layers are
//! counted again in 128.

use super::board::Board;
use rayon::prelude::*;

/// One layer: each class of positions (its smallest image) with the ways to reach it, each class
/// once, spread over shards by hash (`shard`), each shard sorted by class.
type Layer<W> = Vec<Vec<(u64, W)>>;

/// Shards a layer's next positions are spread over (by the top bits of their hash).
const SHARD_BITS: u32 = 8;

/// A count of ways: 64 or 128 bits, added with a check.
trait Ways: Copy + Default + Send + Sync {
    const ONE: Self;
    /// The sum, or `None` when it does not fit.
    fn plus(self, other: Self) -> Option<Self>;
    fn wide(self) -> u128;
}

impl Ways for u64 {
    const ONE: u64 = 1;
    fn plus(self, other: u64) -> Option<u64> {
        self.checked_add(other)
    }
    fn wide(self) -> u128 {
        self as u128
    }
}

impl Ways for u128 {
    const ONE: u128 = 1;
    fn plus(self, other: u128) -> Option<u128> {
        self.checked_add(other)
    }
    fn wide(self) -> u128 {
        self
    }
}

/// How many solutions the game from the board full but for `start`, ending with one peg on
/// `end`, has.
pub fn count(board: &Board, start: u8, end: u8) -> u128 {
    count_in::<u64>(board, start, end).unwrap_or_else(|| {
        count_in::<u128>(board, start, end).expect("a count of ways fits in 128 bits")
    })
}

/// The jumps as (holes that must hold pegs, hole that must be empty), each made by one XOR.
fn moves(board: &Board) -> Vec<(u64, u64)> {
    board
        .jumps
        .iter()
        .map(|&[a, b, c]| (1u64 << a | 1 << b, 1u64 << c))
        .collect()
}

/// `count` with the layers counted in `W`; `None` when a count does not fit.
fn count_in<W: Ways>(board: &Board, start: u8, end: u8) -> Option<u128> {
    let symmetries = board.fixing(&[start, end]);
    let holes = board.holes() as u32;
    // Jumps of the whole game: one peg fewer each, from holes − 1 pegs to one.
    let jumps = holes - 2;
    if jumps == 0 {
        return Some((start == end) as u128);
    }
    let forward = jumps / 2;
    // The opposite game's layer one jump short of the middle.
    let backward = jumps - forward - 1;
    // The goal's opposite is the start when the game ends where it began: its layers once.
    let (from_start, from_goal) = if start == end {
        let mut both = layers::<W>(
            board,
            &symmetries,
            board.full() & !(1 << start),
            &[forward, backward],
        )?;
        let from_goal = both.pop().expect("two layers");
        (both.pop().expect("two layers"), from_goal)
    } else {
        let mut from_start =
            layers::<W>(board, &symmetries, board.full() & !(1 << start), &[forward])?;
        let mut from_goal =
            layers::<W>(board, &symmetries, board.full() & !(1 << end), &[backward])?;
        (from_start.remove(0), from_goal.remove(0))
    };
    // The last jump of the opposite game, each position named by its opposite's class: the
    // ways from the goal's opposite to it, by the class of the middle it meets.
    let full = board.full();
    let meeting = step(&moves(board), &from_goal, |pegs| {
        board.smallest_image(&symmetries, full & !pegs)
    })?;
    drop(from_goal);
    // Shard by shard, both sorted by class: the ways from the start to a class, shared by its
    // images, times the ways on from there.
    Some(
        from_start
            .par_iter()
            .zip(meeting.par_iter())
            .map(|(ahead, behind)| {
                let mut sum = 0u128;
                let mut i = 0;
                for &(class, back) in behind {
                    while i < ahead.len() && ahead[i].0 < class {
                        i += 1;
                    }
                    if i < ahead.len() && ahead[i].0 == class {
                        sum += ahead[i].1.wide() / orbit(board, &symmetries, class) * back.wide();
                    }
                }
                sum
            })
            .sum(),
    )
}

/// The layers `depths` jumps from `pegs` (in the order asked): each class with the ways to reach
/// it; `None` when a count does not fit in `W`.
fn layers<W: Ways>(
    board: &Board,
    symmetries: &[usize],
    pegs: u64,
    depths: &[u32],
) -> Option<Vec<Layer<W>>> {
    let moves = moves(board);
    let first = board.smallest_image(symmetries, pegs);
    let mut layer: Layer<W> = vec![Vec::new(); 1 << SHARD_BITS];
    layer[shard(first)].push((first, W::ONE));
    let deepest = depths.iter().copied().max().unwrap_or(0);
    let mut kept: Vec<(u32, Layer<W>)> = Vec::new();
    for depth in 0..deepest {
        let next = step(&moves, &layer, |pegs| {
            board.smallest_image(symmetries, pegs)
        })?;
        let done = std::mem::replace(&mut layer, next);
        if depths.contains(&depth) {
            kept.push((depth, done));
        }
    }
    kept.push((deepest, layer));
    // In the order asked (a depth asked twice is the same layer twice).
    Some(
        depths
            .iter()
            .map(|d| {
                let i = kept
                    .iter()
                    .position(|(k, _)| k == d)
                    .expect("every depth kept");
                if depths.iter().filter(|&x| x == d).count() > 1 {
                    kept[i].1.clone()
                } else {
                    std::mem::take(&mut kept[i].1)
                }
            })
            .collect(),
    )
}

/// The shard of a class.
fn shard(key: u64) -> usize {
    (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - SHARD_BITS)) as usize
}

/// The layer one jump on from `layer`, each position after a jump named by `name` (its class);
/// `None` when a count does not fit in `W`.
fn step<W: Ways>(
    moves: &[(u64, u64)],
    layer: &Layer<W>,
    name: impl Fn(u64) -> u64 + Sync,
) -> Option<Layer<W>> {
    let shards = 1usize << SHARD_BITS;
    // Each shard of the layer spreads the positions one jump on over the shards.
    let spread: Vec<Vec<Vec<(u64, W)>>> = layer
        .par_iter()
        .map(|part| {
            let mut out = vec![Vec::new(); shards];
            for &(class, ways) in part {
                for &(need, to) in moves {
                    if class & need == need && class & to == 0 {
                        let key = name(class ^ need ^ to);
                        out[shard(key)].push((key, ways));
                    }
                }
            }
            out
        })
        .collect();
    // Shard by shard: its pieces gathered, sorted, repeats added up.
    let mut by_shard: Vec<Vec<Vec<(u64, W)>>> = (0..shards).map(|_| Vec::new()).collect();
    for pieces in spread {
        for (s, part) in pieces.into_iter().enumerate() {
            if !part.is_empty() {
                by_shard[s].push(part);
            }
        }
    }
    by_shard
        .into_par_iter()
        .map(|parts| {
            let mut all: Vec<(u64, W)> =
                Vec::with_capacity(parts.iter().map(Vec::len).sum::<usize>());
            for part in parts {
                all.extend(part);
            }
            all.sort_unstable_by_key(|&(key, _)| key);
            let mut out: Vec<(u64, W)> = Vec::with_capacity(all.len() / 2);
            for (key, ways) in all {
                match out.last_mut() {
                    Some((last, sum)) if *last == key => *sum = sum.plus(ways)?,
                    _ => out.push((key, ways)),
                }
            }
            out.shrink_to_fit();
            Some(out)
        })
        .collect()
}

/// How many distinct images `pegs` has under `symmetries`.
fn orbit(board: &Board, symmetries: &[usize], pegs: u64) -> u128 {
    let mut images: Vec<u64> = symmetries.iter().map(|&k| board.map(k, pegs)).collect();
    images.sort_unstable();
    images.dedup();
    images.len() as u128
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::peg::rules::jump;
    use crate::games::peg::Kind;
    use std::collections::HashMap;

    /// Sequences of jumps from `pegs` that leave one peg on `end`, counted one by one over the
    /// rules (every pair of holes tried as a jump), with the counts of positions remembered.
    fn ways(board: &Board, pegs: u64, end: u8, memo: &mut HashMap<u64, u128>) -> u128 {
        if pegs.count_ones() == 1 {
            return (pegs == 1 << end) as u128;
        }
        if let Some(&n) = memo.get(&pegs) {
            return n;
        }
        let mut n = 0;
        for a in 0..board.holes() as u8 {
            for c in 0..board.holes() as u8 {
                if let Ok(next) = jump(board, pegs, a, c) {
                    n += ways(board, next, end, memo);
                }
            }
        }
        memo.insert(pegs, n);
        n
    }

    /// Counted from both ends and up to symmetry, the triangle's solutions are those counted
    /// one by one, for every start and goal.
    #[test]
    fn counts_from_both_ends_are_counts_one_by_one() {
        let board = Board::new(Kind::Triangle);
        let mut some = 0;
        for end in 0..15u8 {
            let mut memo = HashMap::new();
            for start in 0..15u8 {
                let pegs = board.full() & !(1 << start);
                let truth = ways(&board, pegs, end, &mut memo);
                assert_eq!(count(&board, start, end), truth, "start {start}, end {end}");
                some += (truth > 0) as u32;
            }
        }
        assert!(some > 10, "the triangle has solutions to count");
    }

    /// Counting in 64 bits and in 128 gives the same, where 64 are enough.
    #[test]
    fn narrow_and_wide_counts_agree() {
        let board = Board::new(Kind::Triangle);
        for start in [0u8, 3, 4] {
            assert_eq!(
                count_in::<u64>(&board, start, start),
                count_in::<u128>(&board, start, start)
            );
        }
    }

    /// The English centre game's solutions, as published: 40,861,647,040,079,968.
    #[test]
    fn the_english_centre_game_has_its_published_count() {
        let board = Board::new(Kind::English);
        let d4 = board.centre();
        assert_eq!(count(&board, d4, d4), 40_861_647_040_079_968);
    }
}
