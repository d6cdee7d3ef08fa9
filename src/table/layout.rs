//! Where everything sits on the practice table for a window size and display scale: the 28 pyramid
//! slots, the stock, the waste, the toolbar buttons, the status line and the Undo-board dialog.
//! The renderer draws from it and clicks are hit-tested against it, so picture and clicks always agree.

use crate::games::pyramid::position::{Position, PYRAMID_SIZE};

/// Horizontal distance between neighbouring pyramid cards, in card widths.
pub const COLUMN_STEP: f32 = 1.12;
/// Vertical distance between pyramid rows, in card widths: the visible strip of a covered card.
pub const ROW_STEP: f32 = 0.42;
/// Gap between the bottom pyramid row and the stock/waste row, in card widths.
const PILE_GAP: f32 = 0.35;
/// Board margins in card widths.
const MARGIN_X: f32 = 0.45;
const MARGIN_Y: f32 = 0.22;

/// An axis-aligned rectangle in window pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rect {
    pub x: i32,
    pub y: i32,
    pub w: i32,
    pub h: i32,
}

impl Rect {
    pub fn new(x: i32, y: i32, w: i32, h: i32) -> Rect {
        Rect { x, y, w, h }
    }

    pub fn contains(&self, x: i32, y: i32) -> bool {
        x >= self.x && y >= self.y && x < self.x + self.w && y < self.y + self.h
    }

    /// The centre point.
    pub fn centre(&self) -> (i32, i32) {
        (self.x + self.w / 2, self.y + self.h / 2)
    }

    pub fn right(&self) -> i32 {
        self.x + self.w
    }

    pub fn bottom(&self) -> i32 {
        self.y + self.h
    }
}

/// What a click at some point of the table lands on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    Pyramid(Position),
    Stock,
    Waste,
    Undo,
    UndoBoard,
    NewDeal,
    Ok,
    Cancel,
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
            Target::Undo => "undo".into(),
            Target::UndoBoard => "undo_board".into(),
            Target::NewDeal => "new_deal".into(),
            Target::Ok => "ok".into(),
            Target::Cancel => "cancel".into(),
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
    /// Pixels per unit of the toolbar, text and dialog.
    pub ui: f32,
    pub card_w: i32,
    pub card_h: i32,
    pub toolbar: Rect,
    pub status: Rect,
    pub undo: Rect,
    pub undo_board: Rect,
    pub new_deal: Rect,
    pub slots: [Rect; PYRAMID_SIZE],
    pub stock: Rect,
    pub waste: Rect,
    /// Where removed cards fly to.
    pub discard: Rect,
    pub dialog: Rect,
    pub ok: Rect,
    pub cancel: Rect,
    /// Size of a font pixel for toolbar and status text.
    pub text_px: f32,
}

/// Labels of the toolbar buttons, in order.
pub const BUTTON_LABELS: [&str; 3] = ["UNDO", "UNDO BOARD", "NEW DEAL"];

impl Layout {
    /// The layout of a `width`×`height` window at display `scale`, for cards whose height is
    /// `aspect` times their width.
    pub fn new(width: u32, height: u32, scale: f32, aspect: f32) -> Layout {
        let (wf, hf) = (width as f32, height as f32);
        let ui = scale * (wf / 1440.0).min(hf / 900.0).clamp(0.5, 3.0);
        let text_px = (2.0 * ui).round().max(1.0);
        let bar_h = (7.0 * text_px + 16.0 * ui).round() as i32;
        let toolbar = Rect::new(0, 0, width as i32, bar_h);
        let status_h = (7.0 * text_px + 12.0 * ui).round() as i32;
        let status = Rect::new(0, height as i32 - status_h, width as i32, status_h);

        let mut x = (10.0 * ui).round() as i32;
        let pad = (10.0 * ui).round() as i32;
        let button_h = bar_h - (8.0 * ui).round() as i32;
        let mut buttons = [Rect::new(0, 0, 0, 0); 3];
        for (i, label) in BUTTON_LABELS.iter().enumerate() {
            let w = (super::font::text_width(label) as f32 * text_px).round() as i32 + 2 * pad;
            buttons[i] = Rect::new(x, (bar_h - button_h) / 2, w, button_h);
            x += w + pad;
        }

        // The board: pyramid, then stock and waste, centred in the space between the bars.
        let area_top = toolbar.bottom();
        let area_h = (status.y - area_top).max(1) as f32;
        let units_w = 6.0 * COLUMN_STEP + 1.0 + 2.0 * MARGIN_X;
        let units_h = 2.0 * MARGIN_Y + 6.0 * ROW_STEP + 2.0 * aspect + PILE_GAP;
        let card_w = (wf / units_w).min(area_h / units_h).floor().max(8.0);
        let card_h = (card_w * aspect).round();
        let board_h = card_w * (6.0 * ROW_STEP + PILE_GAP) + 2.0 * card_h;
        let top = area_top as f32 + (area_h - board_h) / 2.0;
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

        let dw = (280.0 * ui).round() as i32;
        let dh = (110.0 * ui).round() as i32;
        let dialog = Rect::new((width as i32 - dw) / 2, (height as i32 - dh) / 2, dw, dh);
        let bw = (90.0 * ui).round() as i32;
        let bh = button_h;
        let by = dialog.bottom() - bh - (14.0 * ui).round() as i32;
        let ok = Rect::new(dialog.x + dw / 2 - bw - pad / 2, by, bw, bh);
        let cancel = Rect::new(dialog.x + dw / 2 + pad / 2, by, bw, bh);

        Layout {
            width,
            height,
            scale,
            ui,
            card_w: card_w as i32,
            card_h: card_h as i32,
            toolbar,
            status,
            undo: buttons[0],
            undo_board: buttons[1],
            new_deal: buttons[2],
            slots,
            stock,
            waste,
            discard,
            dialog,
            ok,
            cancel,
            text_px,
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
        if dialog_open {
            return if self.ok.contains(x, y) {
                Target::Ok
            } else if self.cancel.contains(x, y) {
                Target::Cancel
            } else {
                Target::None
            };
        }
        if self.undo.contains(x, y) {
            return Target::Undo;
        }
        if self.undo_board.contains(x, y) {
            return Target::UndoBoard;
        }
        if self.new_deal.contains(x, y) {
            return Target::NewDeal;
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
            Target::Undo => self.undo,
            Target::UndoBoard => self.undo_board,
            Target::NewDeal => self.new_deal,
            Target::Ok => self.ok,
            Target::Cancel => self.cancel,
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
                let all = l
                    .slots
                    .iter()
                    .chain([&l.stock, &l.waste, &l.new_deal, &l.ok]);
                for r in all {
                    assert!(
                        r.x >= 0 && r.y >= 0 && r.right() <= w as i32,
                        "{w}x{h}@{scale}: {r:?}"
                    );
                    assert!(
                        r.bottom() <= l.status.y || r == &l.ok,
                        "{w}x{h}@{scale}: {r:?}"
                    );
                }
                assert!(l.slots[0].y >= l.toolbar.bottom());
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
            Target::Undo,
            Target::UndoBoard,
            Target::NewDeal,
        ] {
            let (x, y) = l.click_point(t).unwrap();
            assert_eq!(l.hit(x, y, false, |_| true), t);
            assert_eq!(l.hit(x, y, true, |_| true), Target::None);
        }
        let (x, y) = l.click_point(Target::Ok).unwrap();
        assert_eq!(l.hit(x, y, true, |_| true), Target::Ok);
    }
}
