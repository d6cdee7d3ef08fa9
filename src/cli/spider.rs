//! `solve --game spider`, `deal --game spider` and `bench --game spider`: Spider with every card
//! known. `solve` prints a solution, proof that none exists, or that the search ran out of room
//! (the JSON line is the card games' contract, with `suits` and `decided`); `deal` prints a seeded
//! deal as a deck file; `bench` decides seeded deals for each number of suits and prints a table.
//! Every solution is replayed through the rules before it is printed or counted.

use super::bench::end_with_replays;
use super::solve::{Contract, Stats};
use super::solved_only::{read_deals, replayed, solve_all, tally_seeds, Outcome};
use super::CliResult;
use crate::games::spider::{rules, solver, SpiderDeck, Suits};
use std::io::Write;
use std::time::Instant;

/// What `solve --game spider` was given.
pub struct SpiderArgs {
    pub files: Vec<String>,
    pub batch: Option<String>,
    pub json: bool,
    pub suits: Option<Suits>,
    /// Positions searched before a deal is called undecided.
    pub budget: u64,
    pub threads: usize,
}

/// One deal's answer, its steps as text and checked by the rules.
struct Solved {
    answer: solver::Answer,
    steps: Option<Vec<String>>,
}

fn solve_checked(deck: &SpiderDeck, budget: u64) -> Result<Solved, String> {
    let answer = solver::solve_within(deck, budget);
    let steps = replayed(answer.steps.as_ref(), |s| rules::replay(deck, s))?;
    Ok(Solved { answer, steps })
}

/// One deal's answer as a JSON line: the contract, then the suits and whether it was decided.
#[derive(serde::Serialize)]
struct JsonAnswer {
    #[serde(flatten)]
    contract: Contract,
    suits: usize,
    decided: bool,
    version: &'static str,
}

pub fn solve(args: SpiderArgs) -> CliResult {
    let decks = read_deals(&args.files, args.batch.as_deref(), "spider", |t| {
        SpiderDeck::parse(t, args.suits)
    })?;
    solve_all(
        &decks,
        args.batch.is_some(),
        args.threads,
        |d| solve_checked(&d.deck, args.budget),
        |s| {
            let how = Outcome::of(s.steps.is_some(), s.answer.decided);
            (how, s.answer.millis)
        },
        |named, solved| {
            let a = &solved.answer;
            if !args.json {
                return text_report(&named.source, solved, args.budget);
            }
            let line = JsonAnswer {
                contract: Contract::new(
                    named.deck.to_string(),
                    solved.steps.clone(),
                    a.states,
                    a.millis,
                ),
                suits: named.deck.suits.count(),
                decided: a.decided,
                version: crate::VERSION,
            };
            serde_json::to_string(&line).expect("an answer serialises")
        },
    )
}

fn text_report(source: &str, solved: &Solved, budget: u64) -> String {
    let a = &solved.answer;
    let stats = format!("{} positions, {:.1} ms", a.states, a.millis);
    match (&solved.steps, a.decided) {
        (Some(steps), _) => {
            let mut text = format!("{source}: solved in {} steps ({stats})", steps.len());
            for (i, step) in steps.iter().enumerate() {
                text.push_str(&format!("\n{:4}. {step}", i + 1));
            }
            text
        }
        (None, true) => format!("{source}: no solution exists (every line searched; {stats})"),
        (None, false) => format!(
            "{source}: undecided: no solution found within {budget} positions, and none ruled out ({stats})"
        ),
    }
}

/// `deal --game spider --seed N`: the seeded deal as a deck file.
pub fn deal(seed: u64, suits: Option<Suits>) -> CliResult {
    print!(
        "{}",
        SpiderDeck::shuffled(seed, suits.unwrap_or(Suits::Four)).layout()
    );
    Ok(())
}

/// `bench --game spider`: seeded deals 1..=N for each number of suits (or the one given),
/// decided on `threads` threads, in a table.
pub fn bench(seeds: u64, suits: Option<Suits>, budget: u64, threads: usize) -> CliResult {
    let all = [Suits::One, Suits::Two, Suits::Four];
    let chosen: Vec<Suits> = match suits {
        Some(s) => vec![s],
        None => all.to_vec(),
    };
    println!("Spider benchmark: seeded deals 1-{seeds} (deal --game spider --seed N), every card known, budget {budget} positions, {threads} threads");
    println!();
    println!("| suits | deals | solved | proved unsolvable | undecided | mean ms | median ms | worst ms | mean steps |");
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool");
    let mut failures = Vec::new();
    let began = Instant::now();
    for suits in chosen {
        let (t, _) = tally_seeds(
            &pool,
            seeds,
            |seed| solve_checked(&SpiderDeck::shuffled(seed, suits), budget),
            judge,
            &format!("{} suits", suits.count()),
            &mut failures,
        );
        let stats = Stats::of(&t.millis);
        println!(
            "| {} | {seeds} | {} | {} | {} | {:.0} | {:.0} | {:.0} | {:.0} |",
            suits.count(),
            t.won,
            t.none,
            t.undecided,
            stats.mean,
            stats.median,
            stats.max,
            t.mean_steps()
        );
        let _ = std::io::stdout().flush();
    }
    println!();
    println!("wall {:.1} s", began.elapsed().as_secs_f64());
    end_with_replays(&failures)
}

/// A deal's outcome, its line's steps and its solver time, for the bench.
fn judge(s: &Solved) -> (Outcome, usize, f64) {
    let how = Outcome::of(s.steps.is_some(), s.answer.decided);
    (how, s.steps.as_ref().map_or(0, Vec::len), s.answer.millis)
}
