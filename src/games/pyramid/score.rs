//! MSC's Pyramid score and the counts its challenges ask for, from the rules' side (the solver
//! keeps its own count over packed states; the tests hold one against the other).
//!
//! Scoring: 5 points for each removal (a pair or a king, from the pyramid, the stock's top or the
//! waste's top); clearing a row of the pyramid adds a bonus, from the bottom row up 25, 50, 75,
//! 100, 150, 250 and 500 for the apex. Rows can only be cleared bottom first. A deal's score is at
//! most 1,290: 28 removals (4 kings alone, 24 pairs) and every bonus.

use super::position::{Position, ROWS};
use super::state::{IllegalStep, State};
use super::step::Step;

/// Points for one removal.
pub const REMOVAL_POINTS: u32 = 5;
/// The bonus for clearing each row, by row from the apex (row 0) to the bottom row (6).
pub const ROW_BONUS: [u32; ROWS] = [500, 250, 150, 100, 75, 50, 25];
/// The most points one deal can give.
pub const MAX_POINTS: u32 = 28 * REMOVAL_POINTS + 1150;

/// What a game has earned so far: points, and the cards removed by rank.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub points: u32,
    /// Cards removed, by value (index 1 = aces .. 13 = kings).
    pub removed: [u32; 14],
}

impl Tally {
    /// Takes `step` in `state`, counting what it earns.
    pub fn step(&mut self, state: &mut State, step: Step) -> Result<(), IllegalStep> {
        let before = empty_rows(state);
        state.apply(step)?;
        let cards = step.cards();
        if !cards.is_empty() {
            self.points += REMOVAL_POINTS;
            for card in cards {
                self.removed[card.value() as usize] += 1;
            }
        }
        let now = empty_rows(state);
        for (row, bonus) in ROW_BONUS.iter().enumerate() {
            if now[row] && !before[row] {
                self.points += bonus;
            }
        }
        Ok(())
    }

    /// Adds what `other` earned (in another deal of a challenge).
    pub fn add(&mut self, other: &Tally) {
        self.points += other.points;
        for (sum, n) in self.removed.iter_mut().zip(other.removed) {
            *sum += n;
        }
    }

    /// Cards of value `value` removed.
    pub fn of_value(&self, value: u8) -> u32 {
        self.removed[value as usize]
    }
}

/// Which rows of the pyramid hold no card.
fn empty_rows(state: &State) -> [bool; ROWS] {
    let mut empty = [true; ROWS];
    for p in Position::all() {
        if state.pyramid[p.index()].is_some() {
            empty[p.row()] = false;
        }
    }
    empty
}

/// What a position of a deal played from its start has earned: its score and the cards removed,
/// the same whatever order they went in.
pub fn tally_of(state: &State) -> Tally {
    let mut removed = [0, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4];
    let left = state
        .pyramid
        .iter()
        .flatten()
        .chain(&state.stock)
        .chain(&state.waste);
    for card in left {
        removed[card.value() as usize] -= 1;
    }
    let (kings, others) = (removed[13], removed[1..13].iter().sum::<u32>());
    let empty = empty_rows(state);
    let bonus: u32 = (0..ROWS).filter(|&r| empty[r]).map(|r| ROW_BONUS[r]).sum();
    Tally {
        points: REMOVAL_POINTS * (others / 2 + kings) + bonus,
        removed,
    }
}

/// The score of a position of a deal played from its start (`tally_of`'s points).
pub fn points_of(state: &State) -> u32 {
    tally_of(state).points
}

/// Plays `steps` from `state`, giving the position reached and what they earned, or the first
/// illegal step with its number (from 1).
pub fn tally(state: &State, steps: &[Step]) -> Result<(State, Tally), (usize, IllegalStep)> {
    let mut state = state.clone();
    let mut tally = Tally::default();
    for (i, &step) in steps.iter().enumerate() {
        tally.step(&mut state, step).map_err(|e| (i + 1, e))?;
    }
    Ok((state, tally))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Deck;

    #[test]
    fn bonuses_sum_to_msc_maximum() {
        assert_eq!(ROW_BONUS.iter().sum::<u32>(), 1150);
        assert_eq!(MAX_POINTS, 1290);
    }

    #[test]
    fn a_cleared_deal_scores_removals_and_every_row() {
        // The shortest-run deck: 15 removals clear the pyramid, no draw.
        let text = std::fs::read_to_string("tests/data/decks/pyramid-shortest-run.txt").unwrap();
        let deck = Deck::parse(&text).unwrap();
        let steps: Vec<Step> =
            "Ac+Qc,2c+Jc,5c+8c,3c+Tc,4c+9c,6c+7c,Ad+Qd,2d+Jd,3d+Td,4d+9d,5d+8d,6d+7d,Ah+Qh,Kc,Kd"
                .split(',')
                .map(|s| s.parse().unwrap())
                .collect();
        let (end, t) = tally(&State::deal(&deck), &steps).unwrap();
        assert!(end.is_cleared());
        assert_eq!(t.points, 15 * 5 + 1150);
        assert_eq!(t.of_value(13), 2);
        assert_eq!(t.of_value(1), 3);
        assert_eq!(points_of(&end), t.points);
        assert_eq!(tally_of(&end), t);
        assert_eq!(points_of(&State::deal(&deck)), 0);
        // The deal is over: nothing more is legal.
        assert!(end.legal_steps().is_empty());
    }

    #[test]
    fn draws_earn_nothing_and_a_row_earns_its_bonus_when_its_last_card_goes() {
        use crate::cards::Card;
        let card = |t: &str| t.parse::<Card>().unwrap();
        let (five, eight) = (card("5h"), card("8h"));
        // Rows 0-5 full (21 cards, none of them 5h or 8h); of the bottom row only 5h is left.
        let others: Vec<Card> = Card::all().filter(|&c| c != five && c != eight).collect();
        let mut pyramid = [None; crate::games::pyramid::PYRAMID_SIZE];
        for (slot, &c) in pyramid.iter_mut().zip(&others[..21]) {
            *slot = Some(c);
        }
        pyramid[27] = Some(five);
        let mut state = State::new(pyramid, vec![others[21], eight], vec![], 0).unwrap();
        let mut t = Tally::default();
        t.step(&mut state, Step::Draw).unwrap();
        assert_eq!(t, Tally::default());
        t.step(&mut state, Step::pair(five, eight)).unwrap();
        assert_eq!(t.points, 5 + 25);
        assert_eq!((t.of_value(5), t.of_value(8), t.of_value(1)), (1, 1, 0));
    }
}
