//! The only code that touches the desktop: finding and capturing a game window (xcap) and clicking
//! in it (enigo), and watching for the user taking over (the mouse moved, Esc pressed). Everything else works on images and points, so it runs in tests without a display.

pub mod cover;
pub mod input;
pub mod keys;
pub mod window;
