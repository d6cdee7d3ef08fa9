//! Any Pyramid position and the rules that change it: the one rules module of the project.
//!
//! Rules (Microsoft Solitaire Collection, Board challenge): remove a king alone, or two cards
//! whose values sum to 13, taken from the uncovered pyramid cards, the stock's top card and the
//! waste's top card (stock top and waste top may also pair with each other). Draw moves the stock
//! top onto the waste. When the stock is empty, Recycle turns the waste back into the stock in the
//! same order, at most twice. The board is cleared when the 28 pyramid cards are gone, and then the
//! deal is over: no step is legal any more.

use super::position::{Position, PYRAMID_SIZE};
use super::step::Step;
use crate::cards::{Card, Deck};
use std::fmt;

/// How many times the waste may be turned back into the stock (three passes in all).
pub const MAX_RECYCLES: u8 = 2;

/// A game position: what is left in the pyramid, the stock and the waste, and recycles used.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// The pyramid by position (top row first); `None` where the card was removed.
    pub pyramid: [Option<Card>; PYRAMID_SIZE],
    /// The stock, top card first (the next Draw takes `stock[0]`).
    pub stock: Vec<Card>,
    /// The waste, bottom card first (its top card is the last).
    pub waste: Vec<Card>,
    /// How many recycles have been used (0..=2).
    pub recycles: u8,
}

/// Why a step cannot be taken in a state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalStep {
    pub step: Step,
    pub why: String,
}

impl fmt::Display for IllegalStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal step {}: {}", self.step, self.why)
    }
}
impl std::error::Error for IllegalStep {}

/// Why a described position cannot occur in a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateError(pub String);

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not a possible Pyramid position: {}", self.0)
    }
}
impl std::error::Error for StateError {}

/// Where a card is, seen from the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    Pyramid(Position),
    StockTop,
    WasteTop,
    /// In the stock or waste, under their top cards.
    Buried,
    /// Removed from the game, or never in it.
    Gone,
}

impl State {
    /// The position at the start of a deal.
    pub fn deal(deck: &Deck) -> State {
        let cards = deck.cards();
        let mut pyramid = [None; PYRAMID_SIZE];
        for (slot, card) in pyramid.iter_mut().zip(cards.iter()) {
            *slot = Some(*card);
        }
        State {
            pyramid,
            stock: cards[PYRAMID_SIZE..].to_vec(),
            waste: Vec::new(),
            recycles: 0,
        }
    }

    /// A mid-game position, checked: no card twice, every remaining pyramid card's upper
    /// neighbours still there, at most 24 cards in stock and waste, at most two recycles used.
    pub fn new(
        pyramid: [Option<Card>; PYRAMID_SIZE],
        stock: Vec<Card>,
        waste: Vec<Card>,
        recycles: u8,
    ) -> Result<State, StateError> {
        let state = State {
            pyramid,
            stock,
            waste,
            recycles,
        };
        state.validate()?;
        Ok(state)
    }

    /// Checks that this position can occur in a game.
    pub fn validate(&self) -> Result<(), StateError> {
        let mut seen = [false; 52];
        let all = self
            .pyramid
            .iter()
            .flatten()
            .chain(&self.stock)
            .chain(&self.waste);
        for card in all {
            if std::mem::replace(&mut seen[card.index()], true) {
                return Err(StateError(format!("{card} appears twice")));
            }
        }
        // A removed card was uncovered first: both cards covering it are gone too.
        for p in Position::all() {
            if self.pyramid[p.index()].is_some() {
                continue;
            }
            if let Some(kids) = p.covered_by() {
                if let Some(k) = kids.iter().find(|k| self.pyramid[k.index()].is_some()) {
                    return Err(StateError(format!(
                        "pyramid position {} is empty but position {} that covers it is not",
                        p.0, k.0
                    )));
                }
            }
        }
        if self.stock.len() + self.waste.len() > 52 - PYRAMID_SIZE {
            return Err(StateError(format!(
                "{} cards in stock and waste, at most 24",
                self.stock.len() + self.waste.len()
            )));
        }
        if self.recycles > MAX_RECYCLES {
            return Err(StateError(format!(
                "{} recycles used, at most {MAX_RECYCLES}",
                self.recycles
            )));
        }
        Ok(())
    }

    /// Is the card at this position in the pyramid and uncovered?
    pub fn is_uncovered(&self, p: Position) -> bool {
        self.pyramid[p.index()].is_some()
            && p.covered_by()
                .is_none_or(|kids| kids.iter().all(|k| self.pyramid[k.index()].is_none()))
    }

    pub fn stock_top(&self) -> Option<Card> {
        self.stock.first().copied()
    }

    pub fn waste_top(&self) -> Option<Card> {
        self.waste.last().copied()
    }

    /// Where a card is.
    pub fn place_of(&self, card: Card) -> Place {
        if let Some(i) = self.pyramid.iter().position(|c| *c == Some(card)) {
            return Place::Pyramid(Position(i as u8));
        }
        if self.stock_top() == Some(card) {
            return Place::StockTop;
        }
        if self.waste_top() == Some(card) {
            return Place::WasteTop;
        }
        if self.stock.contains(&card) || self.waste.contains(&card) {
            return Place::Buried;
        }
        Place::Gone
    }

    /// Can this card be removed now (uncovered in the pyramid, or on top of stock or waste)?
    pub fn is_available(&self, card: Card) -> bool {
        match self.place_of(card) {
            Place::Pyramid(p) => self.is_uncovered(p),
            Place::StockTop | Place::WasteTop => true,
            Place::Buried | Place::Gone => false,
        }
    }

    /// The cards that can be removed now: uncovered pyramid cards, stock top, waste top.
    pub fn available_cards(&self) -> Vec<Card> {
        let mut cards: Vec<Card> = Position::all()
            .filter(|p| self.is_uncovered(*p))
            .filter_map(|p| self.pyramid[p.index()])
            .collect();
        cards.extend(self.stock_top());
        cards.extend(self.waste_top());
        cards
    }

    /// Why the step is illegal here, or `None` when it is legal.
    pub fn check(&self, step: Step) -> Option<String> {
        let unavailable = |c: Card| match self.place_of(c) {
            Place::Pyramid(p) if !self.is_uncovered(p) => Some(format!("{c} is covered")),
            Place::Buried => Some(format!("{c} is not on top of the stock or waste")),
            Place::Gone => Some(format!("{c} is not in play")),
            _ => None,
        };
        if self.is_cleared() {
            return Some("the pyramid is cleared: the deal is over".into());
        }
        match step {
            Step::Draw if self.stock.is_empty() => Some("the stock is empty".into()),
            Step::Draw => None,
            Step::Recycle if !self.stock.is_empty() => Some("the stock is not empty".into()),
            Step::Recycle if self.recycles >= MAX_RECYCLES => Some("no recycles left".into()),
            Step::Recycle if self.waste.is_empty() => Some("the waste is empty".into()),
            Step::Recycle => None,
            Step::King(k) if !k.is_king() => Some(format!("{k} is not a king and cannot go alone")),
            Step::King(k) => unavailable(k),
            Step::Pair(a, b) if a.value() + b.value() != 13 => {
                Some(format!("{a} and {b} do not sum to 13"))
            }
            Step::Pair(a, b) => unavailable(a).or_else(|| unavailable(b)),
        }
    }

    /// Takes a step, or says why it is illegal (and changes nothing).
    pub fn apply(&mut self, step: Step) -> Result<(), IllegalStep> {
        if let Some(why) = self.check(step) {
            return Err(IllegalStep { step, why });
        }
        match step {
            Step::Draw => {
                let card = self.stock.remove(0);
                self.waste.push(card);
            }
            Step::Recycle => {
                self.stock = std::mem::take(&mut self.waste);
                self.recycles += 1;
            }
            Step::King(_) | Step::Pair(..) => {
                for card in step.cards() {
                    self.remove(card);
                }
            }
        }
        Ok(())
    }

    /// The state after a step, or why it is illegal.
    pub fn after(&self, step: Step) -> Result<State, IllegalStep> {
        let mut next = self.clone();
        next.apply(step)?;
        Ok(next)
    }

    fn remove(&mut self, card: Card) {
        match self.place_of(card) {
            Place::Pyramid(p) => self.pyramid[p.index()] = None,
            Place::StockTop => {
                self.stock.remove(0);
            }
            Place::WasteTop => {
                self.waste.pop();
            }
            Place::Buried | Place::Gone => unreachable!("checked before removing"),
        }
    }

    /// Every legal step here: removals first, then Draw or Recycle.
    pub fn legal_steps(&self) -> Vec<Step> {
        if self.is_cleared() {
            return Vec::new();
        }
        let cards = self.available_cards();
        let mut steps = Vec::new();
        for (i, &a) in cards.iter().enumerate() {
            if a.is_king() {
                steps.push(Step::King(a));
            }
            for &b in &cards[i + 1..] {
                if a.value() + b.value() == 13 {
                    steps.push(Step::pair(a, b));
                }
            }
        }
        for step in [Step::Draw, Step::Recycle] {
            if self.check(step).is_none() {
                steps.push(step);
            }
        }
        steps
    }

    /// All 28 pyramid cards are gone.
    pub fn is_cleared(&self) -> bool {
        self.pyramid.iter().all(Option::is_none)
    }

    /// Cards still in the pyramid.
    pub fn pyramid_count(&self) -> usize {
        self.pyramid.iter().flatten().count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deal() -> State {
        State::deal(&Deck::shuffled(1))
    }

    #[test]
    fn bottom_row_is_uncovered_at_the_start() {
        let s = deal();
        let open: Vec<usize> = Position::all()
            .filter(|p| s.is_uncovered(*p))
            .map(|p| p.index())
            .collect();
        assert_eq!(open, (21..28).collect::<Vec<_>>());
        assert_eq!(s.available_cards().len(), 8);
    }

    #[test]
    fn draw_and_recycle_keep_order_and_limit() {
        let mut s = deal();
        let stock = s.stock.clone();
        for _ in 0..24 {
            s.apply(Step::Draw).unwrap();
        }
        assert!(s.apply(Step::Draw).is_err());
        assert_eq!(s.waste_top(), Some(stock[23]));
        s.apply(Step::Recycle).unwrap();
        assert_eq!(s.stock, stock);
        for _ in 0..24 {
            s.apply(Step::Draw).unwrap();
        }
        s.apply(Step::Recycle).unwrap();
        for _ in 0..24 {
            s.apply(Step::Draw).unwrap();
        }
        let err = s.apply(Step::Recycle).unwrap_err();
        assert_eq!(err.why, "no recycles left");
    }

    #[test]
    fn covered_cards_and_wrong_sums_are_refused() {
        let s = deal();
        let top = s.pyramid[0].unwrap();
        let partner = Card::all().find(|c| c.value() + top.value() == 13 && *c != top);
        if let Some(p) = partner {
            assert!(s.check(Step::pair(top, p)).is_some());
        }
        let a = s.pyramid[21].unwrap();
        let b = s.pyramid[22].unwrap();
        if a.value() + b.value() != 13 {
            assert!(s.check(Step::pair(a, b)).unwrap().contains("do not sum"));
        }
    }

    #[test]
    fn mid_game_positions_are_validated() {
        let mut s = deal();
        s.pyramid[21] = None;
        s.pyramid[15] = None; // 15 is covered by 21 and 22; 22 is still there
        assert!(s.validate().unwrap_err().0.contains("position 22"));
        let mut t = deal();
        t.waste.push(t.pyramid[0].unwrap());
        assert!(t.validate().unwrap_err().0.contains("twice"));
    }
}
