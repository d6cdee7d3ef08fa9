//! What every game's practice table shares around its cards: the felt, the toolbar with Undo,
//! Undo board and New deal, the status line, the Undo board dialog with OK and Cancel, and the
//! marks drawn on cards and piles (a selection, an empty pile). Geometry and drawing both, so that
//! each game's layout and renderer only place and draw its own cards.

use crate::table::interrupt::Interruption;
use crate::table::look::{Look, MSC_BAR_SHARE, MSC_NEW_DEAL, MSC_OK, MSC_UNDO_BOARD};
use crate::table::paint::{self, Rgba};
use crate::table::rect::Rect;
use resvg::tiny_skia::Pixmap;

const FELT_CENTRE: [f32; 3] = [46.0, 128.0, 70.0];
const FELT_EDGE: [f32; 3] = [18.0, 78.0, 42.0];
const BAR: Rgba = Rgba(24, 44, 32, 255);
const BUTTON: Rgba = Rgba(222, 228, 222, 255);
const DIALOG_BUTTON: Rgba = Rgba(200, 214, 204, 255);
const BUTTON_TEXT: Rgba = Rgba(28, 36, 30, 255);
const STATUS_TEXT: Rgba = Rgba(235, 240, 235, 255);
const OUTLINE: Rgba = Rgba(120, 180, 135, 255);
const HIGHLIGHT: Rgba = Rgba(255, 200, 30, 255);

/// Labels of the toolbar buttons, in order.
pub const BUTTON_LABELS: [&str; 3] = ["UNDO", "UNDO BOARD", "NEW DEAL"];

/// How far the Undo board dialog shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DialogShown {
    /// No dialog.
    Closed,
    /// Pressed, and the table dimmed, with the dialog itself not yet drawn (a slow game).
    Opening,
    /// The dialog with its OK and Cancel, over the dimmed table.
    Open,
}

/// A button of the chrome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Button {
    Undo,
    UndoBoard,
    NewDeal,
    Ok,
    Cancel,
}

impl Button {
    /// The name used in the event log: `undo`, `undo_board`, `new_deal`, `ok` or `cancel`.
    pub fn log_name(&self) -> &'static str {
        match self {
            Button::Undo => "undo",
            Button::UndoBoard => "undo_board",
            Button::NewDeal => "new_deal",
            Button::Ok => "ok",
            Button::Cancel => "cancel",
        }
    }
}

/// Where the chrome sits in a window of one size and display scale.
#[derive(Clone, Debug, PartialEq)]
pub struct Chrome {
    pub look: Look,
    pub width: u32,
    pub height: u32,
    /// Display scale (1.0–2.5) as on Windows: it enlarges the toolbar, the text and the status line.
    pub scale: f32,
    /// Pixels per unit of the toolbar, text and dialog.
    pub ui: f32,
    /// Size of a font pixel for toolbar and status text.
    pub text_px: f32,
    /// The bar with the buttons: across the top (practice) or the bottom (msc).
    pub toolbar: Rect,
    /// The status line: across the bottom (practice) or the top (msc).
    pub status: Rect,
    pub undo: Rect,
    pub undo_board: Rect,
    pub new_deal: Rect,
    pub dialog: Rect,
    pub ok: Rect,
    pub cancel: Rect,
}

impl Chrome {
    /// The practice look's chrome.
    pub fn new(width: u32, height: u32, scale: f32) -> Chrome {
        Chrome::for_look(Look::Practice, width, height, scale)
    }

    pub fn for_look(look: Look, width: u32, height: u32, scale: f32) -> Chrome {
        let (wf, hf) = (width as f32, height as f32);
        let ui = scale * (wf / 1440.0).min(hf / 900.0).clamp(0.5, 3.0);
        let mut text_px = (2.0 * ui).round().max(1.0);
        let pad = (10.0 * ui).round() as i32;
        let status_h = (7.0 * text_px + 12.0 * ui).round() as i32;
        let (toolbar, status, button_h) = match look {
            Look::Practice => {
                let bar_h = (7.0 * text_px + 16.0 * ui).round() as i32;
                let button_h = bar_h - (8.0 * ui).round() as i32;
                (
                    Rect::new(0, 0, width as i32, bar_h),
                    Rect::new(0, height as i32 - status_h, width as i32, status_h),
                    button_h,
                )
            }
            Look::Msc => {
                // The bar's height is fixed by where the profile clicks Undo board; the text
                // shrinks to fit it.
                let bar_h = (MSC_BAR_SHARE * hf).round() as i32;
                let button_h = (bar_h as f32 * 0.7).round() as i32;
                while text_px > 1.0 && 7.0 * text_px + 4.0 * ui > button_h as f32 {
                    text_px -= 1.0;
                }
                (
                    Rect::new(0, height as i32 - bar_h, width as i32, bar_h),
                    Rect::new(0, 0, width as i32, status_h),
                    button_h,
                )
            }
        };
        let widths_at = |text_px: f32| {
            BUTTON_LABELS.map(|label| {
                (super::font::text_width(label) as f32 * text_px).round() as i32 + 2 * pad
            })
        };
        // Practice: from the left edge. MSC: Undo board centred where the profile clicks it,
        // Undo left of it and New deal right of it; where Undo would not fit between the
        // window's edge and Undo board (a large display scale in a narrow window), the text
        // shrinks until it does.
        let first_x = |widths: [i32; 3]| match look {
            Look::Practice => pad,
            Look::Msc => (MSC_UNDO_BOARD[0] * wf).round() as i32 - widths[1] / 2 - pad - widths[0],
        };
        while text_px > 1.0 && first_x(widths_at(text_px)) < pad {
            text_px -= 1.0;
        }
        let widths = widths_at(text_px);
        let mut x = first_x(widths);
        let y = toolbar.y + (toolbar.h - button_h) / 2;
        let mut buttons = [Rect::new(0, 0, 0, 0); 3];
        for (i, w) in widths.into_iter().enumerate() {
            buttons[i] = Rect::new(x, y, w, button_h);
            x += w + pad;
        }
        if look == Look::Msc {
            // New deal where the profile clicks it.
            let w = buttons[2].w;
            buttons[2].x = (MSC_NEW_DEAL[0] * wf).round() as i32 - w / 2;
        }

        // Wide enough for its title at the toolbar's text size (a small window's MSC bar keeps
        // the text larger than the dialog's share of the window would).
        let title_w = paint::text_width(UNDO_BOARD_TITLE, text_px).ceil() as i32 + 2 * pad;
        let dw = ((280.0 * ui).round() as i32).max(title_w);
        // Tall enough for the title, the buttons and room between them (MSC's buttons are as
        // tall as its bar's, a larger share of a small window).
        let dh = ((110.0 * ui).round() as i32)
            .max((32.0 * ui + 7.0 * text_px + 1.5 * button_h as f32).round() as i32);
        let bw = (90.0 * ui).round() as i32;
        let (dialog, ok) = match look {
            Look::Practice => {
                let dialog = Rect::new((width as i32 - dw) / 2, (height as i32 - dh) / 2, dw, dh);
                let by = dialog.bottom() - button_h - (14.0 * ui).round() as i32;
                (
                    dialog,
                    Rect::new(dialog.x + dw / 2 - bw - pad / 2, by, bw, button_h),
                )
            }
            Look::Msc => {
                // The OK where the profile clicks it, the dialog around it.
                let ok = Rect::new(
                    (MSC_OK[0] * wf).round() as i32 - bw / 2,
                    (MSC_OK[1] * hf).round() as i32 - button_h / 2,
                    bw,
                    button_h,
                );
                let dx = ok.x - (dw / 2 - bw - pad / 2);
                let dy = ok.bottom() + (14.0 * ui).round() as i32 - dh;
                (Rect::new(dx, dy, dw, dh), ok)
            }
        };
        let cancel = Rect::new(dialog.x + dw / 2 + pad / 2, ok.y, bw, button_h);
        Chrome {
            look,
            width,
            height,
            scale,
            ui,
            text_px,
            toolbar,
            status,
            undo: buttons[0],
            undo_board: buttons[1],
            new_deal: buttons[2],
            dialog,
            ok,
            cancel,
        }
    }

    /// The space between the toolbar and the status line, where the cards go: its top and height.
    pub fn board_area(&self) -> (i32, i32) {
        let (above, below) = match self.look {
            Look::Practice => (self.toolbar, self.status),
            Look::Msc => (self.status, self.toolbar),
        };
        let top = above.bottom();
        (top, (below.y - top).max(1))
    }

    /// The card size and where the cards start, for a board of two card rows between the bars:
    /// `units_w` card widths wide, and `gaps` card widths tall besides its two cards (each
    /// `aspect` card widths tall) and a margin of `margin_y` above and below; the board is
    /// centred down the space between the bars. Gives (card width, card height, board top).
    pub fn fit_board(
        &self,
        units_w: f32,
        gaps: f32,
        margin_y: f32,
        aspect: f32,
    ) -> (f32, f32, f32) {
        let (area_top, area_h) = self.board_area();
        let area_h = area_h as f32;
        let units_h = 2.0 * margin_y + gaps + 2.0 * aspect;
        let card_w = (self.width as f32 / units_w)
            .min(area_h / units_h)
            .floor()
            .max(8.0);
        let card_h = (card_w * aspect).round();
        let board_h = card_w * gaps + 2.0 * card_h;
        (card_w, card_h, area_top as f32 + (area_h - board_h) / 2.0)
    }

    pub fn rect(&self, button: Button) -> Rect {
        match button {
            Button::Undo => self.undo,
            Button::UndoBoard => self.undo_board,
            Button::NewDeal => self.new_deal,
            Button::Ok => self.ok,
            Button::Cancel => self.cancel,
        }
    }

    /// Where an interruption's dialog and its buttons (left to right) are.
    pub fn popup(&self, kind: Interruption) -> Popup {
        let (wf, hf, ui) = (self.width as f32, self.height as f32, self.ui);
        let u = |v: f32| (v * ui).round() as i32;
        let pad = u(10.0);
        let button_h = self.ok.h;
        let widths: Vec<i32> = kind
            .buttons()
            .iter()
            .map(|l| {
                let text = (paint::text_width(l, self.text_px)).round() as i32 + 2 * pad;
                text.max(self.ok.w)
            })
            .collect();
        let (w, h, cx, cy) = match kind {
            Interruption::NoMoves => (u(340.0), u(120.0), wf * 0.5, hf * 0.42),
            Interruption::Bonus => (u(380.0), u(130.0), wf * 0.5, hf * 0.5),
            Interruption::Notice => {
                let (top, area_h) = self.board_area();
                (
                    u(460.0),
                    u(56.0).max(button_h + u(28.0)),
                    wf * 0.5,
                    top as f32 + area_h as f32 * 0.06 + 28.0 * ui,
                )
            }
        };
        let panel = Rect::new(cx.round() as i32 - w / 2, cy.round() as i32 - h / 2, w, h);
        let buttons = match kind {
            // The OK at the banner's right end, centred down it.
            Interruption::Notice => vec![Rect::new(
                panel.right() - pad - widths[0],
                panel.y + (h - button_h) / 2,
                widths[0],
                button_h,
            )],
            // The buttons side by side, centred along the bottom.
            _ => {
                let total: i32 = widths.iter().sum::<i32>() + pad * (widths.len() as i32 - 1);
                let mut x = panel.x + (w - total) / 2;
                let y = panel.bottom() - button_h - u(14.0);
                widths
                    .iter()
                    .map(|&bw| {
                        let r = Rect::new(x, y, bw, button_h);
                        x += bw + pad;
                        r
                    })
                    .collect()
            }
        };
        Popup { panel, buttons }
    }

    /// The button a click at (x, y) lands on. With the dialog open only its buttons respond.
    pub fn button_at(&self, x: i32, y: i32, dialog_open: bool) -> Option<Button> {
        let live: &[Button] = if dialog_open {
            &[Button::Ok, Button::Cancel]
        } else {
            &[Button::Undo, Button::UndoBoard, Button::NewDeal]
        };
        live.iter().copied().find(|&b| self.rect(b).contains(x, y))
    }
}

/// An interruption's dialog: the panel, and its buttons left to right (as `Interruption::buttons`).
#[derive(Clone, Debug, PartialEq)]
pub struct Popup {
    pub panel: Rect,
    pub buttons: Vec<Rect>,
}

impl Popup {
    /// The index of the button at (x, y).
    pub fn button_at(&self, x: i32, y: i32) -> Option<usize> {
        self.buttons.iter().position(|b| b.contains(x, y))
    }
}

/// The felt: a radial gradient from a lighter centre to darker edges, with a faint fixed weave.
pub fn felt(width: u32, height: u32) -> Pixmap {
    let mut pm = Pixmap::new(width, height).expect("window size");
    let (cx, cy) = (width as f32 / 2.0, height as f32 / 2.0);
    let max_d2 = cx * cx + cy * cy;
    let data = pm.data_mut();
    for y in 0..height {
        for x in 0..width {
            let (dx, dy) = (x as f32 - cx, y as f32 - cy);
            let t = ((dx * dx + dy * dy) / max_d2).min(1.0);
            let weave = if (x + y) % 4 == 0 { 3.0 } else { 0.0 };
            let i = ((y * width + x) * 4) as usize;
            for c in 0..3 {
                let v = FELT_CENTRE[c] + (FELT_EDGE[c] - FELT_CENTRE[c]) * t + weave;
                data[i + c] = v.round().clamp(0.0, 255.0) as u8;
            }
            data[i + 3] = 255;
        }
    }
    pm
}

pub fn draw_toolbar(pm: &mut Pixmap, chrome: &Chrome) {
    let bar = chrome.toolbar;
    paint::fill_rect(pm, 0.0, bar.y as f32, bar.w as f32, bar.h as f32, BAR);
    for (rect, label) in [chrome.undo, chrome.undo_board, chrome.new_deal]
        .iter()
        .zip(BUTTON_LABELS)
    {
        button(pm, *rect, label, chrome, BUTTON, false);
    }
}

/// A rounded button filled with `fill` (outlined when `outline`), its label centred.
fn button(pm: &mut Pixmap, r: Rect, label: &str, chrome: &Chrome, fill: Rgba, outline: bool) {
    if let Some(path) = paint::rounded_rect(
        r.x as f32,
        r.y as f32,
        r.w as f32,
        r.h as f32,
        4.0 * chrome.ui,
    ) {
        paint::fill_path(pm, &path, fill);
        if outline {
            paint::stroke_path(pm, &path, BAR, 1.0);
        }
    }
    centred_label(pm, r, label, chrome.text_px);
}

pub fn draw_status(pm: &mut Pixmap, chrome: &Chrome, text: &str) {
    let s = chrome.status;
    paint::fill_rect(pm, 0.0, s.y as f32, s.w as f32, s.h as f32, BAR);
    let px = chrome.text_px;
    paint::draw_text(
        pm,
        text,
        (10.0 * chrome.ui).round(),
        (s.y as f32 + (s.h as f32 - 7.0 * px) / 2.0).round(),
        px,
        STATUS_TEXT,
    );
}

/// The outline of a pile with no card on it.
pub fn empty_pile(pm: &mut Pixmap, r: Rect, chrome: &Chrome) {
    if let Some(path) = paint::rounded_rect(
        r.x as f32 + 1.0,
        r.y as f32 + 1.0,
        r.w as f32 - 2.0,
        r.h as f32 - 2.0,
        r.w as f32 * 0.07,
    ) {
        paint::stroke_path(pm, &path, OUTLINE, (2.0 * chrome.ui).max(1.0));
    }
}

/// A ring in the empty stock: the waste can still be turned over.
pub fn recycle_mark(pm: &mut Pixmap, r: Rect) {
    let (cx, cy) = r.centre();
    let radius = r.w as f32 * 0.25;
    let mut pb = resvg::tiny_skia::PathBuilder::new();
    pb.push_circle(cx as f32, cy as f32, radius);
    if let Some(path) = pb.finish() {
        paint::stroke_path(pm, &path, OUTLINE, (r.w as f32 * 0.06).max(2.0));
    }
}

/// A selected card: a gold frame and a light golden tint over the card.
pub fn highlight(pm: &mut Pixmap, r: Rect, chrome: &Chrome) {
    let Rgba(hr, hg, hb, _) = HIGHLIGHT;
    paint::fill_rect(
        pm,
        r.x as f32,
        r.y as f32,
        r.w as f32,
        r.h as f32,
        Rgba(hr, hg, hb, 50),
    );
    let width = (3.0 * chrome.ui).max(2.0);
    if let Some(path) = paint::rounded_rect(
        r.x as f32 + width / 2.0,
        r.y as f32 + width / 2.0,
        r.w as f32 - width,
        r.h as f32 - width,
        r.w as f32 * 0.07,
    ) {
        paint::stroke_path(pm, &path, HIGHLIGHT, width);
    }
}

/// The Undo board dialog's question.
const UNDO_BOARD_TITLE: &str = "UNDO BOARD? THE DEAL STARTS AGAIN.";

/// The whole window darkened, as behind a dialog.
pub fn dim(pm: &mut Pixmap, chrome: &Chrome) {
    paint::fill_rect(
        pm,
        0.0,
        0.0,
        chrome.width as f32,
        chrome.height as f32,
        Rgba(0, 0, 0, 110),
    );
}

/// A dialog's panel: light, rounded, outlined.
fn panel(pm: &mut Pixmap, d: Rect, chrome: &Chrome) {
    if let Some(path) = paint::rounded_rect(
        d.x as f32,
        d.y as f32,
        d.w as f32,
        d.h as f32,
        8.0 * chrome.ui,
    ) {
        paint::fill_path(pm, &path, Rgba(245, 245, 240, 255));
        paint::stroke_path(pm, &path, BAR, (2.0 * chrome.ui).max(1.0));
    }
}

/// The Undo board confirmation over a dimmed table.
pub fn draw_dialog(pm: &mut Pixmap, chrome: &Chrome) {
    dim(pm, chrome);
    let d = chrome.dialog;
    panel(pm, d, chrome);
    let px = chrome.text_px;
    let title = UNDO_BOARD_TITLE;
    let mut tpx = px;
    while paint::text_width(title, tpx) > d.w as f32 * 0.92 && tpx > 1.0 {
        tpx -= 1.0;
    }
    let tw = paint::text_width(title, tpx);
    paint::draw_text(
        pm,
        title,
        (d.x as f32 + (d.w as f32 - tw) / 2.0).round(),
        (d.y as f32 + 18.0 * chrome.ui).round(),
        tpx,
        BUTTON_TEXT,
    );
    for (rect, label) in [(chrome.ok, "OK"), (chrome.cancel, "CANCEL")] {
        button(pm, rect, label, chrome, DIALOG_BUTTON, true);
    }
}

/// An interruption over the table (dimmed behind it when the kind says so).
pub fn draw_interruption(pm: &mut Pixmap, chrome: &Chrome, kind: Interruption) {
    if kind.dims() {
        dim(pm, chrome);
    }
    let popup = chrome.popup(kind);
    let d = popup.panel;
    panel(pm, d, chrome);
    let px = chrome.text_px;
    let title = kind.title();
    let (tx, ty) = match kind {
        Interruption::Notice => (
            d.x as f32 + 14.0 * chrome.ui,
            d.y as f32 + (d.h as f32 - 7.0 * px) / 2.0,
        ),
        _ => (
            d.x as f32 + (d.w as f32 - paint::text_width(title, px)) / 2.0,
            d.y as f32 + 22.0 * chrome.ui,
        ),
    };
    paint::draw_text(pm, title, tx.round(), ty.round(), px, BUTTON_TEXT);
    for (rect, label) in popup.buttons.iter().zip(kind.buttons()) {
        button(pm, *rect, label, chrome, DIALOG_BUTTON, true);
    }
}

/// `label` in the button font, centred in `r`.
fn centred_label(pm: &mut Pixmap, r: Rect, label: &str, px: f32) {
    let tw = paint::text_width(label, px);
    paint::draw_text(
        pm,
        label,
        (r.x as f32 + (r.w as f32 - tw) / 2.0).round(),
        (r.y as f32 + (r.h as f32 - 7.0 * px) / 2.0).round(),
        px,
        BUTTON_TEXT,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every button lies inside the window, clear of its edges, at every size and display scale
    /// a user may have, in both looks (MSC's Undo board stays where the profile clicks it).
    #[test]
    fn every_button_lies_inside_the_window() {
        let sizes = [
            (800, 600),
            (1024, 768),
            (1200, 760),
            (1440, 900),
            (1920, 1080),
            (2560, 1440),
            (3840, 2160),
        ];
        let mut outside = Vec::new();
        for look in [Look::Practice, Look::Msc] {
            for (w, h) in sizes {
                for scale in [1.0, 1.25, 1.5, 2.0, 2.5] {
                    let c = Chrome::for_look(look, w, h, scale);
                    for (name, r) in [
                        ("undo", c.undo),
                        ("undo board", c.undo_board),
                        ("new deal", c.new_deal),
                        ("ok", c.ok),
                        ("cancel", c.cancel),
                    ] {
                        if r.x < 1 || r.y < 1 || r.right() >= w as i32 || r.bottom() >= h as i32 {
                            outside.push(format!("{look:?} {w}x{h}@{scale}: {name} {r:?}"));
                        }
                    }
                    if look == Look::Msc {
                        let (x, _) = c.undo_board.centre();
                        assert_eq!(
                            x,
                            (MSC_UNDO_BOARD[0] * w as f32).round() as i32,
                            "{w}x{h}@{scale}"
                        );
                    }
                    assert!(
                        c.undo.right() < c.undo_board.x && c.undo_board.right() < c.new_deal.x,
                        "{look:?} {w}x{h}@{scale}: buttons overlap"
                    );
                }
            }
        }
        assert!(outside.is_empty(), "{outside:#?}");
    }
}
