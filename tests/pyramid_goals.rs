//! Score and Card goals (`solve --goal`) held against the rules: from positions small enough to
//! search exhaustively with the rules and scoring code alone (`State`, `score::Tally`, which share
//! nothing with the solver), the solver's lines must be legal, meet their goal, and be exactly as
//! short as the shortest the exhaustive search finds; where a goal cannot be met, the best line
//! must be the highest score (or most cards) in the fewest steps.

mod common;

use solitaire_agent::cards::{Deck, Rank};
use solitaire_agent::games::pyramid::goal::Goal;
use solitaire_agent::games::pyramid::score::{tally, Tally};
use solitaire_agent::games::pyramid::solver::{solve, solve_goal};
use solitaire_agent::games::pyramid::State;
use std::collections::{HashMap, HashSet};

/// For every amount of points and of cards of each value: the fewest steps that reach it.
struct Fewest {
    points: HashMap<u32, usize>,
    cards: [HashMap<u32, usize>; 14],
}

impl Fewest {
    /// The fewest steps to at least `n` of a measure, if any line gets there.
    fn at_least(map: &HashMap<u32, usize>, n: u32) -> Option<usize> {
        map.iter().filter(|(&v, _)| v >= n).map(|(_, &d)| d).min()
    }
    fn most(map: &HashMap<u32, usize>) -> (u32, usize) {
        let v = *map.keys().max().unwrap();
        (v, map[&v])
    }
}

/// Breadth-first over every position reachable from `start` by the rules.
fn exhaustive(start: &State) -> Fewest {
    let mut seen = HashSet::new();
    seen.insert(start.clone());
    let mut layer = vec![(start.clone(), Tally::default())];
    let mut fewest = Fewest {
        points: HashMap::new(),
        cards: Default::default(),
    };
    let mut depth = 0;
    while !layer.is_empty() {
        let mut next = Vec::new();
        for (state, t) in &layer {
            fewest.points.entry(t.points).or_insert(depth);
            for v in 1..=13u8 {
                fewest.cards[v as usize]
                    .entry(t.of_value(v))
                    .or_insert(depth);
            }
            for step in state.legal_steps() {
                let (mut s, mut t) = (state.clone(), t.clone());
                t.step(&mut s, step).unwrap();
                if seen.insert(s.clone()) {
                    next.push((s, t));
                }
            }
        }
        layer = next;
        depth += 1;
        assert!(
            seen.len() < 3_000_000,
            "the position is too large to search"
        );
    }
    fewest
}

/// Positions late in a game: along the optimal board line of solvable deals, and after greedy
/// play in others, with few cards left in the pyramid.
fn positions() -> Vec<State> {
    let mut out = Vec::new();
    for (deck, n) in common::corpus().into_iter().take(40) {
        let start = State::deal(&deck);
        if n > 0 {
            let steps = solve(&start).unwrap().steps.unwrap();
            let k = steps
                .iter()
                .scan(start.clone(), |s, &step| {
                    s.apply(step).unwrap();
                    Some(s.pyramid_count())
                })
                .position(|left| left <= 9)
                .unwrap();
            out.push(common::replay(&start, &steps[..=k]));
        } else {
            let mut s = start;
            while s.pyramid_count() > 10 || s.recycles == 0 {
                let Some(step) = s.legal_steps().first().copied() else {
                    break;
                };
                s.apply(step).unwrap();
            }
            out.push(s);
        }
        if out.len() == 10 {
            break;
        }
    }
    out
}

fn earned(start: &State, steps: &[solitaire_agent::games::pyramid::Step]) -> Tally {
    tally(start, steps).expect("the solver's steps are legal").1
}

#[test]
fn score_goals_are_met_in_the_fewest_steps_or_proved_out_of_reach() {
    let mut proved_out = 0;
    for (i, start) in positions().iter().enumerate() {
        let fewest = exhaustive(start);
        let (most, most_steps) = Fewest::most(&fewest.points);
        // Every amount up to the most, and one more than it.
        for n in (5..=most + 5).step_by(5) {
            let s = solve_goal(start, Goal::Score(n)).unwrap();
            match (Fewest::at_least(&fewest.points, n), s.steps) {
                (Some(d), Some(steps)) => {
                    assert_eq!(steps.len(), d, "position {i}, score:{n}");
                    assert!(earned(start, &steps).points >= n, "position {i}, score:{n}");
                }
                (None, None) => {
                    let best = s.best.expect("a best line");
                    assert_eq!(earned(start, &best).points, most, "position {i}");
                    assert_eq!(best.len(), most_steps, "position {i}");
                    proved_out += 1;
                }
                (want, got) => panic!("position {i}, score:{n}: want {want:?}, got {got:?}"),
            }
        }
        let max = solve_goal(start, Goal::MaxScore).unwrap().steps.unwrap();
        assert_eq!(
            (earned(start, &max).points, max.len()),
            (most, most_steps),
            "position {i}, max-score"
        );
    }
    assert!(proved_out >= 10);
}

#[test]
fn card_goals_are_met_in_the_fewest_steps_or_proved_out_of_reach() {
    let mut checked = 0;
    for (i, start) in positions().iter().enumerate().take(6) {
        let fewest = exhaustive(start);
        for value in [1u8, 6, 13] {
            let rank = Rank::new(value).unwrap();
            let map = &fewest.cards[value as usize];
            let (most, most_steps) = Fewest::most(map);
            for count in 1..=most + 1 {
                let s = solve_goal(start, Goal::Clear { rank, count }).unwrap();
                match (Fewest::at_least(map, count), s.steps) {
                    (Some(d), Some(steps)) => {
                        assert_eq!(steps.len(), d, "position {i}, clear {value} x{count}");
                        assert!(earned(start, &steps).of_value(value) >= count);
                    }
                    (None, None) => {
                        let best = s.best.expect("a best line");
                        assert_eq!(earned(start, &best).of_value(value), most);
                        assert_eq!(best.len(), most_steps, "position {i}, value {value}");
                    }
                    (want, got) => {
                        panic!("position {i}, clear {value} x{count}: want {want:?}, got {got:?}")
                    }
                }
                checked += 1;
            }
        }
    }
    assert!(checked >= 20);
}

#[test]
fn a_fresh_deal_reaches_the_most_points_by_clearing_and_every_line_replays() {
    // A deal whose board can be cleared: the highest score clears it, and `score:N` lines for N
    // along the way replay through the rules and meet N.
    let deck = common::read_deck("pyramid-winnable.txt");
    let start = State::deal(&deck);
    let max = solve_goal(&start, Goal::MaxScore).unwrap().steps.unwrap();
    let (end, t) = tally(&start, &max).unwrap();
    assert!(
        end.is_cleared() && t.points >= 1150 + 14 * 5,
        "{}",
        t.points
    );
    for n in [100, 400, t.points] {
        let steps = solve_goal(&start, Goal::Score(n)).unwrap().steps.unwrap();
        assert!(earned(&start, &steps).points >= n);
        assert!(steps.len() <= max.len());
    }
    let beyond = solve_goal(&start, Goal::Score(t.points + 5)).unwrap();
    assert!(beyond.steps.is_none());
    assert_eq!(earned(&start, &beyond.best.unwrap()).points, t.points);
    // An unsolvable deck: no line earns the apex's bonus.
    let lost = State::deal(
        &Deck::parse(
            &std::fs::read_to_string(common::deck_path("pyramid-unwinnable.txt")).unwrap(),
        )
        .unwrap(),
    );
    let most = solve_goal(&lost, Goal::MaxScore).unwrap().steps.unwrap();
    assert!(earned(&lost, &most).points < 1150);
}
