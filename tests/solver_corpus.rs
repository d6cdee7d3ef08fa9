//! The solver against the 1500 decks with proven optimal lengths: every length exact, every
//! solution replayed through the rules and clearing the board in exactly that many steps.
//! (Run in release: `cargo test --release`, as the test command does.)

mod common;

use rayon::prelude::*;
use solitaire_agent::games::pyramid::solver::solve;
use solitaire_agent::games::pyramid::State;

#[test]
fn all_1500_decks_get_their_proven_optimal_length() {
    let corpus = common::corpus();
    assert_eq!(corpus.len(), 1500);
    let wrong: Vec<String> = corpus
        .par_iter()
        .enumerate()
        .filter_map(|(i, (deck, expected))| {
            let start = State::deal(deck);
            let solution = solve(&start).unwrap();
            let got = solution.length().unwrap_or(0);
            if let Some(steps) = &solution.steps {
                common::assert_clears(&start, steps);
            }
            (got != *expected).then(|| format!("line {}: expected {expected}, got {got}", i + 1))
        })
        .collect();
    assert!(
        wrong.is_empty(),
        "{} decks wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    let solvable = corpus.iter().filter(|(_, n)| *n > 0).count();
    assert_eq!(solvable, 998);
}

#[test]
fn named_decks_have_their_known_answers() {
    for (name, expected) in [
        ("pyramid-shortest-run.txt", Some(15)),
        ("pyramid-winnable.txt", Some(40)),
        ("pyramid-long-run.txt", None),
        ("pyramid-unwinnable.txt", None),
        ("pyramid-unwinnable-2.txt", None),
    ] {
        let start = State::deal(&common::read_deck(name));
        let solution = solve(&start).unwrap();
        assert_eq!(solution.length(), expected, "{name}");
        if let Some(steps) = &solution.steps {
            common::assert_clears(&start, steps);
        }
    }
}
