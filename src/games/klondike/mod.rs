//! Klondike (seed 004): the deck file (`deck`), the steps as `solve` writes them (`step`), the
//! rules that check a solution and play the table (`rules`), the packed position the solver
//! searches (`state`), the search (`solver`, deciding by `class_search` in `rounds`), the
//! practice table (`table`), its reading (`vision`), the agent (`known`, `learn`, `agent`) and
//! the game's place in the games' registry (`game`).
//!
//! MSC's rules: seven piles, pile k dealt k cards with only its top card face up; a face-down card
//! left on top turns up by itself. Cards build down in alternating colours; a run of face-up cards
//! moves as one; only a king (or a run from a king) goes to an empty pile. The stock turns one or
//! three cards onto the waste (`Draw`), as often as wanted: an empty stock takes the waste back
//! (`Recycle`). Foundations build up by suit from the ace, and a foundation's top card may come
//! back down onto a pile. The game is won when all 52 cards are on the foundations.

pub mod agent;
pub mod class_search;
pub mod deck;
pub mod game;
pub mod known;
pub mod learn;
pub mod rounds;
pub mod rules;
pub mod shorten;
pub mod solver;
pub mod state;
pub mod step;
pub mod table;
pub mod vision;

pub use deck::KlondikeDeck;
pub use step::Step;

/// Piles on the table.
pub const PILES: usize = 7;
/// Cards dealt to the piles (1 + 2 + … + 7).
pub const TABLEAU: usize = 28;
/// Cards in the stock at the start.
pub const STOCK: usize = 24;

/// How many cards a `Draw` turns: MSC's Draw 1 and Draw 3.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Draw {
    One,
    Three,
}

impl Draw {
    pub fn parse(text: &str) -> Result<Draw, String> {
        match text.trim() {
            "1" => Ok(Draw::One),
            "3" => Ok(Draw::Three),
            _ => Err(format!("--draw takes 1 or 3, not `{text}`")),
        }
    }
    pub fn count(self) -> usize {
        match self {
            Draw::One => 1,
            Draw::Three => 3,
        }
    }
}

/// Where pile `i` (from 0) starts in the deck file.
pub fn pile_start(i: usize) -> usize {
    i * (i + 1) / 2
}
