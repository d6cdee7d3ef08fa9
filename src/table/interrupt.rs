//! MSC's interruptions, raised by the practice table on request (`--interrupt STEP:KIND`): a dialog
//! that shows over the table after a given move and takes every click until one of its buttons is
//! pressed. Each kind has its own place and buttons, none where the Undo board dialog's are, so a
//! player program has to look at what is there rather than click where it clicked before.
//!
//! - `no-moves`: "No more moves" over the dimmed table, one OK (pressing it leaves the game as it
//!   was).
//! - `bonus`: a bonus-game offer over the dimmed table: PLAY and NO THANKS, no OK.
//! - `notice`: a banner over the top of the cards (the table not dimmed), OK at its right end.

/// A kind of interruption.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Interruption {
    NoMoves,
    Bonus,
    Notice,
}

impl Interruption {
    pub const ALL: [Interruption; 3] = [
        Interruption::NoMoves,
        Interruption::Bonus,
        Interruption::Notice,
    ];

    /// The name `--interrupt` and the event log use.
    pub fn name(self) -> &'static str {
        match self {
            Interruption::NoMoves => "no-moves",
            Interruption::Bonus => "bonus",
            Interruption::Notice => "notice",
        }
    }

    /// The line of text across the dialog.
    pub fn title(self) -> &'static str {
        match self {
            Interruption::NoMoves => "NO MORE MOVES",
            Interruption::Bonus => "PLAY A BONUS GAME?",
            Interruption::Notice => "NEW BADGE EARNED",
        }
    }

    /// Its buttons' labels, left to right.
    pub fn buttons(self) -> &'static [&'static str] {
        match self {
            Interruption::NoMoves | Interruption::Notice => &["OK"],
            Interruption::Bonus => &["PLAY", "NO THANKS"],
        }
    }

    /// Whether the table is dimmed behind it.
    pub fn dims(self) -> bool {
        !matches!(self, Interruption::Notice)
    }

    /// The kind named `text`, or a message naming the kinds.
    pub fn parse(text: &str) -> Result<Interruption, String> {
        Interruption::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| format!("unknown interruption `{text}`: no-moves, bonus or notice"))
    }
}

/// One requested interruption: `kind` shows once the table has accepted its `after`-th move
/// (every move counts, draws included; Undo and Undo board do not take the count back).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Planned {
    pub after: u32,
    pub kind: Interruption,
}

impl Planned {
    /// Parses `STEP:KIND`, like `30:no-moves` (STEP from 1).
    pub fn parse(text: &str) -> Result<Planned, String> {
        let bad = || {
            format!("'{text}' is not an interruption: write STEP:KIND, like 30:no-moves (kinds: no-moves, bonus, notice)")
        };
        let (step, kind) = text.split_once(':').ok_or_else(bad)?;
        let after: u32 = step.trim().parse().map_err(|_| bad())?;
        if after == 0 {
            return Err(format!(
                "'{text}': the step counts moves from 1 (the interruption shows after that move)"
            ));
        }
        Ok(Planned {
            after,
            kind: Interruption::parse(kind)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interruptions_parse_from_step_and_kind() {
        assert_eq!(
            Planned::parse("30:no-moves"),
            Ok(Planned {
                after: 30,
                kind: Interruption::NoMoves
            })
        );
        assert_eq!(
            Planned::parse(" 2:BONUS").map(|p| p.kind),
            Ok(Interruption::Bonus)
        );
        for bad in ["", "30", "x:notice", "0:notice", "3:popup", "3-notice"] {
            assert!(Planned::parse(bad).is_err(), "{bad:?} was accepted");
        }
    }
}
