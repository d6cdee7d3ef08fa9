//! TriPeaks' table without a window: clicks become moves as in MSC (click a face-up card one rank
//! from the waste's top to play it, click the stock to draw); Undo, Undo board and its dialog, New
//! deal, animation timing, faults and the event log are the shared `Session`'s. Time is passed in,
//! so tests drive it without a clock or a display.

use super::layout::{Layout, Target};
use super::scene::{render, status_line, Scene};
use crate::cards::Deck;
use crate::games::tripeaks::state::State;
use crate::games::tripeaks::step::Step;
use crate::table::harness::Flight;
use crate::table::harness::{DealSource, Event, Faults};
use crate::table::look::Look;
use crate::table::render::Renderer;
use crate::table::session::{Pressed, Session};
use crate::table::view::{self, Model};
use image::RgbaImage;
use std::ops::{Deref, DerefMut};

/// The table: a game session (the deal, the position, the dialog and the move in flight).
pub struct Table {
    session: Session<State, Step>,
}

impl Deref for Table {
    type Target = Session<State, Step>;
    fn deref(&self) -> &Session<State, Step> {
        &self.session
    }
}

impl DerefMut for Table {
    fn deref_mut(&mut self) -> &mut Session<State, Step> {
        &mut self.session
    }
}

impl Table {
    pub fn new(source: DealSource, deck: Deck, animation_ms: u64, faults: Faults) -> Table {
        Table {
            session: Session::new(source, deck, State::deal, animation_ms, faults),
        }
    }

    /// A click at window pixel (x, y) at `now_ms`, against the layout the window shows.
    pub fn click(&mut self, layout: &Layout, x: i32, y: i32, now_ms: u64) {
        if self
            .session
            .click_interruption(&layout.chrome, x, y, now_ms)
        {
            return;
        }
        let shown = self.shown_state(now_ms);
        let target = layout.hit(x, y, self.dialog, |i| shown.tableau()[i].is_some());
        if self.harness.click(x, y, target.log_name(), now_ms) {
            self.press(target, now_ms);
        }
    }

    /// Acts on a click that landed on `target`.
    pub fn press(&mut self, target: Target, now_ms: u64) {
        let button = match target {
            Target::Button(b) => Some(b),
            _ => None,
        };
        if self.session.press(button, now_ms) == Pressed::Handled {
            return;
        }
        match target {
            Target::Tableau(i) => match self.state.tableau()[i as usize] {
                Some(card) => self.play(Step::Play(card), now_ms),
                None => self.harness.illegal(now_ms, "there is no card there"),
            },
            Target::Stock => self.play(Step::Draw, now_ms),
            Target::Button(_) | Target::Waste | Target::None => {}
        }
    }

    /// Applies `step` if the rules allow it, logging it and starting its animation.
    pub fn play(&mut self, step: Step, now_ms: u64) {
        let before = self.state.clone();
        if let Err(why) = self.state.apply(step) {
            self.illegal(now_ms, &format!("{step}: {why}"));
            return;
        }
        self.record(before, step, now_ms);
        if self.state.is_cleared() {
            self.harness.log(now_ms, Event::Cleared);
        }
    }

    /// What the window shows at `now_ms`.
    pub fn scene(&self, layout: &Layout, now_ms: u64) -> Scene {
        let status = status_line(&self.deal_label(), &self.state, self.steps());
        let mut scene = Scene::still(self.shown_state(now_ms), status);
        scene.dialog = self.dialog_shown(now_ms);
        scene.interruption = self.interruption;
        let Some((m, t)) = self.flying(now_ms) else {
            return scene;
        };
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

/// TriPeaks' table as the window shows it.
pub type View = view::View<Table>;

impl Model for Table {
    type Layout = Layout;
    type Scene = Scene;
    /// TriPeaks has its own look only (the game refuses `--look msc` before a table is made).
    fn layout(_: Look, width: u32, height: u32, scale: f32, aspect: f32) -> Layout {
        Layout::new(width, height, scale, aspect)
    }
    fn click(&mut self, layout: &Layout, x: i32, y: i32, now_ms: u64) {
        Table::click(self, layout, x, y, now_ms)
    }
    fn scene(&self, layout: &Layout, now_ms: u64) -> Scene {
        Table::scene(self, layout, now_ms)
    }
    fn draw(renderer: &mut Renderer, scene: &Scene, layout: &Layout) -> RgbaImage {
        render(renderer, scene, layout)
    }
    fn is_busy(&self, now_ms: u64) -> bool {
        self.session.is_busy(now_ms)
    }
    fn take_events(&mut self) -> Vec<(u64, Event)> {
        self.session.take_events()
    }
}
