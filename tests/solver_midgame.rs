//! Solving from mid-game positions, as the agent re-plans from whatever board it sees.

mod common;

use solitaire_agent::cards::Deck;
use solitaire_agent::games::pyramid::solver::solve;
use solitaire_agent::games::pyramid::{State, Step};

/// After k steps of an optimal solution, the rest is optimal: the solver must find exactly
/// n - k steps from there, and they must clear the board.
#[test]
fn re_planning_along_an_optimal_solution_keeps_the_length() {
    for (deck, n) in common::corpus()
        .into_iter()
        .filter(|(_, n)| *n > 0)
        .take(12)
    {
        let start = State::deal(&deck);
        let steps = solve(&start).unwrap().steps.unwrap();
        assert_eq!(steps.len(), n);
        for k in [1, n / 3, n / 2, n - 1] {
            let mid = common::replay(&start, &steps[..k]);
            let again = solve(&mid).unwrap();
            let rest = again
                .steps
                .expect("the rest of an optimal solution still solves");
            assert_eq!(rest.len(), n - k, "after {k} of {n} steps");
            common::assert_clears(&mid, &rest);
        }
    }
}

/// Mid-game positions with recycles used and cards gone from stock and waste.
#[test]
fn positions_after_recycles_are_solved_and_replayed() {
    let mut checked = 0;
    for seed in 0..40u64 {
        let deck = Deck::shuffled(seed);
        let mut state = State::deal(&deck);
        // Play greedily: take the first removal, else draw or recycle, for a while.
        for _ in 0..60 {
            let steps = state.legal_steps();
            let Some(step) = steps.first().copied() else {
                break;
            };
            state.apply(step).unwrap();
        }
        let solution = solve(&state).unwrap();
        if let Some(steps) = &solution.steps {
            common::assert_clears(&state, steps);
            checked += 1;
        }
        // A position one Draw further can be no shorter than one step less.
        if let (Some(steps), Ok(next)) = (&solution.steps, state.after(Step::Draw)) {
            if let Some(n2) = solve(&next).unwrap().length() {
                assert!(
                    n2 + 1 >= steps.len(),
                    "seed {seed}: {n2} + 1 < {}",
                    steps.len()
                );
            }
        }
    }
    assert!(
        checked > 5,
        "too few solvable positions ({checked}) to mean anything"
    );
}

#[test]
fn a_cleared_pyramid_needs_no_steps_and_a_stuck_one_has_no_solution() {
    let deck = common::read_deck("pyramid-winnable.txt");
    let mut state = State::deal(&deck);
    state.pyramid = [None; 28];
    assert_eq!(solve(&state).unwrap().length(), Some(0));

    // The last pass used up: only removals remain, few enough to try them all with the rules.
    for seed in 0..30u64 {
        let mut stuck = State::deal(&Deck::shuffled(seed));
        stuck.waste = std::mem::take(&mut stuck.stock);
        stuck.recycles = 2;
        let solution = solve(&stuck).unwrap();
        assert_eq!(
            solution.is_solvable(),
            brute_force_clears(&stuck, &mut Default::default()),
            "seed {seed}"
        );
        if let Some(steps) = solution.steps {
            common::assert_clears(&stuck, &steps);
        }
    }
}

/// Whether any sequence of legal steps clears the pyramid, tried exhaustively with the rules.
fn brute_force_clears(state: &State, seen: &mut std::collections::HashSet<State>) -> bool {
    if state.is_cleared() {
        return true;
    }
    if !seen.insert(state.clone()) {
        return false;
    }
    state
        .legal_steps()
        .into_iter()
        .any(|step| brute_force_clears(&state.after(step).unwrap(), seen))
}

#[test]
fn impossible_positions_are_refused() {
    let mut state = State::deal(&common::read_deck("pyramid-winnable.txt"));
    state.pyramid[0] = None; // the apex gone while everything under it remains
    let err = solve(&state).unwrap_err();
    assert!(err.to_string().contains("position 0"), "{err}");
}
