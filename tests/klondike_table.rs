//! Klondike's practice table: a solution clicked on the table wins it (Draw 1 and Draw 3; the
//! event log says so, with no illegal move), Undo and Undo board (through its dialog) take moves
//! back, a face-down card and a card that does not fit are refused with a reason; the window's
//! picture is `render --game klondike`'s; and on a real X window (Xvfb, xdotool) a solution clicked
//! by mouse wins the deal.

mod common;

use solitaire_agent::games::klondike::rules::Table as Position;
use solitaire_agent::games::klondike::solver::{self, Budget};
use solitaire_agent::games::klondike::table::game::{seeded, targets_of, Table, View};
use solitaire_agent::games::klondike::table::layout::{Layout, Target};
use solitaire_agent::games::klondike::table::scene::Selection;
use solitaire_agent::games::klondike::{Draw, KlondikeDeck, Step};
use solitaire_agent::table::chrome::Button;
use solitaire_agent::table::harness::{Event, Faults};
use solitaire_agent::table::render::Renderer;
use solitaire_agent::table::theme::Theme;
use solitaire_agent::table::window::TableView;

const SIZE: (u32, u32) = (1200, 760);

fn layout() -> Layout {
    Layout::new(SIZE.0, SIZE.1, 1.0, Theme::built_in().aspect())
}

fn solution(seed: u64, draw: Draw) -> Vec<Step> {
    solver::solve(&KlondikeDeck::shuffled(seed), draw, Budget::default())
        .steps
        .expect("a winnable seed")
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

/// Clicks `target` as the table shows it now.
fn press(table: &mut Table, l: &Layout, target: Target, now: u64) {
    let (x, y) = l.click_point(target, table.state()).unwrap();
    table.click(l, x, y, now);
}

/// Plays `steps` by clicks from the table's position; returns the time after.
fn click_steps(table: &mut Table, l: &Layout, steps: &[Step], mut now: u64) -> u64 {
    for step in steps {
        for target in table.targets_of(*step).unwrap() {
            now += 200;
            press(table, l, target, now);
        }
    }
    now
}

#[test]
fn solutions_clicked_on_the_table_win_it_with_either_draw() {
    let l = layout();
    for (seed, draw) in [(2, Draw::One), (3, Draw::Three)] {
        let mut table = seeded(seed, draw, 100, Faults::default());
        let steps = solution(seed, draw);
        let now = click_steps(&mut table, &l, &steps, 0);
        assert!(table.state().is_won(), "seed {seed}");
        let events = table.take_events();
        let expected: Vec<String> = steps.iter().map(Step::to_string).collect();
        assert_eq!(moves(&events), expected, "seed {seed}");
        assert_eq!(illegal(&events), Vec::<String>::new(), "seed {seed}");
        assert!(events.iter().any(|(_, e)| *e == Event::Cleared));
        let status = table.scene(&l, now + 1000).status;
        assert!(status.starts_with("DEAL WON!"), "{status}");

        // Undo takes the last card back off its foundation.
        press(&mut table, &l, Target::Button(Button::Undo), now + 1000);
        assert_eq!(table.state().cleared(), 51);
        // Undo board asks first; Cancel keeps the position, OK deals again.
        press(
            &mut table,
            &l,
            Target::Button(Button::UndoBoard),
            now + 1100,
        );
        assert!(table.dialog_open());
        press(&mut table, &l, Target::Stock, now + 1150);
        press(&mut table, &l, Target::Button(Button::Cancel), now + 1200);
        assert_eq!(table.state().cleared(), 51);
        press(
            &mut table,
            &l,
            Target::Button(Button::UndoBoard),
            now + 1300,
        );
        press(&mut table, &l, Target::Button(Button::Ok), now + 1400);
        let dealt = Position::deal(&KlondikeDeck::shuffled(seed), draw);
        assert_eq!(table.state().stock, dealt.stock);
        assert_eq!(table.steps(), 0);
        let events = table.take_events();
        assert!(events.iter().any(|(_, e)| *e == Event::UndoBoard));
        assert_eq!(illegal(&events).len(), 1, "the stock under the dialog");
    }
}

#[test]
fn face_down_cards_and_cards_that_do_not_fit_are_refused_with_a_reason() {
    let l = layout();
    // Seed 4: pile 1 is 7c, pile 2 is Jc under 2h, pile 3's top is Th, pile 6's top is Js.
    let mut table = seeded(4, Draw::One, 100, Faults::default());
    let start = table.state().clone();
    let card = |pile: u8, card: u8| Target::Pile {
        pile,
        card: Some(card),
    };
    // A face-down card is not picked up.
    press(&mut table, &l, card(1, 0), 100);
    assert_eq!(table.selection(), None);
    // 7c does not go onto 2h: refused, nothing moves, nothing stays picked up.
    press(&mut table, &l, card(0, 0), 200);
    assert_eq!(
        table.selection(),
        Some(Selection::Pile { pile: 0, from: 0 })
    );
    press(&mut table, &l, card(1, 1), 300);
    assert_eq!(table.selection(), None);
    assert_eq!(table.state().piles[0].cards, start.piles[0].cards);
    // A click on the cards held puts them down; another click picks them up again.
    press(&mut table, &l, card(2, 2), 400);
    press(&mut table, &l, card(2, 2), 500);
    assert_eq!(table.selection(), None);
    press(&mut table, &l, card(2, 2), 550);
    assert_eq!(
        table.selection(),
        Some(Selection::Pile { pile: 2, from: 2 })
    );
    // Th onto Js: a move; pile 3's Kc turns up.
    press(&mut table, &l, card(5, 5), 600);
    assert_eq!(
        table.state().piles[5].cards.last().unwrap().to_string(),
        "Th"
    );
    assert_eq!(table.state().piles[2].down, 1);
    let events = table.take_events();
    assert_eq!(moves(&events), ["3>6"]);
    let why = illegal(&events);
    assert_eq!(why.len(), 2, "{why:?}");
    assert!(why[0].contains("face down"), "{why:?}");
    assert!(why[1].contains("7c cannot go onto 2h"), "{why:?}");
    // The empty stock turns the waste back; an empty waste and stock refuse.
    let mut table = seeded(4, Draw::Three, 100, Faults::default());
    for i in 0..8 {
        press(&mut table, &l, Target::Stock, 100 * i);
    }
    assert!(table.state().stock.is_empty());
    press(&mut table, &l, Target::Stock, 1000);
    assert_eq!(table.state().stock.len(), 24);
    assert_eq!(
        moves(&table.take_events()).last().map(String::as_str),
        Some("Recycle")
    );
}

#[test]
fn the_window_shows_what_render_writes_with_cards_in_flight_landing() {
    let (seed, draw) = (3, Draw::Three);
    let steps = solution(seed, draw);
    let played = &steps[..25];
    let after: Vec<String> = played.iter().map(Step::to_string).collect();
    // The selection: the top card of the waste or of the first pile with a face-up card.
    let mut position = Position::deal(&KlondikeDeck::shuffled(seed), draw);
    for step in played {
        position.play(*step).unwrap();
    }
    let held = position.piles.iter().find_map(|p| p.cards.last()).unwrap();
    let out = std::env::temp_dir().join(format!("klondike-render-{}.png", std::process::id()));
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_solitaire-agent"))
        .args(["render", "--game", "klondike", "--draw", "3", "--seed", "3"])
        .args(["--after", &after.join(","), "--select", &held.to_string()])
        .args(["--size", "1200x760", "--out"])
        .arg(&out)
        .status()
        .unwrap();
    assert!(status.success());
    let rendered = image::open(&out).unwrap().to_rgba8();
    let _ = std::fs::remove_file(&out);

    let mut view = View::new(
        seeded(seed, draw, 100, Faults::default()),
        Renderer::new(Theme::built_in()),
        1.0,
    );
    let l = layout();
    let mut now = 0;
    for step in played {
        for target in targets_of(view.table.state(), *step).unwrap() {
            now += 50;
            let (x, y) = l.click_point(target, view.table.state()).unwrap();
            view.click(SIZE.0, SIZE.1, x, y, now);
        }
        // Half way, the moved cards are in flight.
        assert!(
            *step == Step::Recycle || !view.table.scene(&l, now + 50).flights.is_empty(),
            "{step}"
        );
        now += 200;
    }
    let i = view
        .table
        .state()
        .piles
        .iter()
        .position(|p| p.cards.last() == Some(held))
        .unwrap();
    let top = view.table.state().piles[i].cards.len() - 1;
    let (x, y) = l
        .click_point(
            Target::Pile {
                pile: i as u8,
                card: Some(top as u8),
            },
            view.table.state(),
        )
        .unwrap();
    view.click(SIZE.0, SIZE.1, x, y, now);
    let shown = view.picture(SIZE.0, SIZE.1, now + 1000).unwrap();
    assert!(
        shown == rendered,
        "the window's picture differs from render's"
    );

    // A step of another game, a card that is not face up, and --draw for another game are refused.
    for (args, says) in [
        (vec!["--after", "4c+9c"], "not a Klondike step"),
        (vec!["--select", "Zz"], "not a card"),
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_solitaire-agent"))
            .args(["render", "--game", "klondike", "--out", "/tmp/x.png"])
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(says),
            "{args:?}"
        );
    }
    let (code, _, err) = common::run_cli(&["render", "--draw", "3", "--out", "/tmp/x.png"]);
    assert_eq!(code, 2);
    assert!(err.contains("--draw is Klondike's"), "{err}");
    let (code, _, err) = common::run_cli(&["play", "--draw", "3", "--sim"]);
    assert_eq!(code, 2);
    assert!(err.contains("--draw is Klondike's"), "{err}");
}

/// The real window under Xvfb: the mouse plays a solution and the log says the deal is won.
#[cfg(target_os = "linux")]
#[test]
fn a_solution_clicked_with_the_mouse_on_the_window_wins_the_deal() {
    use common::desktop::{log_events, wait_for, Desktop};
    use solitaire_agent::platform::window;
    let mut desktop = Desktop::start(1280, 800);
    desktop.enter();
    let log = std::env::temp_dir().join(format!("klondike-window-{}.jsonl", std::process::id()));
    let mut cmd = desktop.command(env!("CARGO_BIN_EXE_solitaire-agent"));
    cmd.args(["table", "--game", "klondike", "--draw", "3", "--seed", "3"])
        .args(["--size", "1000x700", "--animation-ms", "30"]);
    desktop.spawn_table(cmd, &log);
    let mut win = wait_for(20, "the Klondike window", || {
        window::find("Klondike Practice Table").ok()
    });
    win.refresh().unwrap();
    let l = Layout::new(win.width, win.height, 1.0, Theme::built_in().aspect());
    let steps = solution(3, Draw::Three);
    let mut position = Position::deal(&KlondikeDeck::shuffled(3), Draw::Three);
    for (i, step) in steps.iter().enumerate() {
        for target in targets_of(&position, *step).unwrap() {
            let (x, y) = l.click_point(target, &position).unwrap();
            desktop.click(win.x + x, win.y + y);
            std::thread::sleep(std::time::Duration::from_millis(30));
        }
        position.play(*step).unwrap();
        wait_for(10, &format!("step {} ({step}) in the log", i + 1), || {
            let events = log_events(&log);
            (events.iter().filter(|e| e["event"] == "move").count() > i).then_some(())
        });
        std::thread::sleep(std::time::Duration::from_millis(40));
    }
    let events = log_events(&log);
    assert_eq!(events.iter().filter(|e| e["event"] == "cleared").count(), 1);
    assert_eq!(
        events.iter().filter(|e| e["event"] == "illegal").count(),
        0,
        "{events:?}"
    );
    let _ = std::fs::remove_file(&log);
}
