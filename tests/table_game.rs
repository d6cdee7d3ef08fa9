//! The practice table's game model driven by clicks at pixel positions, without a display: solutions
//! played click by click clear the board, and Undo, Undo board, the dialog, illegal clicks, animation
//! timing, injected faults and interruptions behave as a player (or a player program) expects.

mod common;

use solitaire_agent::games::pyramid::solver;
use solitaire_agent::games::pyramid::table::game::{clicks_for, Table};
use solitaire_agent::games::pyramid::table::layout::{Layout, Target};
use solitaire_agent::games::pyramid::table::scene::Selection;
use solitaire_agent::games::pyramid::{State, Step};
use solitaire_agent::table::chrome::{Button, DialogShown};
use solitaire_agent::table::harness::{Event, Faults};
use solitaire_agent::table::interrupt::{Interruption, Planned};

const ANIM: u64 = 300;

fn layout() -> Layout {
    Layout::new(1440, 900, 1.0, 1.45)
}

/// Clicks `target` at its click point at `now`, then lets time pass until the picture is still.
fn click(table: &mut Table, l: &Layout, target: Target, now: &mut u64) {
    let (x, y) = l.click_point(target).unwrap();
    table.click(l, x, y, *now);
    *now += 1;
    while table.is_busy(*now) {
        *now += 16;
    }
}

fn moves(events: &[(u64, Event)]) -> Vec<String> {
    events
        .iter()
        .filter_map(|(_, e)| match e {
            Event::Move { step } => Some(step.clone()),
            _ => None,
        })
        .collect()
}

fn illegal(events: &[(u64, Event)]) -> Vec<String> {
    events
        .iter()
        .filter_map(|(_, e)| match e {
            Event::Illegal { why } => Some(why.clone()),
            _ => None,
        })
        .collect()
}

/// Plays the optimal solution of seeded deals click by click.
#[test]
fn solutions_played_by_clicks_clear_the_board() {
    let l = layout();
    let mut cleared = 0;
    for seed in 1..=12u64 {
        let mut table = Table::seeded(seed, ANIM, Faults::default());
        let solution = solver::solve(table.state()).unwrap();
        let Some(steps) = solution.steps else {
            continue;
        };
        let mut now = 10;
        for step in &steps {
            for target in clicks_for(table.state(), *step) {
                click(&mut table, &l, target, &mut now);
            }
        }
        let events = table.take_events();
        assert!(
            illegal(&events).is_empty(),
            "seed {seed}: {:?}",
            illegal(&events)
        );
        let expected: Vec<String> = steps.iter().map(|s| s.to_string()).collect();
        assert_eq!(moves(&events), expected, "seed {seed}");
        assert!(
            events.iter().any(|(_, e)| *e == Event::Cleared),
            "seed {seed}"
        );
        assert!(table.state().is_cleared(), "seed {seed}");
        cleared += 1;
    }
    assert!(
        cleared >= 5,
        "only {cleared} of 12 seeded deals were solvable"
    );
}

#[test]
fn selection_pairs_kings_and_illegal_clicks() {
    let l = layout();
    let mut table = Table::seeded(7, ANIM, Faults::default());
    let mut now = 0;
    // Find an uncovered bottom-row card that is not a king and click it: it is selected.
    let state = table.state().clone();
    let p = (21..28u8)
        .map(solitaire_agent::games::pyramid::Position)
        .find(|p| !state.pyramid[p.index()].unwrap().is_king())
        .unwrap();
    click(&mut table, &l, Target::Pyramid(p), &mut now);
    assert_eq!(table.selected(), Some(Selection::Pyramid(p)));
    // Clicking it again deselects.
    click(&mut table, &l, Target::Pyramid(p), &mut now);
    assert_eq!(table.selected(), None);
    // A covered card cannot be taken.
    click(
        &mut table,
        &l,
        Target::Pyramid(solitaire_agent::games::pyramid::Position(0)),
        &mut now,
    );
    let events = table.take_events();
    assert_eq!(illegal(&events).len(), 1, "{events:?}");
    assert!(illegal(&events)[0].contains("covered"));
    assert!(moves(&events).is_empty());
    assert_eq!(table.state(), &state, "no move was made");
}

#[test]
fn draw_recycle_limits_and_undo() {
    let l = layout();
    let mut table = Table::seeded(3, ANIM, Faults::default());
    let start = table.state().clone();
    let mut now = 0;
    let mut expected = start.clone();
    // Three passes through the stock, kings on the stock being removed when they come up.
    for _ in 0..200 {
        if expected.stock.is_empty() && expected.recycles == 2 {
            break;
        }
        let step = match expected.stock_top() {
            Some(k) if k.is_king() => Step::King(k),
            Some(_) => Step::Draw,
            None => Step::Recycle,
        };
        expected.apply(step).unwrap();
        click(&mut table, &l, Target::Stock, &mut now);
        assert_eq!(table.state(), &expected);
    }
    table.take_events();
    // A fourth pass is refused.
    click(&mut table, &l, Target::Stock, &mut now);
    let events = table.take_events();
    assert_eq!(illegal(&events).len(), 1, "{events:?}");
    assert_eq!(table.state(), &expected);
    // Undo takes back the last move.
    let steps = table.steps();
    click(&mut table, &l, Target::Button(Button::Undo), &mut now);
    assert_eq!(table.steps(), steps - 1);
    assert_ne!(table.state(), &expected);
    // Undo board asks first; Cancel keeps the game, OK restores the deal exactly.
    let before = table.state().clone();
    click(&mut table, &l, Target::Button(Button::UndoBoard), &mut now);
    assert!(table.dialog_open());
    click(&mut table, &l, Target::Stock, &mut now); // blocked by the dialog
    assert_eq!(table.state(), &before);
    click(&mut table, &l, Target::Button(Button::Cancel), &mut now);
    assert!(!table.dialog_open());
    assert_eq!(table.state(), &before);
    click(&mut table, &l, Target::Button(Button::UndoBoard), &mut now);
    click(&mut table, &l, Target::Button(Button::Ok), &mut now);
    assert_eq!(table.state(), &start);
    assert_eq!(table.steps(), 0);
    let events = table.take_events();
    assert!(events.iter().any(|(_, e)| *e == Event::UndoBoard));
}

#[test]
fn moves_animate_then_the_picture_is_still() {
    let l = layout();
    let mut table = Table::seeded(5, ANIM, Faults::default());
    let (x, y) = l.click_point(Target::Stock).unwrap();
    let still = table.scene(&l, 0);
    table.click(&l, x, y, 100);
    assert!(table.is_busy(100));
    let mid = table.scene(&l, 100 + ANIM / 2);
    assert_eq!(mid.flights.len(), 1, "the drawn card is in flight");
    assert_ne!(mid, still);
    assert!(!table.is_busy(100 + ANIM));
    let end = table.scene(&l, 100 + ANIM);
    assert!(end.flights.is_empty());
    assert_eq!(end.waste_top, still.stock_top);
}

/// A click that comes while a move is still under way says in the log how long it had left (for
/// `bench-play`'s clicks in flight); one after it lands says nothing of the kind.
#[test]
fn a_click_during_a_move_is_logged_with_the_time_the_move_had_left() {
    let l = layout();
    let mut table = Table::seeded(5, ANIM, Faults::default());
    let (x, y) = l.click_point(Target::Stock).unwrap();
    table.click(&l, x, y, 100);
    table.click(&l, x, y, 100 + ANIM - 40);
    table.click(&l, x, y, 100 + ANIM + 60);
    table.click(&l, x, y, 100 + 3 * ANIM);
    let flying: Vec<Option<u64>> = table
        .take_events()
        .into_iter()
        .filter_map(|(_, e)| match e {
            Event::Click { flying_ms, .. } => Some(flying_ms),
            _ => None,
        })
        .collect();
    assert_eq!(flying, [None, Some(40), Some(200), None]);
    let line = Event::Click {
        x,
        y,
        target: "stock".into(),
        flying_ms: Some(40),
    }
    .to_json(7);
    let v: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!(v["flying_ms"], 40, "{line}");
}

#[test]
fn injected_faults_are_repeatable_and_logged() {
    let l = layout();
    let faults = Faults {
        drop_click_rate: 0.5,
        lag_ms: (100, 400),
        seed: 42,
        ..Faults::default()
    };
    let run = || {
        let mut table = Table::seeded(9, ANIM, faults.clone());
        let mut now = 0;
        for _ in 0..20 {
            click(&mut table, &l, Target::Stock, &mut now);
        }
        (table.state().clone(), table.take_events())
    };
    let (state_a, events_a) = run();
    let (state_b, events_b) = run();
    assert_eq!(state_a, state_b);
    assert_eq!(events_a, events_b);
    let dropped = events_a
        .iter()
        .filter(|(_, e)| matches!(e, Event::Fault { kind, .. } if kind == "drop_click"))
        .count();
    let lags: Vec<&String> = events_a
        .iter()
        .filter_map(|(_, e)| match e {
            Event::Fault { kind, detail } if kind == "lag" => Some(detail),
            _ => None,
        })
        .collect();
    assert!(
        (4..=16).contains(&dropped),
        "{dropped} of 20 clicks dropped"
    );
    assert_eq!(
        lags.len() + dropped,
        20,
        "every click either dropped or moved with a lag"
    );
    assert_eq!(moves(&events_a).len(), 20 - dropped);
    // While a lagging move waits, the picture still shows the old position.
    let mut table = Table::seeded(
        9,
        ANIM,
        Faults {
            drop_click_rate: 0.0,
            ..faults
        },
    );
    let before = table.scene(&l, 0);
    let (x, y) = l.click_point(Target::Stock).unwrap();
    table.click(&l, x, y, 1000);
    assert_eq!(table.scene(&l, 1050).stock_top, before.stock_top);
    assert!(table.is_busy(1050));
    assert!(!table.is_busy(1000 + 400 + ANIM));
}

#[test]
fn with_lag_the_undo_board_dialog_dims_the_table_first_and_shows_late() {
    let l = layout();
    let faults = Faults {
        lag_ms: (500, 500),
        ..Faults::default()
    };
    let mut table = Table::seeded(4, ANIM, faults);
    let mut now = 0;
    click(&mut table, &l, Target::Stock, &mut now);
    let state = table.state().clone();
    let (x, y) = l.click_point(Target::Button(Button::UndoBoard)).unwrap();
    table.click(&l, x, y, now);
    assert_eq!(table.scene(&l, now).dialog, DialogShown::Opening);
    assert!(table.is_busy(now + 499));
    // OK where it will be, before the dialog is drawn: refused.
    let (ok_x, ok_y) = l.click_point(Target::Button(Button::Ok)).unwrap();
    table.click(&l, ok_x, ok_y, now + 100);
    assert_eq!(table.state(), &state);
    assert_eq!(table.scene(&l, now + 500).dialog, DialogShown::Open);
    assert!(!table.is_busy(now + 500));
    table.click(&l, ok_x, ok_y, now + 600);
    assert_eq!(table.steps(), 0);
    let events = table.take_events();
    assert!(
        events
            .iter()
            .any(|(_, e)| matches!(e, Event::Illegal { why } if why.contains("still opening"))),
        "{events:?}"
    );
    assert!(events.iter().any(|(_, e)| *e == Event::UndoBoard));
}

#[test]
fn event_log_lines_are_json_with_time_and_event() {
    let mut table = Table::seeded(1, ANIM, Faults::default());
    let l = layout();
    let (x, y) = l.click_point(Target::Stock).unwrap();
    table.click(&l, x, y, 12);
    for (t, e) in table.take_events() {
        let line = e.to_json(t);
        let v: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert!(v["t_ms"].is_u64(), "{line}");
        assert!(v["event"].is_string(), "{line}");
        if v["event"] == "click" {
            assert_eq!(v["target"], "stock");
            assert_eq!(
                (v["x"].as_i64(), v["y"].as_i64()),
                (Some(x as i64), Some(y as i64))
            );
        }
        if v["event"] == "deal" {
            assert_eq!(v["deck"].as_str().unwrap().split(' ').count(), 52);
        }
    }
    let state = State::deal(table.deck());
    assert_ne!(&state, table.state());
}

#[test]
fn a_king_on_the_stock_can_be_removed_or_drawn() {
    use solitaire_agent::cards::{Card, Deck};
    use solitaire_agent::table::harness::DealSource;
    let mut cards = *Deck::shuffled(11).cards();
    let king: Card = "Kh".parse().unwrap();
    let at = cards.iter().position(|c| *c == king).unwrap();
    cards.swap(at, 28);
    let deck = Deck::from_cards(&cards, Vec::new()).unwrap();
    let l = layout();
    for step in [Step::King(king), Step::Draw] {
        let mut table = Table::new(DealSource::Seed(0), deck.clone(), ANIM, Faults::default());
        assert_eq!(table.state().stock_top(), Some(king));
        let mut now = 0;
        for target in clicks_for(table.state(), step) {
            click(&mut table, &l, target, &mut now);
        }
        let events = table.take_events();
        assert_eq!(moves(&events), vec![step.to_string()]);
        assert!(illegal(&events).is_empty());
        let waste_top = table.state().waste_top();
        assert_eq!(waste_top == Some(king), step == Step::Draw);
    }
}

/// The table keeps MSC's score: a `score:N` line played click by click logs each new score, the
/// last equal to what the rules' scoring gives the line, and Undo board takes it back to 0.
#[test]
fn the_score_is_logged_as_it_changes() {
    use solitaire_agent::games::pyramid::goal::Goal;
    use solitaire_agent::games::pyramid::score::tally;
    let l = layout();
    // The first seeded deal where 300 points can be earned.
    let (mut table, steps) = (1..=20u64)
        .find_map(|seed| {
            let table = Table::seeded(seed, ANIM, Faults::default());
            let s = solver::solve_goal(table.state(), Goal::Score(300)).unwrap();
            s.steps.map(|steps| (table, steps))
        })
        .expect("a deal where 300 points can be earned");
    let deal = table.state().clone();
    let mut now = 10;
    for step in &steps {
        for target in clicks_for(table.state(), *step) {
            click(&mut table, &l, target, &mut now);
        }
    }
    let scores = |events: &[(u64, Event)]| -> Vec<u32> {
        events
            .iter()
            .filter_map(|(_, e)| match e {
                Event::Score { points } => Some(*points),
                _ => None,
            })
            .collect()
    };
    let events = table.take_events();
    let logged = scores(&events);
    let removals = steps.iter().filter(|s| !s.cards().is_empty()).count();
    assert_eq!(logged.len(), removals, "{events:?}");
    assert!(logged.windows(2).all(|w| w[0] < w[1]), "{logged:?}");
    let (_, earned) = tally(&deal, &steps).unwrap();
    assert!(earned.points >= 300);
    assert_eq!(*logged.last().unwrap(), earned.points);
    click(&mut table, &l, Target::Button(Button::UndoBoard), &mut now);
    click(&mut table, &l, Target::Button(Button::Ok), &mut now);
    assert_eq!(scores(&table.take_events()), vec![0]);
}

/// `--interrupt`: a dialog shows after the planned move (Undo does not take the count back), takes
/// every click until one of its buttons closes it, and both are logged with the JSON the event
/// log writes.
#[test]
fn interruptions_show_after_their_move_and_take_every_click_until_closed() {
    let l = layout();
    let faults = Faults {
        interrupts: vec![
            Planned::parse("2:no-moves").unwrap(),
            Planned::parse("3:bonus").unwrap(),
        ],
        ..Faults::default()
    };
    let mut table = Table::seeded(9, ANIM, faults);
    let mut now = 0;
    click(&mut table, &l, Target::Stock, &mut now);
    assert_eq!(table.interruption, None);
    click(&mut table, &l, Target::Button(Button::Undo), &mut now);
    click(&mut table, &l, Target::Stock, &mut now);
    assert_eq!(table.interruption, Some(Interruption::NoMoves));
    // Under it, nothing happens: the stock is not drawn, Undo does not undo.
    let state = table.state().clone();
    click(&mut table, &l, Target::Stock, &mut now);
    click(&mut table, &l, Target::Button(Button::Undo), &mut now);
    assert_eq!(table.state(), &state);
    assert_eq!(table.interruption, Some(Interruption::NoMoves));
    // Its OK (not where the Undo board dialog's is) closes it.
    let popup = l.chrome.popup(Interruption::NoMoves);
    assert!(!popup.buttons[0].contains(l.chrome.ok.centre().0, l.chrome.ok.centre().1));
    let (x, y) = popup.buttons[0].centre();
    table.click(&l, x, y, now);
    assert_eq!(table.interruption, None);
    click(&mut table, &l, Target::Stock, &mut now);
    assert_eq!(table.interruption, Some(Interruption::Bonus));
    let (x, y) = l.chrome.popup(Interruption::Bonus).buttons[1].centre();
    table.click(&l, x, y, now);
    assert_eq!(table.interruption, None);

    let events = table.take_events();
    assert_eq!(illegal(&events).len(), 2, "{events:?}");
    let json: Vec<String> = events
        .iter()
        .filter(|(_, e)| matches!(e, Event::Interrupt { .. } | Event::Dismiss { .. }))
        .map(|(t, e)| e.to_json(*t).split_once(',').unwrap().1.to_string())
        .collect();
    assert_eq!(
        json,
        [
            r#""event":"interrupt","kind":"no-moves","after":2}"#,
            r#""event":"dismiss","kind":"no-moves","button":"ok"}"#,
            r#""event":"interrupt","kind":"bonus","after":3}"#,
            r#""event":"dismiss","kind":"bonus","button":"no thanks"}"#,
        ]
    );
}
