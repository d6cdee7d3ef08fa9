//! What every game's table model keeps the same way: the deal and where it came from, the position
//! and the steps that led to it (for Undo), the Undo board dialog, the move in flight and the
//! harness (faults, the event log, timing). Each game's `Table` holds one and adds how its cards
//! are played; the buttons (Undo, Undo board with its dialog, New deal) are handled here.

use crate::cards::Deck;
use crate::table::chrome::{Button, Chrome, DialogShown};
use crate::table::harness::{deal_label, next_seed, DealSource, Event, Faults, Harness, Motion};
use crate::table::interrupt::Interruption;
use std::fmt::Display;

/// One game on a table: `S` its position, `T` its step.
pub struct Session<S, T> {
    pub source: DealSource,
    pub deck: Deck,
    pub state: S,
    /// Each step taken since the deal, with the position it was taken from.
    pub history: Vec<(S, T)>,
    /// The Undo board dialog is open (or opening: see `dialog_from_ms`).
    pub dialog: bool,
    /// When the open dialog is drawn: its button's press dims the table at once, and the dialog
    /// itself shows after the lag fault's delay.
    dialog_from_ms: u64,
    pub motion: Option<Motion<S, T>>,
    pub harness: Harness,
    /// Moves accepted since the table opened (Undo does not take them back): when a planned
    /// interruption shows.
    pub moves: u32,
    /// The interruption showing over the table: it takes every click until a button closes it.
    pub interruption: Option<Interruption>,
    /// The game's position at the deal of a deck.
    deal: fn(&Deck) -> S,
}

/// What a press of a button did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pressed {
    /// The session handled it (a button, or a click refused while the dialog is open).
    Handled,
    /// Not the session's: a click on the game's cards or piles, for the game to handle.
    Game,
}

impl<S: Clone, T: Copy + Display> Session<S, T> {
    /// A session at the deal of `deck`, which is logged.
    pub fn new(
        source: DealSource,
        deck: Deck,
        deal: fn(&Deck) -> S,
        animation_ms: u64,
        faults: Faults,
    ) -> Session<S, T> {
        let mut session = Session {
            source,
            state: deal(&deck),
            deck,
            history: Vec::new(),
            dialog: false,
            dialog_from_ms: 0,
            motion: None,
            harness: Harness::new(animation_ms, faults),
            moves: 0,
            interruption: None,
            deal,
        };
        let deck = session.deck.to_string();
        session.harness.log(0, Event::Deal { deck });
        session
    }

    pub fn state(&self) -> &S {
        &self.state
    }

    pub fn deck(&self) -> &Deck {
        &self.deck
    }

    pub fn dialog_open(&self) -> bool {
        self.dialog
    }

    /// How far the Undo board dialog shows at `now_ms`.
    pub fn dialog_shown(&self, now_ms: u64) -> DialogShown {
        match (self.dialog, now_ms < self.dialog_from_ms) {
            (false, _) => DialogShown::Closed,
            (true, true) => DialogShown::Opening,
            (true, false) => DialogShown::Open,
        }
    }

    /// Steps taken since the deal (Undo takes one back, Undo board all).
    pub fn steps(&self) -> usize {
        self.history.len()
    }

    /// Events logged since the last call, with their times.
    pub fn take_events(&mut self) -> Vec<(u64, Event)> {
        self.harness.take_events()
    }

    /// The deal's label for the status line.
    pub fn deal_label(&self) -> String {
        deal_label(&self.source)
    }

    /// True while the picture is changing or about to change (a move waiting out its lag or
    /// flying, the Undo board dialog not yet drawn).
    pub fn is_busy(&self, now_ms: u64) -> bool {
        self.harness.is_moving(self.motion.as_ref(), now_ms)
            || self.dialog_shown(now_ms) == DialogShown::Opening
    }

    /// The position the picture shows at `now_ms`: before a lagging move starts, the old one.
    pub fn shown_state(&self, now_ms: u64) -> &S {
        match &self.motion {
            Some(m) if now_ms < m.start_ms => &m.before,
            _ => &self.state,
        }
    }

    /// The move flying at `now_ms` (started and not yet landed), with how far it has gone (0 to 1).
    pub fn flying(&self, now_ms: u64) -> Option<(&Motion<S, T>, f32)> {
        let m = self.motion.as_ref()?;
        (self.harness.is_moving(Some(m), now_ms) && now_ms >= m.start_ms)
            .then(|| (m, self.harness.progress(m, now_ms)))
    }

    /// Records `step`, just applied to `before` (the rules checked it): logged, undoable, and its
    /// animation started once the lag (a fault) is over.
    pub fn record(&mut self, before: S, step: T, now_ms: u64) {
        self.history.push((before.clone(), step));
        let start_ms = now_ms + self.harness.lag(now_ms);
        self.harness.landing_ms = start_ms + self.harness.animation_ms;
        self.motion = Some(Motion {
            before,
            step,
            start_ms,
        });
        let step = step.to_string();
        self.harness.log(now_ms, Event::Move { step });
        self.moves += 1;
        if let Some(kind) = self.harness.interruption_after(self.moves) {
            self.interruption = Some(kind);
            let (kind, after) = (kind.name().to_string(), self.moves);
            self.harness.log(now_ms, Event::Interrupt { kind, after });
        }
    }

    /// A click at (x, y) while an interruption shows: logged, and a press of one of its buttons
    /// closes it; anywhere else it is refused. False when none shows (the click is the table's).
    pub fn click_interruption(&mut self, chrome: &Chrome, x: i32, y: i32, now_ms: u64) -> bool {
        let Some(kind) = self.interruption else {
            return false;
        };
        let popup = chrome.popup(kind);
        let pressed = popup.button_at(x, y);
        let target = match pressed {
            Some(i) => format!("{}:{}", kind.name(), kind.buttons()[i].to_lowercase()),
            None => format!("under:{}", kind.name()),
        };
        if !self.harness.click(x, y, target, now_ms) {
            return true;
        }
        match pressed {
            Some(i) => {
                self.interruption = None;
                let button = kind.buttons()[i].to_lowercase();
                let kind = kind.name().to_string();
                self.harness.log(now_ms, Event::Dismiss { kind, button });
            }
            None => self.illegal(
                now_ms,
                &format!(
                    "the {} dialog is open: press one of its buttons",
                    kind.name()
                ),
            ),
        }
        true
    }

    /// A click refused, and why.
    pub fn illegal(&mut self, now_ms: u64, why: &str) {
        self.harness.illegal(now_ms, why);
    }

    /// A click on `button` (or, with `None`, elsewhere): while the Undo board dialog is open only
    /// its OK (back to the deal) and Cancel count, once it is drawn; otherwise Undo, Undo board
    /// (opens the dialog, after the lag fault's delay) and New deal. Anything else is the game's.
    pub fn press(&mut self, button: Option<Button>, now_ms: u64) -> Pressed {
        if self.dialog_shown(now_ms) == DialogShown::Opening {
            self.illegal(now_ms, "the Undo board dialog is still opening");
            return Pressed::Handled;
        }
        if self.dialog {
            match button {
                Some(Button::Ok) => {
                    self.dialog = false;
                    self.restart(now_ms, Event::UndoBoard);
                }
                Some(Button::Cancel) => self.dialog = false,
                _ => self.illegal(now_ms, "the Undo board dialog is open: press OK or Cancel"),
            }
            return Pressed::Handled;
        }
        match button {
            Some(Button::Undo) => self.undo(now_ms),
            Some(Button::UndoBoard) => {
                self.dialog = true;
                self.dialog_from_ms = now_ms + self.harness.lag(now_ms);
            }
            Some(Button::NewDeal) => {
                let seed = next_seed(&self.source);
                self.source = DealSource::Seed(seed);
                self.deck = Deck::shuffled(seed);
                let deck = self.deck.to_string();
                self.restart(now_ms, Event::Deal { deck });
            }
            Some(Button::Ok | Button::Cancel) => self.illegal(now_ms, "no dialog is open"),
            None => return Pressed::Game,
        }
        Pressed::Handled
    }

    fn undo(&mut self, now_ms: u64) {
        match self.history.pop() {
            Some((before, step)) => {
                self.state = before;
                self.motion = None;
                self.harness.landing_ms = 0;
                let step = step.to_string();
                self.harness.log(now_ms, Event::Undo { step });
            }
            None => self.illegal(now_ms, "nothing to undo"),
        }
    }

    /// The deal of the deck from its start (Undo board, New deal), logging `event`.
    fn restart(&mut self, now_ms: u64, event: Event) {
        self.state = (self.deal)(&self.deck);
        self.history.clear();
        self.motion = None;
        self.harness.landing_ms = 0;
        self.harness.log(now_ms, event);
    }
}
