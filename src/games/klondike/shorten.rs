//! Making a found line shorter by small changes, each checked by the rules: a step left out, two
//! left out, or two that become one (one replaced by any step the rules allow there, the other
//! left out), for as long as one of them still wins. Triple Klondike's beam lines go through it;
//! it lives beside the rules because it needs nothing else.
//!
//! A search that does not prove its line shortest leaves detours in it: a card put on one pile and
//! moved on to another later, a run moved that a later move makes needless. Each change is tried
//! on the rules' own table (`rules::Table`), so a shortened line is as legal as the one it came
//! from; no search's model plays a part.

use super::rules::Table;
use super::Step;
use crate::cards::{Card, Suit};
use rayon::prelude::*;

/// `line`, which wins from `start`, made as short as leaving out and merging steps makes it.
pub fn shorten(start: &Table, line: &[Step]) -> Vec<Step> {
    let mut line = line.to_vec();
    while let Some(shorter) = one_shorter(start, &line) {
        line = shorter;
    }
    line
}

/// A line one or two steps shorter than `line` that still wins, if a change finds one: the first
/// found from the start of the line.
fn one_shorter(start: &Table, line: &[Step]) -> Option<Vec<Step>> {
    let mut tables = Vec::with_capacity(line.len() + 1);
    let mut table = start.clone();
    tables.push(table.clone());
    for &step in line {
        table.play(step).ok()?;
        tables.push(table.clone());
    }
    (0..line.len())
        .into_par_iter()
        .find_map_first(|i| shorter_from(&tables[i], line, i))
}

/// A shorter winning line that changes `line` first at step `i` (`before` is the table there):
/// step `i` left out, or replaced by another step with a later step left out.
fn shorter_from(before: &Table, line: &[Step], i: usize) -> Option<Vec<Step>> {
    if wins(before.clone(), &line[i + 1..]) {
        return Some([&line[..i], &line[i + 1..]].concat());
    }
    let others = steps(before).into_iter().filter(|&s| s != line[i]);
    for first in std::iter::once(None).chain(others.map(Some)) {
        let mut table = before.clone();
        if first.is_some_and(|step| table.play(step).is_err()) {
            continue;
        }
        for j in i + 1..line.len() {
            if wins(table.clone(), &line[j + 1..]) {
                let mut shorter = line[..i].to_vec();
                shorter.extend(first);
                shorter.extend_from_slice(&line[i + 1..j]);
                shorter.extend_from_slice(&line[j + 1..]);
                return Some(shorter);
            }
            if first.is_none() {
                for second in steps(&table).into_iter().filter(|&s| s != line[j]) {
                    let mut then = table.clone();
                    if then.play(second).is_ok() && wins(then, &line[j + 1..]) {
                        let mut shorter = line[..i].to_vec();
                        shorter.extend_from_slice(&line[i + 1..j]);
                        shorter.push(second);
                        shorter.extend_from_slice(&line[j + 1..]);
                        return Some(shorter);
                    }
                }
            }
            if table.play(line[j]).is_err() {
                break;
            }
        }
    }
    None
}

/// Whether `rest` plays from `table` to a won game.
fn wins(mut table: Table, rest: &[Step]) -> bool {
    rest.iter().all(|&step| table.play(step).is_ok()) && table.is_won()
}

/// The steps worth trying on `table` (some may be illegal; the rules say which).
fn steps(table: &Table) -> Vec<Step> {
    let piles = table.piles.len() as u8;
    let mut out = vec![Step::Draw, Step::Recycle];
    let mut tops: Vec<Card> = table.waste.last().copied().into_iter().collect();
    tops.extend(table.piles.iter().filter_map(|p| p.cards.last().copied()));
    out.extend(tops.into_iter().map(Step::ToFoundation));
    // A card showing twice (several decks): the pile's own step takes it from there.
    out.extend((0..piles).map(Step::PileToFoundation));
    for to in 0..piles {
        out.push(Step::WasteToPile(to));
        for suit in Suit::ALL {
            out.push(Step::FoundationToPile(suit, to));
        }
        for from in (0..piles).filter(|&f| f != to) {
            let pile = &table.piles[from as usize];
            for count in 1..=(pile.cards.len() - pile.down) as u8 {
                out.push(Step::PileToPile { from, to, count });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::triple_klondike::{solver, TripleDeck};

    #[test]
    fn a_detour_put_into_a_line_comes_out() {
        let deck = TripleDeck::contest(1).unwrap();
        let line = solver::solve(&deck, 256)
            .steps
            .expect("deal 1 is won at 256");
        let start = deck.table();
        // After the first card goes up that a pile could take back (not an ace), take it down
        // and up again.
        let mut table = start.clone();
        let (at, card, to) = line
            .iter()
            .enumerate()
            .find_map(|(at, &s)| {
                table.play(s).unwrap();
                let Step::ToFoundation(card) = s else {
                    return None;
                };
                (0..table.piles.len() as u8)
                    .find(|&p| {
                        table
                            .clone()
                            .play(Step::FoundationToPile(card.suit, p))
                            .is_ok()
                    })
                    .map(|to| (at, card, to))
            })
            .expect("a pile takes a card back somewhere along the line");
        let mut longer = line[..=at].to_vec();
        longer.push(Step::FoundationToPile(card.suit, to));
        longer.push(Step::ToFoundation(card));
        longer.extend_from_slice(&line[at + 1..]);
        assert!(wins(start.clone(), &longer));
        let shorter = shorten(&start, &longer);
        assert!(shorter.len() <= line.len());
        assert!(wins(start, &shorter));
    }
}
