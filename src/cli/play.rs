//! `solitaire-agent play`: one deal of any game played to the end without the panel, against a
//! real window (`--window TITLE`) or the game's practice table in-process (`--sim`); prints the
//! report (JSON contract), and where the game's log is (on stderr).

use super::labels::label_in_terminal;
use super::table::{deal_source, load_theme};
use super::{CliResult, Failure};
use crate::agent::desktop::DesktopGame;
use crate::agent::io::World;
use crate::agent::journal::play_logged;
use crate::agent::report::{Cards, Outcome, Report, Watch};
use crate::agent::sim::SimView;
use crate::cards::Card;
use crate::cards::Deck;
use crate::games::pyramid::vision::accuracy::calibrate_rendered_at;
use crate::games::pyramid::vision::profile::Profile;
use crate::games::{profile_for, Deal, Game};
use crate::table::harness::Faults;
use crate::table::render::Renderer;
use crate::vision::calibrate::Corners;
use crate::vision::groups::Groups;
use crate::vision::recognize::Matcher;
use crate::vision::templates::Templates;

pub struct PlayArgs {
    pub game: &'static dyn Game,
    pub window: Option<String>,
    pub sim: bool,
    pub seed: Option<u64>,
    pub deck: Option<String>,
    pub theme: String,
    pub look: crate::table::look::Look,
    pub size: (u32, u32),
    pub scale: f32,
    pub templates: Option<String>,
    pub calibrate_deck: Option<String>,
    pub calibrate: bool,
    pub profile: String,
    pub animation_ms: u64,
    pub faults: Faults,
    pub json: bool,
    /// The challenge (`board` by default) and the deals it may take.
    pub goal: String,
    pub deals: u32,
}

/// Templates for the practice table made the way a user would: one known deal seen whole, drawn
/// by the renderer at the size the agent will play at.
pub fn sim_templates(
    mut renderer: Renderer,
    size: (u32, u32),
    scale: f32,
) -> Result<Matcher, String> {
    let deck = Deck::shuffled(0x5eed);
    let templates = calibrate_rendered_at(&mut renderer, &deck, size, scale)?;
    Ok(Matcher::new(&templates))
}

/// The terminal as the agent's watcher: progress lines on stderr, and guided calibration's
/// labels typed in.
struct Terminal {
    verbose: bool,
}

/// Where guided calibration shows the grouped cards.
const GROUPS_PICTURE: &str = "calibration-groups.png";

impl Watch for Terminal {
    fn log(&mut self, line: &str) {
        if self.verbose {
            eprintln!("play: {line}");
        }
    }

    fn label(&mut self, corners: &Corners, groups: Groups) -> Result<Vec<Card>, String> {
        label_in_terminal(
            corners,
            groups,
            std::path::Path::new(GROUPS_PICTURE),
            &mut std::io::stdin().lock(),
            &mut std::io::stderr(),
        )
    }
}

fn print_report(report: &Report, json: bool) {
    if json {
        println!("{}", serde_json::to_string(report).expect("json"));
    } else {
        if let Some(c) = &report.challenge {
            let deals: Vec<String> = c
                .deals
                .iter()
                .enumerate()
                .map(|(i, d)| match d.cards {
                    Some(cards) => format!("deal {}: {} points, {cards} cards", i + 1, d.points),
                    None => format!("deal {}: {} points", i + 1, d.points),
                })
                .collect();
            println!(
                "challenge {} ({} deals at most): {}; in all {}, {}",
                c.goal,
                c.deals_allowed,
                deals.join("; "),
                c.total,
                if c.met { "met" } else { "not met" }
            );
        }
        println!("{}", report.summary());
    }
}

/// The layout profile `--profile` names; for `auto`, the one that finds the table in the game's
/// picture (said on stderr).
fn chosen_profile(args: &PlayArgs, world: &mut dyn World) -> Result<Profile, Failure> {
    let profile = profile_for(args.game, &args.profile, world).map_err(Failure::input)?;
    if args.profile.trim().eq_ignore_ascii_case("auto") && !args.json {
        eprintln!("play: layout profile: {} (found by auto)", profile.name);
    }
    Ok(profile)
}

pub fn run(args: PlayArgs) -> CliResult {
    args.game.check_goal(&args.goal).map_err(Failure::input)?;
    if args.deals == 0 {
        return Err(Failure::input("--deals must be at least 1"));
    }
    let cards = |renderer: Option<Renderer>| -> Result<Cards, Failure> {
        if let Some(file) = &args.calibrate_deck {
            let text = super::decks::read_text(file)?;
            let deck = Deck::parse(&text).map_err(|e| Failure::input(format!("{file}: {e}")))?;
            let save = args.templates.as_deref().map(Templates::save_path);
            return Ok(Cards::CalibrateFrom(deck, save));
        }
        if args.calibrate {
            let save = args.templates.as_deref().map(Templates::save_path);
            return Ok(Cards::CalibrateGuided(save));
        }
        if let Some(name) = &args.templates {
            let t = Templates::load(name).map_err(Failure::input)?;
            return Ok(Cards::Templates(Matcher::new(&t)));
        }
        match renderer {
            Some(renderer) => Ok(Cards::Templates(
                sim_templates(renderer, args.size, args.scale).map_err(Failure::input)?,
            )),
            None => Err(Failure::input(
                "give --templates NAME (made by `calibrate`), --calibrate-deck FILE (the cards of the deal on screen), or --calibrate (label the cards yourself)",
            )),
        }
    };
    let mut watch = Terminal {
        verbose: !args.json,
    };
    let (report, log) = if args.sim {
        let (source, deck) = deal_source(args.seed, args.deck.as_deref())?;
        let renderer = || {
            args.game
                .renderer(load_theme(&args.theme)?, args.look)
                .map_err(Failure::input)
        };
        let cards = cards(Some(renderer()?))?;
        let view = args.game.table(
            Deal { source, deck },
            renderer()?,
            args.scale,
            args.animation_ms,
            args.faults.clone(),
        );
        let mut world = SimView::new(view, args.size.0, args.size.1);
        let profile = chosen_profile(&args, &mut world)?;
        let heading = format!(
            "{} on the practice table ({} look) in-process, {}x{} at scale {}; goal {}, {} deals",
            args.game.name(),
            args.look.name(),
            args.size.0,
            args.size.1,
            args.scale,
            args.goal,
            args.deals
        );
        play_logged(&heading, &mut watch, |watch| {
            args.game
                .play_challenge(&mut world, cards, profile, watch, &args.goal, args.deals)
        })
    } else {
        let title = args.window.clone().ok_or_else(|| {
            Failure::input(format!(
                "give --window TITLE (e.g. \"{}\") or --sim",
                args.game.window_title()
            ))
        })?;
        let cards = cards(None)?;
        let mut world = DesktopGame::open(&title).map_err(Failure::input)?;
        let profile = chosen_profile(&args, &mut world)?;
        match world.esc_unwatched() {
            Some(why) => eprintln!("note: {why}; move the mouse to stop the agent"),
            None => eprintln!("press Esc or move the mouse to stop the agent"),
        }
        let heading = format!(
            "{} in the window \"{title}\"; goal {}, {} deals",
            args.game.name(),
            args.goal,
            args.deals
        );
        play_logged(&heading, &mut watch, |watch| {
            args.game
                .play_challenge(&mut world, cards, profile, watch, &args.goal, args.deals)
        })
    };
    if let Some(log) = &log {
        eprintln!("game log: {}", log.display());
    }
    print_report(&report, args.json);
    match report.result {
        Outcome::Cleared | Outcome::NoSolution | Outcome::GoalMet | Outcome::GoalNotMet => Ok(()),
        Outcome::Stopped => Err(Failure {
            message: format!("stopped: {}", report.reason),
            status: 3,
        }),
    }
}
