//! The buttons the agent presses: Undo, Undo board, New deal, and the dialog's OK.

use crate::vision::edges::Edges;
use image::RgbaImage;
use serde::{Deserialize, Serialize};

/// How to find the buttons the agent presses.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Controls {
    /// The practice table: light buttons in a dark toolbar across the top, left to right Undo,
    /// Undo board, New deal; the Undo board dialog has OK left of Cancel.
    Toolbar,
    /// Fixed places as fractions of the window's width and height (MSC); New deal when known.
    Fractions {
        undo_board: [f32; 2],
        ok: [f32; 2],
        #[serde(default, skip_serializing_if = "Option::is_none")]
        new_deal: Option<[f32; 2]>,
    },
}

/// The buttons the agent presses, in frame pixels (centres).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Buttons {
    pub undo: Option<(i32, i32)>,
    pub undo_board: Option<(i32, i32)>,
    pub new_deal: Option<(i32, i32)>,
    /// The OK of the Undo board dialog, when the dialog is open.
    pub ok: Option<(i32, i32)>,
}

/// Finds the buttons as `controls` describes them.
pub fn find_buttons(frame: &RgbaImage, e: &Edges, controls: &Controls) -> Buttons {
    match controls {
        Controls::Fractions {
            undo_board,
            ok,
            new_deal,
        } => {
            let at = |f: &[f32; 2]| {
                Some((
                    (f[0] * e.width as f32) as i32,
                    (f[1] * e.height as f32) as i32,
                ))
            };
            Buttons {
                undo: None,
                undo_board: at(undo_board),
                new_deal: new_deal.as_ref().and_then(at),
                ok: at(ok),
            }
        }
        Controls::Toolbar => toolbar_buttons(frame, e),
    }
}

/// The practice table's toolbar: the first row from the top crossing three light runs on a dark bar.
fn toolbar_buttons(frame: &RgbaImage, e: &Edges) -> Buttons {
    let (w, h) = (e.width as i32, e.height as i32);
    let light = |x: i32, y: i32| e.grey_at(x, y) > 170;
    let mut buttons = Buttons::default();
    let min_run = (w / 100).max(6);
    for y in 0..(h / 6) {
        let mut runs = Vec::new();
        let mut x = 0;
        while x < w {
            if light(x, y) {
                let start = x;
                while x < w && light(x, y) {
                    x += 1;
                }
                if x - start >= min_run {
                    runs.push((start, x));
                }
            } else {
                x += 1;
            }
        }
        if runs.len() >= 3 && runs.iter().all(|&(a, _)| a < w * 3 / 4) {
            // The button's height: go down its left padding until it is no longer light.
            let centre = |&(a, b): &(i32, i32)| {
                let px = a + 3.min((b - a) / 4);
                let mut yy = y;
                while yy < h && light(px, yy) {
                    yy += 1;
                }
                ((a + b) / 2, (y + yy) / 2)
            };
            buttons.undo = Some(centre(&runs[0]));
            buttons.undo_board = Some(centre(&runs[1]));
            buttons.new_deal = Some(centre(&runs[2]));
            break;
        }
    }
    buttons.ok = dialog_ok_button(frame);
    buttons
}

/// The OK button of the practice table's Undo board dialog: the left of the two button-coloured
/// areas in the middle of the frame, when the dialog is open.
pub fn dialog_ok_button(frame: &RgbaImage) -> Option<(i32, i32)> {
    let (w, h) = (frame.width() as i32, frame.height() as i32);
    let is_button = |p: &image::Rgba<u8>| {
        p.0[0].abs_diff(200) <= 6 && p.0[1].abs_diff(214) <= 6 && p.0[2].abs_diff(204) <= 6
    };
    let (mut sx, mut sy, mut n) = (0i64, 0i64, 0i64);
    let mut pts = Vec::new();
    for y in (h / 4..h * 3 / 4).step_by(2) {
        for x in (w / 4..w * 3 / 4).step_by(2) {
            if is_button(frame.get_pixel(x as u32, y as u32)) {
                pts.push((x, y));
            }
        }
    }
    if pts.len() < 40 {
        return None;
    }
    // Split at the widest gap in x: OK is the left group.
    let mut xs: Vec<i32> = pts.iter().map(|p| p.0).collect();
    xs.sort_unstable();
    xs.dedup();
    let split = xs
        .windows(2)
        .max_by_key(|p| p[1] - p[0])
        .map(|p| (p[0] + p[1]) / 2)?;
    let (ok, cancel): (Vec<_>, Vec<_>) = pts.iter().partition(|&&(x, _)| x < split);
    // The two buttons are solid boxes of one size side by side, not button-coloured specks
    // spread over the cards (some card faces have that colour).
    let (a, b) = (button_box(&ok)?, button_box(&cancel)?);
    let same_size = ok.len() * 2 >= cancel.len() && cancel.len() * 2 >= ok.len();
    let side_by_side = (a.1 - b.1).abs() <= (a.3 - a.2).max(2) / 2;
    if !(same_size && side_by_side) {
        return None;
    }
    for &(x, y) in &ok {
        sx += x as i64;
        sy += y as i64;
        n += 1;
    }
    (n > 0).then(|| ((sx / n) as i32, (sy / n) as i32))
}

/// A group of sampled button-coloured points as a filled box: (centre x, centre y, top, bottom)
/// when the points fill most of the box they span (text on the button leaves some out).
fn button_box(pts: &[(i32, i32)]) -> Option<(i32, i32, i32, i32)> {
    let (x0, x1) = (
        pts.iter().map(|p| p.0).min()?,
        pts.iter().map(|p| p.0).max()?,
    );
    let (y0, y1) = (
        pts.iter().map(|p| p.1).min()?,
        pts.iter().map(|p| p.1).max()?,
    );
    // Points were sampled every 2 pixels both ways.
    let cells = ((x1 - x0) / 2 + 1) as usize * ((y1 - y0) / 2 + 1) as usize;
    (pts.len() * 10 >= cells * 6).then_some(((x0 + x1) / 2, (y0 + y1) / 2, y0, y1))
}
