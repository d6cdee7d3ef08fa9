//! The practice table's game, without a window: turns clicks into moves with MSC's interaction, keeps
//! Undo and Undo board, times the animations, injects faults and writes the event log. Time is passed
//! in (milliseconds since the table opened), so tests drive it without a clock or a display.

use crate::cards::{Card, Deck, SplitMix64};
use crate::games::pyramid::position::Position;
use crate::games::pyramid::state::{Place, State};
use crate::games::pyramid::step::Step;
use crate::table::layout::{Layout, Target};
use crate::table::scene::{status_line, Flight, Scene, Selection};

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
}

impl Default for Faults {
    fn default() -> Faults {
        Faults {
            drop_click_rate: 0.0,
            lag_ms: (0, 0),
            seed: 0,
        }
    }
}

/// One line of the event log.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    Deal { deck: String },
    Click { x: i32, y: i32, target: String },
    Move { step: String },
    Illegal { why: String },
    Undo { step: String },
    UndoBoard,
    Cleared,
    Fault { kind: String, detail: String },
}

impl Event {
    /// The JSON line for this event at `t_ms`.
    pub fn to_json(&self, t_ms: u64) -> String {
        let s = |v: &str| serde_json::to_string(v).expect("string");
        let body = match self {
            Event::Deal { deck } => format!(r#""event":"deal","deck":{}"#, s(deck)),
            Event::Click { x, y, target } => {
                format!(r#""event":"click","x":{x},"y":{y},"target":{}"#, s(target))
            }
            Event::Move { step } => format!(r#""event":"move","step":{}"#, s(step)),
            Event::Illegal { why } => format!(r#""event":"illegal","why":{}"#, s(why)),
            Event::Undo { step } => format!(r#""event":"undo","step":{}"#, s(step)),
            Event::UndoBoard => r#""event":"undo_board""#.to_string(),
            Event::Cleared => r#""event":"cleared""#.to_string(),
            Event::Fault { kind, detail } => {
                format!(
                    r#""event":"fault","kind":{},"detail":{}"#,
                    s(kind),
                    s(detail)
                )
            }
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
}

impl Harness {
    pub fn new(animation_ms: u64, faults: Faults) -> Harness {
        Harness {
            animation_ms,
            rng: SplitMix64(faults.seed),
            faults,
            events: Vec::new(),
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
        self.log(now_ms, Event::Click { x, y, target });
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

/// The table: the deal, the position, the selection, the dialog and the moves in flight.
pub struct Table {
    source: DealSource,
    deck: Deck,
    state: State,
    history: Vec<(State, Step)>,
    selected: Option<Selection>,
    dialog: bool,
    motion: Option<Motion<State, Step>>,
    harness: Harness,
}

impl Table {
    pub fn new(source: DealSource, deck: Deck, animation_ms: u64, faults: Faults) -> Table {
        let mut table = Table {
            source,
            state: State::deal(&deck),
            deck,
            history: Vec::new(),
            selected: None,
            dialog: false,
            motion: None,
            harness: Harness::new(animation_ms, faults),
        };
        table.log(
            0,
            Event::Deal {
                deck: table.deck.to_string(),
            },
        );
        table
    }

    /// A seeded deal (the same seed gives the same deal everywhere).
    pub fn seeded(seed: u64, animation_ms: u64, faults: Faults) -> Table {
        Table::new(
            DealSource::Seed(seed),
            Deck::shuffled(seed),
            animation_ms,
            faults,
        )
    }

    pub fn state(&self) -> &State {
        &self.state
    }

    pub fn deck(&self) -> &Deck {
        &self.deck
    }

    pub fn selected(&self) -> Option<Selection> {
        self.selected
    }

    pub fn dialog_open(&self) -> bool {
        self.dialog
    }

    /// Steps taken since the deal (Undo takes one back, Undo board all).
    pub fn steps(&self) -> usize {
        self.history.len()
    }

    /// Events logged since the last call, with their times.
    pub fn take_events(&mut self) -> Vec<(u64, Event)> {
        self.harness.take_events()
    }

    fn log(&mut self, t_ms: u64, event: Event) {
        self.harness.log(t_ms, event);
    }

    /// The deal's label for the status line.
    pub fn deal_label(&self) -> String {
        deal_label(&self.source)
    }

    /// True while the picture is changing or about to change (a move waiting out its lag or flying).
    pub fn is_busy(&self, now_ms: u64) -> bool {
        self.harness.is_moving(self.motion.as_ref(), now_ms)
    }

    /// A click at window pixel (x, y) at time `now_ms`, against the layout the window shows.
    pub fn click(&mut self, layout: &Layout, x: i32, y: i32, now_ms: u64) {
        let shown = self.shown_state(now_ms).clone();
        let target = layout.hit(x, y, self.dialog, |p| shown.pyramid[p.index()].is_some());
        if self.harness.click(x, y, target.log_name(), now_ms) {
            self.press(target, now_ms);
        }
    }

    /// Acts on a click that landed on `target`.
    pub fn press(&mut self, target: Target, now_ms: u64) {
        if self.dialog {
            match target {
                Target::Ok => {
                    self.dialog = false;
                    self.undo_board(now_ms);
                }
                Target::Cancel => self.dialog = false,
                _ => self.illegal(now_ms, "the Undo board dialog is open: press OK or Cancel"),
            }
            return;
        }
        match target {
            Target::Undo => self.undo(now_ms),
            Target::UndoBoard => {
                self.selected = None;
                self.dialog = true;
            }
            Target::NewDeal => self.new_deal(now_ms),
            Target::Pyramid(p) => self.press_card(Selection::Pyramid(p), now_ms),
            Target::Waste => self.press_card(Selection::Waste, now_ms),
            Target::Stock => self.press_stock(now_ms),
            Target::Ok | Target::Cancel => self.illegal(now_ms, "no dialog is open"),
            Target::None => self.selected = None,
        }
    }

    fn card_at(&self, sel: Selection) -> Option<Card> {
        match sel {
            Selection::Pyramid(p) => self.state.pyramid[p.index()],
            Selection::Waste => self.state.waste_top(),
        }
    }

    fn press_card(&mut self, sel: Selection, now_ms: u64) {
        let Some(card) = self.card_at(sel) else {
            self.illegal(now_ms, "there is no card there");
            return;
        };
        if let Selection::Pyramid(p) = sel {
            if !self.state.is_uncovered(p) {
                self.illegal(now_ms, &format!("{card} is covered"));
                return;
            }
        }
        if card.is_king() {
            self.selected = None;
            self.play(Step::King(card), now_ms);
            return;
        }
        match self.selected.and_then(|s| self.card_at(s).map(|c| (s, c))) {
            Some((s, _)) if s == sel => self.selected = None,
            Some((_, other)) if other.value() + card.value() == 13 => {
                self.selected = None;
                self.play(Step::pair(other, card), now_ms);
            }
            Some((_, other)) => {
                self.selected = Some(sel);
                self.illegal(now_ms, &format!("{other} and {card} do not add up to 13"));
            }
            None => self.selected = Some(sel),
        }
    }

    /// The stock: pairs its top card with the selected card; with a card selected that does not
    /// pair, draws; with nothing selected, removes a king on top, else draws. When empty, recycles.
    fn press_stock(&mut self, now_ms: u64) {
        let selected = self.selected.take().and_then(|s| self.card_at(s));
        let Some(top) = self.state.stock_top() else {
            self.play(Step::Recycle, now_ms);
            return;
        };
        match selected {
            Some(other) if other.value() + top.value() == 13 => {
                self.play(Step::pair(other, top), now_ms)
            }
            None if top.is_king() => self.play(Step::King(top), now_ms),
            _ => self.play(Step::Draw, now_ms),
        }
    }

    fn illegal(&mut self, now_ms: u64, why: &str) {
        self.harness.illegal(now_ms, why);
    }

    /// Applies `step` if the rules allow it, logging it and starting its animation.
    pub fn play(&mut self, step: Step, now_ms: u64) {
        if let Some(why) = self.state.check(step) {
            self.illegal(now_ms, &format!("{step}: {why}"));
            return;
        }
        let before = self.state.clone();
        self.state.apply(step).expect("checked step");
        self.history.push((before.clone(), step));
        let lag = self.harness.lag(now_ms);
        self.motion = Some(Motion {
            before,
            step,
            start_ms: now_ms + lag,
        });
        self.log(
            now_ms,
            Event::Move {
                step: step.to_string(),
            },
        );
        if self.state.is_cleared() {
            self.log(now_ms, Event::Cleared);
        }
    }

    fn undo(&mut self, now_ms: u64) {
        self.selected = None;
        match self.history.pop() {
            Some((before, step)) => {
                self.state = before;
                self.motion = None;
                self.log(
                    now_ms,
                    Event::Undo {
                        step: step.to_string(),
                    },
                );
            }
            None => self.illegal(now_ms, "nothing to undo"),
        }
    }

    /// Back to the deal exactly, as MSC's Undo board does.
    fn undo_board(&mut self, now_ms: u64) {
        self.state = State::deal(&self.deck);
        self.history.clear();
        self.selected = None;
        self.motion = None;
        self.log(now_ms, Event::UndoBoard);
    }

    fn new_deal(&mut self, now_ms: u64) {
        let seed = next_seed(&self.source);
        self.source = DealSource::Seed(seed);
        self.deck = Deck::shuffled(seed);
        self.state = State::deal(&self.deck);
        self.history.clear();
        self.selected = None;
        self.motion = None;
        self.log(
            now_ms,
            Event::Deal {
                deck: self.deck.to_string(),
            },
        );
    }

    /// The position the picture shows at `now_ms`: before a lagging move starts, the old one.
    fn shown_state(&self, now_ms: u64) -> &State {
        match &self.motion {
            Some(m) if now_ms < m.start_ms => &m.before,
            _ => &self.state,
        }
    }

    /// What the window shows at `now_ms`.
    pub fn scene(&self, layout: &Layout, now_ms: u64) -> Scene {
        let status = status_line(&self.deal_label(), &self.state, self.steps());
        let Some(m) = self
            .motion
            .as_ref()
            .filter(|m| self.harness.is_moving(Some(*m), now_ms))
        else {
            let mut scene = Scene::still(&self.state, self.selected, status);
            scene.dialog = self.dialog;
            return scene;
        };
        if now_ms < m.start_ms {
            let mut scene = Scene::still(&m.before, self.selected, status);
            scene.dialog = self.dialog;
            return scene;
        }
        let t = self.harness.progress(m, now_ms);
        let mut scene = Scene::still(&self.state, self.selected, status);
        scene.dialog = self.dialog;
        let fly = |from: crate::table::layout::Rect, to: crate::table::layout::Rect, card| Flight {
            card,
            x: from.x as f32 + (to.x - from.x) as f32 * t,
            y: from.y as f32 + (to.y - from.y) as f32 * t,
        };
        match m.step {
            Step::Draw => {
                scene.waste_top = m.before.waste_top();
                scene
                    .flights
                    .push(fly(layout.stock, layout.waste, m.before.stock_top()));
            }
            Step::Recycle => {
                scene.stock_count = 0;
                scene.stock_top = None;
                scene.flights.push(fly(layout.waste, layout.stock, None));
            }
            Step::King(_) | Step::Pair(..) => {
                for card in m.step.cards() {
                    let from = match m.before.place_of(card) {
                        Place::Pyramid(p) => layout.slots[p.index()],
                        Place::StockTop => layout.stock,
                        Place::WasteTop => layout.waste,
                        Place::Buried | Place::Gone => continue,
                    };
                    scene.flights.push(fly(from, layout.discard, Some(card)));
                }
            }
        }
        scene
    }

    /// The pyramid slot or pile holding `card` now, as a click target (for scripted play).
    pub fn target_of(&self, card: Card) -> Option<Target> {
        match self.state.place_of(card) {
            Place::Pyramid(p) => Some(Target::Pyramid(p)),
            Place::StockTop => Some(Target::Stock),
            Place::WasteTop => Some(Target::Waste),
            Place::Buried | Place::Gone => None,
        }
    }
}

/// The clicks that make `step` in `state` on the table: a pair with the stock's top card is its
/// other card, then the stock; any other pair is its two cards. Drawing a king off the stock needs a
/// card selected first (else the click removes the king), so an uncovered non-king card is selected.
pub fn clicks_for(state: &State, step: Step) -> Vec<Target> {
    let target = |card: Card| match state.place_of(card) {
        Place::Pyramid(p) => Target::Pyramid(p),
        Place::StockTop => Target::Stock,
        Place::WasteTop => Target::Waste,
        Place::Buried | Place::Gone => Target::None,
    };
    match step {
        Step::Draw if state.stock_top().is_some_and(|c| c.is_king()) => {
            let helper = Position::all().find(|p| {
                state.is_uncovered(*p) && state.pyramid[p.index()].is_some_and(|c| !c.is_king())
            });
            match (helper, state.waste_top()) {
                (Some(p), _) => vec![Target::Pyramid(p), Target::Stock],
                (None, Some(w)) if !w.is_king() => vec![Target::Waste, Target::Stock],
                _ => vec![Target::None],
            }
        }
        Step::Draw | Step::Recycle => vec![Target::Stock],
        Step::King(k) => vec![target(k)],
        Step::Pair(a, b) => {
            let (ta, tb) = (target(a), target(b));
            if ta == Target::Stock {
                vec![tb, ta]
            } else {
                vec![ta, tb]
            }
        }
    }
}

/// Position `i` (0..28) as a pyramid target.
pub fn pyramid(i: u8) -> Target {
    Target::Pyramid(Position(i))
}
