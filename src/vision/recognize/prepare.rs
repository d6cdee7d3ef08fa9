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
        let factor = self.calibrated_width / target;
        let (w, h) = (TEMPLATE_W as usize, TEMPLATE_H as usize);
        let vectors: Vec<Vec<f32>> = self
            .raw
            .iter()
            .map(|values| {
                let v = if factor > 1.05 {
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
}
