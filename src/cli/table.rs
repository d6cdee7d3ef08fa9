//! `solitaire-agent table` (the playable window) and `solitaire-agent render` (the same pixels written
//! to a PNG without a display).

use super::decks::read_text;
use super::{CliResult, Failure};
use crate::cards::Deck;
use crate::games::{Deal, Game, Picture};
use crate::table::harness::{DealSource, Faults};
use crate::table::theme::Theme;
use crate::table::window;
use std::path::Path;

/// Default window size.
pub const DEFAULT_SIZE: (u32, u32) = (1200, 760);

/// Parses `WxH` (e.g. `1440x900`), 320×240 to 7680×4320.
pub fn parse_size(text: &str) -> Result<(u32, u32), String> {
    let bad = || format!("'{text}' is not a window size: write WIDTHxHEIGHT, like 1440x900");
    let lower = text.to_ascii_lowercase();
    let (w, h) = lower.split_once('x').ok_or_else(bad)?;
    let (w, h): (u32, u32) = (
        w.trim().parse().map_err(|_| bad())?,
        h.trim().parse().map_err(|_| bad())?,
    );
    if !(320..=7680).contains(&w) || !(240..=4320).contains(&h) {
        return Err(format!(
            "window size {w}x{h} is out of range (320x240 to 7680x4320)"
        ));
    }
    Ok((w, h))
}

/// Checks a display scale (1.0–2.5).
pub fn check_scale(scale: f32) -> Result<f32, String> {
    if (1.0..=2.5).contains(&scale) {
        Ok(scale)
    } else {
        Err(format!(
            "display scale {scale} is out of range (1.0 to 2.5)"
        ))
    }
}

/// The deal named by `--seed N` or `--deck FILE` (default: seed 1).
pub fn deal_source(seed: Option<u64>, deck: Option<&str>) -> Result<(DealSource, Deck), Failure> {
    match (seed, deck) {
        (Some(_), Some(_)) => Err(Failure::input("give either --seed or --deck, not both")),
        (_, Some(file)) => {
            let text = read_text(file)?;
            let deck = Deck::parse(&text).map_err(|e| Failure::input(format!("{file}: {e}")))?;
            let name = Path::new(file)
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| file.to_string());
            Ok((DealSource::File(name), deck))
        }
        (seed, None) => {
            let n = seed.unwrap_or(1);
            Ok((DealSource::Seed(n), Deck::shuffled(n)))
        }
    }
}

pub fn load_theme(spec: &str) -> Result<Theme, Failure> {
    Theme::load(spec).map_err(|e| Failure::input(e.0))
}

/// Parses `--lag-ms A-B` (or a single number).
pub fn parse_lag(text: &str) -> Result<(u64, u64), String> {
    let bad = || format!("'{text}' is not a lag range: write A-B in milliseconds, like 50-400");
    let (a, b) = match text.split_once('-') {
        Some((a, b)) => (
            a.trim().parse().map_err(|_| bad())?,
            b.trim().parse().map_err(|_| bad())?,
        ),
        None => {
            let n = text.trim().parse().map_err(|_| bad())?;
            (n, n)
        }
    };
    if a > b || b > 60_000 {
        return Err(bad());
    }
    Ok((a, b))
}

pub struct TableArgs {
    pub game: &'static dyn Game,
    pub seed: Option<u64>,
    pub deck: Option<String>,
    pub theme: String,
    pub look: crate::table::look::Look,
    pub size: (u32, u32),
    pub scale: f32,
    pub animation_ms: u64,
    pub log: Option<String>,
    pub position: Option<(i32, i32)>,
    pub faults: Faults,
}

/// Opens the playable table.
pub fn run_table(args: TableArgs) -> CliResult {
    let (source, deck) = deal_source(args.seed, args.deck.as_deref())?;
    let renderer = args
        .game
        .renderer(load_theme(&args.theme)?, args.look)
        .map_err(Failure::input)?;
    let log: Option<Box<dyn std::io::Write>> = match &args.log {
        Some(path) => Some(Box::new(std::fs::File::create(path).map_err(|e| {
            Failure::input(format!("cannot write the event log {path}: {e}"))
        })?)),
        None => None,
    };
    let view = args.game.table(
        Deal { source, deck },
        renderer,
        args.scale,
        args.animation_ms,
        args.faults,
    );
    window::run(
        view,
        args.game.window_title(),
        window::WindowOptions {
            width: args.size.0,
            height: args.size.1,
            position: args.position,
        },
        log,
    )
    .map_err(|message| Failure { message, status: 1 })
}

pub struct RenderArgs {
    pub game: &'static dyn Game,
    pub seed: Option<u64>,
    pub deck: Option<String>,
    pub theme: String,
    pub look: crate::table::look::Look,
    pub size: (u32, u32),
    pub scale: f32,
    pub after: Option<String>,
    pub select: Option<String>,
    pub dialog: bool,
    pub interruption: Option<crate::table::interrupt::Interruption>,
    pub out: String,
}

/// Writes the picture of a position to a PNG.
pub fn run_render(args: RenderArgs) -> CliResult {
    let (source, deck) = deal_source(args.seed, args.deck.as_deref())?;
    let mut renderer = args
        .game
        .renderer(load_theme(&args.theme)?, args.look)
        .map_err(Failure::input)?;
    let deal = Deal { source, deck };
    let picture = Picture {
        deal: &deal,
        after: args.after.as_deref().unwrap_or(""),
        select: args.select.as_deref(),
        dialog: args.dialog,
        interruption: args.interruption,
        size: args.size,
        scale: args.scale,
    };
    let image = args
        .game
        .render(&mut renderer, &picture)
        .map_err(Failure::input)?;
    save_png(&image, &args.out).map_err(Failure::input)
}

/// Saves a PNG through a temporary file, so a failed write leaves nothing half-written.
pub fn save_png(image: &image::RgbaImage, out: &str) -> Result<(), String> {
    let path = Path::new(out);
    let tmp = path.with_extension(format!("tmp{}.png", std::process::id()));
    image
        .save_with_format(&tmp, image::ImageFormat::Png)
        .map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            format!("cannot write {out}: {e}")
        })?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("cannot write {out}: {e}")
    })
}
