//! Helpers shared by the integration tests: the test decks, and replaying a solution through the
//! rules module (`pyramid::State::apply`), which shares no code with the solver's move generation.

#![allow(dead_code)]

pub mod desktop;

use solitaire_agent::cards::Deck;
use solitaire_agent::pyramid::{State, Step};
use std::path::PathBuf;

pub fn deck_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/decks")
        .join(name)
}

pub fn read_deck(name: &str) -> Deck {
    Deck::parse(&std::fs::read_to_string(deck_path(name)).unwrap()).unwrap()
}

/// The 1500 corpus decks with their proven optimal lengths (0 = no solution).
pub fn corpus() -> Vec<(Deck, usize)> {
    std::fs::read_to_string(deck_path("random-1500-optimal.tsv"))
        .unwrap()
        .lines()
        .map(|line| {
            let (deck, len) = line.split_once('\t').unwrap();
            (Deck::parse(deck).unwrap(), len.trim().parse().unwrap())
        })
        .collect()
}

/// Plays the steps from `start` with the rules; panics on an illegal step, returns the end state.
pub fn replay(start: &State, steps: &[Step]) -> State {
    let mut state = start.clone();
    for (i, step) in steps.iter().enumerate() {
        if let Err(e) = state.apply(*step) {
            panic!("step {} ({step}) is illegal: {e}", i + 1);
        }
    }
    state
}

/// Checks that the steps clear the pyramid from `start`, and that the last step is the one that
/// clears it (no step is wasted after the board is clear).
pub fn assert_clears(start: &State, steps: &[Step]) {
    let end = replay(start, steps);
    assert!(
        end.is_cleared(),
        "the solution leaves {} pyramid cards",
        end.pyramid_count()
    );
    if let Some((_, before)) = steps.split_last() {
        assert!(
            !replay(start, before).is_cleared(),
            "the board was clear before the last step"
        );
    }
}
