//! The game of Pyramid, pure: positions and covering, any game state, steps, and the one set of
//! rules (Microsoft Solitaire Collection Board challenge) that the table, the agent and the tests
//! all apply.

pub mod position;
pub mod state;
pub mod step;

pub use position::{Position, PYRAMID_SIZE, ROWS};
pub use state::{IllegalStep, State, StateError, MAX_RECYCLES};
pub use step::Step;
pub mod solver;

use super::{parse_each, Answer, Game};
use crate::cards::Deck;

/// Pyramid in the registry.
pub struct Pyramid;

impl Game for Pyramid {
    fn name(&self) -> &'static str {
        "pyramid"
    }
    fn deck_layout(&self) -> &'static str {
        "the 28 pyramid cards row by row from the apex, then the 24 stock cards from the top"
    }
    fn solve(&self, deck: &Deck) -> Answer {
        let s = solver::solve(&State::deal(deck)).expect("a dealt deck is a valid position");
        Answer {
            steps: s.steps.map(|v| v.iter().map(Step::to_string).collect()),
            states: s.states,
            peak_bytes: s.peak_bytes,
            millis: s.millis,
        }
    }
    fn replay(&self, deck: &Deck, steps: &[String]) -> Result<(), String> {
        let steps = parse_each(steps, |s| s.parse::<Step>())?;
        let mut state = State::deal(deck);
        for (n, &step) in steps.iter().enumerate() {
            state
                .apply(step)
                .map_err(|e| format!("step {} ({step}) is illegal: {e}", n + 1))?;
        }
        if state.is_cleared() {
            Ok(())
        } else {
            Err("the steps do not clear the pyramid".into())
        }
    }
}
