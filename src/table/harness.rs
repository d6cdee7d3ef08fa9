//! The practice table's game, without a window: turns clicks into moves with MSC's interaction, keeps
//! Undo and Undo board, times the animations, injects faults and writes the event log. Time is passed
//! in (milliseconds since the table opened), so tests drive it without a clock or a display.

use crate::cards::{Card, SplitMix64};
use crate::table::interrupt::{Interruption, Planned};

/// Where a deal came from: shown in the status line and used by New deal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DealSource {
    Seed(u64),
    File(String),
}

/// Injected faults, for testing a player program against an unreliable game.
#[derive(Clone, Debug, PartialEq)]
pub struct Faults {
    /// Share of clicks ignored (0.0–1.0).
    pub drop_click_rate: f64,
    /// Extra delay before a move starts to animate: uniformly from `lag_ms.0` to `lag_ms.1`.
    pub lag_ms: (u64, u64),
    pub seed: u64,
    /// Dialogs raised over the table after given moves (`--interrupt STEP:KIND`).
    pub interrupts: Vec<Planned>,
}

impl Default for Faults {
    fn default() -> Faults {
        Faults {
            drop_click_rate: 0.0,
            lag_ms: (0, 0),
            seed: 0,
            interrupts: Vec::new(),
        }
    }
}

/// One line of the event log.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    Deal {
        deck: String,
    },
    Click {
        x: i32,
        y: i32,
        target: String,
        /// How long the move before it still had to run (lag and flight) when the click came,
        /// in ms; none when no move was under way.
        flying_ms: Option<u64>,
    },
    Move {
        step: String,
    },
    Illegal {
        why: String,
    },
    Undo {
        step: String,
    },
    UndoBoard,
    Cleared,
    /// The deal's score changed (games that keep one: Pyramid).
    Score {
        points: u32,
    },
    Fault {
        kind: String,
        detail: String,
    },
    /// An interruption showed over the table after the `after`-th move.
    Interrupt {
        kind: String,
        after: u32,
    },
    /// One of the interruption's buttons was pressed, and it closed.
    Dismiss {
        kind: String,
        button: String,
    },
}

impl Event {
    /// The JSON line for this event at `t_ms`.
    pub fn to_json(&self, t_ms: u64) -> String {
        let s = |v: &str| serde_json::to_string(v).expect("string");
        let body = match self {
            Event::Deal { deck } => format!(r#""event":"deal","deck":{}"#, s(deck)),
            Event::Click {
                x,
                y,
                target,
                flying_ms,
            } => {
                let flying = flying_ms.map_or(String::new(), |ms| format!(r#","flying_ms":{ms}"#));
                format!(
                    r#""event":"click","x":{x},"y":{y},"target":{}{flying}"#,
                    s(target)
                )
            }
            Event::Move { step } => format!(r#""event":"move","step":{}"#, s(step)),
            Event::Illegal { why } => format!(r#""event":"illegal","why":{}"#, s(why)),
            Event::Undo { step } => format!(r#""event":"undo","step":{}"#, s(step)),
            Event::UndoBoard => r#""event":"undo_board""#.to_string(),
            Event::Cleared => r#""event":"cleared""#.to_string(),
            Event::Score { points } => format!(r#""event":"score","points":{points}"#),
            Event::Fault { kind, detail } => {
                format!(
                    r#""event":"fault","kind":{},"detail":{}"#,
                    s(kind),
                    s(detail)
                )
            }
            Event::Interrupt { kind, after } => {
                format!(r#""event":"interrupt","kind":{},"after":{after}"#, s(kind))
            }
            Event::Dismiss { kind, button } => format!(
                r#""event":"dismiss","kind":{},"button":{}"#,
                s(kind),
                s(button)
            ),
        };
        format!(r#"{{"t_ms":{t_ms},{body}}}"#)
    }
}

/// A move on its way: the picture shows `before` until `start_ms`, then the cards fly for the
/// animation time. Any game's table: `S` its position, `T` its step.
#[derive(Clone, Debug)]
pub struct Motion<S, T> {
    pub before: S,
    pub step: T,
    pub start_ms: u64,
}

/// What every game's table does the same way: the event log, the injected faults (dropped clicks,
/// lag before a move) and the animation time.
pub struct Harness {
    pub animation_ms: u64,
    faults: Faults,
    rng: SplitMix64,
    events: Vec<(u64, Event)>,
    /// When the last move started lands (0: none under way).
    pub landing_ms: u64,
}

impl Harness {
    pub fn new(animation_ms: u64, faults: Faults) -> Harness {
        Harness {
            animation_ms,
            rng: SplitMix64(faults.seed),
            faults,
            events: Vec::new(),
            landing_ms: 0,
        }
    }

    pub fn log(&mut self, t_ms: u64, event: Event) {
        self.events.push((t_ms, event));
    }

    pub fn illegal(&mut self, now_ms: u64, why: &str) {
        self.log(
            now_ms,
            Event::Illegal {
                why: why.to_string(),
            },
        );
    }

    /// Events logged since the last call, with their times.
    pub fn take_events(&mut self) -> Vec<(u64, Event)> {
        std::mem::take(&mut self.events)
    }

    /// Logs a click on `target`; true when the click is to be acted on, false when the
    /// drop-click fault swallows it (logged as such).
    pub fn click(&mut self, x: i32, y: i32, target: String, now_ms: u64) -> bool {
        let flying_ms = (now_ms < self.landing_ms).then(|| self.landing_ms - now_ms);
        self.log(
            now_ms,
            Event::Click {
                x,
                y,
                target,
                flying_ms,
            },
        );
        if self.faults.drop_click_rate > 0.0 && self.rng.next_f64() < self.faults.drop_click_rate {
            self.log(
                now_ms,
                Event::Fault {
                    kind: "drop_click".into(),
                    detail: format!("click at {x},{y} ignored"),
                },
            );
            return false;
        }
        true
    }

    /// The interruption planned after the `moves`-th move, if any.
    pub fn interruption_after(&self, moves: u32) -> Option<Interruption> {
        self.faults
            .interrupts
            .iter()
            .find(|p| p.after == moves)
            .map(|p| p.kind)
    }

    /// How long a move waits before it animates (the lag fault, logged), in ms.
    pub fn lag(&mut self, now_ms: u64) -> u64 {
        let (a, b) = self.faults.lag_ms;
        if b == 0 {
            return 0;
        }
        let ms = a + (self.rng.next_f64() * (b - a + 1) as f64) as u64;
        let ms = ms.min(b);
        self.log(
            now_ms,
            Event::Fault {
                kind: "lag".into(),
                detail: format!("{ms} ms"),
            },
        );
        ms
    }

    /// True while `motion` is waiting out its lag or flying.
    pub fn is_moving<S, T>(&self, motion: Option<&Motion<S, T>>, now_ms: u64) -> bool {
        motion.is_some_and(|m| now_ms < m.start_ms + self.animation_ms)
    }

    /// How far a flying move is at `now_ms`, eased (0 at the start, 1 at the end).
    pub fn progress<S, T>(&self, motion: &Motion<S, T>, now_ms: u64) -> f32 {
        let t = now_ms.saturating_sub(motion.start_ms) as f32 / self.animation_ms.max(1) as f32;
        let t = t.min(1.0);
        t * t * (3.0 - 2.0 * t)
    }
}

/// The seed New deal moves to: the next seed, or seed 1 after a deck file.
pub fn next_seed(source: &DealSource) -> u64 {
    match source {
        DealSource::Seed(n) => n.wrapping_add(1),
        DealSource::File(_) => 1,
    }
}

/// The deal's label for the status line.
pub fn deal_label(source: &DealSource) -> String {
    match source {
        DealSource::Seed(n) => n.to_string(),
        DealSource::File(name) => name.to_uppercase(),
    }
}

/// A card moving across the table, drawn over everything else.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Flight {
    /// The face shown, or None for a card back.
    pub card: Option<Card>,
    /// Top-left corner in pixels.
    pub x: f32,
    pub y: f32,
}
