//! Spider's steps as `solve` writes them: `3>5` moves pile 3's top card onto pile 5, `3>5x4` its
//! top four cards (a run of one suit), `Deal` deals the stock's next ten cards. Piles count from 1.
//! A run from king to ace leaves the table by itself and a face-down card turns up by itself:
//! neither is a step.

use super::PILES;
use std::fmt;
use std::str::FromStr;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// `count` cards from the top of pile `from` onto pile `to` (piles from 0).
    Move {
        from: u8,
        to: u8,
        count: u8,
    },
    Deal,
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Step::Deal => f.write_str("Deal"),
            Step::Move { from, to, count: 1 } => write!(f, "{}>{}", from + 1, to + 1),
            Step::Move { from, to, count } => write!(f, "{}>{}x{count}", from + 1, to + 1),
        }
    }
}

impl FromStr for Step {
    type Err = String;
    fn from_str(text: &str) -> Result<Step, String> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("deal") {
            return Ok(Step::Deal);
        }
        let wrong =
            || format!("`{text}` is not a Spider step (Deal, 3>5, or 3>5x4 for four cards)");
        let (from, rest) = text.split_once('>').ok_or_else(wrong)?;
        let (to, count) = match rest.split_once(['x', 'X']) {
            Some((to, count)) => (to, count.parse::<u8>().map_err(|_| wrong())?),
            None => (rest, 1),
        };
        let pile = |s: &str| -> Result<u8, String> {
            match s.trim().parse::<u8>() {
                Ok(n) if (1..=PILES as u8).contains(&n) => Ok(n - 1),
                _ => Err(wrong()),
            }
        };
        let (from, to) = (pile(from)?, pile(to)?);
        if count == 0 || from == to {
            return Err(wrong());
        }
        Ok(Step::Move { from, to, count })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_round_trip() {
        for text in ["Deal", "3>5", "10>1x4", "1>10x12"] {
            assert_eq!(text.parse::<Step>().unwrap().to_string(), text);
        }
        for bad in ["3>3", "0>2", "11>2", "3>5x0", "3-5", "draw"] {
            assert!(bad.parse::<Step>().is_err(), "{bad}");
        }
    }
}
