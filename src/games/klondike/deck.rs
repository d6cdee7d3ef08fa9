//! A Klondike deck file: the 52 cards, first the 28 of the piles, pile 1 to 7, each from its
//! bottom (face-down) card up to its top (face-up) card (pile k holds k cards), then the 24 of the
//! stock, the top (first turned) card first. Read as every deck file is: card words in order,
//! prose and `#` comments ignored.

use super::{pile_start, PILES, TABLEAU};
use crate::cards::{join_cards, Card, Deck};
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KlondikeDeck(pub Deck);

impl KlondikeDeck {
    pub fn parse(text: &str) -> Result<KlondikeDeck, String> {
        Deck::parse(text)
            .map(KlondikeDeck)
            .map_err(|e| format!("{e} (a Klondike deck: the 28 pile cards, pile 1 to 7 each from its bottom card up, then the 24 stock cards from the top)"))
    }

    /// A seeded deal: the same shuffled deck as every game's `deal --seed N`.
    pub fn shuffled(seed: u64) -> KlondikeDeck {
        KlondikeDeck(Deck::shuffled(seed))
    }

    /// Pile `i`'s starting cards (from 0), bottom first: `i + 1` cards.
    pub fn pile(&self, i: usize) -> &[Card] {
        &self.0 .0[pile_start(i)..pile_start(i) + i + 1]
    }

    /// The stock's cards, the top (first turned) first.
    pub fn stock(&self) -> &[Card] {
        &self.0 .0[TABLEAU..]
    }

    /// The deck as the file's layout: one line per pile, then the stock.
    pub fn layout(&self) -> String {
        let piles: Vec<&[Card]> = (0..PILES).map(|i| self.pile(i)).collect();
        layout_of(&piles, self.stock())
    }
}

/// A deck file's layout for Klondike's kind of deal: one line per pile (bottom card first), then
/// the stock (top first), each line named in a comment.
pub fn layout_of(piles: &[&[Card]], stock: &[Card]) -> String {
    let mut text = String::new();
    for (i, pile) in piles.iter().enumerate() {
        text.push_str(&format!("{}   # pile {}\n", join_cards(pile), i + 1));
    }
    text.push_str(&format!("{}   # stock, top first\n", join_cards(stock)));
    text
}

impl fmt::Display for KlondikeDeck {
    /// The 52 cards on one line, in the file's order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_deals_read_back_from_their_layout() {
        let deck = KlondikeDeck::shuffled(11);
        assert_eq!(KlondikeDeck::parse(&deck.layout()), Ok(deck.clone()));
        assert_eq!(KlondikeDeck::parse(&deck.to_string()), Ok(deck.clone()));
        assert_eq!(deck.pile(6).len(), 7);
        assert_eq!(deck.stock().len(), 24);
        let short: Vec<String> = deck.0 .0[..51].iter().map(Card::to_string).collect();
        let err = KlondikeDeck::parse(&short.join(" ")).unwrap_err();
        assert!(
            err.contains("read 51 cards") && err.contains("missing"),
            "{err}"
        );
    }
}
