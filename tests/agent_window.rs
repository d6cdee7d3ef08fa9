//! End to end under Xvfb: the practice table in a real window, and `solitaire-agent play --window`
//! capturing it with xcap and clicking with enigo. It calibrates from the deal on screen, learns the
//! stock, undoes the board, solves and plays; the table's own event log must show the board
//! cleared, no illegal move, no click off a target, and exactly the clicks the agent reports.

mod common;

use common::desktop::{wait_for, Desktop};
use solitaire_agent::platform::window;
use std::path::PathBuf;
use std::process::Stdio;

fn events(path: &PathBuf) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

fn play_on_window(theme: &str, seed: u64) {
    let mut desktop = Desktop::start(1280, 800);
    desktop.enter();
    let agent = env!("CARGO_BIN_EXE_solitaire-agent");
    let dir = std::env::temp_dir().join(format!("agent-window-{}-{theme}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("table.jsonl");
    let deck = dir.join("deck.txt");
    let out = desktop
        .command(agent)
        .args(["deal", "--seed", &seed.to_string()])
        .output()
        .unwrap();
    std::fs::write(&deck, &out.stdout).unwrap();
    let mut table = desktop.command(agent);
    table
        .args(["table", "--seed", &seed.to_string(), "--theme", theme])
        .args(["--size", "1000x700", "--animation-ms", "150", "--log"])
        .arg(&log)
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    desktop.spawn(table);
    wait_for(20, "the table window", || {
        window::find("Pyramid Practice Table").ok()
    });
    std::thread::sleep(std::time::Duration::from_millis(500));
    let output = desktop
        .command(agent)
        .args([
            "play",
            "--window",
            "Pyramid Practice Table",
            "--json",
            "--calibrate-deck",
        ])
        .arg(&deck)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let report: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap_or_else(|_| {
        panic!(
            "no report: {stdout} {}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    assert_eq!(report["result"], "cleared", "{report}");
    let log = events(&log);
    let count = |kind: &str| log.iter().filter(|e| e["event"] == kind).count();
    assert_eq!(count("cleared"), 1, "{report}");
    assert_eq!(count("illegal"), 0, "{log:?}");
    assert!(log
        .iter()
        .all(|e| e["event"] != "click" || e["target"] != "none"));
    assert_eq!(
        count("click") as u64,
        report["clicks"].as_u64().unwrap(),
        "every click reached a target"
    );
    assert_eq!(count("undo_board"), 1);
    assert_eq!(
        count("move") as u64 - 24,
        report["steps"].as_u64().unwrap(),
        "24 reveal draws, then the plan"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_agent_clears_a_deal_on_the_real_window_with_the_built_in_cards() {
    play_on_window("builtin", 2);
}
