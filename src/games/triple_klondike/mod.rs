//! Triple Klondike (seed 003), solved only: the deck file and the contest's deals (`deck`), and
//! the search for a short solution with the bound below which none exists (`solver`). The rules
//! and steps are Klondike's (`klondike::rules`, `klondike::step`), dealt wider.
//!
//! The rules of the Minimal Triple Klondike contest, as seed 003's solver plays them: three decks
//! (156 cards), thirteen piles (pile k dealt k cards, only its top card face up), twelve
//! foundations (three a suit, each built up from an ace), the other 65 cards in the stock, turned
//! one at a time onto the waste and gone through once (no turning the waste back). Cards build
//! down on the piles in alternating colours; a face-up run moves as one step; only a king (or a
//! run from one) goes to an empty pile; a foundation's top card may come back down. Every step
//! counts one: turning a card, and moving a card or a run. So no solution is shorter than 65 + 156
//! = 221 steps.

pub mod deck;
pub mod solver;

pub use deck::TripleDeck;

/// Piles on the table.
pub const PILES: usize = 13;
/// Cards dealt to the piles (1 + 2 + … + 13).
pub const TABLEAU: usize = 91;
/// Cards in the stock at the start.
pub const STOCK: usize = 65;
/// Cards in the game: three decks.
pub const CARDS: usize = 156;
/// Decks in the game.
pub const DECKS: usize = 3;

/// Where pile `i` (from 0) starts in the deck file.
pub fn pile_start(i: usize) -> usize {
    i * (i + 1) / 2
}
