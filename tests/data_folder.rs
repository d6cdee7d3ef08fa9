//! The user's data folder (`SOLITAIRE_AGENT_DATA` points it at a scratch folder here): a set that
//! `calibrate --name` saves is found by name from any working folder, `templates` lists it (and a
//! set shipped in `templates/`) with its card size, when it was made and its picture, and removes
//! it; `play` writes a log of each game there and prints its path: the plan, the clicks and the
//! result of a cleared deal, and the refused reads with their frames of a game that stopped.

mod common;

use common::launch::Launch;
use solitaire_agent::cards::Deck;
use solitaire_agent::games::pyramid::vision::accuracy::calibration_frames;
use solitaire_agent::table::render::Renderer;
use solitaire_agent::table::theme::Theme;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sa-data-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The program run in `cwd` with the data folder `data`.
fn run(data: &Path, cwd: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_solitaire-agent"))
        .env("SOLITAIRE_AGENT_DATA", data)
        .current_dir(cwd)
        .args(args)
        .run()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Calibration frames of deal `seed` in the built-in theme, saved as 00.png … 24.png in `dir`.
fn frames(dir: &Path, seed: u64) -> Deck {
    std::fs::create_dir_all(dir).unwrap();
    let deck = Deck::shuffled(seed);
    let mut r = Renderer::new(Theme::built_in());
    for (k, f) in calibration_frames(&mut r, &deck)
        .unwrap()
        .iter()
        .enumerate()
    {
        f.save(dir.join(format!("{k:02}.png"))).unwrap();
    }
    std::fs::write(dir.join("deck.txt"), deck.to_string()).unwrap();
    deck
}

#[test]
fn a_set_saved_by_name_is_found_listed_and_removed_from_anywhere() {
    let root = scratch("sets");
    let (data, here, there) = (root.join("data"), root.join("here"), root.join("there"));
    for d in [&here, &there] {
        std::fs::create_dir_all(d).unwrap();
    }
    let f = root.join("frames");
    frames(&f, 4);
    let made = run(
        &data,
        &here,
        &[
            "calibrate",
            "--frames",
            f.to_str().unwrap(),
            "--deck",
            f.join("deck.txt").to_str().unwrap(),
            "--name",
            "mine",
        ],
    );
    assert!(made.status.success(), "{}", text(&made.stderr));
    let set = data.join("templates").join("mine");
    assert!(
        set.join("manifest.json").is_file(),
        "{}",
        text(&made.stderr)
    );
    assert!(
        !here.join("templates").exists(),
        "nothing in the working folder"
    );

    // Read from another folder by name.
    let read = run(
        &data,
        &there,
        &[
            "read",
            f.join("00.png").to_str().unwrap(),
            "--templates",
            "mine",
        ],
    );
    assert!(read.status.success(), "{}", text(&read.stderr));
    assert!(!text(&read.stdout).contains('?'), "{}", text(&read.stdout));

    // A set shipped in the working folder's templates/ is listed after the saved one.
    let shipped = there.join("templates").join("shipped-one");
    std::fs::create_dir_all(&shipped).unwrap();
    for e in std::fs::read_dir(&set).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, shipped.join(p.file_name().unwrap())).unwrap();
    }
    let listed = run(&data, &there, &["templates"]);
    assert!(listed.status.success());
    let out = text(&listed.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(
        lines[1].starts_with("mine ") && lines[1].contains(" saved "),
        "{out}"
    );
    assert!(
        lines[2].starts_with("shipped-one ") && lines[2].contains(" shipped "),
        "{out}"
    );
    let json = run(&data, &there, &["templates", "--json"]);
    let first: serde_json::Value =
        serde_json::from_str(text(&json.stdout).lines().next().unwrap()).unwrap();
    assert_eq!(first["name"], "mine");
    let card = first["card"].as_array().unwrap();
    let (w, h) = (card[0].as_u64().unwrap(), card[1].as_u64().unwrap());
    assert!((60..200).contains(&w) && h > w, "card {w}x{h}");
    assert!(first["made"].as_str().unwrap().ends_with(" UTC"));
    let picture = image::open(first["picture"].as_str().unwrap()).unwrap();
    assert!(picture.width() > picture.height());

    // A set whose manifest is damaged is listed as unusable, saying why.
    let broken = data.join("templates").join("broken");
    std::fs::create_dir_all(&broken).unwrap();
    std::fs::write(broken.join("manifest.json"), "{not json").unwrap();
    let listed = text(&run(&data, &there, &["templates"]).stdout);
    let line = listed
        .lines()
        .find(|l| l.starts_with("broken "))
        .expect("listed");
    assert!(
        line.contains("unusable: manifest.json is damaged"),
        "{line}"
    );
    std::fs::remove_dir_all(&broken).unwrap();

    // Shipped sets are not removed; saved ones are, once.
    let refused = run(&data, &there, &["templates", "--remove", "shipped-one"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        text(&refused.stderr).contains("shipped"),
        "{}",
        text(&refused.stderr)
    );
    assert!(shipped.is_dir());
    let removed = run(&data, &there, &["templates", "--remove", "mine"]);
    assert!(removed.status.success(), "{}", text(&removed.stderr));
    assert!(!set.exists());
    let again = run(&data, &there, &["templates", "--remove", "mine"]);
    assert_eq!(again.status.code(), Some(2));
    assert!(text(&again.stderr).contains("no template set named 'mine'"));
    let gone = run(
        &data,
        &here,
        &[
            "read",
            f.join("00.png").to_str().unwrap(),
            "--templates",
            "mine",
        ],
    );
    assert_eq!(gone.status.code(), Some(2), "{}", text(&gone.stderr));
    let _ = std::fs::remove_dir_all(&root);
}

/// The log `play` names on stderr.
fn game_log(out: &Output) -> (PathBuf, String) {
    let err = text(&out.stderr);
    let line = err
        .lines()
        .find_map(|l| l.strip_prefix("game log: "))
        .unwrap_or_else(|| panic!("no game log named: {err}"));
    let path = PathBuf::from(line);
    let log = std::fs::read_to_string(&path).unwrap();
    (path, log)
}

#[test]
fn every_game_played_leaves_a_log_of_what_it_read_planned_clicked_and_why_it_ended() {
    let root = scratch("logs");
    let data = root.join("data");
    // A deal played to the end.
    let cleared = run(
        &data,
        &root,
        &[
            "play",
            "--sim",
            "--seed",
            "1",
            "--animation-ms",
            "60",
            "--json",
        ],
    );
    let report: serde_json::Value = serde_json::from_slice(&cleared.stdout).unwrap();
    assert_eq!(report["result"], "cleared", "{}", text(&cleared.stderr));
    let (path, log) = game_log(&cleared);
    assert!(path.starts_with(data.join("logs")), "{}", path.display());
    let plan = log
        .lines()
        .find(|l| l.contains("plan of "))
        .expect("the plan");
    let steps = report["steps"].as_u64().unwrap();
    assert!(plan.contains(&format!("plan of {steps} steps")), "{plan}");
    let clicks = log.lines().filter(|l| l.contains(" click ")).count() as u64;
    assert_eq!(clicks, report["clicks"].as_u64().unwrap(), "{log}");
    assert!(
        log.lines().any(|l| l.contains(" read 28 places: ")),
        "{log}"
    );
    assert!(
        log.lines().last().unwrap().contains("ended Cleared"),
        "{log}"
    );

    // Templates of one theme on cards of another: play stops on a board it cannot read, and the
    // log keeps the frames.
    let f = root.join("frames");
    frames(&f, 4);
    let deck = f.join("deck.txt");
    let set = root.join("builtin-set");
    let made = run(
        &data,
        &root,
        &[
            "calibrate",
            "--frames",
            f.to_str().unwrap(),
            "--deck",
            deck.to_str().unwrap(),
        ],
    );
    assert_eq!(made.status.code(), Some(2), "--name is needed");
    let made = run(
        &data,
        &root,
        &[
            "calibrate",
            "--frames",
            f.to_str().unwrap(),
            "--deck",
            deck.to_str().unwrap(),
            "--name",
            "b",
            "--out",
            set.to_str().unwrap(),
        ],
    );
    assert!(made.status.success(), "{}", text(&made.stderr));
    let stopped = run(
        &data,
        &root,
        &[
            "play",
            "--sim",
            "--seed",
            "2",
            "--theme",
            "anglo",
            "--templates",
            set.to_str().unwrap(),
        ],
    );
    assert_eq!(stopped.status.code(), Some(3), "{}", text(&stopped.stderr));
    let (path, log) = game_log(&stopped);
    assert!(
        log.contains("read refused") || log.contains("unsure"),
        "{log}"
    );
    assert!(
        log.lines().last().unwrap().contains("ended Stopped"),
        "{log}"
    );
    let kept: Vec<PathBuf> = std::fs::read_dir(path.with_extension(""))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert!(
        kept.iter()
            .any(|p| p.to_string_lossy().ends_with("-stop.png")),
        "{kept:?}"
    );
    assert!(
        kept.len() >= 2,
        "the refused or unsure read and the last frame: {kept:?}"
    );
    for p in &kept {
        assert!(
            log.contains(&p.display().to_string()),
            "{} not named in the log",
            p.display()
        );
    }
    let _ = std::fs::remove_dir_all(&root);
}
