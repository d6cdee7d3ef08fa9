//! Spider (seed 002), a game the agent does not play on screen yet: the deck file of 104 cards
//! (`deck`), the steps as `solve` writes them (`step`), the rules that check a solution (`rules`)
//! and the search that finds one or proves there is none (`solver`).
//!
//! Ten piles: the first four get six cards and the other six get five, each face down but its
//! top card. A face-up run of one suit in descending order moves as one onto a card one rank
//! higher (of any suit) or onto an empty pile; a face-down card left on top turns up. The stock
//! deals one card onto every pile, five times, only when no pile is empty. A run of one suit from
//! king to ace leaves the table at once; the game is won when all eight have left.

pub mod deck;
pub mod rules;
pub mod solver;
pub mod step;

pub use deck::{SpiderDeck, Suits};
pub use step::Step;

/// Piles on the table.
pub const PILES: usize = 10;
/// Cards dealt to the piles at the start (6 on piles 1–4, 5 on piles 5–10).
pub const TABLEAU: usize = 54;
/// Cards in the two decks.
pub const CARDS: usize = 104;
/// Deals the stock makes, ten cards each.
pub const DEALS: usize = 5;

/// Cards pile `i` (from 0) gets at the start.
pub fn starting_height(i: usize) -> usize {
    if i < 4 {
        6
    } else {
        5
    }
}
