//! A TriPeaks position as the agent knows it: the face-down cards it has not yet seen are unknown
//! (and cannot be played until they show), everything else is known. The solver plans with it;
//! the agent keeps it up to date as it plays and learns cards.

use super::step::Step;
use super::tableau::{covered_by, TABLEAU};
use crate::cards::Card;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Known {
    /// Each tableau place: `None` where the card is gone, `Some(None)` for a card not yet seen.
    pub tableau: [Option<Option<Card>>; TABLEAU],
    /// The stock, top card first.
    pub stock: Vec<Card>,
    pub waste_top: Option<Card>,
}

impl Known {
    /// Every card of a position known.
    pub fn of(state: &super::State) -> Known {
        Known {
            tableau: state.tableau().map(|c| c.map(Some)),
            stock: state.stock().to_vec(),
            waste_top: state.waste_top(),
        }
    }

    /// A deal as known: the bottom row's cards (face up) and those learnt among the 18 above it
    /// (`learnt`, by place), the others unseen.
    pub fn at_deal(
        tableau: &[Option<Card>; TABLEAU],
        learnt: &[Option<Card>],
        stock: &[Card],
        waste_top: Option<Card>,
    ) -> Known {
        Known {
            tableau: std::array::from_fn(|i| match covered_by(i) {
                None => tableau[i].map(Some),
                Some(_) => Some(learnt.get(i).copied().flatten()),
            }),
            stock: stock.to_vec(),
            waste_top,
        }
    }

    /// Whether place `i` holds a card with both cards covering it gone.
    pub fn is_face_up(&self, i: usize) -> bool {
        self.tableau[i].is_some()
            && covered_by(i).is_none_or(|c| c.iter().all(|&k| self.tableau[k].is_none()))
    }

    /// Face-up places whose card is not yet known: what the agent must read now.
    pub fn unseen_face_up(&self) -> Vec<usize> {
        (0..TABLEAU)
            .filter(|&i| self.tableau[i] == Some(None) && self.is_face_up(i))
            .collect()
    }

    /// The places still holding a card not yet seen.
    pub fn unseen(&self) -> Vec<usize> {
        (0..TABLEAU)
            .filter(|&i| self.tableau[i] == Some(None))
            .collect()
    }

    pub fn learn(&mut self, i: usize, card: Card) {
        self.tableau[i] = Some(Some(card));
    }

    /// Plays a step of known cards, or says why it cannot be played as known.
    pub fn apply(&mut self, step: Step) -> Result<(), String> {
        match step {
            Step::Draw => {
                if self.stock.is_empty() {
                    return Err("Draw: the stock is empty".into());
                }
                self.waste_top = Some(self.stock.remove(0));
            }
            Step::Play(card) => {
                let i = (0..TABLEAU)
                    .find(|&i| self.tableau[i] == Some(Some(card)))
                    .ok_or_else(|| format!("{card} is not known in the tableau"))?;
                if !self.is_face_up(i) {
                    return Err(format!("{card} is covered"));
                }
                self.tableau[i] = None;
                self.waste_top = Some(card);
            }
        }
        Ok(())
    }
}
