//! Klondike's table without a window: clicks become moves (click cards to pick them up, from the
//! waste, a foundation or a face-up card of a pile with everything on it, then click where they
//! go: a pile or a foundation; click the stock to draw, or to turn the waste back when it is
//! empty); Undo, Undo board and its dialog, New deal, animation timing, faults and the event log
//! are the shared `Session`'s. Time is passed in, so tests drive it without a clock or a display.

use super::layout::{Layout, Target};
use super::scene::{foundation_top, render, status_line, Scene, Selection};
use crate::cards::{Deck, Suit};
use crate::games::klondike::rules::Table as Position;
use crate::games::klondike::{Draw, KlondikeDeck, Step};
use crate::table::harness::{DealSource, Event, Faults, Flight};
use crate::table::look::Look;
use crate::table::rect::Rect;
use crate::table::render::Renderer;
use crate::table::session::{Pressed, Session};
use crate::table::view::{self, Model};
use image::RgbaImage;
use std::ops::{Deref, DerefMut};

/// The table: a game session and the cards picked up, if any.
pub struct Table {
    session: Session<Position, Step>,
    selection: Option<Selection>,
}

impl Deref for Table {
    type Target = Session<Position, Step>;
    fn deref(&self) -> &Session<Position, Step> {
        &self.session
    }
}

impl DerefMut for Table {
    fn deref_mut(&mut self) -> &mut Session<Position, Step> {
        &mut self.session
    }
}

fn deal_one(deck: &Deck) -> Position {
    Position::deal(&KlondikeDeck(deck.clone()), Draw::One)
}

fn deal_three(deck: &Deck) -> Position {
    Position::deal(&KlondikeDeck(deck.clone()), Draw::Three)
}

impl Table {
    pub fn new(
        source: DealSource,
        deck: Deck,
        draw: Draw,
        animation_ms: u64,
        faults: Faults,
    ) -> Table {
        let deal = match draw {
            Draw::One => deal_one,
            Draw::Three => deal_three,
        };
        Table {
            session: Session::new(source, deck, deal, animation_ms, faults),
            selection: None,
        }
    }

    pub fn selection(&self) -> Option<Selection> {
        self.selection
    }

    /// A click at window pixel (x, y) at `now_ms`, against the layout the window shows.
    pub fn click(&mut self, layout: &Layout, x: i32, y: i32, now_ms: u64) {
        if self
            .session
            .click_interruption(&layout.chrome, x, y, now_ms)
        {
            return;
        }
        let target = layout.hit(x, y, self.dialog, self.shown_state(now_ms));
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
        if button.is_some() || self.dialog {
            self.selection = None;
        }
        if self.session.press(button, now_ms) == Pressed::Handled {
            return;
        }
        match (self.selection.take(), target) {
            (_, Target::Stock) => {
                let step = if self.state.stock.is_empty() {
                    Step::Recycle
                } else {
                    Step::Draw
                };
                self.play(step, now_ms);
            }
            (None, Target::None | Target::Button(_)) => {}
            (None, _) => self.pick_up(target, now_ms),
            (Some(held), _) => match self.step_to(held, target) {
                Some(step) => self.play(step, now_ms),
                // Another card of the same kind of place: that one is picked up instead.
                None if Some(held) != self.selection_at(target) => self.pick_up(target, now_ms),
                None => {}
            },
        }
    }

    /// What a click on `target` would pick up, if anything.
    fn selection_at(&self, target: Target) -> Option<Selection> {
        let position = &self.state;
        match target {
            Target::Waste => (!position.waste.is_empty()).then_some(Selection::Waste),
            Target::Foundation(f) => {
                foundation_top(position, f as usize).map(|_| Selection::Foundation(f))
            }
            Target::Pile {
                pile,
                card: Some(k),
            } => {
                let p = &position.piles[pile as usize];
                ((k as usize) >= p.down && (k as usize) < p.cards.len())
                    .then_some(Selection::Pile { pile, from: k })
            }
            _ => None,
        }
    }

    /// Picks up the cards at `target`, or says why nothing is picked up there.
    fn pick_up(&mut self, target: Target, now_ms: u64) {
        self.selection = self.selection_at(target);
        if self.selection.is_none() {
            let why = match target {
                Target::Pile { card: Some(_), .. } => "that card is face down",
                Target::Pile { card: None, .. } => "the pile is empty",
                Target::Waste => "the waste is empty",
                Target::Foundation(_) => "the foundation is empty",
                _ => return,
            };
            self.illegal(now_ms, why);
        }
    }

    /// The step that puts the cards held onto `target`, if the click is one (the rules judge it).
    fn step_to(&self, held: Selection, target: Target) -> Option<Step> {
        let position = &self.state;
        match (held, target) {
            (Selection::Waste, Target::Foundation(_)) => {
                position.waste.last().map(|&c| Step::ToFoundation(c))
            }
            (Selection::Pile { pile, from }, Target::Foundation(_)) => {
                let p = &position.piles[pile as usize];
                // One card only: a run does not go to a foundation.
                (from as usize + 1 == p.cards.len())
                    .then(|| Step::ToFoundation(p.cards[from as usize]))
            }
            (Selection::Waste, Target::Pile { pile: to, .. }) => Some(Step::WasteToPile(to)),
            (Selection::Foundation(f), Target::Pile { pile: to, .. }) => {
                Some(Step::FoundationToPile(Suit::ALL[f as usize], to))
            }
            (Selection::Pile { pile, from }, Target::Pile { pile: to, .. }) if pile != to => {
                let count = position.piles[pile as usize].cards.len() - from as usize;
                Some(Step::PileToPile {
                    from: pile,
                    to,
                    count: count as u8,
                })
            }
            _ => None,
        }
    }

    /// Applies `step` if the rules allow it, logging it and starting its animation.
    pub fn play(&mut self, step: Step, now_ms: u64) {
        self.selection = None;
        let before = self.state.clone();
        if let Err(why) = self.state.play(step) {
            self.illegal(now_ms, &format!("{step}: {why}"));
            return;
        }
        self.record(before, step, now_ms);
        if self.state.is_won() {
            self.harness.log(now_ms, Event::Cleared);
        }
    }

    /// What the window shows at `now_ms`.
    pub fn scene(&self, layout: &Layout, now_ms: u64) -> Scene {
        let status = status_line(&self.deal_label(), &self.state, self.steps());
        let mut scene = Scene::still(self.shown_state(now_ms), status);
        scene.dialog = self.dialog_shown(now_ms);
        scene.interruption = self.interruption;
        scene.selection = self.selection;
        if let Some((m, t)) = self.flying(now_ms) {
            fly(&mut scene, layout, &m.before, &self.state, m.step, t);
        }
        scene
    }

    /// The clicks that make `step` now, in order (for scripted play and the agent).
    pub fn targets_of(&self, step: Step) -> Option<Vec<Target>> {
        targets_of(&self.state, step)
    }
}

/// The clicks that make `step` in `position`: one on the stock for Draw and Recycle, else one to
/// pick the cards up and one where they go.
pub fn targets_of(position: &Position, step: Step) -> Option<Vec<Target>> {
    let pile_top = |i: u8| -> Option<Target> {
        let p = position.piles.get(i as usize)?;
        Some(Target::Pile {
            pile: i,
            card: p.cards.len().checked_sub(1).map(|k| k as u8),
        })
    };
    Some(match step {
        Step::Draw | Step::Recycle => vec![Target::Stock],
        Step::ToFoundation(card) => {
            let from = if position.waste.last() == Some(&card) {
                Target::Waste
            } else {
                let i = position
                    .piles
                    .iter()
                    .position(|p| p.cards.last() == Some(&card))?;
                pile_top(i as u8)?
            };
            vec![from, Target::Foundation(card.suit.index() as u8)]
        }
        Step::PileToFoundation(from) => {
            let card = *position.piles.get(from as usize)?.cards.last()?;
            vec![pile_top(from)?, Target::Foundation(card.suit.index() as u8)]
        }
        Step::WasteToPile(to) => vec![Target::Waste, pile_top(to)?],
        Step::PileToPile { from, to, count } => {
            let p = position.piles.get(from as usize)?;
            let k = p.cards.len().checked_sub(count as usize)?;
            let pick = Target::Pile {
                pile: from,
                card: Some(k as u8),
            };
            vec![pick, pile_top(to)?]
        }
        Step::FoundationToPile(suit, to) => {
            vec![Target::Foundation(suit.index() as u8), pile_top(to)?]
        }
    })
}

/// Sets the scene of a move in flight, `t` of the way (0 to 1): the cards moving leave their
/// place in `before` and fly to theirs in `after`, which shows without them until they land.
fn fly(
    scene: &mut Scene,
    layout: &Layout,
    before: &Position,
    after: &Position,
    step: Step,
    t: f32,
) {
    let mut flights: Vec<(Rect, Rect, Option<crate::cards::Card>)> = Vec::new();
    let top_rect = |position: &Position, i: usize, from_top: usize| {
        let p = &position.piles[i];
        layout.pile_card(i, p.cards.len() - 1 - from_top, p.down)
    };
    match step {
        Step::Draw => {
            // The drawn cards fly from the stock to the waste, which shows what it showed before.
            let drawn = after.waste.len() - before.waste.len();
            let shown = Layout::waste_shown(after);
            scene.waste = before.waste[before.waste.len() - Layout::waste_shown(before)..].to_vec();
            for k in 0..drawn {
                let card = after.waste[after.waste.len() - drawn + k];
                let to = layout.waste_card(shown - drawn + k);
                flights.push((layout.stock, to, Some(card)));
            }
        }
        Step::Recycle => {}
        Step::ToFoundation(card) => {
            let from = if before.waste.last() == Some(&card) {
                layout.waste_top(before)
            } else {
                match before
                    .piles
                    .iter()
                    .position(|p| p.cards.last() == Some(&card))
                {
                    Some(i) => top_rect(before, i, 0),
                    None => return,
                }
            };
            let f = card.suit.index();
            scene.foundations[f] = foundation_top(before, f);
            flights.push((from, layout.foundations[f], Some(card)));
        }
        Step::PileToFoundation(i) => {
            let i = i as usize;
            let Some(&card) = before.piles.get(i).and_then(|p| p.cards.last()) else {
                return;
            };
            let f = card.suit.index();
            scene.foundations[f] = foundation_top(before, f);
            flights.push((top_rect(before, i, 0), layout.foundations[f], Some(card)));
        }
        Step::WasteToPile(to) | Step::FoundationToPile(_, to) => {
            let to = to as usize;
            let from = match step {
                Step::WasteToPile(_) => layout.waste_top(before),
                Step::FoundationToPile(suit, _) => {
                    scene.foundations[suit.index()] = foundation_top(before, suit.index());
                    layout.foundations[suit.index()]
                }
                _ => unreachable!(),
            };
            let card = after.piles[to].cards.last().copied();
            scene.piles[to].0.pop();
            flights.push((from, top_rect(after, to, 0), card));
        }
        Step::PileToPile { from, to, count } => {
            let (from, to, count) = (from as usize, to as usize, count as usize);
            for k in (0..count).rev() {
                let card = after.piles[to].cards[after.piles[to].cards.len() - 1 - k];
                flights.push((
                    top_rect(before, from, k),
                    top_rect(after, to, k),
                    Some(card),
                ));
            }
            let pile = &mut scene.piles[to].0;
            pile.truncate(pile.len() - count);
        }
    }
    for (from, to, card) in flights {
        scene.flights.push(Flight {
            card,
            x: from.x as f32 + (to.x - from.x) as f32 * t,
            y: from.y as f32 + (to.y - from.y) as f32 * t,
        });
    }
}

/// A seeded deal's table.
pub fn seeded(seed: u64, draw: Draw, animation_ms: u64, faults: Faults) -> Table {
    Table::new(
        DealSource::Seed(seed),
        Deck::shuffled(seed),
        draw,
        animation_ms,
        faults,
    )
}

/// Klondike's table as the window shows it.
pub type View = view::View<Table>;

impl Model for Table {
    type Layout = Layout;
    type Scene = Scene;
    /// Klondike has its own look only (the game refuses `--look msc` before a table is made).
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
