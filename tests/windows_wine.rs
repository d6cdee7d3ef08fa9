//! The Windows build end to end, under Wine and Xvfb: the Windows table (`solitaire-agent.exe
//! table`) and the Windows agent (`solitaire-agent.exe play --window "Pyramid Practice Table"`)
//! clear deals through the Win32 paths: the project's own window list (xcap lists no window
//! under Wine), the window's rectangle of the screen as its picture (Wine's window capture of an
//! OpenGL window is black), SetCursorPos and SendInput, and per-monitor DPI awareness at Wine
//! DPI 96, 144 and 240 (a DPI-aware table is that much larger in physical pixels, and the agent
//! must click in physical pixels). Each game is checked by the table's event log: cleared, no
//! illegal move, no click off a target, every click the agent made reached the table.
//!
//! Run by `scripts/windows`, which builds the .exe and the Wine prefix and sets
//! `SOLITAIRE_AGENT_EXE` and `WINEPREFIX`: `cargo test --test windows_wine -- --ignored`.

#![cfg(target_os = "linux")]

mod common;

use common::desktop::{assert_clean_log, log_events, wait_for, Desktop};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const TITLE: &str = "Pyramid Practice Table";

/// The Windows build to run.
fn exe() -> PathBuf {
    let path = std::env::var_os("SOLITAIRE_AGENT_EXE")
        .map(PathBuf::from)
        .expect("SOLITAIRE_AGENT_EXE is not set: run scripts/windows, which builds the .exe");
    assert!(path.is_file(), "no Windows build at {}", path.display());
    assert!(
        std::env::var_os("WINEPREFIX").is_some(),
        "WINEPREFIX is not set: run scripts/windows, which makes the Wine prefix"
    );
    path
}

/// `wine ARGS` on the desktop.
fn wine(desktop: &Desktop, args: &[&str]) -> Command {
    let mut c = desktop.command("wine");
    // The Windows program keeps its data under %APPDATA%, as on Windows.
    c.args(args)
        .env("WINEDEBUG", "-all")
        .env_remove("SOLITAIRE_AGENT_DATA");
    c
}

/// Ends every Wine process of the prefix (its server, its desktop process) and waits for them.
fn stop_wine(desktop: &Desktop) {
    let _ = desktop.command("wineserver").arg("-k").status();
    let _ = desktop.command("wineserver").arg("-w").status();
}

/// Sets Wine's display scaling (LogPixels: 96 is 100 %) for the programs started after.
fn set_dpi(desktop: &Desktop, dpi: u32) {
    stop_wine(desktop);
    let ok = wine(
        desktop,
        &[
            "reg",
            "add",
            r"HKCU\Control Panel\Desktop",
            "/v",
            "LogPixels",
            "/t",
            "REG_DWORD",
            "/d",
            &dpi.to_string(),
            "/f",
        ],
    )
    .stdout(Stdio::null())
    .stderr(Stdio::null())
    .status()
    .expect("run wine reg")
    .success();
    assert!(ok, "wine reg add LogPixels {dpi} failed");
    stop_wine(desktop);
}

/// The table window's X geometry (width, height), once it shows.
fn table_geometry(desktop: &Desktop) -> (u32, u32) {
    let id = desktop.xdotool(&["search", "--name", &format!("^{TITLE}$")]);
    let id = id.lines().next().unwrap_or_default().to_string();
    let shape = desktop.xdotool(&["getwindowgeometry", "--shell", &id]);
    let value = |key: &str| -> u32 {
        shape
            .lines()
            .find_map(|l| l.strip_prefix(&format!("{key}=")))
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("no {key} in {shape}"))
    };
    (value("WIDTH"), value("HEIGHT"))
}

/// Opens the Windows table on `seed` and waits until its window shows the deal; the child and
/// the window's size in physical pixels.
fn open_table(
    desktop: &mut Desktop,
    seed: u64,
    (size, scale): (&str, &str),
    log: &Path,
) -> (u32, (u32, u32)) {
    let exe = exe();
    let mut table = wine(desktop, &[exe.to_str().unwrap()]);
    table
        .args([
            "table",
            "--seed",
            &seed.to_string(),
            "--size",
            size,
            "--scale",
            scale,
        ])
        .args(["--animation-ms", "150", "--position", "0,0"]);
    let pid = desktop.spawn_table(table, log).id();
    let said = || std::fs::read_to_string(log.with_extension("stderr")).unwrap_or_default();
    wait_for(120, "the Windows table's window", || {
        let found = desktop
            .command("xdotool")
            .args(["search", "--onlyvisible", "--name", &format!("^{TITLE}$")])
            .output()
            .ok()?;
        let dealt = log_events(log).iter().any(|e| e["event"] == "deal");
        (found.status.success() && dealt).then_some(())
    });
    assert!(
        log_events(log).iter().any(|e| e["event"] == "deal"),
        "the table logged no deal: {}",
        said()
    );
    // Painted: the first frames of a new OpenGL window under Wine can take a moment.
    std::thread::sleep(std::time::Duration::from_secs(3));
    (pid, table_geometry(desktop))
}

/// Runs the Windows agent on the table; its JSON report.
fn play(desktop: &Desktop, extra: &[&str]) -> serde_json::Value {
    let exe = exe();
    let output = wine(desktop, &[exe.to_str().unwrap()])
        .args(["play", "--window", TITLE, "--json"])
        .args(extra)
        .stdin(Stdio::null())
        .output()
        .expect("run the Windows agent");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    // The game's log goes to the user's data folder, under %APPDATA% on Windows.
    let log = stderr.lines().find_map(|l| l.strip_prefix("game log: "));
    assert!(
        log.is_some_and(|p| p.contains("AppData") && p.contains("\\solitaire-agent\\logs\\")),
        "no game log under %APPDATA%: {stderr}"
    );
    let line = stdout
        .lines()
        .rev()
        .find(|l| l.trim_start().starts_with('{'));
    line.and_then(|l| serde_json::from_str(l.trim()).ok())
        .unwrap_or_else(|| {
            panic!(
                "no report from the Windows agent: {stdout} {}",
                String::from_utf8_lossy(&output.stderr)
            )
        })
}

/// The deal's cards, as `deal --seed N` prints them (the host build: the same deal).
fn deck_file(dir: &Path, seed: u64) -> PathBuf {
    let out = Command::new(env!("CARGO_BIN_EXE_solitaire-agent"))
        .args(["deal", "--seed", &seed.to_string()])
        .output()
        .unwrap();
    assert!(out.status.success());
    let path = dir.join(format!("deck-{seed}.txt"));
    std::fs::write(&path, &out.stdout).unwrap();
    path
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

/// The table's log of a game the agent says it cleared: cleared once, no illegal move, no click
/// off a target, as many clicks as the agent made, the 24 reveal draws and then the plan.
fn check_cleared(log: &Path, report: &serde_json::Value, what: &str) {
    let events = assert_clean_log(log, report, what);
    let count = |kind: &str| events.iter().filter(|e| e["event"] == kind).count();
    assert_eq!(report["result"], "cleared", "{what}: {report}");
    assert_eq!(count("cleared"), 1, "{what}: {events:?}");
    assert_eq!(
        count("move") as u64 - 24,
        report["steps"].as_u64().unwrap(),
        "{what}: 24 reveal draws, then the plan"
    );
    // Under Wine xcap lists no window and cannot capture an OpenGL one: the project's own window
    // list and the screen's rectangle.
    assert_eq!(report["capture"], "screen", "{what}: {report}");
}

/// At Wine DPI `dpi`: the table (`size` in points, toolbar `scale`) opens that much larger in
/// physical pixels; the agent calibrates from the deal on screen (its cards given), then clears
/// each deal of `seeds` (the first is the calibration deal), the later ones with the saved
/// templates.
fn games_at_dpi(dpi: u32, size: (u32, u32), seeds: &[u64]) {
    let mut desktop = Desktop::start(2560, 1600);
    let dir = std::env::temp_dir().join(format!("windows-wine-{}-{dpi}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    set_dpi(&desktop, dpi);
    let scale = format!("{}", dpi as f32 / 96.0);
    let points = format!("{}x{}", size.0, size.1);
    let templates = dir.join("templates");
    for (i, &seed) in seeds.iter().enumerate() {
        assert!(solvable(seed), "deal {seed} is one the agent can clear");
        let what = format!("DPI {dpi}, deal {seed}");
        let log = dir.join(format!("deal-{seed}.jsonl"));
        let (pid, physical) = open_table(&mut desktop, seed, (&points, &scale), &log);
        let want = (size.0 * dpi / 96, size.1 * dpi / 96);
        assert!(
            physical.0.abs_diff(want.0) <= 2 && physical.1.abs_diff(want.1) <= 2,
            "{what}: the DPI-aware table is {}x{} physical pixels, not {}x{}",
            physical.0,
            physical.1,
            want.0,
            want.1
        );
        let report = if i == 0 {
            let deck = deck_file(&dir, seed);
            play(
                &desktop,
                &[
                    "--calibrate-deck",
                    deck.to_str().unwrap(),
                    "--templates",
                    templates.to_str().unwrap(),
                ],
            )
        } else {
            play(&desktop, &["--templates", templates.to_str().unwrap()])
        };
        eprintln!("{what}: {report}");
        check_cleared(&log, &report, &what);
        let _ = Command::new("kill").arg(pid.to_string()).status();
        stop_wine(&desktop);
    }
    assert!(
        templates.join("manifest.json").is_file(),
        "the Windows agent saved its templates"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
#[ignore = "needs the Windows build and Wine: run scripts/windows"]
fn windows_agent_clears_deals_at_100_percent() {
    games_at_dpi(96, (1200, 760), &[2, 5]);
}

#[test]
#[ignore = "needs the Windows build and Wine: run scripts/windows"]
fn windows_agent_clears_a_deal_at_150_percent() {
    games_at_dpi(144, (1000, 640), &[5]);
}

#[test]
#[ignore = "needs the Windows build and Wine: run scripts/windows"]
fn windows_agent_clears_a_deal_at_250_percent() {
    games_at_dpi(240, (800, 560), &[2]);
}
