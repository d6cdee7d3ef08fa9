//! Peg solitaire (seed 001), a puzzle the agent does not play on screen: the English, French and
//! triangular boards (`board`), the rules that check a solution (`rules`), the search that finds
//! one or proves there is none (`solver`), and the count of every solution (`count`).
//!
//! The game starts with every hole filled but one (the start square) and ends with one peg: on
//! the start square (the seed's rule), or on any hole.

pub mod beam;
pub mod board;
pub mod count;
pub mod rules;
pub mod solver;

pub use board::{Board, Kind};

/// Where the last peg must end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// On this hole.
    Hole(u8),
    /// Anywhere.
    Any,
}
