//! The depth-first search that decides a deal over classes of positions (`State::class`), never
//! over the positions in them.
//!
//! A class says which cards are on the foundations, in the stock and waste, and face down; every
//! other card is face up on a pile, and each face-up card that is not the bottom one of its pile
//! lies on one of the two cards one rank higher of the other colour. Which of the two is all a
//! class leaves open, and that changes nothing about what can be won (docs/klondike.md). So the
//! search works out from the class alone what can move:
//!
//! - of two same-coloured cards of a rank on the piles, as many are free (nothing lies on them) as
//!   there are of them less the face-up cards of the rank below and the other colour that lie on
//!   a card: when one of the two is free, either can be (one move puts the run on the other card
//!   onto the free one), so both count as free;
//! - a free card may go up, and a card may go onto a free card one rank higher of the other
//!   colour (a king onto an empty pile);
//! - a pile's own bottom card (on a face-down card, or the pile's dealt bottom card) moves, with
//!   its run, only to turn up the card under it or to empty its pile (a king not even then): any
//!   other run lies on a card and could only go onto that card's twin, which keeps the class.
//!
//! A card that goes up safely goes at once, alone, and in Draw 1 so does a stock card that does.
//! With no card face down (and, in Draw 3, at most one in the stock and waste) a deal is won: the
//! lowest card not yet up can always go up.
//!
//! A winning line of classes is then played out on positions: where it plays up a covered card,
//! the run on it goes first onto the card's free twin; the rules check the line as they check
//! every line.

use super::rounds::{self, Child, Outcome, Space};
use super::solver::safe;
use super::state::{
    nth_in_talon, pack_class, pile_class, rank, red, suit, talon_tops, Deal, Dest, Move, State, C,
};
use super::{Step, PILES, STOCK};

/// A card as a bit of the search's masks: rank-major, four a rank, the two suits of one colour
/// side by side (black in bits 0 and 1 of a rank's four, red in 2 and 3), so that a card's twin,
/// the cards that go onto it and the cards it goes onto are shifts of its bit.
type Bit = u8;

/// The first of each two same-coloured cards of a rank.
const PAIR_LOW: u64 = 0x0005_5555_5555_5555;
/// The four kings.
const KINGS: u64 = 0xF << 48;

/// Each card's bit moved to the same rank's card of the other colour (same place in its pair).
fn other_colour(m: u64) -> u64 {
    ((m >> 2) & 0x0003_3333_3333_3333) | ((m & 0x0003_3333_3333_3333) << 2)
}

/// The pairs of `m` that hold at least one card, as their first bits.
fn pair_any(m: u64) -> u64 {
    (m | m >> 1) & PAIR_LOW
}

/// The pairs of `m` that hold exactly one card, as their first bits.
fn pair_odd(m: u64) -> u64 {
    (m ^ m >> 1) & PAIR_LOW
}

/// Pairs given by their first bits, as both their cards.
fn both(pairs: u64) -> u64 {
    pairs | pairs << 1
}

/// A move between classes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Play {
    /// A face-up pile card to its foundation (first freed, if its twin is the free one).
    Up(Bit),
    /// A pile's bottom face-up card, with its run, onto a free card (a king: an empty pile).
    Bottom(Bit),
    /// A foundation's top card onto a free card.
    Down(Bit),
    /// The deal's stock card `k` to its foundation (`up`) or onto a free card, leaving `waste`
    /// cards in the waste.
    Talon { k: u8, up: bool, waste: u8 },
}

/// A class of positions, with the face-up pile cards it implies.
#[derive(Clone, Copy, Debug)]
pub struct Node {
    found: [u8; 4],
    down: [u8; PILES],
    /// Bit i: pile i has no face-down card and its own dealt card at the bottom.
    own: u8,
    talon: u32,
    waste: u8,
    /// The face-up pile cards.
    up: u64,
}

/// What does not change while a deal is decided, and the search's scratch lists.
pub struct Tables<'d> {
    deal: &'d Deal,
    bit: [Bit; 52],
    card: [C; 52],
    /// Pile i's dealt cards as bits, bottom first.
    pile: [[Bit; 7]; PILES],
    /// The stock cards' bits, by the deal's stock index, and the other way round.
    stock: [Bit; STOCK],
    stock_index: [u8; 52],
    /// Each byte of a stock and waste bit set (`Node::talon`), as the cards' bits.
    talon_bits: [[u64; 256]; 3],
    /// Whether a class holds where the waste ends: in Draw 3 only (in Draw 1 any stock or waste
    /// card can be brought up from anywhere).
    with_waste: bool,
    /// The reductions that put moves off (`Reductions::put_off`).
    put_off: bool,
    /// A card that goes up safely goes at once, alone (off only to test that nothing else is
    /// missed).
    forced: bool,
    /// Scratch lists: the stock's ways, the stock cards within reach, the plays.
    ways: Vec<(u8, bool, u8, u8)>,
    talon: Vec<(u8, u8)>,
    plays: Vec<Play>,
}

impl<'d> Tables<'d> {
    fn new(deal: &'d Deal, put_off: bool) -> Tables<'d> {
        let mut slot = [0u8; 4];
        let (mut black, mut red_slot) = (0, 2);
        for (s, slot) in slot.iter_mut().enumerate() {
            if red(s as C * 13) {
                *slot = red_slot;
                red_slot += 1;
            } else {
                *slot = black;
                black += 1;
            }
        }
        let mut bit = [0; 52];
        let mut card = [0; 52];
        for c in 0..52u8 {
            let b = (rank(c) - 1) * 4 + slot[suit(c)];
            bit[c as usize] = b;
            card[b as usize] = c;
        }
        let pile = std::array::from_fn(|i| std::array::from_fn(|j| bit[deal.piles[i][j] as usize]));
        let stock: [Bit; STOCK] = std::array::from_fn(|k| bit[deal.stock[k] as usize]);
        let mut stock_index = [u8::MAX; 52];
        for (k, &b) in stock.iter().enumerate() {
            stock_index[b as usize] = k as u8;
        }
        let mut talon_bits = [[0u64; 256]; 3];
        for (byte, table) in talon_bits.iter_mut().enumerate() {
            for (v, m) in table.iter_mut().enumerate() {
                for j in 0..8 {
                    if v >> j & 1 != 0 {
                        *m |= 1 << stock[byte * 8 + j];
                    }
                }
            }
        }
        Tables {
            deal,
            bit,
            card,
            pile,
            stock,
            stock_index,
            talon_bits,
            with_waste: deal.draw != 1,
            put_off,
            forced: true,
            ways: Vec::with_capacity(32),
            talon: Vec::with_capacity(32),
            plays: Vec::with_capacity(64),
        }
    }

    fn start(&self) -> Node {
        let mut n = Node {
            found: [0; 4],
            down: std::array::from_fn(|i| i as u8),
            own: 1,
            talon: (1 << STOCK) - 1,
            waste: 0,
            up: 0,
        };
        for i in 0..PILES {
            n.up |= 1 << self.pile[i][i];
        }
        n
    }

    fn key(&self, n: &Node) -> u64 {
        pack_class(
            &n.found,
            |i| pile_class(n.down[i], n.own >> i & 1 != 0),
            n.talon,
            self.with_waste.then_some(n.waste),
        )
    }

    /// Pile i's bottom face-up card when it is its own dealt card (it lies on a face-down card, or
    /// is the pile's own bottom card).
    fn bottom(&self, n: &Node, i: usize) -> Option<Bit> {
        if n.down[i] > 0 {
            Some(self.pile[i][n.down[i] as usize])
        } else if n.own >> i & 1 != 0 {
            Some(self.pile[i][0])
        } else {
            None
        }
    }

    /// The cards of a stock and waste bit set, as the search's bits.
    fn talon_mask(&self, talon: u32) -> u64 {
        self.talon_bits[0][(talon & 0xFF) as usize]
            | self.talon_bits[1][(talon >> 8 & 0xFF) as usize]
            | self.talon_bits[2][(talon >> 16 & 0xFF) as usize]
    }

    /// The foundations' next cards.
    fn next_up(&self, n: &Node) -> u64 {
        (0..4)
            .filter(|&s| n.found[s] < 13)
            .fold(0, |m, s| m | 1 << self.bit[s * 13 + n.found[s] as usize])
    }

    /// The foundations' top cards.
    fn found_tops(&self, n: &Node) -> u64 {
        (0..4).filter(|&s| n.found[s] > 0).fold(0, |m, s| {
            m | 1 << self.bit[s * 13 + n.found[s] as usize - 1]
        })
    }

    /// The stock cards that can be brought to the waste's top: (stock index, waste left after).
    fn talon_plays(&mut self, n: &Node, out: &mut Vec<(u8, u8)>) {
        out.clear();
        if self.deal.draw == 1 {
            // Every card; where the waste ends does not matter.
            let mut bits = n.talon;
            while bits != 0 {
                out.push((bits.trailing_zeros() as u8, 0));
                bits &= bits - 1;
            }
            return;
        }
        let mut ways = std::mem::take(&mut self.ways);
        talon_tops(
            n.talon.count_ones() as usize,
            n.waste as usize,
            self.deal.draw,
            &mut ways,
        );
        for &(.., top) in &ways {
            out.push((nth_in_talon(n.talon, top - 1), top - 1));
        }
        self.ways = ways;
    }

    /// What can move on the piles of class `n`: each pile's own bottom card (`bottom`), the
    /// pairs with a free card (as their first bits), and whether a pile is empty.
    fn piles(&self, n: &Node) -> ([Option<Bit>; PILES], u64, bool) {
        let bottoms: [Option<Bit>; PILES] = std::array::from_fn(|i| self.bottom(n, i));
        let locked = bottoms.iter().flatten().fold(0u64, |m, &b| m | 1 << b);
        // Face-up cards that lie on a card, put on the pair they lie on.
        let lying = other_colour(n.up & !locked & !KINGS) << 4;
        // A pair with a card face up has one free when fewer cards lie on it than it has face up.
        let free_pairs =
            pair_any(n.up) & (pair_odd(n.up) ^ pair_odd(lying) | !pair_any(lying)) & PAIR_LOW;
        // Every pile holds an own bottom card or a king that lies on nothing.
        let occupied = locked.count_ones() + (n.up & KINGS & !locked).count_ones();
        (bottoms, free_pairs, (occupied as usize) < PILES)
    }

    /// The plays from `n`, in the order the first round tries them; only one when a card goes up
    /// safely. `talon` is scratch.
    fn plays(&mut self, n: &Node, talon: &mut Vec<(u8, u8)>, out: &mut Vec<Play>) {
        out.clear();
        let (bottoms, free_pairs, empty) = self.piles(n);
        let free = both(free_pairs) & n.up;
        // Cards that can go onto a pile.
        let landing = other_colour(both(free_pairs)) >> 4 | if empty { KINGS } else { 0 };
        let next = self.next_up(n);
        self.talon_plays(n, talon);
        // Safe plays first, alone.
        let safe_bit = |b: Bit| self.forced && safe(&n.found, self.card[b as usize]);
        let mut ups = free & next;
        while ups != 0 {
            let b = ups.trailing_zeros() as Bit;
            if safe_bit(b) {
                out.push(Play::Up(b));
                return;
            }
            ups &= ups - 1;
        }
        let reachable = if self.deal.draw == 1 {
            self.talon_mask(n.talon)
        } else {
            talon
                .iter()
                .fold(0, |m, &(k, _)| m | 1 << self.stock[k as usize])
        };
        if self.deal.draw == 1 {
            let mut ups = reachable & next;
            while ups != 0 {
                let b = ups.trailing_zeros() as Bit;
                if safe_bit(b) {
                    let k = self.stock_index[b as usize];
                    out.push(Play::Talon {
                        k,
                        up: true,
                        waste: 0,
                    });
                    return;
                }
                ups &= ups - 1;
            }
        } else if n.waste > 0 {
            let k = nth_in_talon(n.talon, n.waste - 1);
            let b = self.stock[k as usize];
            if next & 1 << b != 0 && safe_bit(b) {
                out.push(Play::Talon {
                    k,
                    up: true,
                    waste: n.waste - 1,
                });
                return;
            }
        }
        let mut ups = free & next;
        while ups != 0 {
            out.push(Play::Up(ups.trailing_zeros() as Bit));
            ups &= ups - 1;
        }
        // Cards that could go onto a card next: ones the stock can bring up, foundations' tops and
        // face-up pile cards.
        let ready = reachable | self.found_tops(n) | n.up;
        let wanted = |b: Bit| {
            let onto = other_colour(both(1 << (b & !1))) >> 4;
            onto & ready != 0
        };
        for (i, b) in bottoms.iter().enumerate() {
            if let Some(b) = *b {
                if n.down[i] > 0 && landing & 1 << b != 0 {
                    out.push(Play::Bottom(b));
                }
            }
        }
        for &(k, waste) in talon.iter() {
            let b = self.stock[k as usize];
            if next & 1 << b != 0 {
                out.push(Play::Talon { k, up: true, waste });
            }
            if landing & 1 << b != 0 && !(self.put_off && self.deal.draw == 1 && !wanted(b)) {
                out.push(Play::Talon {
                    k,
                    up: false,
                    waste,
                });
            }
        }
        // A pile's own bottom card (none face down under it) leaves it empty: only when a king
        // could go there next.
        for (i, b) in bottoms.iter().enumerate() {
            if let Some(b) = *b {
                if n.down[i] == 0
                    && KINGS & 1 << b == 0
                    && landing & 1 << b != 0
                    && !(self.put_off && KINGS & ready == 0)
                {
                    out.push(Play::Bottom(b));
                }
            }
        }
        // A foundation's top card comes down only when a card could go onto it next (a two
        // never: only an ace could, which goes up instead; a king never needs to).
        for s in 0..4 {
            let f = n.found[s];
            if (3..13).contains(&f) {
                let b = self.bit[s * 13 + f as usize - 1];
                if landing & 1 << b != 0 && (!self.put_off || wanted(b)) {
                    out.push(Play::Down(b));
                }
            }
        }
    }

    /// The class `play` makes from `n`.
    fn apply(&self, n: &Node, play: Play) -> Node {
        let mut n = *n;
        // Pile `i`'s bottom card left it (up or onto another pile).
        let left = |n: &mut Node, i: usize| {
            if n.down[i] > 0 {
                n.down[i] -= 1;
                n.up |= 1 << self.pile[i][n.down[i] as usize];
                if n.down[i] == 0 {
                    n.own |= 1 << i;
                }
            } else {
                n.own &= !(1 << i);
            }
        };
        match play {
            Play::Up(b) => {
                n.up &= !(1 << b);
                n.found[suit(self.card[b as usize])] += 1;
                if let Some(i) = (0..PILES).find(|&i| self.bottom(&n, i) == Some(b)) {
                    left(&mut n, i);
                }
            }
            Play::Bottom(b) => {
                let i = (0..PILES)
                    .find(|&i| self.bottom(&n, i) == Some(b))
                    .expect("a bottom card");
                left(&mut n, i);
            }
            Play::Down(b) => {
                n.found[suit(self.card[b as usize])] -= 1;
                n.up |= 1 << b;
            }
            Play::Talon { k, up, waste } => {
                n.talon &= !(1 << k);
                n.waste = waste;
                let b = self.stock[k as usize];
                if up {
                    n.found[suit(self.card[b as usize])] += 1;
                } else {
                    n.up |= 1 << b;
                }
            }
        }
        n
    }

    /// Whether the deal is won from `n`: no card face down and every stock card within reach.
    fn won(&self, n: &Node) -> bool {
        n.down == [0; PILES] && (self.deal.draw == 1 || n.talon.count_ones() <= 1)
    }

    /// `play` made on a position of its class, as moves of the rules, each made on `s`.
    fn play_out(&mut self, s: &mut State, play: Play, steps: &mut Vec<Step>) {
        let deal = self.deal;
        let mut make = |s: &mut State, m: Move| {
            steps.extend(s.steps(deal, m));
            s.apply(deal, m);
        };
        let takes = |s: &State, c: C| (0..PILES).find(|&j| super::state::fits(c, s.top(j)));
        match play {
            Play::Up(b) => {
                let c = self.card[b as usize];
                let (i, at) = find(s, c);
                let len = s.len[i] as usize;
                if at + 1 < len {
                    // Covered: its twin is free; the run on it goes there.
                    let twin = self.card[(b ^ 1) as usize];
                    let j = (0..PILES)
                        .find(|&j| s.top(j) == Some(twin))
                        .expect("a free twin");
                    let count = (len - at - 1) as u8;
                    make(
                        s,
                        Move::PileToPile {
                            from: i as u8,
                            to: j as u8,
                            count,
                        },
                    );
                }
                make(s, Move::PileToFoundation(i as u8));
            }
            Play::Bottom(b) => {
                let c = self.card[b as usize];
                let (i, _) = find(s, c);
                let j = (0..PILES)
                    .find(|&j| j != i && super::state::fits(c, s.top(j)))
                    .expect("a card to take the run");
                let count = s.len[i];
                make(
                    s,
                    Move::PileToPile {
                        from: i as u8,
                        to: j as u8,
                        count,
                    },
                );
            }
            Play::Down(b) => {
                let c = self.card[b as usize];
                let j = takes(s, c).expect("a card to take it");
                make(
                    s,
                    Move::FoundationToPile {
                        suit: suit(c) as u8,
                        to: j as u8,
                    },
                );
            }
            Play::Talon { k, up, waste } => {
                let c = deal.stock[k as usize];
                let dest = if up {
                    Dest::Foundation
                } else {
                    Dest::Pile(takes(s, c).expect("a card to take it") as u8)
                };
                let m = self.talon_move(s, k, waste, dest);
                make(s, m);
            }
        }
    }

    /// The `Move::Talon` that plays stock card `k` to `dest` from `s` (leaving `waste` cards in
    /// the waste, in Draw 3).
    fn talon_move(&mut self, s: &State, k: u8, waste: u8, dest: Dest) -> Move {
        let draw = self.deal.draw;
        self.talon_way(
            s,
            dest,
            |j| j == k as usize,
            |top| draw == 1 || top - 1 == waste,
        )
        .expect("the stock card within reach")
    }

    /// The cheapest `Move::Talon` from `s` to `dest` whose card (by its stock index) is `card`'s
    /// choice and whose waste top (cards in the waste before the play) is `top`'s.
    fn talon_way(
        &mut self,
        s: &State,
        dest: Dest,
        card: impl Fn(usize) -> bool,
        top: impl Fn(u8) -> bool,
    ) -> Option<Move> {
        let mut ways = std::mem::take(&mut self.ways);
        s.talon_tops(self.deal.draw, &mut ways);
        let way = ways
            .iter()
            .find(|&&(.., t)| card(s.talon_index(t - 1)) && top(t))
            .copied();
        self.ways = ways;
        way.map(|(before, recycle, after, top)| Move::Talon {
            before,
            recycle,
            after,
            top,
            dest,
        })
    }

    /// From a position with no card face down (and in Draw 3 at most one in the stock and waste),
    /// the cards up, lowest first.
    fn finish(&mut self, s: &mut State, steps: &mut Vec<Step>) {
        while !s.is_won() {
            let up = |c: C| s.found[suit(c)] + 1 == rank(c);
            let m = if let Some(i) = (0..PILES).find(|&i| s.top(i).is_some_and(up)) {
                Move::PileToFoundation(i as u8)
            } else {
                let stock = self.deal.stock;
                self.talon_way(s, Dest::Foundation, |k| up(stock[k]), |_| true)
                    .expect("a card to go up")
            };
            steps.extend(s.steps(self.deal, m));
            s.apply(self.deal, m);
        }
    }
}

/// The pile `c` lies face up in, and its place in the run.
fn find(s: &State, c: C) -> (usize, usize) {
    (0..PILES)
        .find_map(|i| {
            s.up[i][..s.len[i] as usize]
                .iter()
                .position(|&u| u == c)
                .map(|at| (i, at))
        })
        .expect("a face-up card")
}

impl Space for Tables<'_> {
    type Node = Node;
    type Move = Play;

    fn children(&mut self, node: &Node, out: &mut Vec<Child<Self>>) {
        let (mut talon, mut plays) = (
            std::mem::take(&mut self.talon),
            std::mem::take(&mut self.plays),
        );
        self.plays(node, &mut talon, &mut plays);
        for &mv in &plays {
            let next = self.apply(node, mv);
            out.push(Child {
                mv,
                key: self.key(&next),
                node: next,
            });
        }
        (self.talon, self.plays) = (talon, plays);
    }

    fn key(&self, node: &Node) -> u64 {
        Tables::key(self, node)
    }

    fn won(&self, node: &Node) -> bool {
        Tables::won(self, node)
    }

    fn distance(&self, node: &Node) -> u32 {
        let on: u32 = node.found.iter().map(|&f| f as u32).sum();
        let down: u32 = node.down.iter().map(|&d| d as u32).sum();
        3 * down + 52 - on
    }
}

/// Decides the deal within `budget` classes (`rounds::search`): the steps of a winning line, or
/// proof that none exists.
pub fn decide(
    deal: &Deal,
    put_off: bool,
    budget: usize,
    states: &mut u64,
    peak: &mut usize,
) -> Outcome<Step> {
    let mut t = Tables::new(deal, put_off);
    let start = t.start();
    match rounds::search(&mut t, start, budget, states, peak) {
        Outcome::Won(path) => {
            let path = shortcut(&mut t, start, &path);
            Outcome::Won(line(&mut t, &path))
        }
        Outcome::Lost => Outcome::Lost,
        Outcome::OutOfBudget => Outcome::OutOfBudget,
    }
}

/// A winning line of classes with its detours cut: from each class on it, the play that reaches
/// the latest class on it (or a win). The depth-first search's line wanders: its first order
/// puts cards up and turns cards up before anything else, and it takes the first way it finds.
fn shortcut(t: &mut Tables, start: Node, path: &[Play]) -> Vec<Play> {
    let mut nodes = vec![start];
    for &p in path {
        let next = t.apply(nodes.last().expect("a class"), p);
        nodes.push(next);
    }
    let at: std::collections::HashMap<u64, usize> = nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (t.key(n), i))
        .collect();
    let last = nodes.len() - 1;
    // Every play, not only the ones the search tries first.
    let (forced, put_off) = (t.forced, t.put_off);
    (t.forced, t.put_off) = (false, false);
    let (mut talon, mut plays) = (Vec::new(), Vec::new());
    let mut cut = Vec::new();
    let mut i = 0;
    while i < last {
        t.plays(&nodes[i], &mut talon, &mut plays);
        let mut best = (i + 1, path[i]);
        for &p in &plays {
            let next = t.apply(&nodes[i], p);
            let j = if t.won(&next) {
                last
            } else {
                at.get(&t.key(&next)).copied().unwrap_or(0)
            };
            if j > best.0 {
                best = (j, p);
            }
        }
        cut.push(best.1);
        i = best.0;
    }
    (t.forced, t.put_off) = (forced, put_off);
    cut
}

/// The steps of a winning line of classes, played out from the deal.
///
/// In Draw 1 a stock card the line plays up waits in the stock until the waste shows it (no
/// draw then) or a play needs it on its foundation: taken at once, it would cost the draws to
/// bring it up, and most stock cards the search plays up are safe ones it takes first of all.
/// Nothing else needs it: no card goes onto a stock card, and every stock card can be had at
/// any time.
fn line(t: &mut Tables, path: &[Play]) -> Vec<Step> {
    let mut s = State::start(t.deal);
    let mut steps = Vec::new();
    // The stock cards played up and waiting, in the order they went up.
    let mut waiting: Vec<u8> = Vec::new();
    for &play in path {
        let suit_needed = match play {
            Play::Talon { k, up: true, .. } if t.deal.draw == 1 => {
                waiting.push(k);
                continue;
            }
            Play::Up(b) | Play::Down(b) => Some(suit(t.card[b as usize])),
            Play::Talon { k, up: true, .. } => Some(suit(t.deal.stock[k as usize])),
            _ => None,
        };
        if let Some(x) = suit_needed {
            while let Some(at) = waiting
                .iter()
                .position(|&k| suit(t.deal.stock[k as usize]) == x)
            {
                let k = waiting.remove(at);
                let m = t.talon_move(&s, k, 0, Dest::Foundation);
                steps.extend(s.steps(t.deal, m));
                s.apply(t.deal, m);
            }
        }
        t.play_out(&mut s, play, &mut steps);
        // Waiting cards the waste shows go up now, without a draw.
        while s.waste > 0 {
            let k = s.talon_index(s.waste - 1) as u8;
            let c = t.deal.stock[k as usize];
            let Some(at) = waiting.iter().position(|&w| w == k) else {
                break;
            };
            if s.found[suit(c)] + 1 != rank(c) {
                break;
            }
            waiting.remove(at);
            let m = Move::Talon {
                before: 0,
                recycle: false,
                after: 0,
                top: s.waste,
                dest: Dest::Foundation,
            };
            steps.extend(s.steps(t.deal, m));
            s.apply(t.deal, m);
        }
    }
    // The rest go up with the other cards, lowest first.
    t.finish(&mut s, &mut steps);
    steps
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::SplitMix64;
    use crate::games::klondike::state::{fits, talon_tops};
    use crate::games::klondike::{Draw, KlondikeDeck};

    impl Tables<'_> {
        /// The class of `s`, as the search holds it.
        fn node_of(&self, s: &State) -> Node {
            let mut n = Node {
                found: s.found,
                down: s.down,
                own: 0,
                talon: s.talon,
                waste: if self.with_waste { s.waste } else { 0 },
                up: 0,
            };
            for i in 0..PILES {
                let run = &s.up[i][..s.len[i] as usize];
                if s.down[i] == 0 && run.first() == Some(&self.deal.piles[i][0]) {
                    n.own |= 1 << i;
                }
                for &c in run {
                    n.up |= 1 << self.bit[c as usize];
                }
            }
            n
        }
    }

    /// Every legal move of the rules from `s`, but a card from its foundation when it is a king,
    /// an ace or a two (the searches never play them).
    fn legal(deal: &Deal, s: &State) -> Vec<Move> {
        let mut out = Vec::new();
        for i in 0..PILES {
            if let Some(c) = s.top(i) {
                if s.found[suit(c)] + 1 == rank(c) {
                    out.push(Move::PileToFoundation(i as u8));
                }
            }
            let len = s.len[i] as usize;
            for count in 1..=len {
                let c = s.up[i][len - count];
                for j in (0..PILES).filter(|&j| j != i) {
                    if fits(c, s.top(j)) {
                        let (from, to, count) = (i as u8, j as u8, count as u8);
                        out.push(Move::PileToPile { from, to, count });
                    }
                }
            }
        }
        for x in 0..4u8 {
            let f = s.found[x as usize];
            if (3..13).contains(&f) {
                let c = x * 13 + f - 1;
                for j in (0..PILES).filter(|&j| fits(c, s.top(j))) {
                    out.push(Move::FoundationToPile {
                        suit: x,
                        to: j as u8,
                    });
                }
            }
        }
        let mut ways = Vec::new();
        talon_tops(
            s.talon_len() as usize,
            s.waste as usize,
            deal.draw,
            &mut ways,
        );
        for (before, recycle, after, top) in ways {
            let c = deal.stock[s.talon_index(top - 1)];
            let talon = |dest| Move::Talon {
                before,
                recycle,
                after,
                top,
                dest,
            };
            if s.found[suit(c)] + 1 == rank(c) {
                out.push(talon(Dest::Foundation));
            }
            for j in (0..PILES).filter(|&j| fits(c, s.top(j))) {
                out.push(talon(Dest::Pile(j as u8)));
            }
        }
        out
    }

    /// Along random games in both draws: a position's class as the search holds it is the
    /// class `State::class` gives; the cards it counts free are the cards on top of a pile and
    /// their twins; every play it makes, played out on the position by the rules' moves, reaches
    /// the class it says; and every move of the rules reaches the position's own class or one a
    /// play reaches, but moving a king from pile to empty pile, which only renames the piles.
    #[test]
    fn classes_move_as_their_positions_do() {
        let mut rng = SplitMix64(7);
        let mut checked = 0;
        for seed in 1..=12 {
            for draw in [Draw::One, Draw::Three] {
                let deal = Deal::new(&KlondikeDeck::shuffled(seed), draw);
                let mut t = Tables::new(&deal, false);
                t.forced = false;
                let mut s = State::start(&deal);
                let (mut talon, mut plays) = (Vec::new(), Vec::new());
                for _ in 0..150 {
                    let n = t.node_of(&s);
                    assert_eq!(t.key(&n), s.class(&deal, t.with_waste));
                    let tops = (0..PILES)
                        .filter_map(|i| s.top(i))
                        .fold(0u64, |m, c| m | 1 << t.bit[c as usize]);
                    let (_, free_pairs, _) = t.piles(&n);
                    assert_eq!(both(free_pairs) & n.up, both(pair_any(tops)) & n.up);
                    t.plays(&n, &mut talon, &mut plays);
                    let mut reached = vec![t.key(&n)];
                    for &p in &plays {
                        let mut out = s.clone();
                        let mut steps = Vec::new();
                        t.play_out(&mut out, p, &mut steps);
                        let key = t.key(&t.apply(&n, p));
                        assert_eq!(out.class(&deal, t.with_waste), key, "{p:?} from {s:?}");
                        reached.push(key);
                    }
                    let moves = legal(&deal, &s);
                    for &m in &moves {
                        if let Move::PileToPile { from, count, .. } = m {
                            let (from, count) = (from as usize, count as usize);
                            let king_alone = s.down[from] == 0
                                && count == s.len[from] as usize
                                && rank(s.up[from][0]) == 13;
                            if king_alone {
                                continue;
                            }
                        }
                        let mut next = s.clone();
                        next.apply(&deal, m);
                        let key = next.class(&deal, t.with_waste);
                        assert!(reached.contains(&key), "{m:?} from {s:?} missed");
                        checked += 1;
                    }
                    if moves.is_empty() || s.is_won() {
                        break;
                    }
                    let m = moves[(rng.next_u64() % moves.len() as u64) as usize];
                    s.apply(&deal, m);
                }
            }
        }
        assert!(checked > 5_000, "{checked} moves checked");
    }
}
