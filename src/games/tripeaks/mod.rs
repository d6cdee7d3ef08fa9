//! The game of TriPeaks (Microsoft Solitaire Collection rules): where the 28 tableau cards lie,
//! any position and its rules, steps, and the optimal solver.

pub mod layout;
pub mod solver;
pub mod state;
pub mod step;

pub use state::{IllegalStep, State};
pub use step::Step;

use super::{parse_each, Answer, Game};
use crate::cards::Deck;

/// TriPeaks in the registry.
pub struct TriPeaks;

impl Game for TriPeaks {
    fn name(&self) -> &'static str {
        "tripeaks"
    }
    fn deck_layout(&self) -> &'static str {
        "the 28 tableau cards row by row from the peak tops (3, 6, 9, 10), the waste's first card, \
then the 23 stock cards from the top"
    }
    fn solve(&self, deck: &Deck) -> Answer {
        let s = solver::solve(&State::deal(deck));
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
        state.replay(&steps)?;
        if state.is_cleared() {
            Ok(())
        } else {
            let left = state.tableau().iter().flatten().count();
            Err(format!("the steps end with {left} tableau cards left"))
        }
    }
}
