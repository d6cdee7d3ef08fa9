//! The position the solver searches, packed: the foundations, each pile as its count of face-down
//! cards (which are the deal's own, so only their number changes) and its face-up run, and the
//! stock and waste together as the deal's stock cards still there (a bit each) with how many of
//! them lie in the waste.
//!
//! Stock and waste as one sequence: the cards still in either keep the deal's stock order; the
//! first `waste` of them are the waste (the last of those its top card) and the rest the stock
//! (the first of those its next card). `Draw` moves the boundary on by one or three, `Recycle` sets
//! it back to 0, and playing the waste's top card takes that card out.
//!
//! Moves that turn stock cards are made together with the play of the card they bring to the top
//! of the waste (`Move::Talon`): a solution's draws can always be moved to just before the waste
//! play that needs them, since they touch nothing else, so no line is lost.

use super::{pile_start, Draw, KlondikeDeck, Step, PILES, STOCK};
use crate::cards::{Card, Suit};

/// A card as its dense index (`Card::index`): suit-major, 13 a suit.
pub type C = u8;

pub fn rank(c: C) -> u8 {
    c % 13 + 1
}
pub fn suit(c: C) -> usize {
    (c / 13) as usize
}
/// Bit c: card c is red.
const RED_CARDS: u64 = {
    let mut mask = 0u64;
    let mut c = 0;
    while c < 52 {
        if Suit::ALL[c / 13].is_red() {
            mask |= 1 << c;
        }
        c += 1;
    }
    mask
};
pub fn red(c: C) -> bool {
    RED_CARDS >> c & 1 != 0
}
/// Whether `c` goes onto `top` (`None`: an empty pile, kings only).
pub fn fits(c: C, top: Option<C>) -> bool {
    match top {
        None => rank(c) == 13,
        Some(t) => red(t) != red(c) && rank(t) == rank(c) + 1,
    }
}

/// What does not change during a game: the deal's face-down cards, its stock and the draw.
pub struct Deal {
    /// Pile i's dealt cards, bottom first (`i + 1` of them).
    pub piles: [[C; 7]; PILES],
    /// The stock, top first.
    pub stock: [C; STOCK],
    pub draw: usize,
}

impl Deal {
    pub fn new(deck: &KlondikeDeck, draw: Draw) -> Deal {
        let cards = deck.0 .0;
        let mut piles = [[0; 7]; PILES];
        for (i, pile) in piles.iter_mut().enumerate() {
            for (j, c) in pile.iter_mut().enumerate().take(i + 1) {
                *c = cards[pile_start(i) + j].index() as C;
            }
        }
        let mut stock = [0; STOCK];
        for (k, c) in stock.iter_mut().enumerate() {
            *c = cards[super::TABLEAU + k].index() as C;
        }
        Deal {
            piles,
            stock,
            draw: draw.count(),
        }
    }
}

/// Where a card played from the stock and waste goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dest {
    Foundation,
    Pile(u8),
}

/// One move of the search. All cost one step but `Talon`, which costs its draws, its recycle and
/// the play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    PileToFoundation(u8),
    PileToPile {
        from: u8,
        to: u8,
        count: u8,
    },
    FoundationToPile {
        suit: u8,
        to: u8,
    },
    /// Draw `before` times, recycle if `recycle`, draw `after` times, then play the waste's top
    /// card (leaving `top` cards of the sequence in the waste before it is played) to `dest`.
    Talon {
        before: u8,
        recycle: bool,
        after: u8,
        top: u8,
        dest: Dest,
    },
}

impl Move {
    pub fn cost(self) -> u32 {
        match self {
            Move::Talon {
                before,
                recycle,
                after,
                ..
            } => before as u32 + recycle as u32 + after as u32 + 1,
            _ => 1,
        }
    }
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct State {
    /// Cards on each suit's foundation.
    pub found: [u8; 4],
    /// Face-down cards in each pile.
    pub down: [u8; PILES],
    /// Face-up cards in each pile.
    pub len: [u8; PILES],
    /// Each pile's face-up run, bottom first.
    pub up: [[C; 13]; PILES],
    /// Bit k: the deal's stock card k is still in the stock or the waste.
    pub talon: u32,
    /// How many of those lie in the waste.
    pub waste: u8,
}

/// A random number for each place in a face-up run and each card (SplitMix64 from a fixed
/// seed): a run's hash is theirs XORed.
static ZOBRIST: std::sync::LazyLock<[[u64; 52]; 13]> = std::sync::LazyLock::new(|| {
    let mut rng = crate::cards::SplitMix64(0x6B6C_6F6E_6469_6B65);
    let mut table = [[0; 52]; 13];
    for row in table.iter_mut() {
        for z in row.iter_mut() {
            *z = rng.next_u64();
        }
    }
    table
});

fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A class of positions (`State::class`) packed into 62 bits: 4 a foundation, then per pile
/// `pile(i)` (its face-down count + 1, or with none whether its own card is at the bottom) in as
/// few bits as pile k's k + 2 values need, the 24 stock and waste cards, and (`waste`, deciding
/// Draw 3) 5 bits of waste.
pub fn pack_class(
    found: &[u8; 4],
    pile: impl Fn(usize) -> u64,
    talon: u32,
    waste: Option<u8>,
) -> u64 {
    /// Bits for pile k's values: none down and not its own card, none down and its own card, or
    /// 1 to k face down.
    const PILE_BITS: [u32; PILES] = [1, 2, 2, 3, 3, 3, 3];
    let mut k = 0u64;
    for &f in found {
        k = k << 4 | f as u64;
    }
    for (i, bits) in PILE_BITS.into_iter().enumerate() {
        k = k << bits | pile(i);
    }
    k = k << 24 | talon as u64;
    if let Some(w) = waste {
        k = k << 5 | w as u64;
    }
    k
}

/// The deal's stock index of the `j`-th card (from 0) still in `talon` (a `State::talon` set).
pub fn nth_in_talon(talon: u32, j: u8) -> u8 {
    let mut bits = talon;
    for _ in 0..j {
        bits &= bits - 1;
    }
    bits.trailing_zeros() as u8
}

/// A pile's part of its class: its face-down count + 1, or with none whether its own dealt card
/// (`own`) is at the bottom.
pub fn pile_class(down: u8, own: bool) -> u64 {
    if down > 0 {
        down as u64 + 1
    } else {
        own as u64
    }
}

/// Every number of cards `top` the draws can leave in the waste, from a stock and waste of
/// `talon_len` cards with `waste` of them in the waste, each with its cheapest way as (draws,
/// recycle, draws after it).
pub fn talon_tops(talon_len: usize, waste: usize, draw: usize, out: &mut Vec<(u8, bool, u8, u8)>) {
    out.clear();
    let n = talon_len;
    if n == 0 {
        return;
    }
    let mut reached = 0u32;
    let mut t = waste;
    let mut draws = 0;
    loop {
        if t >= 1 {
            reached |= 1 << t;
            out.push((draws, false, 0, t as u8));
        }
        if t == n {
            break;
        }
        t = (t + draw).min(n);
        draws += 1;
    }
    // Through the stock to its end (`draws`), Recycle, and on again.
    let before = draws;
    let (mut t, mut after) = (0, 0);
    while t < n {
        t = (t + draw).min(n);
        after += 1;
        if reached & (1 << t) == 0 {
            reached |= 1 << t;
            out.push((before, true, after, t as u8));
        }
    }
}

impl State {
    pub fn start(deal: &Deal) -> State {
        let mut s = State {
            found: [0; 4],
            down: [0; PILES],
            len: [0; PILES],
            up: [[0; 13]; PILES],
            talon: (1 << STOCK) - 1,
            waste: 0,
        };
        for i in 0..PILES {
            s.down[i] = i as u8;
            s.len[i] = 1;
            s.up[i][0] = deal.piles[i][i];
        }
        s
    }

    pub fn is_won(&self) -> bool {
        self.found == [13; 4]
    }

    pub fn top(&self, i: usize) -> Option<C> {
        let n = self.len[i] as usize;
        (n > 0).then(|| self.up[i][n - 1])
    }

    /// Cards left in the stock and the waste.
    pub fn talon_len(&self) -> u8 {
        self.talon.count_ones() as u8
    }

    /// The deal's stock index of the `j`-th card (from 0) still in the stock or the waste.
    pub fn talon_index(&self, j: u8) -> usize {
        nth_in_talon(self.talon, j) as usize
    }

    /// A key equal for positions that differ only in the order of piles with no face-down card
    /// (the same game, its piles named otherwise).
    pub fn key(&self) -> u128 {
        let mut piles = 0u64;
        for i in 0..PILES {
            let mut h = if self.down[i] > 0 {
                (i as u64 + 1) << 8 | self.down[i] as u64
            } else {
                0xFFFF
            };
            for (j, &c) in self.up[i][..self.len[i] as usize].iter().enumerate() {
                h ^= ZOBRIST[j][c as usize];
            }
            piles = piles.wrapping_add(mix(h ^ 0x5851_F42D_4C95_7F2D));
        }
        let f = &self.found;
        let rest = (f[0] as u64)
            | (f[1] as u64) << 4
            | (f[2] as u64) << 8
            | (f[3] as u64) << 12
            | (self.talon as u64) << 16
            | (self.waste as u64) << 40;
        (rest as u128) << 64 | piles as u128
    }

    /// The position's class: what is on the foundations, each pile's face-down count, whether a
    /// pile with none still has its own dealt card at the bottom, the stock and waste's cards and
    /// (`with_waste`) how many lie in the waste. Every other face-up card lies on a card one rank
    /// higher of the other colour, so the class fixes which cards are face up and how many piles
    /// are empty, and leaves open only which of two same-coloured cards of a rank lies on which of
    /// the two that could hold it. That choice does not change what can be won (docs/klondike.md,
    /// "Positions in classes"); moves that only change it keep the class.
    /// Packed by `pack_class`.
    pub fn class(&self, deal: &Deal, with_waste: bool) -> u64 {
        pack_class(
            &self.found,
            |i| {
                let own = self.len[i] > 0 && self.up[i][0] == deal.piles[i][0];
                pile_class(self.down[i], own)
            },
            self.talon,
            with_waste.then_some(self.waste),
        )
    }

    /// The deal's stock indices of the cards still in the stock or the waste, in order, and how
    /// many there are.
    pub fn talon_sequence(&self) -> ([u8; STOCK], usize) {
        let mut seq = [0; STOCK];
        let mut n = 0;
        let mut bits = self.talon;
        while bits != 0 {
            seq[n] = bits.trailing_zeros() as u8;
            n += 1;
            bits &= bits - 1;
        }
        (seq, n)
    }

    /// Makes `m`, which the move generator gave for this position.
    pub fn apply(&mut self, deal: &Deal, m: Move) {
        match m {
            Move::PileToFoundation(i) => {
                let i = i as usize;
                let c = self.up[i][self.len[i] as usize - 1];
                self.len[i] -= 1;
                self.found[suit(c)] += 1;
                self.turn_up(deal, i);
            }
            Move::PileToPile { from, to, count } => {
                let (from, to, count) = (from as usize, to as usize, count as usize);
                let start = self.len[from] as usize - count;
                for k in 0..count {
                    self.up[to][self.len[to] as usize + k] = self.up[from][start + k];
                }
                self.len[to] += count as u8;
                self.len[from] -= count as u8;
                self.turn_up(deal, from);
            }
            Move::FoundationToPile { suit, to } => {
                let c = suit * 13 + self.found[suit as usize] - 1;
                self.found[suit as usize] -= 1;
                let to = to as usize;
                self.up[to][self.len[to] as usize] = c;
                self.len[to] += 1;
            }
            Move::Talon { top, dest, .. } => {
                let k = self.talon_index(top - 1);
                let c = deal.stock[k];
                self.talon &= !(1 << k);
                self.waste = top - 1;
                match dest {
                    Dest::Foundation => self.found[suit(c)] += 1,
                    Dest::Pile(to) => {
                        let to = to as usize;
                        self.up[to][self.len[to] as usize] = c;
                        self.len[to] += 1;
                    }
                }
            }
        }
    }

    fn turn_up(&mut self, deal: &Deal, i: usize) {
        if self.len[i] == 0 && self.down[i] > 0 {
            self.down[i] -= 1;
            self.up[i][0] = deal.piles[i][self.down[i] as usize];
            self.len[i] = 1;
        }
    }

    /// The card `m` plays, for writing it as a step.
    fn card_of(&self, deal: &Deal, m: Move) -> C {
        match m {
            Move::PileToFoundation(i) => self.top(i as usize).expect("a card"),
            Move::Talon { top, .. } => deal.stock[self.talon_index(top - 1)],
            Move::FoundationToPile { suit, .. } => suit * 13 + self.found[suit as usize] - 1,
            Move::PileToPile { .. } => 0,
        }
    }

    /// `m` as the steps a player makes, from this position.
    pub fn steps(&self, deal: &Deal, m: Move) -> Vec<Step> {
        let card = |c: C| Card::from_index(c as usize);
        match m {
            Move::PileToFoundation(_) => vec![Step::ToFoundation(card(self.card_of(deal, m)))],
            Move::PileToPile { from, to, count } => vec![Step::PileToPile { from, to, count }],
            Move::FoundationToPile { suit, to } => {
                vec![Step::FoundationToPile(Suit::ALL[suit as usize], to)]
            }
            Move::Talon {
                before,
                recycle,
                after,
                dest,
                ..
            } => {
                let mut steps = vec![Step::Draw; before as usize];
                if recycle {
                    steps.push(Step::Recycle);
                }
                steps.extend(std::iter::repeat_n(Step::Draw, after as usize));
                steps.push(match dest {
                    Dest::Foundation => Step::ToFoundation(card(self.card_of(deal, m))),
                    Dest::Pile(to) => Step::WasteToPile(to),
                });
                steps
            }
        }
    }

    /// Every number of cards `top` the draws can leave in the waste (its top card then the one
    /// a `Talon` move plays), each with its cheapest way as (draws, recycle, draws after it).
    pub fn talon_tops(&self, draw: usize, out: &mut Vec<(u8, bool, u8, u8)>) {
        talon_tops(self.talon_len() as usize, self.waste as usize, draw, out);
    }
}
