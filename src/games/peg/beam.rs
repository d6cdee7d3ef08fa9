//! A quick search for a solution: a beam, one jump a level, that keeps the most promising
//! positions of each level and drops the rest.
//!
//! It cannot prove anything (what it drops may have held the only way), so it comes before the
//! complete search of `solver` and hands over to it when no beam up to its widest finds a
//! solution. What makes a position promising: few pegs that stand alone (a peg with no neighbour
//! can move again only once another peg comes next to it) and pegs near the centre (the pegs left
//! stranded are those far out in the arms and corners). Ordering a depth-first search by the same
//! measure barely helps, because it still goes deep into the first branch; the beam compares every
//! position of a level with every other.

use super::board::Board;
use crate::games::key_hash::KeySet;

/// The beam's widths, tried in turn: most games are solved at the first.
pub const WIDTHS: [usize; 5] = [64, 256, 1024, 4096, 16384];

/// One jump as masks: the holes that must hold pegs (from, over) and the one that must be empty.
pub struct Move {
    pub need: u64,
    pub to: u64,
    pub jump: [u8; 3],
}

impl Move {
    /// The jump (from, over, to) as masks.
    pub fn of([a, b, c]: [u8; 3]) -> Move {
        Move {
            need: 1 << a | 1 << b,
            to: 1 << c,
            jump: [a, b, c],
        }
    }

    /// Every jump of the board, in the board's order.
    pub fn all(board: &Board) -> Vec<Move> {
        board.jumps.iter().copied().map(Move::of).collect()
    }

    pub fn fits(&self, pegs: u64) -> bool {
        pegs & self.need == self.need && pegs & self.to == 0
    }

    pub fn made(&self, pegs: u64) -> u64 {
        pegs ^ self.need ^ self.to
    }
}

/// How promising a position looks (lower is better), from per-hole tables.
pub struct Promise {
    /// Per hole, the holes next to it.
    neighbours: Vec<u64>,
    /// Per hole, the square of its distance from the centre (steps along the board's lines).
    far: Vec<i32>,
}

/// What one peg with no neighbour weighs against the distance of every peg from the centre.
const ALONE: i32 = 3;

impl Promise {
    pub fn new(board: &Board) -> Promise {
        let mut neighbours = vec![0u64; board.holes()];
        for j in &board.jumps {
            neighbours[j[0] as usize] |= 1 << j[1];
        }
        let centre = board.cells[board.centre() as usize];
        let far = board
            .cells
            .iter()
            .map(|&(a, b)| {
                let d = (a - centre.0).abs() + (b - centre.1).abs();
                d * d
            })
            .collect();
        Promise { neighbours, far }
    }

    pub fn of(&self, pegs: u64) -> i32 {
        let (mut alone, mut far) = (0, 0);
        let mut rest = pegs;
        while rest != 0 {
            let h = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if pegs & self.neighbours[h] == 0 {
                alone += 1;
            }
            far += self.far[h];
        }
        ALONE * alone + far
    }
}

/// A beam search from `pegs` for a line that leaves one peg on a hole of `goals`. Positions of a
/// level are told apart up to `key` (the symmetries that keep the goal). Returns the jumps and the
/// positions the beam kept.
pub fn search(
    moves: &[Move],
    promise: &Promise,
    key: impl Fn(u64) -> u64,
    pegs: u64,
    goals: u64,
    width: usize,
) -> (Option<Vec<[u8; 3]>>, u64) {
    // Per level, each position kept with where it came from: its parent's place in the level
    // before and the jump made.
    let mut levels: Vec<Vec<(u64, u32, u16)>> = vec![vec![(pegs, 0, 0)]];
    let mut seen = KeySet::default();
    let mut kept = 1u64;
    for _ in 1..pegs.count_ones() {
        let last = levels.last().expect("the first level");
        let mut next: Vec<(i32, u64, u32, u16)> = Vec::new();
        seen.clear();
        for (parent, &(p, _, _)) in last.iter().enumerate() {
            for (i, m) in moves.iter().enumerate() {
                if m.fits(p) {
                    let child = m.made(p);
                    if seen.insert(key(child)) {
                        next.push((promise.of(child), child, parent as u32, i as u16));
                    }
                }
            }
        }
        if next.is_empty() {
            return (None, kept);
        }
        if next.len() > width {
            next.select_nth_unstable_by_key(width, |t| t.0);
            next.truncate(width);
        }
        kept += next.len() as u64;
        levels.push(next.into_iter().map(|(_, c, p, i)| (c, p, i)).collect());
    }
    let last = levels.last().expect("the last level");
    let Some(mut at) = last.iter().position(|&(p, _, _)| p & goals != 0) else {
        return (None, kept);
    };
    let mut jumps = Vec::new();
    for level in levels.iter().skip(1).rev() {
        let (_, parent, i) = level[at];
        jumps.push(moves[i as usize].jump);
        at = parent as usize;
    }
    jumps.reverse();
    (Some(jumps), kept)
}
