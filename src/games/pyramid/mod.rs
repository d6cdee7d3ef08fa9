//! The game of Pyramid (Microsoft Solitaire Collection rules, Board challenge): positions and
//! covering, any game state, steps, the one set of rules that the table, the agent and the tests all
//! apply, and the optimal solver. Its practice table and the agent's reading of it are in `table`,
//! `vision` and `agent`, from before games were modules.

mod game;
pub mod position;
pub mod solver;
pub mod state;
pub mod step;

pub use game::{position_after, Pyramid};
pub use position::{Position, PYRAMID_SIZE, ROWS};
pub use state::{IllegalStep, State, StateError, MAX_RECYCLES};
pub use step::Step;
