//! What every game's agent loop reports and who watches it: the `play --json` contract
//! (`Report`), where the card templates come from (`Cards`), and the watcher (`Watch`) with the
//! marks it is shown over each frame read.

use crate::agent::hands::{Hands, Stop};
use crate::agent::io::World;
use crate::cards::{Card, Deck};
use crate::table::rect::Rect;
use crate::vision::calibrate::Corners;
use crate::vision::groups::Groups;
use crate::vision::recognize::{Matcher, Seen};
use image::RgbaImage;
use serde::Serialize;
use std::sync::Arc;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Cleared,
    NoSolution,
    /// A challenge's goal (`play --goal`) was met.
    GoalMet,
    /// Every deal the challenge allows was played without meeting its goal.
    GoalNotMet,
    Stopped,
}

/// The `play --json` contract.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub result: Outcome,
    pub reason: String,
    pub steps: usize,
    pub clicks: usize,
    pub replans: usize,
    pub reveal_ms: u64,
    pub solve_ms: u64,
    pub play_ms: u64,
    /// How the game's picture was taken on a real desktop: `window` (the window system's capture
    /// of the window) or `screen` (its rectangle of the screen, where the window's own capture is
    /// black or cannot be made); absent for the in-process table.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub capture: Option<&'static str>,
    /// The layout profile that read the game (the one `--profile auto` chose); absent for games
    /// read without one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub profile: Option<String>,
    /// Dialogs over the table (MSC's interruptions) dismissed by their OK; absent when none.
    #[serde(skip_serializing_if = "is_zero")]
    pub dialogs: usize,
    /// A challenge (`play --goal`): its goal and each deal's part.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub challenge: Option<Challenge>,
    /// The build that played (`VERSION`).
    pub version: &'static str,
}

/// How a challenge over several deals went.
#[derive(Clone, Debug, Serialize)]
pub struct Challenge {
    pub goal: String,
    /// The deals it allowed (`--deals`).
    pub deals_allowed: u32,
    /// Each deal played.
    pub deals: Vec<DealPlayed>,
    /// Over all deals: points, or cards of the rank for a Card challenge.
    pub total: u32,
    pub met: bool,
}

/// One deal of a challenge.
#[derive(Clone, Debug, Serialize)]
pub struct DealPlayed {
    pub points: u32,
    /// Cards of the challenge's rank removed (Card challenges).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cards: Option<u32>,
    /// Steps played in the challenge so far, at this deal's end.
    pub steps: usize,
}

impl Report {
    /// A game that stopped before it began, and why.
    pub fn stopped(reason: &str) -> Report {
        Report {
            result: Outcome::Stopped,
            reason: reason.to_string(),
            steps: 0,
            clicks: 0,
            replans: 0,
            reveal_ms: 0,
            solve_ms: 0,
            play_ms: 0,
            capture: None,
            profile: None,
            dialogs: 0,
            challenge: None,
            version: crate::VERSION,
        }
    }

    /// How the game ended in one line: `Cleared: board cleared (52 steps, 99 clicks, 0 re-plans;
    /// reveal 8128 ms, solve 13 ms, play 17792 ms)`.
    pub fn summary(&self) -> String {
        let dialogs = match self.dialogs {
            0 => String::new(),
            1 => ", 1 dialog closed".into(),
            n => format!(", {n} dialogs closed"),
        };
        format!(
            "{:?}: {} ({} steps, {} clicks, {} re-plans{dialogs}; reveal {} ms, solve {} ms, play {} ms)",
            self.result,
            self.reason,
            self.steps,
            self.clicks,
            self.replans,
            self.reveal_ms,
            self.solve_ms,
            self.play_ms
        )
    }

    /// Ends the report with how the game went and what the hands did.
    pub fn finish<G: World + ?Sized>(
        &mut self,
        outcome: Result<(Outcome, String), Stop>,
        hands: &Hands<'_, G>,
        replans: usize,
    ) {
        self.clicks = hands.clicks;
        self.replans = replans;
        self.capture = hands.capture_kind;
        self.dialogs = hands.dialogs_dismissed;
        (self.result, self.reason) = match outcome {
            Ok(ended) => ended,
            Err(Stop(reason)) => (Outcome::Stopped, reason),
        };
    }
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Where the agent gets its card templates. (Made once per game, so the matcher it holds is not
/// boxed.)
#[allow(clippy::large_enum_variant)]
pub enum Cards {
    /// A template set made earlier.
    Templates(Matcher),
    /// Calibrate from this game's deal, whose cards are given, while learning the stock; and save
    /// the template set in the folder, when one is given.
    CalibrateFrom(Deck, Option<std::path::PathBuf>),
    /// Calibrate from this game's deal, whose cards the watcher labels (13 ranks and 4 suits)
    /// once the agent has drawn through the stock; and save the set in the folder, when given.
    CalibrateGuided(Option<std::path::PathBuf>),
}

/// What one place of a frame was read as, and where it is: a card (`7h`), `?` for a place no card
/// matches well enough, or what else the game shows there (TriPeaks' `back`).
#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    pub rect: Rect,
    pub text: String,
    /// How sure the reader is, 0 to 1.
    pub confidence: f32,
}

impl Mark {
    /// The mark of a place the shared recogniser read (none for an empty place).
    pub fn of_seen(rect: Rect, seen: Seen) -> Option<Mark> {
        let (text, confidence) = match seen {
            Seen::Empty => return None,
            Seen::Card(c, conf) => (c.to_string(), conf),
            Seen::Unknown(conf) => ("?".to_string(), conf),
        };
        Some(Mark {
            rect,
            text,
            confidence,
        })
    }
}

/// Who watches the agent play (the panel, the command line): progress, pictures, and whether to go on.
pub trait Watch {
    /// A line for the log.
    fn log(&mut self, _line: &str) {}
    /// A still frame and what was read at each place of it (none when the table was not found).
    /// Shared, so that a watcher keeps it without copying its pixels.
    fn seen(&mut self, _frame: &Arc<RgbaImage>, _marks: &[Mark]) {}
    /// A frame that could not be read as a board, and why (after `seen` with no marks).
    fn unreadable(&mut self, _frame: &RgbaImage, _why: &str) {}
    /// The plan, when it is made or remade: its steps as the game writes them.
    fn plan(&mut self, _steps: &[String]) {}
    /// How many steps of the plan are done.
    fn progress(&mut self, _done: usize) {}
    /// Asked before every action: Err stops play with that reason (pausing waits in here).
    fn proceed(&mut self) -> Result<(), String> {
        Ok(())
    }
    /// Guided calibration: the card of every corner (in corner order), labelled by whoever
    /// watches from the grouping offered; Err when no one can or the user gives up.
    fn label(&mut self, _corners: &Corners, _groups: Groups) -> Result<Vec<Card>, String> {
        Err("the cards of this deal must be labelled, and no one is here to label them".into())
    }
}

/// A watcher that only passes log lines to a function.
pub struct LogLines<F: FnMut(&str)>(pub F);

impl<F: FnMut(&str)> Watch for LogLines<F> {
    fn log(&mut self, line: &str) {
        (self.0)(line)
    }
}
