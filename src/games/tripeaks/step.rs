//! One TriPeaks step and its text form, shared by the solver's output, the table's log and the
//! agent: `Draw`, or a tableau card like `7h` moved onto the waste.

use crate::cards::Card;
use std::fmt;
use std::str::FromStr;

/// One step; each counts one towards a solution's length.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// Turn the stock's top card onto the waste.
    Draw,
    /// Move this uncovered tableau card (one rank above or below the waste's top) onto the waste.
    Play(Card),
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Step::Draw => f.write_str("Draw"),
            Step::Play(card) => write!(f, "{card}"),
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
        s.parse()
            .map(Step::Play)
            .map_err(|_| format!("`{s}` is not a TriPeaks step (Draw, or a card like 7h)"))
    }
}

/// Parses a comma-separated list of steps, such as `Draw,7h,8c`.
pub fn parse_steps(text: &str) -> Result<Vec<Step>, String> {
    crate::games::parse_step_list(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_round_trip_through_text() {
        let steps = parse_steps("Draw, 7h,10c ,draw").unwrap();
        let text: Vec<String> = steps.iter().map(Step::to_string).collect();
        assert_eq!(text, ["Draw", "7h", "Tc", "Draw"]);
        assert!("4c+9c".parse::<Step>().is_err());
        assert!(
            "Recycle".parse::<Step>().is_err(),
            "TriPeaks has no recycle"
        );
    }
}
