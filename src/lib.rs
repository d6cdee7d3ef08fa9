//! solitaire-agent: plays the games of Microsoft Solitaire Collection by itself (Pyramid and
//! TriPeaks so far).
//!
//! The data path: capture → locate → recognize → board → solve → plan clicks → act → verify.
//! Each game is a module under `games`; capture, input, the card recogniser, the agent's hands,
//! the practice table's window and the panel are shared.

pub mod agent;
pub mod cards;
pub mod cli;
pub mod data;
pub mod games;
pub mod panel;
pub mod platform;
pub mod table;
pub mod vision;

/// The build's name: the package version and the commit it was built from, as `--version` prints
/// it and the JSON reports carry it.
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (",
    env!("SOLITAIRE_AGENT_COMMIT"),
    ")"
);
