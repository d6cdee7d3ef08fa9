//! What the agent knows against what a board read shows: whether a place agrees with the card
//! known there, the first difference between a board and a position, and one card as learnt
//! while drawing through the stock (sure, or unsure among candidates), read twice (on the stock,
//! then on the waste).

use crate::cards::Card;
use crate::games::pyramid::position::Position;
use crate::games::pyramid::state::State;
use crate::games::pyramid::vision::board::Board;
use crate::vision::recognize::Seen;

fn seen_matches(seen: Seen, want: Option<Card>) -> bool {
    match (seen, want) {
        (Seen::Empty, None) => true,
        (Seen::Card(c, _), Some(w)) => c == w,
        _ => false,
    }
}

/// Whether what a place shows agrees with the card the agent knows is there: read as that card,
/// or read as unsure with that card among the close candidates (the deal, known in full, settles
/// what a single picture cannot).
pub fn agrees(board: &Board, place: usize, seen: Seen, want: Option<Card>) -> bool {
    seen_matches(seen, want)
        || matches!((seen, want), (Seen::Unknown(_), Some(w)) if board.candidates(place).contains(&w))
}

/// The places of the stock and the waste, numbered after the pyramid's.
pub const STOCK_PLACE: usize = 28;
pub const WASTE_PLACE: usize = 29;

/// The first difference between a board read and a position, or None when they agree.
pub fn difference(board: &Board, state: &State) -> Option<String> {
    for p in Position::all() {
        let want = state.pyramid[p.index()];
        let got = board.pyramid[p.index()];
        // A pyramid slot is never filled again: where the rules say it is empty and no card is
        // recognised there (only the cards behind show), it is empty.
        if want.is_none() && matches!(got, Seen::Unknown(_)) {
            continue;
        }
        if !agrees(board, p.index(), got, want) {
            return Some(format!(
                "pyramid:{} should be {}, reads {}",
                p.index(),
                show(want),
                show_seen(got)
            ));
        }
    }
    if !agrees(board, STOCK_PLACE, board.stock_top, state.stock_top()) {
        return Some(format!(
            "the stock's top should be {}, reads {}",
            show(state.stock_top()),
            show_seen(board.stock_top)
        ));
    }
    if !agrees(board, WASTE_PLACE, board.waste, state.waste_top()) {
        return Some(format!(
            "the waste should be {}, reads {}",
            show(state.waste_top()),
            show_seen(board.waste)
        ));
    }
    None
}

fn show(c: Option<Card>) -> String {
    c.map_or("empty".into(), |c| c.to_string())
}

pub fn show_seen(s: Seen) -> String {
    match s {
        Seen::Empty => "empty".into(),
        Seen::Card(c, _) => c.to_string(),
        Seen::Unknown(_) => "unknown".into(),
    }
}

/// What the agent makes of one card while learning the deal: sure, or unsure among candidates.
#[derive(Clone, Debug, PartialEq)]
pub enum Learnt {
    Sure(Card),
    Unsure(Vec<Card>),
}

impl Learnt {
    /// A place's reading: None when nothing card-like is there.
    pub fn of(board: &Board, place: usize, seen: Seen) -> Option<Learnt> {
        match seen {
            Seen::Card(c, _) => Some(Learnt::Sure(c)),
            Seen::Unknown(_) if !board.candidates(place).is_empty() => {
                Some(Learnt::Unsure(board.candidates(place).to_vec()))
            }
            _ => None,
        }
    }

    /// The card, or the likeliest candidate while unsure (for what needs only a stand-in).
    pub fn best(&self) -> Card {
        match self {
            Learnt::Sure(c) => *c,
            Learnt::Unsure(c) => c[0],
        }
    }

    /// Two readings of the same card (the stock's top, then the same card on the waste).
    pub fn with(self, other: Learnt) -> Result<Learnt, String> {
        match (self, other) {
            (Learnt::Sure(a), Learnt::Sure(b)) if a != b => Err(format!(
                "read as {a} on the stock, then as {b} on the waste"
            )),
            (Learnt::Sure(a), _) | (_, Learnt::Sure(a)) => Ok(Learnt::Sure(a)),
            (Learnt::Unsure(a), Learnt::Unsure(b)) => {
                let both: Vec<Card> = a.iter().copied().filter(|c| b.contains(c)).collect();
                match both.as_slice() {
                    [] => Err(format!(
                        "read as {} on the stock, then as {} on the waste",
                        names(&a),
                        names(&b)
                    )),
                    [one] => Ok(Learnt::Sure(*one)),
                    _ => Ok(Learnt::Unsure(both)),
                }
            }
        }
    }

    pub fn agrees(&self, board: &Board, place: usize, seen: Seen) -> bool {
        match (self, Learnt::of(board, place, seen)) {
            (Learnt::Sure(c), _) => agrees(board, place, seen, Some(*c)),
            (Learnt::Unsure(a), Some(Learnt::Unsure(b))) => a.iter().any(|c| b.contains(c)),
            (Learnt::Unsure(a), Some(Learnt::Sure(b))) => a.contains(&b),
            (Learnt::Unsure(_), None) => false,
        }
    }
}

pub fn show_learnt(l: &Learnt) -> String {
    match l {
        Learnt::Sure(c) => c.to_string(),
        Learnt::Unsure(c) => names(c),
    }
}

pub fn names(cards: &[Card]) -> String {
    cards
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" or ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(s: &str) -> Card {
        s.parse().unwrap()
    }

    #[test]
    fn two_readings_of_one_card_narrow_it_down_or_disagree() {
        let unsure = |cards: &[&str]| Learnt::Unsure(cards.iter().map(|s| card(s)).collect());
        assert_eq!(
            unsure(&["6h", "8h"]).with(unsure(&["8h", "5h"])),
            Ok(Learnt::Sure(card("8h")))
        );
        assert_eq!(
            unsure(&["6h", "8h", "5h"]).with(unsure(&["8h", "6h"])),
            Ok(unsure(&["6h", "8h"]))
        );
        assert_eq!(
            Learnt::Sure(card("6h")).with(unsure(&["6h", "8h"])),
            Ok(Learnt::Sure(card("6h")))
        );
        assert!(unsure(&["6h"]).with(unsure(&["8h"])).is_err());
        assert!(Learnt::Sure(card("6h"))
            .with(Learnt::Sure(card("8h")))
            .is_err());
    }
}
