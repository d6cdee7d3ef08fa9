//! The agent: see → solve → click → verify. `play` is Pyramid's loop; `hands` what every game's
//! loop does the same way (still pictures, confirmed clicks, the user taking over); `io` the small
//! traits they work through; `sim` runs them against the practice table in-process; `desktop`
//! against a real window.

pub mod desktop;
pub mod hands;
pub mod io;
pub mod play;
pub mod sim;
