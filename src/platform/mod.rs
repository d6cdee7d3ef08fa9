//! The only code that touches the desktop: finding and capturing a game window (xcap, and Win32
//! where xcap cannot), clicking in it (enigo), display scaling (DPI awareness on Windows), and
//! watching for the user taking over (the mouse moved, Esc pressed), and where the OS keeps the
//! user's data (`data_dir`). Everything else works on
//! images and points, so it runs in tests without a display. OS-specific code stays here, behind
//! `cfg`.

pub mod cover;
pub mod data_dir;
pub mod dpi;
pub mod input;
pub mod keys;
pub mod open;
#[cfg(windows)]
mod win32;
pub mod window;
