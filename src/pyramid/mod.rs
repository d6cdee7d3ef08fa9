//! The game of Pyramid, pure: positions and covering, any game state, steps, and the one set of
//! rules (Microsoft Solitaire Collection Board challenge) that the table, the agent and the tests
//! all apply.

pub mod position;
pub mod state;
pub mod step;

pub use position::{Position, PYRAMID_SIZE, ROWS};
pub use state::{IllegalStep, State, StateError, MAX_RECYCLES};
pub use step::Step;
