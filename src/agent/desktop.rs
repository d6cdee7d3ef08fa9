//! The agent's world on a real desktop: a game window found by title, captured with xcap, clicked
//! with enigo; the window is looked up again before each capture so that the agent follows it when
//! it moves. Window pixels map one to one to screen pixels (xcap captures physical pixels).

use crate::agent::io::{Clock, Pointer, Screen};
use crate::platform::input::Clicker;
use crate::platform::window::{self, FoundWindow};
use image::RgbaImage;
use std::time::Instant;

pub struct DesktopGame {
    title: String,
    window: FoundWindow,
    clicker: Clicker,
    start: Instant,
}

impl DesktopGame {
    pub fn open(title: &str) -> Result<DesktopGame, String> {
        let window = window::find(title)?;
        Ok(DesktopGame {
            title: window.title.clone(),
            window,
            clicker: Clicker::new()?,
            start: Instant::now(),
        })
    }
}

impl Screen for DesktopGame {
    fn capture(&mut self) -> Result<RgbaImage, String> {
        if self.window.refresh().is_err() {
            self.window = window::find(&self.title)?;
        }
        match self.window.capture() {
            Ok(image) => Ok(image),
            // The window may have just moved or been re-created: look it up once more.
            Err(_) => {
                std::thread::sleep(std::time::Duration::from_millis(50));
                self.window = window::find(&self.title)?;
                self.window.capture()
            }
        }
    }
}

impl Pointer for DesktopGame {
    fn click(&mut self, x: i32, y: i32) -> Result<(), String> {
        self.window.refresh()?;
        let w = &self.window;
        let rect = (w.x, w.y, w.width, w.height);
        self.clicker.click(w.x + x, w.y + y, rect)
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
