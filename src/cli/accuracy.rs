//! `solitaire-agent accuracy`: how well the reader does, theme by theme and size by size, on frames
//! of the practice table whose cards are known (see `vision::accuracy`). Prints a table (right,
//! unsure, wrong per size) and the cards read as other cards.

use super::{CliResult, Failure};
use crate::cards::Deck;
use crate::games::pyramid::vision::accuracy::{
    calibrate_rendered_at, measure, Tally, CALIBRATION_SEED,
};
use crate::games::pyramid::vision::proposal_check::check_proposals;
use crate::table::render::Renderer;
use crate::table::theme::Theme;
use crate::vision::recognize::Matcher;
use std::collections::BTreeMap;

pub struct AccuracyArgs {
    /// The themes are the held-out ones (said in the heading).
    pub held_out: bool,
    /// The table's look the frames are drawn in (and the profile that reads them).
    pub look: crate::table::look::Look,
    /// Theme names or paths; "all" for the built-in theme and every installed one.
    pub themes: Vec<String>,
    pub sizes: Vec<(u32, u32, f32)>,
    /// The deals read (seeds).
    pub deals: std::ops::Range<u64>,
    /// Print every place not read right.
    pub verbose: bool,
    /// The window size and display scale the templates are calibrated at.
    pub calibrate_at: (u32, u32, f32),
}

/// The themes `--themes` names.
fn themes_named(specs: &[String]) -> Result<Vec<Theme>, Failure> {
    let mut themes = Vec::new();
    for spec in specs {
        if spec == "all" {
            themes.push(Theme::built_in());
            for path in Theme::installed() {
                themes.push(Theme::from_file(&path).map_err(|e| Failure::input(e.to_string()))?);
            }
        } else {
            themes.push(Theme::load(spec).map_err(|e| Failure::input(e.to_string()))?);
        }
    }
    Ok(themes)
}

/// `accuracy --proposals`: guided calibration's proposed labels on each theme's calibration deal,
/// proposed from every other known theme.
pub fn run_proposals(themes: &[String]) -> CliResult {
    let themes = themes_named(themes)?;
    println!(
        "Proposed labels for guided calibration: deal {CALIBRATION_SEED} at 1440x900, grouped as \
guided calibration groups it, proposed from the glyphs of every known theme but the one read"
    );
    println!();
    println!("| theme | grouped right | ranks right | suits right | cards right | all right |");
    println!("|---|---|---:|---:|---:|---|");
    let (mut all, mut labels, mut n) = (0, 0, 0);
    let known = crate::vision::proposals::named_glyphs(crate::vision::proposals::INDEX_BOX, &[]);
    for theme in themes {
        let c = check_proposals(theme, &known).map_err(Failure::input)?;
        let right = c.cards_right == 52;
        println!(
            "| {} | {} | {}/13 | {}/4 | {}/52 | {} |",
            c.theme,
            if c.grouped { "yes" } else { "no" },
            c.ranks_right,
            c.suits_right,
            c.cards_right,
            if right { "yes" } else { "no" }
        );
        all += usize::from(right);
        labels += usize::from(c.ranks_right == 13 && c.suits_right == 4);
        n += 1;
    }
    println!();
    println!(
        "every row's rank and column's suit proposed right on {labels} of {n} themes; every card \
right (the grouping right too) on {all}"
    );
    Ok(())
}

pub fn run(args: AccuracyArgs) -> CliResult {
    let themes = themes_named(&args.themes)?;
    let deck = Deck::shuffled(CALIBRATION_SEED);
    if args.held_out {
        println!(
            "HELD-OUT THEMES: installed themes changed in ways the reader was never tuned on, and \
             KDE's card decks"
        );
    }
    println!(
        "Reading accuracy, {} look (profile {}): templates calibrated once at {} (deal \
         {CALIBRATION_SEED}), {} deal{} per size{}, 3 positions each (full with a card selected, \
         half cleared, stock drawn out)",
        args.look.name(),
        crate::games::pyramid::vision::profile::Profile::of_look(args.look).name,
        match args.calibrate_at {
            (w, h, 1.0) => format!("{w}x{h}"),
            (w, h, s) => format!("{w}x{h}@{s}"),
        },
        args.deals.end - args.deals.start,
        if args.deals.end - args.deals.start == 1 {
            ""
        } else {
            "s"
        },
        match (args.deals.start, args.deals.end - args.deals.start) {
            (0, _) => String::new(),
            (first, 1) => format!(" (deal {first})"),
            (first, _) => format!(" (deals {first} to {})", args.deals.end - 1),
        }
    );
    println!();
    let header: Vec<String> = args
        .sizes
        .iter()
        .map(|(w, h, s)| format!("{w}x{h}@{s}"))
        .collect();
    println!("| theme | {} |", header.join(" | "));
    println!("|---|{}", "---:|".repeat(header.len()));
    let mut confusions: BTreeMap<String, usize> = BTreeMap::new();
    let mut total = Tally::default();
    let mut millis: Vec<Vec<(f64, f64)>> = vec![Vec::new(); args.sizes.len()];
    for theme in themes {
        let name = theme.name().to_string();
        eprintln!("{name}: calibrating...");
        let mut renderer = Renderer::with_look(theme, args.look);
        let cells: Vec<String> = match calibrate_rendered_at(
            &mut renderer,
            &deck,
            (args.calibrate_at.0, args.calibrate_at.1),
            args.calibrate_at.2,
        ) {
            Err(e) => vec![format!("calibration failed: {e}")],
            Ok(templates) => {
                let mut matcher = Matcher::new(&templates);
                args.sizes
                    .iter()
                    .zip(&mut millis)
                    .map(|(&size, millis)| {
                        eprintln!("{name}: reading at {}x{}@{}...", size.0, size.1, size.2);
                        let t = measure(&mut renderer, &mut matcher, size, args.deals.clone());
                        if args.verbose {
                            for m in &t.mistakes {
                                eprintln!("{name} {m}");
                            }
                        }
                        for (truth, read) in &t.confusions {
                            *confusions
                                .entry(format!("{truth} read as {read}"))
                                .or_default() += 1;
                        }
                        millis.extend(
                            t.millis
                                .iter()
                                .copied()
                                .zip(t.locate_millis.iter().copied()),
                        );
                        let cell = cell(&t);
                        total.right += t.right;
                        total.unsure += t.unsure;
                        total.wrong += t.wrong;
                        total.refused += t.refused;
                        cell
                    })
                    .collect()
            }
        };
        println!("| {name} | {} |", cells.join(" | "));
    }
    println!();
    println!(
        "All: {} places, {} right ({:.2}%), {} unsure, {} wrong; {} frames refused",
        total.places(),
        total.right,
        100.0 * total.right as f64 / total.places().max(1) as f64,
        total.unsure,
        total.wrong,
        total.refused
    );
    print_times(&header, &mut millis);
    if confusions.is_empty() {
        println!("Confusions: none");
    } else {
        println!("Confusions (truth read as):");
        let mut list: Vec<(String, usize)> = confusions.into_iter().collect();
        list.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        for (what, n) in list {
            println!("  {what}: {n}");
        }
    }
    Ok(())
}

/// How long a read took at each size, over every frame of every theme: (whole read, locating).
fn print_times(sizes: &[String], millis: &mut [Vec<(f64, f64)>]) {
    println!();
    println!("Time to read one frame (locate the table and read every card), ms:");
    println!();
    println!("| size | frames | mean | median | max | of which locating (mean) |");
    println!("|---|---:|---:|---:|---:|---:|");
    for (size, times) in sizes.iter().zip(millis.iter_mut()) {
        if times.is_empty() {
            continue;
        }
        times.sort_by(|a, b| a.0.total_cmp(&b.0));
        let n = times.len() as f64;
        let mean = times.iter().map(|t| t.0).sum::<f64>() / n;
        let locating = times.iter().map(|t| t.1).sum::<f64>() / n;
        println!(
            "| {size} | {} | {mean:.1} | {:.1} | {:.1} | {locating:.1} |",
            times.len(),
            times[times.len() / 2].0,
            times[times.len() - 1].0
        );
    }
    println!();
}

/// One table cell: the share read right, then unsure (?), wrong (✗) and refused frames when any.
fn cell(t: &Tally) -> String {
    let mut s = format!("{:.1}%", 100.0 * t.right as f64 / t.places().max(1) as f64);
    if t.unsure > 0 {
        s += &format!(" {}?", t.unsure);
    }
    if t.wrong > 0 {
        s += &format!(" {}✗", t.wrong);
    }
    if t.refused > 0 {
        s += &format!(" {} refused", t.refused);
    }
    s
}
