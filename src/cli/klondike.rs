//! `solve --game klondike`, `deal --game klondike` and `bench --game klondike`: Klondike with
//! every card known, Draw 1 or Draw 3. `solve` prints the fewest steps that win, a winning line
//! with the bound below which none is, proof that none exists, or that the search ran out of room
//! (the JSON line is the card games' contract, with `draw`, `decided`, `shortest` and `bound`);
//! `deal` prints a seeded deal as a deck file; `bench` decides seeded deals and prints a table.
//! Every line is replayed through the rules before it is printed or counted.

use super::bench::end_with_replays;
use super::solve::{Contract, Stats};
use super::solved_only::{read_deals, replayed, solve_all, tally_seeds, Outcome};
use super::CliResult;
use crate::games::klondike::solver::{self, Budget};
use crate::games::klondike::{rules, Draw, KlondikeDeck};
use std::io::Write;
use std::time::Instant;

/// What `solve --game klondike` was given.
pub struct KlondikeArgs {
    pub files: Vec<String>,
    pub batch: Option<String>,
    pub json: bool,
    pub draw: Draw,
    pub budget: Budget,
    pub threads: usize,
}

/// One deal's answer, its steps as text and checked by the rules.
struct Solved {
    answer: solver::Answer,
    steps: Option<Vec<String>>,
}

fn solve_checked(deck: &KlondikeDeck, draw: Draw, budget: Budget) -> Result<Solved, String> {
    let answer = solver::solve(deck, draw, budget);
    let steps = replayed(answer.steps.as_ref(), |s| rules::replay(deck, draw, s))?;
    Ok(Solved { answer, steps })
}

/// One deal's answer as a JSON line: the contract, then the draw, whether the deal was decided,
/// whether the line is proven shortest, and the bound below which no line wins.
#[derive(serde::Serialize)]
struct JsonAnswer {
    #[serde(flatten)]
    contract: Contract,
    draw: usize,
    decided: bool,
    shortest: bool,
    bound: u32,
    version: &'static str,
}

pub fn solve(args: KlondikeArgs) -> CliResult {
    let decks = read_deals(
        &args.files,
        args.batch.as_deref(),
        "klondike",
        KlondikeDeck::parse,
    )?;
    solve_all(
        &decks,
        args.batch.is_some(),
        args.threads,
        |d| solve_checked(&d.deck, args.draw, args.budget),
        |s| {
            let how = Outcome::of(s.steps.is_some(), s.answer.decided);
            (how, s.answer.millis)
        },
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
                draw: args.draw.count(),
                decided: a.decided,
                shortest: a.proven && a.steps.is_some(),
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
    match (&solved.steps, a.decided) {
        (Some(steps), _) => {
            let how = if a.proven {
                "the fewest steps".to_string()
            } else {
                format!("not proven the fewest: no line wins in under {}", a.bound)
            };
            let mut text = format!("{source}: won in {} steps, {how} ({stats})", steps.len());
            for (i, step) in steps.iter().enumerate() {
                text.push_str(&format!("\n{:4}. {step}", i + 1));
            }
            text
        }
        (None, true) => format!("{source}: no line wins (every line searched; {stats})"),
        (None, false) => format!(
            "{source}: undecided: no winning line found and none ruled out within the budget (--budget searches further); no line wins in under {} steps ({stats})",
            a.bound
        ),
    }
}

/// `deal --game klondike --seed N`: the seeded deal as a deck file.
pub fn deal(seed: u64) -> CliResult {
    print!("{}", KlondikeDeck::shuffled(seed).layout());
    Ok(())
}

/// `bench --game klondike`: seeded deals 1..=N for Draw 1 and Draw 3 (or the one given), decided
/// on `threads` threads, in a table.
pub fn bench(seeds: u64, draw: Option<Draw>, budget: Budget, threads: usize) -> CliResult {
    let chosen: Vec<Draw> = match draw {
        Some(d) => vec![d],
        None => vec![Draw::One, Draw::Three],
    };
    println!("Klondike benchmark: seeded deals 1-{seeds} (deal --game klondike --seed N), every card known, budgets: {} positions for the shortest line, {} for a short one, {} classes of positions to decide; {threads} threads", budget.shortest, budget.line, budget.decide);
    println!();
    println!("| draw | deals | won | shortest proven | proved unwinnable | undecided | mean ms | median ms | worst ms | mean steps |");
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool");
    let mut failures = Vec::new();
    let began = Instant::now();
    for draw in chosen {
        let (t, answers) = tally_seeds(
            &pool,
            seeds,
            |seed| solve_checked(&KlondikeDeck::shuffled(seed), draw, budget),
            judge,
            &format!("draw {}", draw.count()),
            &mut failures,
        );
        let proven = answers
            .iter()
            .filter(|s| s.steps.is_some() && s.answer.proven)
            .count();
        let stats = Stats::of(&t.millis);
        println!(
            "| {} | {seeds} | {} | {proven} | {} | {} | {:.0} | {:.0} | {:.0} | {:.1} |",
            draw.count(),
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

/// `bench --game klondike --learn`: the agent's learning (`learn::rehearse`) on seeded deals
/// 1..=N, for Draw 1 and Draw 3 (or the one given), on `threads` threads, in a table: deals seen
/// whole (and then won, or proved unwinnable, by the solver), deals given up (and of those, the
/// ones the solver proves unwinnable with every card known), steps played and undone, planning
/// time.
pub fn bench_learn(seeds: u64, draw: Option<Draw>, threads: usize) -> CliResult {
    use crate::games::klondike::learn::rehearse;
    use rayon::prelude::*;
    let chosen: Vec<Draw> = match draw {
        Some(d) => vec![d],
        None => vec![Draw::One, Draw::Three],
    };
    println!("Klondike agent's learning: seeded deals 1-{seeds} (deal --game klondike --seed N) played as the agent plays them to see their face-down cards, with the deal's cards as what it reads; the solver's default budgets after; {threads} threads");
    println!();
    println!("| draw | deals | seen whole | then won | then unwinnable | given up | given up, unwinnable | mean steps | mean undone | mean ms | worst ms |");
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool");
    let began = Instant::now();
    let mut failures = Vec::new();
    for draw in chosen {
        let rows: Vec<_> = pool.install(|| {
            (1..=seeds)
                .into_par_iter()
                .map(|seed| {
                    let deck = KlondikeDeck::shuffled(seed);
                    let r = rehearse(&deck, draw);
                    let answer = solver::solve(&deck, draw, Budget::default());
                    (seed, r, answer)
                })
                .collect()
        });
        let (mut whole, mut won, mut lost, mut given_up, mut given_up_lost) = (0, 0, 0, 0, 0);
        let (mut steps, mut undone, mut millis) = (0, 0, Vec::new());
        for (seed, r, answer) in rows {
            let r = match r {
                Ok(r) => r,
                Err(why) => {
                    failures.push(format!("draw {} seed {seed}: {why}", draw.count()));
                    continue;
                }
            };
            let unwinnable = answer.decided && answer.steps.is_none();
            if r.seen == 52 {
                whole += 1;
                won += usize::from(answer.steps.is_some());
                lost += usize::from(unwinnable);
            } else {
                given_up += 1;
                given_up_lost += usize::from(unwinnable);
            }
            steps += r.steps;
            undone += r.undone;
            millis.push(r.millis);
        }
        let n = millis.len().max(1) as f64;
        let stats = Stats::of(&millis);
        println!(
            "| {} | {seeds} | {whole} | {won} | {lost} | {given_up} | {given_up_lost} | {:.1} | {:.1} | {:.0} | {:.0} |",
            draw.count(),
            steps as f64 / n,
            undone as f64 / n,
            stats.mean,
            stats.max
        );
        let _ = std::io::stdout().flush();
    }
    println!();
    println!("wall {:.1} s", began.elapsed().as_secs_f64());
    if failures.is_empty() {
        Ok(())
    } else {
        Err(super::Failure {
            message: format!("lines not legal in the deal:\n{}", failures.join("\n")),
            status: 1,
        })
    }
}
