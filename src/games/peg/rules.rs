//! The rules of peg solitaire, apart from the solver's: a jump takes a peg over a neighbouring peg,
//! in a straight line along one of the board's directions, into the empty hole beyond, and the
//! peg jumped over is removed. Worked out here from the holes' places on the board, not from the
//! solver's table of jumps, so that replaying a solution checks the solver.

use super::board::{Board, Kind};
use super::End;

/// Plays `steps` (each `from-to`, as `solve` writes them) from the board full but for `start`,
/// and checks that it ends with one peg (on `end`'s hole when it names one). The pegs left, or
/// which step is wrong and why.
pub fn replay(board: &Board, start: u8, end: End, steps: &[String]) -> Result<u64, String> {
    let mut pegs = board.full() & !(1u64 << start);
    for (n, step) in steps.iter().enumerate() {
        let wrong = |why: String| format!("step {} ({step}): {why}", n + 1);
        let (from, to) = step
            .split_once('-')
            .ok_or_else(|| wrong("not a jump `from-to`".into()))?;
        let from = board.parse_hole(from).map_err(wrong)?;
        let to = board.parse_hole(to).map_err(wrong)?;
        pegs = jump(board, pegs, from, to).map_err(wrong)?;
    }
    if pegs.count_ones() != 1 {
        return Err(format!("{} pegs are left", pegs.count_ones()));
    }
    if let End::Hole(e) = end {
        if pegs != 1 << e {
            let last = pegs.trailing_zeros() as u8;
            return Err(format!(
                "the last peg is on {}, not {}",
                board.name(last),
                board.name(e)
            ));
        }
    }
    Ok(pegs)
}

/// The pegs after the jump from `from` to `to`, or why it is no jump.
pub fn jump(board: &Board, pegs: u64, from: u8, to: u8) -> Result<u64, String> {
    let over = between(board, from, to).ok_or("not a jump over one hole")?;
    let peg = |h: u8| pegs >> h & 1 == 1;
    if !peg(from) {
        return Err(format!("no peg on {}", board.name(from)));
    }
    if !peg(over) {
        return Err(format!("no peg to jump over on {}", board.name(over)));
    }
    if peg(to) {
        return Err(format!("{} is not empty", board.name(to)));
    }
    Ok(pegs ^ (1 << from | 1 << over | 1 << to))
}

/// The hole a jump from `from` to `to` goes over: two steps in one of the board's directions.
fn between(board: &Board, from: u8, to: u8) -> Option<u8> {
    let (a, b) = board.cells[from as usize];
    let (c, d) = board.cells[to as usize];
    let (dx, dy) = (c - a, d - b);
    let straight = match board.kind {
        Kind::English | Kind::French => (dx == 0) != (dy == 0) && (dx.abs() == 2 || dy.abs() == 2),
        // Rows (the second coordinate), sides (the first) and the other side (both alike).
        Kind::Triangle => {
            matches!(
                (dx, dy),
                (0, 2) | (0, -2) | (2, 0) | (-2, 0) | (2, 2) | (-2, -2)
            )
        }
    };
    if !straight {
        return None;
    }
    let middle = (a + dx / 2, b + dy / 2);
    board
        .cells
        .iter()
        .position(|&p| p == middle)
        .map(|i| i as u8)
}
