//! Pyramid's practice table without a window: turns clicks into moves with MSC's interaction (select
//! two cards that add up to 13, a king alone, the stock to draw); Undo, Undo board, New deal,
//! timing, faults and the event log are the shared `Session`'s. `PyramidView` is the table as the
//! window shows it.

use crate::cards::{Card, Deck};
use crate::games::pyramid::position::Position;
use crate::games::pyramid::score::points_of;
use crate::games::pyramid::state::{Place, State};
use crate::games::pyramid::step::Step;
use crate::games::pyramid::table::layout::{Layout, Target};
use crate::games::pyramid::table::scene::{status_line, Scene, Selection};
use crate::table::harness::{DealSource, Event, Faults, Flight};
use crate::table::look::Look;
use crate::table::render::Renderer;
use crate::table::session::{Pressed, Session};
use crate::table::view::{Model, View};
use image::RgbaImage;
use std::ops::{Deref, DerefMut};

/// The table: a game session (the deal, the position, the dialog, the move in flight) and the
/// selection.
pub struct Table {
    session: Session<State, Step>,
    selected: Option<Selection>,
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
            selected: None,
        }
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

    pub fn selected(&self) -> Option<Selection> {
        self.selected
    }

    /// A click at window pixel (x, y) at time `now_ms`, against the layout the window shows.
    pub fn click(&mut self, layout: &Layout, x: i32, y: i32, now_ms: u64) {
        if self
            .session
            .click_interruption(&layout.chrome, x, y, now_ms)
        {
            return;
        }
        let shown = self.shown_state(now_ms).clone();
        let target = layout.hit(x, y, self.dialog, |p| shown.pyramid[p.index()].is_some());
        if self.harness.click(x, y, target.log_name(), now_ms) {
            self.press(target, now_ms);
        }
    }

    /// Acts on a click that landed on `target`.
    /// Logs the score whenever it changes (a removal, Undo, Undo board, New deal).
    pub fn press(&mut self, target: Target, now_ms: u64) {
        let points = points_of(&self.state);
        self.act(target, now_ms);
        let now = points_of(&self.state);
        if now != points {
            self.harness.log(now_ms, Event::Score { points: now });
        }
    }

    fn act(&mut self, target: Target, now_ms: u64) {
        let button = match target {
            Target::Button(b) => Some(b),
            _ => None,
        };
        if self.session.press(button, now_ms) == Pressed::Handled {
            self.selected = None;
            return;
        }
        match target {
            Target::Pyramid(p) => self.press_card(Selection::Pyramid(p), now_ms),
            Target::Waste => self.press_card(Selection::Waste, now_ms),
            Target::Stock => self.press_stock(now_ms),
            Target::Button(_) | Target::None => self.selected = None,
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

    /// Applies `step` if the rules allow it, logging it and starting its animation.
    pub fn play(&mut self, step: Step, now_ms: u64) {
        if let Some(why) = self.state.check(step) {
            self.illegal(now_ms, &format!("{step}: {why}"));
            return;
        }
        let before = self.state.clone();
        self.state.apply(step).expect("checked step");
        self.record(before, step, now_ms);
        if self.state.is_cleared() {
            self.harness.log(now_ms, Event::Cleared);
        }
    }

    /// What the window shows at `now_ms`.
    pub fn scene(&self, layout: &Layout, now_ms: u64) -> Scene {
        let status = status_line(&self.deal_label(), &self.state, self.steps());
        let mut scene = Scene::still(self.shown_state(now_ms), self.selected, status);
        scene.dialog = self.dialog_shown(now_ms);
        scene.interruption = self.interruption;
        let Some((m, t)) = self.flying(now_ms) else {
            return scene;
        };
        let fly = |from: crate::table::rect::Rect, to: crate::table::rect::Rect, card| Flight {
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

/// Pyramid's table as the window shows it.
pub type PyramidView = View<Table>;

impl Model for Table {
    type Layout = Layout;
    type Scene = Scene;
    fn layout(look: Look, width: u32, height: u32, scale: f32, aspect: f32) -> Layout {
        Layout::for_look(look, width, height, scale, aspect)
    }
    fn click(&mut self, layout: &Layout, x: i32, y: i32, now_ms: u64) {
        Table::click(self, layout, x, y, now_ms)
    }
    fn scene(&self, layout: &Layout, now_ms: u64) -> Scene {
        Table::scene(self, layout, now_ms)
    }
    fn draw(renderer: &mut Renderer, scene: &Scene, layout: &Layout) -> RgbaImage {
        renderer.render(scene, layout)
    }
    fn is_busy(&self, now_ms: u64) -> bool {
        self.session.is_busy(now_ms)
    }
    fn take_events(&mut self) -> Vec<(u64, Event)> {
        self.session.take_events()
    }
}
