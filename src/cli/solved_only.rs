//! What `solve` does the same way for the games that are solved only (Spider, Klondike): read the
//! deal files or a batch file with the game's own parser, solve them on several threads, print
//! each answer as soon as it is known and in order, and end a batch with its summary on stderr.

use super::decks::read_text;
use super::solve::{bar, in_order, Stats};
use super::{CliResult, Failure};
use std::io::{IsTerminal, Write};
use std::time::Instant;

/// A deal and where it came from.
pub struct Named<D> {
    pub source: String,
    pub deck: D,
}

/// A solver's steps as text, each line checked by the game's rules (`replay`) before anyone sees
/// it: a line that does not replay is an internal error, never printed.
pub fn replayed<S: ToString>(
    steps: Option<&Vec<S>>,
    replay: impl Fn(&[String]) -> Result<(), String>,
) -> Result<Option<Vec<String>>, String> {
    let steps: Option<Vec<String>> = steps.map(|s| s.iter().map(ToString::to_string).collect());
    if let Some(steps) = &steps {
        replay(steps).map_err(|e| format!("internal error: the solution does not replay: {e}"))?;
    }
    Ok(steps)
}

/// How one deal ended.
pub enum Outcome {
    Won,
    NoneWins,
    Undecided,
}

impl Outcome {
    /// A deal with a winning line, or decided without one, or neither.
    pub fn of(won: bool, decided: bool) -> Outcome {
        match (won, decided) {
            (true, _) => Outcome::Won,
            (false, true) => Outcome::NoneWins,
            (false, false) => Outcome::Undecided,
        }
    }
}

/// The deals of `files`, or one per line of the `batch` file (its first tab-separated column;
/// blank and `#` lines skipped), read with `parse`; every error named with its file and line.
pub fn read_deals<D>(
    files: &[String],
    batch: Option<&str>,
    game: &str,
    parse: impl Fn(&str) -> Result<D, String>,
) -> Result<Vec<Named<D>>, Failure> {
    let mut decks = Vec::new();
    let mut errors = Vec::new();
    match batch {
        Some(_) if !files.is_empty() => {
            return Err(Failure::input(
                "give either deck files or --batch FILE, not both",
            ))
        }
        Some(path) => {
            let text = read_text(path)?;
            for (n, line) in text.lines().enumerate() {
                let first = line.split('\t').next().unwrap_or("");
                if first.trim().is_empty() || first.trim_start().starts_with('#') {
                    continue;
                }
                match parse(first) {
                    Ok(deck) => decks.push(Named {
                        source: format!("{path}:{}", n + 1),
                        deck,
                    }),
                    Err(e) => errors.push(format!("{path}: line {}: {e}", n + 1)),
                }
            }
            if decks.is_empty() && errors.is_empty() {
                errors.push(format!("{path}: no deck in the file"));
            }
        }
        None if files.is_empty() => {
            return Err(Failure::input(format!(
                "no deck given: solve --game {game} FILE... or --batch FILE (see --help)"
            )))
        }
        None => {
            for path in files {
                match read_text(path).and_then(|t| parse(&t).map_err(Failure::input)) {
                    Ok(deck) => decks.push(Named {
                        source: path.clone(),
                        deck,
                    }),
                    Err(e) => errors.push(format!("{path}: {}", e.message)),
                }
            }
        }
    }
    if errors.is_empty() {
        Ok(decks)
    } else {
        errors.truncate(10);
        Err(Failure::input(errors.join("\n")))
    }
}

/// Solves every deal with `work` on `threads` threads and prints each answer with `print` in the
/// deals' order as soon as it is known; `outcome` says how a deal ended and its solver time in
/// ms. A batch shows a progress bar on a terminal and ends with its summary. Exit status 1 when
/// `work` failed on a deal (a line that does not replay).
pub fn solve_all<D: Sync, S: Send>(
    decks: &[Named<D>],
    batch: bool,
    threads: usize,
    work: impl Fn(&Named<D>) -> Result<S, String> + Sync,
    outcome: impl Fn(&S) -> (Outcome, f64),
    print: impl Fn(&Named<D>, &S) -> String,
) -> CliResult {
    let progress = batch && std::io::stderr().is_terminal();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let wall = Instant::now();
    let (mut millis, mut won, mut none, mut wrong) = (Vec::new(), 0, 0, Vec::new());
    in_order(decks, threads, work, |i, result| {
        let named = &decks[i];
        let solved = match result {
            Ok(s) => s,
            Err(e) => {
                wrong.push(format!("{}: {e}", named.source));
                return;
            }
        };
        let (how, ms) = outcome(&solved);
        millis.push(ms);
        match how {
            Outcome::Won => won += 1,
            Outcome::NoneWins => none += 1,
            Outcome::Undecided => {}
        }
        // Each answer goes out as soon as it is known; a closed pipe (`| head`) is no panic.
        let _ = writeln!(out, "{}", print(named, &solved));
        let _ = out.flush();
        if progress {
            eprint!("\r{} {}/{}", bar(i + 1, decks.len()), i + 1, decks.len());
        }
    });
    if batch {
        if progress {
            eprintln!();
        }
        let stats = Stats::of(&millis);
        eprintln!(
            "{} decks, {won} solved, {none} proved unsolvable, {} undecided; solver time total {:.2} s, mean {:.2} ms, median {:.2} ms, max {:.2} ms; wall {:.2} s",
            millis.len(),
            millis.len() - won - none,
            stats.total / 1000.0,
            stats.mean,
            stats.median,
            stats.max,
            wall.elapsed().as_secs_f64()
        );
    }
    if wrong.is_empty() {
        Ok(())
    } else {
        Err(Failure {
            message: wrong.join("\n"),
            status: 1,
        })
    }
}

/// What a bench row counts over seeded deals.
#[derive(Default)]
pub struct Tally {
    pub won: usize,
    pub none: usize,
    pub undecided: usize,
    /// Steps of the winning lines, all together.
    pub steps: usize,
    /// Solver time of each deal, in ms.
    pub millis: Vec<f64>,
}

impl Tally {
    /// Mean steps of a winning line.
    pub fn mean_steps(&self) -> f64 {
        self.steps as f64 / self.won.max(1) as f64
    }
}

/// Seeded deals 1..=`seeds` solved with `work` on `pool` and counted; `judge` gives a deal's
/// outcome, its line's steps and its solver time. A deal whose line does not replay is named in
/// `failures` with `label`. Also gives the answers, for the game's own columns.
pub fn tally_seeds<S: Send>(
    pool: &rayon::ThreadPool,
    seeds: u64,
    work: impl Fn(u64) -> Result<S, String> + Sync,
    judge: impl Fn(&S) -> (Outcome, usize, f64),
    label: &str,
    failures: &mut Vec<String>,
) -> (Tally, Vec<S>) {
    use rayon::prelude::*;
    let answers: Vec<Result<S, String>> =
        pool.install(|| (1..=seeds).into_par_iter().map(&work).collect());
    let mut tally = Tally::default();
    let mut kept = Vec::new();
    for (seed, answer) in (1..=seeds).zip(answers) {
        match answer {
            Err(e) => failures.push(format!("{label}, seed {seed}: {e}")),
            Ok(s) => {
                let (how, steps, ms) = judge(&s);
                tally.millis.push(ms);
                match how {
                    Outcome::Won => {
                        tally.won += 1;
                        tally.steps += steps;
                    }
                    Outcome::NoneWins => tally.none += 1,
                    Outcome::Undecided => tally.undecided += 1,
                }
                kept.push(s);
            }
        }
    }
    (tally, kept)
}
