//! Where a frame shows the felt, of the colour its sides show, and frames shrunk by whole blocks
//! of pixels.

use crate::vision::scratch;
use image::RgbaImage;
use rayon::prelude::*;

/// The felt a frame's table lies on: the colour channel that leads in it. Learnt from the frame's
/// sides, where the felt shows beside the cards at every window size (a game's table keeps its
/// cards in the middle, its bars at the top and bottom): MSC's backgrounds are not all green.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Felt {
    lead: usize,
}

impl Felt {
    /// Green: the practice table's felt, and what a frame whose sides show no felt-like colour
    /// (grey, a picture) is taken to have.
    pub const GREEN: Felt = Felt { lead: 1 };

    /// The felt of `frame`: the channel that leads in the median colour of its sides (the outer
    /// `FELT_SIDES` of its width, over the middle rows) by as much as a felt pixel's does
    /// (`Felt::like`); green when none does.
    pub fn of(frame: &RgbaImage) -> Felt {
        let (w, h) = (frame.width(), frame.height());
        let side = ((w as f32 * FELT_SIDES) as u32).max(1);
        let mut channels: [Vec<u8>; 3] = [Vec::new(), Vec::new(), Vec::new()];
        let step = (h / 64).max(1);
        for y in (h / 5..h * 4 / 5).step_by(step as usize) {
            for x in (0..side).chain(w.saturating_sub(side)..w).step_by(2) {
                let p = frame.get_pixel(x, y).0;
                for c in 0..3 {
                    channels[c].push(p[c]);
                }
            }
        }
        if channels[0].is_empty() {
            return Felt::GREEN;
        }
        let median = channels.map(|mut v| {
            let mid = v.len() / 2;
            *v.select_nth_unstable(mid).1
        });
        (0..3)
            .map(|lead| Felt { lead })
            .find(|f| f.like(&image::Rgba([median[0], median[1], median[2], 255])))
            .unwrap_or(Felt::GREEN)
    }

    /// Whether a pixel looks like this felt (or the dimmed felt under a dialog): its lead channel
    /// over 40 and over the other two by more than 20.
    pub fn like(&self, p: &image::Rgba<u8>) -> bool {
        let lead = p.0[self.lead];
        let others = (0..3)
            .filter(|&c| c != self.lead)
            .map(|c| p.0[c])
            .max()
            .unwrap_or(0);
        lead > 40 && lead as i32 - others as i32 > 20
    }
}

/// How much of the frame's width, at each side, `Felt::of` looks at.
const FELT_SIDES: f32 = 0.04;

/// Which pixels of a frame look like felt (`Felt::like`, the felt learnt from the frame), one byte
/// each: worked out once per frame, since `felt_agreement` samples the same pixels for hundreds
/// of candidate fits.
pub(crate) struct FeltMap {
    pub(crate) width: u32,
    pub(crate) height: u32,
    /// 1 where the pixel looks like felt.
    pub(crate) felt: Vec<u8>,
    /// Per row, whether any of it looks like felt: rows with none are a bar across the window (a
    /// toolbar, a status line), outside the table whatever the fit.
    pub(crate) any: Vec<bool>,
}

impl FeltMap {
    pub(crate) fn new(frame: &RgbaImage) -> FeltMap {
        let model = Felt::of(frame);
        let mut felt = scratch::BYTES.take(frame.as_raw().len() / 4);
        let row = frame.width().max(1) as usize;
        let any = felt
            .par_chunks_mut(row)
            .zip(frame.as_raw().par_chunks(4 * row))
            .map(|(out, pixels)| {
                for (f, p) in out.iter_mut().zip(pixels.chunks_exact(4)) {
                    *f = u8::from(model.like(&image::Rgba([p[0], p[1], p[2], p[3]])));
                }
                out.contains(&1)
            })
            .collect();
        FeltMap {
            width: frame.width(),
            height: frame.height(),
            felt,
            any,
        }
    }
}

impl Drop for FeltMap {
    fn drop(&mut self) {
        scratch::BYTES.give(std::mem::take(&mut self.felt));
    }
}

/// Per row of a frame, whether it shows felt somewhere; none (not known) if no row does: a table
/// on a backdrop of another colour.
pub(crate) fn felt_rows(felt: &FeltMap) -> &[bool] {
    if felt.any.contains(&true) {
        &felt.any
    } else {
        &[]
    }
}

/// A frame shrunk by `k` in both directions (each pixel the mean of a k×k block).
pub(crate) fn shrink(frame: &RgbaImage, k: u32) -> RgbaImage {
    let (w, h) = (frame.width() / k, frame.height() / k);
    let (k, n) = (k as usize, k * k);
    let stride = frame.width() as usize * 4;
    let raw = frame.as_raw();
    let mut out = scratch::BYTES.take(w as usize * h as usize * 4);
    // Dividing by n as a multiplication: exact for sums of up to 255·n with k ≤ 16 (tested).
    let reciprocal = (1u64 << 32).div_ceil(n as u64);
    let divide = |sum: u32| ((sum as u64 * reciprocal) >> 32) as u8;
    // Per output row (rows in parallel): the k rows summed down first (each channel of each
    // pixel), then each k pixels across.
    out.par_chunks_mut((w as usize * 4).max(1))
        .enumerate()
        .for_each_init(
            || vec![0u32; w as usize * k * 4],
            |column_sums, (y, out)| {
                column_sums.fill(0);
                for row in raw[y * k * stride..].chunks_exact(stride).take(k) {
                    for (sum, &v) in column_sums.iter_mut().zip(row) {
                        *sum += v as u32;
                    }
                }
                // (The usual block sizes with the size known, so that each block's loop unrolls.)
                match k {
                    2 => add_blocks::<2>(column_sums, out, &divide),
                    3 => add_blocks::<3>(column_sums, out, &divide),
                    4 => add_blocks::<4>(column_sums, out, &divide),
                    _ => add_blocks_of(k, column_sums, out, &divide),
                }
            },
        );
    RgbaImage::from_raw(w, h, out).expect("a buffer of the shrunk size")
}

/// Per block of `K` pixels of `column_sums` (RGBA sums down), the block's mean pixel into `out`.
pub(crate) fn add_blocks<const K: usize>(
    column_sums: &[u32],
    out: &mut [u8],
    divide: &impl Fn(u32) -> u8,
) {
    add_blocks_of(K, column_sums, out, divide)
}

/// `add_blocks` for blocks of `k` pixels.
#[inline(always)]
pub(crate) fn add_blocks_of(
    k: usize,
    column_sums: &[u32],
    out: &mut [u8],
    divide: &impl Fn(u32) -> u8,
) {
    for (block, px) in column_sums.chunks_exact(4 * k).zip(out.chunks_exact_mut(4)) {
        let mut acc = [0u32; 3];
        for p in block.chunks_exact(4) {
            acc[0] += p[0];
            acc[1] += p[1];
            acc[2] += p[2];
        }
        px.copy_from_slice(&[divide(acc[0]), divide(acc[1]), divide(acc[2]), 255]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shrink_takes_each_blocks_mean() {
        let frame = RgbaImage::from_fn(97, 61, |x, y| {
            let v = (x * 7919 + y * 104_729 + x * y * 31) as u8;
            image::Rgba([v, v.wrapping_mul(3), 255 - v, 255])
        });
        for k in 1..=16u32 {
            let small = shrink(&frame, k);
            assert_eq!(small.dimensions(), (97 / k, 61 / k));
            for (x, y, p) in small.enumerate_pixels() {
                for c in 0..3 {
                    let sum: u32 = (0..k * k)
                        .map(|i| frame.get_pixel(x * k + i % k, y * k + i / k).0[c] as u32)
                        .sum();
                    assert_eq!(p.0[c] as u32, sum / (k * k), "k {k} at ({x}, {y})");
                }
            }
        }
        // The largest sums a block can give.
        let white = RgbaImage::from_pixel(64, 64, image::Rgba([255, 255, 255, 255]));
        for k in 1..=16 {
            assert!(shrink(&white, k)
                .pixels()
                .all(|p| p.0 == [255, 255, 255, 255]));
        }
    }

    /// A frame `w`×`h` of one colour, with a white card in the middle.
    fn table(colour: [u8; 3], w: u32, h: u32) -> RgbaImage {
        RgbaImage::from_fn(w, h, |x, y| {
            let card = (w / 3..2 * w / 3).contains(&x) && (h / 3..2 * h / 3).contains(&y);
            let [r, g, b] = if card { [250, 250, 250] } else { colour };
            image::Rgba([r, g, b, 255])
        })
    }

    /// The felt is the colour the sides show: green, blue or red alike; where they show no felt
    /// (grey, white), green is assumed, as the practice table's.
    #[test]
    fn the_felt_is_learnt_from_the_sides() {
        let green = [46, 128, 70];
        let blue = [46, 70, 128];
        let red = [128, 46, 70];
        for (colour, lead) in [(green, 1), (blue, 2), (red, 0)] {
            let frame = table(colour, 400, 300);
            let felt = Felt::of(&frame);
            assert_eq!(felt, Felt { lead }, "{colour:?}");
            assert!(felt.like(frame.get_pixel(5, 150)));
            assert!(!felt.like(frame.get_pixel(200, 150)), "the card is no felt");
        }
        let blue_felt = Felt::of(&table(blue, 400, 300));
        assert!(!blue_felt.like(&image::Rgba([46, 128, 70, 255])));
        assert_eq!(Felt::of(&table([128, 128, 128], 400, 300)), Felt::GREEN);
    }
}
