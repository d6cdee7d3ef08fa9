//! Clicking on the desktop with enigo, with the agent's safety rules: a point outside the target
//! window is refused, and when the cursor is not where the agent left it (the user took the mouse)
//! the click is refused too, so the agent stops. On Windows the cursor is put on the point with
//! `SetCursorPos` (physical pixels on any monitor, the process being DPI aware) rather than
//! enigo's move, which scales the point to the primary monitor's 0–65535 range.

#[cfg(not(windows))]
use enigo::Coordinate;
use enigo::{Button, Direction, Enigo, Mouse, Settings};

/// The reason given when the user has taken the mouse.
pub const MOUSE_TAKEN: &str = "the mouse was moved by someone else";

pub struct Clicker {
    enigo: Enigo,
    /// Where the agent last put the cursor.
    left_at: Option<(i32, i32)>,
}

impl Clicker {
    pub fn new() -> Result<Clicker, String> {
        let enigo = Enigo::new(&Settings::default())
            .map_err(|e| format!("cannot control the mouse: {e}"))?;
        Ok(Clicker {
            enigo,
            left_at: None,
        })
    }

    /// Whether the cursor has left the point where the agent last put it (the user took the
    /// mouse). False before the first click.
    pub fn mouse_taken(&mut self) -> bool {
        match (self.left_at, self.enigo.location()) {
            (Some(left), Ok(now)) => (left.0 - now.0).abs() > 2 || (left.1 - now.1).abs() > 2,
            _ => false,
        }
    }

    /// Clicks the screen point (x, y), which must lie inside `window` (x, y, width, height).
    /// With the cursor on the point, `click_if_free` makes the click, given the button press to
    /// use, or leaves it unmade (say, a window was dragged over the point meanwhile) and
    /// returns Ok(false).
    pub fn click(
        &mut self,
        x: i32,
        y: i32,
        window: (i32, i32, u32, u32),
        click_if_free: impl FnOnce(&mut dyn FnMut() -> Result<(), String>) -> Result<bool, String>,
    ) -> Result<bool, String> {
        let (wx, wy, ww, wh) = window;
        if x < wx || y < wy || x >= wx + ww as i32 || y >= wy + wh as i32 {
            return Err(format!(
                "refused a click at {x},{y}: outside the game window"
            ));
        }
        if self.mouse_taken() {
            return Err(MOUSE_TAKEN.into());
        }
        move_cursor(&mut self.enigo, x, y)?;
        self.left_at = Some((x, y));
        let enigo = &mut self.enigo;
        click_if_free(&mut || {
            enigo
                .button(Button::Left, Direction::Click)
                .map_err(|e| format!("cannot click: {e}"))
        })
    }
}

/// Puts the cursor on screen point (x, y).
#[cfg(not(windows))]
fn move_cursor(enigo: &mut Enigo, x: i32, y: i32) -> Result<(), String> {
    enigo
        .move_mouse(x, y, Coordinate::Abs)
        .map_err(|e| format!("cannot move the mouse: {e}"))
}

/// Puts the cursor on screen point (x, y).
#[cfg(windows)]
fn move_cursor(_enigo: &mut Enigo, x: i32, y: i32) -> Result<(), String> {
    // SAFETY: moves the cursor; no pointers.
    unsafe { windows::Win32::UI::WindowsAndMessaging::SetCursorPos(x, y) }
        .map_err(|e| format!("cannot move the mouse: {e}"))
}
