//! The search for a short Triple Klondike solution: a beam, one step a level, keeping the most
//! promising positions of each level, with the bound below which no solution exists.
//!
//! A game of 156 cards has far too many positions for a search that proves its line shortest, so
//! this finds a short line and says how far it is from the bound, as seed 003's solver does. The
//! beam proves nothing either way: a deal it finds no line for is undecided, not lost.
//!
//! - **The bound.** Every stock card takes a turn and a move, every other card a move: 221 steps
//!   at the start, less one for each step that turns a card or puts one on a foundation.
//! - **What is promising.** Positions a like number of steps in are ranked by the bound (weighed
//!   most) and by disorder that will cost steps: how far ranks rise from a card to the card over
//!   it, in the waste (the card under must wait for the one over it) and among each pile's
//!   face-down cards.
//! - **Safe moves at once.** A card goes to its foundation as soon as no card could still want to
//!   lie on it (an ace or a two, or every card of the other colour one rank lower is on the
//!   foundations): it must go there some time, one step whenever, so that is the position's only
//!   move.
//! - **Fewer moves that lead to the same.** The waste's card, or a run, goes to the first pile
//!   that takes it; a run moves whole when that turns a card up or empties its pile (a king's run
//!   from an empty pile's floor never), in part only when the card it uncovers can go to its
//!   foundation; a card in the waste and on a pile, or on two piles, goes up from where the rules'
//!   step names it from; foundation cards stay up.
//! - **Growing widths.** The beam runs at 256 positions a level, then twice as many each pass up
//!   to its widest, each pass pruned by the shortest line found so far.
//! - **Detours taken out, then searched again.** The line found is then shortened by the rules
//!   alone (`shorten`): a step left out, or two made one, while the line still wins. Then a
//!   narrower beam starts again from every 20th step of it, cut at its length (`again`).
//! - **All cores.** Each level's positions are expanded in chunks on all threads; the positions
//!   seen and the ones kept are chosen in one place, by cost and then key, so the line found is
//!   the same whatever the threads. The disorder measures are kept up to date move by move (the
//!   waste's) or looked up per face-down count (the piles'), not counted again per position.

use super::{TripleDeck, DECKS, PILES, STOCK};
use crate::cards::Card;
use crate::games::key_hash::KeySet;
use crate::games::klondike::shorten::shorten;
use crate::games::klondike::Step;
use std::time::Instant;

/// What the search found.
#[derive(Clone, Debug)]
pub struct Answer {
    /// The steps of the shortest line found, or `None` when no line was found.
    pub steps: Option<Vec<Step>>,
    /// No line is shorter than this.
    pub bound: usize,
    /// Positions kept over all passes.
    pub states: u64,
    pub millis: f64,
}

/// The widest beam `solve` runs unless told (positions kept per level).
pub const WIDEST: usize = 1 << 14;

/// The narrowest beam, the first pass.
const NARROWEST: usize = 256;

/// Cards in a pile's face-up run at most (king down to ace).
const RUN: usize = 13;

/// One pile: how many of its dealt cards are still face down (they are the deal's, bottom
/// first), and the face-up cards over them as card indices, bottom first.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Pile {
    down: u8,
    up: u8,
    cards: [u8; RUN],
}

impl Pile {
    fn top(&self) -> Option<u8> {
        (self.up > 0).then(|| self.cards[self.up as usize - 1])
    }
    fn is_empty(&self) -> bool {
        self.up == 0 && self.down == 0
    }
}

/// A position: piles, foundations (each suit's three kept in order, so that positions differing
/// only in which foundation holds what are one), the stock cards turned so far, and which of them
/// are still in the waste.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct State {
    piles: [Pile; PILES],
    foundations: [u8; 4 * DECKS],
    turned: u8,
    waste: u128,
    /// How far ranks rise from each waste card to the one over it, in all.
    rise: u16,
}

fn value(card: u8) -> u8 {
    card % 13 + 1
}
fn suit(card: u8) -> u8 {
    card / 13
}
fn red(card: u8) -> bool {
    matches!(suit(card), 1 | 2)
}
/// Whether `card` may lie on `top` (`None`: an empty pile).
fn fits(card: u8, top: Option<u8>) -> bool {
    match top {
        None => value(card) == 13,
        Some(top) => red(card) != red(top) && value(top) == value(card) + 1,
    }
}

/// The deal as the search reads it.
struct Deal {
    /// Per pile, its dealt cards, bottom first.
    piles: Vec<Vec<u8>>,
    /// The stock, the first turned first.
    stock: Vec<u8>,
    /// Per pile and count of face-down cards, how far ranks rise from each of them to the card
    /// over it, in all.
    hidden_rise: Vec<Vec<u16>>,
}

impl Deal {
    fn new(deck: &TripleDeck) -> Deal {
        let ids = |cards: &[Card]| cards.iter().map(|c| c.index() as u8).collect();
        let piles: Vec<Vec<u8>> = (0..PILES).map(|i| ids(deck.pile(i))).collect();
        let hidden_rise = piles
            .iter()
            .map(|dealt| {
                let mut sums = vec![0u16];
                for pair in dealt.windows(2) {
                    let up = (value(pair[1]) as u16).saturating_sub(value(pair[0]) as u16);
                    sums.push(sums.last().unwrap() + up);
                }
                sums
            })
            .collect();
        Deal {
            piles,
            stock: ids(deck.stock()),
            hidden_rise,
        }
    }

    fn start(&self) -> State {
        let mut piles = [Pile {
            down: 0,
            up: 0,
            cards: [0; RUN],
        }; PILES];
        for (pile, dealt) in piles.iter_mut().zip(&self.piles) {
            pile.down = dealt.len() as u8 - 1;
            pile.up = 1;
            pile.cards[0] = *dealt.last().expect("a dealt pile");
        }
        State {
            piles,
            foundations: [0; 4 * DECKS],
            turned: 0,
            waste: 0,
            rise: 0,
        }
    }
}

impl State {
    /// The waste's top card: its place in the stock and the card.
    fn waste_top(&self, deal: &Deal) -> Option<(usize, u8)> {
        (self.waste != 0)
            .then(|| 127 - self.waste.leading_zeros() as usize)
            .map(|i| (i, deal.stock[i]))
    }

    /// Turns the stock's next card onto the waste.
    fn draw(&mut self, deal: &Deal) {
        let card = deal.stock[self.turned as usize];
        if let Some((_, below)) = self.waste_top(deal) {
            self.rise += (value(card) as u16).saturating_sub(value(below) as u16);
        }
        self.waste |= 1u128 << self.turned;
        self.turned += 1;
    }

    /// Takes the waste's top card, `card` at place `i` of the stock, off the waste.
    fn take_waste(&mut self, i: usize, card: u8, deal: &Deal) {
        self.waste &= !(1u128 << i);
        if let Some((_, below)) = self.waste_top(deal) {
            self.rise -= (value(card) as u16).saturating_sub(value(below) as u16);
        }
    }

    /// Cards not yet on the foundations.
    fn left(&self) -> usize {
        4 * DECKS * 13 - self.foundations.iter().map(|&n| n as usize).sum::<usize>()
    }

    /// Steps any line from here needs at least: a turn for every stock card left, and a move to
    /// the foundations for every card not there.
    fn bound(&self) -> usize {
        (STOCK - self.turned as usize) + self.left()
    }

    /// The foundation `card` may go to, if any.
    fn foundation_for(&self, card: u8) -> Option<usize> {
        let s = suit(card) as usize;
        (0..DECKS)
            .map(|k| s * DECKS + k)
            .find(|&f| self.foundations[f] + 1 == value(card))
    }

    /// Whether putting `card` on its foundation can wait for nothing: every card that could lie
    /// on it (the other colour, one rank lower) is on the foundations already.
    fn is_safe(&self, card: u8) -> bool {
        let v = value(card);
        if v <= 2 {
            return true;
        }
        let other: [usize; 2] = if red(card) { [0, 3] } else { [1, 2] };
        other
            .iter()
            .all(|&s| (0..DECKS).all(|k| self.foundations[s * DECKS + k] >= v - 1))
    }

    fn add_to_foundation(&mut self, card: u8) {
        let f = self.foundation_for(card).expect("a foundation takes it");
        self.foundations[f] += 1;
        // Keep each suit's foundations in order.
        let s = suit(card) as usize * DECKS;
        self.foundations[s..s + DECKS].sort_unstable();
    }

    /// Whether pile `p`'s top card may go to its foundation as a step of its own: one takes it,
    /// and the step names that card only (`5h>F`), which the rules take from the waste first,
    /// then from the first pile showing it, so the search moves it from there only.
    fn may_lift(&self, p: usize, card: u8, deal: &Deal) -> bool {
        self.foundation_for(card).is_some()
            && self.waste_top(deal).map(|(_, c)| c) != Some(card)
            && self.piles[..p].iter().all(|q| q.top() != Some(card))
    }

    /// Turns up a face-down card left on top of pile `p`.
    fn turn_up(&mut self, p: usize, deal: &Deal) {
        let pile = &mut self.piles[p];
        if pile.up == 0 && pile.down > 0 {
            pile.down -= 1;
            pile.cards[0] = deal.piles[p][pile.down as usize];
            pile.up = 1;
        }
    }

    fn is_done(&self) -> bool {
        self.turned as usize == STOCK && self.waste == 0 && self.piles.iter().all(|p| p.down == 0)
    }

    /// The moves worth making from here, each with the position it leads to.
    fn children(&self, deal: &Deal, lifts: Lifts, out: &mut Vec<(Step, State)>) {
        out.clear();
        self.each_child(deal, lifts, |step, next| out.push((step, *next)));
    }

    /// `children`, each handed to `emit` as it is made: the beam keeps only some of them, and
    /// copies each of those once.
    fn each_child(&self, deal: &Deal, lifts: Lifts, mut emit: impl FnMut(Step, &State)) {
        // A safe move to the foundations is made at once.
        if let Some((i, card)) = self.waste_top(deal) {
            if self.foundation_for(card).is_some() && self.is_safe(card) {
                let mut next = *self;
                next.take_waste(i, card, deal);
                next.add_to_foundation(card);
                emit(Step::ToFoundation(Card::from_index(card as usize)), &next);
                return;
            }
        }
        for p in 0..PILES {
            if let Some(card) = self.piles[p].top() {
                if self.may_lift(p, card, deal) && self.is_safe(card) {
                    let mut next = *self;
                    next.piles[p].up -= 1;
                    next.turn_up(p, deal);
                    next.add_to_foundation(card);
                    emit(Step::ToFoundation(Card::from_index(card as usize)), &next);
                    return;
                }
            }
        }
        // The waste's top card: to its foundation or onto a pile.
        if let Some((i, card)) = self.waste_top(deal) {
            if self.foundation_for(card).is_some() {
                let mut next = *self;
                next.take_waste(i, card, deal);
                next.add_to_foundation(card);
                emit(Step::ToFoundation(Card::from_index(card as usize)), &next);
            }
            let mut tried_empty = false;
            for p in 0..PILES {
                let pile = &self.piles[p];
                if pile.is_empty() {
                    if tried_empty {
                        continue;
                    }
                    tried_empty = true;
                }
                if fits(card, pile.top()) {
                    let mut next = *self;
                    next.take_waste(i, card, deal);
                    let pile = &mut next.piles[p];
                    pile.cards[pile.up as usize] = card;
                    pile.up += 1;
                    emit(Step::WasteToPile(p as u8), &next);
                    break;
                }
            }
        }
        // Turn the stock's next card.
        if (self.turned as usize) < STOCK {
            let mut next = *self;
            next.draw(deal);
            emit(Step::Draw, &next);
        }
        for p in 0..PILES {
            let pile = self.piles[p];
            let Some(top) = pile.top() else { continue };
            // A pile's top card to its foundation.
            if self.may_lift(p, top, deal) {
                let mut next = *self;
                next.piles[p].up -= 1;
                next.turn_up(p, deal);
                next.add_to_foundation(top);
                emit(Step::ToFoundation(Card::from_index(top as usize)), &next);
            } else if lifts == Lifts::FromAnyPile && self.foundation_for(top).is_some() {
                let mut next = *self;
                next.piles[p].up -= 1;
                next.turn_up(p, deal);
                next.add_to_foundation(top);
                emit(Step::PileToFoundation(p as u8), &next);
            }
            // Runs onto other piles: whole when that turns a card up or empties the pile (a
            // king's run from an empty pile's floor only onto nothing); in part when the card
            // uncovered can go to its foundation.
            let mut tried_empty = false;
            for start in 0..pile.up as usize {
                let first = pile.cards[start];
                let whole = start == 0;
                if whole {
                    if pile.down == 0 && value(first) == 13 {
                        continue;
                    }
                } else {
                    let under = pile.cards[start - 1];
                    if self.foundation_for(under).is_none() {
                        continue;
                    }
                }
                for q in 0..PILES {
                    if q == p {
                        continue;
                    }
                    let target = &self.piles[q];
                    if target.is_empty() && tried_empty {
                        continue;
                    }
                    if !fits(first, target.top()) {
                        continue;
                    }
                    if target.is_empty() {
                        tried_empty = true;
                    }
                    let count = pile.up as usize - start;
                    let mut next = *self;
                    let to = &mut next.piles[q];
                    let at = to.up as usize;
                    to.cards[at..at + count].copy_from_slice(&pile.cards[start..pile.up as usize]);
                    to.up += count as u8;
                    next.piles[p].up = start as u8;
                    next.turn_up(p, deal);
                    let step = Step::PileToPile {
                        from: p as u8,
                        to: q as u8,
                        count: count as u8,
                    };
                    emit(step, &next);
                    break;
                }
            }
        }
    }

    /// The position after `step`, any step the rules allow here (not only those `children`
    /// makes), or `None` when they do not allow it (or the step turns the stock back, which this
    /// game never does). Taken up by its card's name, a card comes from the waste if it shows
    /// there, else from the first pile showing it, as the rules take it.
    fn play(&self, step: Step, deal: &Deal) -> Option<State> {
        let mut next = *self;
        match step {
            Step::Draw => {
                if self.turned as usize >= STOCK {
                    return None;
                }
                next.draw(deal);
            }
            Step::Recycle => return None,
            Step::ToFoundation(card) => {
                let card = card.index() as u8;
                self.foundation_for(card)?;
                match self.waste_top(deal) {
                    Some((i, top)) if top == card => next.take_waste(i, card, deal),
                    _ => {
                        let p = (0..PILES).find(|&p| self.piles[p].top() == Some(card))?;
                        next.piles[p].up -= 1;
                        next.turn_up(p, deal);
                    }
                }
                next.add_to_foundation(card);
            }
            Step::PileToFoundation(p) => {
                let p = p as usize;
                let card = self.piles.get(p)?.top()?;
                self.foundation_for(card)?;
                next.piles[p].up -= 1;
                next.turn_up(p, deal);
                next.add_to_foundation(card);
            }
            Step::WasteToPile(to) => {
                let (i, card) = self.waste_top(deal)?;
                let pile = self.piles.get(to as usize)?;
                if !fits(card, pile.top()) || pile.up as usize >= RUN {
                    return None;
                }
                next.take_waste(i, card, deal);
                let pile = &mut next.piles[to as usize];
                pile.cards[pile.up as usize] = card;
                pile.up += 1;
            }
            Step::PileToPile { from, to, count } => {
                let (from, to, count) = (from as usize, to as usize, count as usize);
                let (source, target) = (self.piles.get(from)?, self.piles.get(to)?);
                if from == to || count == 0 || count > source.up as usize {
                    return None;
                }
                let start = source.up as usize - count;
                if !fits(source.cards[start], target.top()) || target.up as usize + count > RUN {
                    return None;
                }
                let at = target.up as usize;
                next.piles[to].cards[at..at + count]
                    .copy_from_slice(&source.cards[start..source.up as usize]);
                next.piles[to].up += count as u8;
                next.piles[from].up = start as u8;
                next.turn_up(from, deal);
            }
            Step::FoundationToPile(suit, to) => {
                let target = self.piles.get(to as usize)?;
                let s = suit.index();
                let f = (s * DECKS..(s + 1) * DECKS).find(|&f| {
                    let on = self.foundations[f];
                    on > 0 && fits((s * 13) as u8 + on - 1, target.top())
                })?;
                if target.up as usize >= RUN {
                    return None;
                }
                let card = (s * 13) as u8 + self.foundations[f] - 1;
                next.foundations[f] -= 1;
                next.foundations[s * DECKS..(s + 1) * DECKS].sort_unstable();
                let pile = &mut next.piles[to as usize];
                pile.cards[pile.up as usize] = card;
                pile.up += 1;
            }
        }
        Some(next)
    }

    /// How far from done the position looks (lower is better, for positions a like number of
    /// steps in): the bound, weighted, and disorder that will cost steps.
    fn cost(&self, deal: &Deal, weights: &Weights) -> i64 {
        // In each pile, how far ranks rise from a face-down card to the card over it: a card
        // over a lower one keeps it from its foundation until the higher one has gone. The same
        // in the waste, from each card to the one turned after it.
        let piles: u16 = (0..PILES)
            .map(|p| deal.hidden_rise[p][self.piles[p].down as usize])
            .sum();
        weights.bound * self.bound() as i64
            + weights.waste * self.rise as i64
            + weights.piles * piles as i64
    }

    /// The position as one number for the set of positions seen (the face-up cards only up to
    /// each pile's height: the places above hold stale cards).
    fn key(&self) -> u64 {
        // Each part mixed in on its own: parts folded together first can cancel each other out.
        let mix = |h: u64, x: u64| {
            let x = (h.rotate_left(5) ^ x).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            x ^ (x >> 29)
        };
        let mut h = mix(self.turned as u64, self.waste as u64);
        h = mix(h, (self.waste >> 64) as u64);
        let mut f = 0u64;
        for &n in &self.foundations {
            f = f << 4 | n as u64;
        }
        h = mix(h, f);
        for pile in &self.piles {
            let mut w = pile.down as u64;
            for &c in &pile.cards[..pile.up as usize] {
                w = w.wrapping_mul(53).wrapping_add(c as u64 + 1);
            }
            h = mix(h, w);
        }
        h
    }
}

/// How the beam weighs a position.
#[derive(Clone, Copy, Debug)]
struct Weights {
    /// Per step of the bound.
    bound: i64,
    /// Per rank the waste rises from a card to the one over it.
    waste: i64,
    /// Per rank a pile rises from a face-down card to the one over it.
    piles: i64,
}

/// The beam's two ways of weighing, each pass run with both: the first keeps the bound foremost
/// and finds the shorter lines; the second weighs a rising waste five times as much, which wins
/// about twice as many deals (the contest's first 30 at 1,024 positions a step: 17 against 3,
/// though some 30 steps longer).
const WEIGHINGS: [Weights; 2] = [
    Weights {
        bound: 9,
        waste: 3,
        piles: 1,
    },
    Weights {
        bound: 9,
        waste: 15,
        piles: 1,
    },
];

/// Which steps the beam makes to take a pile's top card up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lifts {
    /// The card's own step only (`7h>F`), from where the rules take it: the waste, else the first
    /// pile showing it.
    ByCard,
    /// From any pile showing it too (`3>F`): with three decks one card can show on two piles, and
    /// the one whose card it pays to free may not be the first. More moves to weigh: the whole
    /// search with them gave 293, 273 and 253 steps on deals 4, 7 and 12 (against 284, 273 and
    /// 254), so only `again` makes them, in a pass of its own beside one with `ByCard`.
    FromAnyPile,
}

/// The shortest line found for the deal by beams from the narrowest up to `widest` wide.
pub fn solve(deck: &TripleDeck, widest: usize) -> Answer {
    let began = Instant::now();
    let deal = Deal::new(deck);
    let start = deal.start();
    let bound = start.bound();
    let mut best: Option<Vec<Step>> = None;
    let mut states = 0u64;
    let mut width = NARROWEST.min(widest);
    loop {
        for weights in &WEIGHINGS {
            let limit = best.as_ref().map_or(usize::MAX, Vec::len);
            let (found, kept) = beam(&deal, start, width, limit, weights, Lifts::ByCard);
            states += kept;
            if found.is_some() {
                best = found;
            }
        }
        if best.as_ref().is_some_and(|b| b.len() == bound) || width >= widest {
            break;
        }
        width = (width * 2).min(widest);
    }
    // The beam's detours, as far as single changes see them, then searches again from points
    // along the line, once with each set of lifts (see `Lifts`); the shorter line is kept.
    let best = best.map(|line| {
        let line = shorten(&deck.table(), &line);
        let width = (widest / AGAIN_NARROWER).max(NARROWEST.min(widest));
        let by_card = again(
            deck,
            &deal,
            start,
            line.clone(),
            width,
            Lifts::ByCard,
            &mut states,
        );
        let any_pile = again(
            deck,
            &deal,
            start,
            line,
            width,
            Lifts::FromAnyPile,
            &mut states,
        );
        match any_pile.len() < by_card.len() {
            true => any_pile,
            false => by_card,
        }
    });
    Answer {
        steps: best,
        bound,
        states,
        millis: began.elapsed().as_secs_f64() * 1000.0,
    }
}

/// How far apart the points along the line are that `again` searches from.
const AGAIN_EVERY: usize = 20;

/// How much narrower the beams of `again` are than the widest of the first search.
const AGAIN_NARROWER: usize = 4;

/// `line` (from `start`), shortened where a beam from a point along it finds a shorter rest: from
/// every `AGAIN_EVERY`th step, a beam `width` wide with the first weighing and `lifts`, cut at
/// the line's length, and each shorter line found shortened in turn. A point past a step the
/// search does not make itself (the shortening can join two steps into one the search leaves
/// out) is skipped.
fn again(
    deck: &TripleDeck,
    deal: &Deal,
    start: State,
    mut line: Vec<Step>,
    width: usize,
    lifts: Lifts,
    states: &mut u64,
) -> Vec<Step> {
    let mut k = AGAIN_EVERY;
    while k < line.len() {
        let state = line[..k]
            .iter()
            .try_fold(start, |state, &step| state.play(step, deal));
        if let Some(state) = state {
            let limit = line.len() - k;
            let (found, kept) = beam(deal, state, width, limit, &WEIGHINGS[0], lifts);
            *states += kept;
            if let Some(rest) = found {
                let shorter = shorten(&deck.table(), &[&line[..k], &rest[..]].concat());
                if shorter.len() < line.len() {
                    line = shorter;
                }
            }
        }
        k += AGAIN_EVERY;
    }
    line
}

/// A new position: its cost and key, the position, its parent's place in the level before and
/// which of the parent's children it is.
type Child = (i64, u64, State, u32, u8);

/// What one chunk of a level led to: the shortest finished line in it (its length and place), and
/// its positions' children that may still beat the shortest line.
type Chunk = (Option<(usize, usize)>, Vec<Child>);

/// Positions one thread expands at a time: enough to be worth handing out, few enough that
/// both cores stay busy to the end of a level.
const CHUNK: usize = 256;

/// One beam of `width` from `start`, for a line shorter than `limit` steps from there; the line
/// found (the last cards played to the foundations once nothing is hidden) and the positions
/// kept. Each level's positions are expanded on all threads; the set of positions seen and the
/// choice of the ones kept are made in one place, in the same order whatever the threads.
fn beam(
    deal: &Deal,
    start: State,
    width: usize,
    limit: usize,
    weights: &Weights,
    lifts: Lifts,
) -> (Option<Vec<Step>>, u64) {
    use rayon::prelude::*;
    // Per level, each position kept with its parent's place in the level before and which of the
    // parent's children it is.
    let mut links: Vec<Vec<(u32, u8)>> = Vec::new();
    let mut level = vec![start];
    let mut seen = KeySet::default();
    seen.insert(start.key());
    let mut best: Option<(usize, usize, usize)> = None; // (length, level, place)
    let mut kept = 1u64;
    let mut depth = 0usize;
    while !level.is_empty() {
        let cap = best.map_or(limit, |b| b.0);
        let expanded: Vec<Chunk> = level
            .par_chunks(CHUNK)
            .enumerate()
            .map(|(c, states)| {
                let mut done: Option<(usize, usize)> = None;
                let mut out = Vec::new();
                for (j, state) in states.iter().enumerate() {
                    let place = c * CHUNK + j;
                    if state.is_done() {
                        let length = depth + state.left();
                        if length < done.map_or(cap, |d| d.0) {
                            done = Some((length, place));
                        }
                        continue;
                    }
                    // Each child numbered as `children` lists it, kept or not.
                    let mut i = 0u8;
                    state.each_child(deal, lifts, |_, child| {
                        if depth + 1 + child.bound() < cap {
                            let cost = child.cost(deal, weights);
                            out.push((cost, child.key(), *child, place as u32, i));
                        }
                        i += 1;
                    });
                }
                (done, out)
            })
            .collect();
        // The new positions as (cost, key, chunk, place in it): the choice moves these, not the
        // positions.
        let mut next: Vec<(i64, u64, u32, u32)> = Vec::new();
        for (c, (done, children)) in expanded.iter().enumerate() {
            if let Some((length, place)) = *done {
                if length < best.map_or(limit, |b| b.0) {
                    best = Some((length, depth, place));
                }
            }
            for (i, child) in children.iter().enumerate() {
                if seen.insert(child.1) {
                    next.push((child.0, child.1, c as u32, i as u32));
                }
            }
        }
        // The chunks cut at the shortest line known when the level began; only a shorter one
        // found in this level cuts again.
        if let Some((length, _, _)) = best.filter(|b| b.0 < cap) {
            next.retain(|t| depth + 1 + expanded[t.2 as usize].1[t.3 as usize].2.bound() < length);
        }
        if next.len() > width {
            next.select_nth_unstable_by_key(width, |t| (t.0, t.1));
            next.truncate(width);
        }
        kept += next.len() as u64;
        let mut links_here = Vec::with_capacity(next.len());
        level.clear();
        for &(_, _, c, i) in &next {
            let (_, _, state, parent, pick) = expanded[c as usize].1[i as usize];
            level.push(state);
            links_here.push((parent, pick));
        }
        links.push(links_here);
        depth += 1;
    }
    let Some((_, at_level, mut place)) = best else {
        return (None, kept);
    };
    // The line to the position found, then its cards to the foundations.
    let mut picks = Vec::new();
    for level in links[..at_level].iter().rev() {
        let (parent, pick) = level[place];
        picks.push(pick);
        place = parent as usize;
    }
    let mut state = start;
    let mut steps = Vec::new();
    let mut children = Vec::new();
    for &pick in picks.iter().rev() {
        state.children(deal, lifts, &mut children);
        let (step, next) = children[pick as usize];
        steps.push(step);
        state = next;
    }
    steps.extend(finish(&state));
    (Some(steps), kept)
}

/// With nothing face down and the stock and waste gone, every pile is a run down from its
/// bottom card: the lowest card on top of a pile always fits a foundation, so the rest goes up
/// one card a step.
fn finish(state: &State) -> Vec<Step> {
    let mut state = *state;
    let mut steps = Vec::new();
    while state.left() > 0 {
        let p = (0..PILES)
            .filter_map(|p| state.piles[p].top().map(|c| (value(c), p)))
            .min()
            .expect("cards left on the piles")
            .1;
        let card = state.piles[p].top().expect("a top card");
        state.piles[p].up -= 1;
        state.add_to_foundation(card);
        steps.push(Step::ToFoundation(Card::from_index(card as usize)));
    }
    steps
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Suit;
    use crate::games::klondike::rules::Table;

    /// Whether the search's position shows what the rules' table shows: each pile's face-down
    /// count and face-up cards, the waste, the stock turned and each suit's foundations.
    fn same(state: &State, table: &Table, deal: &Deal) -> bool {
        let piles = (0..PILES).all(|p| {
            let (pile, theirs) = (&state.piles[p], &table.piles[p]);
            let up: Vec<u8> = theirs.cards[theirs.down..]
                .iter()
                .map(|c| c.index() as u8)
                .collect();
            pile.down as usize == theirs.down && pile.cards[..pile.up as usize] == up[..]
        });
        let waste: Vec<u8> = (0..STOCK)
            .filter(|&i| state.waste >> i & 1 == 1)
            .map(|i| deal.stock[i])
            .collect();
        let theirs: Vec<u8> = table.waste.iter().map(|c| c.index() as u8).collect();
        let foundations = Suit::ALL.iter().all(|&suit| {
            let mut theirs: Vec<u8> = (suit.index()..table.foundations.len())
                .step_by(4)
                .map(|f| table.foundations[f])
                .collect();
            theirs.sort_unstable();
            let s = suit.index() * DECKS;
            state.foundations[s..s + DECKS] == theirs[..]
        });
        piles
            && waste == theirs
            && STOCK - state.turned as usize == table.stock.len()
            && foundations
    }

    /// Every step worth asking the rules about on `table`, legal or not.
    fn every_step(table: &Table) -> Vec<Step> {
        let mut out = vec![Step::Draw, Step::Recycle];
        let tops = table
            .waste
            .last()
            .into_iter()
            .chain(table.piles.iter().filter_map(|p| p.cards.last()));
        out.extend(tops.map(|&c| Step::ToFoundation(c)));
        for to in 0..PILES as u8 {
            out.push(Step::PileToFoundation(to));
            out.push(Step::WasteToPile(to));
            out.extend(Suit::ALL.map(|suit| Step::FoundationToPile(suit, to)));
            for from in 0..PILES as u8 {
                out.extend((0..=RUN as u8).map(|count| Step::PileToPile { from, to, count }));
            }
        }
        out
    }

    /// Along seed 003's own line for deal 12 (which takes cards up by their pile, `3>F`, where
    /// the search's steps would not), the position the search steps to agrees with the rules'
    /// table at every step, and so does every other step's legality and outcome on the way.
    #[test]
    fn a_position_steps_as_the_rules_table_does() {
        let text = include_str!("../../../tests/data/triple-klondike/seed-003-deal-12.txt");
        let line: Vec<Step> = text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(|l| Step::parse_on(l, PILES).unwrap())
            .collect();
        let deck = TripleDeck::contest(12).unwrap();
        let deal = Deal::new(&deck);
        let (mut state, mut table) = (deal.start(), deck.table());
        assert!(same(&state, &table, &deal));
        let mut tried = 0;
        for (n, &step) in line.iter().enumerate() {
            for other in every_step(&table) {
                let mut theirs = table.clone();
                let legal = theirs.play(other).is_ok();
                match state.play(other, &deal) {
                    Some(next) => {
                        assert!(legal && same(&next, &theirs, &deal), "step {n}: {other}")
                    }
                    None => assert!(!legal || other == Step::Recycle, "step {n}: {other}"),
                }
                tried += 1;
            }
            state = state.play(step, &deal).expect("the seed's line is legal");
            table.play(step).unwrap();
        }
        assert!(tried > 100_000);
        assert_eq!(state.left(), 0);
        assert!(state.is_done() && table.is_won());
    }

    /// Every child the search makes, with either set of lifts, is the position its step leads to
    /// by `play` (which the line is walked and replayed by), and taking cards up from any pile adds
    /// only `3>F` steps: checked at every position of seed 003's line for deal 12, which shows a
    /// card on two piles at some of them.
    #[test]
    fn children_are_the_positions_their_steps_lead_to() {
        let text = include_str!("../../../tests/data/triple-klondike/seed-003-deal-12.txt");
        let deck = TripleDeck::contest(12).unwrap();
        let deal = Deal::new(&deck);
        let mut state = deal.start();
        let (mut by_card, mut any_pile) = (Vec::new(), Vec::new());
        let mut extra = 0;
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        {
            state.children(&deal, Lifts::ByCard, &mut by_card);
            state.children(&deal, Lifts::FromAnyPile, &mut any_pile);
            for (step, next) in by_card.iter().chain(&any_pile) {
                let played = state.play(*step, &deal).expect("a child's step is legal");
                assert_eq!(played.key(), next.key(), "{step}");
            }
            let added: Vec<&Step> = any_pile
                .iter()
                .map(|(step, _)| step)
                .filter(|step| !by_card.iter().any(|(s, _)| s == *step))
                .collect();
            assert!(added.iter().all(|s| matches!(s, Step::PileToFoundation(_))));
            assert_eq!(any_pile.len(), by_card.len() + added.len());
            extra += added.len();
            let step = Step::parse_on(line, PILES).unwrap();
            state = state.play(step, &deal).expect("the seed's line is legal");
        }
        assert!(extra > 0, "no card showed on two piles along the line");
    }

    /// Searching again from points along a line makes a narrow beam's line shorter, and the line
    /// still wins by the rules.
    #[test]
    fn searching_again_along_a_line_shortens_it() {
        let deck = TripleDeck::contest(1).unwrap();
        let deal = Deal::new(&deck);
        let start = deal.start();
        let (found, _) = beam(&deal, start, 256, usize::MAX, &WEIGHINGS[1], Lifts::ByCard);
        let line = shorten(&deck.table(), &found.expect("deal 1 is won at 256"));
        let mut states = 0;
        let shorter = again(
            &deck,
            &deal,
            start,
            line.clone(),
            1024,
            Lifts::ByCard,
            &mut states,
        );
        assert!(
            shorter.len() < line.len(),
            "{} {}",
            shorter.len(),
            line.len()
        );
        assert!(states > 0);
        let mut table = deck.table();
        for &step in &shorter {
            table.play(step).unwrap();
        }
        assert!(table.is_won());
    }
}
