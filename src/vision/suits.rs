//! The suit glyph under a card's rank, seen whole on cards nothing covers (the pyramid's free
//! cards, the stock and the waste): one prototype per suit, learned at calibration from the cards
//! seen whole then, settles a card whose index corner leaves it torn between the suits of one rank.
//! Where the glyph lies is learned from the same cards: the box where cards of one suit look alike
//! and the two suits of a colour differ (`learn_box`).
//! (A covered card shows only the top of that glyph: ornamental's clubs and spades differ there by
//! a few pixels, where the whole glyph, a trefoil or a spade, tells them apart at any size.)

use crate::cards::Suit;
use crate::vision::recognize::{normalised, sample, soften, window_of};
use image::{RgbImage, RgbaImage};
use rayon::prelude::*;

/// The usual place of the suit glyph under the rank, in card widths from the card's top-left:
/// x, y, width, height. Calibration learns each theme's own place (`learn_box`) and keeps this
/// one instead only where its glyphs tell the cards seen whole their suits better; sets made
/// before learned boxes look here.
pub const SUIT_BOX: [f32; 4] = [0.02, 0.28, 0.30, 0.36];

/// Size of a suit prototype, in pixels.
pub const SUIT_W: u32 = 20;
pub const SUIT_H: u32 = 24;

/// How far around where the card's edges put it (in prototype pixels) a glyph is looked for: the
/// glyph sits under the rank's middle, which is further right for a ten.
const REACH: usize = 4;

/// How clearly (see `SuitPrototypes::duel`) a glyph must be one suit's rather than each other
/// candidate's to settle a card.
pub const SUIT_MARGIN: f32 = 0.3;

/// How alike (correlation) the prototypes of two suits may be and still be told apart: closer,
/// the box holds no suit glyph (a theme that prints the suit beside the rank) and the suit look
/// abstains.
const MAX_ALIKE: f32 = 0.97;

/// The suit box of the card whose top-left is (x, y), `card_w` wide, sampled at prototype size
/// with `REACH` pixels of margin on every side (RGB values, row by row).
pub fn cut(frame: &RgbaImage, x: f32, y: f32, card_w: f32, suit_box: [f32; 4]) -> Vec<f32> {
    let [bx, by, bw, bh] = suit_box;
    let (px, py) = (bw * card_w / SUIT_W as f32, bh * card_w / SUIT_H as f32);
    let (w, h) = (SUIT_W as usize + 2 * REACH, SUIT_H as usize + 2 * REACH);
    sample(
        frame,
        x + bx * card_w - REACH as f32 * px,
        y + by * card_w - REACH as f32 * py,
        w as f32 * px,
        h as f32 * py,
        w,
        h,
    )
    .rgb
}

/// Where calibration looks for the suit glyph, in card widths from the card's top-left (x, y,
/// width, height): under the index and beside it, down to about the middle of the card's width.
const GLYPH_SEARCH: [f32; 4] = [0.0, 0.12, 0.48, 0.72];

/// The narrowest box `learn_box` tries, in pixels of `SUIT_BOX`'s pitch (0.09 card widths).
const MIN_BOX: usize = 6;

/// The size of a prototype pixel in card widths, across and down.
fn pitch() -> (f32, f32) {
    (SUIT_BOX[2] / SUIT_W as f32, SUIT_BOX[3] / SUIT_H as f32)
}

/// `GLYPH_SEARCH` on the card whose top-left is (x, y), `card_w` wide, sampled at the prototypes'
/// pitch (RGB values, row by row; `search_size` pixels).
pub fn cut_search(frame: &RgbaImage, x: f32, y: f32, card_w: f32) -> Vec<f32> {
    let [sx, sy, sw, sh] = GLYPH_SEARCH;
    let (w, h) = search_size();
    sample(
        frame,
        x + sx * card_w,
        y + sy * card_w,
        sw * card_w,
        sh * card_w,
        w,
        h,
    )
    .rgb
}

/// The size of a `cut_search` in pixels.
fn search_size() -> (usize, usize) {
    let (px, py) = pitch();
    let [_, _, sw, sh] = GLYPH_SEARCH;
    ((sw / px).round() as usize, (sh / py).round() as usize)
}

/// Where this theme's suit glyph lies, learned from the cards seen whole (`cut_search` cuts, with
/// their suits; `SUIT_BOX` when a suit was not seen): of every box within the search, from
/// `MIN_BOX` to the prototypes' size, with their proportions, the one where the two suits of a
/// colour lie furthest apart (the weaker of the two colours' pairs) against the spread among cards
/// of one suit. The rank above the glyph differs within a suit, a number card's pips and a court
/// card's picture beside it differ from rank to rank; the glyph alone is the same on every card of
/// a suit. (Weighed by how far all four suits lie apart, the colour wins: a spot where only red
/// and black differ.)
pub fn learn_box(cuts: &[(Suit, Vec<f32>)]) -> [f32; 4] {
    let (w, h) = search_size();
    let n = w * h * 3;
    let mut means = vec![vec![0.0f64; n]; 4];
    let mut counts = [0usize; 4];
    for (suit, cut) in cuts {
        let s = suit.index();
        counts[s] += 1;
        for (m, v) in means[s].iter_mut().zip(cut) {
            *m += *v as f64;
        }
    }
    if counts.contains(&0) {
        return SUIT_BOX;
    }
    for (m, c) in means.iter_mut().zip(counts) {
        m.iter_mut().for_each(|v| *v /= c as f64);
    }
    // Per pixel, summed over its three channels: how far apart the two suits of each colour lie
    // (clubs and spades, diamonds and hearts: the colour tells the others apart anywhere), and
    // the spread within each suit.
    let mut black = vec![0.0f64; w * h];
    let mut red = vec![0.0f64; w * h];
    let mut within = vec![0.0f64; w * h];
    let [c, d, hh, sp] = Suit::ALL.map(|s| s.index());
    for i in 0..n {
        black[i / 3] += (means[c][i] - means[sp][i]).powi(2);
        red[i / 3] += (means[d][i] - means[hh][i]).powi(2);
    }
    for (suit, cut) in cuts {
        let m = &means[suit.index()];
        for i in 0..n {
            within[i / 3] += (cut[i] as f64 - m[i]).powi(2) / cuts.len() as f64;
        }
    }
    // Sums over boxes from running totals.
    let integral = |grid: &[f64]| -> Vec<f64> {
        let mut t = vec![0.0f64; (w + 1) * (h + 1)];
        for y in 0..h {
            for x in 0..w {
                t[(y + 1) * (w + 1) + x + 1] =
                    grid[y * w + x] + t[y * (w + 1) + x + 1] + t[(y + 1) * (w + 1) + x]
                        - t[y * (w + 1) + x];
            }
        }
        t
    };
    let (tb, tr, tw) = (integral(&black), integral(&red), integral(&within));
    let sum = |t: &[f64], x: usize, y: usize, bw: usize, bh: usize| {
        t[(y + bh) * (w + 1) + x + bw] - t[y * (w + 1) + x + bw] - t[(y + bh) * (w + 1) + x]
            + t[y * (w + 1) + x]
    };
    let (px, py) = pitch();
    let [sx, sy, _, _] = GLYPH_SEARCH;
    let mut best = (f64::MIN, SUIT_BOX);
    for bw in MIN_BOX..=SUIT_W as usize {
        let bh = (bw * SUIT_H as usize + SUIT_W as usize / 2) / SUIT_W as usize;
        // Noise a pixel shows anyway (a few levels in each channel), so that plain paper, alike
        // everywhere, does not win by dividing nothing by nothing.
        let noise = (bw * bh) as f64 * 3.0 * 16.0;
        for oy in 0..=h.saturating_sub(bh) {
            for ox in 0..=w.saturating_sub(bw) {
                let apart = sum(&tb, ox, oy, bw, bh).min(sum(&tr, ox, oy, bw, bh));
                let score = apart / (sum(&tw, ox, oy, bw, bh) + noise);
                if score > best.0 {
                    best = (
                        score,
                        [
                            sx + ox as f32 * px,
                            sy + oy as f32 * py,
                            bw as f32 * px,
                            bh as f32 * py,
                        ],
                    );
                }
            }
        }
    }
    best.1
}

/// How well a suit box's glyphs tell the cards seen whole their own suits, each card weighed by
/// the prototypes made from the others (`SuitPrototypes::duel` against every other suit).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LeftOut {
    /// Cards a prototype of another suit fits better (or whose others make no prototypes).
    pub wrong: usize,
    /// The least of the cards' duels (−1 when the others make no prototypes).
    pub least: f32,
}

impl LeftOut {
    /// Judges the cuts (see `cut`) of the cards seen whole, with their suits, and the same cards
    /// cut where the frames are shown at other sizes (`resized[s][i]`: card `i` at size `s`), each
    /// against the prototypes made from the others' cuts.
    pub fn of(cuts: &[(Suit, Vec<f32>)], resized: &[Vec<Vec<f32>>]) -> LeftOut {
        let duels: Vec<f32> = (0..cuts.len())
            .into_par_iter()
            .map(|i| {
                let others: Vec<(Suit, Vec<f32>)> = cuts
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| *j != i)
                    .map(|(_, c)| c.clone())
                    .collect();
                // (The prototypes' box plays no part here: the card's look is made from its cut.)
                let Some(prototypes) =
                    prototype_images(&others).and_then(|p| SuitPrototypes::new(&p, SUIT_BOX))
                else {
                    return -1.0;
                };
                let own = cuts[i].0.index();
                std::iter::once(&cuts[i].1)
                    .chain(resized.iter().map(|cuts| &cuts[i]))
                    .flat_map(|cut| {
                        let look = GlyphLook { views: views(cut) };
                        (0..4)
                            .filter(|&b| b != own)
                            .map(|b| prototypes.duel(&look, own, b))
                            .collect::<Vec<f32>>()
                    })
                    .fold(1.0, f32::min)
            })
            .collect();
        LeftOut {
            wrong: duels.iter().filter(|&&d| d < 0.0).count(),
            least: duels.iter().cloned().fold(1.0, f32::min),
        }
    }
}

/// The prototype-sized window of a cut at offset (ox, oy).
fn window(cut: &[f32], ox: usize, oy: usize) -> Vec<f32> {
    let (sw, sh) = (SUIT_W as usize, SUIT_H as usize);
    window_of(cut, sw + 2 * REACH, (ox, oy), (sw, sh))
}

/// A window softened and normalised as the prototypes are (None for a flat one).
fn prepared(values: &[f32]) -> Option<Vec<f32>> {
    normalised(&soften(values, SUIT_W as usize, SUIT_H as usize))
}

fn correlation(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Per offset within `REACH` of the middle, the cut's window as prepared.
fn views(cut: &[f32]) -> Vec<Vec<f32>> {
    let span = 2 * REACH + 1;
    (0..span * span)
        .filter_map(|i| prepared(&window(cut, i % span, i / span)))
        .collect()
}

/// The four suits' glyphs as cards seen whole show them.
#[derive(Clone, Debug)]
pub struct SuitPrototypes {
    /// Normalised and softened, by `Suit::index`.
    prototypes: Vec<Vec<f32>>,
    /// Where the glyph lies on a card, in card widths (see `cut`).
    suit_box: [f32; 4],
}

impl SuitPrototypes {
    /// Prototypes from images (by suit index, `SUIT_W`×`SUIT_H` RGB); None when two suits look
    /// alike there (no suit glyph in the box).
    pub fn new(images: &[RgbImage], suit_box: [f32; 4]) -> Option<SuitPrototypes> {
        let prototypes: Vec<Vec<f32>> = images
            .iter()
            .map(|img| {
                let raw: Vec<f32> = img.as_raw().iter().map(|&v| v as f32).collect();
                prepared(&raw)
            })
            .collect::<Option<Vec<_>>>()?;
        if prototypes.len() != 4 {
            return None;
        }
        for a in 0..4 {
            for b in a + 1..4 {
                if correlation(&prototypes[a], &prototypes[b]) > MAX_ALIKE {
                    return None;
                }
            }
        }
        Some(SuitPrototypes {
            prototypes,
            suit_box,
        })
    }

    /// The glyph under the rank of the card at (x, y), `card_w` wide, at every offset tried.
    pub fn look(&self, frame: &RgbaImage, x: f32, y: f32, card_w: f32) -> GlyphLook {
        GlyphLook {
            views: views(&cut(frame, x, y, card_w, self.suit_box)),
        }
    }

    /// How clearly a glyph is suit `a`'s rather than suit `b`'s (by suit index), judged where their
    /// prototypes differ, at the offset where the better fitting of the two fits best: +1 exactly
    /// `a`, −1 exactly `b`.
    pub fn duel(&self, look: &GlyphLook, a: usize, b: usize) -> f32 {
        let (pa, pb) = (&self.prototypes[a], &self.prototypes[b]);
        let Some(view) = look.views.iter().max_by(|u, v| {
            let fit = |w: &Vec<f32>| correlation(w, pa).max(correlation(w, pb));
            fit(u).total_cmp(&fit(v))
        }) else {
            return 0.0;
        };
        let diffs: Vec<f32> = pa.iter().zip(pb).map(|(x, y)| (x - y).abs()).collect();
        let cut = diffs.iter().cloned().fold(0.0, f32::max) * 0.35;
        let (mut da, mut db, mut dab) = (0.0, 0.0, 0.0);
        for (i, d) in diffs.iter().enumerate() {
            if *d >= cut {
                da += (view[i] - pa[i]).powi(2);
                db += (view[i] - pb[i]).powi(2);
                dab += d * d;
            }
        }
        if dab <= 0.0 {
            return 0.0;
        }
        ((db - da) / dab).clamp(-1.0, 1.0)
    }
}

/// A glyph under a rank, as `SuitPrototypes::duel` weighs it: its windows at every offset tried,
/// prepared as the prototypes are.
pub struct GlyphLook {
    views: Vec<Vec<f32>>,
}

/// Makes the four suit images from cuts (see `cut`) of cards seen whole, with their suits: each cut
/// lined up with the mean of its suit's, twice, and the lined-up windows averaged. None when a suit
/// was not seen.
pub fn prototype_images(cuts: &[(Suit, Vec<f32>)]) -> Option<Vec<RgbImage>> {
    let mut images = Vec::with_capacity(4);
    for suit in Suit::ALL {
        let mine: Vec<&Vec<f32>> = cuts
            .iter()
            .filter(|(s, _)| *s == suit)
            .map(|(_, c)| c)
            .collect();
        if mine.is_empty() {
            return None;
        }
        let mut offsets = vec![(REACH, REACH); mine.len()];
        for _ in 0..2 {
            let mean = mean_window(&mine, &offsets);
            let reference = prepared(&mean)?;
            let span = 2 * REACH + 1;
            offsets = mine
                .iter()
                .map(|cut| {
                    let mut best = (f32::MIN, (REACH, REACH));
                    for i in 0..span * span {
                        let (ox, oy) = (i % span, i / span);
                        if let Some(v) = prepared(&window(cut, ox, oy)) {
                            let s = correlation(&v, &reference);
                            if s > best.0 {
                                best = (s, (ox, oy));
                            }
                        }
                    }
                    best.1
                })
                .collect();
        }
        let mean = mean_window(&mine, &offsets);
        let raw: Vec<u8> = mean
            .iter()
            .map(|v| v.round().clamp(0.0, 255.0) as u8)
            .collect();
        images.push(RgbImage::from_raw(SUIT_W, SUIT_H, raw).expect("prototype size"));
    }
    Some(images)
}

fn mean_window(cuts: &[&Vec<f32>], offsets: &[(usize, usize)]) -> Vec<f32> {
    let mut mean = vec![0.0f32; (SUIT_W * SUIT_H * 3) as usize];
    for (cut, &(ox, oy)) in cuts.iter().zip(offsets) {
        for (m, v) in mean.iter_mut().zip(window(cut, ox, oy)) {
            *m += v / cuts.len() as f32;
        }
    }
    mean
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cut (see `cut`) of a plain card with a dark `size`×`size` square at (x, y) in prototype
    /// pixels from the window's top-left at the middle offset.
    fn cut_with_square(x: usize, y: usize, size: usize) -> Vec<f32> {
        let (w, h) = (SUIT_W as usize + 2 * REACH, SUIT_H as usize + 2 * REACH);
        let mut out = vec![230.0; w * h * 3];
        for yy in y + REACH..y + REACH + size {
            for xx in x + REACH..x + REACH + size {
                out[(yy * w + xx) * 3..(yy * w + xx) * 3 + 3].copy_from_slice(&[20.0, 20.0, 20.0]);
            }
        }
        out
    }

    #[test]
    fn glyphs_seen_a_little_apart_are_lined_up_before_they_are_averaged() {
        // Each suit seen twice, the second time two pixels right and one down: lined up, the
        // prototype holds the square as dark as each cut shows it.
        let mut cuts = Vec::new();
        for (s, suit) in Suit::ALL.iter().enumerate() {
            cuts.push((*suit, cut_with_square(4 + s, 6, 6)));
            cuts.push((*suit, cut_with_square(6 + s, 7, 6)));
        }
        let images = prototype_images(&cuts).unwrap();
        for image in &images {
            let darkest = image.pixels().map(|p| p.0[0]).min().unwrap();
            assert_eq!(darkest, 20);
        }
        // A suit never seen: no prototypes.
        assert!(prototype_images(&cuts[..6]).is_none());
    }

    #[test]
    fn prototypes_that_look_alike_are_not_kept() {
        let same = RgbImage::from_fn(SUIT_W, SUIT_H, |x, y| {
            let v = if (6..12).contains(&x) && (8..14).contains(&y) {
                20
            } else {
                230
            };
            image::Rgb([v, v, v])
        });
        assert!(SuitPrototypes::new(&vec![same; 4], SUIT_BOX).is_none());
    }

    /// Whether prototype pixel (x, y) lies in suit `s`'s shape when its top-left is at (x0, y0):
    /// a square, a bar across, a bar down, a cross.
    fn in_shape(s: usize, x: usize, y: usize, (x0, y0): (usize, usize)) -> bool {
        let (dx, dy) = (x.wrapping_sub(x0), y.wrapping_sub(y0));
        match s {
            0 => dx < 8 && dy < 8,
            1 => dx < 12 && (3..6).contains(&dy),
            2 => (3..6).contains(&dx) && dy < 12,
            _ => (dx < 9 && (3..6).contains(&dy)) || ((3..6).contains(&dx) && dy < 9),
        }
    }

    /// A search cut (see `cut_search`) of card `k` of suit `s`: the suit's shape at (6, 16) in
    /// its colour, a rank above it that differs from card to card, and to the right pips of the
    /// suit's colour on some cards and not others.
    fn searched_card(s: usize, k: usize) -> Vec<f32> {
        let (w, h) = search_size();
        let ink = if s == 1 || s == 2 {
            [200.0, 20.0, 20.0]
        } else {
            [20.0, 20.0, 20.0]
        };
        let mut out = vec![235.0; w * h * 3];
        for y in 0..h {
            for x in 0..w {
                let rank = y < 12 && x < 14 && (x * 7 + y * 3 + k * 5).is_multiple_of(4);
                let pip = x >= 18 && (14..34).contains(&y) && (k + x / 4 + y / 5).is_multiple_of(3);
                if in_shape(s, x, y, (6, 16)) || rank || pip {
                    out[(y * w + x) * 3..(y * w + x) * 3 + 3].copy_from_slice(&ink);
                }
            }
        }
        out
    }

    #[test]
    fn the_glyph_s_box_is_learned_where_cards_of_a_suit_agree_and_the_suits_differ() {
        let cuts: Vec<(Suit, Vec<f32>)> = (0..32)
            .map(|k| (Suit::ALL[k % 4], searched_card(k % 4, k / 4)))
            .collect();
        let [x, y, w, h] = learn_box(&cuts);
        let (px, py) = pitch();
        let [sx, sy, _, _] = GLYPH_SEARCH;
        // The box's middle, in search pixels, lies on the shapes (6..18 across, 16..28 down),
        // not on the ranks above nor the pips beside.
        let (mx, my) = ((x + w / 2.0 - sx) / px, (y + h / 2.0 - sy) / py);
        assert!(
            (6.0..18.0).contains(&mx) && (16.0..28.0).contains(&my),
            "box {:?}, middle at ({mx}, {my})",
            [x, y, w, h]
        );
        assert!(w < SUIT_BOX[2] && h < SUIT_BOX[3], "{w} x {h}");
        // A suit never seen: the usual box.
        assert_eq!(learn_box(&cuts[..3]), SUIT_BOX);
    }

    #[test]
    fn glyphs_left_out_are_told_their_suit_only_where_every_card_of_a_suit_shows_its_shape() {
        let mut cuts = Vec::new();
        for (s, suit) in Suit::ALL.iter().enumerate() {
            for k in 0..3 {
                cuts.push((*suit, cut_with_shape(s, (3 + k % 2, 5))));
            }
        }
        let judged = LeftOut::of(&cuts, &[]);
        assert_eq!(judged.wrong, 0, "{judged:?}");
        assert!(judged.least > SUIT_MARGIN, "{judged:?}");
        // One card of the third suit drawn with the fourth's shape is told the fourth suit.
        cuts[7].1 = cut_with_shape(3, (4, 5));
        let judged = LeftOut::of(&cuts, &[]);
        assert!(judged.wrong >= 1, "{judged:?}");
        // Right where the prototypes were cut, but shown at another size as the fourth suit's.
        cuts[7].1 = cut_with_shape(2, (4, 5));
        assert_eq!(LeftOut::of(&cuts, &[]).wrong, 0);
        let mut resized: Vec<Vec<f32>> = cuts.iter().map(|(_, c)| c.clone()).collect();
        resized[7] = cut_with_shape(3, (4, 5));
        let judged = LeftOut::of(&cuts, &[resized]);
        assert_eq!(judged.wrong, 1, "{judged:?}");
    }

    /// A cut (see `cut`) of a plain card with suit `s`'s shape (see `in_shape`) at `at` in
    /// prototype pixels from the window's top-left at the middle offset.
    fn cut_with_shape(s: usize, at: (usize, usize)) -> Vec<f32> {
        let (w, h) = (SUIT_W as usize + 2 * REACH, SUIT_H as usize + 2 * REACH);
        (0..w * h)
            .flat_map(|i| {
                let inside = in_shape(s, i % w, i / w, (at.0 + REACH, at.1 + REACH));
                let v = if inside { 20.0 } else { 230.0 };
                [v, v, v]
            })
            .collect()
    }

    #[test]
    fn a_glyph_is_told_from_another_suit_s_where_they_differ() {
        // Four suits of four shapes. A card showing the third suit's shape, two pixels off where
        // the prototypes have it, is clearly the third suit against each other.
        let grey = |inside: bool| {
            let v = if inside { 20 } else { 230 };
            image::Rgb([v, v, v])
        };
        let images: Vec<RgbImage> = (0..4)
            .map(|s| {
                RgbImage::from_fn(SUIT_W, SUIT_H, |x, y| {
                    grey(in_shape(s, x as usize, y as usize, (4, 6)))
                })
            })
            .collect();
        let prototypes = SuitPrototypes::new(&images, SUIT_BOX).unwrap();
        let (w, h) = (SUIT_W as usize + 2 * REACH, SUIT_H as usize + 2 * REACH);
        let cut: Vec<f32> = (0..w * h)
            .flat_map(|i| {
                let v = grey(in_shape(2, i % w, i / w, (4 + REACH + 2, 6 + REACH - 1))).0[0] as f32;
                [v, v, v]
            })
            .collect();
        let look = GlyphLook { views: views(&cut) };
        for other in [0, 1, 3] {
            let (for_it, against) = (
                prototypes.duel(&look, 2, other),
                prototypes.duel(&look, other, 2),
            );
            assert!(
                for_it > 0.9 && against < -0.9,
                "against {other}: {for_it}, {against}"
            );
        }
    }
}
