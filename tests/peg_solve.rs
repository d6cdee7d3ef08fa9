//! `solve --game peg` as a user runs it: the JSON line of the contract with a solution that replays
//! through the rules, proof of none, the count of solutions, and one clear message for each kind
//! of bad input.

mod common;

use solitaire_agent::games::peg::{rules, Board, End, Kind};

use common::{json_steps as steps, run_cli as run};

fn json(args: &[&str]) -> serde_json::Value {
    let (status, stdout, stderr) = run(args);
    assert_eq!(status, 0, "{stderr}");
    serde_json::from_str(stdout.trim()).unwrap()
}

/// The English board from its centre, and from a corner of an arm ending anywhere: solutions of
/// 31 jumps that replay through the rules to the goal.
#[test]
fn english_games_are_solved_and_replay() {
    let board = Board::new(Kind::English);
    let line = json(&["solve", "--game", "peg", "--board", "english", "--json"]);
    assert_eq!(line["deck"], "english d4");
    assert_eq!(line["end"], "d4");
    assert_eq!(line["solvable"], true);
    assert_eq!(line["length"], 31);
    let d4 = board.parse_hole("d4").unwrap();
    assert_eq!(
        rules::replay(&board, d4, End::Hole(d4), &steps(&line)),
        Ok(1 << d4)
    );
    let line = json(&[
        "solve", "--game", "peg", "--board", "english", "--start", "c1", "--end", "any", "--json",
    ]);
    assert_eq!(
        (line["end"].as_str(), line["length"].as_u64()),
        (Some("any"), Some(31))
    );
    let c1 = board.parse_hole("c1").unwrap();
    rules::replay(&board, c1, End::Any, &steps(&line)).unwrap();
}

/// The French board's centre game has no solution, proved by the rule of three; the triangle's
/// solutions are counted (start at the top, last peg on it).
#[test]
fn proofs_and_counts() {
    let line = json(&["solve", "--game", "peg", "--board", "french", "--json"]);
    assert_eq!(line["solvable"], false);
    assert_eq!(line["length"], serde_json::Value::Null);
    assert!(steps(&line).is_empty());
    assert!(line["proof"].as_str().unwrap().contains("rule of three"));
    let (status, stdout, _) = run(&["solve", "--game", "peg", "--board", "triangle", "--count"]);
    assert_eq!(status, 0);
    assert!(stdout.contains("solved in 13 jumps"), "{stdout}");
    let line = json(&[
        "solve", "--game", "peg", "--board", "triangle", "--count", "--json",
    ]);
    let counted = line["solutions"].as_u64().unwrap();
    assert!(counted > 0);
    assert!(stdout.contains(&format!("{counted} solutions")), "{stdout}");
}

#[test]
fn bad_input_gets_one_message() {
    for (args, says) in [
        (vec!["--board", "hexagon"], "unknown board `hexagon`"),
        (vec!["--board", "english", "--start", "a1"], "no hole `a1`"),
        (
            vec!["--board", "english", "--end", "z9"],
            "--end takes start, any or a hole",
        ),
        (vec![], "needs a board"),
    ] {
        let mut all = vec!["solve", "--game", "peg"];
        all.extend(args);
        let (status, stdout, stderr) = run(&all);
        assert_eq!(status, 2, "{all:?}");
        assert!(stdout.is_empty());
        assert!(stderr.contains(says), "{all:?}: {stderr}");
    }
    let (status, _, stderr) = run(&["table", "--game", "peg"]);
    assert_eq!(status, 2);
    assert!(
        stderr.contains("peg solitaire is a puzzle to solve"),
        "{stderr}"
    );
    let (status, _, stderr) = run(&["solve", "--board", "english"]);
    assert_eq!(status, 2);
    assert!(stderr.contains("add --game peg"), "{stderr}");
}
