//! `solitaire-agent bench-play`: the agent's speed on the real practice-table window. It opens the
//! table (this same program, `table --seed S`) for each of N seeded deals, runs `play --window` on
//! it as a user would, and prints per deal and in all the time spent revealing the stock and
//! playing the plan against the animations' floor ((24 + steps) × animation), with the illegal
//! moves and stray clicks the table's own event log records.

use super::table::load_theme;
use super::{CliResult, Failure};
use crate::games::pyramid::vision::accuracy::calibrate_rendered_at;
use crate::games::pyramid::vision::profile::Profile;
use crate::platform::window;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The table window's title.
const TITLE: &str = "Pyramid Practice Table";

/// Draws that reveal the stock before play.
const REVEAL_DRAWS: u64 = 24;

/// The deal the templates are calibrated from (as `play --sim` does): none of the deals played.
const CALIBRATION_SEED: u64 = 0x5eed;

pub struct BenchPlayArgs {
    pub deals: u64,
    pub first_seed: u64,
    pub theme: String,
    pub look: crate::table::look::Look,
    pub size: (u32, u32),
    pub scale: f32,
    pub animation_ms: u64,
    /// The table's fault options, passed on as given (already checked).
    pub faults: Vec<String>,
}

/// One deal played.
struct Row {
    seed: u64,
    result: String,
    steps: u64,
    clicks: u64,
    reveal_ms: u64,
    play_ms: u64,
    /// The animations' floors: the reveal's draws and the plan's steps.
    reveal_floor_ms: u64,
    play_floor_ms: u64,
    illegal: usize,
    stray: usize,
    /// Clicks made while a move was still under way by the table's clock, and the most time
    /// such a move still had to run.
    in_flight: usize,
    most_left_ms: u64,
}

pub fn run(args: BenchPlayArgs) -> CliResult {
    if args.deals == 0 {
        return Err(Failure::input("--deals must be at least 1"));
    }
    if window::find(TITLE).is_ok() {
        return Err(Failure::input(format!(
            "a window titled '{TITLE}' is already open: close it first (bench-play opens its own)"
        )));
    }
    let mut renderer = crate::games::Game::renderer(
        &crate::games::pyramid::Pyramid,
        load_theme(&args.theme)?,
        args.look,
    )
    .map_err(Failure::input)?;
    let exe = std::env::current_exe()
        .map_err(|e| Failure::input(format!("cannot find this program to start the table: {e}")))?;
    let work =
        std::env::temp_dir().join(format!("solitaire-agent-bench-play-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work)
        .map_err(|e| Failure::input(format!("{}: {e}", work.display())))?;
    let result = (|| {
        eprintln!(
            "bench-play: calibrating {} at {}x{} scale {}",
            args.theme, args.size.0, args.size.1, args.scale
        );
        let templates = work.join("templates");
        let deck = crate::cards::Deck::shuffled(CALIBRATION_SEED);
        calibrate_rendered_at(&mut renderer, &deck, args.size, args.scale)
            .and_then(|t| t.save(&templates))
            .map_err(Failure::input)?;
        let mut rows = Vec::new();
        for seed in args.first_seed..args.first_seed.saturating_add(args.deals) {
            eprintln!("bench-play: deal {seed}");
            rows.push(play_deal(&exe, &args, seed, &templates, &work)?);
        }
        Ok(rows)
    })();
    let _ = std::fs::remove_dir_all(&work);
    let rows = result?;
    print_table(&rows, &args);
    let illegal: usize = rows.iter().map(|r| r.illegal).sum();
    let stray: usize = rows.iter().map(|r| r.stray).sum();
    if illegal + stray > 0 {
        return Err(Failure {
            message: format!("{illegal} illegal moves and {stray} clicks off every target"),
            status: 1,
        });
    }
    Ok(())
}

/// Opens the table on `seed`, plays it with `play --window`, closes the table.
fn play_deal(
    exe: &Path,
    args: &BenchPlayArgs,
    seed: u64,
    templates: &Path,
    work: &Path,
) -> Result<Row, Failure> {
    let log = work.join(format!("deal-{seed}.log"));
    let mut table = Command::new(exe)
        .args(["table", "--seed", &seed.to_string(), "--theme", &args.theme])
        .args(["--size", &format!("{}x{}", args.size.0, args.size.1)])
        .args(["--scale", &args.scale.to_string()])
        .args(["--look", args.look.name()])
        .args(["--animation-ms", &args.animation_ms.to_string()])
        .args(["--position", "0,0", "--log"])
        .arg(&log)
        .args(&args.faults)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| Failure::input(format!("cannot start the table: {e}")))?;
    let played = wait_painted(&mut table).and_then(|()| play(exe, args, templates));
    close(&mut table);
    let report = played?;
    let events = log_events(&log);
    let count = |kind: &str| events.iter().filter(|e| e["event"] == kind).count();
    let number = |key: &str| report[key].as_u64().unwrap_or(0);
    let flying: Vec<u64> = events
        .iter()
        .filter(|e| e["event"] == "click")
        .filter_map(|e| e["flying_ms"].as_u64())
        .collect();
    Ok(Row {
        seed,
        result: report["result"].as_str().unwrap_or("?").to_string(),
        steps: number("steps"),
        clicks: number("clicks"),
        reveal_ms: number("reveal_ms"),
        play_ms: number("play_ms"),
        reveal_floor_ms: if number("reveal_ms") > 0 {
            REVEAL_DRAWS * args.animation_ms
        } else {
            0
        },
        play_floor_ms: number("steps") * args.animation_ms,
        illegal: count("illegal"),
        stray: events
            .iter()
            .filter(|e| e["event"] == "click" && e["target"] == "none")
            .count(),
        in_flight: flying.len(),
        most_left_ms: flying.iter().copied().max().unwrap_or(0),
    })
}

/// Waits (a minute at most) until the table's window shows and is painted.
fn wait_painted(table: &mut Child) -> Result<(), Failure> {
    let start = Instant::now();
    let mut last;
    loop {
        if let Ok(Some(status)) = table.try_wait() {
            let mut said = String::new();
            if let Some(mut err) = table.stderr.take() {
                use std::io::Read;
                let _ = err.read_to_string(&mut said);
            }
            return Err(Failure {
                message: format!(
                    "the table exited ({status}) before it showed: {}",
                    said.trim()
                ),
                status: 1,
            });
        }
        match window::find(TITLE).and_then(|w| w.capture()) {
            Ok(image) => {
                let dark = image
                    .pixels()
                    .filter(|p| p[0] < 8 && p[1] < 8 && p[2] < 8)
                    .count();
                if dark * 10 < image.pixels().len() {
                    // Let the first frames settle.
                    std::thread::sleep(Duration::from_millis(300));
                    return Ok(());
                }
                last = format!("{dark} of {} pixels still black", image.pixels().len());
            }
            Err(e) => last = e,
        }
        if start.elapsed() > Duration::from_secs(60) {
            return Err(Failure {
                message: format!("the table was not painted within a minute: {last}"),
                status: 1,
            });
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Runs `play --window` with the templates; returns its JSON report.
fn play(exe: &Path, args: &BenchPlayArgs, templates: &Path) -> Result<serde_json::Value, Failure> {
    let profile = Profile::of_look(args.look).name;
    let output = Command::new(exe)
        .args(["play", "--window", TITLE, "--json", "--profile", &profile])
        .arg("--templates")
        .arg(templates)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| Failure::input(format!("cannot start the agent: {e}")))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    serde_json::from_str(stdout.trim()).map_err(|_| Failure {
        message: format!(
            "the agent gave no report ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        ),
        status: 1,
    })
}

/// Stops the table and waits for its window to go.
fn close(table: &mut Child) {
    let _ = table.kill();
    let _ = table.wait();
    let start = Instant::now();
    while window::find(TITLE).is_ok() && start.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The table's event log, one JSON object per line.
fn log_events(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

fn secs(ms: u64) -> String {
    format!("{:.2}", ms as f64 / 1000.0)
}

/// Measured time over the floor: `-` when the floor is zero.
fn ratio(measured: u64, floor: u64) -> String {
    if floor == 0 {
        "-".to_string()
    } else {
        format!("{:.2}", measured as f64 / floor as f64)
    }
}

fn print_table(rows: &[Row], args: &BenchPlayArgs) {
    let anim = args.animation_ms;
    println!(
        "Pyramid on the practice table's window ({} look): {} at {}x{} scale {}, animations {anim} ms{}",
        args.look.name(),
        args.theme,
        args.size.0,
        args.size.1,
        args.scale,
        if args.faults.is_empty() {
            String::new()
        } else {
            format!(", faults {}", args.faults.join(" "))
        }
    );
    println!();
    println!("| deal | result | steps | clicks | reveal s | floor s | play s | floor s | × floor | illegal | stray clicks | clicks in flight | most ms left |");
    println!("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    let line = |name: &str, result: &str, r: &Row| {
        let (reveal_floor, play_floor) = (r.reveal_floor_ms, r.play_floor_ms);
        println!(
            "| {name} | {result} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.steps,
            r.clicks,
            secs(r.reveal_ms),
            secs(reveal_floor),
            secs(r.play_ms),
            secs(play_floor),
            ratio(r.reveal_ms + r.play_ms, reveal_floor + play_floor),
            r.illegal,
            r.stray,
            r.in_flight,
            r.most_left_ms
        );
    };
    for r in rows {
        line(&r.seed.to_string(), &r.result, r);
    }
    let cleared = rows.iter().filter(|r| r.result == "cleared").count();
    let all = Row {
        seed: rows.len() as u64,
        result: String::new(),
        steps: rows.iter().map(|r| r.steps).sum(),
        clicks: rows.iter().map(|r| r.clicks).sum(),
        reveal_ms: rows.iter().map(|r| r.reveal_ms).sum(),
        play_ms: rows.iter().map(|r| r.play_ms).sum(),
        reveal_floor_ms: rows.iter().map(|r| r.reveal_floor_ms).sum(),
        play_floor_ms: rows.iter().map(|r| r.play_floor_ms).sum(),
        illegal: rows.iter().map(|r| r.illegal).sum(),
        stray: rows.iter().map(|r| r.stray).sum(),
        in_flight: rows.iter().map(|r| r.in_flight).sum(),
        most_left_ms: rows.iter().map(|r| r.most_left_ms).max().unwrap_or(0),
    };
    line("all", &format!("{cleared} cleared"), &all);
    println!();
    println!(
        "Floors: the stock's {REVEAL_DRAWS} draws and the plan's steps, {anim} ms each; solving time is not counted."
    );
    println!(
        "Clicks in flight: made while a move was still under way by the table's clock (its lag and animation), with the most time such a move had left."
    );
}
