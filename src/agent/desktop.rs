//! The agent's world on a real desktop: a game window found by title, captured with xcap, clicked
//! with enigo; the window is looked up again before each capture so that the agent follows it when
//! it moves. Window pixels map one to one to screen pixels (physical pixels: the process is DPI
//! aware on Windows), whether the window's own capture or its rectangle of the screen is used
//! (`platform::window`). The user takes over by pressing Esc or moving the mouse.

use crate::agent::io::{Clock, Pointer, Screen};
use crate::platform::cover::Stacking;
use crate::platform::input::{Clicker, MOUSE_TAKEN};
use crate::platform::keys::EscWatch;
use crate::platform::window::{self, FoundWindow};
use image::RgbaImage;
use std::sync::Arc;
use std::time::Instant;

pub struct DesktopGame {
    title: String,
    window: FoundWindow,
    clicker: Clicker,
    /// The Esc watcher, or why the keyboard cannot be watched here.
    esc: Result<EscWatch, String>,
    stacking: Stacking,
    start: Instant,
}

/// How long a click waits for a window dragged over the game to go away before the agent stops.
const COVERED_WAIT_MS: u64 = 5000;

impl DesktopGame {
    pub fn open(title: &str) -> Result<DesktopGame, String> {
        let window = window::find(title)?;
        Ok(DesktopGame {
            title: window.title.clone(),
            window,
            clicker: Clicker::new()?,
            esc: EscWatch::start(),
            stacking: Stacking::open()?,
            start: Instant::now(),
        })
    }

    /// Why Esc cannot stop the agent here, if it cannot.
    pub fn esc_unwatched(&self) -> Option<String> {
        self.esc.as_ref().err().cloned()
    }
}

impl Screen for DesktopGame {
    fn capture(&mut self) -> Result<Arc<RgbaImage>, String> {
        if self.window.refresh().is_err() {
            self.window = window::find(&self.title)?;
        }
        match self.window.capture() {
            Ok(image) => Ok(Arc::new(image)),
            // The window may have just moved or been re-created: look it up once more.
            Err(_) => {
                std::thread::sleep(std::time::Duration::from_millis(50));
                self.window = window::find(&self.title)?;
                self.window.capture().map(Arc::new)
            }
        }
    }

    fn capture_kind(&self) -> Option<&'static str> {
        Some(self.window.capture_kind().name())
    }
}

impl Pointer for DesktopGame {
    fn click(&mut self, x: i32, y: i32) -> Result<(), String> {
        // Never into another window: wait a little for one over the game to go away. The point is
        // checked before the cursor moves there and again as the button goes down (on X11 in
        // one step with the click: see `Stacking::click_if_on_top`), with the game window where
        // the point was worked out from; if it moved meanwhile, the point is worked out again.
        let waited = Instant::now();
        loop {
            self.window.refresh()?;
            let id = self.window.id()?;
            let (sx, sy) = (self.window.x + x, self.window.y + y);
            if self.stacking.on_top(id, sx, sy)? {
                let w = &self.window;
                let rect = (w.x, w.y, w.width, w.height);
                let stacking = &mut self.stacking;
                if self.clicker.click(sx, sy, rect, |press| {
                    stacking.click_if_on_top(id, (rect.0, rect.1), (sx, sy), press)
                })? {
                    return Ok(());
                }
            }
            if waited.elapsed().as_millis() as u64 > COVERED_WAIT_MS {
                return Err(format!(
                    "another window covers the game at {sx},{sy}; the click was not made"
                ));
            }
            if let Some(why) = self.interrupted() {
                return Err(why);
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
    }

    fn interrupted(&mut self) -> Option<String> {
        if self.esc.as_ref().is_ok_and(EscWatch::pressed) {
            return Some("Esc was pressed".into());
        }
        self.clicker.mouse_taken().then(|| MOUSE_TAKEN.into())
    }
}

impl Clock for DesktopGame {
    fn now_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }
    fn sleep_ms(&mut self, ms: u64) {
        std::thread::sleep(std::time::Duration::from_millis(ms));
    }
}
