//! End to end under Xvfb: the practice table in a real window, and `solitaire-agent play --window`
//! capturing it with xcap and clicking with enigo. It calibrates once from a first deal on screen
//! (saving the templates), then plays more seeded deals with them (with anglo cards a solvable one,
//! with the built-in cards one that is not and the trouble deals below): learn the stock, Undo
//! board, solve, play. The table's own event log must show solvable deals cleared, no illegal move,
//! no click off a target, and exactly the clicks the agent reports; with the built-in cards and
//! with anglo cards (1920×1080, display scale 1.5); and in MSC's look (`table --look msc`), where
//! the agent finds the `msc` profile by itself, a calibration deal, one with no solution, and one
//! with two of MSC's interruptions raised over it (`table --interrupt`), each dismissed by its OK.
//!
//! Then trouble, on four more deals: dropped clicks and lag with the window moved twice mid-game
//! (cleared), another window dragged over the table for 3 s (the agent waits, clicks nothing into
//! it, and clears the deal), Esc pressed and the mouse taken (stopped at once, with the reason).

// An X desktop (Xvfb, openbox, xdotool): Linux only. The Windows build is tested end to end
// under Wine by tests/windows_wine.rs (scripts/windows).
#![cfg(target_os = "linux")]

mod common;

use common::desktop::{assert_clean_log, log_events, wait_for, Desktop};
use solitaire_agent::platform::cover::Stacking;
use solitaire_agent::platform::window;
use std::path::{Path, PathBuf};
use std::process::Stdio;

/// A table window: theme, size, display scale, the table's look.
struct Look {
    theme: &'static str,
    size: &'static str,
    scale: &'static str,
    screen: (u32, u32),
    table_look: &'static str,
}

fn open_table(desktop: &mut Desktop, look: &Look, seed: u64, log: &Path, extra: &[&str]) -> u32 {
    let agent = env!("CARGO_BIN_EXE_solitaire-agent");
    let mut table = desktop.command(agent);
    table
        .args(["table", "--seed", &seed.to_string(), "--theme", look.theme])
        .args(extra)
        .args([
            "--size",
            look.size,
            "--scale",
            look.scale,
            "--animation-ms",
            "150",
            "--look",
            look.table_look,
        ]);
    let child = desktop.spawn_table(table, log);
    let pid = child.id();
    // Up to a minute on a loaded machine; a table that exits, or never shows, is reported with
    // what it printed and the windows there are.
    let start = std::time::Instant::now();
    while window::find("Pyramid Practice Table").is_err() {
        let said = || std::fs::read_to_string(log.with_extension("stderr")).unwrap_or_default();
        if let Ok(Some(status)) = child.try_wait() {
            panic!(
                "the table exited ({status}) before its window showed: {}",
                said()
            );
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(60),
            "no table window after 60 s; windows: {:?}; the table printed: {}",
            window::titles(),
            said()
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    // In the screen's top-left corner, wherever the window manager put it, and painted.
    let id = desktop.xdotool(&["search", "--name", "^Pyramid Practice Table$"]);
    desktop.xdotool(&["windowmove", &id, "0", "0"]);
    let mut last = String::from("no capture");
    let painted = (0..1200).any(|_| {
        let seen = window::find("Pyramid Practice Table").and_then(|w| {
            let image = w.capture()?;
            let dark = image
                .pixels()
                .filter(|p| p[0] < 8 && p[1] < 8 && p[2] < 8)
                .count();
            last = format!(
                "window at {},{} {}x{}, {dark} of {} pixels black",
                w.x,
                w.y,
                w.width,
                w.height,
                image.pixels().len()
            );
            Ok(dark * 10 < image.pixels().len())
        });
        if let Err(e) = &seen {
            last = e.clone();
        }
        let done = seen.unwrap_or(false);
        if !done {
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        done
    });
    assert!(painted, "the table was not painted within a minute: {last}");
    std::thread::sleep(std::time::Duration::from_millis(300));
    pid
}

fn close_table(pid: u32) {
    let _ = std::process::Command::new("kill")
        .arg(pid.to_string())
        .status();
    wait_for(10, "the table to close", || {
        window::find("Pyramid Practice Table")
            .is_err()
            .then_some(())
    });
}

/// Runs `play --window` with extra arguments; returns its JSON report.
fn play(desktop: &Desktop, extra: &[&str]) -> serde_json::Value {
    play_meanwhile(desktop, extra, |_| {})
}

/// Runs `play --window` with extra arguments and `meanwhile` on this thread while it plays;
/// returns its JSON report.
fn play_meanwhile(
    desktop: &Desktop,
    extra: &[&str],
    meanwhile: impl FnOnce(&mut dyn FnMut() -> bool),
) -> serde_json::Value {
    let mut child = desktop
        .command(env!("CARGO_BIN_EXE_solitaire-agent"))
        .args(["play", "--window", "Pyramid Practice Table", "--json"])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    meanwhile(&mut || child.try_wait().is_ok_and(|status| status.is_none()));
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let report: serde_json::Value = serde_json::from_str(stdout.trim())
        .unwrap_or_else(|_| panic!("no report: {stdout} {stderr}"));
    if report["result"] == "stopped" {
        show_game_log(&stderr);
    }
    report
}

/// Prints the end of the game log the agent named on stderr, so that a stop in CI says what led
/// to it.
fn show_game_log(stderr: &str) {
    let Some(path) = stderr.lines().find_map(|l| l.strip_prefix("game log: ")) else {
        eprintln!("no game log named: {stderr}");
        return;
    };
    let text = std::fs::read_to_string(path.trim()).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    eprintln!("the game log's last lines ({}):", path.trim());
    for line in &lines[lines.len().saturating_sub(40)..] {
        eprintln!("  {line}");
    }
}

/// Checks one deal's table log against the agent's report: never an illegal move, never a click off
/// a target, every click the agent made reached the table; cleared when solvable, else no_solution,
/// or stopped safely with a reason. Returns whether the deal was cleared.
fn check_log(log: &Path, report: &serde_json::Value, solvable: bool, what: &str) -> bool {
    let log = assert_clean_log(log, report, what);
    let count = |kind: &str| log.iter().filter(|e| e["event"] == kind).count();
    match report["result"].as_str().unwrap() {
        "cleared" => {
            assert!(solvable, "{what}");
            assert_eq!(count("cleared"), 1, "{what}");
            assert_eq!(count("undo_board"), 1, "{what}");
            assert_eq!(
                count("move") as u64 - 24,
                report["steps"].as_u64().unwrap(),
                "{what}: 24 reveal draws, then the plan"
            );
            true
        }
        "no_solution" => {
            assert!(!solvable, "{what}");
            assert_eq!(count("cleared"), 0, "{what}");
            false
        }
        "stopped" => {
            assert!(
                !report["reason"].as_str().unwrap().is_empty(),
                "{what}: stopped without a reason"
            );
            eprintln!("{what}: stopped safely: {}", report["reason"]);
            false
        }
        other => panic!("{what}: unknown result {other}"),
    }
}

fn solvable(seed: u64) -> bool {
    let deck = solitaire_agent::cards::Deck::shuffled(seed);
    solitaire_agent::games::pyramid::solver::solve(&solitaire_agent::games::pyramid::State::deal(
        &deck,
    ))
    .unwrap()
    .steps
    .is_some()
}

/// Calibrates on a first deal (saving the templates), then plays each of `seeds` on a fresh table,
/// then runs `more` with the desktop and the templates. Returns how many of the deals were cleared.
fn calibrate_then_play(
    look: &Look,
    first: u64,
    seeds: &[u64],
    more: impl FnOnce(&mut Desktop, &PathBuf, &PathBuf),
) -> usize {
    let theme = look.theme;
    let mut desktop = Desktop::start(look.screen.0, look.screen.1);
    desktop.enter();
    let dir = std::env::temp_dir().join(format!("agent-window-{}-{theme}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let templates = dir.join("templates");
    let deck = dir.join("deck.txt");
    let out = desktop
        .command(env!("CARGO_BIN_EXE_solitaire-agent"))
        .args(["deal", "--seed", &first.to_string()])
        .output()
        .unwrap();
    std::fs::write(&deck, &out.stdout).unwrap();
    let log = dir.join("first.jsonl");
    let pid = open_table(&mut desktop, look, first, &log, &[]);
    let report = play(
        &desktop,
        &[
            "--calibrate-deck",
            deck.to_str().unwrap(),
            "--templates",
            templates.to_str().unwrap(),
        ],
    );
    // No profile given: `auto` must find the one of the table's look.
    let profile = match look.table_look {
        "msc" => "msc",
        _ => "practice-table",
    };
    assert_eq!(report["profile"], profile, "{theme}: {report}");
    let mut cleared = check_log(
        &log,
        &report,
        solvable(first),
        &format!("{theme} calibration deal {first}"),
    ) as usize;
    close_table(pid);
    assert!(
        templates.join("manifest.json").is_file(),
        "the templates were saved"
    );
    for &seed in seeds {
        let log = dir.join(format!("deal-{seed}.jsonl"));
        let pid = open_table(&mut desktop, look, seed, &log, &[]);
        let report = play(&desktop, &["--templates", templates.to_str().unwrap()]);
        assert_eq!(report["profile"], profile, "{theme} deal {seed}: {report}");
        cleared += check_log(
            &log,
            &report,
            solvable(seed),
            &format!("{theme} deal {seed}"),
        ) as usize;
        close_table(pid);
    }
    more(&mut desktop, &dir, &templates);
    let _ = std::fs::remove_dir_all(&dir);
    cleared
}

/// The number of clicks in a table's log so far.
fn clicks_logged(log: &Path) -> usize {
    log_events(log)
        .iter()
        .filter(|e| e["event"] == "click")
        .count()
}

/// Waits until the table's log shows `n` clicks (the agent is playing its plan after 26: 24 reveal
/// draws, Undo board and OK). False when the agent stopped before.
fn wait_for_clicks(log: &Path, n: usize, playing: &mut dyn FnMut() -> bool) -> bool {
    wait_for(120, &format!("{n} clicks in {}", log.display()), || {
        if clicks_logged(log) >= n {
            Some(true)
        } else {
            (!playing()).then_some(false)
        }
    })
}

/// One deal with something done to it while the agent plays: the table opened with `table_args`,
/// `meanwhile` run once the agent is well into its plan. Checks the log as every deal is checked
/// (no illegal move, no click off a target or lost); returns the report.
fn deal_with_trouble(
    desktop: &mut Desktop,
    look: &Look,
    (dir, templates): (&Path, &Path),
    seed: u64,
    what: &str,
    table_args: &[&str],
    meanwhile: impl FnOnce(&Desktop, &PathBuf, &mut dyn FnMut() -> bool),
) -> (serde_json::Value, Vec<serde_json::Value>) {
    let log = dir.join(format!("trouble-{seed}.jsonl"));
    let pid = open_table(desktop, look, seed, &log, table_args);
    let report = play_meanwhile(
        desktop,
        &["--templates", templates.to_str().unwrap()],
        |playing| meanwhile(desktop, &log, playing),
    );
    check_log(
        &log,
        &report,
        solvable(seed),
        &format!("{what}, deal {seed}"),
    );
    eprintln!("{what}, deal {seed}: {report}");
    close_table(pid);
    (report, log_events(&log))
}

/// Moves the window `panel` over the whole table window and raises it, again until the table is on
/// top at none of a few points across it in two checks 200 ms apart: openbox raises a window that
/// is clicked, so a click the agent made just before the panel came over the table (rightly, the
/// table was on top then) can put the table back over the panel.
fn cover_table(d: &Desktop, panel: &str) {
    let mut stacking = Stacking::open().unwrap();
    let mut table_shows = || {
        let table = window::find("Pyramid Practice Table").unwrap();
        let id = table.id().unwrap();
        let (x, y, w, h) = (table.x, table.y, table.width as i32, table.height as i32);
        [(1, 1), (1, 3), (3, 1), (3, 3), (2, 2)]
            .iter()
            .any(|&(i, j)| stacking.on_top(id, x + w * i / 4, y + h * j / 4).unwrap())
    };
    let mut covered = 0;
    for _ in 0..50 {
        if table_shows() {
            covered = 0;
            d.xdotool(&["windowsize", panel, "1440", "960"]);
            d.xdotool(&["windowmove", panel, "0", "0"]);
            d.xdotool(&["windowraise", panel]);
        } else {
            covered += 1;
            if covered == 2 {
                return;
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    panic!("the panel window would not stay over the table");
}

/// Faults and a user taking over, on the real window with the calibrated templates.
fn trouble(desktop: &mut Desktop, look: &Look, dir: &Path, templates: &Path) {
    let faulty = [
        "--drop-click-rate",
        "0.15",
        "--lag-ms",
        "50-400",
        "--fault-seed",
        "3",
    ];
    // Dropped clicks and lag, and the window moved twice mid-game: the agent follows it.
    let (report, log) = deal_with_trouble(
        desktop,
        look,
        (dir, templates),
        12,
        "faults and a moved window",
        &faulty,
        |d, log, playing| {
            let id = d.xdotool(&["search", "--name", "^Pyramid Practice Table$"]);
            if !wait_for_clicks(log, 34, playing) {
                return;
            }
            d.xdotool(&["windowmove", &id, "180", "140"]);
            if !wait_for_clicks(log, 44, playing) {
                return;
            }
            d.xdotool(&["windowmove", &id, "60", "30"]);
        },
    );
    // Every fault kind was injected, and the agent still cleared the deal on a moved window.
    for kind in ["drop_click", "lag"] {
        assert!(log.iter().any(|e| e["kind"] == kind), "no {kind} fault");
    }
    assert_eq!(report["result"], "cleared", "{report}");
    // Another window dragged over the table mid-game, then away: the agent must not click into it.
    let mut panel = desktop.command(env!("CARGO_BIN_EXE_solitaire-agent"));
    panel
        .arg("panel")
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    desktop.spawn(panel);
    let panel = wait_for(20, "the panel window", || {
        let out = desktop
            .command("xdotool")
            .args(["search", "--name", "^solitaire-agent$"])
            .output()
            .ok()?;
        let id = String::from_utf8_lossy(&out.stdout)
            .lines()
            .next()?
            .trim()
            .to_string();
        (!id.is_empty()).then_some(id)
    });
    desktop.xdotool(&["windowmove", &panel, "1250", "850"]);
    let (report, log) = deal_with_trouble(
        desktop,
        look,
        (dir, templates),
        13,
        "a window over the table",
        &[],
        |d, log, playing| {
            if !wait_for_clicks(log, 34, playing) {
                return;
            }
            cover_table(d, &panel);
            std::thread::sleep(std::time::Duration::from_secs(3));
            d.xdotool(&["windowmove", &panel, "1250", "850"]);
        },
    );
    // The agent waited for the window to go away (check_log: it clicked nothing into it), then
    // finished the deal.
    assert_eq!(report["result"], "cleared", "{report}");
    let times: Vec<u64> = log
        .iter()
        .filter(|e| e["event"] == "click")
        .map(|e| e["t_ms"].as_u64().unwrap())
        .collect();
    let longest = times.windows(2).map(|w| w[1] - w[0]).max().unwrap_or(0);
    assert!(longest >= 2500, "no pause while covered: {longest} ms");
    // The user presses Esc: the agent stops at once, with that reason, and clicks no more.
    let (report, log) = deal_with_trouble(
        desktop,
        look,
        (dir, templates),
        14,
        "Esc pressed",
        &[],
        |d, log, playing| {
            if !wait_for_clicks(log, 30, playing) {
                return;
            }
            d.xdotool(&["keydown", "Escape"]);
            std::thread::sleep(std::time::Duration::from_millis(150));
            d.xdotool(&["keyup", "Escape"]);
        },
    );
    assert_eq!(report["result"], "stopped", "{report}");
    assert_eq!(report["reason"], "Esc was pressed", "{report}");
    assert!(log.iter().all(|e| e["event"] != "cleared"));
    assert!(
        report["clicks"].as_u64().unwrap() <= 31,
        "stopped at once: {report}"
    );
    // The user takes the mouse: the same.
    let (report, log) = deal_with_trouble(
        desktop,
        look,
        (dir, templates),
        15,
        "the mouse taken",
        &[],
        |d, log, playing| {
            if !wait_for_clicks(log, 30, playing) {
                return;
            }
            d.xdotool(&["mousemove", "5", "5"]);
        },
    );
    assert_eq!(report["result"], "stopped", "{report}");
    assert_eq!(
        report["reason"], "the mouse was moved by someone else",
        "{report}"
    );
    assert!(log.iter().all(|e| e["event"] != "cleared"));
    assert!(
        report["clicks"].as_u64().unwrap() <= 31,
        "stopped at once: {report}"
    );
}

#[test]
fn the_agent_calibrates_once_then_plays_deals_with_the_built_in_cards_then_copes_with_trouble() {
    let look = Look {
        theme: "builtin",
        size: "1200x760",
        scale: "1.0",
        screen: (1440, 960),
        table_look: "practice",
    };
    // Deal 3 has no solution: the agent must find that out and stop without a wrong click.
    let seeds = [3];
    let cleared = calibrate_then_play(&look, 2, &seeds, |desktop, dir, templates| {
        trouble(desktop, &look, dir, templates)
    });
    let solvable = std::iter::once(2)
        .chain(seeds)
        .filter(|&s| solvable(s))
        .count();
    eprintln!("built-in cards: {cleared} of {solvable} solvable deals cleared");
    assert_eq!(cleared, solvable, "every solvable deal is cleared");
}

/// The same with anglo cards (an aisleriot theme) at 1920×1080 with the display scaled 1.5×:
/// calibrate on deal 5, then play deal 14 (57 steps).
#[test]
fn the_agent_calibrates_once_then_plays_deals_with_anglo_cards() {
    let look = Look {
        theme: "anglo",
        size: "1920x1080",
        scale: "1.5",
        screen: (2000, 1160),
        table_look: "practice",
    };
    let seeds = [14];
    let cleared = calibrate_then_play(&look, 5, &seeds, |_, _, _| {});
    let solvable = std::iter::once(5)
        .chain(seeds)
        .filter(|&s| solvable(s))
        .count();
    eprintln!("anglo cards: {cleared} of {solvable} solvable deals cleared");
    assert_eq!(cleared, solvable, "every solvable deal is cleared");
}

/// MSC's look (covered cards show only their index corner; Undo board and OK at the `msc`
/// profile's fixed places), with no profile given: `auto` finds `msc` from the picture, the agent
/// calibrates on deal 2 and clears it, finds that deal 3 has no solution, then clears deal 1 with
/// two interruptions.
#[test]
fn in_the_msc_look_the_agent_finds_the_msc_profile_and_clears_deals() {
    let look = Look {
        theme: "builtin",
        size: "1440x900",
        scale: "1.0",
        screen: (1600, 1000),
        table_look: "msc",
    };
    let seeds = [3];
    let cleared = calibrate_then_play(&look, 2, &seeds, |desktop, dir, templates| {
        // MSC's interruptions over the real window: each has an OK, and each is dismissed.
        let (report, log) = deal_with_trouble(
            desktop,
            &look,
            (dir, templates),
            1,
            "interruptions",
            &["--interrupt", "30:no-moves", "--interrupt", "36:notice"],
            |_, _, _| {},
        );
        assert_eq!(report["result"], "cleared", "{report}");
        assert_eq!(report["dialogs"], 2, "{report}");
        let closed: Vec<String> = log
            .iter()
            .filter(|e| e["event"] == "dismiss")
            .map(|e| {
                format!(
                    "{}:{}",
                    e["kind"].as_str().unwrap(),
                    e["button"].as_str().unwrap()
                )
            })
            .collect();
        assert_eq!(closed, ["no-moves:ok", "notice:ok"]);
    });
    let solvable = [2, 3].iter().filter(|&&s| solvable(s)).count();
    assert_eq!(cleared, solvable, "every solvable deal is cleared");
}
