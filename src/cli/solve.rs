//! `solitaire-agent solve`: solve deck files or a batch file, as text or JSON lines (a contract:
//! outside checks read this output).

use super::decks::{read_batch, read_deck_files, NamedDeck};
use super::{CliResult, Failure};
use crate::games::{Answer, Game};
use std::io::{IsTerminal, Write};
use std::sync::mpsc;

pub struct SolveArgs {
    pub game: &'static dyn Game,
    pub files: Vec<String>,
    pub batch: Option<String>,
    pub json: bool,
    pub threads: usize,
    /// The goal, as `--goal` names it (`board` by default).
    pub goal: String,
}

pub fn run(args: SolveArgs) -> CliResult {
    args.game.check_goal(&args.goal).map_err(Failure::input)?;
    let decks = match &args.batch {
        Some(path) => {
            if !args.files.is_empty() {
                return Err(Failure::input(
                    "give either deck files or --batch FILE, not both",
                ));
            }
            read_batch(path)?
        }
        None if args.files.is_empty() => {
            return Err(Failure::input(
                "no deck given: solve FILE... or solve --batch FILE (see --help)",
            ))
        }
        None => read_deck_files(&args.files)?,
    };
    let progress = args.batch.is_some() && std::io::stderr().is_terminal();
    let mut times = Vec::with_capacity(decks.len());
    let mut solvable = 0;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let wall = std::time::Instant::now();
    solve_in_order(
        args.game,
        &args.goal,
        &decks,
        args.threads,
        |i, solution| {
            let deck = &decks[i];
            times.push(solution.millis);
            solvable += solution.is_solvable() as usize;
            let text = if args.json {
                json_line(deck, &solution)
            } else {
                text_report(deck, &solution)
            };
            // Each answer goes out as soon as it is known; a closed pipe (`| head`) is no panic.
            let _ = writeln!(out, "{text}");
            let _ = out.flush();
            if progress {
                eprint!(
                    "\r{} {}/{}",
                    bar(times.len(), decks.len()),
                    times.len(),
                    decks.len()
                );
            }
        },
    );
    let _ = out.flush();
    if args.batch.is_some() {
        if progress {
            eprintln!();
        }
        eprintln!(
            "{}",
            summary(&times, solvable, wall.elapsed().as_secs_f64())
        );
    }
    Ok(())
}

/// Solves every deck on `threads` threads and hands the answers over in input order.
pub fn solve_in_order(
    game: &dyn Game,
    goal: &str,
    decks: &[NamedDeck],
    threads: usize,
    each: impl FnMut(usize, Answer),
) {
    in_order(decks, threads, |d| game.solve_goal(&d.deck, goal), each)
}

/// Works on every item on `threads` threads and hands the results over in input order, each as
/// soon as it and those before it are done.
pub fn in_order<I: Sync, A: Send>(
    items: &[I],
    threads: usize,
    work: impl Fn(&I) -> A + Sync,
    mut each: impl FnMut(usize, A),
) {
    use rayon::prelude::*;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool");
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|scope| {
        let work = &work;
        scope.spawn(move || {
            pool.install(|| {
                items
                    .par_iter()
                    .enumerate()
                    .for_each_with(tx, |tx, (i, item)| {
                        let _ = tx.send((i, work(item)));
                    })
            })
        });
        let mut waiting = std::collections::BTreeMap::new();
        let mut next = 0;
        for (i, result) in rx {
            waiting.insert(i, result);
            while let Some(result) = waiting.remove(&next) {
                each(next, result);
                next += 1;
            }
        }
    });
}

/// The fields of the JSON line's contract, in its order (every game's `solve --json` starts so).
#[derive(serde::Serialize)]
pub struct Contract {
    pub deck: String,
    pub solvable: bool,
    pub length: Option<usize>,
    pub steps: Vec<String>,
    pub states: u64,
    /// Rounded to the microsecond.
    pub millis: f64,
}

impl Contract {
    pub fn new(deck: String, steps: Option<Vec<String>>, states: u64, millis: f64) -> Contract {
        Contract {
            deck,
            solvable: steps.is_some(),
            length: steps.as_ref().map(Vec::len),
            steps: steps.unwrap_or_default(),
            states,
            millis: (millis * 1000.0).round() / 1000.0,
        }
    }
}

/// One deck's answer as a JSON line.
#[derive(serde::Serialize)]
struct JsonAnswer {
    #[serde(flatten)]
    contract: Contract,
    /// The goal and what the steps earn (games with goals).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    goal: Option<crate::games::GoalReport>,
    /// The build that answered (`VERSION`).
    version: &'static str,
}

/// The JSON line of the contract.
pub fn json_line(deck: &NamedDeck, solution: &Answer) -> String {
    let answer = JsonAnswer {
        contract: Contract::new(
            deck.deck.to_string(),
            solution.steps.clone(),
            solution.states,
            solution.millis,
        ),
        goal: solution.goal.clone(),
        version: crate::VERSION,
    };
    serde_json::to_string(&answer).expect("an answer serialises")
}

/// The human-readable report: the length and numbered steps, or that no solution exists; with a
/// goal, what the steps earn, and the best line when the goal cannot be met.
pub fn text_report(deck: &NamedDeck, solution: &Answer) -> String {
    let stats = format!("{} states, {:.1} ms", solution.states, solution.millis);
    let numbered = |text: &mut String, steps: &[String]| {
        for (i, step) in steps.iter().enumerate() {
            text.push_str(&format!("\n{:4}. {step}", i + 1));
        }
    };
    let earns = |score: u32, cards: Option<u32>| match cards {
        Some(c) => format!("{score} points, {c} cards of the rank"),
        None => format!("{score} points"),
    };
    let goal = solution.goal.as_ref().filter(|g| g.goal != "board");
    match (&solution.steps, goal) {
        (None, None) => format!("{}: no solution exists ({stats})", deck.source),
        (Some(steps), None) => {
            let mut text = format!("{}: solved in {} steps ({stats})", deck.source, steps.len());
            numbered(&mut text, steps);
            text
        }
        (Some(steps), Some(g)) => {
            let mut text = format!(
                "{}: {} met in {} steps, {} ({stats})",
                deck.source,
                g.goal,
                steps.len(),
                earns(g.score, g.cards)
            );
            numbered(&mut text, steps);
            text
        }
        (None, Some(g)) => {
            let mut text = format!("{}: {} cannot be met ({stats})", deck.source, g.goal);
            if let Some(best) = &g.best {
                text.push_str(&format!(
                    "\nthe best the deal allows: {} in {} steps",
                    earns(best.score, best.cards),
                    best.length
                ));
                numbered(&mut text, &best.steps);
            }
            text
        }
    }
}

/// A progress bar of `done` of `total`.
pub fn bar(done: usize, total: usize) -> String {
    let width = 30;
    let filled = done * width / total.max(1);
    format!("[{}{}]", "#".repeat(filled), " ".repeat(width - filled))
}

/// The batch summary: solvable count and total, mean, median and max time.
pub fn summary(millis: &[f64], solvable: usize, wall_secs: f64) -> String {
    let stats = Stats::of(millis);
    format!(
        "{} decks, {} solvable, {} unsolvable; solver time total {:.2} s, mean {:.2} ms, median {:.2} ms, max {:.2} ms; wall {:.2} s",
        millis.len(),
        solvable,
        millis.len() - solvable,
        stats.total / 1000.0,
        stats.mean,
        stats.median,
        stats.max,
        wall_secs
    )
}

/// Order statistics of per-deck times in milliseconds.
pub struct Stats {
    pub total: f64,
    pub mean: f64,
    pub median: f64,
    pub p99: f64,
    pub max: f64,
}

impl Stats {
    pub fn of(millis: &[f64]) -> Stats {
        let mut sorted = millis.to_vec();
        sorted.sort_by(f64::total_cmp);
        let n = sorted.len().max(1);
        let at = |q: f64| {
            sorted
                .get(((n as f64 * q).ceil() as usize).saturating_sub(1))
                .copied()
                .unwrap_or(0.0)
        };
        let total: f64 = sorted.iter().sum();
        Stats {
            total,
            mean: total / n as f64,
            median: at(0.5),
            p99: at(0.99),
            max: at(1.0),
        }
    }
}
