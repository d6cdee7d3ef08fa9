//! The `solitaire-agent` command: parses arguments and hands each subcommand to `cli::*`.

use clap::{Parser, Subcommand};
use solitaire_agent::cli;

#[derive(Parser)]
#[command(
    name = "solitaire-agent",
    version,
    about = "Plays Pyramid Solitaire (Microsoft Solitaire Collection rules) by itself",
    long_about = "Plays Pyramid Solitaire (Microsoft Solitaire Collection rules) by itself.\n\n\
Decks are text: 52 cards written rank then suit (A23456789TJQK + cdhs, `10` also for ten), the 28 \
pyramid cards row by row from the top, then the 24 stock cards from the top of the stock. Any layout \
is accepted."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Find the fewest steps that clear the pyramid, or prove that no solution exists
    #[command(
        after_help = "Exit status: 0 when every deck was solved or proved unsolvable, 2 on bad input.\n\
Steps: Draw, Recycle, a king alone like Kh, or a pair summing to 13 like 4c+9c."
    )]
    Solve {
        /// Deck files, one deck each in any layout (`-` reads standard input)
        files: Vec<String>,
        /// A file with one deck per line (tab-separated extra columns are ignored)
        #[arg(long, value_name = "FILE")]
        batch: Option<String>,
        /// Print one JSON object per deck per line
        #[arg(long)]
        json: bool,
        /// Solver threads for several decks (default: all cores)
        #[arg(long, value_name = "N")]
        threads: Option<usize>,
    },
    /// Time the solver over deck files and print a table (default: the 1500-deck corpus)
    Bench {
        /// Batch files (deck<TAB>expected length per line) or single-deck files
        files: Vec<String>,
        /// Solver threads (default: all cores)
        #[arg(long, value_name = "N")]
        threads: Option<usize>,
    },
}

fn threads(n: Option<usize>) -> usize {
    n.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1)
}

fn main() {
    let args = Cli::parse();
    let result = match args.command {
        Some(Command::Solve {
            files,
            batch,
            json,
            threads: t,
        }) => cli::solve::run(cli::solve::SolveArgs {
            files,
            batch,
            json,
            threads: threads(t),
        }),
        Some(Command::Bench { files, threads: t }) => cli::bench::run(cli::bench::BenchArgs {
            files,
            threads: threads(t),
        }),
        None => {
            use clap::CommandFactory;
            Cli::command().print_help().ok();
            Ok(())
        }
    };
    if let Err(failure) = result {
        eprintln!("solitaire-agent: {}", failure.message);
        std::process::exit(failure.status);
    }
}
