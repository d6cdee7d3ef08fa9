//! Where TriPeaks' cards sit on the practice table for a window size and scale: three peaks of four
//! rows (the bottom row's ten cards side by side, each row above set half a card step in), then the
//! stock and the waste below, centred. Drawing and clicks both use it.

use super::super::tableau::{column_offset, row_and_column, TABLEAU};
use crate::table::chrome::{Button, Chrome};
use crate::table::rect::Rect;

/// Horizontal distance between neighbouring bottom-row cards, in card widths.
pub const COLUMN_STEP: f32 = 1.1;
/// Vertical distance between rows, in card widths: the visible strip of a covered card.
pub const ROW_STEP: f32 = 0.5;
/// Gap between the bottom row and the stock/waste row, in card widths.
pub const PILE_GAP: f32 = 0.4;
/// The stock's and the waste's centres, left and right of the middle, in card widths.
pub const PILE_DX: f32 = 0.7;
const MARGIN_X: f32 = 0.4;
const MARGIN_Y: f32 = 0.2;

/// What a click lands on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// A tableau place, 0–27 in deal order.
    Tableau(u8),
    Stock,
    Waste,
    Button(Button),
    None,
}

impl Target {
    /// The name in the event log: `tableau:12`, `stock`, `waste`, `undo`, `undo_board`,
    /// `new_deal`, `ok`, `cancel` or `none`.
    pub fn log_name(&self) -> String {
        match self {
            Target::Tableau(i) => format!("tableau:{i}"),
            Target::Stock => "stock".into(),
            Target::Waste => "waste".into(),
            Target::Button(b) => b.log_name().into(),
            Target::None => "none".into(),
        }
    }
}

/// The geometry of the table at one window size and scale.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    pub width: u32,
    pub height: u32,
    pub chrome: Chrome,
    pub card_w: i32,
    pub card_h: i32,
    /// The 28 tableau places in deal order.
    pub slots: [Rect; TABLEAU],
    pub stock: Rect,
    pub waste: Rect,
}

impl Layout {
    /// The layout of a `width`×`height` window at display `scale`, for cards whose height is
    /// `aspect` times their width.
    pub fn new(width: u32, height: u32, scale: f32, aspect: f32) -> Layout {
        let wf = width as f32;
        let chrome = Chrome::new(width, height, scale);
        let units_w = 9.0 * COLUMN_STEP + 1.0 + 2.0 * MARGIN_X;
        let gaps = 3.0 * ROW_STEP + PILE_GAP;
        let (card_w, card_h, top) = chrome.fit_board(units_w, gaps, MARGIN_Y, aspect);
        let cx = wf / 2.0;
        let rect = |x: f32, y: f32| {
            Rect::new(
                (x - card_w / 2.0).round() as i32,
                y.round() as i32,
                card_w as i32,
                card_h as i32,
            )
        };
        let slots = std::array::from_fn(|i| {
            let row = row_and_column(i).0 as f32;
            rect(
                cx + column_offset(i) * COLUMN_STEP * card_w,
                top + row * ROW_STEP * card_w,
            )
        });
        let pile_y = top + 3.0 * ROW_STEP * card_w + card_h + PILE_GAP * card_w;
        Layout {
            width,
            height,
            chrome,
            card_w: card_w as i32,
            card_h: card_h as i32,
            slots,
            stock: rect(cx - PILE_DX * card_w, pile_y),
            waste: rect(cx + PILE_DX * card_w, pile_y),
        }
    }

    /// What a click at (x, y) lands on. `present(i)` tells whether tableau place `i` holds a card;
    /// a lower row lies over the one above it. With the dialog open only its buttons respond.
    pub fn hit(
        &self,
        x: i32,
        y: i32,
        dialog_open: bool,
        present: impl Fn(usize) -> bool,
    ) -> Target {
        if let Some(button) = self.chrome.button_at(x, y, dialog_open) {
            return Target::Button(button);
        }
        if dialog_open {
            return Target::None;
        }
        if let Some(i) = (0..TABLEAU)
            .rev()
            .find(|&i| present(i) && self.slots[i].contains(x, y))
        {
            return Target::Tableau(i as u8);
        }
        if self.stock.contains(x, y) {
            return Target::Stock;
        }
        if self.waste.contains(x, y) {
            return Target::Waste;
        }
        Target::None
    }

    /// A point to click to hit `target`: the middle of what is visible of it.
    pub fn click_point(&self, target: Target) -> Option<(i32, i32)> {
        let r = match target {
            Target::Tableau(i) => {
                let s = self.slots[i as usize];
                // A covered card shows its top strip; aim inside it.
                return Some((
                    s.x + s.w / 2,
                    s.y + (ROW_STEP * self.card_w as f32 * 0.5) as i32,
                ));
            }
            Target::Stock => self.stock,
            Target::Waste => self.waste,
            Target::Button(b) => self.chrome.rect(b),
            Target::None => return None,
        };
        Some(r.centre())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tripeaks::tableau::covered_by;

    #[test]
    fn everything_fits_at_every_size_and_scale() {
        for (w, h) in [(800, 600), (1200, 760), (1440, 900), (3840, 2160)] {
            for scale in [1.0, 1.5, 2.5] {
                let l = Layout::new(w, h, scale, 1.45);
                for r in l.slots.iter().chain([&l.stock, &l.waste]) {
                    assert!(r.x >= 0 && r.right() <= w as i32, "{w}x{h}@{scale}: {r:?}");
                    assert!(r.y >= l.chrome.toolbar.bottom(), "{w}x{h}@{scale}: {r:?}");
                    assert!(r.bottom() <= l.chrome.status.y, "{w}x{h}@{scale}: {r:?}");
                }
                assert!(l.card_w >= 30, "{w}x{h}@{scale}: cards {} wide", l.card_w);
            }
        }
    }

    #[test]
    fn a_covered_card_lies_between_its_two_covering_cards_a_row_higher() {
        let l = Layout::new(1440, 900, 1.0, 1.45);
        for i in 0..TABLEAU {
            if let Some([a, b]) = covered_by(i) {
                let (s, ca, cb) = (l.slots[i], l.slots[a], l.slots[b]);
                assert_eq!(ca.y, cb.y);
                assert!(ca.y > s.y && ca.y < s.bottom(), "{i}: {ca:?} over {s:?}");
                let mid = (ca.centre().0 + cb.centre().0) / 2;
                assert!((mid - s.centre().0).abs() <= 1, "{i}");
                // Neighbours in a row do not overlap.
                assert!(ca.right() < cb.x);
            }
        }
    }

    #[test]
    fn clicks_hit_the_card_on_top() {
        let l = Layout::new(1200, 760, 1.0, 1.45);
        for i in 0..TABLEAU {
            let (x, y) = l.click_point(Target::Tableau(i as u8)).unwrap();
            assert_eq!(l.hit(x, y, false, |_| true), Target::Tableau(i as u8));
        }
        for t in [
            Target::Stock,
            Target::Waste,
            Target::Button(Button::Undo),
            Target::Button(Button::UndoBoard),
        ] {
            let (x, y) = l.click_point(t).unwrap();
            assert_eq!(l.hit(x, y, false, |_| true), t);
            assert_eq!(l.hit(x, y, true, |_| true), Target::None);
        }
        let (x, y) = l.click_point(Target::Button(Button::Ok)).unwrap();
        assert_eq!(l.hit(x, y, true, |_| true), Target::Button(Button::Ok));
    }
}
