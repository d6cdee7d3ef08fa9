//! Templates prepared for the size of the cards read: for cards smaller than at calibration,
//! blurred to what those cards can show.

use super::*;
use crate::vision::sampling::degrade;
use crate::vision::templates::{TEMPLATE_H, TEMPLATE_W};

impl Matcher {
    /// Prepares the templates for cards `card_w` pixels wide: for cards smaller than at
    /// calibration, blurred to the detail such cards can show.
    pub fn prepare(&mut self, card_w: f32) {
        for part in [&mut self.strip, &mut self.gap].into_iter().flatten() {
            part.prepare(card_w);
        }
        let target = card_w.min(self.calibrated_width);
        if (target - self.prepared_width).abs() < 0.03 * self.calibrated_width {
            return;
        }
        let factor = self.detail_over(target);
        let (w, h) = (TEMPLATE_W as usize, TEMPLATE_H as usize);
        let vectors: Vec<Vec<f32>> = self
            .raw
            .iter()
            .map(|values| {
                let v = if factor.0.max(factor.1) > 1.05 {
                    degrade(values, w, h, factor)
                } else {
                    values.clone()
                };
                normalised(&soften(&v, w, h)).unwrap_or_else(|| vec![0.0; v.len()])
            })
            .collect();
        self.set_vectors(vectors);
        self.prepared_width = target;
    }

    /// How far to blur the templates for cards `card_w` pixels wide, across and down: by the ratio
    /// of the card widths (what smaller cards lose), but never more than `BLUR_OVER` times what
    /// the detail calls for, which is the detail the template holds (its box at calibration, at
    /// most the template's values) over the detail the window shows (its box now, at most the
    /// template's values).
    ///
    /// The ratio alone is that detail ratio wherever both boxes are narrower than the template.
    /// Where calibration's box was wider, the template holds only its own values and the ratio
    /// blurs past what the window shows: cut at 3840x2160 (the corner's box 74 pixels across) and
    /// read at 800x600 (15 pixels), the whole ratio (4.8) took the corner to 7 values across and
    /// the top strip to 8 where the window shows 15 and 36, and 8s and 6s, clubs and spades read
    /// as each other. Some blur past the detail ratio is kept, as it serves where the sizes
    /// differ less: glyphs drawn at another size differ in more than detail (kde-oxygen-white,
    /// cut at 1440x900 in the practice look, needs it at 1024x768 and 800x600, see
    /// `BLUR_OVER`). Both factors are at least 1: the card read is no larger than at
    /// calibration, so the window shows no more than the template holds.
    fn detail_over(&self, card_w: f32) -> (f32, f32) {
        let [_, _, bw, bh] = self.index_box;
        let ratio = self.calibrated_width / card_w;
        let axis = |b: f32, t: u32| {
            let held = (b * self.calibrated_width).min(t as f32);
            let shown = (b * card_w).min(t as f32);
            ratio.min(BLUR_OVER * held / shown)
        };
        (axis(bw, TEMPLATE_W), axis(bh, TEMPLATE_H))
    }
}

/// How many times more than the detail ratio templates may be blurred (see `detail_over`).
/// kde-oxygen-white, cut at 1440x900 in the practice look (its corner's box 47 pixels, its top
/// strip 129, both past the template's 36 values), read 8 places wrong at 1024x768 and 800x600
/// when blurred no further than the detail ratio, 1 when 1.3 times it (its strip at 800x600,
/// where the ratio is 1.9), none at 1.5; a corner cut at 3840x2160 and read at 800x600 misread
/// when blurred twice the detail ratio (the whole ratio).
const BLUR_OVER: f32 = 1.5;

#[cfg(test)]
mod tests {
    use super::*;

    fn matcher_cut_from(card_width: f32, box_w: f32) -> Matcher {
        let n = (TEMPLATE_W * TEMPLATE_H * 3) as usize;
        let raw = (0..52).map(|c| (0..n).map(|i| ((i * 7 + c * 13) % 255) as f32).collect());
        Matcher::from_raw(raw.collect(), [0.02, 0.02, box_w, 0.27], 1.55, card_width)
    }

    /// Read on an 800×600 window's cards (77 px), templates cut at 1440×900 (140 px) are blurred
    /// by the ratio, 1.8, where the box is narrower than the template, and also where it held
    /// 44 pixels (within `BLUR_OVER` of the detail ratio); those cut at 3840×2160 (370 px) at most
    /// `BLUR_OVER` times what the template holds over what the window shows in the box, not 4.8.
    /// A box wider than the template on the window too (a strip across the card) is blurred
    /// `BLUR_OVER` at most.
    #[test]
    fn templates_are_blurred_by_the_ratio_but_never_far_past_the_detail_ratio() {
        let near = |a: f32, b: f32| (a - b).abs() < 1e-3;
        let (x, y) = matcher_cut_from(140.0, 0.2).detail_over(77.0);
        assert!(near(x, 140.0 / 77.0) && near(y, 140.0 / 77.0), "{x} {y}");
        let (x, _) = matcher_cut_from(140.0, 0.315).detail_over(77.0);
        assert!(near(x, 140.0 / 77.0), "{x}");
        let (x, y) = matcher_cut_from(370.0, 0.2).detail_over(77.0);
        assert!(near(x, BLUR_OVER * TEMPLATE_W as f32 / (0.2 * 77.0)), "{x}");
        assert!(
            near(y, BLUR_OVER * TEMPLATE_H as f32 / (0.27 * 77.0)),
            "{y}"
        );
        assert!(x < 3.6 && y < 3.6);
        let (x, _) = matcher_cut_from(370.0, 0.94).detail_over(77.0);
        assert!(near(x, BLUR_OVER), "{x}");
    }
}
