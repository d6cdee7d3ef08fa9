//! Pyramid's practice table without a window: turns clicks into moves with MSC's interaction, keeps
//! Undo and Undo board and times the animations (faults and the event log are the shared
//! `Harness`'s); `PyramidView` is the table as the window shows it.

use crate::cards::{Card, Deck};
use crate::games::pyramid::position::Position;
use crate::games::pyramid::state::{Place, State};
use crate::games::pyramid::step::Step;
use crate::games::pyramid::table::layout::{Layout, Target};
use crate::games::pyramid::table::scene::{status_line, Scene, Selection};
use crate::table::chrome::Button;
use crate::table::harness::{
    deal_label, next_seed, DealSource, Event, Faults, Flight, Harness, Motion,
};
use crate::table::render::Renderer;
use crate::table::window::TableView;
use image::RgbaImage;

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
                Target::Button(Button::Ok) => {
                    self.dialog = false;
                    self.undo_board(now_ms);
                }
                Target::Button(Button::Cancel) => self.dialog = false,
                _ => self.illegal(now_ms, "the Undo board dialog is open: press OK or Cancel"),
            }
            return;
        }
        match target {
            Target::Button(Button::Undo) => self.undo(now_ms),
            Target::Button(Button::UndoBoard) => {
                self.selected = None;
                self.dialog = true;
            }
            Target::Button(Button::NewDeal) => self.new_deal(now_ms),
            Target::Pyramid(p) => self.press_card(Selection::Pyramid(p), now_ms),
            Target::Waste => self.press_card(Selection::Waste, now_ms),
            Target::Stock => self.press_stock(now_ms),
            Target::Button(Button::Ok) | Target::Button(Button::Cancel) => {
                self.illegal(now_ms, "no dialog is open")
            }
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

/// Pyramid's table as the window shows it: the game, its card art and the last picture's scene.
pub struct PyramidView {
    pub table: Table,
    pub renderer: Renderer,
    pub scale: f32,
    shown: Option<(u32, u32, Scene)>,
}

impl PyramidView {
    pub fn new(table: Table, renderer: Renderer, scale: f32) -> PyramidView {
        PyramidView {
            table,
            renderer,
            scale,
            shown: None,
        }
    }
    fn layout(&self, width: u32, height: u32) -> Layout {
        self.renderer.layout(width, height, self.scale)
    }
}

impl TableView for PyramidView {
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
        let image = self.renderer.render(&scene, &layout);
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
