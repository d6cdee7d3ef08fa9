//! TriPeaks' rules (Microsoft Solitaire Collection, Board challenge): any game state, which steps
//! are legal, and what each does. The table, the agent and the tests replay through this code; the
//! solver keeps its own packed form and is checked against it.
//!
//! A tableau card is face up once both cards covering it are gone (the bottom row from the start).
//! `Draw` turns the stock's top card onto the waste (no recycling); a face-up tableau card one rank
//! above or below the waste's top, ranks wrapping (an ace is next to both 2 and king), moves onto
//! the waste. The board is cleared when the 28 tableau cards are gone.

use super::step::Step;
use super::tableau::{covered_by, FIRST_STOCK, FIRST_WASTE, TABLEAU};
use crate::cards::{Card, Deck, Rank};
use std::fmt;

/// A TriPeaks position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    /// The tableau in deal order; `None` where the card is gone.
    tableau: [Option<Card>; TABLEAU],
    /// The stock, its top card first.
    stock: Vec<Card>,
    /// The waste, its top card last.
    waste: Vec<Card>,
}

/// Why a step cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalStep {
    StockEmpty,
    NotInTableau(Card),
    Covered(Card),
    NotNextTo { card: Card, top: Card },
}

impl fmt::Display for IllegalStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalStep::StockEmpty => f.write_str("Draw: the stock is empty"),
            IllegalStep::NotInTableau(c) => write!(f, "{c} is not in the tableau"),
            IllegalStep::Covered(c) => write!(f, "{c} is still covered"),
            IllegalStep::NotNextTo { card, top } => write!(
                f,
                "{card} is not one rank above or below the waste's top {top}"
            ),
        }
    }
}

impl std::error::Error for IllegalStep {}

/// Whether two ranks are next to each other, kings and aces included.
pub fn next_to(a: Rank, b: Rank) -> bool {
    let d = a.value().abs_diff(b.value());
    d == 1 || d == 12
}

impl State {
    /// The position a deck deals: 28 tableau cards, the next face up on the waste, the rest the
    /// stock.
    pub fn deal(deck: &Deck) -> State {
        let cards = deck.cards();
        State {
            tableau: std::array::from_fn(|i| Some(cards[i])),
            stock: cards[FIRST_STOCK..].to_vec(),
            waste: vec![cards[FIRST_WASTE]],
        }
    }

    /// A position from its parts (tableau in deal order, stock top first, waste top last).
    pub fn from_parts(
        tableau: [Option<Card>; TABLEAU],
        stock: Vec<Card>,
        waste: Vec<Card>,
    ) -> State {
        State {
            tableau,
            stock,
            waste,
        }
    }

    pub fn tableau(&self) -> &[Option<Card>; TABLEAU] {
        &self.tableau
    }
    /// The stock, top card first.
    pub fn stock(&self) -> &[Card] {
        &self.stock
    }
    /// The waste, top card last.
    pub fn waste(&self) -> &[Card] {
        &self.waste
    }
    pub fn waste_top(&self) -> Option<Card> {
        self.waste.last().copied()
    }

    /// Whether tableau place `index` holds a card with nothing on it.
    pub fn is_face_up(&self, index: usize) -> bool {
        self.tableau[index].is_some()
            && covered_by(index)
                .is_none_or(|cover| cover.iter().all(|&c| self.tableau[c].is_none()))
    }

    /// Every tableau card gone: the Board challenge is won.
    pub fn is_cleared(&self) -> bool {
        self.tableau.iter().all(Option::is_none)
    }

    /// The steps legal here, draws first, then cards in deal order.
    pub fn legal_steps(&self) -> Vec<Step> {
        let mut steps = Vec::new();
        if !self.stock.is_empty() {
            steps.push(Step::Draw);
        }
        if let Some(top) = self.waste_top() {
            for i in 0..TABLEAU {
                match self.tableau[i] {
                    Some(card) if self.is_face_up(i) && next_to(card.rank, top.rank) => {
                        steps.push(Step::Play(card))
                    }
                    _ => {}
                }
            }
        }
        steps
    }

    /// Plays one step, or says why it is illegal (the state is then unchanged).
    pub fn apply(&mut self, step: Step) -> Result<(), IllegalStep> {
        match step {
            Step::Draw => {
                if self.stock.is_empty() {
                    return Err(IllegalStep::StockEmpty);
                }
                let card = self.stock.remove(0);
                self.waste.push(card);
            }
            Step::Play(card) => {
                let index = self
                    .tableau
                    .iter()
                    .position(|&c| c == Some(card))
                    .ok_or(IllegalStep::NotInTableau(card))?;
                if !self.is_face_up(index) {
                    return Err(IllegalStep::Covered(card));
                }
                let top = self.waste_top().ok_or(IllegalStep::NotInTableau(card))?;
                if !next_to(card.rank, top.rank) {
                    return Err(IllegalStep::NotNextTo { card, top });
                }
                self.tableau[index] = None;
                self.waste.push(card);
            }
        }
        Ok(())
    }

    /// Plays steps from here; `Err` names the first illegal one (1-based) and why.
    pub fn replay(&mut self, steps: &[Step]) -> Result<(), String> {
        for (n, &step) in steps.iter().enumerate() {
            self.apply(step)
                .map_err(|e| format!("step {} ({step}) is illegal: {e}", n + 1))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deck(text: &str) -> Deck {
        Deck::parse(text).unwrap()
    }

    #[test]
    fn ranks_wrap_between_ace_and_king() {
        let r = |c: char| Rank::from_char(c).unwrap();
        assert!(next_to(r('A'), r('K')) && next_to(r('K'), r('A')));
        assert!(next_to(r('A'), r('2')) && next_to(r('Q'), r('K')));
        assert!(!next_to(r('A'), r('3')) && !next_to(r('7'), r('7')));
    }

    #[test]
    fn a_deal_shows_the_bottom_row_and_plays_by_the_rules() {
        let d = Deck::shuffled(3);
        let mut s = State::deal(&d);
        let up: Vec<usize> = (0..TABLEAU).filter(|&i| s.is_face_up(i)).collect();
        assert_eq!(up, (18..28).collect::<Vec<_>>());
        assert_eq!(s.waste_top(), Some(d.cards()[28]));
        assert_eq!(s.stock().len(), 23);
        // A covered card is refused, and so is a bottom card that is not next to the waste.
        assert_eq!(
            s.clone().apply(Step::Play(d.cards()[0])),
            Err(IllegalStep::Covered(d.cards()[0]))
        );
        for step in s.legal_steps() {
            if let Step::Play(c) = step {
                assert!(next_to(c.rank, s.waste_top().unwrap().rank));
            }
        }
        for _ in 0..23 {
            s.apply(Step::Draw).unwrap();
        }
        assert_eq!(s.apply(Step::Draw), Err(IllegalStep::StockEmpty));
        assert_eq!(s.waste().len(), 24);
    }

    #[test]
    fn removing_both_covering_cards_uncovers_the_card_above() {
        // Row 4 is 5c 6c ...: with the waste's 4d, 5c then 6c go and row 3's first card shows.
        let text = "Kh Kd Ks  Qh Qd Qs Jh Jd Js  9h 9d 9s 8h 8d 8s 7h 7d 7s \
                    5c 6c Ac 2c 3c Tc Jc Qc Kc 9c  4d  \
                    Ah 2h 3h 4h 5h 6h Th Ad 2d 3d 5d 6d Td As 2s 3s 4s 5s 6s Ts 4c 7c 8c";
        let mut s = State::deal(&deck(text));
        assert!(!s.is_face_up(9));
        s.apply(Step::Play("5c".parse().unwrap())).unwrap();
        assert!(!s.is_face_up(9), "one covering card is still there");
        s.apply(Step::Play("6c".parse().unwrap())).unwrap();
        assert!(s.is_face_up(9));
        let err = s.apply(Step::Play("8c".parse().unwrap())).unwrap_err();
        assert_eq!(err, IllegalStep::NotInTableau("8c".parse().unwrap()));
    }
}
