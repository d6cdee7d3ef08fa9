//! Cards and decks: `Rank`, `Suit`, `Card`, `Deck`, and parsing deck text with precise errors.
//!
//! A card is written rank then suit, `Th` for the ten of hearts (`10h` is accepted too).
//! A deck is 52 distinct cards: the 28 pyramid cards row by row, then the 24 stock cards
//! from the top of the stock.

use std::fmt;
use std::str::FromStr;

/// A card's rank. The numeric value (A=1 … K=13) is what pairs sum to 13 with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

impl Rank {
    /// Rank characters in value order, `A` (1) to `K` (13).
    pub const CHARS: &'static str = "A23456789TJQK";
    pub const KING: Rank = Rank(13);

    /// The rank with this value (1..=13).
    pub fn new(value: u8) -> Option<Rank> {
        (1..=13).contains(&value).then_some(Rank(value))
    }
    pub fn value(self) -> u8 {
        self.0
    }
    pub fn char(self) -> char {
        Self::CHARS.as_bytes()[self.0 as usize - 1] as char
    }
    pub fn from_char(c: char) -> Option<Rank> {
        let c = c.to_ascii_uppercase();
        Self::CHARS.find(c).map(|i| Rank(i as u8 + 1))
    }
    pub fn all() -> impl Iterator<Item = Rank> {
        (1..=13).map(Rank)
    }
}

/// A card's suit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Suit {
    Clubs,
    Diamonds,
    Hearts,
    Spades,
}

impl Suit {
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    pub fn char(self) -> char {
        match self {
            Suit::Clubs => 'c',
            Suit::Diamonds => 'd',
            Suit::Hearts => 'h',
            Suit::Spades => 's',
        }
    }
    pub fn from_char(c: char) -> Option<Suit> {
        match c.to_ascii_lowercase() {
            'c' => Some(Suit::Clubs),
            'd' => Some(Suit::Diamonds),
            'h' => Some(Suit::Hearts),
            's' => Some(Suit::Spades),
            _ => None,
        }
    }
    pub const fn is_red(self) -> bool {
        matches!(self, Suit::Diamonds | Suit::Hearts)
    }
    pub fn index(self) -> usize {
        self as usize
    }
}

/// One playing card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card {
    pub rank: Rank,
    pub suit: Suit,
}

impl Card {
    pub fn new(rank: Rank, suit: Suit) -> Card {
        Card { rank, suit }
    }
    /// A dense index 0..52 (suit-major), for bit sets and tables.
    pub fn index(self) -> usize {
        self.suit.index() * 13 + self.rank.value() as usize - 1
    }
    pub fn from_index(i: usize) -> Card {
        Card::new(Rank((i % 13) as u8 + 1), Suit::ALL[i / 13])
    }
    pub fn value(self) -> u8 {
        self.rank.value()
    }
    pub fn is_king(self) -> bool {
        self.rank == Rank::KING
    }
    /// Every card of a standard deck, in index order.
    pub fn all() -> impl Iterator<Item = Card> {
        (0..52).map(Card::from_index)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank.char(), self.suit.char())
    }
}

impl FromStr for Card {
    type Err = String;
    fn from_str(s: &str) -> Result<Card, String> {
        match parse_cards_in_word(s) {
            Some(cards) if cards.len() == 1 => Ok(cards[0]),
            _ => Err(format!(
                "`{s}` is not a card (expected rank A23456789TJQK then suit cdhs, like `Th`)"
            )),
        }
    }
}

/// A full deck in deal order: 28 pyramid cards row by row, then the stock from its top.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deck(pub [Card; 52]);

/// Why a text is not a deck. Every problem is listed, not only the first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DeckError {
    /// Words that look like cards but are not, with their line numbers.
    pub malformed: Vec<(String, usize)>,
    /// Cards of the standard deck that do not appear.
    pub missing: Vec<Card>,
    /// Cards that appear more than once.
    pub duplicated: Vec<Card>,
    /// How many cards were read.
    pub count: usize,
}

impl fmt::Display for DeckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "not a valid deck: read {} cards, expected 52 distinct cards",
            self.count
        )?;
        if !self.malformed.is_empty() {
            let words: Vec<String> = self
                .malformed
                .iter()
                .map(|(w, line)| format!("`{w}` (line {line})"))
                .collect();
            write!(f, "; malformed tokens: {}", words.join(", "))?;
        }
        if !self.missing.is_empty() {
            write!(f, "; missing cards: {}", join_cards(&self.missing))?;
        }
        if !self.duplicated.is_empty() {
            write!(f, "; duplicated cards: {}", join_cards(&self.duplicated))?;
        }
        Ok(())
    }
}

impl std::error::Error for DeckError {}

/// Cards written out, space separated.
pub fn join_cards(cards: &[Card]) -> String {
    cards
        .iter()
        .map(Card::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

impl Deck {
    /// Reads a deck from any text: picks out the card tokens in order, ignoring layout.
    ///
    /// Words are separated by white space and `, ; |`. A word made only of cards (`Th`, `10h`,
    /// or run together like `ThJs`) gives those cards; a word with three letters in a row that is
    /// not cards is prose and skipped (`Stock:`); text after `#` on a line is a comment;
    /// anything else is a malformed token and is reported.
    pub fn parse(text: &str) -> Result<Deck, DeckError> {
        let (cards, malformed) = scan_cards(text);
        Deck::from_cards(&cards, malformed)
    }

    /// Builds a deck from cards, checking that they are the 52 distinct cards.
    pub fn from_cards(cards: &[Card], malformed: Vec<(String, usize)>) -> Result<Deck, DeckError> {
        let mut seen = [0u8; 52];
        for c in cards {
            seen[c.index()] += 1;
        }
        let missing: Vec<Card> = Card::all().filter(|c| seen[c.index()] == 0).collect();
        let duplicated: Vec<Card> = Card::all().filter(|c| seen[c.index()] > 1).collect();
        if malformed.is_empty() && missing.is_empty() && duplicated.is_empty() && cards.len() == 52
        {
            let mut arr = [cards[0]; 52];
            arr.copy_from_slice(cards);
            Ok(Deck(arr))
        } else {
            Err(DeckError {
                malformed,
                missing,
                duplicated,
                count: cards.len(),
            })
        }
    }

    /// A deck shuffled by a seeded generator (SplitMix64 + Fisher–Yates), the same on every machine.
    pub fn shuffled(seed: u64) -> Deck {
        let mut cards: Vec<Card> = Card::all().collect();
        let mut rng = SplitMix64(seed);
        for i in (1..cards.len()).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            cards.swap(i, j);
        }
        Deck::from_cards(&cards, Vec::new()).expect("a permutation of the deck is a deck")
    }

    pub fn cards(&self) -> &[Card; 52] {
        &self.0
    }
}

impl fmt::Display for Deck {
    /// The 52 cards, space separated, in deal order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&join_cards(&self.0))
    }
}

/// A small, fixed pseudo-random generator so that seeds mean the same deal everywhere.
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// A float in [0, 1).
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The words `scan_cards` could not read, as one problem for a deck's message (none: `None`).
pub fn malformed_tokens(malformed: &[(String, usize)]) -> Option<String> {
    (!malformed.is_empty()).then(|| {
        let words: Vec<String> = malformed
            .iter()
            .map(|(w, line)| format!("`{w}` (line {line})"))
            .collect();
        format!("malformed tokens: {}", words.join(", "))
    })
}

/// For decks of several packs: the cards of `wanted` that `cards` holds fewer than `each` times
/// (`7h×2`: two short) and those it holds more often (`7h×1`: one too many).
pub fn off_counts(
    cards: &[Card],
    wanted: impl IntoIterator<Item = Card>,
    each: usize,
) -> (Vec<String>, Vec<String>) {
    let mut counts = [0usize; 52];
    for c in cards {
        counts[c.index()] += 1;
    }
    let (mut missing, mut extra) = (Vec::new(), Vec::new());
    for c in wanted {
        let n = counts[c.index()];
        if n < each {
            missing.push(format!("{c}×{}", each - n));
        } else if n > each {
            extra.push(format!("{c}×{}", n - each));
        }
    }
    (missing, extra)
}

/// Picks every card token out of a text, with the malformed words and their line numbers.
pub fn scan_cards(text: &str) -> (Vec<Card>, Vec<(String, usize)>) {
    let mut cards = Vec::new();
    let mut malformed = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("");
        for word in line.split(|c: char| c.is_whitespace() || ",;|".contains(c)) {
            let word = word.trim_matches(|c: char| "()[]{}.:\"'".contains(c));
            if word.is_empty() {
                continue;
            }
            match parse_cards_in_word(word) {
                Some(found) => cards.extend(found),
                None if is_prose(word) => {}
                None => malformed.push((word.to_string(), n + 1)),
            }
        }
    }
    (cards, malformed)
}

/// A word with three letters in a row that is not made of cards is taken as prose.
fn is_prose(word: &str) -> bool {
    let mut run = 0;
    for c in word.chars() {
        run = if c.is_alphabetic() { run + 1 } else { 0 };
        if run >= 3 {
            return true;
        }
    }
    false
}

/// Parses a word made only of card tokens (`Th`, `10h`, `ThJs`); `None` if anything is left over.
fn parse_cards_in_word(word: &str) -> Option<Vec<Card>> {
    let chars: Vec<char> = word.chars().collect();
    let mut cards = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let (rank, len) = if chars[i] == '1' && chars.get(i + 1) == Some(&'0') {
            (Rank(10), 2)
        } else {
            (Rank::from_char(chars[i])?, 1)
        };
        let suit = Suit::from_char(*chars.get(i + len)?)?;
        cards.push(Card::new(rank, suit));
        i += len + 1;
    }
    (!cards.is_empty()).then_some(cards)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn card_text_round_trips() {
        for c in Card::all() {
            assert_eq!(c.to_string().parse::<Card>().unwrap(), c);
            assert_eq!(Card::from_index(c.index()), c);
        }
        assert_eq!("10h".parse::<Card>().unwrap().to_string(), "Th");
        assert_eq!("qS".parse::<Card>().unwrap().to_string(), "Qs");
        assert!("1h".parse::<Card>().is_err());
        assert!("Tx".parse::<Card>().is_err());
    }

    #[test]
    fn shuffled_decks_are_decks_and_repeatable() {
        assert_eq!(Deck::shuffled(7), Deck::shuffled(7));
        assert_ne!(Deck::shuffled(7), Deck::shuffled(8));
    }

    #[test]
    fn parse_reports_every_problem() {
        let mut text: Vec<String> = Card::all().map(|c| c.to_string()).collect();
        text[5] = "J".into(); // malformed, and 6c goes missing
        text.push("As".into()); // duplicate
        let err = Deck::parse(&text.join(" ")).unwrap_err();
        assert_eq!(err.malformed, vec![("J".to_string(), 1)]);
        assert_eq!(err.missing, vec!["6c".parse().unwrap()]);
        assert_eq!(err.duplicated, vec!["As".parse().unwrap()]);
        let msg = err.to_string();
        assert!(
            msg.contains("`J` (line 1)") && msg.contains("6c") && msg.contains("As"),
            "{msg}"
        );
    }

    #[test]
    fn prose_and_comments_are_ignored() {
        let cards: Vec<String> = Card::all().map(|c| c.to_string()).collect();
        let text = format!(
            "Pyramid: {} # a comment Zz\nStock: {}",
            cards[..28].join(" "),
            cards[28..].join(",")
        );
        let deck = Deck::parse(&text).unwrap();
        assert_eq!(deck.0[0], Card::from_index(0));
    }
}
