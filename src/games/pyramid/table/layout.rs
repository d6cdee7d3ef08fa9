//! Where everything sits on the practice table for a window size and display scale: the 28 pyramid
//! slots, the stock, the waste, the toolbar buttons, the status line and the Undo-board dialog.
//! The renderer draws from it and clicks are hit-tested against it, so picture and clicks always agree.

use crate::games::pyramid::position::{Position, PYRAMID_SIZE};
use crate::table::chrome::{Button, Chrome};
use crate::table::rect::Rect;

/// Horizontal distance between neighbouring pyramid cards, in card widths.
pub const COLUMN_STEP: f32 = 1.12;
/// Vertical distance between pyramid rows, in card widths: the visible strip of a covered card.
pub const ROW_STEP: f32 = 0.42;
/// Gap between the bottom pyramid row and the stock/waste row, in card widths.
const PILE_GAP: f32 = 0.35;
/// Board margins in card widths.
const MARGIN_X: f32 = 0.45;
const MARGIN_Y: f32 = 0.22;

/// What a click at some point of the table lands on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    Pyramid(Position),
    Stock,
    Waste,
    /// A button of the toolbar or of the Undo board dialog.
    Button(Button),
    None,
}

impl Target {
    /// The name used in the event log: `pyramid:12`, `stock`, `waste`, `undo`, `undo_board`, `ok`,
    /// `cancel`, `new_deal` or `none`.
    pub fn log_name(&self) -> String {
        match self {
            Target::Pyramid(p) => format!("pyramid:{}", p.index()),
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
    /// Display scale (1.0–2.5) as on Windows: it enlarges the toolbar, the text and the status line.
    pub scale: f32,
    /// The toolbar, status line and dialog around the cards.
    pub chrome: Chrome,
    pub card_w: i32,
    pub card_h: i32,
    pub slots: [Rect; PYRAMID_SIZE],
    pub stock: Rect,
    pub waste: Rect,
    /// Where removed cards fly to.
    pub discard: Rect,
}

impl Layout {
    /// The layout of a `width`×`height` window at display `scale`, for cards whose height is
    /// `aspect` times their width.
    pub fn new(width: u32, height: u32, scale: f32, aspect: f32) -> Layout {
        let wf = width as f32;
        let chrome = Chrome::new(width, height, scale);

        // The board: pyramid, then stock and waste, centred in the space between the bars.
        let units_w = 6.0 * COLUMN_STEP + 1.0 + 2.0 * MARGIN_X;
        let gaps = 6.0 * ROW_STEP + PILE_GAP;
        let (card_w, card_h, top) = chrome.fit_board(units_w, gaps, MARGIN_Y, aspect);
        let cx = wf / 2.0;
        let mut slots = [Rect::new(0, 0, 0, 0); PYRAMID_SIZE];
        for p in Position::all() {
            let (row, col) = (p.row() as f32, p.col() as f32);
            let x = cx + (col - row / 2.0) * COLUMN_STEP * card_w - card_w / 2.0;
            let y = top + row * ROW_STEP * card_w;
            slots[p.index()] = Rect::new(
                x.round() as i32,
                y.round() as i32,
                card_w as i32,
                card_h as i32,
            );
        }
        let pile_y = (top + 6.0 * ROW_STEP * card_w + card_h + PILE_GAP * card_w).round() as i32;
        let stock = Rect::new(
            (cx - 0.7 * card_w - card_w / 2.0).round() as i32,
            pile_y,
            card_w as i32,
            card_h as i32,
        );
        let waste = Rect::new(
            (cx + 0.7 * card_w - card_w / 2.0).round() as i32,
            pile_y,
            card_w as i32,
            card_h as i32,
        );
        let discard = Rect::new(
            width as i32 - (card_w * 1.3) as i32,
            pile_y,
            card_w as i32,
            card_h as i32,
        );
        Layout {
            width,
            height,
            scale,
            chrome,
            card_w: card_w as i32,
            card_h: card_h as i32,
            slots,
            stock,
            waste,
            discard,
        }
    }

    /// What a click at (x, y) lands on. `present(p)` tells whether pyramid slot `p` holds a card; a
    /// card lower in the pyramid lies on top of the ones it covers. With the dialog open only its
    /// buttons respond.
    pub fn hit(
        &self,
        x: i32,
        y: i32,
        dialog_open: bool,
        present: impl Fn(Position) -> bool,
    ) -> Target {
        if let Some(button) = self.chrome.button_at(x, y, dialog_open) {
            return Target::Button(button);
        }
        if dialog_open {
            return Target::None;
        }
        for p in Position::all().collect::<Vec<_>>().into_iter().rev() {
            if present(p) && self.slots[p.index()].contains(x, y) {
                return Target::Pyramid(p);
            }
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
            Target::Pyramid(p) => {
                let s = self.slots[p.index()];
                // The visible strip of a covered card is its top ROW_STEP; aim inside it.
                return Some((
                    s.x + s.w / 2,
                    s.y + (ROW_STEP * self.card_w as f32 * 0.5) as i32,
                ));
            }
            Target::Stock => self.stock,
            Target::Waste => self.waste,
            Target::Button(Button::Undo) => self.chrome.undo,
            Target::Button(Button::UndoBoard) => self.chrome.undo_board,
            Target::Button(Button::NewDeal) => self.chrome.new_deal,
            Target::Button(Button::Ok) => self.chrome.ok,
            Target::Button(Button::Cancel) => self.chrome.cancel,
            Target::None => return None,
        };
        Some(r.centre())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn everything_fits_inside_the_window_at_every_size_and_scale() {
        for (w, h) in [
            (800, 600),
            (1024, 768),
            (1440, 900),
            (1920, 1080),
            (3840, 2160),
        ] {
            for scale in [1.0, 1.5, 2.5] {
                let l = Layout::new(w, h, scale, 1.55);
                let all =
                    l.slots
                        .iter()
                        .chain([&l.stock, &l.waste, &l.chrome.new_deal, &l.chrome.ok]);
                for r in all {
                    assert!(
                        r.x >= 0 && r.y >= 0 && r.right() <= w as i32,
                        "{w}x{h}@{scale}: {r:?}"
                    );
                    assert!(
                        r.bottom() <= l.chrome.status.y || r == &l.chrome.ok,
                        "{w}x{h}@{scale}: {r:?}"
                    );
                }
                assert!(l.slots[0].y >= l.chrome.toolbar.bottom());
                assert!(l.card_w >= 30, "{w}x{h}@{scale}: cards {} wide", l.card_w);
            }
        }
    }

    #[test]
    fn clicks_hit_the_card_on_top() {
        let l = Layout::new(1440, 900, 1.0, 1.45);
        for p in Position::all() {
            let (x, y) = l.click_point(Target::Pyramid(p)).unwrap();
            assert_eq!(l.hit(x, y, false, |_| true), Target::Pyramid(p));
        }
        // The apex's lower part lies under row 1: with row 1 gone it is the apex again.
        let apex = l.slots[0];
        let (x, y) = (apex.x + apex.w / 2, apex.bottom() - 2);
        assert_ne!(l.hit(x, y, false, |_| true), Target::Pyramid(Position(0)));
        assert_eq!(
            l.hit(x, y, false, |p| p.row() == 0),
            Target::Pyramid(Position(0))
        );
        for t in [
            Target::Stock,
            Target::Waste,
            Target::Button(Button::Undo),
            Target::Button(Button::UndoBoard),
            Target::Button(Button::NewDeal),
        ] {
            let (x, y) = l.click_point(t).unwrap();
            assert_eq!(l.hit(x, y, false, |_| true), t);
            assert_eq!(l.hit(x, y, true, |_| true), Target::None);
        }
        let (x, y) = l.click_point(Target::Button(Button::Ok)).unwrap();
        assert_eq!(l.hit(x, y, true, |_| true), Target::Button(Button::Ok));
    }
}
