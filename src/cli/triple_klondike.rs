//! `solve --game triple-klondike`, `deal --game triple-klondike` and `bench --game
//! triple-klondike`: seed 003's game with every card known. `solve` prints the shortest line the
//! beam finds with the bound below which none exists (the JSON line is the card games' contract,
//! with `bound` and `decided`), or that no line was found (undecided: a beam proves nothing);
//! `deal` prints one of the contest's 100 deals as a deck file; `bench` solves the contest's deals
//! and prints a table. Every line is replayed through the rules before it is printed or counted.

use super::bench::end_with_replays;
use super::solve::{Contract, Stats};
use super::solved_only::{read_deals, replayed, solve_all, tally_seeds, Outcome};
use super::{CliResult, Failure};
use crate::games::klondike::rules;
use crate::games::triple_klondike::deck::CONTEST_DEALS;
use crate::games::triple_klondike::solver::{self, WIDEST};
use crate::games::triple_klondike::TripleDeck;
use std::time::Instant;

/// What `solve --game triple-klondike` was given.
pub struct TripleArgs {
    pub files: Vec<String>,
    pub batch: Option<String>,
    pub json: bool,
    pub threads: usize,
}

/// One deal's answer, its steps as text and checked by the rules.
struct Solved {
    answer: solver::Answer,
    steps: Option<Vec<String>>,
}

fn solve_checked(deck: &TripleDeck) -> Result<Solved, String> {
    let answer = solver::solve(deck, WIDEST);
    let steps = replayed(answer.steps.as_ref(), |s| {
        rules::replay_from(deck.table(), s)
    })?;
    Ok(Solved { answer, steps })
}

/// One deal's answer as a JSON line: the contract, then whether a line was found, and the bound
/// below which no line wins.
#[derive(serde::Serialize)]
struct JsonAnswer {
    #[serde(flatten)]
    contract: Contract,
    decided: bool,
    bound: usize,
    version: &'static str,
}

pub fn solve(args: TripleArgs) -> CliResult {
    let decks = read_deals(
        &args.files,
        args.batch.as_deref(),
        "triple-klondike",
        TripleDeck::parse,
    )?;
    solve_all(
        &decks,
        args.batch.is_some(),
        args.threads,
        |d| solve_checked(&d.deck),
        |s| (Outcome::of(s.steps.is_some(), false), s.answer.millis),
        |named, solved| {
            let a = &solved.answer;
            if !args.json {
                return text_report(&named.source, solved);
            }
            let line = JsonAnswer {
                contract: Contract::new(
                    named.deck.to_string(),
                    solved.steps.clone(),
                    a.states,
                    a.millis,
                ),
                decided: solved.steps.is_some(),
                bound: a.bound,
                version: crate::VERSION,
            };
            serde_json::to_string(&line).expect("an answer serialises")
        },
    )
}

fn text_report(source: &str, solved: &Solved) -> String {
    let a = &solved.answer;
    let stats = format!("{} positions, {:.1} ms", a.states, a.millis);
    match &solved.steps {
        Some(steps) => {
            let how = if steps.len() == a.bound {
                "the fewest: it meets the bound".to_string()
            } else {
                format!("no line wins in under {}", a.bound)
            };
            let mut text = format!("{source}: won in {} steps; {how} ({stats})", steps.len());
            for (i, step) in steps.iter().enumerate() {
                text.push_str(&format!("\n{:4}. {step}", i + 1));
            }
            text
        }
        None => format!(
            "{source}: undecided: the beam ({WIDEST} positions a step) found no winning line, which proves nothing; no line wins in under {} steps ({stats})",
            a.bound
        ),
    }
}

/// `deal --game triple-klondike --seed N`: the contest's deal N as a deck file.
pub fn deal(seed: u64) -> CliResult {
    let deck = TripleDeck::contest(seed).map_err(Failure::input)?;
    print!("{}", deck.layout());
    Ok(())
}

/// `bench --game triple-klondike`: the contest's deals 1..=N solved on `threads` threads, in a
/// table.
pub fn bench(seeds: u64, threads: usize) -> CliResult {
    if !(1..=CONTEST_DEALS).contains(&seeds) {
        return Err(Failure::input(format!(
            "bench --game triple-klondike takes --seeds 1 to {CONTEST_DEALS} (the contest's deals)"
        )));
    }
    println!("Triple Klondike benchmark: the contest's deals 1-{seeds} (deal --game triple-klondike --seed N), every card known, beams up to {WIDEST} positions a step; {threads} threads");
    println!();
    println!(
        "| deals | won | undecided | mean steps | mean bound | mean ms | median ms | worst ms |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|");
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool");
    let mut failures = Vec::new();
    let began = Instant::now();
    let (t, answers) = tally_seeds(
        &pool,
        seeds,
        |seed| solve_checked(&TripleDeck::contest(seed)?),
        |s| {
            let how = Outcome::of(s.steps.is_some(), false);
            (how, s.steps.as_ref().map_or(0, Vec::len), s.answer.millis)
        },
        "triple-klondike",
        &mut failures,
    );
    let bounds: usize = answers.iter().map(|s| s.answer.bound).sum();
    let stats = Stats::of(&t.millis);
    println!(
        "| {seeds} | {} | {} | {:.1} | {:.1} | {:.0} | {:.0} | {:.0} |",
        t.won,
        t.undecided,
        t.mean_steps(),
        bounds as f64 / answers.len().max(1) as f64,
        stats.mean,
        stats.median,
        stats.max,
    );
    println!();
    println!("Per deal (steps, or - when undecided):");
    let lengths: Vec<String> = answers
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let len = s
                .steps
                .as_ref()
                .map_or("-".to_string(), |l| l.len().to_string());
            format!("{}:{len}", i + 1)
        })
        .collect();
    println!("{}", lengths.join(" "));
    println!();
    println!("wall {:.1} s", began.elapsed().as_secs_f64());
    end_with_replays(&failures)
}
