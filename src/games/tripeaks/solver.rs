//! The optimal TriPeaks solver: the fewest steps that clear the tableau from any position, or
//! proof that none exists.
//!
//! Every tableau card left costs exactly one step, so a shortest solution is one with the fewest
//! draws. The search runs in layers, one per draw: layer d holds every position reachable with d
//! draws, found by playing cards from the positions the draw into layer d starts from (each
//! distinct set of remaining cards in layer d−1, with the stock's next card on the waste). The
//! first layer in which the tableau empties gives the answer; if the stock runs out first, no
//! solution exists.
//!
//! A position within a layer is the set of tableau cards left (28 bits) and which card is on the
//! waste: the tableau card played last, or the card the layer began with. Each position keeps the
//! one it was reached from, so the steps are read back from the last layer to the first. The
//! rules code in `state` is not used here; tests replay every solution through it.

use super::known::Known;
use super::state::State;
use super::step::Step;
use super::tableau::{cover_masks, TABLEAU};

/// A set of tableau places as bits.
fn mask(places: impl Iterator<Item = usize>) -> u32 {
    places.fold(0, |m, i| m | (1 << i))
}

/// The cards of the tableau, `None` where gone or not yet seen.
fn cards(known: &Known) -> Vec<Option<Card>> {
    known.tableau.iter().map(|c| c.flatten()).collect()
}
use crate::cards::Card;
use crate::games::key_hash::KeyMap;
use std::time::Instant;

/// The answer for one position.
#[derive(Clone, Debug)]
pub struct Solution {
    /// A shortest sequence of steps that clears the tableau, or `None` when none does.
    pub steps: Option<Vec<Step>>,
    /// Positions expanded by the search.
    pub states: u64,
    /// Bytes of the search's tables at their largest.
    pub peak_bytes: usize,
    /// Wall time of the search, in milliseconds.
    pub millis: f64,
}

/// The waste code of the card a layer starts with (not a tableau card played in the layer).
const LAYER_CARD: u64 = 31;

/// A position within a layer: the cards left and the waste's card.
fn key(left: u32, top: u64) -> u64 {
    (left as u64) | (top << 32)
}
fn left_of(key: u64) -> u32 {
    key as u32
}
fn top_of(key: u64) -> u64 {
    key >> 32
}

/// Each position of a layer and the one it was reached from (`None`: the layer's start).
type Layer = KeyMap<Option<u64>>;

/// Solves from any position.
pub fn solve(state: &State) -> Solution {
    solve_known(&Known::of(state))
}

/// The fewest steps that clear the tableau from a position as known, cards not yet seen never
/// played (so a position with unseen cards that must be played has no solution here).
pub fn solve_known(known: &Known) -> Solution {
    let t0 = Instant::now();
    let searched = search(known, |left, _, _| left == 0);
    let steps = searched
        .found
        .map(|end| read_back(&searched.layers, end, &cards(known)));
    Solution {
        steps,
        states: searched.states,
        peak_bytes: searched.peak_bytes,
        millis: t0.elapsed().as_secs_f64() * 1000.0,
    }
}

/// The shortest line of play that turns face up the most cards not yet seen, from a position as
/// known: the agent plays it to learn them. `None` when no line turns up any.
pub fn uncover(known: &Known) -> Option<Vec<Step>> {
    let covers = cover_masks();
    let unseen = mask(known.unseen().into_iter());
    let showing = |left: u32| {
        let mut n = 0;
        let mut m = unseen & left;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            n += (covers[i] & left == 0) as u32;
        }
        n
    };
    // Most cards shown, then fewest draws, then fewest cards played (fewest steps).
    type Rank = (u32, std::cmp::Reverse<usize>, u32);
    let mut best: Option<(Rank, usize, u64)> = None;
    let searched = search(known, |left, d, k| {
        let rank = (showing(left), std::cmp::Reverse(d), left.count_ones());
        if best.as_ref().is_none_or(|(b, _, _)| rank > *b) {
            best = Some((rank, d, k));
        }
        false
    });
    let ((shown, _, _), d, end) = best?;
    if shown == 0 {
        return None;
    }
    Some(read_back(&searched.layers[..=d], end, &cards(known)))
}

/// What a search leaves: its layers, the position it stopped at, and its cost.
struct Searched {
    layers: Vec<Layer>,
    found: Option<u64>,
    states: u64,
    peak_bytes: usize,
}

/// The layered search from a known position; `stop(left, draws, key)` is asked of every position
/// reached and ends the search at the first it accepts.
fn search(known: &Known, mut stop: impl FnMut(u32, usize, u64) -> bool) -> Searched {
    let covers = cover_masks();
    let cards = cards(known);
    // Rank 0: a card not yet seen (never played).
    let ranks: Vec<u8> = cards.iter().map(|c| c.map_or(0, |c| c.value())).collect();
    // The card each layer begins with: the waste's top now, then each stock card in turn.
    let layer_cards: Vec<Option<Card>> = std::iter::once(known.waste_top)
        .chain(known.stock.iter().copied().map(Some))
        .collect();
    let mut layers: Vec<Layer> = Vec::new();
    let mut states = 0u64;
    let mut peak_bytes = 0usize;
    let mut starts: Vec<u32> = vec![mask((0..TABLEAU).filter(|&i| known.tableau[i].is_some()))];
    for (d, layer_card) in layer_cards.iter().enumerate() {
        let layer_rank = layer_card.map_or(0, |c| c.value());
        let mut layer = Layer::default();
        let mut stack: Vec<u64> = Vec::new();
        for &left in &starts {
            let k = key(left, LAYER_CARD);
            layer.insert(k, None);
            if stop(left, d, k) {
                layers.push(layer);
                return Searched {
                    layers,
                    found: Some(k),
                    states,
                    peak_bytes,
                };
            }
            stack.push(k);
        }
        while let Some(k) = stack.pop() {
            states += 1;
            let (left, top) = (left_of(k), top_of(k));
            let top_rank = if top == LAYER_CARD {
                layer_rank
            } else {
                ranks[top as usize]
            };
            if top_rank == 0 {
                continue;
            }
            let mut free = left;
            while free != 0 {
                let i = free.trailing_zeros() as usize;
                free &= free - 1;
                if covers[i] & left != 0 || ranks[i] == 0 {
                    continue;
                }
                let diff = ranks[i].abs_diff(top_rank);
                if diff != 1 && diff != 12 {
                    continue;
                }
                let next = key(left & !(1 << i), i as u64);
                if layer.contains_key(&next) {
                    continue;
                }
                layer.insert(next, Some(k));
                if stop(left_of(next), d, next) {
                    layers.push(layer);
                    return Searched {
                        layers,
                        found: Some(next),
                        states,
                        peak_bytes,
                    };
                }
                stack.push(next);
            }
        }
        // The next layer starts from every distinct set of cards left here.
        let mut next: Vec<u32> = layer.keys().map(|&k| left_of(k)).collect();
        next.sort_unstable();
        next.dedup();
        starts = next;
        peak_bytes = peak_bytes.max(
            layers.iter().map(|l| l.capacity() * 24).sum::<usize>()
                + layer.capacity() * 24
                + starts.capacity() * 4,
        );
        layers.push(layer);
    }
    Searched {
        layers,
        found: None,
        states,
        peak_bytes,
    }
}

/// The steps from the search's start to `end` in the last layer.
fn read_back(layers: &[Layer], end: u64, tableau: &[Option<Card>]) -> Vec<Step> {
    let mut steps = Vec::new();
    let mut k = end;
    for d in (0..layers.len()).rev() {
        // Within the layer: each position's card was played from the one before it.
        while let Some(&Some(from)) = layers[d].get(&k) {
            let card = tableau[top_of(k) as usize].expect("a played card was in the tableau");
            steps.push(Step::Play(card));
            k = from;
        }
        if d > 0 {
            // The layer began with a draw from a position of the layer before with the same
            // cards left (any of them: they are all reachable with d−1 draws).
            steps.push(Step::Draw);
            let left = left_of(k);
            k = *layers[d - 1]
                .keys()
                .find(|&&p| left_of(p) == left)
                .expect("a layer's start comes from the layer before");
        }
    }
    steps.reverse();
    steps
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Deck;

    /// The fewest steps by plain breadth-first search over the rules' own states.
    fn shortest_by_rules(start: &State) -> Option<usize> {
        let mut seen = std::collections::HashSet::new();
        let mut frontier = vec![start.clone()];
        for depth in 0.. {
            if frontier.is_empty() {
                return None;
            }
            let mut next = Vec::new();
            for s in frontier {
                if s.is_cleared() {
                    return Some(depth);
                }
                for step in s.legal_steps() {
                    let mut t = s.clone();
                    t.apply(step).unwrap();
                    if seen.insert((t.tableau().to_vec(), t.stock().len(), t.waste_top())) {
                        next.push(t);
                    }
                }
            }
            frontier = next;
        }
        unreachable!()
    }

    #[test]
    fn lengths_match_breadth_first_search_over_the_rules() {
        // Mid-game positions with few cards left, reached by a seeded random line of play.
        let mut compared = (0, 0);
        for seed in 1..=60u64 {
            let mut s = State::deal(&Deck::shuffled(seed));
            let mut rng = crate::cards::SplitMix64(seed);
            while s.tableau().iter().flatten().count() > 9 {
                let steps = s.legal_steps();
                let plays: Vec<Step> = steps.iter().copied().filter(|&t| t != Step::Draw).collect();
                let pick = if plays.is_empty() { steps } else { plays };
                if pick.is_empty() {
                    break;
                }
                s.apply(pick[rng.next_u64() as usize % pick.len()]).unwrap();
            }
            let expected = shortest_by_rules(&s);
            let got = solve(&s);
            assert_eq!(got.steps.as_ref().map(Vec::len), expected, "seed {seed}");
            if let Some(steps) = got.steps {
                let mut t = s.clone();
                t.replay(&steps).unwrap();
                assert!(t.is_cleared());
            }
            if expected.is_some() {
                compared.0 += 1
            } else {
                compared.1 += 1
            }
        }
        assert!(
            compared.0 > 5 && compared.1 > 5,
            "both kinds compared: {compared:?}"
        );
    }

    /// Learns a deal's face-down cards as the agent does: plays `uncover`'s line, learning each
    /// card as it turns face up and planning again; when a line turns up nothing more, back to
    /// the deal (Undo board) with what was learnt, until a pass learns nothing. The cards learnt.
    fn learn_by_uncovering(deal: &State) -> usize {
        let mut learnt: Vec<Option<Card>> = vec![None; 18];
        loop {
            let mut state = deal.clone();
            let mut known = Known::at_deal(deal.tableau(), &learnt, deal.stock(), deal.waste_top());
            let before = learnt.iter().flatten().count();
            while let Some(line) = uncover(&known) {
                for step in line {
                    state.apply(step).expect("a line of known cards is legal");
                    known.apply(step).expect("the same line is legal as known");
                    let shown = known.unseen_face_up();
                    for &i in &shown {
                        let card = state.tableau()[i].expect("a face-up card");
                        known.learn(i, card);
                        learnt[i] = Some(card);
                    }
                    if !shown.is_empty() {
                        break;
                    }
                }
            }
            if learnt.iter().flatten().count() == before {
                return before;
            }
        }
    }

    #[test]
    fn uncovering_learns_every_face_down_card_of_a_winnable_deal() {
        for seed in 1..=12 {
            let deal = State::deal(&Deck::shuffled(seed));
            let winnable = solve(&deal).steps.is_some();
            let learnt = learn_by_uncovering(&deal);
            if winnable {
                assert_eq!(learnt, 18, "seed {seed}");
            }
            assert!(learnt <= 18);
        }
    }

    #[test]
    fn solutions_replay_and_clear_and_none_is_shorter_by_a_draw() {
        let mut solved = 0;
        for seed in 1..=30 {
            let deal = State::deal(&Deck::shuffled(seed));
            let solution = solve(&deal);
            if let Some(steps) = &solution.steps {
                let mut s = deal.clone();
                s.replay(steps).unwrap();
                assert!(s.is_cleared(), "seed {seed}");
                let draws = steps.iter().filter(|&&s| s == Step::Draw).count();
                assert_eq!(steps.len(), 28 + draws);
                solved += 1;
            }
        }
        assert!(
            solved > 10,
            "most deals are winnable with every card known: {solved}"
        );
    }
}
