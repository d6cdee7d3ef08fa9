//! Deciding a game of peg solitaire: a solution, or proof that none exists.
//!
//! A beam search (`beam`) looks for a solution first and finds nearly every one within a few
//! thousand positions; it proves nothing. What it does not solve is decided, after seed 001, by a
//! depth-first search over positions packed into one number, jumps tested and
//! made with bit masks, and every position found to lead nowhere remembered (the seed's cache of
//! dead ends), here up to the board's symmetries that keep the goal where it is, so that a dead
//! end is recognised in any of its mirror images.
//!
//! Before searching, a counting argument may settle it at once (the "rule of three"): colour the
//! holes by a x + b y mod 3 with the colours chosen so that the three holes of every jump have three
//! different colours. A jump takes one peg from two colours and gives one to the third, so the
//! parity of every colour's peg count flips with each jump. The number of jumps is fixed (one peg
//! fewer each), so the parities at the end are known from the start: a goal hole whose colours
//! give other parities cannot be reached, whatever the jumps.

use super::beam::{self, Move};
use super::board::Board;
use super::End;
use crate::cards::SplitMix64;
use crate::games::key_hash::KeySet;
use std::time::Instant;

/// The answer for one start and goal.
#[derive(Clone, Debug)]
pub struct Answer {
    /// The jumps of a solution (from, over, to), or `None` when none exists.
    pub jumps: Option<Vec<[u8; 3]>>,
    /// Why none exists when the colour count proves it without a search.
    pub proof: Option<String>,
    /// Positions searched: those the beam kept, and those the depth-first search found to lead
    /// nowhere.
    pub states: u64,
    pub millis: f64,
}

/// Decides the game from the board full but for `start`, ending with one peg on `end`'s hole (or
/// anywhere).
pub fn solve(board: &Board, start: u8, end: End) -> Answer {
    decide(board, start, end, &beam::WIDTHS)
}

/// `solve` with the beam's widths given (none: the complete search alone).
fn decide(board: &Board, start: u8, end: End, widths: &[usize]) -> Answer {
    let began = Instant::now();
    let pegs = board.full() & !(1u64 << start);
    let goals: Vec<u8> = match end {
        End::Hole(e) => vec![e],
        End::Any => (0..board.holes() as u8).collect(),
    };
    let reachable: Vec<u8> = goals
        .iter()
        .copied()
        .filter(|&e| colours_allow(board, pegs, e))
        .collect();
    if reachable.is_empty() {
        let proof = match end {
            End::Hole(e) => format!(
                "the rule of three: no sequence of jumps from this start leaves the last peg on {}",
                board.name(e)
            ),
            End::Any => "the rule of three: no hole can hold the last peg".to_string(),
        };
        return Answer {
            jumps: None,
            proof: Some(proof),
            states: 0,
            millis: began.elapsed().as_secs_f64() * 1000.0,
        };
    }
    let goal_set = reachable.iter().fold(0u64, |m, &e| m | 1 << e);
    let symmetries = match end {
        End::Hole(e) => board.fixing(&[e]),
        End::Any => (0..board.symmetries.len()).collect(),
    };
    let key = |pegs: u64| board.smallest_image(&symmetries, pegs);
    // A beam first: it finds most solutions in a few thousand positions. Only when none of its
    // widths finds one does the complete search below decide.
    let moves = Move::all(board);
    let promise = beam::Promise::new(board);
    let mut kept = 0;
    for &width in widths {
        let (jumps, positions) = beam::search(&moves, &promise, key, pegs, goal_set, width);
        kept += positions;
        if jumps.is_some() {
            return Answer {
                jumps,
                proof: None,
                states: kept,
                millis: began.elapsed().as_secs_f64() * 1000.0,
            };
        }
    }
    let orders: Vec<Vec<Move>> = orders(board, &reachable)
        .into_iter()
        .map(|jumps| jumps.into_iter().map(Move::of).collect())
        .collect();
    let mut search = Search {
        board,
        moves: &[],
        symmetries,
        goal_set,
        dead: KeySet::default(),
        path: Vec::new(),
        budget: 0,
    };
    // Each order in turn with a budget of new dead ends, doubled each round; what one order
    // proved dead stays dead for the others. The last order of a round that ends with the budget
    // to spare has searched everything.
    let mut budget = FIRST_BUDGET;
    let found = 'rounds: loop {
        for moves in &orders {
            search.moves = moves;
            search.budget = budget;
            search.path.clear();
            match search.dfs(pegs) {
                Outcome::Found => break 'rounds true,
                Outcome::Dead => break 'rounds false,
                Outcome::OutOfBudget => {}
            }
        }
        budget *= 2;
    };
    Answer {
        jumps: found.then_some(search.path),
        proof: None,
        states: kept + search.dead.len() as u64,
        millis: began.elapsed().as_secs_f64() * 1000.0,
    }
}

/// New dead ends each order may find in the first round.
const FIRST_BUDGET: u64 = 2_000;

/// Orders of the jumps shuffled at random (the same every run) among the restarts' orders.
const SHUFFLED_ORDERS: usize = 3;

/// The orders the search tries jumps in, for restarts: the board's own order; the pegs farthest
/// from the centre first; farthest from the goal first; those jumping over a peg far from the goal
/// first; those landing nearest the goal first; and a few shuffled. Which order finds a solution
/// soon differs from start to start by factors of a thousand (measured on the English board), and
/// each is fast somewhere (shuffled ones on the French board's starts).
fn orders(board: &Board, goals: &[u8]) -> Vec<Vec<[u8; 3]>> {
    let cells = &board.cells;
    let apart = |h: u8, g: u8| {
        let (a, b) = cells[h as usize];
        let (c, d) = cells[g as usize];
        (a - c).abs() + (b - d).abs()
    };
    let to_goal = |h: u8| goals.iter().map(|&g| apart(h, g)).min().unwrap_or(0);
    let centre = board.centre();
    let sorted = |key: &dyn Fn(&[u8; 3]) -> i32| {
        let mut jumps = board.jumps.clone();
        jumps.sort_by_key(|j| key(j));
        jumps
    };
    let mut orders = vec![
        board.jumps.clone(),
        sorted(&|j| -apart(j[0], centre)),
        sorted(&|j| -to_goal(j[0])),
        sorted(&|j| -to_goal(j[1])),
        sorted(&|j| to_goal(j[2])),
    ];
    let mut random = SplitMix64(1);
    for _ in 0..SHUFFLED_ORDERS {
        let mut jumps = board.jumps.clone();
        for i in (1..jumps.len()).rev() {
            jumps.swap(i, (random.next_u64() % (i as u64 + 1)) as usize);
        }
        orders.push(jumps);
    }
    orders
}

/// How a search from a position ended.
enum Outcome {
    Found,
    /// The goal cannot be reached from it.
    Dead,
    /// The budget of new dead ends ran out first.
    OutOfBudget,
}

struct Search<'b> {
    board: &'b Board,
    /// The jumps, in the order of this round.
    moves: &'b [Move],
    /// The symmetries that keep the goal: positions are remembered up to them.
    symmetries: Vec<usize>,
    /// Holes where the last peg may end.
    goal_set: u64,
    /// Positions (up to symmetry) from which the goal cannot be reached.
    dead: KeySet,
    path: Vec<[u8; 3]>,
    /// New dead ends this order may still find.
    budget: u64,
}

impl Search<'_> {
    fn dfs(&mut self, pegs: u64) -> Outcome {
        if pegs.count_ones() == 1 {
            return if pegs & self.goal_set != 0 {
                Outcome::Found
            } else {
                Outcome::Dead
            };
        }
        let key = self.key(pegs);
        if self.dead.contains(&key) {
            return Outcome::Dead;
        }
        if self.budget == 0 {
            return Outcome::OutOfBudget;
        }
        let mut all_dead = true;
        for m in self.moves {
            if pegs & m.need == m.need && pegs & m.to == 0 {
                self.path.push(m.jump);
                match self.dfs(pegs ^ m.need ^ m.to) {
                    Outcome::Found => return Outcome::Found,
                    Outcome::Dead => {}
                    Outcome::OutOfBudget => all_dead = false,
                }
                self.path.pop();
            }
        }
        if !all_dead {
            return Outcome::OutOfBudget;
        }
        self.dead.insert(key);
        self.budget = self.budget.saturating_sub(1);
        Outcome::Dead
    }

    /// The position's smallest image under the symmetries that keep the goal.
    fn key(&self, pegs: u64) -> u64 {
        self.board.smallest_image(&self.symmetries, pegs)
    }
}

/// The colourings of the rule of three: (a, b) with a x + b y mod 3 giving the three holes of
/// every jump three different colours.
fn colourings(board: &Board) -> Vec<(i32, i32)> {
    let mut out = Vec::new();
    for a in 0..3 {
        for b in 0..3 {
            if (a, b) == (0, 0) {
                continue;
            }
            let colour = |h: u8| {
                let (x, y) = board.cells[h as usize];
                (a * x + b * y).rem_euclid(3)
            };
            let apart = board.jumps.iter().all(|j| {
                let [p, q, r] = j.map(colour);
                p != q && q != r && p != r
            });
            if apart {
                out.push((a, b));
            }
        }
    }
    out
}

/// Whether the rule of three allows the game from `pegs` to end with one peg on `end`.
pub fn colours_allow(board: &Board, pegs: u64, end: u8) -> bool {
    let jumps = pegs.count_ones() - 1;
    colourings(board).into_iter().all(|(a, b)| {
        let colour = |h: u8| {
            let (x, y) = board.cells[h as usize];
            (a * x + b * y).rem_euclid(3) as usize
        };
        let mut counts = [0u32; 3];
        for h in 0..board.holes() as u8 {
            if pegs >> h & 1 == 1 {
                counts[colour(h)] += 1;
            }
        }
        let mut last = [0u32; 3];
        last[colour(end)] = 1;
        (0..3).all(|c| (counts[c] + jumps) % 2 == last[c] % 2)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::peg::rules::{jump, replay};
    use crate::games::peg::Kind;
    use std::collections::HashMap;

    /// Whether one peg can be left on a goal hole, by plain memoised search over the rules
    /// (every pair of holes tried as a jump, no symmetry, no colour count).
    fn reachable(board: &Board, pegs: u64, goals: u64, memo: &mut HashMap<u64, bool>) -> bool {
        if pegs.count_ones() == 1 {
            return pegs & goals != 0;
        }
        if let Some(&known) = memo.get(&pegs) {
            return known;
        }
        let mut found = false;
        'outer: for a in 0..board.holes() as u8 {
            for c in 0..board.holes() as u8 {
                if let Ok(next) = jump(board, pegs, a, c) {
                    if reachable(board, next, goals, memo) {
                        found = true;
                        break 'outer;
                    }
                }
            }
        }
        memo.insert(pegs, found);
        found
    }

    /// On the triangle, every start and goal (each hole, and anywhere) is decided as a plain
    /// exhaustive search decides it, with the beam first and without it, and every solution
    /// replays through the rules.
    #[test]
    fn the_triangle_is_decided_as_exhaustive_search_decides_it() {
        let board = Board::new(Kind::Triangle);
        for end in (0..15u8).map(End::Hole).chain([End::Any]) {
            let goals = match end {
                End::Hole(e) => 1u64 << e,
                End::Any => board.full(),
            };
            let mut memo = HashMap::new();
            for start in 0..15u8 {
                let pegs = board.full() & !(1 << start);
                let truth = reachable(&board, pegs, goals, &mut memo);
                // With the beam first, and by the complete search alone.
                for widths in [&beam::WIDTHS[..], &[]] {
                    let answer = decide(&board, start, end, widths);
                    assert_eq!(answer.jumps.is_some(), truth, "start {start}, end {end:?}");
                    if let Some(jumps) = answer.jumps {
                        let steps: Vec<String> =
                            jumps.iter().map(|&j| board.jump_name(j)).collect();
                        assert_eq!(steps.len(), 13);
                        replay(&board, start, end, &steps).unwrap();
                    }
                }
            }
        }
    }

    /// Every start of the English and French boards, the last peg on the start or anywhere, is
    /// decided: solved (the solution replays through the rules) or proved impossible by the rule
    /// of three; the depth-first search has nothing left to prove. On the English board every
    /// start can end on itself; on the French board none can, and 16 starts can end somewhere.
    #[test]
    fn every_start_of_the_square_boards_is_decided() {
        for (kind, on_start, anywhere) in [(Kind::English, 33, 33), (Kind::French, 0, 16)] {
            let board = Board::new(kind);
            let mut solved = [0, 0];
            for start in 0..board.holes() as u8 {
                for (i, end) in [End::Hole(start), End::Any].into_iter().enumerate() {
                    let answer = solve(&board, start, end);
                    let Some(jumps) = answer.jumps else {
                        assert!(answer.proof.is_some(), "{kind:?} {start} {end:?}");
                        continue;
                    };
                    let steps: Vec<String> = jumps.iter().map(|&j| board.jump_name(j)).collect();
                    replay(&board, start, end, &steps).unwrap();
                    solved[i] += 1;
                }
            }
            assert_eq!(solved, [on_start, anywhere], "{kind:?}");
        }
    }

    /// The English centre game is solved in 31 jumps, also by the depth-first search alone; the
    /// French centre game is proved impossible by the rule of three, with no search.
    #[test]
    fn the_centre_games() {
        let english = Board::new(Kind::English);
        let d4 = english.centre();
        let answer = decide(&english, d4, End::Hole(d4), &[]);
        let steps: Vec<String> = answer
            .jumps
            .unwrap()
            .iter()
            .map(|&j| english.jump_name(j))
            .collect();
        assert_eq!(steps.len(), 31);
        assert_eq!(replay(&english, d4, End::Hole(d4), &steps), Ok(1 << d4));
        let french = Board::new(Kind::French);
        let answer = solve(&french, french.centre(), End::Hole(french.centre()));
        assert!(answer.jumps.is_none() && answer.proof.is_some() && answer.states == 0);
    }
}
