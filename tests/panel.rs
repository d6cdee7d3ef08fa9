//! The control panel: its shared state filled by the agent playing the practice table in-process
//! (no display), Klondike's with the cards the panel learns from the table it opened; Stop obeyed
//! at once; and under Xvfb, `panel --open-table` opens the panel with the practice table beside
//! it, Klondike's with the draw chosen.

// An X desktop (Xvfb, openbox, xdotool): Linux only. The Windows build is tested end to end
// under Wine by tests/windows_wine.rs (scripts/windows).
#![cfg(target_os = "linux")]

mod common;

use common::desktop::{wait_for, Desktop};
use common::pyramid_sim;
use solitaire_agent::agent::hands::Options;
use solitaire_agent::agent::report::{Cards, Outcome, Report};
use solitaire_agent::agent::sim::SimView;
use solitaire_agent::cli::play::sim_templates;
use solitaire_agent::games::pyramid::agent::play;
use solitaire_agent::games::pyramid::table::game::Table;
use solitaire_agent::games::pyramid::vision::profile::Profile;
use solitaire_agent::panel::shared::{PanelWatch, Shared, Switches};
use solitaire_agent::platform::window;
use solitaire_agent::table::harness::Faults;
use solitaire_agent::table::render::Renderer;
use solitaire_agent::table::theme::Theme;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};

fn sim(seed: u64) -> SimView {
    let table = Table::seeded(seed, 300, Faults::default());
    pyramid_sim(table, Renderer::new(Theme::built_in()), 1200, 760, 1.0)
}

/// Plays deal 2 in-process while the panel's watcher records it.
fn play_watched(shared: Arc<Mutex<Shared>>, switches: Arc<Switches>) -> Report {
    let mut watch = PanelWatch {
        shared,
        switches,
        wake: Box::new(|| {}),
    };
    let matcher = sim_templates(Renderer::new(Theme::built_in()), (1200, 760), 1.0).unwrap();
    let mut game = sim(2);
    play(
        &mut game,
        Profile::practice_table(),
        Cards::Templates(matcher),
        Options::default(),
        &mut watch,
    )
}

#[test]
fn the_panel_state_follows_the_game() {
    let shared = Arc::new(Mutex::new(Shared::default()));
    let report = play_watched(shared.clone(), Arc::new(Switches::default()));
    assert_eq!(report.result, Outcome::Cleared, "{}", report.reason);
    let s = shared.lock().unwrap();
    assert_eq!(s.plan.len(), report.steps);
    assert_eq!(s.done, report.steps);
    assert!(s.frame.is_some() && s.frame_version > 24);
    assert!(s.log.iter().any(|l| l.contains("solved")), "{:?}", s.log);
    // The last reading marks what is on the table: the stock and waste cards that are left.
    assert!(s.marks.iter().all(|m| m.text != "?"));
}

/// Klondike from the panel: the cards learnt from the built-in art the panel's table draws, the
/// deal learnt and won, and the panel's state following it (the plan played to its end, the last
/// reading marked).
#[test]
fn klondike_from_the_panel_state_follows_the_game() {
    use solitaire_agent::games::klondike::game::DRAW_THREE;
    use solitaire_agent::games::klondike::table::game::{seeded, View};
    use solitaire_agent::games::klondike::Draw;
    use solitaire_agent::games::Game;
    let shared = Arc::new(Mutex::new(Shared::default()));
    let mut watch = PanelWatch {
        shared: shared.clone(),
        switches: Arc::new(Switches::default()),
        wake: Box::new(|| {}),
    };
    let cards = solitaire_agent::panel::app::table_art(&DRAW_THREE, &mut watch).unwrap();
    let table = seeded(5, Draw::Three, 100, Faults::default());
    let view = View::new(table, Renderer::new(Theme::built_in()), 1.0);
    let mut world = SimView::new(Box::new(view), 1200, 760);
    let report = DRAW_THREE.play(&mut world, cards, Profile::practice_table(), &mut watch);
    assert_eq!(report.result, Outcome::Cleared, "{}", report.reason);
    let s = shared.lock().unwrap();
    assert!(!s.plan.is_empty());
    assert_eq!(s.done, s.plan.len());
    assert!(s.frame.is_some());
    assert!(!s.marks.is_empty() && s.marks.iter().all(|m| m.text != "?"));
    assert!(
        s.log.iter().any(|l| l.contains("built-in cards")),
        "{:?}",
        s.log
    );
}

#[test]
fn stop_ends_play_before_the_next_click() {
    let shared = Arc::new(Mutex::new(Shared::default()));
    let switches = Arc::new(Switches::default());
    switches.stop.store(true, Ordering::Relaxed);
    let report = play_watched(shared, switches);
    assert_eq!(report.result, Outcome::Stopped);
    assert_eq!(report.clicks, 0);
    assert!(
        report.reason.contains("stopped by the user"),
        "{}",
        report.reason
    );
}

/// Guided calibration through the panel's shared state: the agent offers the grouped cards, a
/// user (another thread, as the panel's clicks would) swaps what is misplaced, picks the 13 ranks
/// and 4 suits and presses Done; the agent then plays the deal to the end.
#[test]
fn guided_calibration_waits_for_the_labels_given_in_the_panel() {
    let shared = Arc::new(Mutex::new(Shared::default()));
    let switches = Arc::new(Switches::default());
    let user_view = shared.clone();
    let truth = solitaire_agent::cards::Deck::shuffled(2).cards().to_vec();
    let user = std::thread::spawn(move || loop {
        std::thread::sleep(std::time::Duration::from_millis(20));
        let mut s = user_view.lock().unwrap();
        let Some(l) = s.labelling.as_mut() else {
            continue;
        };
        let a = common::answers(&l.groups.ranks, &truth);
        // Every row and column comes with its label proposed (this theme's faces are known),
        // shown as proposals until changed.
        assert!(l.proposed.is_some(), "labels proposed");
        if a.swaps.is_empty() {
            let ranks: Vec<_> = a.ranks.iter().map(|r| Some(*r)).collect();
            let suits: Vec<_> = a.suits.iter().map(|s| Some(*s)).collect();
            assert_eq!((&l.ranks, &l.suits), (&ranks, &suits));
            assert!((0..13).all(|r| l.rank_proposed(r)) && (0..4).all(|k| l.suit_proposed(k)));
        }
        l.ranks[0] = None;
        assert!(
            l.cards().unwrap_err().contains("1 rows"),
            "a row without its rank"
        );
        assert!(!l.rank_proposed(0));
        for (x, y) in &a.swaps {
            l.click(*x);
            l.click(*y);
        }
        // A click on a card and again on it lets it go: nothing moves.
        let before = l.groups.clone();
        l.click((0, 0));
        l.click((0, 0));
        assert_eq!(l.groups, before);
        l.ranks = a.ranks.iter().map(|r| Some(*r)).collect();
        l.suits = a.suits.iter().map(|s| Some(*s)).collect();
        l.answer = Some(l.cards());
        return a.swaps.len();
    });
    let mut watch = PanelWatch {
        shared: shared.clone(),
        switches,
        wake: Box::new(|| {}),
    };
    let mut game = sim(2);
    let report = play(
        &mut game,
        Profile::practice_table(),
        Cards::CalibrateGuided(None),
        Options::default(),
        &mut watch,
    );
    assert_eq!(report.result, Outcome::Cleared, "{}", report.reason);
    assert_eq!(user.join().unwrap(), 0, "no card needed moving");
    assert!(shared.lock().unwrap().labelling.is_none());
}

#[test]
fn stop_while_labelling_ends_play() {
    let shared = Arc::new(Mutex::new(Shared::default()));
    let switches = Arc::new(Switches::default());
    let (view, stop) = (shared.clone(), switches.clone());
    std::thread::spawn(move || loop {
        std::thread::sleep(std::time::Duration::from_millis(20));
        if view.lock().unwrap().labelling.is_some() {
            stop.stop.store(true, Ordering::Relaxed);
            return;
        }
    });
    let mut watch = PanelWatch {
        shared,
        switches,
        wake: Box::new(|| {}),
    };
    let report = play(
        &mut sim(2),
        Profile::practice_table(),
        Cards::CalibrateGuided(None),
        Options::default(),
        &mut watch,
    );
    assert_eq!(report.result, Outcome::Stopped);
    assert!(
        report.reason.contains("stopped by the user"),
        "{}",
        report.reason
    );
}

/// A data folder of the test's own for a panel run (its remembered choices start from nothing).
fn fresh_data(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("sa-panel-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Starts `solitaire-agent ARGS` on the desktop, with a data folder of its own (named by `tag`)
/// and its output dropped.
fn spawn_agent(desktop: &mut Desktop, tag: &str, args: &[&str]) {
    let mut cmd = desktop.command(env!("CARGO_BIN_EXE_solitaire-agent"));
    cmd.env("SOLITAIRE_AGENT_DATA", fresh_data(tag))
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    desktop.spawn(cmd);
}

fn panel_window() -> Option<window::FoundWindow> {
    window::find("solitaire-agent")
        .ok()
        .filter(|w| w.title == "solitaire-agent")
}

#[test]
fn panel_draws_and_opens_the_practice_table() {
    {
        let mut desktop = Desktop::start(1280, 800);
        desktop.enter();
        spawn_agent(&mut desktop, "run1", &[]);
        let panel = wait_for(20, "the panel window", panel_window);
        assert!(panel.width >= 640 && panel.height >= 420);
        // It draws something: not a black or blank window.
        wait_for(10, "a drawn panel", || {
            let img = panel_window()?.capture().ok()?;
            let first = *img.get_pixel(0, 0);
            img.pixels().any(|p| *p != first).then_some(())
        });
        assert!(
            window::find("Pyramid Practice Table").is_err(),
            "no table unless asked"
        );
    }
    let mut desktop = Desktop::start(1280, 800);
    desktop.enter();
    spawn_agent(&mut desktop, "run2", &["panel", "--open-table"]);
    wait_for(20, "the panel window", panel_window);
    let table = wait_for(20, "the practice table", || {
        window::find("Pyramid Practice Table").ok()
    });
    // Beside the panel, not under it: the agent never clicks where another window lies.
    let panel = wait_for(10, "the panel moved beside the table", || {
        let p = panel_window()?;
        (p.x >= table.x + table.width as i32).then_some(p)
    });
    assert!(
        panel.x + panel.width as i32 <= 1280 + 8,
        "{} {}",
        panel.x,
        panel.width
    );
}

#[test]
fn panel_opens_the_practice_table_of_the_game_chosen() {
    let mut desktop = Desktop::start(1280, 800);
    desktop.enter();
    spawn_agent(
        &mut desktop,
        "run3",
        &["panel", "--game", "tripeaks", "--open-table"],
    );
    wait_for(20, "the panel window", panel_window);
    wait_for(20, "the TriPeaks practice table", || {
        window::find("TriPeaks Practice Table").ok()
    });
    assert!(window::find("Pyramid Practice Table").is_err());
    drop(desktop);

    // Klondike with Draw 3: its table is opened with that draw.
    let mut desktop = Desktop::start(1280, 800);
    desktop.enter();
    spawn_agent(
        &mut desktop,
        "run4",
        &["panel", "--game", "klondike", "--draw", "3", "--open-table"],
    );
    wait_for(20, "the panel window", panel_window);
    wait_for(20, "the Klondike practice table", || {
        window::find("Klondike Practice Table").ok()
    });
    let tables = table_commands();
    assert!(
        tables
            .iter()
            .any(|args| args.windows(2).any(|w| w == ["--draw", "3"])
                && args.windows(2).any(|w| w == ["--game", "klondike"])),
        "{tables:?}"
    );
}

/// The command lines of the `table` processes running.
fn table_commands() -> Vec<Vec<String>> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.flatten()
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .map(|raw| {
            raw.split(|&b| b == 0)
                .map(|a| String::from_utf8_lossy(a).into_owned())
                .collect::<Vec<_>>()
        })
        .filter(|args| args.iter().any(|a| a == "table"))
        .collect()
}
