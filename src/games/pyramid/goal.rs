//! What a challenge asks of a Pyramid deal (`solve --goal`, `play --goal`): clear the board (the
//! Board challenge), reach a score, the highest score the deal allows, or clear cards of one rank.
//! Text forms: `board`, `score:N`, `max-score`, `clear:R:N` (R a rank character, e.g. `clear:A:4`).

use super::score::Tally;
use super::state::State;
use crate::cards::Rank;
use std::fmt;
use std::str::FromStr;

/// One goal for one deal, or for a challenge over several deals (then counted over them all).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Clear the pyramid.
    Board,
    /// Earn at least this many points.
    Score(u32),
    /// The highest score the deal allows.
    MaxScore,
    /// Remove at least `count` cards of `rank`.
    Clear { rank: Rank, count: u32 },
}

impl Goal {
    /// Whether a game that reached `state` having earned `tally` has met the goal (`MaxScore` is
    /// never met in this sense: it asks for the most, not for an amount).
    pub fn met(&self, state: &State, tally: &Tally) -> bool {
        match *self {
            Goal::Board => state.is_cleared(),
            Goal::Score(n) => tally.points >= n,
            Goal::MaxScore => false,
            Goal::Clear { rank, count } => tally.of_value(rank.value()) >= count,
        }
    }

    /// What is left of the goal once `tally` has been earned (in earlier deals of a challenge).
    pub fn less(&self, tally: &Tally) -> Goal {
        match *self {
            Goal::Score(n) => Goal::Score(n.saturating_sub(tally.points)),
            Goal::Clear { rank, count } => Goal::Clear {
                rank,
                count: count.saturating_sub(tally.of_value(rank.value())),
            },
            other => other,
        }
    }

    /// How far `tally` goes towards the goal, as the report says it: points, or cards of the rank.
    pub fn progress(&self, tally: &Tally) -> u32 {
        match *self {
            Goal::Clear { rank, .. } => tally.of_value(rank.value()),
            _ => tally.points,
        }
    }
}

impl fmt::Display for Goal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Goal::Board => f.write_str("board"),
            Goal::Score(n) => write!(f, "score:{n}"),
            Goal::MaxScore => f.write_str("max-score"),
            Goal::Clear { rank, count } => write!(f, "clear:{}:{count}", rank.char()),
        }
    }
}

impl FromStr for Goal {
    type Err = String;
    fn from_str(text: &str) -> Result<Goal, String> {
        let t = text.trim().to_ascii_lowercase();
        let bad = |why: &str| {
            format!("goal `{text}`: {why} (goals: board, score:N, max-score, clear:R:N such as clear:A:4)")
        };
        let number = |s: &str| {
            s.parse::<u32>()
                .map_err(|_| bad(&format!("`{s}` is not a number")))
        };
        match t.split(':').collect::<Vec<_>>()[..] {
            ["board"] => Ok(Goal::Board),
            ["max-score"] => Ok(Goal::MaxScore),
            ["score", n] => Ok(Goal::Score(number(n)?)),
            ["clear", r, n] => {
                let rank = match r {
                    "10" => Rank::new(10),
                    _ if r.chars().count() == 1 => {
                        Rank::from_char(r.chars().next().unwrap().to_ascii_uppercase())
                    }
                    _ => None,
                }
                .ok_or_else(|| bad(&format!("`{r}` is not a rank (A 2-9 T J Q K)")))?;
                let count = number(n)?;
                if count == 0 {
                    return Err(bad("the count must be at least 1"));
                }
                Ok(Goal::Clear { rank, count })
            }
            _ => Err(bad("not a goal")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn goals_read_and_write_back() {
        for text in [
            "board",
            "score:500",
            "max-score",
            "clear:A:4",
            "clear:K:12",
            "clear:T:1",
        ] {
            assert_eq!(text.parse::<Goal>().unwrap().to_string(), text);
        }
        assert_eq!(
            "clear:10:2".parse::<Goal>().unwrap().to_string(),
            "clear:T:2"
        );
        assert_eq!(
            "Clear:a:3".parse::<Goal>().unwrap().to_string(),
            "clear:A:3"
        );
    }

    #[test]
    fn bad_goals_say_what_is_wrong() {
        for (text, says) in [
            ("score", "not a goal"),
            ("score:lots", "`lots` is not a number"),
            ("clear:Z:2", "`z` is not a rank"),
            ("clear:A:0", "at least 1"),
            ("win", "not a goal"),
        ] {
            let e = text.parse::<Goal>().unwrap_err();
            assert!(e.contains(says), "{text}: {e}");
        }
    }

    #[test]
    fn what_is_left_after_earlier_deals() {
        let mut removed = [0; 14];
        removed[1] = 3;
        let t = Tally {
            points: 300,
            removed,
        };
        assert_eq!(Goal::Score(1000).less(&t), Goal::Score(700));
        assert_eq!(Goal::Score(200).less(&t), Goal::Score(0));
        let aces = Goal::Clear {
            rank: Rank::new(1).unwrap(),
            count: 4,
        };
        assert_eq!(
            aces.less(&t),
            Goal::Clear {
                rank: Rank::new(1).unwrap(),
                count: 1
            }
        );
        assert!(!aces.met(&State::deal(&crate::cards::Deck::shuffled(1)), &t));
        assert_eq!(aces.progress(&t), 3);
    }
}
