//! The optimal Pyramid solver: the fewest steps (Draw, Recycle and each removal count one) that
//! clear the pyramid from any position, or proof that none exists.
//!
//! Design (after seed 000, the pyramid-solver README, and beyond it):
//! - `shapes`: the 1430 possible pyramid shapes, numbered, with uncovered cards and transitions.
//! - `problem`: a position in packed form (42-bit keys), per-shape heuristic and stock needs.
//! - `visited`: one u64 per reached state holding key, step count and the move that reached it.
//! - `search`: A* with a bucket queue; the path is rebuilt from the recorded moves.
//!
//! The heuristic counts, for each pair of values summing to 13, the pyramid cards of both values
//! less the most pairs they can form among themselves (two cards can pair only if neither covers
//! the other), plus the kings. The same matching says how many partners the stock must still hold;
//! a state whose stock and waste cannot supply them is dropped (this subsumes the seed's
//! "unclearable card" test).
//!
//! Draws and recycles are bounded two ways, the larger counting: the stock cards that must be
//! passed to reach a partner for each such card, and those that must be passed to get to the
//! earliest point of the stock's timeline at which `reach` found the pyramid can be cleared at
//! all. A passed card costs a step unless a pyramid card without a pyramid partner takes it.

mod problem;
mod reach;
mod search;
pub mod shapes;
mod visited;

use crate::games::pyramid::{State, StateError, Step};
use std::time::Instant;

/// The answer for one position.
#[derive(Clone, Debug)]
pub struct Solution {
    /// An optimal sequence of steps that clears the pyramid, or `None` when no sequence does.
    pub steps: Option<Vec<Step>>,
    /// States expanded by the search.
    pub states: u64,
    /// Distinct states reached.
    pub reached: u64,
    /// Bytes of the search's main structures at their largest.
    pub peak_bytes: usize,
    /// Wall time of the search, in milliseconds.
    pub millis: f64,
}

impl Solution {
    pub fn is_solvable(&self) -> bool {
        self.steps.is_some()
    }
    pub fn length(&self) -> Option<usize> {
        self.steps.as_ref().map(Vec::len)
    }
}

/// Solves from any valid position (a fresh deal or mid-game).
pub fn solve(state: &State) -> Result<Solution, StateError> {
    state.validate()?;
    let t0 = Instant::now();
    let mut problem = problem::Problem::new(state);
    let reach = reach::reach(&problem);
    if !reach.solvable {
        return Ok(Solution {
            steps: None,
            states: reach.expanded,
            reached: reach.expanded,
            peak_bytes: reach.bytes,
            millis: t0.elapsed().as_secs_f64() * 1000.0,
        });
    }
    problem.earliest_goal = reach.earliest_goal;
    let found = search::search(&problem);
    Ok(Solution {
        steps: found.steps,
        states: reach.expanded + found.expanded,
        reached: found.reached,
        peak_bytes: found.peak_bytes.max(reach.bytes),
        millis: t0.elapsed().as_secs_f64() * 1000.0,
    })
}
