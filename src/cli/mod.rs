//! The command line's subcommands, one module each; `main.rs` only parses arguments and dispatches.

pub mod accuracy;
pub mod bench;
pub mod bench_play;
pub mod decks;
pub mod klondike;
pub mod labels;
pub mod peg;
pub mod play;
pub mod sets;
pub mod solve;
pub mod solved_only;
pub mod spider;
pub mod table;
pub mod triple_klondike;
pub mod vision;

/// An error that the command reports as one message and an exit status.
#[derive(Debug)]
pub struct Failure {
    pub message: String,
    pub status: i32,
}

impl Failure {
    /// Bad input from the user (a malformed deck, a missing file): exit status 2.
    pub fn input(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            status: 2,
        }
    }
}

pub type CliResult = Result<(), Failure>;
