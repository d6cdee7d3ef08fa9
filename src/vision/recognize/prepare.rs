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
                    degrade(values, w, h, (factor.0.max(1.0), factor.1.max(1.0)))
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
    /// of the card widths (what smaller cards lose), but never to less than the window shows in
    /// the box where it shows fewer pixels there than the template has values. A corner cut from
    /// cards wider than the template (at 3840x2160 its box is 74 pixels across, the template 36)
    /// holds the template's detail, not the box's: blurred by the whole ratio for an 800x600
    /// window (a box 15 pixels across) it was taken to 7 values across, and 8s and 6s, clubs and
    /// spades read as each other. Where the window shows more than the template holds (a top
    /// strip across the card), the blur is the ratio as before.
    fn detail_over(&self, card_w: f32) -> (f32, f32) {
        let [_, _, bw, bh] = self.index_box;
        let ratio = self.calibrated_width / card_w;
        let axis = |b: f32, t: u32| {
            let shown = b * card_w;
            match shown < t as f32 {
                true => ratio.min((b * self.calibrated_width).min(t as f32) / shown),
                false => ratio,
            }
        };
        (axis(bw, TEMPLATE_W), axis(bh, TEMPLATE_H))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matcher_cut_from(card_width: f32, box_w: f32) -> Matcher {
        let n = (TEMPLATE_W * TEMPLATE_H * 3) as usize;
        let raw = (0..52).map(|c| (0..n).map(|i| ((i * 7 + c * 13) % 255) as f32).collect());
        Matcher::from_raw(raw.collect(), [0.02, 0.02, box_w, 0.27], 1.55, card_width)
    }

    /// Read on an 800×600 window's cards (77 px), templates cut at 1440×900 (140 px) are blurred
    /// by the ratio, 1.8; those cut at 3840×2160 (370 px) by what the template holds over what
    /// the window shows in the box, about 2.3, not 4.8. A box wider than the template on the
    /// window (a strip across the card) keeps the ratio.
    #[test]
    fn templates_are_blurred_by_the_ratio_but_never_past_what_the_window_shows() {
        let (x, y) = matcher_cut_from(140.0, 0.2).detail_over(77.0);
        assert!((x - 140.0 / 77.0).abs() < 1e-3 && (y - 140.0 / 77.0).abs() < 1e-3);
        let (x, y) = matcher_cut_from(370.0, 0.2).detail_over(77.0);
        assert!((x - TEMPLATE_W as f32 / (0.2 * 77.0)).abs() < 1e-3, "{x}");
        assert!((y - TEMPLATE_H as f32 / (0.27 * 77.0)).abs() < 1e-3, "{y}");
        assert!(x < 2.4 && y < 2.4);
        let (x, _) = matcher_cut_from(370.0, 0.94).detail_over(77.0);
        assert!((x - 370.0 / 77.0).abs() < 1e-3, "{x}");
    }
}
