//! What the agent plays next to see the Klondike cards it has not seen: the face-down cards,
//! and with Draw 3 the stock cards under each turned three.
//!
//! From where the table is, the shortest line that shows an unseen card (`known::uncover`). When
//! there is none, the agent goes back: from the latest earlier position of the steps played where
//! a line shows an unseen card, with all it has learnt since (Undo, step by step, as a player
//! would). Every line shows a card not seen before, so this ends: with every card seen (the deal
//! is then solved with all its cards known), or with no line from any position played that shows
//! one within the search's budget (the cards left unseen may never show: the deal may be lost).

use super::known::{uncover, Known, UNCOVER_BUDGET};
use super::rules::Table;
use super::solver::{solve, Budget};
use super::Step;

/// Positions looked at from each earlier position when going back: most positions that lead
/// nowhere new lead nowhere fast.
pub const BACK_BUDGET: usize = 20_000;

/// What to do next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Next {
    /// Every card has been seen (or the game is won).
    Seen,
    /// Undo steps until `keep` steps from the deal are left, then play `line`.
    Play { keep: usize, line: Vec<Step> },
    /// No line from any position played shows an unseen card.
    Stuck,
}

/// Whole decks tried with the solver when no line from the positions played shows an unseen card.
pub const GUESSES: u64 = 4;

/// How far the solver looks on each of them.
const GUESS_BUDGET: Budget = Budget {
    shortest: 20_000,
    line: 0,
    decide: 300_000,
};

/// The next line to play, from the position `played` reaches (or one it passed through).
pub fn next(known: &Known, played: &[Step]) -> Result<Next, String> {
    let here = known.position(played)?;
    if known.is_complete() || here.is_won() {
        return Ok(Next::Seen);
    }
    if let Some(line) = uncover(known, &here, UNCOVER_BUDGET) {
        return Ok(Next::Play {
            keep: played.len(),
            line,
        });
    }
    for keep in (0..played.len()).rev() {
        let earlier = known.position(&played[..keep])?;
        if let Some(line) = uncover(known, &earlier, BACK_BUDGET) {
            return Ok(Next::Play { keep, line });
        }
    }
    Ok(guided(known, played).unwrap_or(Next::Stuck))
}

/// A line from a winning line of a whole deck that agrees with every card seen (the solver's, on
/// `GUESSES` guesses at the cards not seen): a line that wins must turn every card up, and until
/// it turns up one not seen it moves only cards seen, so up to there it can be played on the
/// real table. From the last position `played` shares with it.
fn guided(known: &Known, played: &[Step]) -> Option<Next> {
    for seed in 0..GUESSES {
        let deck = known.guess(Some(seed));
        let Some(win) = solve(&deck, known.draw, GUESS_BUDGET).steps else {
            continue;
        };
        let mut table = Table::deal(&deck, known.draw);
        let shows = win.iter().position(|&step| {
            table.play(step).is_ok() && !known.unseen_showing(&table).is_empty()
        })?;
        let keep = played
            .iter()
            .zip(&win)
            .take_while(|(a, b)| a == b)
            .count()
            .min(shows);
        return Some(Next::Play {
            keep,
            line: win[keep..=shows].to_vec(),
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::known::Place;
    use super::super::{Draw, KlondikeDeck, PILES};
    use super::*;
    use crate::cards::Card;

    /// Learns a deal as the agent does, with the deal's own cards as what it reads: the cards
    /// seen, and the steps played (undone ones included).
    fn learn(deck: &KlondikeDeck, draw: Draw) -> (Known, usize) {
        let mut known = Known::new(draw);
        let tops: Vec<(Place, Card)> = (0..PILES)
            .map(|i| (Place::Pile(i), deck.pile(i)[i]))
            .collect();
        known.learn(&known.position(&[]).unwrap(), &tops).unwrap();
        let mut played: Vec<Step> = Vec::new();
        let mut clicks = 0;
        while let Next::Play { keep, line } = next(&known, &played).unwrap() {
            clicks += played.len() - keep;
            played.truncate(keep);
            let mut table = known.position(&played).unwrap();
            for step in line {
                table.play(step).unwrap();
                played.push(step);
                clicks += 1;
                let places = known.unseen_showing(&table);
                if !places.is_empty() {
                    let mut real = Table::deal(deck, draw);
                    for &s in &played {
                        real.play(s).expect("a line legal in the deal itself");
                    }
                    let read: Vec<(Place, Card)> = places
                        .into_iter()
                        .map(|place| match place {
                            Place::Pile(i) => (place, *real.piles[i].cards.last().unwrap()),
                            Place::Waste => (place, *real.waste.last().unwrap()),
                        })
                        .collect();
                    known.learn(&table, &read).unwrap();
                    break;
                }
            }
        }
        (known, clicks)
    }

    #[test]
    fn every_card_of_a_winnable_deal_is_seen_by_lines_legal_in_the_deal() {
        for draw in [Draw::One, Draw::Three] {
            let deck = KlondikeDeck::shuffled(if draw == Draw::One { 4 } else { 5 });
            let (known, _) = learn(&deck, draw);
            assert!(known.is_complete(), "{draw:?}: {} seen", known.count());
            assert_eq!(known.deck(), &deck);
        }
    }

    #[test]
    #[ignore]
    fn learning_stats() {
        let seeds: u64 = std::env::var("KL_SEEDS").map_or(40, |s| s.parse().unwrap());
        for draw in [Draw::One, Draw::Three] {
            let (mut all, mut n) = (0, 0);
            let t0 = std::time::Instant::now();
            for seed in 1..=seeds {
                let deck = KlondikeDeck::shuffled(seed);
                let t = std::time::Instant::now();
                let (known, steps) = learn(&deck, draw);
                n += 1;
                if known.is_complete() {
                    all += 1;
                }
                eprintln!(
                    "{draw:?} seed {seed}: {} seen, {steps} steps, {:?}",
                    known.count(),
                    t.elapsed()
                );
            }
            eprintln!("{draw:?}: {all} of {n} complete, {:?}", t0.elapsed());
        }
    }
}
