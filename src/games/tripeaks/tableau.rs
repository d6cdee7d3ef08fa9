//! Where TriPeaks' 28 tableau cards lie and which cards cover which: three peaks of four rows,
//! numbered row by row from the top, left to right (row 1 holds the 3 peak tops, row 2 six cards,
//! row 3 nine, row 4 ten), as in a deck file.
//!
//! Row 1 card p is covered by row 2 cards 2p and 2p+1; row 2 card 2p+j (peak p, j = 0, 1) by row
//! 3 cards 3p+j and 3p+j+1; row 3 card i by row 4 cards i and i+1. Row 4 covers nothing and
//! starts face up.

/// Cards in the tableau.
pub const TABLEAU: usize = 28;
/// Cards in each row, top row first.
pub const ROW_LENGTHS: [usize; 4] = [3, 6, 9, 10];
/// Index (in deal order) of the first card of each row.
pub const ROW_STARTS: [usize; 4] = [0, 3, 9, 18];
/// The deck index of the card that starts face up on the waste.
pub const FIRST_WASTE: usize = 28;
/// The deck index of the stock's top card; the stock runs to the deck's end.
pub const FIRST_STOCK: usize = 29;
/// Cards in the stock at the start.
pub const STOCK: usize = 52 - FIRST_STOCK;

/// A tableau card's row (0 = the peak tops) and its place in that row.
pub fn row_and_column(index: usize) -> (usize, usize) {
    let row = (0..4).rev().find(|&r| index >= ROW_STARTS[r]).unwrap_or(0);
    (row, index - ROW_STARTS[row])
}

/// Where a tableau card's centre lies across the table, in column steps (the distance between
/// neighbouring bottom-row cards) from the middle: the bottom row at −4.5 … 4.5, row 3 at −4 … 4,
/// rows 2 and 1 over the middle of the two cards covering each.
pub fn column_offset(index: usize) -> f32 {
    let (row, col) = row_and_column(index);
    match row {
        0 => 3.0 * col as f32 - 3.0,
        1 => 3.0 * (col / 2) as f32 + (col % 2) as f32 - 3.5,
        2 => col as f32 - 4.0,
        _ => col as f32 - 4.5,
    }
}

/// The two cards that cover tableau card `index`, or `None` for the bottom row.
pub fn covered_by(index: usize) -> Option<[usize; 2]> {
    let (row, column) = row_and_column(index);
    let local = match row {
        0 => [2 * column, 2 * column + 1],
        1 => {
            let (peak, j) = (column / 2, column % 2);
            [3 * peak + j, 3 * peak + j + 1]
        }
        2 => [column, column + 1],
        _ => return None,
    };
    Some(local.map(|c| ROW_STARTS[row + 1] + c))
}

/// For each tableau card, the bit mask of the cards covering it (empty for the bottom row).
pub fn cover_masks() -> [u32; TABLEAU] {
    std::array::from_fn(|i| covered_by(i).map_or(0, |[a, b]| (1 << a) | (1 << b)))
}

/// The mask with every tableau card.
pub const ALL: u32 = (1 << TABLEAU) - 1;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_row_covers_the_row_above_as_the_rules_say() {
        // Peak tops: 0 by 3,4; 1 by 5,6; 2 by 7,8.
        assert_eq!(covered_by(0), Some([3, 4]));
        assert_eq!(covered_by(2), Some([7, 8]));
        // Row 2: peak 0's cards (3, 4) by row 3's 9,10 and 10,11; peak 2's second card (8) by 16,17.
        assert_eq!(covered_by(3), Some([9, 10]));
        assert_eq!(covered_by(4), Some([10, 11]));
        assert_eq!(covered_by(8), Some([16, 17]));
        // Row 3 card i by row 4 cards i, i+1.
        assert_eq!(covered_by(9), Some([18, 19]));
        assert_eq!(covered_by(17), Some([26, 27]));
        assert_eq!(covered_by(18), None);
        assert_eq!(covered_by(27), None);
    }

    #[test]
    fn every_card_but_the_peak_tops_covers_something() {
        let masks = cover_masks();
        let covering: u32 = masks.iter().fold(0, |a, m| a | m);
        assert_eq!(
            covering,
            ALL & !0b111,
            "all but the three peak tops cover a card"
        );
        // Row 4's two end cards cover one card each, the others two; rows 2 and 3 likewise.
        let covers = |c: usize| masks.iter().filter(|&&m| m & (1 << c) != 0).count();
        assert_eq!(covers(18), 1);
        assert_eq!(covers(19), 2);
        assert_eq!(
            covers(10),
            2,
            "row 3's middle card of a peak covers both its row 2 cards"
        );
        assert_eq!(covers(11), 1);
        assert_eq!(
            covers(21),
            2,
            "row 4 joins the peaks: 21 covers the first peak's 11 and the second's 12"
        );
        assert_eq!(masks[11] | masks[12], (1 << 20) | (1 << 21) | (1 << 22));
    }
}
