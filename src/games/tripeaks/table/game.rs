//! TriPeaks' table without a window: clicks become moves as in MSC (click a face-up card one rank
//! from the waste's top to play it, click the stock to draw), with Undo, Undo board and its dialog,
//! New deal, animation timing, faults and the event log of the shared `table::harness::Harness`. Time is
//! passed in, so tests drive it without a clock or a display.

use super::layout::{Layout, Target};
use super::scene::{render, status_line, Scene};
use crate::cards::Deck;
use crate::games::tripeaks::state::State;
use crate::games::tripeaks::step::Step;
use crate::table::chrome::Button;
use crate::table::harness::Flight;
use crate::table::harness::{deal_label, next_seed, DealSource, Event, Faults, Harness, Motion};
use crate::table::render::Renderer;
use crate::table::window::TableView;
use image::RgbaImage;

/// The table: the deal, the position, the dialog and the move in flight.
pub struct Table {
    source: DealSource,
    deck: Deck,
    state: State,
    history: Vec<(State, Step)>,
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
            dialog: false,
            motion: None,
            harness: Harness::new(animation_ms, faults),
        };
        let deck = table.deck.to_string();
        table.harness.log(0, Event::Deal { deck });
        table
    }

    pub fn state(&self) -> &State {
        &self.state
    }
    pub fn deck(&self) -> &Deck {
        &self.deck
    }
    pub fn dialog_open(&self) -> bool {
        self.dialog
    }
    /// Steps taken since the deal (Undo takes one back, Undo board all).
    pub fn steps(&self) -> usize {
        self.history.len()
    }
    pub fn take_events(&mut self) -> Vec<(u64, Event)> {
        self.harness.take_events()
    }
    /// True while the picture is changing or about to change.
    pub fn is_busy(&self, now_ms: u64) -> bool {
        self.harness.is_moving(self.motion.as_ref(), now_ms)
    }

    /// The position the picture shows at `now_ms`: before a lagging move starts, the old one.
    fn shown_state(&self, now_ms: u64) -> &State {
        match &self.motion {
            Some(m) if now_ms < m.start_ms => &m.before,
            _ => &self.state,
        }
    }

    /// A click at window pixel (x, y) at `now_ms`, against the layout the window shows.
    pub fn click(&mut self, layout: &Layout, x: i32, y: i32, now_ms: u64) {
        let shown = self.shown_state(now_ms);
        let target = layout.hit(x, y, self.dialog, |i| shown.tableau()[i].is_some());
        if self.harness.click(x, y, target.log_name(), now_ms) {
            self.press(target, now_ms);
        }
    }

    /// Acts on a click that landed on `target`.
    pub fn press(&mut self, target: Target, now_ms: u64) {
        if self.dialog {
            match target {
                Target::Button(Button::Ok) => {
                    self.dialog = false;
                    self.restart(DealSource::clone(&self.source), now_ms, Event::UndoBoard);
                }
                Target::Button(Button::Cancel) => self.dialog = false,
                _ => self
                    .harness
                    .illegal(now_ms, "the Undo board dialog is open: press OK or Cancel"),
            }
            return;
        }
        match target {
            Target::Button(Button::Undo) => self.undo(now_ms),
            Target::Button(Button::UndoBoard) => self.dialog = true,
            Target::Button(Button::NewDeal) => {
                let seed = next_seed(&self.source);
                self.deck = Deck::shuffled(seed);
                let deck = self.deck.to_string();
                self.restart(DealSource::Seed(seed), now_ms, Event::Deal { deck });
            }
            Target::Button(_) => self.harness.illegal(now_ms, "no dialog is open"),
            Target::Tableau(i) => match self.state.tableau()[i as usize] {
                Some(card) => self.play(Step::Play(card), now_ms),
                None => self.harness.illegal(now_ms, "there is no card there"),
            },
            Target::Stock => self.play(Step::Draw, now_ms),
            Target::Waste | Target::None => {}
        }
    }

    /// Applies `step` if the rules allow it, logging it and starting its animation.
    pub fn play(&mut self, step: Step, now_ms: u64) {
        let before = self.state.clone();
        if let Err(why) = self.state.apply(step) {
            self.harness.illegal(now_ms, &format!("{step}: {why}"));
            return;
        }
        self.history.push((before.clone(), step));
        let start_ms = now_ms + self.harness.lag(now_ms);
        self.motion = Some(Motion {
            before,
            step,
            start_ms,
        });
        let step = step.to_string();
        self.harness.log(now_ms, Event::Move { step });
        if self.state.is_cleared() {
            self.harness.log(now_ms, Event::Cleared);
        }
    }

    fn undo(&mut self, now_ms: u64) {
        match self.history.pop() {
            Some((before, step)) => {
                self.state = before;
                self.motion = None;
                let step = step.to_string();
                self.harness.log(now_ms, Event::Undo { step });
            }
            None => self.harness.illegal(now_ms, "nothing to undo"),
        }
    }

    /// The deal again from its start (Undo board), or a new one (New deal).
    fn restart(&mut self, source: DealSource, now_ms: u64, event: Event) {
        self.source = source;
        self.state = State::deal(&self.deck);
        self.history.clear();
        self.motion = None;
        self.harness.log(now_ms, event);
    }

    /// What the window shows at `now_ms`.
    pub fn scene(&self, layout: &Layout, now_ms: u64) -> Scene {
        let status = status_line(&deal_label(&self.source), &self.state, self.steps());
        let moving = self
            .motion
            .as_ref()
            .filter(|m| self.harness.is_moving(Some(*m), now_ms));
        let mut scene = match moving {
            Some(m) if now_ms < m.start_ms => Scene::still(&m.before, status),
            _ => Scene::still(&self.state, status),
        };
        scene.dialog = self.dialog;
        let Some(m) = moving.filter(|m| now_ms >= m.start_ms) else {
            return scene;
        };
        let t = self.harness.progress(m, now_ms);
        let (from, card) = match m.step {
            Step::Draw => (layout.stock, m.before.stock().first().copied()),
            Step::Play(card) => match m.before.tableau().iter().position(|&c| c == Some(card)) {
                Some(i) => (layout.slots[i], Some(card)),
                None => return scene,
            },
        };
        // The card lands on the waste: until it does, the waste shows the card under it.
        scene.waste_top = m.before.waste_top();
        let to = layout.waste;
        scene.flights.push(Flight {
            card,
            x: from.x as f32 + (to.x - from.x) as f32 * t,
            y: from.y as f32 + (to.y - from.y) as f32 * t,
        });
        scene
    }

    /// The click target that plays `step` now (for scripted play and the agent).
    pub fn target_of(&self, step: Step) -> Option<Target> {
        match step {
            Step::Draw => Some(Target::Stock),
            Step::Play(card) => self
                .state
                .tableau()
                .iter()
                .position(|&c| c == Some(card))
                .map(|i| Target::Tableau(i as u8)),
        }
    }
}

/// A seeded deal's table.
pub fn seeded(seed: u64, animation_ms: u64, faults: Faults) -> Table {
    Table::new(
        DealSource::Seed(seed),
        Deck::shuffled(seed),
        animation_ms,
        faults,
    )
}

/// TriPeaks' table as the window shows it: the game, its card art and the last picture's scene.
pub struct View {
    pub table: Table,
    pub renderer: Renderer,
    pub scale: f32,
    shown: Option<(u32, u32, Scene)>,
}

impl View {
    pub fn new(table: Table, renderer: Renderer, scale: f32) -> View {
        View {
            table,
            renderer,
            scale,
            shown: None,
        }
    }
    pub fn layout(&self, width: u32, height: u32) -> Layout {
        Layout::new(width, height, self.scale, self.renderer.theme().aspect())
    }
}

impl TableView for View {
    fn click(&mut self, width: u32, height: u32, x: i32, y: i32, now_ms: u64) {
        let layout = self.layout(width, height);
        self.table.click(&layout, x, y, now_ms);
    }
    fn picture(&mut self, width: u32, height: u32, now_ms: u64) -> Option<RgbaImage> {
        let layout = self.layout(width, height);
        let scene = self.table.scene(&layout, now_ms);
        if self.shown.as_ref() == Some(&(width, height, scene.clone())) {
            return None;
        }
        let image = render(&mut self.renderer, &scene, &layout);
        self.shown = Some((width, height, scene));
        Some(image)
    }
    fn is_busy(&self, now_ms: u64) -> bool {
        self.table.is_busy(now_ms)
    }
    fn take_events(&mut self) -> Vec<(u64, Event)> {
        self.table.take_events()
    }
}
