//! A Klondike deal as the agent knows it while it plays: the cards it has seen, by their place in
//! the deck file (the 28 pile cards pile by pile from the bottom, then the stock from the top).
//!
//! The places not yet seen (face-down cards, stock cards not yet turned up) are filled with the
//! cards not yet seen, in any order: that whole deck (`deck`) lets the rules' `Table` play the
//! position the steps since the deal reach. A line the agent plans moves only cards it has seen
//! (the waste's top and the pile cards face up, which it reads as they show), so it is legal
//! whatever the unseen cards are; what they are matters only once one shows, and then it is read
//! and learnt (`learn`), and the position is played again from the new whole deck.
//!
//! `uncover` plans the learning: the shortest line from a position to one that shows a card not
//! yet seen (a face-down card turned up, or a stock card turned onto the waste).

use super::rules::{fits, Table};
use super::{Draw, KlondikeDeck, Step, PILES};
use crate::cards::{Card, Deck, Rank, SplitMix64, Suit};
use std::collections::{HashSet, VecDeque};

/// Positions `uncover` looks at, at most, before it gives up.
pub const UNCOVER_BUDGET: usize = 200_000;

/// A place that shows a card: a pile's top card, or the waste's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    Pile(usize),
    Waste,
}

/// What the agent knows of a deal.
#[derive(Clone, Debug)]
pub struct Known {
    /// The card seen at each place of the deck file.
    learnt: [Option<Card>; 52],
    /// Whether each card (by `Card::index`) has been seen.
    seen: [bool; 52],
    /// The cards seen at their places and the others anywhere else.
    deck: KlondikeDeck,
    pub draw: Draw,
}

impl Known {
    /// Nothing seen yet.
    pub fn new(draw: Draw) -> Known {
        let mut known = Known {
            learnt: [None; 52],
            seen: [false; 52],
            deck: KlondikeDeck(Deck(std::array::from_fn(Card::from_index))),
            draw,
        };
        known.fill();
        known
    }

    /// How many cards have been seen.
    pub fn count(&self) -> usize {
        self.seen.iter().filter(|&&s| s).count()
    }

    pub fn is_complete(&self) -> bool {
        self.count() == 52
    }

    pub fn is_seen(&self, card: Card) -> bool {
        self.seen[card.index()]
    }

    /// The whole deck: the deal once every card is seen.
    pub fn deck(&self) -> &KlondikeDeck {
        &self.deck
    }

    /// Fills the places not yet seen with the cards not yet seen, lowest first.
    fn fill(&mut self) {
        self.deck = self.guess(None);
    }

    /// A whole deck with the cards seen in their places and the others in the places not yet
    /// seen: lowest first, or shuffled by `seed`.
    pub fn guess(&self, seed: Option<u64>) -> KlondikeDeck {
        let mut unseen: Vec<Card> = (0..52)
            .filter(|&c| !self.seen[c])
            .map(Card::from_index)
            .collect();
        if let Some(seed) = seed {
            let mut rng = SplitMix64(seed);
            for i in (1..unseen.len()).rev() {
                unseen.swap(i, (rng.next_u64() % (i as u64 + 1)) as usize);
            }
        }
        let mut unseen = unseen.into_iter();
        let cards: [Card; 52] = std::array::from_fn(|slot| {
            self.learnt[slot].unwrap_or_else(|| unseen.next().expect("as many cards as places"))
        });
        KlondikeDeck(Deck(cards))
    }

    /// The position the steps reach from the deal.
    pub fn position(&self, steps: &[Step]) -> Result<Table, String> {
        let mut table = Table::deal(&self.deck, self.draw);
        for (n, &step) in steps.iter().enumerate() {
            table
                .play(step)
                .map_err(|why| format!("step {} ({step}) cannot be played: {why}", n + 1))?;
        }
        Ok(table)
    }

    /// The places of `table` (a position of `deck`) that show a card not yet seen.
    pub fn unseen_showing(&self, table: &Table) -> Vec<Place> {
        let mut places: Vec<Place> = (0..PILES)
            .filter(|&i| {
                let p = &table.piles[i];
                p.down < p.cards.len() && p.cards.last().is_some_and(|&c| !self.is_seen(c))
            })
            .map(Place::Pile)
            .collect();
        if table.waste.last().is_some_and(|&c| !self.is_seen(c)) {
            places.push(Place::Waste);
        }
        places
    }

    /// Learns the cards read at places of `table` (a position of `deck`) that showed cards not
    /// yet seen. Play `position` again afterwards: the cards not yet seen may have moved in the
    /// whole deck.
    pub fn learn(&mut self, table: &Table, read: &[(Place, Card)]) -> Result<(), String> {
        let mut slots = Vec::new();
        for &(place, card) in read {
            let there = match place {
                Place::Pile(i) => table.piles[i].cards.last(),
                Place::Waste => table.waste.last(),
            };
            let Some(&there) = there else {
                return Err("no card lies there".into());
            };
            if self.is_seen(there) {
                return Err(format!("{there} was seen there already"));
            }
            if self.is_seen(card) || read.iter().filter(|r| r.1 == card).count() > 1 {
                return Err(format!("{card} was read in two places"));
            }
            let slot = self
                .deck
                .0
                 .0
                .iter()
                .position(|&c| c == there)
                .expect("every card has its place");
            slots.push((slot, card));
        }
        for (slot, card) in slots {
            self.learnt[slot] = Some(card);
            self.seen[card.index()] = true;
        }
        self.fill();
        Ok(())
    }
}

/// The steps worth trying in `table` that move only cards seen there (`uncover`'s positions show
/// none other), foundation moves first; illegal ones are left to the rules to refuse. A run that
/// is a whole pile is not moved to an empty pile (nothing changes).
fn candidates(table: &Table) -> Vec<Step> {
    let mut steps = Vec::new();
    let top = |i: usize| table.piles[i].cards.last().copied();
    if let Some(&w) = table.waste.last() {
        steps.push(Step::ToFoundation(w));
    }
    for i in 0..PILES {
        let p = &table.piles[i];
        if p.down < p.cards.len() {
            steps.push(Step::ToFoundation(p.cards[p.cards.len() - 1]));
        }
    }
    for from in 0..PILES {
        let p = &table.piles[from];
        for count in 1..=p.cards.len() - p.down {
            let first = p.cards[p.cards.len() - count];
            let whole = count == p.cards.len();
            for to in (0..PILES).filter(|&to| to != from) {
                let onto = top(to);
                if fits(first, onto) && !(whole && onto.is_none()) {
                    steps.push(Step::PileToPile {
                        from: from as u8,
                        to: to as u8,
                        count: count as u8,
                    });
                }
            }
        }
    }
    if let Some(&w) = table.waste.last() {
        for to in (0..PILES).filter(|&to| fits(w, top(to))) {
            steps.push(Step::WasteToPile(to as u8));
        }
    }
    if table.stock.is_empty() {
        if !table.waste.is_empty() {
            steps.push(Step::Recycle);
        }
    } else {
        steps.push(Step::Draw);
    }
    for suit in Suit::ALL {
        let on = table.foundations[suit.index()];
        let Some(rank) = Rank::new(on) else { continue };
        let card = Card::new(rank, suit);
        for to in (0..PILES).filter(|&to| fits(card, top(to))) {
            steps.push(Step::FoundationToPile(suit, to as u8));
        }
    }
    steps
}

/// A position, as bytes, for telling positions apart.
fn key(table: &Table) -> Vec<u8> {
    let mut k = Vec::with_capacity(72);
    for p in &table.piles {
        k.push(p.down as u8);
        k.push(p.cards.len() as u8);
        k.extend(p.cards.iter().map(|c| c.index() as u8));
    }
    k.push(0xff);
    k.extend(table.stock.iter().map(|c| c.index() as u8));
    k.push(0xff);
    k.extend(table.waste.iter().map(|c| c.index() as u8));
    k.extend_from_slice(&table.foundations);
    k
}

/// The shortest line from `table` (a position of `known`'s deck that shows no unseen card) to a
/// position that shows one, or the game won; `None` when no line within `budget` positions does.
pub fn uncover(known: &Known, table: &Table, budget: usize) -> Option<Vec<Step>> {
    // Each position reached: the one it came from and the step.
    let mut came: Vec<(u32, Step)> = Vec::new();
    let mut seen: HashSet<Vec<u8>> = HashSet::new();
    seen.insert(key(table));
    let mut frontier: VecDeque<(Table, Option<u32>)> = VecDeque::from([(table.clone(), None)]);
    let line_to = |came: &Vec<(u32, Step)>, mut at: Option<u32>| {
        let mut line = Vec::new();
        while let Some(i) = at {
            let (from, step) = came[i as usize];
            line.push(step);
            at = (from != u32::MAX).then_some(from);
        }
        line.reverse();
        line
    };
    while let Some((position, at)) = frontier.pop_front() {
        for step in candidates(&position) {
            let mut next = position.clone();
            if next.play(step).is_err() || !seen.insert(key(&next)) {
                continue;
            }
            came.push((at.unwrap_or(u32::MAX), step));
            let here = Some(came.len() as u32 - 1);
            if next.is_won() || !known.unseen_showing(&next).is_empty() {
                return Some(line_to(&came, here));
            }
            if seen.len() >= budget {
                return None;
            }
            frontier.push_back((next, here));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The deal's seven top cards seen, as the agent starts.
    fn at_deal(deck: &KlondikeDeck, draw: Draw) -> Known {
        let mut known = Known::new(draw);
        let table = known.position(&[]).unwrap();
        let tops: Vec<(Place, Card)> = (0..PILES)
            .map(|i| (Place::Pile(i), deck.pile(i)[i]))
            .collect();
        known.learn(&table, &tops).unwrap();
        known
    }

    #[test]
    fn the_whole_deck_keeps_the_cards_seen_in_their_places() {
        let deck = KlondikeDeck::shuffled(3);
        let known = at_deal(&deck, Draw::One);
        assert_eq!(known.count(), 7);
        for i in 0..PILES {
            assert_eq!(known.deck().pile(i)[i], deck.pile(i)[i]);
        }
        let mut cards: Vec<usize> = known.deck().0 .0.iter().map(|c| c.index()).collect();
        cards.sort();
        assert_eq!(cards, (0..52).collect::<Vec<_>>());
        let table = known.position(&[]).unwrap();
        assert!(known.unseen_showing(&table).is_empty());
        let mut twice = known.clone();
        let top = deck.pile(0)[0];
        let err = twice.learn(&table, &[(Place::Pile(1), top)]).unwrap_err();
        assert!(err.contains("seen there already"), "{err}");
    }

    /// Learning as the agent does, with the deal's cards as what is read: lines that show an
    /// unseen card, played until none does; the lines are legal in the real deal too.
    #[test]
    fn lines_that_turn_up_unseen_cards_are_legal_in_the_deal_itself() {
        for draw in [Draw::One, Draw::Three] {
            let deck = KlondikeDeck::shuffled(11);
            let mut known = at_deal(&deck, draw);
            let mut real = Table::deal(&deck, draw);
            let mut steps = Vec::new();
            let mut table = known.position(&steps).unwrap();
            while let Some(line) = uncover(&known, &table, UNCOVER_BUDGET) {
                assert!(!line.is_empty());
                for step in line {
                    table.play(step).unwrap();
                    real.play(step).unwrap();
                    steps.push(step);
                }
                let read: Vec<(Place, Card)> = known
                    .unseen_showing(&table)
                    .into_iter()
                    .map(|place| match place {
                        Place::Pile(i) => (place, *real.piles[i].cards.last().unwrap()),
                        Place::Waste => (place, *real.waste.last().unwrap()),
                    })
                    .collect();
                known.learn(&table, &read).unwrap();
                table = known.position(&steps).unwrap();
                assert!(known.unseen_showing(&table).is_empty());
                if table.is_won() {
                    break;
                }
            }
            // Draw 1 turns up the whole stock first; every card seen is where the deal has it.
            assert!(
                known.count() >= 7 + 24 || draw == Draw::Three,
                "{}",
                known.count()
            );
            for (slot, card) in known.learnt.iter().enumerate() {
                if let Some(card) = card {
                    assert_eq!(*card, deck.0 .0[slot]);
                }
            }
        }
    }
}
