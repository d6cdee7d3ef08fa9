//! The game of Pyramid (Microsoft Solitaire Collection rules, Board challenge): positions and
//! covering, any game state, steps, the one set of rules that the table, the agent and the tests all
//! apply, the optimal solver, the practice table (`table`), the reading of its frames (`vision`)
//! and the agent's loop (`agent`).

pub mod agent;
mod game;
pub mod goal;
pub mod hidden_suits;
mod known;
mod landed;
pub mod position;
pub mod score;
pub mod solver;
pub mod state;
pub mod step;
pub mod table;
pub mod vision;

pub use game::{position_after, Pyramid};
pub use position::{Position, PYRAMID_SIZE, ROWS};
pub use state::{IllegalStep, State, StateError, MAX_RECYCLES};
pub use step::Step;
