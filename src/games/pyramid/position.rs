//! Pyramid positions 0..28 (top row first, left to right) and which cards cover which.
//!
//! ```text
//!             00
//!           01  02
//!         03  04  05
//!       06  07  08  09
//!     10  11  12  13  14
//!   15  16  17  18  19  20
//! 21  22  23  24  25  26  27
//! ```
//! A card is covered by the two cards touching it in the row below (12 by 17 and 18).

/// Cards in the pyramid.
pub const PYRAMID_SIZE: usize = 28;
/// Rows in the pyramid.
pub const ROWS: usize = 7;

/// A slot of the pyramid, 0..28.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position(pub u8);

impl Position {
    pub fn new(row: usize, col: usize) -> Position {
        assert!(
            row < ROWS && col <= row,
            "no pyramid position at row {row}, column {col}"
        );
        Position((row * (row + 1) / 2 + col) as u8)
    }
    pub fn index(self) -> usize {
        self.0 as usize
    }
    pub fn row(self) -> usize {
        let i = self.0 as usize;
        (0..ROWS).rev().find(|r| r * (r + 1) / 2 <= i).unwrap()
    }
    pub fn col(self) -> usize {
        let r = self.row();
        self.0 as usize - r * (r + 1) / 2
    }
    /// The two cards that cover this one (none on the bottom row).
    pub fn covered_by(self) -> Option<[Position; 2]> {
        let (r, c) = (self.row(), self.col());
        (r + 1 < ROWS).then(|| [Position::new(r + 1, c), Position::new(r + 1, c + 1)])
    }
    /// The cards this one lies on, in the row above (one at either end of a row, none at the top).
    pub fn covers(self) -> impl Iterator<Item = Position> {
        let (r, c) = (self.row(), self.col());
        (c.max(1) - 1..=c)
            .filter(move |&above| r >= 1 && above < r)
            .map(move |above| Position::new(r - 1, above))
    }
    /// Every position that must be gone before this card is uncovered (its whole cone below).
    pub fn cone_below(self) -> u32 {
        let mut mask = 0u32;
        if let Some(kids) = self.covered_by() {
            for k in kids {
                mask |= 1 << k.0;
                mask |= k.cone_below();
            }
        }
        mask
    }
    pub fn all() -> impl Iterator<Item = Position> {
        (0..PYRAMID_SIZE as u8).map(Position)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_card_covers_exactly_the_cards_it_is_covered_by() {
        for p in Position::all() {
            for q in Position::all() {
                let covers = p.covers().any(|x| x == q);
                let covered = q.covered_by().is_some_and(|kids| kids.contains(&p));
                assert_eq!(covers, covered, "{p:?} over {q:?}");
            }
        }
        assert_eq!(
            Position(24).covers().collect::<Vec<_>>(),
            [Position(17), Position(18)]
        );
        assert_eq!(Position(21).covers().collect::<Vec<_>>(), [Position(15)]);
        assert_eq!(Position(0).covers().count(), 0);
    }

    #[test]
    fn rows_columns_and_covering() {
        assert_eq!(Position(12).row(), 4);
        assert_eq!(Position(12).col(), 2);
        assert_eq!(
            Position(12).covered_by(),
            Some([Position(17), Position(18)])
        );
        assert_eq!(Position(27).covered_by(), None);
        let cone: Vec<u8> = (0..28)
            .filter(|i| Position(12).cone_below() >> i & 1 == 1)
            .collect();
        assert_eq!(cone, vec![17, 18, 23, 24, 25]);
        assert_eq!(Position(0).cone_below().count_ones(), 27);
    }
}
