//! The suit glyph under a card's rank, seen whole on cards nothing covers (the pyramid's free
//! cards, the stock and the waste): one prototype per suit, learned at calibration from the cards
//! seen whole then, settles a card whose index corner leaves it torn between the suits of one rank.
//! (A covered card shows only the top of that glyph: ornamental's clubs and spades differ there by
//! a few pixels, where the whole glyph, a trefoil or a spade, tells them apart at any size.)

use crate::cards::Suit;
use crate::vision::recognize::{normalised, sample, soften, window_of};
use image::{RgbImage, RgbaImage};

/// Where the suit glyph under the rank is looked for, in card widths from the card's top-left:
/// x, y, width, height (the rank above it, the picture or pips to its right left out as far as
/// themes allow).
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
pub fn cut(frame: &RgbaImage, x: f32, y: f32, card_w: f32) -> Vec<f32> {
    let [bx, by, bw, bh] = SUIT_BOX;
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
}

impl SuitPrototypes {
    /// Prototypes from images (by suit index, `SUIT_W`×`SUIT_H` RGB); None when two suits look
    /// alike there (no suit glyph in the box).
    pub fn new(images: &[RgbImage]) -> Option<SuitPrototypes> {
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
        Some(SuitPrototypes { prototypes })
    }

    /// The glyph under the rank of the card at (x, y), `card_w` wide, at every offset tried.
    pub fn look(&self, frame: &RgbaImage, x: f32, y: f32, card_w: f32) -> GlyphLook {
        GlyphLook {
            views: views(&cut(frame, x, y, card_w)),
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
        assert!(SuitPrototypes::new(&vec![same; 4]).is_none());
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
        let prototypes = SuitPrototypes::new(&images).unwrap();
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
