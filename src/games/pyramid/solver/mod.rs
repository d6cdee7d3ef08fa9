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

pub mod goal;
mod most;
mod problem;
mod reach;
mod search;
pub mod shapes;
mod visited;

use crate::games::pyramid::goal::Goal;
use crate::games::pyramid::{State, StateError, Step, ROWS};
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
    let found = search::search(&problem, &search::Board);
    Ok(Solution {
        steps: found.steps,
        states: reach.expanded + found.expanded,
        reached: found.reached,
        peak_bytes: found.peak_bytes.max(reach.bytes),
        millis: t0.elapsed().as_secs_f64() * 1000.0,
    })
}

/// The answer for one position and a goal other than (or including) the board.
#[derive(Clone, Debug)]
pub struct GoalSolution {
    /// The fewest steps that meet the goal (for `max-score`, that reach the highest score), or
    /// `None` when the goal cannot be met.
    pub steps: Option<Vec<Step>>,
    /// When the goal cannot be met (other than the board): the best the position allows, in the
    /// fewest steps: the highest score for a score, the most cards of the rank for a rank.
    pub best: Option<Vec<Step>>,
    pub states: u64,
    pub reached: u64,
    pub peak_bytes: usize,
    pub millis: f64,
}

/// Solves for `goal` from any valid position; points and cards count from that position on.
pub fn solve_goal(state: &State, goal: Goal) -> Result<GoalSolution, StateError> {
    use goal::{Cones, Counts, MostCards};
    let t0 = Instant::now();
    if goal == Goal::Board {
        let s = solve(state)?;
        return Ok(GoalSolution {
            steps: s.steps,
            best: None,
            states: s.states,
            reached: s.reached,
            peak_bytes: s.peak_bytes,
            millis: s.millis,
        });
    }
    state.validate()?;
    let mut problem = problem::Problem::new(state);
    let mut work = Work::default();
    // The amount asked for, and what is measured: points, or cards of one value.
    let (amount, value) = match goal {
        Goal::Score(n) => (Some(n), None),
        Goal::Clear { rank, count } => (Some(count), Some(rank.value())),
        Goal::MaxScore | Goal::Board => (None, None),
    };
    // First whether the pyramid can be cleared at all, and how far along the stock; then the
    // most a line can reach, stopping once the amount asked is reached (so whether it can be);
    // then the fewest steps to the amount, or to that most.
    let mut counts = Counts::new(&problem);
    let r = reach::reach(&problem);
    work.add(r.expanded, r.bytes);
    problem.earliest_goal = r.earliest_goal;
    let enough = amount.unwrap_or(u32::MAX);
    let mut cones;
    let m = match value {
        Some(v) => {
            if !r.solvable {
                // The apex stays: out of every bound.
                counts.limit_rows(ROWS - 1);
            }
            cones = Some(Cones::new(&counts, v));
            let measure = MostCards(&counts, cones.as_ref().unwrap());
            most::most(&problem, &measure, enough, u64::MAX)
        }
        None => {
            cones = None;
            most_points(&problem, &mut counts, r.solvable, enough, &mut work)
        }
    };
    work.add(m.expanded, m.bytes);
    let reachable = m.value >= enough;
    let target = if reachable { enough } else { m.value };
    // Short of the amount, `most` ran to the end: the target is the most there is.
    let line = fewest(
        &mut problem,
        &mut counts,
        cones.as_mut(),
        target,
        !reachable,
        &mut work,
    )
    .unwrap_or_else(|| panic!("a line reaches {target}, as `most` found"));
    let (steps, best_line) = if reachable || goal == Goal::MaxScore {
        (Some(line), None)
    } else {
        (None, Some(line))
    };
    Ok(GoalSolution {
        steps,
        best: best_line,
        states: work.states,
        reached: work.reached,
        peak_bytes: work.peak,
        millis: t0.elapsed().as_secs_f64() * 1000.0,
    })
}

/// What the searches for one goal did, added up.
#[derive(Default)]
struct Work {
    states: u64,
    reached: u64,
    peak: usize,
}

impl Work {
    fn add(&mut self, expanded: u64, bytes: usize) {
        self.states += expanded;
        self.peak = self.peak.max(bytes);
    }
}

/// States a first try at an amount of points may expand before the rows are bounded.
const FIRST_TRY: u64 = 20_000;

/// The most points a line from the start earns, or as soon as `enough` is reached, that.
///
/// Points come mostly from rows' bonuses, and bounds that only count cards' partners leave many
/// lines that seem able to clear more rows than any can. So unless a quick first try reaches
/// the amount, the most rows any line clears is found first (with the apex kept when the
/// pyramid cannot be cleared), and the rows above are left out of every bound after.
fn most_points(
    problem: &problem::Problem,
    counts: &mut goal::Counts,
    clearable: bool,
    enough: u32,
    work: &mut Work,
) -> most::Most {
    use goal::MostPoints;
    if clearable {
        return most::most(problem, &MostPoints(counts), enough, u64::MAX);
    }
    if enough != u32::MAX {
        let m = most::most(problem, &MostPoints(counts), enough, FIRST_TRY);
        if m.value >= enough {
            return m;
        }
        work.add(m.expanded, m.bytes);
    }
    counts.limit_rows(ROWS - 1);
    let (expanded, bytes) = counts.find_earliest_rows(problem);
    work.add(expanded, bytes);
    most::most(problem, &MostPoints(counts), enough, u64::MAX)
}

/// The fewest steps that earn `amount` points (`cones` None) or remove `amount` cards of the
/// cones' value, or `None` when no line does; `most`: no line gets past the amount.
fn fewest(
    problem: &mut problem::Problem,
    counts: &mut goal::Counts,
    cones: Option<&mut goal::Cones>,
    amount: u32,
    most: bool,
    work: &mut Work,
) -> Option<Vec<Step>> {
    use goal::{Cards, Points};
    // Whether every line that reaches the amount clears the pyramid: it earns more than a line
    // keeping the apex can, or it takes every card of the value and the apex is one.
    let clears = match &cones {
        None if amount > counts.points_upper(problem.start) => return None,
        None => amount > counts.most_without_clearing(),
        Some(cones) => counts.needs_the_apex(cones.value(), amount),
    };
    if clears && problem.earliest_goal.is_none() {
        // `solve_goal`'s reach found that no line clears the pyramid.
        return None;
    }
    let found = match cones {
        Some(cones) => {
            if clears {
                // Every card of the value goes, those still ahead in the stock too: no goal
                // comes before the last of them is taken, and the board's bound prices
                // getting there.
                let taken = counts.all_taken_from(cones.value());
                problem.earliest_goal = problem.earliest_goal.max(taken);
            } else if counts.takes_all(cones.value(), amount) {
                // How far along the stock they can all be gone, for the cards' bound.
                let (expanded, bytes) = cones.find_earliest_all(problem);
                work.add(expanded, bytes);
            }
            search::search(problem, &Cards::new(counts, cones, amount, clears))
        }
        None => {
            if !clears && !counts.rows_found() {
                // How far along the stock each count of rows can be cleared, for the points
                // bound.
                let (expanded, bytes) = counts.find_earliest_rows(problem);
                work.add(expanded, bytes);
            }
            let points = Points {
                counts,
                points: amount,
                clears,
                most,
            };
            search::search(problem, &points)
        }
    };
    work.add(found.expanded, found.peak_bytes);
    work.reached = work.reached.max(found.reached);
    found.steps
}
