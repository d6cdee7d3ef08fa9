//! Spider's rules, apart from the solver's: the table as piles of cards with a count of face-down
//! cards, each step checked and made with its reason when it is illegal. `solve` replays every
//! solution through these before printing it, and the tests do so for every deal they solve.

use super::{SpiderDeck, Step, DEALS, PILES};
use crate::cards::Card;

/// A pile: its cards from the bottom, the first `down` of them face down.
#[derive(Clone, Debug, Default)]
pub struct Pile {
    pub cards: Vec<Card>,
    pub down: usize,
}

/// The table during a game.
#[derive(Clone, Debug)]
pub struct Table {
    pub piles: Vec<Pile>,
    /// Cards still in the stock, in the order they are dealt.
    pub stock: Vec<Card>,
    /// Runs from king to ace that have left the table.
    pub done: usize,
}

impl Table {
    pub fn deal(deck: &SpiderDeck) -> Table {
        let piles = (0..PILES)
            .map(|i| {
                let cards = deck.pile(i).to_vec();
                Pile {
                    down: cards.len() - 1,
                    cards,
                }
            })
            .collect();
        Table {
            piles,
            stock: deck.stock().to_vec(),
            done: 0,
        }
    }

    pub fn is_won(&self) -> bool {
        self.done == 8
    }

    /// Makes `step`, or says why it is not allowed.
    pub fn play(&mut self, step: Step) -> Result<(), String> {
        match step {
            Step::Deal => {
                if self.stock.is_empty() {
                    return Err(format!(
                        "the stock is empty (all {DEALS} deals have been made)"
                    ));
                }
                if let Some(i) = self.piles.iter().position(|p| p.cards.is_empty()) {
                    return Err(format!(
                        "pile {} is empty: the stock deals only onto no empty pile",
                        i + 1
                    ));
                }
                let deal: Vec<Card> = self.stock.drain(..PILES).collect();
                for (i, card) in deal.into_iter().enumerate() {
                    self.piles[i].cards.push(card);
                    self.clear_run(i);
                }
            }
            Step::Move { from, to, count } => {
                let (from, to, count) = (from as usize, to as usize, count as usize);
                let source = &self.piles[from];
                let up = source.cards.len() - source.down;
                if count > up {
                    return Err(format!(
                        "pile {} has {up} face-up cards, not {count}",
                        from + 1
                    ));
                }
                let moving = &source.cards[source.cards.len() - count..];
                for pair in moving.windows(2) {
                    if pair[0].suit != pair[1].suit || pair[0].value() != pair[1].value() + 1 {
                        return Err(format!(
                            "{} then {} is not a run of one suit: only such runs move together",
                            pair[0], pair[1]
                        ));
                    }
                }
                let base = moving[0];
                if let Some(&top) = self.piles[to].cards.last() {
                    if top.value() != base.value() + 1 {
                        return Err(format!(
                            "{base} cannot go onto {top}: a card goes onto one a rank higher"
                        ));
                    }
                }
                let at = self.piles[from].cards.len() - count;
                let moved: Vec<Card> = self.piles[from].cards.drain(at..).collect();
                self.piles[to].cards.extend(moved);
                self.turn_up(from);
                self.clear_run(to);
            }
        }
        Ok(())
    }

    /// Turns the top card of pile `i` face up when it is face down.
    fn turn_up(&mut self, i: usize) {
        let pile = &mut self.piles[i];
        if pile.down > 0 && pile.down == pile.cards.len() {
            pile.down -= 1;
        }
    }

    /// Takes a face-up run from king to ace of one suit off the top of pile `i`.
    fn clear_run(&mut self, i: usize) {
        let pile = &self.piles[i];
        let n = pile.cards.len();
        if n < 13 || n - 13 < pile.down {
            return;
        }
        let top = &pile.cards[n - 13..];
        let whole = top
            .iter()
            .enumerate()
            .all(|(k, c)| c.suit == top[0].suit && c.value() as usize == 13 - k);
        if whole {
            self.piles[i].cards.truncate(n - 13);
            self.done += 1;
            self.turn_up(i);
        }
    }
}

/// Plays `steps` from the deal and checks that the game ends won; otherwise which step failed
/// and why, or what is left.
pub fn replay(deck: &SpiderDeck, steps: &[String]) -> Result<(), String> {
    let mut table = Table::deal(deck);
    for (n, text) in steps.iter().enumerate() {
        let step: Step = text
            .parse()
            .map_err(|e| format!("step {} ({text}): {e}", n + 1))?;
        table
            .play(step)
            .map_err(|e| format!("step {} ({text}): {e}", n + 1))?;
    }
    if table.is_won() {
        Ok(())
    } else {
        Err(format!(
            "after the last step {} of 8 runs have left the table",
            table.done
        ))
    }
}
