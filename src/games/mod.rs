//! The games the project plays, one module each (its rules, solver and, for Pyramid so far, the
//! table and the agent's reading of it), and the registry that commands pick a game from by name.
//!
//! Commands speak to a game through [`Game`]: the fewest steps that clear a deal, a replay of
//! steps through the game's own rules (separate from its solver), and its practice table (the
//! window's content and a still picture of any position). Adding a game is adding a module and an
//! entry in [`GAMES`].

pub mod key_hash;
pub mod klondike;
pub mod packed_set;
pub mod peg;
pub mod pyramid;
pub mod spider;
pub mod tripeaks;
pub mod triple_klondike;

use crate::agent::io::World;
use crate::agent::report::{Cards, Report, Watch};
use crate::cards::Deck;
use crate::games::pyramid::vision::profile::Profile;
use crate::table::harness::{DealSource, Faults};
use crate::table::look::Look;
use crate::table::render::Renderer;
use crate::table::theme::Theme;
use crate::table::window::TableView;
use image::RgbaImage;

/// One deal's answer, in the terms every game shares.
#[derive(Clone, Debug)]
pub struct Answer {
    /// A shortest sequence of steps (as the game writes them) that wins, or `None` when none does.
    pub steps: Option<Vec<String>>,
    /// Positions the search expanded.
    pub states: u64,
    /// Bytes of the search's main structures at their largest.
    pub peak_bytes: usize,
    /// Wall time of the search, in milliseconds.
    pub millis: f64,
    /// For games with goals beyond the board (Pyramid): the goal and what the steps earn.
    pub goal: Option<GoalReport>,
}

/// What a line earns towards a goal (`solve --goal`; the JSON line's `goal`, `score`, `cards`
/// and `best`).
#[derive(Clone, Debug, serde::Serialize)]
pub struct GoalReport {
    /// The goal as `--goal` names it.
    pub goal: String,
    /// Points at the end of the steps (0 when the goal cannot be met: no steps).
    pub score: u32,
    /// For a goal of cards of one rank: those removed by the steps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cards: Option<u32>,
    /// When the goal cannot be met: the best the deal allows instead.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best: Option<BestLine>,
}

/// The best line a deal allows when the goal cannot be met: the highest score, or the most cards
/// of the rank, in the fewest steps.
#[derive(Clone, Debug, serde::Serialize)]
pub struct BestLine {
    pub score: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cards: Option<u32>,
    pub length: usize,
    pub steps: Vec<String>,
}

impl Answer {
    pub fn is_solvable(&self) -> bool {
        self.steps.is_some()
    }
    pub fn length(&self) -> Option<usize> {
        self.steps.as_ref().map(Vec::len)
    }
}

/// What commands need of a game.
pub trait Game: Sync {
    /// The name `--game` takes.
    fn name(&self) -> &'static str;
    /// How a deck file of this game is laid out, for help and messages.
    fn deck_layout(&self) -> &'static str;
    /// The fewest steps that win the Board challenge from the deal, or proof that none do.
    fn solve(&self, deck: &Deck) -> Answer;
    /// Plays `steps` from the deal through the game's rules: `Ok` when every step is legal and
    /// the board ends cleared, otherwise which step failed and why.
    fn replay(&self, deck: &Deck, steps: &[String]) -> Result<(), String>;
    /// Checks a goal's text (`solve --goal`). A game with only the Board challenge takes `board`.
    fn check_goal(&self, goal: &str) -> Result<(), String> {
        if goal.trim().eq_ignore_ascii_case("board") {
            Ok(())
        } else {
            Err(format!(
                "goal `{goal}`: {} has only the board goal",
                self.name()
            ))
        }
    }
    /// `solve` for a goal that `check_goal` accepted.
    fn solve_goal(&self, deck: &Deck, goal: &str) -> Answer {
        let _ = goal;
        self.solve(deck)
    }
    /// `replay` for a goal: every step legal and the goal met (for a goal of the most a deal
    /// allows, every step legal).
    fn replay_goal(&self, deck: &Deck, steps: &[String], goal: &str) -> Result<(), String> {
        let _ = goal;
        self.replay(deck, steps)
    }
    /// The title of its practice table's window (a contract: the agent finds the table by it).
    fn window_title(&self) -> &'static str;
    /// The game's variants the panel offers (Klondike's draws), this one among them; none for a
    /// game that has one.
    fn variants(&self) -> &'static [&'static dyn Game] {
        &[]
    }
    /// This variant's name as the panel shows it ("Draw 3"); empty for a game with one.
    fn variant(&self) -> &'static str {
        ""
    }
    /// What `table` is given besides `--game` to open this variant's practice table.
    fn table_args(&self) -> &'static [&'static str] {
        &[]
    }
    /// Whether `play` can calibrate the cards itself (Pyramid's table); the others play with a
    /// template set.
    fn calibrates(&self) -> bool {
        true
    }
    /// The layout profile that reads `frame` (`--profile auto`); games without profiles take the
    /// practice table's.
    fn choose_profile(&self, frame: &RgbaImage) -> Result<Profile, String> {
        let _ = frame;
        Ok(Profile::practice_table())
    }
    /// The looks its practice table has (`--look`): its own, and MSC's where it is drawn.
    fn looks(&self) -> &'static [Look] {
        &[Look::Practice]
    }
    /// A renderer of `theme` in `look`, or a message when the game's table has no such look.
    fn renderer(&self, theme: Theme, look: Look) -> Result<Renderer, String> {
        if self.looks().contains(&look) {
            Ok(Renderer::with_look(theme, look))
        } else {
            Err(format!(
                "the {} table has no `{}` look (it has: {})",
                self.name(),
                look.name(),
                self.looks()
                    .iter()
                    .map(|l| l.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        }
    }
    /// Its practice table for a deal, as the window shows it.
    fn table(
        &self,
        deal: Deal,
        renderer: Renderer,
        scale: f32,
        animation_ms: u64,
        faults: Faults,
    ) -> Box<dyn TableView>;
    /// A still picture of a position, the pixels the window would show.
    fn render(&self, renderer: &mut Renderer, picture: &Picture) -> Result<RgbaImage, String>;
    /// Plays the deal on screen in `world` (a game window, or the practice table in-process) to
    /// the end, learning the cards from `cards`; the report says how it went.
    fn play(
        &self,
        world: &mut dyn World,
        cards: Cards,
        profile: Profile,
        watch: &mut dyn Watch,
    ) -> Report;
    /// Plays a challenge (`play --goal GOAL --deals D`, the goal accepted by `check_goal`): deal
    /// after deal until it is met. A game with only the Board challenge plays the one deal.
    fn play_challenge(
        &self,
        world: &mut dyn World,
        cards: Cards,
        profile: Profile,
        watch: &mut dyn Watch,
        goal: &str,
        deals: u32,
    ) -> Report {
        let _ = (goal, deals);
        self.play(world, cards, profile, watch)
    }
}

/// A deal on the table: where it came from and its cards.
pub struct Deal {
    pub source: DealSource,
    pub deck: Deck,
}

/// A position to draw: a deal, the steps played from it, and what else shows.
pub struct Picture<'a> {
    pub deal: &'a Deal,
    /// Steps from the deal, comma separated, as `solve` writes them.
    pub after: &'a str,
    /// A card shown selected (games with a selection: Pyramid).
    pub select: Option<&'a str>,
    /// The Undo board dialog shows over the table.
    pub dialog: bool,
    /// An interruption shows over everything.
    pub interruption: Option<crate::table::interrupt::Interruption>,
    pub size: (u32, u32),
    pub scale: f32,
}

/// Every game, the default first.
pub static GAMES: [&dyn Game; 3] = [
    &pyramid::Pyramid,
    &tripeaks::TriPeaks,
    &klondike::game::DRAW_ONE,
];

/// Titles of the windows the agent plays in, most wanted first: MSC's, then each game's practice
/// table.
pub fn window_titles() -> impl Iterator<Item = &'static str> {
    let tables = GAMES.iter().map(|g| g.window_title());
    crate::platform::window::MSC_TITLES
        .into_iter()
        .chain(tables)
}

/// What `--game` names: one of the card games, or a game that is solved only: peg solitaire
/// (a puzzle), Spider, Klondike and Triple Klondike (no practice table or agent yet).
#[derive(Clone, Copy)]
pub enum Chosen {
    Cards(&'static dyn Game),
    Peg,
    Spider,
    Klondike,
    TripleKlondike,
}

/// The game named `name` (as `--game` takes it), or a message listing the names.
pub fn choose(name: &str) -> Result<Chosen, String> {
    if name.eq_ignore_ascii_case("peg") {
        return Ok(Chosen::Peg);
    }
    if name.eq_ignore_ascii_case("spider") {
        return Ok(Chosen::Spider);
    }
    if name.eq_ignore_ascii_case("klondike") {
        return Ok(Chosen::Klondike);
    }
    if name.eq_ignore_ascii_case("triple-klondike") {
        return Ok(Chosen::TripleKlondike);
    }
    find(name)
        .map(Chosen::Cards)
        .map_err(|e| format!("{e}, peg, spider, klondike, triple-klondike"))
}

/// The card game named `name` (as `--game` takes it), or a message listing the names.
pub fn find(name: &str) -> Result<&'static dyn Game, String> {
    GAMES
        .iter()
        .copied()
        .find(|g| g.name().eq_ignore_ascii_case(name))
        .ok_or_else(|| {
            let names: Vec<&str> = GAMES.iter().map(|g| g.name()).collect();
            format!("unknown game `{name}`: the games are {}", names.join(", "))
        })
}

/// Parses a comma-separated list of steps, such as `Draw,4c+9c,Kh`, with the game's step parser.
pub fn parse_step_list<S: std::str::FromStr<Err = String>>(text: &str) -> Result<Vec<S>, String> {
    text.split(',')
        .filter(|s| !s.trim().is_empty())
        .map(str::parse)
        .collect()
}

/// Parses each step with `parse`, or names the first that is not a step.
pub fn parse_each<S>(
    steps: &[String],
    parse: impl Fn(&str) -> Result<S, String>,
) -> Result<Vec<S>, String> {
    steps.iter().map(|s| parse(s)).collect()
}

/// The layout profile `spec` names: `auto` (found from the game's picture, for up to
/// `AUTO_PATIENCE_MS` while the window may still be painting), `practice-table`, `msc`, a name in
/// `calibration/` or a JSON file.
pub fn profile_for(game: &dyn Game, spec: &str, world: &mut dyn World) -> Result<Profile, String> {
    if !spec.trim().eq_ignore_ascii_case("auto") {
        return Profile::load(spec);
    }
    let start = world.now_ms();
    loop {
        let chosen = world
            .capture()
            .and_then(|frame| game.choose_profile(&frame));
        match chosen {
            Ok(profile) => return Ok(profile),
            Err(e) if world.now_ms() - start >= AUTO_PATIENCE_MS => return Err(e),
            Err(_) => world.sleep_ms(200),
        }
    }
}

/// How long `--profile auto` looks for a table in the game's picture.
pub const AUTO_PATIENCE_MS: u64 = 3000;
