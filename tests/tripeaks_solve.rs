//! `solve --game tripeaks`, `deal --game tripeaks` and `bench --game tripeaks` run as a user would:
//! the JSON contract, every solution replayed through the rules (not the solver's code), a deal
//! proved unsolvable, and unknown (`??`) cards refused with one clear message.

mod common;

use common::launch::Launch;
use solitaire_agent::cards::Deck;
use solitaire_agent::games::tripeaks::{State, Step};
use std::io::Write;
use std::process::{Command, Stdio};

fn run(args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_solitaire-agent"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .start();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("sa-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn seeded_deals_solve_to_json_lines_that_replay_through_the_rules() {
    // Seeds 1-3 are winnable; seed 28 is not (found by `bench --game tripeaks`).
    let dir = temp_dir("tripeaks-batch");
    let seeds = [1u64, 2, 3, 28];
    let mut batch = String::new();
    for seed in seeds {
        let (status, deal, _) = run(
            &["deal", "--game", "tripeaks", "--seed", &seed.to_string()],
            "",
        );
        assert_eq!(status, 0);
        assert_eq!(Deck::parse(&deal).unwrap(), Deck::shuffled(seed));
        batch.push_str(deal.trim());
        batch.push('\n');
    }
    let file = dir.join("deals.txt");
    std::fs::write(&file, &batch).unwrap();
    let (status, stdout, stderr) = run(
        &[
            "solve",
            "--game",
            "tripeaks",
            "--json",
            "--batch",
            file.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(status, 0, "{stderr}");
    let lines: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), seeds.len());
    for (seed, json) in seeds.iter().zip(&lines) {
        let keys: Vec<&str> = json
            .as_object()
            .unwrap()
            .keys()
            .map(|k| k.as_str())
            .collect();
        for key in ["deck", "solvable", "length", "steps", "states", "millis"] {
            assert!(
                keys.contains(&key),
                "seed {seed}: {key} missing from {json}"
            );
        }
        let deck = Deck::parse(json["deck"].as_str().unwrap()).unwrap();
        assert_eq!(deck, Deck::shuffled(*seed));
        let steps: Vec<Step> = json["steps"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().parse().unwrap())
            .collect();
        if *seed == 28 {
            assert_eq!(json["solvable"], false, "{json}");
            assert_eq!(json["length"], serde_json::Value::Null);
            assert!(steps.is_empty());
            continue;
        }
        assert_eq!(json["solvable"], true, "seed {seed}: {json}");
        assert_eq!(json["length"].as_u64().unwrap() as usize, steps.len());
        let mut state = State::deal(&deck);
        state.replay(&steps).unwrap();
        assert!(state.is_cleared(), "seed {seed}");
        // Each tableau card is one step; the rest are draws, at most the 23 of the stock.
        let draws = steps.iter().filter(|&&s| s == Step::Draw).count();
        assert_eq!(steps.len(), 28 + draws);
        assert!(draws <= 23);
    }
    assert!(stderr.contains("4 decks, 3 solvable"), "{stderr}");
}

#[test]
fn a_deal_with_face_down_cards_unknown_is_refused() {
    let deck = Deck::shuffled(4).to_string();
    let mut words: Vec<&str> = deck.split(' ').collect();
    for w in words.iter_mut().take(18) {
        *w = "??";
    }
    let (status, stdout, stderr) = run(&["solve", "--game", "tripeaks", "-"], &words.join(" "));
    assert_eq!(status, 2);
    assert!(stdout.is_empty(), "{stdout}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("18 cards are unknown (`??`)") && stderr.contains("Undo board"),
        "{stderr}"
    );
}

#[test]
fn text_output_and_an_unknown_game() {
    let (status, stdout, _) = run(
        &["solve", "--game", "tripeaks", "-"],
        &Deck::shuffled(2).to_string(),
    );
    assert_eq!(status, 0);
    assert!(stdout.starts_with("-: solved in "), "{stdout}");
    assert!(stdout.contains("\n   1. "), "{stdout}");
    let (status, _, stderr) = run(&["solve", "--game", "klondyke", "-"], "");
    assert_eq!(status, 2);
    assert!(stderr.contains("pyramid, tripeaks"), "{stderr}");
}

#[test]
fn bench_solves_and_replays_seeded_deals() {
    let (status, stdout, stderr) = run(&["bench", "--game", "tripeaks", "--seeds", "30"], "");
    assert_eq!(status, 0, "{stderr}");
    assert!(stdout.contains("| all | 30 |"), "{stdout}");
    let replayed = stdout
        .lines()
        .find(|l| l.starts_with("solutions replayed through the rules:"))
        .unwrap();
    let (done, of) = replayed
        .split(": ")
        .nth(1)
        .unwrap()
        .split_once(" of ")
        .unwrap();
    let of: usize = of.split(' ').next().unwrap().parse().unwrap();
    assert_eq!(done.parse::<usize>().unwrap(), of);
    assert!(of >= 25, "most seeded deals are winnable: {replayed}");
}
