//! Klondike's steps as `solve` writes them, one move each (a step is what MSC counts as a move):
//! `Draw` turns the stock's next card (or three) onto the waste, `Recycle` turns the waste back
//! into the stock, `7h>F` puts the seven of hearts on its foundation (from the waste or the top of
//! a pile), `3>F` pile 3's top card on its foundation (with several decks the same card can show
//! in two places, and `7h>F` takes the waste's, or else the first pile's), `W>3` the waste's top
//! card onto pile 3, `3>5` pile 3's top card onto pile 5, `3>5x4` its top four cards (a face-up
//! run), `Fh>3` the hearts foundation's top card back onto pile 3.
//! Piles count from 1. A face-down card turning up is not a step.

use super::PILES;
use crate::cards::{Card, Suit};
use std::fmt;
use std::str::FromStr;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    Draw,
    Recycle,
    /// This card to its foundation, from the waste if it shows there, else from the first pile
    /// showing it.
    ToFoundation(Card),
    /// A pile's top card to its foundation (piles from 0): where the card's own step would take
    /// the same card from the waste or an earlier pile.
    PileToFoundation(u8),
    /// The waste's top card onto a pile (from 0).
    WasteToPile(u8),
    /// `count` cards from the top of pile `from` onto pile `to` (piles from 0).
    PileToPile {
        from: u8,
        to: u8,
        count: u8,
    },
    /// A foundation's top card back onto a pile.
    FoundationToPile(Suit, u8),
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Step::Draw => f.write_str("Draw"),
            Step::Recycle => f.write_str("Recycle"),
            Step::ToFoundation(card) => write!(f, "{card}>F"),
            Step::PileToFoundation(from) => write!(f, "{}>F", from + 1),
            Step::WasteToPile(to) => write!(f, "W>{}", to + 1),
            Step::PileToPile { from, to, count: 1 } => write!(f, "{}>{}", from + 1, to + 1),
            Step::PileToPile { from, to, count } => write!(f, "{}>{}x{count}", from + 1, to + 1),
            Step::FoundationToPile(suit, to) => write!(f, "F{}>{}", suit.char(), to + 1),
        }
    }
}

impl FromStr for Step {
    type Err = String;
    fn from_str(text: &str) -> Result<Step, String> {
        Step::parse_on(text, PILES)
    }
}

impl Step {
    /// A step of a game with `piles` piles (Klondike's seven, Triple Klondike's thirteen).
    pub fn parse_on(text: &str, piles: usize) -> Result<Step, String> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("draw") {
            return Ok(Step::Draw);
        }
        if text.eq_ignore_ascii_case("recycle") {
            return Ok(Step::Recycle);
        }
        let wrong = || {
            format!(
                "`{text}` is not a Klondike step (Draw, Recycle, 7h>F, 3>F, W>3, 3>5, 3>5x4 or Fh>3)"
            )
        };
        let (from, to) = text.split_once('>').ok_or_else(wrong)?;
        let (from, to) = (from.trim(), to.trim());
        let pile = |s: &str| -> Result<u8, String> {
            match s.parse::<u8>() {
                Ok(n) if (1..=piles as u8).contains(&n) => Ok(n - 1),
                _ => Err(wrong()),
            }
        };
        if to.eq_ignore_ascii_case("f") {
            if from.starts_with(|c: char| c.is_ascii_digit()) && from.parse::<Card>().is_err() {
                return Ok(Step::PileToFoundation(pile(from)?));
            }
            return from
                .parse::<Card>()
                .map(Step::ToFoundation)
                .map_err(|_| wrong());
        }
        if from.eq_ignore_ascii_case("w") {
            return Ok(Step::WasteToPile(pile(to)?));
        }
        if let Some(suit) = from.strip_prefix(['F', 'f']) {
            let mut chars = suit.chars();
            return match (chars.next().and_then(Suit::from_char), chars.next()) {
                (Some(suit), None) => Ok(Step::FoundationToPile(suit, pile(to)?)),
                _ => Err(wrong()),
            };
        }
        let (to, count) = match to.split_once(['x', 'X']) {
            Some((to, count)) => (to, count.parse::<u8>().map_err(|_| wrong())?),
            None => (to, 1),
        };
        let (from, to) = (pile(from)?, pile(to)?);
        if count == 0 || count > 13 || from == to {
            return Err(wrong());
        }
        Ok(Step::PileToPile { from, to, count })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_round_trip() {
        for text in [
            "Draw", "Recycle", "7h>F", "Ts>F", "3>F", "W>3", "3>5", "7>1x4", "Fh>3",
        ] {
            assert_eq!(text.parse::<Step>().unwrap().to_string(), text);
        }
        for bad in [
            "3>3", "0>2", "8>2", "3>5x0", "W>8", "Fx>2", "Zz>F", "3-5", "deal", "0>F", "8>F",
        ] {
            assert!(bad.parse::<Step>().is_err(), "{bad}");
        }
    }
}
