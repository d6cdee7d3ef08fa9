//! The only code that touches the desktop: finding and capturing a game window (xcap) and clicking
//! in it (enigo). Everything else works on images and points, so it runs in tests without a display.

pub mod input;
pub mod window;
