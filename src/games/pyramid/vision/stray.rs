//! What lies on the table that the board read does not explain: a card in flight between two
//! places, a dialog or another window over the table. A frame showing one is no board to act on
//! (a flying card passing over a pile or an empty slot is read as the card there), so the reader
//! refuses it.
//!
//! Between and around the cards the board holds, the table shows its background. That background
//! is sampled on a grid over the board (from the apex to the piles, across the bottom row), outside
//! every card the board read and a margin for shadows and a pile's stacked edges; a clump of
//! samples there that do not look like the background is a stray. The background is the felt
//! (of the colour the frame's sides show: `Felt::of`) where at least half the samples look like
//! it; else their median colour, when it is plain enough to tell anything from.

use crate::games::pyramid::vision::board::Board;
use crate::games::pyramid::vision::locate::Located;
use crate::table::rect::Rect;
use crate::vision::felt::Felt;
use crate::vision::recognize::Seen;
use image::RgbaImage;

/// Samples across a card width.
const SAMPLES_PER_CARD: f32 = 16.0;
/// How far around a pyramid card its edge, shadow or highlight may reach, in card widths.
const CARD_MARGIN: f32 = 0.06;
/// The same around a pile, whose stacked cards show their edges beside its top card.
const PILE_MARGIN: f32 = 0.1;
/// How far a sample may lie from the background's median colour and still be background (sum of
/// the three channels' differences), for a table whose background is not the felt.
const BACKGROUND_DISTANCE: i32 = 48;
/// Where the background is not the felt and more of its samples than this are far from their
/// median colour, it is no plain colour (a picture): nothing can be told from it, and nothing is
/// called a stray.
const PLAIN_BACKGROUND: f32 = 0.35;
/// The fewest samples, and the fewest rows and columns of samples, that make a stray: a quarter
/// of a card width square (a card's edge a pixel or two off its slot makes a line, no clump).
const STRAY_SAMPLES: usize = 12;
const STRAY_SPAN: i32 = 3;

/// Something on the table that no card of the board explains: where it is (its bounding box, in
/// frame pixels).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stray {
    pub area: Rect,
}

impl std::fmt::Display for Stray {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        let r = self.area;
        write!(
            f,
            "something lies on the table where no card belongs ({}x{} pixels at {},{}): cards \
             moving, or a dialog or window over the table",
            r.w, r.h, r.x, r.y
        )
    }
}

/// The largest stray on the table, if any: see the module's comment. `board` is what was read
/// from `frame` with the table `located`.
pub fn find_stray(frame: &RgbaImage, located: &Located, board: &Board) -> Option<Stray> {
    let w = located.card_w;
    let step = (w / SAMPLES_PER_CARD).max(2.0);
    let grow = |r: Rect, by: f32| {
        let m = (by * w).round() as i32;
        Rect::new(r.x - m, r.y - m, r.w + 2 * m, r.h + 2 * m)
    };
    let mut cards: Vec<Rect> = located
        .slots
        .iter()
        .zip(&board.pyramid)
        .filter(|(_, seen)| **seen != Seen::Empty)
        .map(|(r, _)| grow(*r, CARD_MARGIN))
        .collect();
    // The piles' places are never background: an empty stock or waste draws its outline there.
    cards.extend([located.stock, located.waste].map(|r| grow(r, PILE_MARGIN)));

    // The grid: from the apex's top to the piles' bottom, across the bottom row.
    let bottom_row = &located.slots[21..];
    let x0 = bottom_row.iter().map(|r| r.x).min()?.max(0) as f32;
    let x1 = (bottom_row.iter().map(|r| r.right()).max()?).min(frame.width() as i32) as f32;
    let y0 = located.slots[0].y.max(0) as f32;
    let y1 = (located.stock.bottom().max(located.waste.bottom())).min(frame.height() as i32) as f32;
    let columns = ((x1 - x0) / step).floor().max(0.0) as usize;
    let rows = ((y1 - y0) / step).floor().max(0.0) as usize;
    if columns == 0 || rows == 0 {
        return None;
    }
    let at = |i: usize, j: usize| ((x0 + i as f32 * step) as i32, (y0 + j as f32 * step) as i32);

    // The background samples: outside every card.
    let mut background: Vec<(usize, [u8; 4])> = Vec::new();
    for j in 0..rows {
        for i in 0..columns {
            let (x, y) = at(i, j);
            if !cards.iter().any(|r| r.contains(x, y)) {
                background.push((j * columns + i, frame.get_pixel(x as u32, y as u32).0));
            }
        }
    }
    if background.is_empty() {
        return None;
    }
    // A felt table's background is the felt; another's, its median colour, where that is plain.
    let model = Felt::of(frame);
    let felt = background
        .iter()
        .filter(|(_, p)| model.like(&image::Rgba(*p)))
        .count();
    let on_felt = 2 * felt >= background.len();
    let median = {
        let channel = |c: usize| {
            let mut v: Vec<u8> = background.iter().map(|(_, p)| p[c]).collect();
            let mid = v.len() / 2;
            *v.select_nth_unstable(mid).1
        };
        [channel(0), channel(1), channel(2)]
    };
    let looks_like_background = |p: [u8; 4]| {
        if on_felt {
            return model.like(&image::Rgba(p));
        }
        (0..3)
            .map(|c| (p[c] as i32 - median[c] as i32).abs())
            .sum::<i32>()
            <= BACKGROUND_DISTANCE
    };
    let mut odd = vec![false; rows * columns];
    let mut count = 0;
    for &(k, p) in &background {
        if !looks_like_background(p) {
            odd[k] = true;
            count += 1;
        }
    }
    if !on_felt && count as f32 > PLAIN_BACKGROUND * background.len() as f32 {
        return None;
    }
    largest_clump(&odd, columns)
        .filter(|c| c.samples >= STRAY_SAMPLES && c.span.0 >= STRAY_SPAN && c.span.1 >= STRAY_SPAN)
        .map(|c| {
            let (x, y) = at(c.first.0, c.first.1);
            let (right, bottom) = at(c.first.0 + c.span.0 as usize, c.first.1 + c.span.1 as usize);
            Stray {
                area: Rect::new(x, y, right - x, bottom - y),
            }
        })
}

/// A clump of neighbouring marked samples: how many, the top-left of its bounding box (column,
/// row) and its columns and rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Clump {
    samples: usize,
    first: (usize, usize),
    span: (i32, i32),
}

/// The clump with the most samples among the `marked` ones of a grid `columns` wide (samples
/// side by side or one above the other are neighbours).
fn largest_clump(marked: &[bool], columns: usize) -> Option<Clump> {
    let mut seen = vec![false; marked.len()];
    let mut best: Option<Clump> = None;
    let mut stack = Vec::new();
    for start in 0..marked.len() {
        if !marked[start] || seen[start] {
            continue;
        }
        seen[start] = true;
        stack.push(start);
        let (mut n, mut lo, mut hi) = (0, (usize::MAX, usize::MAX), (0, 0));
        while let Some(k) = stack.pop() {
            let (i, j) = (k % columns, k / columns);
            n += 1;
            lo = (lo.0.min(i), lo.1.min(j));
            hi = (hi.0.max(i), hi.1.max(j));
            let mut visit = |k: usize| {
                if marked[k] && !seen[k] {
                    seen[k] = true;
                    stack.push(k);
                }
            };
            if i > 0 {
                visit(k - 1);
            }
            if i + 1 < columns {
                visit(k + 1);
            }
            if j > 0 {
                visit(k - columns);
            }
            if k + columns < marked.len() {
                visit(k + columns);
            }
        }
        if best.is_none_or(|b| n > b.samples) {
            best = Some(Clump {
                samples: n,
                first: lo,
                span: ((hi.0 - lo.0 + 1) as i32, (hi.1 - lo.1 + 1) as i32),
            });
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_largest_clump_counts_neighbours_side_by_side_and_above() {
        // Two clumps: an L of four at the left, a pair at the right; a diagonal is no neighbour.
        let grid = [
            "x...x", //
            "x...x", //
            "xx...", //
            "...x.", //
        ];
        let columns = 5;
        let marked: Vec<bool> = grid.concat().chars().map(|c| c == 'x').collect();
        let c = largest_clump(&marked, columns).unwrap();
        assert_eq!(
            c,
            Clump {
                samples: 4,
                first: (0, 0),
                span: (2, 3)
            }
        );
        assert_eq!(largest_clump(&[false; 6], 3), None);
    }
}
