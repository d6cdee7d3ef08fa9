//! One step of play and its text form, shared by the solver's output, the table's log and the agent:
//! `Draw`, `Recycle`, a king alone like `Kh`, or a pair summing to 13 like `4c+9c`.

use crate::cards::Card;
use std::fmt;
use std::str::FromStr;

/// One step; each counts one towards a solution's length.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// Move the stock's top card onto the waste.
    Draw,
    /// Turn the waste over into an empty stock (at most twice a game).
    Recycle,
    /// Remove a king by itself.
    King(Card),
    /// Remove two cards whose values sum to 13.
    Pair(Card, Card),
}

impl Step {
    /// A pair step with its cards in the canonical order (lower value first).
    pub fn pair(a: Card, b: Card) -> Step {
        if a.value() <= b.value() {
            Step::Pair(a, b)
        } else {
            Step::Pair(b, a)
        }
    }
    /// The cards this step removes.
    pub fn cards(&self) -> Vec<Card> {
        match *self {
            Step::Draw | Step::Recycle => vec![],
            Step::King(k) => vec![k],
            Step::Pair(a, b) => vec![a, b],
        }
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Step::Draw => f.write_str("Draw"),
            Step::Recycle => f.write_str("Recycle"),
            Step::King(k) => write!(f, "{k}"),
            Step::Pair(a, b) => write!(f, "{a}+{b}"),
        }
    }
}

impl FromStr for Step {
    type Err = String;
    fn from_str(s: &str) -> Result<Step, String> {
        let s = s.trim();
        if s.eq_ignore_ascii_case("draw") {
            return Ok(Step::Draw);
        }
        if s.eq_ignore_ascii_case("recycle") {
            return Ok(Step::Recycle);
        }
        if let Some((a, b)) = s.split_once('+') {
            let (a, b): (Card, Card) = (a.trim().parse()?, b.trim().parse()?);
            return Ok(Step::pair(a, b));
        }
        let card: Card = s.parse().map_err(|_| {
            format!("`{s}` is not a step (Draw, Recycle, a king like Kh, or a pair like 4c+9c)")
        })?;
        Ok(Step::King(card))
    }
}

/// Parses a comma-separated list of steps, such as `Draw,4c+9c,Kh`.
pub fn parse_steps(text: &str) -> Result<Vec<Step>, String> {
    crate::games::parse_step_list(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_round_trip() {
        for text in ["Draw", "Recycle", "Kh", "4c+9c"] {
            assert_eq!(text.parse::<Step>().unwrap().to_string(), text);
        }
        assert_eq!("9c+4c".parse::<Step>().unwrap().to_string(), "4c+9c");
        assert!("Xx".parse::<Step>().is_err());
        assert_eq!(parse_steps("Draw, Recycle,Kh").unwrap().len(), 3);
    }
}
