//! `solitaire-agent bench-play` under Xvfb: it opens the practice table's real window for a seeded
//! deal, plays it with `play --window`, and prints a table of the time spent against the
//! animations' floor. One deal: cleared in the solver's number of steps, floors of (24 + steps) ×
//! the animation time, measured times never under their floors, no illegal move or stray click
//! and no click while a move still flies (from the table's own log); and bad input refused before
//! any window opens.

#![cfg(target_os = "linux")]

mod common;

use common::desktop::Desktop;
use solitaire_agent::cards::Deck;
use solitaire_agent::games::pyramid::{solver, State};

/// The cells of the table's row whose first cell is `name`.
fn row(table: &str, name: &str) -> Vec<String> {
    table
        .lines()
        .map(|l| {
            l.trim_matches('|')
                .split('|')
                .map(|c| c.trim().to_string())
                .collect::<Vec<_>>()
        })
        .find(|cells| cells.first().is_some_and(|c| c == name))
        .unwrap_or_else(|| panic!("no row {name} in:\n{table}"))
}

fn number(cell: &str) -> f64 {
    cell.parse()
        .unwrap_or_else(|_| panic!("'{cell}' is not a number"))
}

#[test]
fn bench_play_times_a_deal_on_the_real_window_against_the_floor() {
    let seed = 2;
    let optimal = solver::solve(&State::deal(&Deck::shuffled(seed)))
        .unwrap()
        .steps
        .expect("deal 2 is solvable")
        .len();
    let desktop = Desktop::start(1600, 1000);
    let out = desktop
        .command(env!("CARGO_BIN_EXE_solitaire-agent"))
        .args([
            "bench-play",
            "--deals",
            "1",
            "--first-seed",
            &seed.to_string(),
        ])
        .args(["--animation-ms", "150"])
        .output()
        .unwrap();
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{table}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // | deal | result | steps | clicks | reveal s | floor s | play s | floor s | × floor | illegal |
    //   stray clicks | clicks in flight | most ms left |
    let deal = row(&table, &seed.to_string());
    assert_eq!(deal[1], "cleared", "{table}");
    let steps = number(&deal[2]);
    assert_eq!(steps as usize, optimal, "{table}");
    assert!(
        number(&deal[3]) >= steps,
        "a click at least per step: {table}"
    );
    let (reveal, reveal_floor) = (number(&deal[4]), number(&deal[5]));
    let (play, play_floor) = (number(&deal[6]), number(&deal[7]));
    assert!((reveal_floor - 24.0 * 0.150).abs() < 0.006, "{table}");
    assert!((play_floor - steps * 0.150).abs() < 0.006, "{table}");
    assert!(reveal >= reveal_floor && play >= play_floor, "{table}");
    let ratio = number(&deal[8]);
    let expected = (reveal + play) / (reveal_floor + play_floor);
    assert!(ratio >= 1.0 && (ratio - expected).abs() < 0.01, "{table}");
    assert_eq!((deal[9].as_str(), deal[10].as_str()), ("0", "0"), "{table}");
    // No click before the picture shows the move landed: at most in the last few ms of a flight,
    // where the card, slowing down, already lies on its final pixel.
    assert!(number(&deal[12]) <= 10.0, "{table}");
    assert_eq!(row(&table, "all")[1], "1 cleared", "{table}");
}

#[test]
fn bench_play_refuses_no_deals() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_solitaire-agent"))
        .args(["bench-play", "--deals", "0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--deals"));
}
