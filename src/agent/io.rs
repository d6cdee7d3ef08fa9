//! What the agent needs from the outside world, as small traits: a screen to capture the game from,
//! a pointer to click with (in frame pixels) and a clock. `sim` implements them with the practice
//! table in-process; `desktop` with a real window (xcap and enigo).

use image::RgbaImage;
use std::sync::Arc;

/// The game's picture.
pub trait Screen {
    /// A capture of the game window's client area (shared: an unchanged picture may be handed out
    /// again without copying).
    fn capture(&mut self) -> Result<Arc<RgbaImage>, String>;

    /// How the pictures are taken, where there is a choice (a real window: `window` or
    /// `screen`, see `platform::window::Capture`).
    fn capture_kind(&self) -> Option<&'static str> {
        None
    }
}

/// Clicks in the game window, at frame pixel coordinates.
pub trait Pointer {
    /// Clicks at (x, y) of the frame. Implementations refuse points outside the window, and fail
    /// when the user has taken the mouse.
    fn click(&mut self, x: i32, y: i32) -> Result<(), String>;

    /// Why the user has taken over, if they have (pressed Esc, moved the mouse away from where
    /// the agent left it): the agent asks between all its actions and stops at once.
    fn interrupted(&mut self) -> Option<String> {
        None
    }
}

/// Time, real or simulated.
pub trait Clock {
    fn now_ms(&self) -> u64;
    fn sleep_ms(&mut self, ms: u64);
}

/// A real clock.
pub struct RealClock(pub std::time::Instant);

impl Clock for RealClock {
    fn now_ms(&self) -> u64 {
        self.0.elapsed().as_millis() as u64
    }
    fn sleep_ms(&mut self, ms: u64) {
        std::thread::sleep(std::time::Duration::from_millis(ms));
    }
}

/// The world the agent plays in (a real window, or the table in-process): everything the loop
/// uses, in one place.
pub trait World: Screen + Pointer + Clock {}
impl<T: Screen + Pointer + Clock> World for T {}
