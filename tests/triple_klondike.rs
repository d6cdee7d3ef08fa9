//! Triple Klondike with every card known: a deal whose shortest line is the bound, found at the
//! bound; a contest deal's line replayed through the rules (separate from the solver); seed 003's
//! own line for a contest deal won by the same rules; the rules'
//! three decks and single pass; and the command line's contract and errors.

mod common;

use common::launch::Launch;
use solitaire_agent::cards::{join_cards, Card, Rank, Suit};
use solitaire_agent::games::klondike::{rules, Step};
use solitaire_agent::games::triple_klondike::{solver, TripleDeck};
use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_solitaire-agent"))
}

/// The stock holds the aces to fives (and five sixes) rank by rank, so each card goes up as it
/// is turned; every pile falls in rank from its bottom card, so the lowest card left is always on
/// top of a pile. The shortest line is the bound: 65 turns and 156 moves up.
fn ordered_deal() -> TripleDeck {
    let mut all: Vec<Card> = Vec::new();
    for value in 1..=13u8 {
        for suit in Suit::ALL {
            for _ in 0..3 {
                all.push(Card::new(Rank::new(value).unwrap(), suit));
            }
        }
    }
    let stock: Vec<Card> = all[..65].to_vec();
    let mut rest: Vec<Card> = all[65..].to_vec();
    rest.reverse();
    // Piles 1 to 13, each a run of the falling cards from its bottom up.
    let mut text = join_cards(&rest);
    text.push(' ');
    text.push_str(&join_cards(&stock));
    TripleDeck::parse(&text).unwrap()
}

fn text(steps: &[Step]) -> Vec<String> {
    steps.iter().map(ToString::to_string).collect()
}

#[test]
fn a_deal_whose_shortest_line_is_the_bound_is_won_at_the_bound() {
    let deck = ordered_deal();
    let a = solver::solve(&deck, 256);
    assert_eq!(a.bound, 221);
    let steps = text(a.steps.as_ref().expect("won"));
    assert_eq!(steps.len(), 221, "{steps:?}");
    rules::replay_from(deck.table(), &steps).unwrap();
    // One step short is not a win, and the rules say how far it got.
    let err = rules::replay_from(deck.table(), &steps[..220]).unwrap_err();
    assert!(err.contains("155 of 156 cards"), "{err}");
}

/// The contest's deals are the seed's, read as its solver reads them: the line seed 003's solver
/// printed for deal 12 (254 steps, six of them `3>F`: a card taken up from a pile where another
/// pile or the waste shows the same card) wins here step for step, so the two solvers' lengths
/// count the same steps of the same deal.
#[test]
fn the_seeds_own_line_for_contest_deal_12_wins_here_in_as_many_steps() {
    let text = include_str!("data/triple-klondike/seed-003-deal-12.txt");
    let steps: Vec<String> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(str::to_string)
        .collect();
    assert_eq!(steps.len(), 254);
    let deck = TripleDeck::contest(12).unwrap();
    rules::replay_from(deck.table(), &steps).unwrap();
    // Deal 11 is another deal: the same line stops at a step its table does not allow.
    assert!(rules::replay_from(TripleDeck::contest(11).unwrap().table(), &steps).is_err());
}

#[test]
fn a_contest_deal_is_won_and_replays_through_the_rules() {
    let deck = TripleDeck::contest(12).unwrap();
    let a = solver::solve(&deck, 2048);
    let steps = text(a.steps.as_ref().expect("a line at width 2048"));
    assert!(steps.len() >= a.bound && a.bound == 221);
    rules::replay_from(deck.table(), &steps).unwrap();
    assert_eq!(steps.iter().filter(|s| *s == "Draw").count(), 65);
    // The stock is gone through once: no step turns the waste back.
    let mut table = deck.table();
    for _ in 0..65 {
        table.play(Step::Draw).unwrap();
    }
    assert!(table.play(Step::Draw).is_err());
    let err = table.play(Step::Recycle).unwrap_err();
    assert!(err.contains("may not be turned again"), "{err}");
    assert_eq!(table.foundations.len(), 12);
}

#[test]
fn the_command_line_prints_the_contract_and_refuses_bad_input() {
    let dir = std::env::temp_dir().join(format!("triple-klondike-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = bin()
        .args(["deal", "--game", "triple-klondike", "--seed", "12"])
        .run();
    assert!(out.status.success());
    let layout = String::from_utf8(out.stdout).unwrap();
    assert!(
        layout.contains("# pile 13") && layout.contains("# stock"),
        "{layout}"
    );
    assert_eq!(
        TripleDeck::parse(&layout).unwrap(),
        TripleDeck::contest(12).unwrap()
    );
    let file = dir.join("ordered.txt");
    std::fs::write(&file, ordered_deal().layout()).unwrap();
    let line = common::json_line(
        bin()
            .args(["solve", "--game", "triple-klondike", "--json"])
            .arg(&file),
    );
    assert_eq!(line["deck"], ordered_deal().to_string());
    assert_eq!(line["solvable"], true);
    assert_eq!(
        (line["length"].as_u64(), line["bound"].as_u64()),
        (Some(221), Some(221))
    );
    let steps: Vec<String> = line["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect();
    rules::replay_from(ordered_deal().table(), &steps).unwrap();
    // A deck with a card too few, a deal the contest does not have, an option of another game.
    let short = dir.join("short.txt");
    std::fs::write(&short, join_cards(&ordered_deal().0[1..])).unwrap();
    for (args, says) in [
        (
            vec![
                "solve",
                "--game",
                "triple-klondike",
                short.to_str().unwrap(),
            ],
            "read 155 cards",
        ),
        (
            vec!["deal", "--game", "triple-klondike", "--seed", "101"],
            "deals 1 to 100",
        ),
        (
            vec![
                "solve",
                "--game",
                "triple-klondike",
                "--draw",
                "3",
                file.to_str().unwrap(),
            ],
            "one card turned at a time",
        ),
        (vec!["table", "--game", "triple-klondike"], "solved only"),
    ] {
        let out = bin().args(&args).run();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
