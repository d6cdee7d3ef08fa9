//! TriPeaks' practice table: a solution clicked on the table clears it (the event log says so, with
//! no illegal move), Undo and Undo board (through its dialog) take moves back, a covered card's
//! click is refused, faults are logged; the window's picture is `render --game tripeaks`'s; and on
//! a real X window (Xvfb, xdotool) a solution clicked by mouse clears the board.

mod common;

use solitaire_agent::cards::Deck;
use solitaire_agent::games::tripeaks::solver;
use solitaire_agent::games::tripeaks::table::game::{seeded, View};
use solitaire_agent::games::tripeaks::table::layout::{Layout, Target};
use solitaire_agent::games::tripeaks::{State, Step};
use solitaire_agent::table::chrome::Button;
use solitaire_agent::table::harness::{Event, Faults};
use solitaire_agent::table::render::Renderer;
use solitaire_agent::table::theme::Theme;
use solitaire_agent::table::window::TableView;

const SIZE: (u32, u32) = (1200, 760);

fn layout() -> Layout {
    Layout::new(SIZE.0, SIZE.1, 1.0, Theme::built_in().aspect())
}

fn solution(seed: u64) -> Vec<Step> {
    solver::solve(&State::deal(&Deck::shuffled(seed)))
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

#[test]
fn a_solution_clicked_on_the_table_clears_it_and_undo_board_brings_the_deal_back() {
    let l = layout();
    let mut table = seeded(2, 100, Faults::default());
    let mut now = 0;
    // A covered card (a peak top) cannot be played: logged, nothing changes.
    let (x, y) = l.click_point(Target::Tableau(0)).unwrap();
    table.click(&l, x, y, now);
    assert_eq!(table.state(), &State::deal(&Deck::shuffled(2)));
    let steps = solution(2);
    for step in &steps {
        now += 200;
        let target = table.target_of(*step).unwrap();
        let (x, y) = l.click_point(target).unwrap();
        table.click(&l, x, y, now);
    }
    assert!(table.state().is_cleared());
    let events = table.take_events();
    let expected: Vec<String> = steps.iter().map(Step::to_string).collect();
    assert_eq!(moves(&events), expected);
    let illegal: Vec<&Event> = events
        .iter()
        .map(|(_, e)| e)
        .filter(|e| matches!(e, Event::Illegal { .. }))
        .collect();
    assert_eq!(illegal.len(), 1, "only the covered card: {illegal:?}");
    assert!(events.iter().any(|(_, e)| *e == Event::Cleared));

    // Undo puts the last card back on the tableau.
    let press = |table: &mut solitaire_agent::games::tripeaks::table::game::Table, t, now| {
        let (x, y) = l.click_point(t).unwrap();
        table.click(&l, x, y, now);
    };
    press(&mut table, Target::Button(Button::Undo), now + 500);
    assert_eq!(table.state().tableau().iter().flatten().count(), 1);
    // Undo board asks first; Cancel keeps the position, OK deals again.
    press(&mut table, Target::Button(Button::UndoBoard), now + 600);
    assert!(table.dialog_open());
    press(&mut table, Target::Stock, now + 650);
    press(&mut table, Target::Button(Button::Cancel), now + 700);
    assert!(!table.dialog_open());
    assert_eq!(table.state().tableau().iter().flatten().count(), 1);
    press(&mut table, Target::Button(Button::UndoBoard), now + 800);
    press(&mut table, Target::Button(Button::Ok), now + 900);
    assert_eq!(table.state(), &State::deal(&Deck::shuffled(2)));
    assert_eq!(table.steps(), 0);
    let kinds: Vec<String> = table
        .take_events()
        .iter()
        .map(|(t, e)| e.to_json(*t))
        .filter(|j| !j.contains("\"click\""))
        .collect();
    assert_eq!(kinds.len(), 3, "{kinds:?}");
    assert!(kinds[0].contains("\"undo\""), "{kinds:?}");
    assert!(
        kinds[1].contains("\"illegal\""),
        "the stock under the dialog: {kinds:?}"
    );
    assert!(kinds[2].contains("\"undo_board\""), "{kinds:?}");
}

#[test]
fn dropped_clicks_and_lag_are_logged_as_faults() {
    let l = layout();
    let faults = Faults {
        drop_click_rate: 1.0,
        lag_ms: (0, 0),
        seed: 3,
        ..Faults::default()
    };
    let mut table = seeded(2, 100, faults);
    let (x, y) = l.click_point(Target::Stock).unwrap();
    table.click(&l, x, y, 10);
    assert_eq!(table.state().stock().len(), 23, "the click was dropped");
    let json: Vec<String> = table
        .take_events()
        .iter()
        .map(|(t, e)| e.to_json(*t))
        .collect();
    assert!(
        json.iter().any(|j| j.contains("\"drop_click\"")),
        "{json:?}"
    );

    let faults = Faults {
        drop_click_rate: 0.0,
        lag_ms: (300, 300),
        seed: 3,
        ..Faults::default()
    };
    let mut table = seeded(2, 100, faults);
    table.click(&l, x, y, 10);
    assert_eq!(table.state().stock().len(), 22);
    // The picture shows the old position until the lag is over, then the card flies.
    let still = table.scene(&l, 0);
    assert_eq!(table.scene(&l, 200).stock_count, still.stock_count);
    assert_eq!(table.scene(&l, 360).flights.len(), 1);
    assert!(table.is_busy(360) && !table.is_busy(500));
    assert_eq!(table.scene(&l, 500).stock_count, 22);
}

#[test]
fn the_window_shows_what_render_writes() {
    let steps = solution(5);
    let after: Vec<String> = steps[..10].iter().map(Step::to_string).collect();
    let out = std::env::temp_dir().join(format!("tripeaks-render-{}.png", std::process::id()));
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_solitaire-agent"))
        .args(["render", "--game", "tripeaks", "--seed", "5", "--after"])
        .arg(after.join(","))
        .args(["--size", "1200x760", "--out"])
        .arg(&out)
        .status()
        .unwrap();
    assert!(status.success());
    let rendered = image::open(&out).unwrap().to_rgba8();
    let _ = std::fs::remove_file(&out);

    let mut view = View::new(
        seeded(5, 0, Faults::default()),
        Renderer::new(Theme::built_in()),
        1.0,
    );
    let l = layout();
    for step in &steps[..10] {
        let target = view.table.target_of(*step).unwrap();
        let (x, y) = l.click_point(target).unwrap();
        view.click(SIZE.0, SIZE.1, x, y, 0);
    }
    let shown = view.picture(SIZE.0, SIZE.1, 1).unwrap();
    assert!(
        shown == rendered,
        "the window's picture differs from render's"
    );
    assert!(view.picture(SIZE.0, SIZE.1, 2).is_none(), "nothing changed");

    // A TriPeaks step written for Pyramid, or a selection, is refused with a message.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_solitaire-agent"))
        .args([
            "render",
            "--game",
            "tripeaks",
            "--after",
            "4c+9c",
            "--out",
            "/tmp/x.png",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a TriPeaks step"));
}

/// The real window under Xvfb: the mouse plays a solution and the log says cleared.
#[cfg(target_os = "linux")]
#[test]
fn a_solution_clicked_with_the_mouse_on_the_window_clears_the_board() {
    use common::desktop::{log_events, wait_for, Desktop};
    use solitaire_agent::platform::window;
    let mut desktop = Desktop::start(1280, 800);
    desktop.enter();
    let log = std::env::temp_dir().join(format!("tripeaks-window-{}.jsonl", std::process::id()));
    let mut cmd = desktop.command(env!("CARGO_BIN_EXE_solitaire-agent"));
    cmd.args(["table", "--game", "tripeaks", "--seed", "2"])
        .args(["--size", "1000x640", "--animation-ms", "60"]);
    desktop.spawn_table(cmd, &log);
    let mut win = wait_for(20, "the TriPeaks window", || {
        window::find("TriPeaks Practice Table").ok()
    });
    win.refresh().unwrap();
    let l = Layout::new(win.width, win.height, 1.0, Theme::built_in().aspect());
    let steps = solution(2);
    let mut state = State::deal(&Deck::shuffled(2));
    for (i, step) in steps.iter().enumerate() {
        let target = match step {
            Step::Draw => Target::Stock,
            Step::Play(card) => Target::Tableau(
                state
                    .tableau()
                    .iter()
                    .position(|&c| c == Some(*card))
                    .unwrap() as u8,
            ),
        };
        let (x, y) = l.click_point(target).unwrap();
        desktop.click(win.x + x, win.y + y);
        state.apply(*step).unwrap();
        wait_for(10, &format!("step {} ({step}) in the log", i + 1), || {
            let events = log_events(&log);
            (events.iter().filter(|e| e["event"] == "move").count() > i).then_some(())
        });
        std::thread::sleep(std::time::Duration::from_millis(80));
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
