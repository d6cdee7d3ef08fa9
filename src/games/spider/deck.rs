//! A Spider deck file: 104 cards, the 54 of the piles pile by pile (piles 1–4 six cards, 5–10
//! five), each from its bottom (face-down) card up to its face-up card, then the 50 of the stock
//! in the order they are dealt: the first deal's ten cards (onto piles 1 to 10) first.
//!
//! With one suit the two decks are eight runs of spades, with two suits four of spades and four
//! of hearts, with four suits two of each (MSC's 1, 2 and 4 suits); any suit may stand in.

use super::{starting_height, CARDS, PILES, TABLEAU};
use crate::cards::{
    join_cards, malformed_tokens, off_counts, scan_cards, Card, Rank, SplitMix64, Suit,
};
use std::fmt;

/// How many suits a Spider game is played with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Suits {
    One,
    Two,
    Four,
}

impl Suits {
    pub fn parse(text: &str) -> Result<Suits, String> {
        match text.trim() {
            "1" => Ok(Suits::One),
            "2" => Ok(Suits::Two),
            "4" => Ok(Suits::Four),
            _ => Err(format!("--suits takes 1, 2 or 4, not `{text}`")),
        }
    }
    pub fn count(self) -> usize {
        match self {
            Suits::One => 1,
            Suits::Two => 2,
            Suits::Four => 4,
        }
    }
    /// The suits MSC plays with: spades, then hearts, then the others.
    fn used(self) -> &'static [Suit] {
        match self {
            Suits::One => &[Suit::Spades],
            Suits::Two => &[Suit::Spades, Suit::Hearts],
            Suits::Four => &Suit::ALL,
        }
    }
}

/// The 104 cards of a Spider deal, in the deck file's order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpiderDeck {
    pub cards: Vec<Card>,
    pub suits: Suits,
}

impl SpiderDeck {
    /// Reads a deck from any text, as Pyramid's deck files are read (cards in order, layout and
    /// prose ignored, `#` starting a comment), and checks that the cards are two decks' worth
    /// for one, two or four suits (`expect`, when given, must be that number).
    pub fn parse(text: &str, expect: Option<Suits>) -> Result<SpiderDeck, String> {
        let (cards, malformed) = scan_cards(text);
        let mut problems: Vec<String> = malformed_tokens(&malformed).into_iter().collect();
        let mut counts = [0usize; 52];
        for c in &cards {
            counts[c.index()] += 1;
        }
        let present: Vec<Suit> = Suit::ALL
            .into_iter()
            .filter(|s| Rank::all().any(|r| counts[Card::new(r, *s).index()] > 0))
            .collect();
        let suits = match expect {
            Some(s) => s,
            None => match present.len() {
                1 => Suits::One,
                2 => Suits::Two,
                _ => Suits::Four,
            },
        };
        if present.len() > suits.count() {
            problems.push(format!(
                "{} suits appear, the game has {}",
                present.len(),
                suits.count()
            ));
        }
        // Every card of the suits in play appears 8 / suits times.
        let each = 8 / suits.count();
        let mut used: Vec<Suit> = present.clone();
        for s in suits.used() {
            if used.len() < suits.count() && !used.contains(s) {
                used.push(*s);
            }
        }
        let wanted = used
            .iter()
            .flat_map(|&s| Rank::all().map(move |r| Card::new(r, s)));
        let (missing, extra) = off_counts(&cards, wanted, each);
        if !missing.is_empty() {
            problems.push(format!("missing: {}", missing.join(" ")));
        }
        if !extra.is_empty() {
            problems.push(format!("too many: {}", extra.join(" ")));
        }
        if problems.is_empty() && cards.len() == CARDS {
            return Ok(SpiderDeck { cards, suits });
        }
        Err(format!(
            "not a Spider deck of {} suit{}: read {} cards, expected {CARDS} (each card {each} times); {}",
            suits.count(),
            if suits.count() == 1 { "" } else { "s" },
            cards.len(),
            if problems.is_empty() {
                "the count is wrong".to_string()
            } else {
                problems.join("; ")
            }
        ))
    }

    /// A seeded deal (SplitMix64 + Fisher–Yates, as the other games' seeds), the same everywhere.
    pub fn shuffled(seed: u64, suits: Suits) -> SpiderDeck {
        let each = 8 / suits.count();
        let mut cards = Vec::with_capacity(CARDS);
        for s in suits.used() {
            for _ in 0..each {
                cards.extend(Rank::all().map(|r| Card::new(r, *s)));
            }
        }
        let mut rng = SplitMix64(seed);
        for i in (1..cards.len()).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            cards.swap(i, j);
        }
        SpiderDeck { cards, suits }
    }

    /// Pile `i`'s starting cards, bottom first.
    pub fn pile(&self, i: usize) -> &[Card] {
        let start: usize = (0..i).map(starting_height).sum();
        &self.cards[start..start + starting_height(i)]
    }

    /// The stock's cards in the order they are dealt.
    pub fn stock(&self) -> &[Card] {
        &self.cards[TABLEAU..]
    }

    /// The deck as the file layout: one line per pile, then one per deal.
    pub fn layout(&self) -> String {
        let mut text = String::new();
        for i in 0..PILES {
            text.push_str(&format!(
                "{}   # pile {}\n",
                join_cards(self.pile(i)),
                i + 1
            ));
        }
        for (d, deal) in self.stock().chunks(PILES).enumerate() {
            text.push_str(&format!("{}   # deal {}\n", join_cards(deal), d + 1));
        }
        text
    }
}

impl fmt::Display for SpiderDeck {
    /// The 104 cards on one line, in the file's order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let words: Vec<String> = self.cards.iter().map(Card::to_string).collect();
        f.write_str(&words.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_deals_parse_back_for_every_suit_count() {
        for suits in [Suits::One, Suits::Two, Suits::Four] {
            let deck = SpiderDeck::shuffled(3, suits);
            assert_eq!(SpiderDeck::parse(&deck.to_string(), None), Ok(deck.clone()));
            assert_eq!(SpiderDeck::parse(&deck.layout(), Some(suits)), Ok(deck));
        }
    }

    #[test]
    fn wrong_decks_name_the_problem() {
        let deck = SpiderDeck::shuffled(1, Suits::Four);
        let mut text: Vec<String> = deck.cards.iter().map(Card::to_string).collect();
        let first = text[0].clone();
        text[1] = first.clone();
        let err = SpiderDeck::parse(&text.join(" "), None).unwrap_err();
        assert!(err.contains("missing") && err.contains("too many"), "{err}");
        assert!(err.contains(&format!("{first}×1")), "{err}");
        let short = SpiderDeck::parse(&text[..103].join(" "), None).unwrap_err();
        assert!(short.contains("read 103 cards"), "{short}");
        let four = SpiderDeck::shuffled(1, Suits::Four).to_string();
        let err = SpiderDeck::parse(&four, Some(Suits::Two)).unwrap_err();
        assert!(err.contains("4 suits appear, the game has 2"), "{err}");
    }
}
