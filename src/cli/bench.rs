//! `solitaire-agent bench`: times a game's solver over deck files or seeded deals and prints a
//! table (mean, median, p99 and max per deck, states per second, peak memory), replays every
//! solution through the game's rules and checks lengths where a file gives them.

use super::decks::{read_batch, read_deck_files, NamedDeck};
use super::solve::{solve_in_order, Stats};
use super::{CliResult, Failure};
use crate::cards::Deck;
use crate::games::Game;

pub const DEFAULT_CORPUS: &str = "tests/data/decks/random-1500-optimal.tsv";

/// Seeded deals a game without a corpus is timed on.
pub const DEFAULT_SEEDS: u64 = 1000;

pub struct BenchArgs {
    pub game: &'static dyn Game,
    pub files: Vec<String>,
    /// Time seeded deals 1..=N instead of files.
    pub seeds: Option<u64>,
    pub threads: usize,
    /// The goal solved for (`board` by default); lengths in files are checked for `board` only.
    pub goal: String,
}

struct Row {
    millis: f64,
    states: u64,
    solvable: bool,
    peak_bytes: usize,
    /// Whether the file gave an expected length to check.
    checked: bool,
    mismatch: Option<String>,
    /// Why the solution did not replay to a cleared board, if it did not.
    replay: Option<String>,
}

pub fn run(args: BenchArgs) -> CliResult {
    args.game.check_goal(&args.goal).map_err(Failure::input)?;
    let board = args.goal.trim().eq_ignore_ascii_case("board");
    let seeds = match (args.seeds, args.files.is_empty(), args.game.name()) {
        (Some(_), false, _) => {
            return Err(Failure::input(
                "give either deck files or --seeds N, not both",
            ))
        }
        (Some(n), true, _) => Some(n),
        (None, true, "pyramid") => None,
        (None, true, _) => Some(DEFAULT_SEEDS),
        (None, false, _) => None,
    };
    let files = match seeds {
        Some(n) => vec![format!("seeded deals 1-{n}")],
        None if args.files.is_empty() => vec![DEFAULT_CORPUS.to_string()],
        None => args.files.clone(),
    };
    let mut decks: Vec<NamedDeck> = (1..=seeds.unwrap_or(0))
        .map(|seed| NamedDeck {
            source: format!("seed {seed}"),
            deck: Deck::shuffled(seed),
            extra: None,
        })
        .collect();
    for file in files.iter().filter(|_| seeds.is_none()) {
        // A batch file has one deck per line; otherwise the file is one deck in any layout.
        match read_batch(file) {
            Ok(batch) => decks.extend(batch),
            Err(batch_err) => match read_deck_files(std::slice::from_ref(file)) {
                Ok(one) => decks.extend(one),
                Err(_) => return Err(batch_err),
            },
        }
    }
    eprintln!(
        "solving {} {} decks on {} threads...",
        decks.len(),
        args.game.name(),
        args.threads
    );
    let mut rows = Vec::with_capacity(decks.len());
    let wall = std::time::Instant::now();
    solve_in_order(args.game, &args.goal, &decks, args.threads, |i, s| {
        let expected = decks[i]
            .extra
            .as_deref()
            .and_then(|e| e.parse::<usize>().ok())
            .filter(|_| board);
        let got = s.length().unwrap_or(0);
        let replay = s.steps.as_ref().and_then(|steps| {
            args.game
                .replay_goal(&decks[i].deck, steps, &args.goal)
                .err()
                .map(|e| format!("{}: {e}", decks[i].source))
        });
        rows.push(Row {
            replay,
            millis: s.millis,
            states: s.states,
            solvable: s.is_solvable(),
            peak_bytes: s.peak_bytes,
            checked: expected.is_some(),
            mismatch: expected
                .filter(|&e| e != got)
                .map(|e| format!("{}: expected {e}, got {got}", decks[i].source)),
        });
    });
    let wall = wall.elapsed().as_secs_f64();
    let slowest = rows
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.millis.total_cmp(&b.1.millis))
        .map(|(i, _)| i);

    println!(
        "Solver benchmark, {}, goal {}: {} ({} threads), wall time {:.2} s",
        args.game.name(),
        args.goal,
        files.join(", "),
        args.threads,
        wall
    );
    println!();
    println!(
        "| decks | count | mean ms | median ms | p99 ms | max ms | states/s | search memory max |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for (name, pick) in [
        ("all", None),
        (if board { "solvable" } else { "goal met" }, Some(true)),
        (
            if board { "unsolvable" } else { "goal not met" },
            Some(false),
        ),
    ] {
        let part: Vec<&Row> = rows
            .iter()
            .filter(|r| pick.is_none_or(|p| r.solvable == p))
            .collect();
        if part.is_empty() {
            continue;
        }
        let millis: Vec<f64> = part.iter().map(|r| r.millis).collect();
        let stats = Stats::of(&millis);
        let states: u64 = part.iter().map(|r| r.states).sum();
        let peak = part.iter().map(|r| r.peak_bytes).max().unwrap_or(0);
        println!(
            "| {name} | {} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} M | {} |",
            part.len(),
            stats.mean,
            stats.median,
            stats.p99,
            stats.max,
            states as f64 / (stats.total / 1000.0).max(1e-9) / 1e6,
            mib(peak)
        );
    }
    println!();
    if let Some(i) = slowest {
        println!(
            "slowest deck: {} ({:.2} ms, {} states)",
            decks[i].source, rows[i].millis, rows[i].states
        );
    }
    match peak_rss() {
        Some(bytes) => println!("peak memory of the process (VmHWM): {}", mib(bytes)),
        None => println!("peak memory of the process: not available on this system"),
    }
    let solved = rows.iter().filter(|r| r.solvable).count();
    let replay_failures: Vec<&String> = rows.iter().filter_map(|r| r.replay.as_ref()).collect();
    println!(
        "solutions replayed through the rules: {} of {solved} {}",
        solved - replay_failures.len(),
        if board {
            "clear the board".to_string()
        } else {
            format!("meet {}", args.goal)
        }
    );
    let mismatches: Vec<&String> = rows
        .iter()
        .filter_map(|r| r.mismatch.as_ref())
        .chain(replay_failures.iter().copied())
        .collect();
    let checked = rows.iter().filter(|r| r.checked).count();
    if checked > 0 {
        println!(
            "lengths checked against the file: {} of {checked} as expected",
            checked - mismatches.len()
        );
    }
    if !mismatches.is_empty() {
        for m in mismatches.iter().take(20) {
            eprintln!("MISMATCH {m}");
        }
        return Err(Failure {
            message: format!(
                "{} decks did not get their expected length or did not replay",
                mismatches.len()
            ),
            status: 1,
        });
    }
    Ok(())
}

/// The end of a bench that replays its solutions: the process's peak memory, whether every
/// solution replayed, and each one that did not (exit status 1 then).
pub fn end_with_replays(failures: &[String]) -> CliResult {
    match peak_rss() {
        Some(bytes) => println!("peak memory of the process (VmHWM): {}", mib(bytes)),
        None => println!("peak memory of the process: not available on this system"),
    }
    let all = failures.is_empty();
    println!(
        "solutions replayed through the rules: {}",
        if all { "all" } else { "NOT all" }
    );
    for f in failures {
        eprintln!("MISMATCH {f}");
    }
    if all {
        Ok(())
    } else {
        Err(Failure {
            message: format!("{} solutions did not replay", failures.len()),
            status: 1,
        })
    }
}

pub fn mib(bytes: usize) -> String {
    format!("{:.1} MiB", bytes as f64 / (1 << 20) as f64)
}

/// The process's peak resident memory, from /proc (Linux only).
pub fn peak_rss() -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}
