//! `solitaire-agent read` (a frame → the board, as text or the JSON contract) and
//! `solitaire-agent calibrate` (frames of one known deal → a template set).

use super::decks::read_text;
use super::labels::label_in_terminal;
use super::{CliResult, Failure};
use crate::cards::Deck;
use crate::games::pyramid::vision::board::Board;
use crate::games::pyramid::vision::profile::Profile;
use crate::games::pyramid::vision::{read_frame, read_frame_timed};
use crate::vision::calibrate::{calibrate, cut_corners, templates_showing_suits, StockSeen};
use crate::vision::groups::group;
use crate::vision::recognize::{Matcher, Seen};
use crate::vision::templates::Templates;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::Instant;

fn load_png(path: &Path) -> Result<image::RgbaImage, Failure> {
    image::open(path)
        .map(|i| i.to_rgba8())
        .map_err(|e| Failure::input(format!("{}: not a readable picture: {e}", path.display())))
}

fn seen_text(s: Seen) -> Option<String> {
    match s {
        Seen::Empty => None,
        Seen::Card(c, _) => Some(c.to_string()),
        Seen::Unknown(_) => Some("?".into()),
    }
}

/// The `read --json` contract.
#[derive(Serialize)]
struct BoardJson {
    pyramid: Vec<Option<String>>,
    stock: &'static str,
    waste: Option<String>,
    confidence_min: f32,
    millis: f64,
    stock_top: Option<String>,
    unknown: Vec<String>,
    /// The build that read it (`VERSION`).
    version: &'static str,
}

fn board_json(board: &Board, millis: f64) -> BoardJson {
    BoardJson {
        pyramid: board.pyramid.iter().map(|s| seen_text(*s)).collect(),
        stock: if board.stock_present { "back" } else { "empty" },
        waste: seen_text(board.waste),
        confidence_min: (board.confidence_min() * 1000.0).round() / 1000.0,
        millis: (millis * 10.0).round() / 10.0,
        stock_top: seen_text(board.stock_top),
        unknown: board.unknowns(),
        version: crate::VERSION,
    }
}

/// The board as a small picture: rows of the pyramid, then stock and waste.
pub fn board_text(board: &Board) -> String {
    let cell = |s: Seen| seen_text(s).unwrap_or_else(|| "--".into());
    let mut out = String::new();
    let mut i = 0;
    for row in 0..7 {
        out.push_str(&" ".repeat((6 - row) * 2));
        let cells: Vec<String> = (0..=row)
            .map(|k| format!("{:<2}", cell(board.pyramid[i + k])))
            .collect();
        out.push_str(&cells.join("  "));
        out.push('\n');
        i += row + 1;
    }
    out.push_str(&format!(
        "stock: {} (top {})   waste: {}\n",
        if board.stock_present {
            "cards"
        } else {
            "empty"
        },
        cell(board.stock_top),
        cell(board.waste)
    ));
    let unsure = board.unknowns_with_candidates();
    if !unsure.is_empty() {
        out.push_str(&format!("unsure: {}\n", unsure.join(", ")));
    }
    out
}

pub struct ReadArgs {
    pub frame: String,
    pub templates: String,
    pub profile: String,
    pub json: bool,
    /// How many reads to time first (0: none).
    pub repeat: usize,
}

pub fn run_read(args: ReadArgs) -> CliResult {
    let templates = Templates::load(&args.templates).map_err(Failure::input)?;
    let profile = Profile::load(&args.profile).map_err(Failure::input)?;
    let frame = load_png(Path::new(&args.frame))?;
    let mut matcher = Matcher::new(&templates);
    if args.repeat > 0 {
        time_reads(&frame, &profile, &mut matcher, args.repeat);
    }
    let start = Instant::now();
    let (board, _) = read_frame(&frame, &profile, &mut matcher).map_err(|e| {
        Failure::input(format!("{}: not a readable Pyramid board: {e}", args.frame))
    })?;
    let millis = start.elapsed().as_secs_f64() * 1000.0;
    if args.json {
        println!(
            "{}",
            serde_json::to_string(&board_json(&board, millis)).expect("json")
        );
    } else {
        print!("{}", board_text(&board));
        println!(
            "confidence min {:.3}, read in {millis:.1} ms",
            board.confidence_min()
        );
    }
    Ok(())
}

/// Reads `frame` `count` times and prints to stderr how long a read took (median and tenth
/// percentile) and how long locating the table took (median), in ms.
fn time_reads(frame: &image::RgbaImage, profile: &Profile, matcher: &mut Matcher, count: usize) {
    let mut totals = Vec::with_capacity(count);
    let mut locating = Vec::with_capacity(count);
    for _ in 0..count {
        let start = Instant::now();
        let (_, locate_ms) = read_frame_timed(frame, profile, matcher);
        totals.push(start.elapsed().as_secs_f64() * 1000.0);
        locating.push(locate_ms);
    }
    let at = |v: &mut Vec<f64>, share: f64| {
        v.sort_by(f64::total_cmp);
        v[((v.len() - 1) as f64 * share).round() as usize]
    };
    eprintln!(
        "{count} reads: median {:.1} ms, tenth percentile {:.1} ms, locating {:.1} ms (median)",
        at(&mut totals, 0.5),
        at(&mut totals, 0.1),
        at(&mut locating, 0.5)
    );
}

pub struct CalibrateArgs {
    pub frames: String,
    pub deck: Option<String>,
    pub name: String,
    pub profile: String,
    pub out: Option<String>,
}

pub fn run_calibrate(args: CalibrateArgs) -> CliResult {
    let deck = match &args.deck {
        Some(file) => Some(
            Deck::parse(&read_text(file)?).map_err(|e| Failure::input(format!("{file}: {e}")))?,
        ),
        None => None,
    };
    let profile = Profile::load(&args.profile).map_err(Failure::input)?;
    let dir = Path::new(&args.frames);
    let mut frames = Vec::with_capacity(25);
    for k in 0..25 {
        let path = dir.join(format!("{k:02}.png"));
        if !path.is_file() {
            return Err(Failure::input(format!(
                "{}: missing; calibration needs 00.png (the fresh table) and 01.png … 24.png (after each draw)",
                path.display()
            )));
        }
        frames.push(load_png(&path)?);
    }
    let templates = match &deck {
        Some(deck) => calibrate(&frames, deck, &profile, &args.name).map_err(Failure::input)?,
        None => {
            let (corners, profile) =
                cut_corners(&frames, &profile, StockSeen::OnStock).map_err(Failure::input)?;
            let groups = group(&corners);
            let cards = label_in_terminal(
                &corners,
                groups,
                &dir.join("groups.png"),
                &mut std::io::stdin().lock(),
                &mut std::io::stderr(),
            )
            .map_err(Failure::input)?;
            templates_showing_suits(&frames, &corners, &cards, &profile, &args.name)
                .map_err(Failure::input)?
        }
    };
    let out: PathBuf = match &args.out {
        Some(dir) => PathBuf::from(dir),
        None => Templates::save_path(&args.name),
    };
    templates.save(&out).map_err(Failure::input)?;
    eprintln!(
        "calibrated 52 cards (cards {:.0} px wide, aspect {:.2}) into {}",
        templates.manifest.card_width,
        templates.manifest.aspect,
        out.display()
    );
    Ok(())
}
