//! The agent: see → solve → click → verify. `play` is the loop; `io` the small traits it works
//! through; `sim` runs it against the practice table in-process; `desktop` against a real window.

pub mod desktop;
pub mod io;
pub mod play;
pub mod sim;
