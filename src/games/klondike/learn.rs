//! What the agent plays next to see the Klondike cards it has not seen: the face-down cards,
//! and with Draw 3 the stock cards under each turned three. In order:
//!
//! 1. From where the table is, the shortest line that shows an unseen card (`known::uncover`).
//! 2. From one of the last `NEAR` positions played, such a line, with all learnt since (the
//!    latest first; reached with Undo, step by step, as a player would).
//! 3. The solver's winning line on a whole deck that agrees with every card seen (`guided`), from
//!    the last position the steps played share with it (Undo, or Undo board) up to the first
//!    card it turns up that was not seen.
//! 4. From the positions played further back, as in 2.
//!
//! Every line shows a card not seen before, so this ends: with every card seen (the deal is then
//! solved with all its cards known), or with no line found (the cards left unseen may never show:
//! the deal may be lost). `rehearse` plays it all on a deal whose cards are known, for the tests
//! and `bench --game klondike --learn`.

use super::known::{uncover, Known, Place, UNCOVER_BUDGET};
use super::rules::Table;
use super::solver::{solve, Budget};
use super::{Draw, KlondikeDeck, Step, PILES};
use crate::cards::Card;
use std::time::Instant;

/// Positions looked at from each earlier position when going back: most positions that lead
/// nowhere new lead nowhere fast.
pub const BACK_BUDGET: usize = 20_000;

/// Earlier positions looked at before the solver is asked (further back, after it).
pub const NEAR: usize = 20;

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
    let near = played.len().saturating_sub(NEAR);
    for keep in (near..played.len()).rev() {
        if let Some(line) = uncover(known, &known.position(&played[..keep])?, BACK_BUDGET) {
            return Ok(Next::Play { keep, line });
        }
    }
    if let Some(next) = guided(known, played) {
        return Ok(next);
    }
    for keep in (0..near).rev() {
        if let Some(line) = uncover(known, &known.position(&played[..keep])?, BACK_BUDGET) {
            return Ok(Next::Play { keep, line });
        }
    }
    Ok(Next::Stuck)
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

/// How the agent's learning goes on a deal whose cards are known (`rehearse`).
#[derive(Clone, Debug)]
pub struct Rehearsal {
    /// Cards seen at the end (52: the deal seen whole).
    pub seen: usize,
    /// Steps played, and steps undone (Undo, or Undo board as many).
    pub steps: usize,
    pub undone: usize,
    /// Time spent planning.
    pub millis: f64,
}

/// Plays the agent's learning on `deck` without a table: its lines are played on the rules'
/// table of the deal itself (where each must be legal), and what shows is what it would read.
pub fn rehearse(deck: &KlondikeDeck, draw: Draw) -> Result<Rehearsal, String> {
    let began = Instant::now();
    let mut known = Known::new(draw);
    let tops: Vec<(Place, Card)> = (0..PILES)
        .map(|i| (Place::Pile(i), deck.pile(i)[i]))
        .collect();
    known.learn(&known.position(&[])?, &tops)?;
    let (mut played, mut steps, mut undone) = (Vec::new(), 0, 0);
    while let Next::Play { keep, line } = next(&known, &played)? {
        undone += played.len() - keep;
        played.truncate(keep);
        let mut table = known.position(&played)?;
        let mut real = Table::deal(deck, draw);
        for &step in &played {
            real.play(step)?;
        }
        for step in line {
            table.play(step)?;
            real.play(step)
                .map_err(|why| format!("{step} is not legal in the deal: {why}"))?;
            played.push(step);
            steps += 1;
            let read: Vec<(Place, Card)> = known
                .unseen_showing(&table)
                .into_iter()
                .map(|place| match place {
                    Place::Pile(i) => (place, real.piles[i].cards[real.piles[i].cards.len() - 1]),
                    Place::Waste => (place, real.waste[real.waste.len() - 1]),
                })
                .collect();
            if !read.is_empty() {
                known.learn(&table, &read)?;
                break;
            }
        }
    }
    if known.is_complete() && known.deck() != deck {
        return Err("the deck learnt is not the deal".into());
    }
    Ok(Rehearsal {
        seen: known.count(),
        steps,
        undone,
        millis: began.elapsed().as_secs_f64() * 1000.0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_card_of_a_winnable_deal_is_seen_by_lines_legal_in_the_deal() {
        for (seed, draw) in [(4, Draw::One), (5, Draw::Three)] {
            let r = rehearse(&KlondikeDeck::shuffled(seed), draw).unwrap();
            assert_eq!(r.seen, 52, "{draw:?}");
            assert!(r.steps >= 21, "{r:?}");
        }
    }
}
