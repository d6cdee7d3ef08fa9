//! The agent plays TriPeaks: in-process against the practice table (learning the stock and the
//! face-down cards, then the solution; a deal proved unwinnable; dropped clicks, lag and two
//! interruptions dismissed by their OK; a table that is not at a fresh deal refused), and under
//! Xvfb on the real window with templates calibrated on Pyramid's table (the same card art),
//! checked through the table's event log.

mod common;

use common::{count, Shown};
use solitaire_agent::agent::report::{Outcome, Report};
use solitaire_agent::agent::sim::SimView;
use solitaire_agent::cards::Deck;
use solitaire_agent::games::pyramid::vision::accuracy::calibrate_rendered_at;
use solitaire_agent::games::pyramid::vision::profile::Profile;
use solitaire_agent::games::tripeaks::table::game::{seeded, View};
use solitaire_agent::games::tripeaks::{solver, State, Step, TriPeaks};
use solitaire_agent::games::Game;
use solitaire_agent::table::harness::{Event, Faults};
use solitaire_agent::table::interrupt::Planned;
use solitaire_agent::table::render::Renderer;
use solitaire_agent::table::theme::Theme;
use solitaire_agent::vision::recognize::Matcher;
use solitaire_agent::vision::templates::Templates;

fn templates(theme: &str) -> Templates {
    let mut r = Renderer::new(Theme::load(theme).unwrap());
    calibrate_rendered_at(&mut r, &Deck::shuffled(1000), (1440, 900), 1.0).unwrap()
}

/// Plays a table in-process; the report, the table's events and what the watcher was shown.
fn play_sim(
    table: solitaire_agent::games::tripeaks::table::game::Table,
    theme: &str,
    size: (u32, u32),
) -> (Report, Vec<(u64, Event)>, Shown) {
    let view = View::new(table, Renderer::new(Theme::load(theme).unwrap()), 1.0);
    let mut world = SimView::new(Box::new(view), size.0, size.1);
    let cards = solitaire_agent::agent::report::Cards::Templates(Matcher::new(&templates(theme)));
    let mut watch = Shown::default();
    let report = TriPeaks.play(&mut world, cards, Profile::practice_table(), &mut watch);
    (report, world.events, watch)
}

#[test]
fn a_deal_is_learnt_then_cleared_through_dropped_clicks_lag_and_interruptions() {
    let faults = Faults {
        drop_click_rate: 0.15,
        lag_ms: (0, 300),
        seed: 7,
        interrupts: vec![
            Planned::parse("30:notice").unwrap(),
            Planned::parse("45:no-moves").unwrap(),
        ],
    };
    let (report, events, shown) = play_sim(seeded(4, 150, faults), "anglo", (1440, 900));
    assert_eq!(report.result, Outcome::Cleared, "{}", report.reason);
    // Both interruptions dismissed by their OK (nothing clicked under them: no illegal click).
    assert_eq!(report.dialogs, 2);
    assert_eq!(
        count(
            &events,
            |e| matches!(e, Event::Dismiss { button, .. } if button == "ok")
        ),
        2
    );
    assert_eq!(
        count(&events, |e| matches!(e, Event::Illegal { .. })),
        0,
        "{events:?}"
    );
    assert_eq!(count(&events, |e| *e == Event::Cleared), 1);
    // The stock drawn out, then each pass back to the deal by Undo board.
    assert!(count(&events, |e| *e == Event::UndoBoard) >= 2);
    assert!(
        count(&events, |e| matches!(e, Event::Fault { .. })) > 0,
        "faults were injected"
    );
    // The moves after the last Undo board are an optimal solution of the deal.
    let last = events
        .iter()
        .rposition(|(_, e)| *e == Event::UndoBoard)
        .unwrap();
    let played: Vec<Step> = events[last..]
        .iter()
        .filter_map(|(_, e)| match e {
            Event::Move { step } => Some(step.parse().unwrap()),
            _ => None,
        })
        .collect();
    let deal = State::deal(&Deck::shuffled(4));
    let optimal = solver::solve(&deal).steps.unwrap();
    assert_eq!(played.len(), optimal.len());
    assert_eq!(report.steps, played.len());
    // The watcher saw the plan that was played, and each frame read: the fresh deal first, with
    // its 18 face-down tableau cards and the stock as backs and the 10 bottom cards and the
    // waste's card by name.
    let names: Vec<String> = played.iter().map(|s| s.to_string()).collect();
    assert_eq!(shown.plan, names);
    let deck = Deck::shuffled(4);
    let first = &shown.marks[0];
    assert_eq!(
        first.iter().filter(|m| m.text == "back").count(),
        19,
        "{first:?}"
    );
    let faces: Vec<&str> = first
        .iter()
        .map(|m| m.text.as_str())
        .filter(|t| *t != "back")
        .collect();
    let want: Vec<String> = deck.0[18..29].iter().map(|c| c.to_string()).collect();
    assert_eq!(faces, want);
    assert!(shown.marks.len() > played.len());
    let mut state = deal;
    state.replay(&played).unwrap();
    assert!(state.is_cleared());
}

#[test]
fn an_unwinnable_deal_is_proved_so_after_learning_it() {
    // Seed 28 has no solution (the solver, with every card known, says so).
    assert!(solver::solve(&State::deal(&Deck::shuffled(28)))
        .steps
        .is_none());
    let (report, events, _) = play_sim(seeded(28, 0, Faults::default()), "builtin", (1200, 760));
    assert_eq!(report.result, Outcome::NoSolution, "{}", report.reason);
    assert_eq!(count(&events, |e| matches!(e, Event::Illegal { .. })), 0);
    assert_eq!(count(&events, |e| *e == Event::Cleared), 0);
}

#[test]
fn a_game_in_progress_is_not_taken_for_a_deal() {
    let mut table = seeded(2, 0, Faults::default());
    let line = solver::solve(&State::deal(&Deck::shuffled(2)))
        .steps
        .unwrap();
    for step in &line[..6] {
        table.play(*step, 0);
    }
    let (report, events, _) = play_sim(table, "builtin", (1200, 760));
    assert_eq!(report.result, Outcome::Stopped);
    assert!(report.reason.contains("fresh"), "{}", report.reason);
    assert_eq!(
        count(&events, |e| matches!(e, Event::Click { .. })),
        0,
        "nothing clicked"
    );
}

/// The real window: `play --game tripeaks --window` with templates made on Pyramid's table.
#[cfg(target_os = "linux")]
#[test]
fn the_agent_clears_a_deal_on_the_real_window() {
    use common::desktop::{assert_clean_log, wait_for, Desktop};
    use solitaire_agent::platform::window;
    let dir = std::env::temp_dir().join(format!("tripeaks-agent-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let set = dir.join("templates");
    templates("builtin").save(&set).unwrap();
    let mut desktop = Desktop::start(1280, 800);
    desktop.enter();
    let log = dir.join("table.jsonl");
    let mut table = desktop.command(env!("CARGO_BIN_EXE_solitaire-agent"));
    table
        .args([
            "table", "--game", "tripeaks", "--seed", "3", "--size", "1100x700",
        ])
        .args([
            "--animation-ms",
            "100",
            "--drop-click-rate",
            "0.1",
            "--fault-seed",
            "5",
        ]);
    desktop.spawn_table(table, &log);
    wait_for(60, "the TriPeaks window", || {
        window::find("TriPeaks Practice Table").ok()
    });
    let out = desktop
        .command(env!("CARGO_BIN_EXE_solitaire-agent"))
        .args([
            "play",
            "--game",
            "tripeaks",
            "--window",
            "TriPeaks Practice Table",
        ])
        .arg("--templates")
        .arg(&set)
        .arg("--json")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let report: serde_json::Value = serde_json::from_str(stdout.trim())
        .unwrap_or_else(|_| panic!("{stdout} {}", String::from_utf8_lossy(&out.stderr)));
    assert_eq!(report["result"], "cleared", "{report}");
    let events = assert_clean_log(&log, &report, "tripeaks window");
    assert_eq!(events.iter().filter(|e| e["event"] == "cleared").count(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}
