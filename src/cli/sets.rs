//! `solitaire-agent templates`: the template sets found by name (saved in the data folder, then
//! shipped with the project) with their card size, when they were made and their theme's picture;
//! `--remove NAME` removes a saved one.

use super::{CliResult, Failure};
use crate::data::sets::{self, SetInfo};
use serde::Serialize;

pub struct SetsArgs {
    pub remove: Option<String>,
    pub json: bool,
}

/// One set in `--json`.
#[derive(Serialize)]
struct Listed<'a> {
    name: &'a str,
    dir: String,
    shipped: bool,
    card: Option<[u32; 2]>,
    made: Option<&'a str>,
    picture: Option<String>,
    problem: Option<&'a str>,
}

impl<'a> Listed<'a> {
    fn of(s: &'a SetInfo) -> Listed<'a> {
        Listed {
            name: &s.name,
            dir: s.dir.display().to_string(),
            shipped: s.shipped,
            card: s.card.map(|(w, h)| [w, h]),
            made: s.made.as_deref(),
            picture: s.picture.as_ref().map(|p| p.display().to_string()),
            problem: s.problem.as_deref(),
        }
    }
}

pub fn run(args: SetsArgs) -> CliResult {
    if let Some(name) = &args.remove {
        let dir = sets::remove(name).map_err(Failure::input)?;
        eprintln!("removed template set '{name}' ({})", dir.display());
        return Ok(());
    }
    let found = sets::list();
    if args.json {
        for s in &found {
            println!("{}", serde_json::to_string(&Listed::of(s)).expect("json"));
        }
        return Ok(());
    }
    match crate::data::templates_dir() {
        Ok(dir) => eprintln!("saved sets are kept in {}", dir.display()),
        Err(e) => eprintln!("no data folder: {e}"),
    }
    if found.is_empty() {
        eprintln!(
            "no template sets yet: make one with `calibrate`, `play --calibrate-deck` or the panel"
        );
        return Ok(());
    }
    println!(
        "{:<20} {:<8} {:>9}  {:<23} picture",
        "name", "where", "card", "made"
    );
    for s in &found {
        let card = s.card.map_or("?".into(), |(w, h)| format!("{w}x{h}"));
        let made = s.made.as_deref().unwrap_or("?");
        let picture = match (&s.problem, &s.picture) {
            (Some(problem), _) => format!("unusable: {problem}"),
            (None, Some(p)) => p.display().to_string(),
            (None, None) => "(none)".into(),
        };
        let place = if s.shipped { "shipped" } else { "saved" };
        println!("{:<20} {place:<8} {card:>9}  {made:<23} {picture}", s.name);
    }
    Ok(())
}
