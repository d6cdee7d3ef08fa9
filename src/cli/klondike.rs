//! `solve --game klondike`, `deal --game klondike` and `bench --game klondike`: Klondike with
//! every card known, Draw 1 or Draw 3. `solve` prints the fewest steps that win, a winning line
//! with the bound below which none is, proof that none exists, or that the search ran out of room
//! (the JSON line is the card games' contract, with `draw`, `decided`, `shortest` and `bound`);
//! `deal` prints a seeded deal as a deck file; `bench` decides seeded deals and prints a table.
//! Every line is replayed through the rules before it is printed or counted.

use super::bench::end_with_replays;
use super::decks::read_text;
use super::solve::{bar, in_order, Contract, Stats};
use super::{CliResult, Failure};
use crate::games::klondike::solver::{self, Budget};
use crate::games::klondike::{rules, Draw, KlondikeDeck};
use rayon::prelude::*;
use std::io::{IsTerminal, Write};
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

/// A deck and where it came from.
struct Named {
    source: String,
    deck: KlondikeDeck,
}

/// One deal's answer, its steps as text and checked by the rules.
struct Solved {
    answer: solver::Answer,
    steps: Option<Vec<String>>,
}

fn solve_checked(deck: &KlondikeDeck, draw: Draw, budget: Budget) -> Result<Solved, String> {
    let answer = solver::solve(deck, draw, budget);
    let steps: Option<Vec<String>> = answer
        .steps
        .as_ref()
        .map(|s| s.iter().map(ToString::to_string).collect());
    if let Some(steps) = &steps {
        rules::replay(deck, draw, steps)
            .map_err(|e| format!("internal error: the solution does not replay: {e}"))?;
    }
    Ok(Solved { answer, steps })
}

fn read_decks(args: &KlondikeArgs) -> Result<Vec<Named>, Failure> {
    let mut decks = Vec::new();
    let mut errors = Vec::new();
    match &args.batch {
        Some(_) if !args.files.is_empty() => {
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
                match KlondikeDeck::parse(first) {
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
        None if args.files.is_empty() => {
            return Err(Failure::input(
                "no deck given: solve --game klondike FILE... or --batch FILE (see --help)",
            ))
        }
        None => {
            for path in &args.files {
                match read_text(path).and_then(|t| KlondikeDeck::parse(&t).map_err(Failure::input))
                {
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
    let decks = read_decks(&args)?;
    let progress = args.batch.is_some() && std::io::stderr().is_terminal();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let wall = Instant::now();
    let (mut millis, mut solved, mut none, mut wrong) = (Vec::new(), 0, 0, Vec::new());
    let work = |d: &Named| solve_checked(&d.deck, args.draw, args.budget);
    in_order(&decks, args.threads, work, |i, result| {
        let named = &decks[i];
        let solved_deal = match result {
            Ok(s) => s,
            Err(e) => {
                wrong.push(format!("{}: {e}", named.source));
                return;
            }
        };
        let a = &solved_deal.answer;
        millis.push(a.millis);
        match (&solved_deal.steps, a.decided) {
            (Some(_), _) => solved += 1,
            (None, true) => none += 1,
            (None, false) => {}
        }
        let text = if args.json {
            let line = JsonAnswer {
                contract: Contract::new(
                    named.deck.to_string(),
                    solved_deal.steps.clone(),
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
        } else {
            text_report(&named.source, &solved_deal)
        };
        // Each answer goes out as soon as it is known; a closed pipe (`| head`) is no panic.
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
        if progress {
            eprint!("\r{} {}/{}", bar(i + 1, decks.len()), i + 1, decks.len());
        }
    });
    if args.batch.is_some() {
        if progress {
            eprintln!();
        }
        let stats = Stats::of(&millis);
        eprintln!(
            "{} decks, {solved} solved, {none} proved unsolvable, {} undecided; solver time total {:.2} s, mean {:.2} ms, median {:.2} ms, max {:.2} ms; wall {:.2} s",
            millis.len(),
            millis.len() - solved - none,
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
            "{source}: undecided: no winning line found and none ruled out within the budget; no line wins in under {} steps ({stats})",
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
    println!("Klondike benchmark: seeded deals 1-{seeds} (deal --game klondike --seed N), every card known, budgets (positions): {} for the shortest line, {} for a short one, {} to decide; {threads} threads", budget.shortest, budget.line, budget.decide);
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
        let answers: Vec<Result<Solved, String>> = pool.install(|| {
            (1..=seeds)
                .into_par_iter()
                .map(|seed| solve_checked(&KlondikeDeck::shuffled(seed), draw, budget))
                .collect()
        });
        let (mut won, mut proven, mut none, mut undecided, mut steps) = (0, 0, 0, 0, 0usize);
        let mut millis = Vec::new();
        for (seed, answer) in (1..=seeds).zip(answers) {
            match answer {
                Err(e) => failures.push(format!("draw {}, seed {seed}: {e}", draw.count())),
                Ok(s) => {
                    millis.push(s.answer.millis);
                    match (&s.steps, s.answer.decided) {
                        (Some(line), _) => {
                            won += 1;
                            proven += s.answer.proven as usize;
                            steps += line.len();
                        }
                        (None, true) => none += 1,
                        (None, false) => undecided += 1,
                    }
                }
            }
        }
        let stats = Stats::of(&millis);
        println!(
            "| {} | {seeds} | {won} | {proven} | {none} | {undecided} | {:.0} | {:.0} | {:.0} | {:.1} |",
            draw.count(),
            stats.mean,
            stats.median,
            stats.max,
            steps as f64 / won.max(1) as f64
        );
        let _ = std::io::stdout().flush();
    }
    println!();
    println!("wall {:.1} s", began.elapsed().as_secs_f64());
    end_with_replays(&failures)
}
