//! The game of TriPeaks (Microsoft Solitaire Collection rules, Board challenge): where the 28
//! tableau cards lie and what covers what, any position and its rules, steps, the optimal solver,
//! and its practice table.

pub mod agent;
mod game;
pub mod known;
pub mod solver;
pub mod state;
pub mod step;
pub mod table;
pub mod tableau;
pub mod vision;

pub use game::TriPeaks;
pub use state::{IllegalStep, State};
pub use step::Step;
