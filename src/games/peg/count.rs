//! Counting every solution of a game of peg solitaire (every sequence of jumps that ends with one
//! peg on the goal hole).
//!
//! A sequence of jumps played backwards is a sequence of jumps of the opposite game, in which holes
//! jump over holes and pegs are pegs' places left empty: the ways from a position P to the goal
//! (one peg on e) are as many as the ways from the goal's opposite (every hole filled but e) to
//! P's opposite. So both halves are counted forwards, by layers (one jump each): the ways from the
//! start to each position of its middle layer, and from the goal's opposite to each position of
//! the layer that meets it; the solutions are the sum over the middle of the products.
//!
//! Positions are kept up to the symmetries that keep both the start and the goal hole (every way
//! count is the same over a position's images); each layer's count is that of the whole class of
//! images, which adds up without dividing, and the class's size divides out once in the middle.
//!
//! Layers count in 64 bits (half the memory of 128: the English centre game's largest layers hold
//! tens of millions of classes); should a count not fit, the layers are counted again in 128.

use super::board::Board;
use crate::games::key_hash::KeyMap;
use rayon::prelude::*;

/// Ways to reach each class of positions of one layer (key: the class's smallest image).
type Layer<W> = KeyMap<W>;

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

/// `count` with the layers counted in `W`; `None` when a count does not fit.
fn count_in<W: Ways>(board: &Board, start: u8, end: u8) -> Option<u128> {
    let symmetries = board.fixing(&[start, end]);
    let holes = board.holes() as u32;
    // Jumps of the whole game: one peg fewer each, from holes − 1 pegs to one.
    let jumps = holes - 2;
    let forward = jumps / 2;
    let backward = jumps - forward;
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
    let full = board.full();
    Some(
        from_start
            .iter()
            .map(|(&class, &ways)| {
                let opposite = board.smallest_image(&symmetries, full & !class);
                from_goal.get(&opposite).map_or(0, |&back| {
                    ways.wide() * back.wide() / orbit(board, &symmetries, class)
                })
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
    let moves: Vec<(u64, u64)> = board
        .jumps
        .iter()
        .map(|&[a, b, c]| (1u64 << a | 1 << b, 1u64 << c))
        .collect();
    let overflow = std::sync::atomic::AtomicBool::new(false);
    let add = |sum: &mut W, ways: W| match sum.plus(ways) {
        Some(n) => *sum = n,
        None => overflow.store(true, std::sync::atomic::Ordering::Relaxed),
    };
    let mut layer = Layer::<W>::default();
    layer.insert(board.smallest_image(symmetries, pegs), W::ONE);
    let deepest = depths.iter().copied().max().unwrap_or(0);
    let mut kept: Vec<(u32, Layer<W>)> = Vec::new();
    for depth in 0..deepest {
        // Each core fills a map of its own; the smaller maps are added into the largest.
        let next = layer
            .par_iter()
            .fold(Layer::<W>::default, |mut next, (&class, &ways)| {
                for &(need, to) in &moves {
                    if class & need == need && class & to == 0 {
                        let key = board.smallest_image(symmetries, class ^ need ^ to);
                        add(next.entry(key).or_default(), ways);
                    }
                }
                next
            })
            .reduce(Layer::<W>::default, |a, b| {
                let (mut big, small) = if a.len() >= b.len() { (a, b) } else { (b, a) };
                for (key, ways) in small {
                    add(big.entry(key).or_default(), ways);
                }
                big
            });
        if overflow.load(std::sync::atomic::Ordering::Relaxed) {
            return None;
        }
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
