//! `solve --game peg` and `bench --game peg`: peg solitaire on the English, French and triangular
//! boards. `solve` prints a solution as jumps or proof that none exists (the JSON line is the
//! card games' contract, `deck` naming the board and start), and with `--count` the number of
//! solutions; `bench` decides every start square of every board and counts the English centre
//! game's solutions, replaying every solution through the rules.

use super::bench::end_with_replays;
use super::solve::Contract;
use super::{CliResult, Failure};
use crate::games::peg::{count, rules, solver, Board, End, Kind};
use std::time::Instant;

/// What `solve --game peg` was given.
pub struct PegArgs {
    pub board: Option<String>,
    pub start: Option<String>,
    pub end: Option<String>,
    pub count: bool,
    pub json: bool,
}

/// One game: the board, its start and where the last peg must end.
struct Game {
    board: Board,
    start: u8,
    end: End,
}

impl Game {
    fn from(args: &PegArgs) -> Result<Game, Failure> {
        let name = args.board.as_deref().ok_or_else(|| {
            Failure::input("peg solitaire needs a board: --board english, french or triangle")
        })?;
        let board = Board::new(Kind::parse(name).map_err(Failure::input)?);
        let start = match &args.start {
            Some(s) => board.parse_hole(s).map_err(Failure::input)?,
            None => board.centre(),
        };
        let end =
            match args.end.as_deref() {
                None | Some("start") => End::Hole(start),
                Some("any") => End::Any,
                Some(hole) => End::Hole(board.parse_hole(hole).map_err(|e| {
                    Failure::input(format!("--end takes start, any or a hole: {e}"))
                })?),
            };
        Ok(Game { board, start, end })
    }

    fn end_name(&self) -> String {
        match self.end {
            End::Hole(e) => self.board.name(e),
            End::Any => "any".into(),
        }
    }

    /// The JSON line's `deck`: the board and the start square.
    fn deck(&self) -> String {
        format!("{} {}", self.board.kind.name(), self.board.name(self.start))
    }
}

/// One game's answer as a JSON line: the card games' contract, with where the last peg ends and,
/// when counted, the number of solutions.
#[derive(serde::Serialize)]
struct JsonAnswer {
    #[serde(flatten)]
    contract: Contract,
    end: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    solutions: Option<u128>,
    #[serde(skip_serializing_if = "Option::is_none")]
    proof: Option<String>,
    version: &'static str,
}

pub fn solve(args: PegArgs) -> CliResult {
    let game = Game::from(&args)?;
    let answer = solver::solve(&game.board, game.start, game.end);
    let steps: Option<Vec<String>> = answer
        .jumps
        .as_ref()
        .map(|jumps| jumps.iter().map(|&j| game.board.jump_name(j)).collect());
    if let Some(steps) = &steps {
        // Every answer printed is checked by the rules first.
        rules::replay(&game.board, game.start, game.end, steps).map_err(|e| Failure {
            message: format!("internal error: the solution does not replay: {e}"),
            status: 1,
        })?;
    }
    let counted = Instant::now();
    let solutions = args.count.then(|| count_all(&game));
    let count_ms = counted.elapsed().as_secs_f64() * 1000.0;
    if args.json {
        let line = JsonAnswer {
            contract: Contract::new(game.deck(), steps.clone(), answer.states, answer.millis),
            end: game.end_name(),
            solutions,
            proof: answer.proof.clone(),
            version: crate::VERSION,
        };
        println!(
            "{}",
            serde_json::to_string(&line).expect("an answer serialises")
        );
        return Ok(());
    }
    let what = format!(
        "{} board, start {}, last peg on {}",
        game.board.kind.name(),
        game.board.name(game.start),
        game.end_name()
    );
    let stats = format!("{} positions, {:.1} ms", answer.states, answer.millis);
    match &steps {
        None => {
            let why = answer.proof.as_deref().unwrap_or("every line searched");
            println!("{what}: no solution exists ({why}; {stats})");
        }
        Some(steps) => {
            println!("{what}: solved in {} jumps ({stats})", steps.len());
            for (i, step) in steps.iter().enumerate() {
                println!("{:4}. {step}", i + 1);
            }
        }
    }
    if let Some(n) = solutions {
        println!("{n} solutions (counted in {count_ms:.0} ms)");
    }
    Ok(())
}

/// Every solution of the game: to its end hole, or to any hole.
fn count_all(game: &Game) -> u128 {
    match game.end {
        End::Hole(e) => count::count(&game.board, game.start, e),
        End::Any => (0..game.board.holes() as u8)
            .filter(|&e| {
                solver::colours_allow(&game.board, game.board.full() & !(1 << game.start), e)
            })
            .map(|e| count::count(&game.board, game.start, e))
            .sum(),
    }
}

/// `bench --game peg`: every start square of every board decided (last peg on the start square,
/// then anywhere), each solution replayed; then the English centre game's solutions counted.
pub fn bench() -> CliResult {
    println!(
        "Peg solitaire benchmark: every start square of every board, decided one after another"
    );
    println!();
    println!("| board | last peg | starts | solvable | proved by the rule of three | proved by search | total ms | max ms | slowest start |");
    println!("|---|---|---:|---:|---:|---:|---:|---:|---|");
    let began = Instant::now();
    let mut failures = Vec::new();
    for kind in Kind::ALL {
        let board = Board::new(kind);
        for any in [false, true] {
            let (mut solvable, mut by_colours, mut by_search) = (0, 0, 0);
            let (mut total, mut max, mut slowest) = (0.0f64, 0.0f64, String::new());
            for start in 0..board.holes() as u8 {
                let end = if any { End::Any } else { End::Hole(start) };
                let answer = solver::solve(&board, start, end);
                total += answer.millis;
                if answer.millis > max {
                    max = answer.millis;
                    slowest = board.name(start);
                }
                match (&answer.jumps, &answer.proof) {
                    (Some(jumps), _) => {
                        solvable += 1;
                        let steps: Vec<String> =
                            jumps.iter().map(|&j| board.jump_name(j)).collect();
                        if let Err(e) = rules::replay(&board, start, end, &steps) {
                            failures.push(format!("{} {}: {e}", kind.name(), board.name(start)));
                        }
                    }
                    (None, Some(_)) => by_colours += 1,
                    (None, None) => by_search += 1,
                }
            }
            println!(
                "| {} | {} | {} | {solvable} | {by_colours} | {by_search} | {total:.1} | {max:.1} | {slowest} |",
                kind.name(),
                if any { "anywhere" } else { "on the start" },
                board.holes(),
            );
        }
    }
    println!();
    println!(
        "all starts of all boards, both goals: {:.2} s",
        began.elapsed().as_secs_f64()
    );
    let board = Board::new(Kind::English);
    let centre = board.centre();
    let counted = Instant::now();
    let n = count::count(&board, centre, centre);
    println!(
        "solutions of the English centre game (d4 to d4): {n} ({:.2} s)",
        counted.elapsed().as_secs_f64()
    );
    end_with_replays(&failures)
}
