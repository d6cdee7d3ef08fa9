//! What every game's agent loop shares: `hands` (still pictures, confirmed clicks, the user taking
//! over), `report` (the `play --json` report and the watcher), `journal` (a log of each game), `io` (the small traits the loops
//! work through), `sim` (the practice table in-process) and `desktop` (a real window). Each game's
//! loop is its own (`games::pyramid::agent`, `games::tripeaks::agent`).
pub mod desktop;
pub mod hands;
pub mod io;
pub mod journal;
pub mod report;
pub mod sim;
