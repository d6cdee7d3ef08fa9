//! `solve`, `deal` and `bench --game spider` as a user runs them: solutions of seeded deals of one,
//! two and four suits that replay through the rules, proof of none for a deal that can never move,
//! the seed's deal won, and one clear message for each kind of bad input.

mod common;

use solitaire_agent::cards::{Card, Rank, Suit};
use solitaire_agent::games::spider::{rules, SpiderDeck, Suits};

use common::{json_steps as steps, run_cli as run};

fn lines(args: &[&str]) -> Vec<serde_json::Value> {
    let (status, stdout, stderr) = run(args);
    assert_eq!(status, 0, "{stderr}");
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn scratch(name: &str, text: &str) -> String {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("spider");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

/// Seeded deals of one, two and four suits, written by `deal` and solved from the files in one
/// batch: every line holds the contract's fields, every solution replays through the rules to a
/// cleared table, and the batch ends with its summary on stderr.
#[test]
fn seeded_deals_are_solved_and_replay() {
    let cases = [(3, Suits::One), (2, Suits::Two), (2, Suits::Four)];
    let mut batch = String::new();
    for (seed, suits) in cases {
        let n = suits.count().to_string();
        let (status, text, err) = run(&[
            "deal",
            "--game",
            "spider",
            "--seed",
            &seed.to_string(),
            "--suits",
            &n,
        ]);
        assert_eq!(status, 0, "{err}");
        let deck = SpiderDeck::parse(&text, Some(suits)).unwrap();
        assert_eq!(deck, SpiderDeck::shuffled(seed, suits));
        batch.push_str(&format!("{deck}\n"));
    }
    let path = scratch("batch.txt", &batch);
    let (status, answers, summary) =
        run(&["solve", "--game", "spider", "--json", "--batch", &path]);
    assert_eq!(status, 0, "{summary}");
    assert!(
        summary.contains("3 decks, 3 solved, 0 proved unsolvable, 0 undecided"),
        "{summary}"
    );
    let answers: Vec<serde_json::Value> = answers
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), 3);
    for ((seed, suits), line) in cases.iter().zip(&answers) {
        for field in ["deck", "solvable", "length", "steps", "states", "millis"] {
            assert!(line.get(field).is_some(), "{field} missing: {line}");
        }
        assert_eq!(line["suits"], suits.count());
        assert_eq!(line["solvable"], true, "seed {seed}, {suits:?}");
        assert_eq!(line["decided"], true);
        let steps = steps(line);
        assert_eq!(line["length"], steps.len());
        let deck = SpiderDeck::parse(line["deck"].as_str().unwrap(), None).unwrap();
        rules::replay(&deck, &steps).unwrap();
        // A step list that stops short does not clear the table.
        assert!(rules::replay(&deck, &steps[..steps.len() - 1]).is_err());
    }
}

/// A deal in which no card can ever move (the face-up cards of every deal are of ranks no two
/// of which are neighbours) has no solution, and the search proves it.
#[test]
fn a_deal_that_cannot_move_is_proved_unsolvable() {
    let c = |text: &str| -> Vec<Card> {
        text.split_whitespace()
            .map(|w| w.parse().unwrap())
            .collect()
    };
    let rows = [
        c("Ac Ad 3c 3d 5c 5d 7c 7d 9c 9d"),
        c("2c 2d 4c 4d 6c 6d 8c 8d Tc Td"),
        c("Ah As 3h 3s 5h 5s 7h 7s 9h 9s"),
        c("2h 2s 4h 4s 6h 6s 8h 8s Th Ts"),
        c("Jc Jd Kc Kd Jh Js Kh Ks Ac Ad"),
        c("Qc Qd Qh Qs Qc Qd Qh Qs 2c 2d"),
    ];
    let mut rest: Vec<Card> = Vec::new();
    for s in Suit::ALL {
        for r in Rank::all() {
            let card = Card::new(r, s);
            let used = rows.iter().flatten().filter(|&&x| x == card).count();
            rest.extend(std::iter::repeat_n(card, 2 - used));
        }
    }
    let mut text = String::new();
    for (i, top) in rows[0].iter().enumerate() {
        let down = if i < 4 { 5 } else { 4 };
        for card in rest.drain(..down) {
            text.push_str(&format!("{card} "));
        }
        text.push_str(&format!("{top}\n"));
    }
    for row in &rows[1..] {
        let words: Vec<String> = row.iter().map(Card::to_string).collect();
        text.push_str(&format!("{}\n", words.join(" ")));
    }
    let path = scratch("stuck.txt", &text);
    let line = &lines(&["solve", "--game", "spider", "--json", &path])[0];
    assert_eq!(line["solvable"], false);
    assert_eq!(line["decided"], true);
    assert_eq!(line["length"], serde_json::Value::Null);
    let (status, out, _) = run(&["solve", "--game", "spider", &path]);
    assert_eq!(status, 0);
    assert!(out.contains("no solution exists"), "{out}");
}

/// The seed's deal (its four unseen cards placed in one of their orders), which its author could
/// not win: a deck of four suits, and the search wins it with steps that replay; within a budget
/// too small it is undecided.
#[test]
fn the_seed_deal_is_won() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/spider/seed-002.txt"
    );
    let deck = SpiderDeck::parse(&std::fs::read_to_string(path).unwrap(), None).unwrap();
    assert_eq!(deck.suits, Suits::Four);
    let line = &lines(&["solve", "--game", "spider", "--json", path])[0];
    assert_eq!(line["solvable"], true, "{line}");
    rules::replay(&deck, &steps(line)).unwrap();
    // With too small a budget it is undecided, not unsolvable.
    let line = &lines(&[
        "solve", "--game", "spider", "--json", "--budget", "1000", path,
    ])[0];
    assert_eq!(line["solvable"], false);
    assert_eq!(line["decided"], false);
    assert_eq!(line["states"], 1000);
}

#[test]
fn bad_input_gets_one_clear_message() {
    let deck = SpiderDeck::shuffled(5, Suits::Four);
    let mut words: Vec<String> = deck.cards.iter().map(Card::to_string).collect();
    words[7] = words[0].clone();
    let two_alike = scratch("two-alike.txt", &words.join(" "));
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["solve", "--game", "spider", &two_alike], "too many"),
        (vec!["solve", "--game", "spider"], "no deck given"),
        (
            vec!["solve", "--game", "spider", "/no/such/deck"],
            "cannot read",
        ),
        (
            vec!["solve", "--game", "spider", "--suits", "3", &two_alike],
            "1, 2 or 4",
        ),
        (
            vec!["solve", "--suits", "2", &two_alike],
            "add --game spider",
        ),
        (
            vec![
                "solve", "--game", "spider", "--board", "english", &two_alike,
            ],
            "add --game peg",
        ),
        (
            vec![
                "solve",
                "--game",
                "spider",
                "--goal",
                "max-score",
                &two_alike,
            ],
            "--goal",
        ),
    ];
    for (args, expect) in cases {
        let (status, out, err) = run(&args);
        assert_eq!(status, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: nothing on stdout, got {out}");
        assert!(err.contains(expect), "{args:?}: {err}");
    }
    let two_suits = scratch(
        "two-suits.txt",
        &SpiderDeck::shuffled(5, Suits::Two).to_string(),
    );
    let (status, _, err) = run(&["solve", "--game", "spider", "--suits", "4", &two_suits]);
    assert_eq!(status, 2);
    assert!(err.contains("missing: Ac×2"), "{err}");
}
