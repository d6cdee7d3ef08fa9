//! Where card art prints the suit a second time beside the rank, across the card's top strip
//! (tango's small pip at the top right): learnt from templates cut across that strip, as the
//! part where the suits of one colour differ the same way under most ranks, away from the index
//! corner. A covered card whose corner shows only the first rows of the pip under its rank
//! still shows that one whole.

use crate::vision::recognize::Matcher;
use crate::vision::templates::{Templates, TEMPLATE_H, TEMPLATE_W};

/// The box (in card widths from the card's top-left, as `Profile::index_box`) around the suit
/// printed beside the rank, from templates `wide` cut across the top strip (their box
/// `wide.manifest.index_box`), right of the index corner `corner`: as tall as the corner and at
/// least as wide, so that its templates show the suit at the corner's detail and are lined up
/// over as many pixels. None when the suits of one colour differ the same way under most ranks
/// nowhere beside the corner, or over more of the strip than the corner is wide.
///
/// `Region::Joined` takes only the pixels joined to where the suits differ most: on large cards
/// the suits of one colour differ, less, across most of the strip (tango at 2560×1440: 0.29 to
/// 0.94 card widths), and the pip beside the rank is the part joined to the strongest difference
/// (0.73 to 0.93). It also takes a suit-sized part of corners cut on a table found off where it
/// lies, so calibration asks for it only once nothing else would calibrate (see `calibrate`).
pub fn suit_beside_box(wide: &Templates, corner: [f32; 4], region: Region) -> Option<[f32; 4]> {
    let matcher = Matcher::new(wide);
    let (tw, th) = (TEMPLATE_W as usize, TEMPLATE_H as usize);
    let [bx, by, bw, bh] = wide.manifest.index_box;
    let sx = bw / tw as f32;
    let corner_right = corner[0] + corner[2];
    // Clubs and spades, diamonds and hearts (suit indices 0 to 3: c, d, h, s).
    let differ = [matcher.suits_differ(0, 3), matcher.suits_differ(1, 2)];
    let at = |x: usize, y: usize| -> f32 {
        let i = (y * tw + x) * 3;
        differ
            .iter()
            .flat_map(|d| d[i..i + 3].iter().copied())
            .fold(0.0, f32::max)
    };
    let beside = |x: usize| bx + x as f32 * sx >= corner_right;
    // Every template pixel, row by row.
    let pixels = || (0..th).flat_map(|y| (0..tw).map(move |x| (x, y)));
    let most_of = |only_beside: bool| {
        pixels()
            .filter(|&(x, _)| !only_beside || beside(x))
            .map(|(x, y)| at(x, y))
            .fold(0.0, f32::max)
    };
    // Beside the rank the suits must differ a good share of the most they differ anywhere, the
    // corner included (where they differ only in the corner, what is left beside it is how
    // each template's ink came out).
    let most = most_of(true);
    if most <= SHARE * most_of(false) {
        return None;
    }
    let marked = |x: usize, y: usize| beside(x) && at(x, y) >= SHARE * most;
    let taken: Vec<(usize, usize)> = match region {
        Region::All => pixels().filter(|&(x, y)| marked(x, y)).collect(),
        Region::Joined => {
            let strongest = pixels()
                .filter(|&(x, _)| beside(x))
                .max_by(|a, b| at(a.0, a.1).total_cmp(&at(b.0, b.1)))?;
            joined_to(strongest, tw, th, marked)
        }
    };
    let (mut x0, mut x1) = (tw, 0);
    for &(x, _) in &taken {
        (x0, x1) = (x0.min(x), x1.max(x + 1));
    }
    if x1 <= x0 {
        return None;
    }
    // A suit is a glyph no wider than the corner that holds the rank: suits that differ across
    // more of the strip are not a suit printed there (a table found off where it lies cuts the
    // strip across other cards).
    if (x1 - x0) as f32 * sx > corner[2] {
        return None;
    }
    // A margin around it (the pip sits a little off from card to card), at least the corner's
    // width, within the strip and right of the corner.
    let (left, right) = (bx + x0 as f32 * sx - MARGIN, bx + x1 as f32 * sx + MARGIN);
    let w = (right - left).max(corner[2]).min(bx + bw - corner_right);
    let left = ((left + right - w) / 2.0).clamp(corner_right, bx + bw - w);
    Some([left, by, w, bh])
}

/// Which of the pixels where the suits differ (see `SHARE`) make the suit's box.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Region {
    /// Every one beside the corner.
    All,
    /// Those joined (side by side or corner to corner) to the one where they differ most.
    Joined,
}

/// The pixels of a `tw`×`th` grid joined to `start` through pixels that are `marked` (`start`
/// among them, marked or not).
fn joined_to(
    start: (usize, usize),
    tw: usize,
    th: usize,
    marked: impl Fn(usize, usize) -> bool,
) -> Vec<(usize, usize)> {
    let mut seen = vec![false; tw * th];
    let mut todo = vec![start];
    let mut out = Vec::new();
    seen[start.1 * tw + start.0] = true;
    while let Some((x, y)) = todo.pop() {
        out.push((x, y));
        for ny in y.saturating_sub(1)..(y + 2).min(th) {
            for nx in x.saturating_sub(1)..(x + 2).min(tw) {
                if !seen[ny * tw + nx] && marked(nx, ny) {
                    seen[ny * tw + nx] = true;
                    todo.push((nx, ny));
                }
            }
        }
    }
    out
}

/// The share of the most the suits differ that marks the part they differ in (as a duel's
/// mask does: see `Matcher::duel_pair`).
const SHARE: f32 = 0.35;

/// Margin kept around that part each way, in card widths.
const MARGIN: f32 = 0.03;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Card;
    use image::{Rgb, RgbImage};

    /// Templates across the top strip (the msc corner's height, 0.94 card widths wide): each
    /// card's rank as a bar at its own height in the corner, its suit as a mark of the same ink
    /// in the corner (two rows further down for spades and hearts) and, with `beside`, a mark
    /// at the top right (a block for clubs and diamonds, its top half for spades and hearts);
    /// with `faint`, clubs and diamonds also a fainter line across much of the strip left of it
    /// (as larger cards show the suits differing a little across most of the strip).
    fn strip_templates(beside: bool, faint: bool) -> Templates {
        let images = Card::all()
            .map(|c| {
                let (rank, suit) = (c.index() % 13, c.index() / 13);
                let red = suit == 1 || suit == 2;
                let ink = if red {
                    Rgb([200, 20, 20])
                } else {
                    Rgb([20, 20, 20])
                };
                let mut im = RgbImage::from_pixel(TEMPLATE_W, TEMPLATE_H, Rgb([240, 240, 240]));
                for x in 1..5 {
                    im.put_pixel(x, 2 + 2 * rank as u32, ink);
                    im.put_pixel(x, 32 + 2 * (suit == 2 || suit == 3) as u32, ink);
                }
                if beside {
                    let rows = if suit == 2 || suit == 3 {
                        10..14
                    } else {
                        10..18
                    };
                    for y in rows {
                        for x in 26..32 {
                            im.put_pixel(x, y, ink);
                        }
                    }
                }
                if faint && (suit == 0 || suit == 1) {
                    let ink = if red {
                        Rgb([230, 120, 120])
                    } else {
                        Rgb([120, 120, 120])
                    };
                    for y in 20..22 {
                        for x in 8..22 {
                            im.put_pixel(x, y, ink);
                        }
                    }
                }
                im
            })
            .collect();
        let mut templates = crate::vision::templates::tests::set();
        templates.manifest.index_box = [0.03, 0.02, 0.94, 0.27];
        templates.images = images;
        templates
    }

    #[test]
    fn the_box_lies_around_the_suit_beside_the_rank_past_the_corner() {
        let corner = [0.03, 0.02, 0.18, 0.27];
        let [x, y, w, h] =
            suit_beside_box(&strip_templates(true, false), corner, Region::All).unwrap();
        // The mark lies at template columns 26..32: in card widths, x 0.71 to 0.87.
        let sx = 0.94 / TEMPLATE_W as f32;
        assert!(x >= 0.21, "{x}");
        assert!(
            x <= 0.03 + 26.0 * sx && x + w >= 0.03 + 32.0 * sx,
            "{x} {w}"
        );
        assert!(
            x >= 0.03 + 18.0 * sx,
            "the box reaches far left of the mark: {x}"
        );
        assert!(w >= corner[2] && x + w <= 0.97 + 1e-6, "{x} {w}");
        assert_eq!((y, h), (0.02, 0.27));
    }

    #[test]
    fn joined_to_the_strongest_the_suit_stands_apart_from_a_faint_difference_across_the_strip() {
        let corner = [0.03, 0.02, 0.18, 0.27];
        let templates = strip_templates(true, true);
        assert_eq!(
            suit_beside_box(&templates, corner, Region::All),
            None,
            "the suits differ across more of the strip than the corner is wide"
        );
        let [x, _, w, _] = suit_beside_box(&templates, corner, Region::Joined).unwrap();
        let sx = 0.94 / TEMPLATE_W as f32;
        assert!(
            x <= 0.03 + 26.0 * sx && x + w >= 0.03 + 32.0 * sx,
            "{x} {w}"
        );
        assert!(
            x >= 0.03 + 18.0 * sx,
            "the box takes in the faint line: {x}"
        );
    }

    #[test]
    fn no_box_where_the_suits_differ_only_in_the_corner() {
        let corner = [0.03, 0.02, 0.18, 0.27];
        for region in [Region::All, Region::Joined] {
            assert_eq!(
                suit_beside_box(&strip_templates(false, false), corner, region),
                None
            );
        }
    }
}
