//! The agent plays Klondike in-process against the practice table: a Draw 1 deal learnt card by
//! card and then won by the solver's line through dropped clicks, lag and an interruption; a
//! Draw 3 deal where it must Undo back to turn every card up; a deal that cannot be won, given up
//! with the cards that never showed; a game in progress refused; `play --game klondike --sim`
//! from the command line; and under Xvfb, `play --window` on the real table window with templates
//! made on Pyramid's table. Every line is checked through the table's event log and replayed by
//! the rules, apart from the solver.

mod common;

use common::{count, Shown};
use solitaire_agent::agent::report::{Cards, Outcome, Report};
use solitaire_agent::agent::sim::SimView;
use solitaire_agent::cards::Deck;
use solitaire_agent::games::klondike::game::Klondike;
use solitaire_agent::games::klondike::rules::replay;
use solitaire_agent::games::klondike::solver::{solve, Budget};
use solitaire_agent::games::klondike::table::game::{seeded, Table, View};
use solitaire_agent::games::klondike::{Draw, KlondikeDeck};
use solitaire_agent::games::pyramid::vision::accuracy::calibrate_rendered_at;
use solitaire_agent::games::pyramid::vision::profile::Profile;
use solitaire_agent::table::harness::{Event, Faults};
use solitaire_agent::table::interrupt::Planned;
use solitaire_agent::table::render::Renderer;
use solitaire_agent::table::theme::Theme;
use solitaire_agent::vision::recognize::Matcher;

/// Plays a table in-process with templates calibrated on Pyramid's table in the same theme; the
/// report, the table's events and what the watcher was shown.
fn play_sim(
    table: Table,
    draw: Draw,
    theme: &str,
    size: (u32, u32),
) -> (Report, Vec<(u64, Event)>, Shown) {
    let mut r = Renderer::new(Theme::load(theme).unwrap());
    let set = calibrate_rendered_at(&mut r, &Deck::shuffled(1000), (1440, 900), 1.0).unwrap();
    let view = View::new(table, Renderer::new(Theme::load(theme).unwrap()), 1.0);
    let mut world = SimView::new(Box::new(view), size.0, size.1);
    let mut watch = Shown::default();
    let report = Klondike::with_draw(draw).play(
        &mut world,
        Cards::Templates(Matcher::new(&set)),
        Profile::practice_table(),
        &mut watch,
    );
    (report, world.events, watch)
}

/// The moves after the last Undo board.
fn last_line(events: &[(u64, Event)]) -> Vec<String> {
    let last = events
        .iter()
        .rposition(|(_, e)| *e == Event::UndoBoard)
        .expect("an Undo board");
    events[last..]
        .iter()
        .filter_map(|(_, e)| match e {
            Event::Move { step } => Some(step.clone()),
            _ => None,
        })
        .collect()
}

use solitaire_agent::games::Game;

#[test]
fn a_draw_one_deal_is_learnt_then_won_through_dropped_clicks_lag_and_an_interruption() {
    let faults = Faults {
        drop_click_rate: 0.1,
        lag_ms: (0, 200),
        seed: 3,
        interrupts: vec![Planned::parse("150:notice").unwrap()],
    };
    let table = seeded(4, Draw::One, 100, faults);
    let (report, events, shown) = play_sim(table, Draw::One, "anglo", (1440, 900));
    assert_eq!(report.result, Outcome::Cleared, "{}", report.reason);
    assert_eq!(report.dialogs, 1);
    assert_eq!(
        count(&events, |e| matches!(e, Event::Illegal { .. })),
        0,
        "{events:?}"
    );
    assert!(count(&events, |e| matches!(e, Event::Fault { .. })) > 0);
    assert_eq!(count(&events, |e| *e == Event::Cleared), 1);
    // After learning, back to the deal, then the solver's line, which the rules replay to a win.
    let deck = KlondikeDeck::shuffled(4);
    let line = last_line(&events);
    replay(&deck, Draw::One, &line).unwrap();
    assert_eq!(report.steps, line.len());
    assert_eq!(shown.plan, line);
    let answer = solve(&deck, Draw::One, Budget::default());
    assert!(line.len() as u32 >= answer.bound);
    // The first frame: 21 face-down cards and the stock as backs, the seven top cards by name.
    let first = &shown.marks[0];
    assert_eq!(first.iter().filter(|m| m.text == "back").count(), 22);
    let faces: Vec<String> = first
        .iter()
        .filter(|m| m.text != "back")
        .map(|m| m.text.clone())
        .collect();
    let tops: Vec<String> = (0..7).map(|i| deck.pile(i)[i].to_string()).collect();
    assert_eq!(faces, tops);
}

#[test]
fn a_draw_three_deal_needs_undo_back_to_turn_every_card_up() {
    let table = seeded(24, Draw::Three, 0, Faults::default());
    let (report, events, _) = play_sim(table, Draw::Three, "builtin", (1200, 760));
    assert_eq!(report.result, Outcome::Cleared, "{}", report.reason);
    assert!(report.replans > 0, "went back at least once");
    assert!(count(&events, |e| matches!(e, Event::Undo { .. })) > 0);
    assert_eq!(count(&events, |e| matches!(e, Event::Illegal { .. })), 0);
    let line = last_line(&events);
    replay(&KlondikeDeck::shuffled(24), Draw::Three, &line).unwrap();
}

#[test]
fn a_deal_that_cannot_be_won_is_given_up_with_the_cards_never_seen() {
    let deck = KlondikeDeck::shuffled(20);
    let answer = solve(&deck, Draw::Three, Budget::default());
    assert!(answer.decided && answer.steps.is_none(), "no line wins");
    let table = seeded(20, Draw::Three, 0, Faults::default());
    let (report, events, _) = play_sim(table, Draw::Three, "builtin", (1200, 760));
    assert_eq!(report.result, Outcome::NoSolution, "{}", report.reason);
    assert!(report.reason.contains("never showed"), "{}", report.reason);
    assert_eq!(count(&events, |e| matches!(e, Event::Illegal { .. })), 0);
    assert_eq!(count(&events, |e| *e == Event::Cleared), 0);
}

#[test]
fn a_game_in_progress_is_not_taken_for_a_deal() {
    let mut table = seeded(4, Draw::One, 0, Faults::default());
    for step in ["Draw", "Draw"] {
        table.play(step.parse().unwrap(), 0);
    }
    let (report, events, _) = play_sim(table, Draw::One, "builtin", (1200, 760));
    assert_eq!(report.result, Outcome::Stopped);
    assert!(report.reason.contains("fresh"), "{}", report.reason);
    assert_eq!(count(&events, |e| matches!(e, Event::Click { .. })), 0);
}

#[test]
fn play_from_the_command_line_wins_a_draw_three_deal() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_solitaire-agent"))
        .args([
            "play", "--game", "klondike", "--draw", "3", "--sim", "--seed", "5",
        ])
        .args(["--size", "1000x700", "--animation-ms", "0", "--json"])
        .env(
            "SOLITAIRE_AGENT_DATA",
            std::env::temp_dir().join("klondike-agent-cli"),
        )
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(report["result"], "cleared", "{report}");
    assert!(report["steps"].as_u64().unwrap() > 0);
}

/// The real window: `play --game klondike --window` with templates made on Pyramid's table.
#[cfg(target_os = "linux")]
#[test]
fn the_agent_wins_a_deal_on_the_real_window() {
    use common::desktop::{assert_clean_log, wait_for, Desktop};
    use solitaire_agent::platform::window;
    let dir = std::env::temp_dir().join(format!("klondike-agent-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let set = dir.join("templates");
    let mut r = Renderer::new(Theme::built_in());
    calibrate_rendered_at(&mut r, &Deck::shuffled(1000), (1440, 900), 1.0)
        .unwrap()
        .save(&set)
        .unwrap();
    let mut desktop = Desktop::start(1280, 800);
    desktop.enter();
    let log = dir.join("table.jsonl");
    let mut table = desktop.command(env!("CARGO_BIN_EXE_solitaire-agent"));
    table
        .args(["table", "--game", "klondike", "--draw", "3", "--seed", "5"])
        .args(["--size", "1100x720", "--animation-ms", "60"]);
    desktop.spawn_table(table, &log);
    wait_for(60, "the Klondike window", || {
        window::find("Klondike Practice Table").ok()
    });
    let out = desktop
        .command(env!("CARGO_BIN_EXE_solitaire-agent"))
        .args(["play", "--game", "klondike", "--draw", "3"])
        .args(["--window", "Klondike Practice Table", "--json"])
        .arg("--templates")
        .arg(&set)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let report: serde_json::Value = serde_json::from_str(stdout.trim())
        .unwrap_or_else(|_| panic!("{stdout} {}", String::from_utf8_lossy(&out.stderr)));
    assert_eq!(report["result"], "cleared", "{report}");
    let events = assert_clean_log(&log, &report, "klondike window");
    assert_eq!(events.iter().filter(|e| e["event"] == "cleared").count(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}
