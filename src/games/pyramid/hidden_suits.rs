//! Covered pyramid cards whose rank is read and whose suit is hidden. Some card art shows no suit
//! in a covered card's corner (ornamental in MSC's look: the suit lies under the card over it),
//! and when two cards of a rank are both covered, not even the full deck tells which is which.
//! Pyramid's rules look only at ranks (pairs that make 13, kings alone; a score counts cards, a
//! Card challenge counts a rank), so the agent takes them one way round and plays: the plan is
//! the same either way. Each such card keeps being read, and where one is seen whole the other
//! way round, the two are exchanged in the position and in the plan's steps.

use crate::cards::Card;
use crate::games::pyramid::position::PYRAMID_SIZE;
use crate::games::pyramid::state::State;
use crate::games::pyramid::step::Step;
use crate::games::pyramid::vision::board::Board;
use crate::vision::recognize::Seen;

/// Places whose cards are known but for their suits: groups of pyramid places (by index) whose
/// cards, all of one rank, were taken one way round.
pub type Hidden = Vec<Vec<usize>>;

/// The cards of the `unsure` places (numbered as the agent learns them: pyramid 0..28, then the
/// stock), given the `known` rest of the deck: first what the deck settles (a place with one
/// candidate left), then, for the pyramid places still open whose candidates left are all of one
/// rank, those cards one way round. Returns the cards and the groups taken so; None when a place
/// stays open otherwise (candidates of two ranks, or a stock card: cards on the stock and the
/// waste are seen whole), or the cards missing from the deck are not the candidates'.
pub fn settle(
    known: &[Card],
    unsure: &[(usize, Vec<Card>)],
) -> Option<(Vec<(usize, Card)>, Hidden)> {
    let mut missing: Vec<Card> = (0..52)
        .map(Card::from_index)
        .filter(|c| !known.contains(c))
        .collect();
    if missing.len() != unsure.len() {
        return None;
    }
    let mut settled = Vec::new();
    let mut open: Vec<(usize, Vec<Card>)> = unsure.to_vec();
    let options = |cards: &[Card], missing: &[Card]| -> Vec<Card> {
        cards
            .iter()
            .copied()
            .filter(|c| missing.contains(c))
            .collect()
    };
    while let Some(k) = open
        .iter()
        .position(|(_, cards)| options(cards, &missing).len() == 1)
    {
        let (place, cards) = open.remove(k);
        let card = options(&cards, &missing)[0];
        settled.push((place, card));
        missing.retain(|&c| c != card);
    }
    let mut hidden: Hidden = Vec::new();
    while let Some((_, cards)) = open.first().cloned() {
        let rank = options(&cards, &missing).first()?.rank;
        // Every open place torn within this rank, and the rank's cards still missing.
        let group: Vec<(usize, Vec<Card>)> = open
            .iter()
            .filter(|(_, c)| options(c, &missing).iter().any(|c| c.rank == rank))
            .cloned()
            .collect();
        let of_rank: Vec<Card> = missing.iter().copied().filter(|c| c.rank == rank).collect();
        let one_rank = group
            .iter()
            .all(|(p, c)| *p < PYRAMID_SIZE && options(c, &missing).iter().all(|c| c.rank == rank));
        if !one_rank || group.len() != of_rank.len() {
            return None;
        }
        let cards = assign(&group, &of_rank)?;
        for ((p, _), card) in group.iter().zip(&cards) {
            settled.push((*p, *card));
        }
        missing.retain(|c| c.rank != rank);
        open.retain(|(p, _)| !group.iter().any(|(q, _)| q == p));
        hidden.push(group.iter().map(|(p, _)| *p).collect());
    }
    Some((settled, hidden))
}

/// One card of `cards` to each place of `group`, each among that place's candidates (by trying
/// every order: a group holds at most four places).
fn assign(group: &[(usize, Vec<Card>)], cards: &[Card]) -> Option<Vec<Card>> {
    fn go(group: &[(usize, Vec<Card>)], left: &mut Vec<Card>, out: &mut Vec<Card>) -> bool {
        let Some(((_, candidates), rest)) = group.split_first() else {
            return true;
        };
        for i in 0..left.len() {
            let card = left[i];
            if candidates.contains(&card) {
                left.remove(i);
                out.push(card);
                if go(rest, left, out) {
                    return true;
                }
                out.pop();
                left.insert(i, card);
            }
        }
        false
    }
    let (mut left, mut out) = (cards.to_vec(), Vec::new());
    go(group, &mut left, &mut out).then_some(out)
}

/// The exchanges a board read calls for: where a place of `hidden` is read as a card of its rank
/// other than `state` holds there, (card held, card read), one after the other as `state` would
/// be changed by each. The card read must be held by another place of the group, or be off the
/// table (a card of the group taken off under another's name: the place takes the name it shows).
/// Places read as what `state` holds, or as unsure, call for none.
pub fn exchanges(board: &Board, state: &State, hidden: &Hidden) -> Vec<(Card, Card)> {
    let mut now = state.clone();
    let mut out = Vec::new();
    for group in hidden {
        for &p in group {
            let (Seen::Card(read, _), Some(held)) = (board.pyramid[p], now.pyramid[p]) else {
                continue;
            };
            let in_group = group.iter().any(|&q| now.pyramid[q] == Some(read));
            let on_table = now.pyramid.contains(&Some(read))
                || now.stock.contains(&read)
                || now.waste.contains(&read);
            if read != held && read.rank == held.rank && (in_group || !on_table) {
                now = exchanged(&now, &[(held, read)]);
                out.push((held, read));
            }
        }
    }
    out
}

/// `state` with the two cards of each exchange in each other's place.
pub fn exchanged(state: &State, exchanges: &[(Card, Card)]) -> State {
    let mut s = state.clone();
    for &(a, b) in exchanges {
        let swap = |c: &mut Card| {
            if *c == a {
                *c = b;
            } else if *c == b {
                *c = a;
            }
        };
        s.pyramid.iter_mut().flatten().for_each(swap);
        s.stock.iter_mut().for_each(swap);
        s.waste.iter_mut().for_each(swap);
    }
    s
}

/// `step` naming the cards as after the exchanges.
pub fn exchanged_step(step: Step, exchanges: &[(Card, Card)]) -> Step {
    let swap = |mut c: Card| {
        for &(a, b) in exchanges {
            if c == a {
                c = b;
            } else if c == b {
                c = a;
            }
        }
        c
    };
    match step {
        Step::King(c) => Step::King(swap(c)),
        Step::Pair(a, b) => Step::pair(swap(a), swap(b)),
        other => other,
    }
}

/// `hidden` less the places a board read shows whole, as `state` (exchanged already) holds them,
/// and less groups left with one place (its card is the one left).
pub fn seen(board: &Board, state: &State, hidden: &Hidden) -> Hidden {
    hidden
        .iter()
        .map(|group| {
            group
                .iter()
                .copied()
                .filter(|&p| !matches!(board.pyramid[p], Seen::Card(c, _) if state.pyramid[p] == Some(c)))
                .collect::<Vec<usize>>()
        })
        .filter(|group| group.len() >= 2)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Deck;

    fn card(s: &str) -> Card {
        s.parse().unwrap()
    }

    /// Two cards exchanged change places wherever they lie, and the steps naming them follow.
    #[test]
    fn exchanged_cards_change_places_in_the_position_and_the_steps() {
        let deal = State::deal(&Deck::shuffled(5));
        let (a, b) = (deal.pyramid[3].unwrap(), deal.stock[0]);
        let swapped = exchanged(&deal, &[(a, b)]);
        assert_eq!(swapped.pyramid[3], Some(b));
        assert_eq!(swapped.stock[0], a);
        assert_eq!(exchanged(&swapped, &[(a, b)]), deal);
        let (nine, other) = (card("9h"), card("9d"));
        assert_eq!(
            exchanged_step(Step::pair(card("4c"), nine), &[(nine, other)]),
            Step::pair(card("4c"), other)
        );
        assert_eq!(
            exchanged_step(Step::King(card("Kc")), &[(nine, other)]),
            Step::King(card("Kc"))
        );
        assert_eq!(exchanged_step(Step::Draw, &[(nine, other)]), Step::Draw);
    }

    /// A board read where everything is unsure but the places given.
    fn board_showing(places: &[(usize, &str)]) -> Board {
        let mut pyramid = [Seen::Unknown(0.5); 28];
        for &(p, c) in places {
            pyramid[p] = Seen::Card(card(c), 0.9);
        }
        Board {
            pyramid,
            stock_present: true,
            stock_top: Seen::Unknown(0.5),
            waste: Seen::Empty,
            unsure: Vec::new(),
            misplaced: Vec::new(),
            index_at: vec![None; 30],
        }
    }

    /// A place of a group read as another card of the group exchanges the two; read as what it
    /// was taken for, or as a card of another rank, it exchanges nothing; read as a card of the
    /// group already off the table, it takes that card's name. Places read whole as taken for
    /// leave the group.
    #[test]
    fn a_card_seen_the_other_way_round_changes_places_with_its_twin() {
        let mut deal = State::deal(&Deck::shuffled(5));
        let (a, b) = (card("9h"), card("9d"));
        // Put the two nines at places 3 and 7, wherever the deal had them.
        deal = exchanged(&deal, &[(deal.pyramid[3].unwrap(), a)]);
        deal = exchanged(&deal, &[(deal.pyramid[7].unwrap(), b)]);
        let hidden = vec![vec![3, 7]];
        let seen_swapped = board_showing(&[(3, "9d")]);
        assert_eq!(exchanges(&seen_swapped, &deal, &hidden), vec![(a, b)]);
        let after = exchanged(&deal, &[(a, b)]);
        assert_eq!((after.pyramid[3], after.pyramid[7]), (Some(b), Some(a)));
        assert_eq!(
            seen(&seen_swapped, &after, &hidden),
            Vec::<Vec<usize>>::new()
        );
        assert!(exchanges(&board_showing(&[(3, "9h")]), &deal, &hidden).is_empty());
        assert!(exchanges(&board_showing(&[(3, "4c")]), &deal, &hidden).is_empty());
        assert_eq!(seen(&board_showing(&[]), &deal, &hidden), hidden);
        // The 9d taken off (under the name it was taken for): place 3 shows it, and takes its name.
        let mut gone = deal.clone();
        gone.pyramid[7] = None;
        assert_eq!(exchanges(&seen_swapped, &gone, &hidden), vec![(a, b)]);
    }
}
