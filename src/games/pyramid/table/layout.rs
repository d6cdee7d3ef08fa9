//! Where everything sits on the practice table for a window size, display scale and look: the 28
//! pyramid slots, the stock, the waste, the toolbar buttons, the status line and the Undo-board
//! dialog. The renderer draws from it and clicks are hit-tested against it, so picture and clicks
//! always agree.
//!
//! The `msc` look takes its proportions from the `msc` layout profile (`Profile::msc`, the same
//! numbers as `calibration/msc.json`), so the table and the profile that reads it cannot drift
//! apart: columns, rows, the stock and waste beside the apex's column and the gap above them in
//! card widths; cards 140/1440 of the window's width as at 1440×900 (smaller when the window is
//! too short for them), the pyramid centred across the window and the board centred down the
//! space between the bars.

use crate::games::pyramid::position::{Position, PYRAMID_SIZE};
use crate::games::pyramid::vision::profile::Profile;
use crate::table::chrome::{Button, Chrome};
use crate::table::look::Look;
use crate::table::rect::Rect;

/// Horizontal distance between neighbouring pyramid cards, in card widths.
pub const COLUMN_STEP: f32 = 1.12;
/// Vertical distance between pyramid rows, in card widths: the visible strip of a covered card.
pub const ROW_STEP: f32 = 0.42;
/// Gap between the bottom pyramid row and the stock/waste row, in card widths.
pub const PILE_GAP: f32 = 0.35;
/// Board margins in card widths.
const MARGIN_X: f32 = 0.45;
const MARGIN_Y: f32 = 0.22;
/// MSC's card width as a share of the window's width (140 px at 1440×900).
const MSC_CARD_SHARE: f32 = 140.0 / 1440.0;

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
    /// Distance between pyramid rows in card widths: the visible strip of a covered card.
    pub row_step: f32,
    pub slots: [Rect; PYRAMID_SIZE],
    pub stock: Rect,
    pub waste: Rect,
    /// Where removed cards fly to.
    pub discard: Rect,
}

impl Layout {
    /// The practice look's layout of a `width`×`height` window at display `scale`, for cards
    /// whose height is `aspect` times their width.
    pub fn new(width: u32, height: u32, scale: f32, aspect: f32) -> Layout {
        Layout::for_look(Look::Practice, width, height, scale, aspect)
    }

    /// The layout in `look`.
    pub fn for_look(look: Look, width: u32, height: u32, scale: f32, aspect: f32) -> Layout {
        let wf = width as f32;
        let chrome = Chrome::for_look(look, width, height, scale);
        // The proportions the look's profile reads, so that table and profile agree.
        let p = Profile::of_look(look);
        let (column_step, row_step, stock_dx, pile_gap) =
            (p.column_step, p.row_step, p.stock_dx, p.pile_gap);
        let gaps = 6.0 * row_step + pile_gap;
        let (card_w, card_h, top) = match look {
            Look::Practice => {
                // The board: pyramid, then stock and waste, centred between the bars.
                let units_w = 6.0 * column_step + 1.0 + 2.0 * MARGIN_X;
                chrome.fit_board(units_w, gaps, MARGIN_Y, aspect)
            }
            Look::Msc => {
                let (area_top, area_h) = chrome.board_area();
                let card_w = (wf * MSC_CARD_SHARE)
                    .min(area_h as f32 / (gaps + 2.0 * aspect + 2.0 * MARGIN_Y))
                    .floor()
                    .max(8.0);
                let card_h = (card_w * aspect).round();
                let board_h = card_w * gaps + 2.0 * card_h;
                (
                    card_w,
                    card_h,
                    area_top as f32 + (area_h as f32 - board_h) / 2.0,
                )
            }
        };
        let cx = wf / 2.0;
        let mut slots = [Rect::new(0, 0, 0, 0); PYRAMID_SIZE];
        for p in Position::all() {
            let (row, col) = (p.row() as f32, p.col() as f32);
            let x = cx + (col - row / 2.0) * column_step * card_w - card_w / 2.0;
            let y = top + row * row_step * card_w;
            slots[p.index()] = Rect::new(
                x.round() as i32,
                y.round() as i32,
                card_w as i32,
                card_h as i32,
            );
        }
        let pile_y = (top + 6.0 * row_step * card_w + card_h + pile_gap * card_w).round() as i32;
        let pile = |dx: f32| {
            Rect::new(
                (cx + dx * card_w - card_w / 2.0).round() as i32,
                pile_y,
                card_w as i32,
                card_h as i32,
            )
        };
        let (stock, waste) = (pile(stock_dx), pile(-stock_dx));
        // Removed cards fly to the right edge (practice) or off the top right (msc).
        let discard = match look {
            Look::Practice => Rect::new(
                width as i32 - (card_w * 1.3) as i32,
                pile_y,
                card_w as i32,
                card_h as i32,
            ),
            Look::Msc => Rect::new(
                width as i32 - card_w as i32 / 2,
                -(card_h as i32),
                card_w as i32,
                card_h as i32,
            ),
        };
        Layout {
            width,
            height,
            scale,
            chrome,
            card_w: card_w as i32,
            card_h: card_h as i32,
            row_step,
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
                // The visible strip of a covered card is its top row step; aim inside it.
                return Some((
                    s.x + s.w / 2,
                    s.y + (self.row_step * self.card_w as f32 * 0.5) as i32,
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

    /// The msc look lays cards at the `msc` profile's proportions, inside the window at every size
    /// and scale, with Undo board and the dialog's OK where the profile clicks them; at 1440×900
    /// the cards are MSC's: 140 px wide, 163 px apart, rows 43 px apart.
    #[test]
    fn the_msc_look_has_the_msc_profiles_proportions() {
        use crate::vision::buttons::Controls;
        let p = Profile::msc();
        let Controls::Fractions {
            undo_board,
            ok,
            new_deal: Some(new_deal),
        } = p.controls
        else {
            panic!("the msc profile clicks fixed fractions");
        };
        for (w, h) in [
            (800, 600),
            (1024, 768),
            (1440, 900),
            (1920, 1080),
            (3840, 2160),
        ] {
            for scale in [1.0, 1.5, 2.5] {
                let l = Layout::for_look(Look::Msc, w, h, scale, 1.4);
                let at = |f: [f32; 2]| ((f[0] * w as f32) as i32, (f[1] * h as f32) as i32);
                let tag = format!("{w}x{h}@{scale}");
                let (x, y) = at(undo_board);
                assert_eq!(
                    l.hit(x, y, false, |_| true),
                    Target::Button(Button::UndoBoard),
                    "{tag}"
                );
                let (x, y) = at(ok);
                assert_eq!(
                    l.hit(x, y, true, |_| true),
                    Target::Button(Button::Ok),
                    "{tag}"
                );
                let (x, y) = at(new_deal);
                assert_eq!(
                    l.hit(x, y, false, |_| true),
                    Target::Button(Button::NewDeal),
                    "{tag}"
                );
                let cw = l.card_w as f32;
                let (apex, left, right) = (l.slots[0], l.slots[1], l.slots[2]);
                assert!(
                    ((right.x - left.x) as f32 - p.column_step * cw).abs() <= 1.0,
                    "{tag}"
                );
                assert!(
                    ((left.y - apex.y) as f32 - p.row_step * cw).abs() <= 1.0,
                    "{tag}"
                );
                let mid = |r: Rect| r.x as f32 + r.w as f32 / 2.0;
                assert!(
                    ((mid(l.stock) - mid(apex)) / cw - p.stock_dx).abs() < 0.02,
                    "{tag}"
                );
                assert!(
                    ((mid(l.waste) - mid(apex)) / cw + p.stock_dx).abs() < 0.02,
                    "{tag}"
                );
                for r in l.slots.iter().chain([&l.stock, &l.waste]) {
                    assert!(r.x >= 0 && r.right() <= w as i32, "{tag}: {r:?}");
                    assert!(r.y >= l.chrome.status.bottom(), "{tag}: {r:?}");
                    assert!(r.bottom() <= l.chrome.toolbar.y, "{tag}: {r:?}");
                }
            }
        }
        let l = Layout::for_look(Look::Msc, 1440, 900, 1.0, 1.4);
        assert_eq!(l.card_w, 140);
        assert_eq!(l.slots[2].x - l.slots[1].x, 163);
        assert_eq!(l.slots[1].y - l.slots[0].y, 43);
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
