//! The practice table's real window under Xvfb: a solution played through real mouse clicks (xdotool)
//! reaches "cleared" in the event log with no illegal move, and a capture of the window (xcap) is
//! pixel for pixel the headless renderer's picture of the same position.

// An X desktop (Xvfb, openbox, xdotool): Linux only. The Windows build is tested end to end
// under Wine by tests/windows_wine.rs (scripts/windows).
#![cfg(target_os = "linux")]

mod common;

use common::desktop::{log_events, wait_for, Desktop};
use solitaire_agent::cards::Deck;
use solitaire_agent::games::pyramid::solver;
use solitaire_agent::games::pyramid::table::game::clicks_for;
use solitaire_agent::games::pyramid::table::scene::{status_line, Scene};
use solitaire_agent::games::pyramid::State;
use solitaire_agent::platform::window::{self, FoundWindow};
use solitaire_agent::table::render::Renderer;
use solitaire_agent::table::theme::Theme;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

const TITLE: &str = "Pyramid Practice Table";

fn count(events: &[serde_json::Value], kind: &str) -> usize {
    events.iter().filter(|e| e["event"] == kind).count()
}

/// Captures until two captures in a row are equal (the picture is still).
fn still_capture(win: &FoundWindow) -> image::RgbaImage {
    let mut last = win.capture().unwrap();
    wait_for(10, "a still frame", || {
        std::thread::sleep(Duration::from_millis(60));
        let next = win.capture().unwrap();
        let same = next == last;
        last = next;
        same.then(|| last.clone())
    })
}

fn assert_same_picture(captured: &image::RgbaImage, rendered: &image::RgbaImage, what: &str) {
    assert_eq!(
        captured.dimensions(),
        rendered.dimensions(),
        "{what}: sizes differ"
    );
    let differing = captured
        .pixels()
        .zip(rendered.pixels())
        .filter(|(a, b)| a.0[..3] != b.0[..3])
        .count();
    if differing > 0 {
        let dir = std::env::temp_dir();
        let _ = captured.save(dir.join("table-captured.png"));
        let _ = rendered.save(dir.join("table-rendered.png"));
    }
    assert_eq!(
        differing, 0,
        "{what}: {differing} pixels differ (saved to the temp dir)"
    );
}

fn open_table(desktop: &mut Desktop, seed: u64, theme: &str, log: &PathBuf) -> FoundWindow {
    let mut cmd = desktop.command(env!("CARGO_BIN_EXE_solitaire-agent"));
    cmd.args(["table", "--seed", &seed.to_string(), "--theme", theme])
        .args(["--size", "900x640", "--animation-ms", "80", "--log"])
        .arg(log)
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    desktop.spawn(cmd);
    wait_for(20, "the table window", || window::find(TITLE).ok())
}

fn picture(
    renderer: &mut Renderer,
    win: &FoundWindow,
    seed: u64,
    state: &State,
    steps: usize,
) -> image::RgbaImage {
    let layout = renderer.layout(win.width, win.height, 1.0);
    let scene = Scene::still(state, None, status_line(&seed.to_string(), state, steps));
    renderer.render(&scene, &layout)
}

#[test]
fn a_solution_clicked_on_the_real_window_clears_the_board() {
    let mut desktop = Desktop::start(1280, 800);
    desktop.enter();
    // The first seeded deal with a solution of at most 40 steps.
    let (seed, steps) = (1..100u64)
        .find_map(|seed| {
            let steps = solver::solve(&State::deal(&Deck::shuffled(seed)))
                .unwrap()
                .steps?;
            (steps.len() <= 40).then_some((seed, steps))
        })
        .unwrap();
    let log = std::env::temp_dir().join(format!("table-window-{}.jsonl", std::process::id()));
    let mut win = open_table(&mut desktop, seed, "builtin", &log);
    win.refresh().unwrap();
    let mut renderer = Renderer::new(Theme::built_in());
    let mut state = State::deal(&Deck::shuffled(seed));
    assert_same_picture(
        &still_capture(&win),
        &picture(&mut renderer, &win, seed, &state, 0),
        "the deal",
    );

    let layout = renderer.layout(win.width, win.height, 1.0);
    for (i, step) in steps.iter().enumerate() {
        for target in clicks_for(&state, *step) {
            let (x, y) = layout.click_point(target).unwrap();
            desktop.click(win.x + x, win.y + y);
            std::thread::sleep(Duration::from_millis(40));
        }
        state.apply(*step).unwrap();
        wait_for(10, &format!("step {} ({step}) in the log", i + 1), || {
            (count(&log_events(&log), "move") > i).then_some(())
        });
        std::thread::sleep(Duration::from_millis(100));
    }
    let events = log_events(&log);
    let moves: Vec<String> = events
        .iter()
        .filter(|e| e["event"] == "move")
        .map(|e| e["step"].as_str().unwrap().to_string())
        .collect();
    let expected: Vec<String> = steps.iter().map(|s| s.to_string()).collect();
    assert_eq!(moves, expected);
    assert_eq!(count(&events, "illegal"), 0, "{events:?}");
    assert_eq!(count(&events, "cleared"), 1);
    assert!(events
        .iter()
        .all(|e| e["event"] != "click" || e["target"] != "none"));
    assert_same_picture(
        &still_capture(&win),
        &picture(&mut renderer, &win, seed, &state, steps.len()),
        "the cleared board",
    );
    let _ = std::fs::remove_file(&log);
}

#[test]
fn the_window_shows_the_renderers_pixels_with_card_art() {
    let themes = Theme::installed();
    assert!(
        !themes.is_empty(),
        "gnome-cards-data is not installed: run scripts/test"
    );
    let mut desktop = Desktop::start(1280, 800);
    desktop.enter();
    let log = std::env::temp_dir().join(format!("table-anglo-{}.jsonl", std::process::id()));
    let win = open_table(&mut desktop, 5, "anglo", &log);
    let mut renderer = Renderer::new(Theme::load("anglo").unwrap());
    let mut state = State::deal(&Deck::shuffled(5));
    assert_same_picture(
        &still_capture(&win),
        &picture(&mut renderer, &win, 5, &state, 0),
        "anglo deal",
    );
    // Draw once through the stock click, then compare again.
    let layout = renderer.layout(win.width, win.height, 1.0);
    let step = if state.stock_top().unwrap().is_king() {
        solitaire_agent::games::pyramid::Step::King(state.stock_top().unwrap())
    } else {
        solitaire_agent::games::pyramid::Step::Draw
    };
    let (x, y) = layout
        .click_point(solitaire_agent::games::pyramid::table::layout::Target::Stock)
        .unwrap();
    desktop.click(win.x + x, win.y + y);
    state.apply(step).unwrap();
    wait_for(10, "the move in the log", || {
        (count(&log_events(&log), "move") == 1).then_some(())
    });
    std::thread::sleep(Duration::from_millis(150));
    assert_same_picture(
        &still_capture(&win),
        &picture(&mut renderer, &win, 5, &state, 1),
        "anglo after a draw",
    );
    let _ = std::fs::remove_file(&log);
}
