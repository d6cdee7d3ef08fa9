//! A Triple Klondike deck file: the 156 cards (three of each), first the 91 of the piles, pile 1
//! to 13, each from its bottom (face-down) card up to its top (face-up) card (pile k holds k
//! cards), then the 65 of the stock, the top (first turned) card first. Read as every deck file
//! is: card words in order, prose and `#` comments ignored.
//!
//! The contest's 100 deals are built in (`contest.txt`, in the same order), for `deal --game
//! triple-klondike --seed N`.

use super::{pile_start, CARDS, DECKS, PILES, TABLEAU};
use crate::cards::{join_cards, malformed_tokens, off_counts, scan_cards, Card};
use crate::games::klondike::deck::layout_of;
use crate::games::klondike::{rules::Table, Draw};
use std::fmt;

/// The 156 cards of a deal, in the deck file's order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TripleDeck(pub Vec<Card>);

/// The contest's deals, one a line (`N: cards`).
const CONTEST: &str = include_str!("contest.txt");

/// How many deals the contest has.
pub const CONTEST_DEALS: u64 = 100;

impl TripleDeck {
    /// Reads a deck, checking that it holds every card three times.
    pub fn parse(text: &str) -> Result<TripleDeck, String> {
        let (cards, malformed) = scan_cards(text);
        let mut problems: Vec<String> = malformed_tokens(&malformed).into_iter().collect();
        let (missing, extra) = off_counts(&cards, (0..52).map(Card::from_index), DECKS);
        if !missing.is_empty() {
            problems.push(format!("missing: {}", missing.join(" ")));
        }
        if !extra.is_empty() {
            problems.push(format!("too many: {}", extra.join(" ")));
        }
        if problems.is_empty() && cards.len() == CARDS {
            return Ok(TripleDeck(cards));
        }
        Err(format!(
            "not a Triple Klondike deck: read {} cards, expected {CARDS} (each card {DECKS} times); {} (the 91 pile cards, pile 1 to 13 each from its bottom card up, then the 65 stock cards from the top)",
            cards.len(),
            if problems.is_empty() {
                "the count is wrong".to_string()
            } else {
                problems.join("; ")
            }
        ))
    }

    /// The contest's deal `n` (1 to 100).
    pub fn contest(n: u64) -> Result<TripleDeck, String> {
        CONTEST
            .lines()
            .filter_map(|line| line.split_once(':'))
            .find(|(number, _)| number.trim().parse() == Ok(n))
            .map(|(_, cards)| TripleDeck::parse(cards).expect("the contest's deals are decks"))
            .ok_or_else(|| format!("the contest has deals 1 to {CONTEST_DEALS}, not {n}"))
    }

    /// Pile `i`'s starting cards (from 0), bottom first: `i + 1` cards.
    pub fn pile(&self, i: usize) -> &[Card] {
        &self.0[pile_start(i)..pile_start(i) + i + 1]
    }

    /// The stock's cards, the top (first turned) first.
    pub fn stock(&self) -> &[Card] {
        &self.0[TABLEAU..]
    }

    /// The table at the start, under the contest's rules (for replaying a solution).
    pub fn table(&self) -> Table {
        let piles: Vec<&[Card]> = (0..PILES).map(|i| self.pile(i)).collect();
        Table::dealt(&piles, self.stock(), Draw::One, DECKS, Some(0))
    }

    /// The deck as the file's layout: one line per pile, then the stock.
    pub fn layout(&self) -> String {
        let piles: Vec<&[Card]> = (0..PILES).map(|i| self.pile(i)).collect();
        layout_of(&piles, self.stock())
    }
}

impl fmt::Display for TripleDeck {
    /// The 156 cards on one line, in the file's order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&join_cards(&self.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contest_deals_read_back_from_their_layout() {
        for n in 1..=CONTEST_DEALS {
            let deck = TripleDeck::contest(n).unwrap();
            assert_eq!(TripleDeck::parse(&deck.layout()), Ok(deck.clone()));
            assert_eq!(TripleDeck::parse(&deck.to_string()), Ok(deck.clone()));
        }
        let deck = TripleDeck::contest(12).unwrap();
        assert_eq!(deck.pile(12).len(), 13);
        assert_eq!(deck.stock().len(), super::super::STOCK);
        assert!(TripleDeck::contest(101).unwrap_err().contains("1 to 100"));
        let err = TripleDeck::parse(&join_cards(&deck.0[..155])).unwrap_err();
        assert!(
            err.contains("read 155 cards") && err.contains("missing"),
            "{err}"
        );
    }
}
