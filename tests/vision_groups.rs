//! Grouping the index corners of an unknown deal into 13 ranks and 4 suits (what the user labels
//! in guided calibration) on rendered frames: every group must hold exactly the cards of one rank
//! or one suit. `GROUP_THEMES=all` runs every installed theme.

mod common;

use solitaire_agent::cards::Deck;
use solitaire_agent::games::pyramid::vision::accuracy::calibration_frames;
use solitaire_agent::games::pyramid::vision::profile::Profile;
use solitaire_agent::table::render::Renderer;
use solitaire_agent::table::theme::Theme;
use solitaire_agent::vision::calibrate::{corners, StockSeen};
use solitaire_agent::vision::groups::group;

/// What is wrong with the grouping of deal `seed` in `theme`, if anything.
fn grouping_faults(theme: &str, seed: u64) -> Vec<String> {
    let mut r = Renderer::new(Theme::load(theme).unwrap());
    let deck = Deck::shuffled(seed);
    let frames = calibration_frames(&mut r, &deck).unwrap();
    let corners = corners(&frames, &Profile::practice_table(), StockSeen::OnStock).unwrap();
    let groups = group(&corners);
    let cards = deck.cards();
    let mut faults = Vec::new();
    for g in &groups.ranks {
        let shown: Vec<String> = g.iter().map(|&i| cards[i].to_string()).collect();
        if g.iter().any(|&i| cards[i].rank != cards[g[0]].rank) {
            faults.push(format!(
                "{theme} deal {seed}: rank group {}",
                shown.join(" ")
            ));
        }
    }
    for k in 0..4 {
        let s = groups.suit(k);
        if s.iter().any(|&i| cards[i].suit != cards[s[0]].suit) {
            let shown: Vec<String> = s.iter().map(|&i| cards[i].to_string()).collect();
            faults.push(format!(
                "{theme} deal {seed}: suit group {}",
                shown.join(" ")
            ));
        }
    }
    let swaps = common::answers(&groups.ranks, cards).swaps.len();
    eprintln!("{theme} deal {seed}: {swaps} swaps to mend");
    faults
}

fn themes() -> Vec<String> {
    match std::env::var("GROUP_THEMES").as_deref() {
        Ok("all") => std::iter::once("builtin".to_string())
            .chain(Theme::installed().iter().map(|p| p.display().to_string()))
            .collect(),
        Ok(list) => list.split(',').map(str::to_string).collect(),
        Err(_) => vec!["builtin".into(), "anglo".into()],
    }
}

#[test]
fn corners_group_into_ranks_and_suits() {
    let mut faults = Vec::new();
    for theme in themes() {
        for seed in [1000, 7] {
            let f = grouping_faults(&theme, seed);
            eprintln!("{theme} deal {seed}: {} faults", f.len());
            faults.extend(f);
        }
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

/// Writes the calibration frames of deal `seed` (builtin cards) as 00.png … 24.png in a new folder.
fn frames_folder(tag: &str, seed: u64) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("frames-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut r = Renderer::new(Theme::built_in());
    for (k, f) in calibration_frames(&mut r, &Deck::shuffled(seed))
        .unwrap()
        .iter()
        .enumerate()
    {
        f.save(dir.join(format!("{k:02}.png"))).unwrap();
    }
    dir
}

/// Where `p3` / `s12` was seen, as an index into the deck (pyramid first, then the stock).
fn place_index(place: &str) -> usize {
    let n: usize = place[1..].parse().unwrap();
    if place.starts_with('p') {
        n - 1
    } else {
        27 + n
    }
}

#[test]
fn calibrate_without_a_deck_asks_for_13_ranks_and_4_suits() {
    use std::io::{BufRead, Write};
    let seed = 2;
    let frames = frames_folder("guided", seed);
    let out = frames.join("set");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_solitaire-agent"))
        .args([
            "calibrate",
            "--frames",
            frames.to_str().unwrap(),
            "--name",
            "mine",
        ])
        .args(["--out", out.to_str().unwrap()])
        .stdin(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Read the grouping as a user does: 13 rows of four places.
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut rows: Vec<[usize; 4]> = Vec::new();
    let mut shown = String::new();
    while rows.len() < 13 {
        let mut line = String::new();
        assert!(
            stderr.read_line(&mut line).unwrap() > 0,
            "ended early: {shown}"
        );
        shown.push_str(&line);
        if let Some(rest) = line.strip_prefix("row ") {
            let places: Vec<usize> = rest
                .split(':')
                .nth(1)
                .unwrap()
                .split_whitespace()
                .map(place_index)
                .collect();
            rows.push(places.try_into().unwrap());
        }
    }
    assert!(shown.contains("groups.png"), "{shown}");
    assert!(frames.join("groups.png").is_file());
    let truth = Deck::shuffled(seed).cards().to_vec();
    let answers = common::answers(&rows, &truth);
    let mut stdin = child.stdin.take().unwrap();
    // A wrong line first: it is explained and asked again.
    stdin.write_all(b"ranks 7 7\n").unwrap();
    stdin.write_all(answers.lines().as_bytes()).unwrap();
    drop(stdin);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stderr, &mut rest).unwrap();
    let status = child.wait().unwrap();
    assert!(status.success(), "{rest}");
    assert!(rest.contains("13 ranks are needed"), "{rest}");
    // The set made reads every card of another deal.
    let frame = frames.join("other.png");
    let mut r = Renderer::new(Theme::built_in());
    let other = calibration_frames(&mut r, &Deck::shuffled(11)).unwrap();
    other[0].save(&frame).unwrap();
    let read = std::process::Command::new(env!("CARGO_BIN_EXE_solitaire-agent"))
        .args([
            "read",
            frame.to_str().unwrap(),
            "--templates",
            out.to_str().unwrap(),
            "--json",
        ])
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&read.stdout).unwrap();
    let pyramid: Vec<String> = json["pyramid"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    let expected: Vec<String> = Deck::shuffled(11).cards()[..28]
        .iter()
        .map(|c| c.to_string())
        .collect();
    assert_eq!(pyramid, expected);
    let _ = std::fs::remove_dir_all(&frames);
}

#[test]
fn calibrate_gives_up_cleanly_when_the_answers_end() {
    let frames = frames_folder("ends", 2);
    let out = frames.join("set");
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_solitaire-agent"))
        .args([
            "calibrate",
            "--frames",
            frames.to_str().unwrap(),
            "--name",
            "x",
        ])
        .args(["--out", out.to_str().unwrap()])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(err.contains("nothing was saved"), "{err}");
    assert!(!out.exists(), "no half-made set");
    let _ = std::fs::remove_dir_all(&frames);
}
