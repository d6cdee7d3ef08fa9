//! Klondike's rules, apart from the solver's: the table as plain piles, stock and waste, each step
//! checked and made, with its reason when it is illegal. `solve` replays every solution through
//! these before printing it, and the tests do so for every deal they solve.
//!
//! The same rules hold for Triple Klondike (three decks, thirteen piles, twelve foundations, one
//! pass through the stock): the table is dealt from any piles and stock, with any number of decks
//! and, when the game has one, a limit on the passes.

use super::{Draw, KlondikeDeck, Step, PILES};
use crate::cards::{Card, Suit};

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
    /// The stock, its top card last.
    pub stock: Vec<Card>,
    /// The waste, its top card last.
    pub waste: Vec<Card>,
    /// Cards on each foundation: one per suit and deck, the suit's first at `Suit::index`, its
    /// next four on.
    pub foundations: Vec<u8>,
    pub draw: Draw,
    /// Times the waste may still be turned back into the stock (`None`: without end).
    pub recycles: Option<u32>,
}

/// Whether `card` may go onto a pile whose top card is `top` (`None`: an empty pile).
pub fn fits(card: Card, top: Option<Card>) -> bool {
    match top {
        None => card.is_king(),
        Some(top) => top.suit.is_red() != card.suit.is_red() && top.value() == card.value() + 1,
    }
}

impl Table {
    pub fn deal(deck: &KlondikeDeck, draw: Draw) -> Table {
        let piles: Vec<&[Card]> = (0..PILES).map(|i| deck.pile(i)).collect();
        Table::dealt(&piles, deck.stock(), draw, 1, None)
    }

    /// A table dealt from `piles` (each from its bottom card, only its top card face up) and
    /// `stock` (its top card first), for `decks` decks, the waste turned back at most `recycles`
    /// times (`None`: without end).
    pub fn dealt(
        piles: &[&[Card]],
        stock: &[Card],
        draw: Draw,
        decks: usize,
        recycles: Option<u32>,
    ) -> Table {
        Table {
            piles: piles
                .iter()
                .map(|cards| Pile {
                    cards: cards.to_vec(),
                    down: cards.len().saturating_sub(1),
                })
                .collect(),
            stock: stock.iter().rev().copied().collect(),
            waste: Vec::new(),
            foundations: vec![0; 4 * decks],
            draw,
            recycles,
        }
    }

    pub fn is_won(&self) -> bool {
        self.foundations.iter().all(|&n| n == 13)
    }

    /// Cards on the foundations.
    pub fn cleared(&self) -> usize {
        self.foundations.iter().map(|&n| n as usize).sum()
    }

    /// The foundations of `suit`, by place in `foundations`.
    fn of_suit(&self, suit: Suit) -> impl Iterator<Item = usize> + '_ {
        (suit.index()..self.foundations.len()).step_by(4)
    }

    /// Turns up a face-down card left on top of pile `i`.
    fn turn_up(&mut self, i: usize) {
        let pile = &mut self.piles[i];
        if pile.down > 0 && pile.down == pile.cards.len() {
            pile.down -= 1;
        }
    }

    fn pile(&self, i: u8) -> Result<&Pile, String> {
        self.piles
            .get(i as usize)
            .ok_or_else(|| format!("there is no pile {}", i + 1))
    }

    /// The foundation that takes `card` next, or why none does.
    fn foundation_taking(&self, card: Card) -> Result<usize, String> {
        self.of_suit(card.suit)
            .find(|&f| self.foundations[f] + 1 == card.value())
            .ok_or_else(|| {
                let on = self.foundations[card.suit.index()];
                if self.foundations.len() == 4 {
                    format!(
                        "{card} cannot go to its foundation, which holds {on} card{}",
                        if on == 1 { "" } else { "s" }
                    )
                } else {
                    format!("{card} cannot go to any of its foundations")
                }
            })
    }

    /// Makes `step`, or says why it is not allowed.
    pub fn play(&mut self, step: Step) -> Result<(), String> {
        match step {
            Step::Draw => {
                if self.stock.is_empty() {
                    return Err("the stock is empty (Recycle turns the waste back)".into());
                }
                for _ in 0..self.draw.count() {
                    match self.stock.pop() {
                        Some(card) => self.waste.push(card),
                        None => break,
                    }
                }
            }
            Step::Recycle => {
                if !self.stock.is_empty() {
                    return Err("the stock is not empty yet".into());
                }
                if self.waste.is_empty() {
                    return Err("the waste is empty".into());
                }
                match &mut self.recycles {
                    Some(0) => return Err("the stock may not be turned again".into()),
                    Some(left) => *left -= 1,
                    None => {}
                }
                self.stock = self.waste.drain(..).rev().collect();
            }
            Step::ToFoundation(card) => {
                let to = self.foundation_taking(card)?;
                if self.waste.last() == Some(&card) {
                    self.waste.pop();
                } else if let Some(i) = self
                    .piles
                    .iter()
                    .position(|p| p.cards.last() == Some(&card) && p.down < p.cards.len())
                {
                    self.piles[i].cards.pop();
                    self.turn_up(i);
                } else {
                    return Err(format!("{card} is not on top of the waste or of a pile"));
                }
                self.foundations[to] += 1;
            }
            Step::PileToFoundation(from) => {
                let source = self.pile(from)?;
                let card = match source.cards.last() {
                    Some(&card) if source.down < source.cards.len() => card,
                    _ => return Err(format!("pile {} shows no card", from + 1)),
                };
                let to = self.foundation_taking(card)?;
                self.piles[from as usize].cards.pop();
                self.turn_up(from as usize);
                self.foundations[to] += 1;
            }
            Step::WasteToPile(to) => {
                let card = *self.waste.last().ok_or("the waste is empty")?;
                let top = self.pile(to)?.cards.last().copied();
                if !fits(card, top) {
                    return Err(misfit(card, top, to));
                }
                self.waste.pop();
                self.piles[to as usize].cards.push(card);
            }
            Step::PileToPile { from, to, count } => {
                let source = self.pile(from)?;
                let face_up = source.cards.len() - source.down;
                let count = count as usize;
                if count == 0 {
                    return Err("a move between piles moves at least one card".into());
                }
                if count > face_up {
                    return Err(format!(
                        "pile {} has {face_up} face-up card{}, not {count}",
                        from + 1,
                        if face_up == 1 { "" } else { "s" }
                    ));
                }
                let first = source.cards[source.cards.len() - count];
                let top = self.pile(to)?.cards.last().copied();
                if !fits(first, top) {
                    return Err(misfit(first, top, to));
                }
                let source = &mut self.piles[from as usize];
                let run = source.cards.split_off(source.cards.len() - count);
                self.piles[to as usize].cards.extend(run);
                self.turn_up(from as usize);
            }
            Step::FoundationToPile(suit, to) => {
                let top = self.pile(to)?.cards.last().copied();
                let card = |on: u8| Card::new(crate::cards::Rank::new(on).expect("1..=13"), suit);
                // Any foundation of the suit whose top card fits (with several decks, those that
                // fit hold the same card).
                let from = self
                    .of_suit(suit)
                    .filter(|&f| self.foundations[f] > 0)
                    .find(|&f| fits(card(self.foundations[f]), top));
                let Some(from) = from else {
                    let on = self.foundations[suit.index()];
                    return Err(if on == 0 && self.foundations.len() == 4 {
                        format!("the {} foundation is empty", suit_name(suit))
                    } else if self.foundations.len() == 4 {
                        misfit(card(on), top, to)
                    } else {
                        format!(
                            "no {} foundation's top card fits on pile {}",
                            suit_name(suit),
                            to + 1
                        )
                    });
                };
                self.foundations[from] -= 1;
                self.piles[to as usize]
                    .cards
                    .push(card(self.foundations[from] + 1));
            }
        }
        Ok(())
    }
}

fn suit_name(suit: Suit) -> &'static str {
    match suit {
        Suit::Clubs => "clubs",
        Suit::Diamonds => "diamonds",
        Suit::Hearts => "hearts",
        Suit::Spades => "spades",
    }
}

fn misfit(card: Card, top: Option<Card>, to: u8) -> String {
    match top {
        None => format!(
            "{card} cannot go to the empty pile {} (only a king can)",
            to + 1
        ),
        Some(top) => format!("{card} cannot go onto {top} (pile {})", to + 1),
    }
}

/// Plays `steps` from the deal: `Ok` when every step is legal and the game ends won; otherwise the
/// first step that is not, and why.
pub fn replay(deck: &KlondikeDeck, draw: Draw, steps: &[String]) -> Result<(), String> {
    replay_from(Table::deal(deck, draw), steps)
}

/// Plays `steps` on `table` as `replay` does.
pub fn replay_from(mut table: Table, steps: &[String]) -> Result<(), String> {
    let piles = table.piles.len();
    for (n, text) in steps.iter().enumerate() {
        let step = Step::parse_on(text, piles)?;
        table
            .play(step)
            .map_err(|why| format!("step {} `{text}`: {why}", n + 1))?;
    }
    if table.is_won() {
        Ok(())
    } else {
        Err(format!(
            "after {} steps the game is not won: {} of {} cards on the foundations",
            steps.len(),
            table.cleared(),
            13 * table.foundations.len()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_recycles_and_illegal_steps() {
        let deck = KlondikeDeck::shuffled(5);
        let mut table = Table::deal(&deck, Draw::Three);
        assert_eq!(table.piles[6].down, 6);
        for _ in 0..8 {
            table.play(Step::Draw).unwrap();
        }
        assert_eq!(table.waste.len(), 24);
        assert_eq!(*table.waste.last().unwrap(), deck.stock()[23]);
        assert!(table.play(Step::Draw).is_err());
        table.play(Step::Recycle).unwrap();
        assert!(table.play(Step::Recycle).is_err());
        table.play(Step::Draw).unwrap();
        assert_eq!(table.waste, deck.stock()[..3].to_vec());
        let err = table
            .play(Step::PileToPile {
                from: 0,
                to: 1,
                count: 2,
            })
            .unwrap_err();
        assert!(err.contains("1 face-up card"), "{err}");
        assert!(replay(&deck, Draw::One, &[]).is_err());
    }

    /// With two decks the same ace shows on piles 1 and 2 and in the waste: `Ah>F` takes the
    /// waste's, then pile 1's; `2>F` takes pile 2's, which turns up the card under it.
    #[test]
    fn a_card_showing_twice_goes_up_from_the_place_its_step_names() {
        let c = |s: &str| s.parse::<Card>().unwrap();
        let (ah, ks, qd) = (c("Ah"), c("Ks"), c("Qd"));
        let piles: [&[Card]; 3] = [&[ah], &[ks, ah], &[qd]];
        let mut table = Table::dealt(&piles, &[ah], Draw::One, 2, Some(0));
        table.play(Step::Draw).unwrap();
        table.play("2>F".parse().unwrap()).unwrap();
        assert_eq!(table.piles[1].cards, vec![ks]);
        assert_eq!(table.piles[1].down, 0, "the king under it is turned up");
        table.play(Step::ToFoundation(ah)).unwrap();
        assert!(table.waste.is_empty(), "the waste's ace goes first");
        assert_eq!(table.piles[0].cards, vec![ah]);
        // Both hearts foundations hold an ace now: the third ace has nowhere to go.
        let err = table.play(Step::PileToFoundation(0)).unwrap_err();
        assert!(
            err.contains("Ah cannot go to any of its foundations"),
            "{err}"
        );
        let err = table.play(Step::PileToFoundation(1)).unwrap_err();
        assert!(err.contains("Ks cannot go"), "{err}");
        assert!(table.play(Step::PileToFoundation(5)).is_err());
    }
}
