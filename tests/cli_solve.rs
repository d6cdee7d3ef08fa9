//! The `solve` command's contract, run as a user would: text and JSON output, batch files, and
//! bad input refused with one clear message, exit status 2 and nothing on stdout.

mod common;

use solitaire_agent::cards::Deck;
use solitaire_agent::games::pyramid::{State, Step};

use common::run_cli as run;

fn path(name: &str) -> String {
    common::deck_path(name).to_str().unwrap().to_string()
}

#[test]
fn invalid_decks_get_one_clear_message_and_exit_2() {
    for (name, must_name) in [
        (
            "malformed-deck.txt",
            vec!["malformed", "`J`", "missing cards: Jd"],
        ),
        ("missing-cards.txt", vec!["missing cards: Jd Qs"]),
        (
            "too-many-cards.txt",
            vec!["duplicated cards: 3c", "53 cards"],
        ),
    ] {
        let (status, stdout, stderr) = run(&["solve", &path(name)]);
        assert_eq!(status, 2, "{name}");
        assert!(stdout.is_empty(), "{name}: stdout {stdout:?}");
        assert_eq!(stderr.lines().count(), 1, "{name}: {stderr}");
        for text in must_name {
            assert!(stderr.contains(text), "{name}: {stderr:?} lacks {text:?}");
        }
        assert!(
            stderr.contains(name),
            "the message names the file: {stderr}"
        );
    }
    let (status, stdout, stderr) = run(&["solve", "/no/such/deck.txt"]);
    assert_eq!((status, stdout.as_str()), (2, ""));
    assert!(stderr.contains("/no/such/deck.txt"));
}

#[test]
fn text_output_numbers_the_steps() {
    let (status, stdout, _) = run(&[
        "solve",
        &path("pyramid-winnable.txt"),
        &path("pyramid-unwinnable.txt"),
    ]);
    assert_eq!(status, 0);
    assert!(
        stdout.contains("pyramid-winnable.txt: solved in 40 steps"),
        "{stdout}"
    );
    assert!(stdout.contains("\n  40. "), "{stdout}");
    assert!(
        stdout.contains("pyramid-unwinnable.txt: no solution exists"),
        "{stdout}"
    );
}

#[test]
fn json_lines_follow_the_contract_and_replay() {
    let (status, stdout, _) = run(&[
        "solve",
        "--json",
        &path("pyramid-winnable.txt"),
        &path("pyramid-long-run.txt"),
    ]);
    assert_eq!(status, 0);
    let lines: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    let won = &lines[0];
    assert_eq!(won["solvable"], true);
    assert_eq!(won["length"], 40);
    assert!(won["states"].as_u64().unwrap() > 0 && won["millis"].as_f64().unwrap() > 0.0);
    // The build that answered, as `--version` names it: the package version and its commit.
    let (status, printed, _) = run(&["--version"]);
    assert_eq!(status, 0);
    let version = won["version"].as_str().unwrap();
    assert_eq!(printed.trim(), format!("solitaire-agent {version}"));
    assert!(version.starts_with(env!("CARGO_PKG_VERSION")), "{version}");
    assert!(version.ends_with(')') && version.len() > env!("CARGO_PKG_VERSION").len() + 3);
    let deck = Deck::parse(won["deck"].as_str().unwrap()).unwrap();
    assert_eq!(deck, common::read_deck("pyramid-winnable.txt"));
    let steps: Vec<Step> = won["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().parse().unwrap())
        .collect();
    assert_eq!(steps.len(), 40);
    common::assert_clears(&State::deal(&deck), &steps);
    let lost = &lines[1];
    assert_eq!(
        (lost["solvable"].clone(), lost["length"].clone()),
        (false.into(), serde_json::Value::Null)
    );
    assert_eq!(lost["steps"], serde_json::json!([]));
}

#[test]
fn batch_reads_the_first_column_and_summarises_on_stderr() {
    let dir = std::env::temp_dir().join(format!("sa-batch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("batch.tsv");
    let corpus = std::fs::read_to_string(path("random-1500-optimal.tsv")).unwrap();
    let first: Vec<&str> = corpus.lines().take(6).collect();
    std::fs::write(&file, first.join("\n") + "\n").unwrap();
    let (status, stdout, stderr) = run(&["solve", "--batch", file.to_str().unwrap(), "--json"]);
    assert_eq!(status, 0, "{stderr}");
    let lines: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 6);
    for (line, json) in first.iter().zip(&lines) {
        let (deck, expected) = line.split_once('\t').unwrap();
        assert_eq!(json["deck"], Deck::parse(deck).unwrap().to_string());
        assert_eq!(
            json["length"].as_u64().unwrap_or(0),
            expected.parse::<u64>().unwrap()
        );
    }
    let solvable = first.iter().filter(|l| !l.ends_with("\t0")).count();
    assert!(
        stderr.contains(&format!("6 decks, {solvable} solvable")),
        "{stderr}"
    );
    assert!(
        stderr.contains("median") && stderr.contains("max"),
        "{stderr}"
    );

    // A bad line is named with its line number, and nothing is solved.
    std::fs::write(&file, format!("{}\nAs Ks\n", first[0])).unwrap();
    let (status, stdout, stderr) = run(&["solve", "--batch", file.to_str().unwrap(), "--json"]);
    assert_eq!((status, stdout.as_str()), (2, ""));
    assert!(stderr.contains("line 2"), "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}

/// `solve --goal` (a contract): the JSON line adds `goal` and `score` (and `cards` for a rank,
/// `best` when the goal cannot be met); lines replay through the rules' scoring; bad goals exit 2.
#[test]
fn goals_add_goal_and_score_and_the_best_line_when_out_of_reach() {
    use solitaire_agent::games::pyramid::score::tally;
    let deck_file = path("pyramid-winnable.txt");
    let deal = State::deal(&common::read_deck("pyramid-winnable.txt"));
    let parse = |v: &serde_json::Value| -> Vec<Step> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().parse().unwrap())
            .collect()
    };
    let json = |goal: &str| -> serde_json::Value {
        let (status, stdout, stderr) = run(&["solve", "--json", "--goal", goal, &deck_file]);
        assert_eq!(status, 0, "{stderr}");
        serde_json::from_str(stdout.trim()).unwrap()
    };
    let board = json("board");
    assert_eq!(
        (board["goal"].as_str(), board["length"].as_u64()),
        (Some("board"), Some(40))
    );
    let score = json("score:400");
    assert_eq!(score["goal"], "score:400");
    let steps = parse(&score["steps"]);
    let (_, earned) = tally(&deal, &steps).unwrap();
    assert!(earned.points >= 400);
    assert_eq!(score["score"].as_u64(), Some(earned.points as u64));
    assert_eq!(score["length"].as_u64(), Some(steps.len() as u64));
    let aces = json("clear:A:4");
    let (_, earned) = tally(&deal, &parse(&aces["steps"])).unwrap();
    assert_eq!((aces["cards"].as_u64(), earned.of_value(1)), (Some(4), 4));
    // More than the deal can give: not solvable, and the highest score instead.
    let max = json("max-score");
    let most = max["score"].as_u64().unwrap();
    let beyond = json(&format!("score:{}", most + 5));
    assert_eq!(
        (beyond["solvable"].as_bool(), beyond["score"].as_u64()),
        (Some(false), Some(0))
    );
    assert_eq!(beyond["best"]["score"].as_u64(), Some(most));
    let best = parse(&beyond["best"]["steps"]);
    assert_eq!(beyond["best"]["length"].as_u64(), Some(best.len() as u64));
    assert_eq!(tally(&deal, &best).unwrap().1.points as u64, most);
    // Text output says the same in words.
    let (_, text, _) = run(&[
        "solve",
        "--goal",
        &format!("score:{}", most + 5),
        &deck_file,
    ]);
    assert!(
        text.contains("cannot be met") && text.contains(&format!("{most} points")),
        "{text}"
    );
    for (args, says) in [
        (
            vec!["solve", "--goal", "score:x", &deck_file],
            "`x` is not a number",
        ),
        (
            vec![
                "solve", "--game", "tripeaks", "--goal", "score:5", &deck_file,
            ],
            "only the board goal",
        ),
    ] {
        let (status, stdout, stderr) = run(&args);
        assert_eq!(status, 2, "{args:?}");
        assert!(stdout.is_empty() && stderr.contains(says), "{stderr}");
    }
}
