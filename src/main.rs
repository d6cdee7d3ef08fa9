//! The `solitaire-agent` command: parses arguments and hands each subcommand to `cli::*`.

use clap::{Parser, Subcommand};
use solitaire_agent::cli;
use solitaire_agent::games::Chosen;
use solitaire_agent::table::look::Look;

#[derive(Parser)]
#[command(
    name = "solitaire-agent",
    version = solitaire_agent::VERSION,
    about = "Plays Pyramid, TriPeaks and Klondike (Microsoft Solitaire Collection rules) by itself; solves their deals, Spider and Triple Klondike deals and peg solitaire",
    long_about = "Plays Pyramid, TriPeaks and Klondike (Microsoft Solitaire Collection rules) by \
itself (play --game NAME), and solves their deals (Pyramid's and TriPeaks' in the fewest steps, or \
proof of none), Spider deals with every card known (solve --game spider), Triple Klondike's \
contest deals (solve --game triple-klondike: a short line and the bound below which none wins) and \
peg solitaire (solve --game peg --board english|french|triangle).\n\n\
Decks are text: 52 cards written rank then suit (A23456789TJQK + cdhs, `10` also for ten), in deal \
order; any layout is accepted. Pyramid: the 28 pyramid cards row by row from the top, then the 24 \
stock cards from the top of the stock. TriPeaks: the 28 tableau cards row by row from the peak tops \
(3, 6, 9 and 10 cards), the waste's first card, then the 23 stock cards from the top. Klondike: \
the 28 pile cards, pile 1 to 7 each from its bottom card up, then the 24 stock cards from the top.\n\n\
With no subcommand it opens the control panel (a display is needed)."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Find the fewest steps that clear the board, or prove that no solution exists
    #[command(
        after_help = "Exit status: 0 when every deck was solved or proved unsolvable, 2 on bad input.\n\
Pyramid steps: Draw, Recycle, a king alone like Kh, or a pair summing to 13 like 4c+9c.\n\
TriPeaks steps: Draw, or a tableau card like 7h moved onto the waste.\n\
Spider (--game spider): a deck file of 104 cards, piles 1-10 each from its bottom card up, then the \
stock's five deals of ten; steps 3>5 (pile 3's top card onto pile 5), 3>5x4 (its top four) or Deal. \
The answer is a solution (not the shortest), proof of none, or undecided (\"decided\":false)."
    )]
    Solve {
        #[command(flatten)]
        game: GameArg,
        /// Deck files, one deck each in any layout (`-` reads standard input)
        files: Vec<String>,
        /// A file with one deck per line (tab-separated extra columns are ignored)
        #[arg(long, value_name = "FILE")]
        batch: Option<String>,
        /// Print one JSON object per deck per line
        #[arg(long)]
        json: bool,
        /// Solver threads for several decks (default: all cores)
        #[arg(long, value_name = "N")]
        threads: Option<usize>,
        /// Pyramid's challenge goals: board (clear the pyramid), score:N (at least N points),
        /// max-score (the highest score the deal allows), clear:R:N (remove N cards of rank R,
        /// e.g. clear:A:4). Fewest steps, or proof the goal cannot be met and the best line instead
        #[arg(long, value_name = "GOAL", default_value = "board")]
        goal: String,
        #[command(flatten)]
        peg: PegOptions,
        #[command(flatten)]
        spider: SpiderOptions,
        #[command(flatten)]
        klondike: KlondikeOptions,
    },
    /// Time the solver over deck files or seeded deals and print a table (default: Pyramid's
    /// 1500-deck corpus; other games: seeded deals 1-1000, Spider's 1-100, Triple Klondike's
    /// contest deals 1-10)
    Bench {
        #[command(flatten)]
        game: GameArg,
        /// Time seeded deals 1..=N instead of files (Triple Klondike: the contest's deals, N up to
        /// 100)
        #[arg(long, value_name = "N")]
        seeds: Option<u64>,
        /// Batch files (deck<TAB>expected length per line) or single-deck files
        files: Vec<String>,
        /// Solver threads (default: all cores)
        #[arg(long, value_name = "N")]
        threads: Option<usize>,
        /// The goal solved for, as `solve --goal` takes it (lengths in files are checked for
        /// board only; every line is replayed and must meet the goal)
        #[arg(long, value_name = "GOAL", default_value = "board")]
        goal: String,
        #[command(flatten)]
        spider: SpiderOptions,
        #[command(flatten)]
        klondike: KlondikeOptions,
        /// Klondike: time the agent's learning instead (what it plays to see the face-down cards
        /// of seeded deals, with the deal's own cards as what it reads), and whether each deal was
        /// then seen whole
        #[arg(long)]
        learn: bool,
    },
    /// Time the agent on the practice table's real window: N seeded deals, each opened with
    /// `table` and played with `play --window`, as a table of reveal and play time against the
    /// animations' floor
    #[command(
        after_help = "Needs a desktop (on Linux an X display: scripts/bench-play starts Xvfb and a window manager for it) with no practice table open. The templates are calibrated once from the renderer at the table's size and scale. The floor of a deal is (24 + steps) x the animation time: the stock's 24 draws, then one animation per step; solving time is not counted. The table's own event log gives the illegal moves and the clicks off every target. Exit status 1 when there was any, 2 on bad input."
    )]
    BenchPlay {
        /// Deals to play
        #[arg(long, value_name = "N", default_value_t = 5)]
        deals: u64,
        /// The first deal's seed (then S+1, S+2, ...)
        #[arg(long, value_name = "S", default_value_t = 1)]
        first_seed: u64,
        #[command(flatten)]
        look: LookArgs,
        /// How long a moving card takes on the table, in milliseconds
        #[arg(long, value_name = "MS", default_value_t = 300)]
        animation_ms: u64,
        /// Faults the table injects (as `table` takes them)
        #[command(flatten)]
        faults: FaultArgs,
    },
    /// Open the practice table: a playable window (titles "Pyramid Practice Table", "TriPeaks
    /// Practice Table" and "Klondike Practice Table")
    #[command(
        after_help = "Pyramid: click a card to select it, then its partner (they must add up to 13); \
click a king to remove it. Click the stock to draw (its top card pairs with a selected card, and a \
king on it is removed); click the empty stock to turn the waste over (twice at most).\n\
TriPeaks: click a face-up card one rank above or below the waste's top (A and K are neighbours) to \
move it onto the waste; click the stock to draw.\n\
Klondike (--draw 1 or 3): click a face-up card to pick it up with the cards on it (or the waste's or \
a foundation's top card), then click the pile or foundation it goes to; click the stock to draw, \
and the empty stock to turn the waste back.\n\
Undo takes back one move, Undo board restarts the deal (after OK in its dialog)."
    )]
    Table {
        #[command(flatten)]
        game: GameArg,
        #[command(flatten)]
        deal: DealArgs,
        #[command(flatten)]
        look: LookArgs,
        /// How long a moving card takes, in milliseconds
        #[arg(long, value_name = "MS", default_value_t = 300)]
        animation_ms: u64,
        /// Write the event log (one JSON object per line) to FILE
        #[arg(long, value_name = "FILE")]
        log: Option<String>,
        /// Where to put the window's top-left corner on the screen (the window manager may adjust)
        #[arg(long, value_name = "X,Y", value_parser = parse_position)]
        position: Option<(i32, i32)>,
        #[command(flatten)]
        faults: FaultArgs,
        #[command(flatten)]
        klondike: KlondikeOptions,
    },
    /// Draw a table position to a PNG file without a display (the pixels the window shows)
    Render {
        #[command(flatten)]
        game: GameArg,
        #[command(flatten)]
        deal: DealArgs,
        #[command(flatten)]
        look: LookArgs,
        /// Steps to play from the deal first, as `solve` writes them, e.g. "Draw,4c+9c,Kh"
        #[arg(long, value_name = "STEPS")]
        after: Option<String>,
        /// Show a card as selected: Pyramid's pyramid:0 ... pyramid:27 (top row first) or waste;
        /// Klondike's face-up card, like 7h (with the cards on it)
        #[arg(long, value_name = "SLOT")]
        select: Option<String>,
        /// Show the Undo board confirmation dialog over the table
        #[arg(long)]
        dialog: bool,
        /// Show one of MSC's interruptions over the table: no-moves, bonus or notice
        #[arg(long = "interrupt", value_name = "KIND", value_parser = solitaire_agent::table::interrupt::Interruption::parse)]
        interruption: Option<solitaire_agent::table::interrupt::Interruption>,
        /// The PNG file to write
        #[arg(long, value_name = "FILE")]
        out: String,
        #[command(flatten)]
        klondike: KlondikeOptions,
    },
    /// Play one deal to the end without the panel: in a game window, or against the practice table
    /// in-process (--sim)
    #[command(
        after_help = "Prints the report: result (cleared, no_solution, goal_met, goal_not_met, stopped), \
reason, steps, clicks, re-plans and the time spent revealing the stock, solving and playing; with \
--goal, the challenge: each deal's points (and cards of the rank) and whether it was met; dialogs: \
how many dialogs over the table were closed by their OK (one without an OK like the game's stops \
play, untouched). Exit status 0 when the deal was cleared or has no solution, or the challenge was \
played out (met or not), 3 when play stopped, 2 on bad input. Moving the mouse stops a --window game."
    )]
    Play {
        #[command(flatten)]
        game: GameArg,
        /// Title of the game window (e.g. "Pyramid Practice Table")
        #[arg(long, value_name = "TITLE", conflicts_with = "sim")]
        window: Option<String>,
        /// Play the practice table in-process (no display needed)
        #[arg(long)]
        sim: bool,
        #[command(flatten)]
        deal: DealArgs,
        #[command(flatten)]
        look: LookArgs,
        /// Card templates made by `calibrate` (--sim calibrates on its own when none are given);
        /// with --calibrate-deck, where to save the new set
        #[arg(long, value_name = "NAME|DIR")]
        templates: Option<String>,
        /// Calibrate first from the deal on screen, whose cards this deck file gives
        #[arg(long, value_name = "FILE")]
        calibrate_deck: Option<String>,
        /// Calibrate first from the deal on screen, whose cards you label in the terminal (13 ranks
        /// and 4 suits) once the agent has drawn through the stock
        #[arg(long, conflicts_with = "calibrate_deck")]
        calibrate: bool,
        /// Layout profile: auto (the one that finds the table in the game's picture; the report
        /// says which), practice-table, msc, or a JSON file
        #[arg(long, value_name = "NAME|FILE", default_value = "auto")]
        profile: String,
        /// --sim: animation time of the table
        #[arg(long, value_name = "MS", default_value_t = 300)]
        animation_ms: u64,
        /// Faults injected into the simulated table (--sim only)
        #[command(flatten)]
        faults: FaultArgs,
        /// Print the report as one JSON object
        #[arg(long)]
        json: bool,
        /// A Pyramid challenge: board (the default: clear this deal), score:N (N points in all),
        /// max-score, clear:R:N (N cards of rank R in all), as `solve --goal` takes them
        #[arg(long, value_name = "GOAL", default_value = "board")]
        goal: String,
        /// Deals the challenge may take: the agent plays deal after deal (New deal between) until
        /// the goal is met
        #[arg(long, value_name = "D", default_value_t = 1)]
        deals: u32,
        #[command(flatten)]
        klondike: KlondikeOptions,
    },
    /// List the template sets that can be used by name (saved by calibration in the data folder,
    /// then those shipped in templates/), or remove a saved one
    #[command(
        after_help = "The data folder is %APPDATA%\\solitaire-agent on Windows and \
~/.local/share/solitaire-agent on Linux (SOLITAIRE_AGENT_DATA overrides it). Each line gives a \
set's name, whether it is saved or shipped, its card size in the calibration frames, when it was \
made, and its theme's picture (a few of its index corners)."
    )]
    Templates {
        /// Remove the saved set of this name (shipped sets are left alone)
        #[arg(long, value_name = "NAME")]
        remove: Option<String>,
        /// One JSON object per set per line
        #[arg(long)]
        json: bool,
    },
    /// Open the control panel (also what running with no subcommand does)
    Panel {
        #[command(flatten)]
        game: GameArg,
        #[command(flatten)]
        klondike: KlondikeOptions,
        /// Open the game's practice table beside the panel at once (when no game window is open)
        #[arg(long)]
        open_table: bool,
    },
    /// Print the 52 cards of a seeded deal (the deck `table --seed N` and `render --seed N` deal)
    Deal {
        #[command(flatten)]
        game: GameArg,
        /// The seed
        #[arg(long, value_name = "N")]
        seed: u64,
        #[command(flatten)]
        spider: SpiderOptions,
        #[command(flatten)]
        klondike: KlondikeOptions,
    },
    /// Read a frame of the table: every card with its identity (the board as text, or JSON)
    #[command(
        after_help = "Exit status 2 when the frame is not a readable board (another window, a dialog \
over the cards, a covered window, cards in motion) or the templates are missing or damaged. \
Cards the reader is unsure of are shown as ? with their slot; nothing is guessed."
    )]
    Read {
        /// A PNG capture of the game window
        frame: String,
        /// Template set: a name (saved by `calibrate`; see `templates`) or a folder
        #[arg(long, value_name = "NAME|DIR")]
        templates: String,
        /// Layout profile: practice-table, msc, or a JSON file
        #[arg(long, value_name = "NAME|FILE", default_value = "practice-table")]
        profile: String,
        /// Print the JSON contract instead of text
        #[arg(long)]
        json: bool,
        /// Also time N reads of the frame one after another (a benchmark) and print their
        /// median, tenth percentile and time locating to stderr
        #[arg(long, value_name = "N", default_value_t = 0)]
        repeat: usize,
    },
    /// Measure the reader on rendered frames with known cards: a table of theme × size, the
    /// cards read as other cards, and how long a read takes
    #[command(
        after_help = "Each theme is calibrated once (at 1440x900 unless --calibrate-at says) from a \
known deal, then frames of \
other deals are read at each size: a fresh deal with a card selected, half cleared, and the stock \
drawn out. A cell gives the share of places read right, then unsure (?), wrong (✗) and refused \
frames. The time table gives, per size, how long reading one frame took (finding the table and \
reading every card), over all themes; build with --release for meaningful times."
    )]
    Accuracy {
        /// Themes: names, paths, "builtin", or "all" (the built-in theme and every installed
        /// one) [default: builtin,anglo]; with --held-out, some of the held-out themes by the
        /// names the table gives them (e.g. kde-jolly-royal,anglo+borderless) [default: all]
        #[arg(long, value_name = "LIST", value_delimiter = ',')]
        themes: Vec<String>,
        /// Window sizes, each WxH or WxH@SCALE
        #[arg(
            long,
            value_name = "LIST",
            value_delimiter = ',',
            default_value = "800x600,1024x768,1440x900,1920x1080,2560x1440,3840x2160,1920x1080@1.5,2560x1440@2.5"
        )]
        sizes: Vec<String>,
        /// Deals read at each size (three positions each)
        #[arg(long, value_name = "N", default_value_t = 5)]
        deals: u64,
        /// The first deal read (deals N, N+1, ...: later deals than the usual ones, to check the
        /// reader on deals it was not tuned on). The calibration deal is 1000
        #[arg(long, value_name = "N", default_value_t = 0)]
        first_deal: u64,
        /// Print every place not read right (on stderr)
        #[arg(long)]
        verbose: bool,
        /// Read the held-out themes instead, as a table of their own: installed themes changed in
        /// ways the reader was never tuned on (borderless faces, four-colour suits, cream paper),
        /// and KDE's card decks (Debian's kdegames-card-data-kf5)
        #[arg(long)]
        held_out: bool,
        /// The table's look the frames are drawn in, read with its profile: practice
        /// (practice-table) or msc (msc)
        #[arg(long, value_name = "LOOK", default_value = "practice", value_parser = Look::parse)]
        look: Look,
        /// Measure guided calibration's proposed labels instead: each theme's calibration deal
        /// grouped, its ranks and suits proposed from every other known theme
        #[arg(long)]
        proposals: bool,
        /// The window size the templates are calibrated at, WxH or WxH@SCALE (as a user calibrates
        /// at the size of their game window)
        #[arg(long, value_name = "WxH", default_value = "1440x900")]
        calibrate_at: String,
    },
    /// Learn the card pictures from frames of one deal and save a template set: labelled from the
    /// deal's deck file, or by you (13 ranks and 4 suits) when no deck is given
    #[command(
        after_help = "Without --deck the cards are grouped by what they show, 13 rows of one rank and 4 \
columns of one suit, saved as a picture (DIR/groups.png) and listed; then you type `ranks …` and \
`suits …` (and `swap 3B 5B` for a card in the wrong place). The answers can also come from a pipe."
    )]
    Calibrate {
        /// Folder with 00.png (the fresh table) and 01.png … 24.png (after each draw)
        #[arg(long, value_name = "DIR")]
        frames: String,
        /// The deal's deck file (without it, you label the grouped cards)
        #[arg(long, value_name = "FILE")]
        deck: Option<String>,
        /// Name of the template set (saved in the data folder's templates/NAME unless --out is
        /// given; `templates` lists them)
        #[arg(long, value_name = "NAME")]
        name: String,
        /// Layout profile: practice-table, msc, or a JSON file
        #[arg(long, value_name = "NAME|FILE", default_value = "practice-table")]
        profile: String,
        /// Save the set in this folder instead
        #[arg(long, value_name = "DIR")]
        out: Option<String>,
    },
}

/// Which game.
#[derive(clap::Args)]
struct GameArg {
    /// The game: pyramid, tripeaks or klondike (with --draw); peg (peg
    /// solitaire), spider and triple-klondike for solve and bench only (and their deal:
    /// triple-klondike's seeds are the contest's deals 1-100)
    #[arg(long, value_name = "NAME", default_value = "pyramid", value_parser = solitaire_agent::games::choose)]
    game: Chosen,
}

impl GameArg {
    /// The game whose practice table `table`, `render` and `play` use: a card game with a table
    /// (Klondike with its draw, 1 unless given).
    fn with_table(
        &self,
        draw: Option<solitaire_agent::games::klondike::Draw>,
    ) -> Result<&'static dyn solitaire_agent::games::Game, cli::Failure> {
        use solitaire_agent::games::klondike::{game::Klondike, Draw};
        match self.game {
            Chosen::Klondike => Ok(Klondike::with_draw(draw.unwrap_or(Draw::One))),
            _ if draw.is_some() => Err(cli::Failure::input(NOT_KLONDIKE)),
            _ => self.cards(),
        }
    }

    /// The card game chosen; peg solitaire has only `solve` and `bench`.
    fn cards(&self) -> Result<&'static dyn solitaire_agent::games::Game, cli::Failure> {
        match self.game {
            Chosen::Cards(game) => Ok(game),
            Chosen::Peg => Err(cli::Failure::input(
                "peg solitaire is a puzzle to solve (solve --game peg, bench --game peg): it has \
no deal, practice table or agent",
            )),
            Chosen::Spider => Err(cli::Failure::input(
                "Spider is solved only (solve, deal and bench --game spider): it has no practice \
table or agent yet",
            )),
            Chosen::Klondike => Ok(&solitaire_agent::games::klondike::game::DRAW_ONE),
            Chosen::TripleKlondike => Err(cli::Failure::input(
                "Triple Klondike is solved only (solve, deal and bench --game triple-klondike): \
it has no practice table or agent",
            )),
        }
    }
}

/// Spider's option.
#[derive(clap::Args)]
struct SpiderOptions {
    /// Spider's number of suits: 1, 2 or 4 (solve: checked against the deck, which says it
    /// otherwise; deal: 4 unless given; bench: each of 1, 2 and 4 unless given)
    #[arg(long, value_name = "N", value_parser = solitaire_agent::games::spider::Suits::parse)]
    suits: Option<solitaire_agent::games::spider::Suits>,
    /// Spider's and Klondike's search budget for solve and bench, before a deal is called
    /// undecided: Spider, positions searched (default 1000000); Klondike, classes of positions its
    /// deciding search remembers (default 20000000; at most about 40 bytes of memory each)
    #[arg(long, value_name = "POSITIONS")]
    budget: Option<u64>,
}

impl SpiderOptions {
    /// Whether a Spider option was given (to another game, it is an error).
    fn given(&self) -> bool {
        self.suits.is_some() || self.budget.is_some()
    }
    fn budget(&self) -> u64 {
        self.budget
            .unwrap_or(solitaire_agent::games::spider::solver::BUDGET)
    }
    /// Klondike's budgets: the default ones, with `--budget` as the deciding search's.
    fn klondike_budget(&self) -> solitaire_agent::games::klondike::solver::Budget {
        let mut budget = solitaire_agent::games::klondike::solver::Budget::default();
        if let Some(n) = self.budget {
            budget.decide = n as usize;
        }
        budget
    }
}

/// Klondike's option.
#[derive(clap::Args)]
struct KlondikeOptions {
    /// Klondike's draw: 1 or 3 cards turned from the stock at a time (solve, table, render, play
    /// and panel: 1 unless given; bench: each of 1 and 3 unless given)
    #[arg(long, value_name = "N", value_parser = solitaire_agent::games::klondike::Draw::parse)]
    draw: Option<solitaire_agent::games::klondike::Draw>,
}

/// The message for Klondike's option given to another game.
const NOT_KLONDIKE: &str = "--draw is Klondike's: add --game klondike";

/// Peg solitaire's options of `solve`.
#[derive(clap::Args)]
struct PegOptions {
    /// Peg solitaire's board: english (33 holes), french (37) or triangle (15)
    #[arg(long, value_name = "BOARD")]
    board: Option<String>,
    /// Peg solitaire's empty hole at the start (default: the centre, d4; the triangle's top, 1)
    #[arg(long, value_name = "HOLE")]
    start: Option<String>,
    /// Where peg solitaire's last peg must end: start (the default), any, or a hole
    #[arg(long, value_name = "WHERE")]
    end: Option<String>,
    /// Also count every solution of the peg solitaire game
    #[arg(long)]
    count: bool,
}

impl PegOptions {
    /// Whether a peg solitaire option was given (to another game, it is an error).
    fn given(&self) -> bool {
        self.board.is_some() || self.start.is_some() || self.end.is_some() || self.count
    }
}

/// Faults the table injects, for testing players.
#[derive(clap::Args)]
struct FaultArgs {
    /// Ignore this share of clicks (0.0-1.0)
    #[arg(long, value_name = "P", default_value_t = 0.0)]
    drop_click_rate: f64,
    /// Delay each move's animation, and the drawing of the Undo board dialog (the table dims at
    /// once), by a random A-B milliseconds
    #[arg(long, value_name = "A-B")]
    lag_ms: Option<String>,
    /// Seed of the injected faults (the same seed repeats the same faults)
    #[arg(long, value_name = "N", default_value_t = 0)]
    fault_seed: u64,
    /// Raise one of MSC's interruptions over the table after the STEP-th move (counting every
    /// move, draws included): no-moves (OK), bonus (PLAY / NO THANKS) or notice (a banner with
    /// OK over the cards). Repeat for more; each is logged
    #[arg(long = "interrupt", value_name = "STEP:KIND", value_parser = solitaire_agent::table::interrupt::Planned::parse)]
    interrupts: Vec<solitaire_agent::table::interrupt::Planned>,
}

/// Which deal to show.
#[derive(clap::Args)]
struct DealArgs {
    /// A seeded random deal (default: seed 1)
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// A deck file (52 cards in any layout)
    #[arg(long, value_name = "FILE")]
    deck: Option<String>,
}

/// How the table looks.
#[derive(clap::Args)]
struct LookArgs {
    /// Card art: builtin, an installed aisleriot theme name (e.g. anglo), or a .svgz file
    #[arg(long, value_name = "NAME|PATH", default_value = "builtin")]
    theme: String,
    /// Window size in pixels
    #[arg(long, value_name = "WxH", default_value = "1200x760", value_parser = parse_size)]
    size: (u32, u32),
    /// Display scale as on Windows (1.0-2.5): larger toolbar, text and status line
    #[arg(long, value_name = "F", default_value_t = 1.0, value_parser = parse_scale)]
    scale: f32,
    /// The table's look (Pyramid): practice (its own layout) or msc (Microsoft Solitaire
    /// Collection's proportions: covered cards show only their index corner, buttons in a bar at
    /// the bottom)
    #[arg(long = "look", value_name = "LOOK", default_value = "practice", value_parser = Look::parse)]
    table_look: Look,
}

/// A window size with an optional display scale: "1920x1080" or "1920x1080@1.5".
/// `X,Y`: a point on the screen.
fn parse_position(text: &str) -> Result<(i32, i32), String> {
    let bad = || format!("'{text}' is not a position: write X,Y, like 0,0");
    let (x, y) = text.split_once(',').ok_or_else(bad)?;
    Ok((
        x.trim().parse().map_err(|_| bad())?,
        y.trim().parse().map_err(|_| bad())?,
    ))
}

fn parse_size_at(text: &str) -> Result<(u32, u32, f32), String> {
    let (size, scale) = match text.split_once('@') {
        Some((size, scale)) => (
            size,
            scale
                .parse::<f32>()
                .ok()
                .filter(|s| (1.0..=2.5).contains(s))
                .ok_or_else(|| format!("'{text}': the scale after @ must be 1.0 to 2.5"))?,
        ),
        None => (text, 1.0),
    };
    let (w, h) = parse_size(size)?;
    Ok((w, h, scale))
}

fn parse_size(text: &str) -> Result<(u32, u32), String> {
    cli::table::parse_size(text)
}

fn parse_scale(text: &str) -> Result<f32, String> {
    let f: f32 = text
        .parse()
        .map_err(|_| format!("'{text}' is not a number"))?;
    cli::table::check_scale(f)
}

fn threads(n: Option<usize>) -> usize {
    n.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1)
}

fn table_faults(args: &FaultArgs) -> Result<solitaire_agent::table::harness::Faults, cli::Failure> {
    let (drop_click_rate, lag_ms, seed) = (
        args.drop_click_rate,
        args.lag_ms.as_deref(),
        args.fault_seed,
    );
    if !(0.0..=1.0).contains(&drop_click_rate) {
        return Err(cli::Failure::input(format!(
            "--drop-click-rate {drop_click_rate} is not a share between 0 and 1"
        )));
    }
    let lag_ms = match lag_ms {
        Some(text) => cli::table::parse_lag(text).map_err(cli::Failure::input)?,
        None => (0, 0),
    };
    Ok(solitaire_agent::table::harness::Faults {
        drop_click_rate,
        lag_ms,
        seed,
        interrupts: args.interrupts.clone(),
    })
}

fn main() {
    // Before any window is opened or asked about: physical pixels at every display scaling.
    solitaire_agent::platform::dpi::become_aware();
    let args = Cli::parse();
    if let Err(failure) = run(args.command) {
        eprintln!("solitaire-agent: {}", failure.message);
        std::process::exit(failure.status);
    }
}

/// Runs one subcommand (the panel with none).
fn run(command: Option<Command>) -> cli::CliResult {
    match command {
        Some(Command::Solve {
            game,
            files,
            batch,
            json,
            threads: t,
            goal,
            peg,
            spider,
            klondike,
        }) => match game.game {
            Chosen::TripleKlondike
                if peg.given() || spider.given() || klondike.draw.is_some() || goal != "board" =>
            {
                Err(cli::Failure::input(
                    "solve --game triple-klondike takes deck files or --batch, --json and --threads: \
its goal is to win the deal, one card turned at a time",
                ))
            }
            Chosen::TripleKlondike => cli::triple_klondike::solve(cli::triple_klondike::TripleArgs {
                files,
                batch,
                json,
                threads: threads(t),
            }),
            Chosen::Klondike if peg.given() || spider.suits.is_some() || goal != "board" => {
                Err(cli::Failure::input(
                    "solve --game klondike takes deck files or --batch, --draw, --budget, --json and --threads: \
its goal is to win the deal",
                ))
            }
            Chosen::Klondike => cli::klondike::solve(cli::klondike::KlondikeArgs {
                files,
                batch,
                json,
                draw: klondike.draw.unwrap_or(solitaire_agent::games::klondike::Draw::One),
                budget: spider.klondike_budget(),
                threads: threads(t),
            }),
            _ if klondike.draw.is_some() => Err(cli::Failure::input(NOT_KLONDIKE)),
            Chosen::Spider if peg.given() => Err(cli::Failure::input(
                "--board, --start, --end and --count are peg solitaire's: add --game peg",
            )),
            Chosen::Spider => {
                if goal != "board" {
                    return Err(cli::Failure::input(
                        "--goal is for Pyramid: Spider's goal is to clear the table",
                    ));
                }
                cli::spider::solve(cli::spider::SpiderArgs {
                    files,
                    batch,
                    json,
                    suits: spider.suits,
                    budget: spider.budget(),
                    threads: threads(t),
                })
            }
            _ if spider.given() => Err(cli::Failure::input(
                "--suits is Spider's, --budget Spider's and Klondike's (solve, bench): add --game spider",
            )),
            Chosen::Cards(_) if peg.given() => Err(cli::Failure::input(
                "--board, --start, --end and --count are peg solitaire's: add --game peg",
            )),
            Chosen::Peg => {
                if goal != "board" {
                    return Err(cli::Failure::input(
                        "--goal is for card games: peg solitaire takes --end",
                    ));
                }
                if !files.is_empty() || batch.is_some() {
                    return Err(cli::Failure::input(
                        "peg solitaire takes --board (and --start, --end), not deck files",
                    ));
                }
                cli::peg::solve(cli::peg::PegArgs {
                    board: peg.board,
                    start: peg.start,
                    end: peg.end,
                    count: peg.count,
                    json,
                })
            }
            Chosen::Cards(game) => {
                cli::solve::run(cli::solve::SolveArgs {
                    game,
                    files,
                    batch,
                    json,
                    threads: threads(t),
                    goal,
                })
            }
        },
        Some(Command::Table {
            game,
            deal,
            look,
            animation_ms,
            log,
            position,
            faults,
            klondike,
        }) => table_faults(&faults).and_then(|faults| {
            cli::table::run_table(cli::table::TableArgs {
                game: game.with_table(klondike.draw)?,
                seed: deal.seed,
                deck: deal.deck,
                theme: look.theme,
                look: look.table_look,
                size: look.size,
                scale: look.scale,
                animation_ms,
                log,
                position,
                faults,
            })
        }),
        Some(Command::Render {
            game,
            deal,
            look,
            after,
            select,
            dialog,
            interruption,
            out,
            klondike,
        }) => cli::table::run_render(cli::table::RenderArgs {
            game: game.with_table(klondike.draw)?,
            seed: deal.seed,
            deck: deal.deck,
            theme: look.theme,
            look: look.table_look,
            size: look.size,
            scale: look.scale,
            after,
            select,
            dialog,
            interruption,
            out,
        }),
        Some(Command::Play {
            game,
            window,
            sim,
            deal,
            look,
            templates,
            calibrate_deck,
            calibrate,
            profile,
            animation_ms,
            faults,
            json,
            goal,
            deals,
            klondike,
        }) => table_faults(&faults).and_then(|faults| {
            cli::play::run(cli::play::PlayArgs {
                game: game.with_table(klondike.draw)?,
                window,
                sim,
                seed: deal.seed,
                deck: deal.deck,
                theme: look.theme,
                look: look.table_look,
                size: look.size,
                scale: look.scale,
                templates,
                calibrate_deck,
                calibrate,
                profile,
                animation_ms,
                faults,
                json,
                goal,
                deals,
            })
        }),
        Some(Command::Deal {
            game,
            seed,
            spider,
            klondike,
        }) => {
            if let Chosen::TripleKlondike = game.game {
                if spider.given() || klondike.draw.is_some() {
                    return Err(cli::Failure::input(
                        "deal --game triple-klondike takes --seed N only (the contest's deal N)",
                    ));
                }
                return cli::triple_klondike::deal(seed);
            }
            if let Chosen::Klondike = game.game {
                if spider.given() {
                    return Err(cli::Failure::input(
                        "--suits is Spider's, --budget Spider's and Klondike's (solve, bench): add --game spider",
                    ));
                }
                return cli::klondike::deal(seed);
            }
            if klondike.draw.is_some() {
                return Err(cli::Failure::input(NOT_KLONDIKE));
            }
            if let Chosen::Spider = game.game {
                return cli::spider::deal(seed, spider.suits);
            }
            if spider.given() {
                return Err(cli::Failure::input(
                    "--suits is Spider's, --budget Spider's and Klondike's (solve, bench): add --game spider",
                ));
            }
            game.cards()?;
            // Every game deals the same shuffled deck; the game says how its cards lie.
            println!("{}", solitaire_agent::cards::Deck::shuffled(seed));
            Ok(())
        }
        Some(Command::Read {
            frame,
            templates,
            profile,
            json,
            repeat,
        }) => cli::vision::run_read(cli::vision::ReadArgs {
            frame,
            templates,
            profile,
            json,
            repeat,
        }),
        Some(Command::Accuracy {
            themes,
            sizes,
            deals,
            first_deal,
            verbose,
            held_out,
            look,
            proposals,
            calibrate_at,
        }) => (|| {
            let themes = if held_out {
                solitaire_agent::table::variant::held_out_named(&themes)
                    .map_err(cli::Failure::input)?
            } else if themes.is_empty() {
                vec!["builtin".to_string(), "anglo".to_string()]
            } else {
                themes
            };
            if proposals {
                return cli::accuracy::run_proposals(&themes);
            }
            let sizes = sizes
                .iter()
                .map(|s| parse_size_at(s))
                .collect::<Result<Vec<_>, _>>()
                .map_err(cli::Failure::input)?;
            cli::accuracy::run(cli::accuracy::AccuracyArgs {
                held_out,
                look,
                themes,
                sizes,
                deals: first_deal..first_deal.saturating_add(deals),
                verbose,
                calibrate_at: parse_size_at(&calibrate_at).map_err(cli::Failure::input)?,
            })
        })(),
        Some(Command::Calibrate {
            frames,
            deck,
            name,
            profile,
            out,
        }) => cli::vision::run_calibrate(cli::vision::CalibrateArgs {
            frames,
            deck,
            name,
            profile,
            out,
        }),
        Some(Command::Bench {
            game,
            seeds,
            files,
            threads: t,
            goal,
            spider,
            klondike,
            learn,
        }) => match game.game {
            Chosen::Klondike if learn && (goal != "board" || !files.is_empty() || spider.given()) => {
                Err(cli::Failure::input(
                    "bench --game klondike --learn plays seeded deals (--seeds N, --draw): it takes no goal or files",
                ))
            }
            Chosen::Klondike if learn => {
                cli::klondike::bench_learn(seeds.unwrap_or(100), klondike.draw, threads(t))
            }
            _ if learn => Err(cli::Failure::input(
                "--learn is Klondike's (the agent's learning of face-down cards): add --game klondike",
            )),
            Chosen::TripleKlondike
                if goal != "board"
                    || !files.is_empty()
                    || spider.given()
                    || klondike.draw.is_some() =>
            {
                Err(cli::Failure::input(
                    "bench --game triple-klondike solves the contest's deals (--seeds N): it takes no goal, files, --draw or --suits",
                ))
            }
            Chosen::TripleKlondike => cli::triple_klondike::bench(seeds.unwrap_or(10), threads(t)),
            Chosen::Klondike if goal != "board" || !files.is_empty() || spider.suits.is_some() => {
                Err(cli::Failure::input(
                    "bench --game klondike decides seeded deals (--seeds N, --draw, --budget): it takes no goal, files or --suits",
                ))
            }
            Chosen::Klondike => cli::klondike::bench(
                seeds.unwrap_or(1000),
                klondike.draw,
                spider.klondike_budget(),
                threads(t),
            ),
            _ if klondike.draw.is_some() => Err(cli::Failure::input(NOT_KLONDIKE)),
            Chosen::Spider if goal != "board" || !files.is_empty() => Err(cli::Failure::input(
                "bench --game spider decides seeded deals (--seeds N, --suits): it takes no goal or files",
            )),
            Chosen::Spider => cli::spider::bench(
                seeds.unwrap_or(100),
                spider.suits,
                spider.budget(),
                threads(t),
            ),
            _ if spider.given() => Err(cli::Failure::input(
                "--suits is Spider's, --budget Spider's and Klondike's (solve, bench): add --game spider",
            )),
            Chosen::Peg if goal != "board" => Err(cli::Failure::input(
                "--goal is for card games: peg solitaire takes --end",
            )),
            Chosen::Peg if seeds.is_none() && files.is_empty() => cli::peg::bench(),
            Chosen::Peg => Err(cli::Failure::input(
                "bench --game peg decides every start of every board; it takes no files or seeds",
            )),
            Chosen::Cards(game) => cli::bench::run(cli::bench::BenchArgs {
                game,
                seeds,
                files,
                threads: threads(t),
                goal,
            }),
        },
        Some(Command::BenchPlay {
            deals,
            first_seed,
            look,
            animation_ms,
            faults,
        }) => {
            table_faults(&faults)?;
            let mut passed: Vec<String> = Vec::new();
            if faults.drop_click_rate > 0.0 {
                passed.extend(["--drop-click-rate".into(), faults.drop_click_rate.to_string()]);
            }
            if let Some(lag) = faults.lag_ms {
                passed.extend(["--lag-ms".into(), lag]);
            }
            if !passed.is_empty() {
                passed.extend(["--fault-seed".into(), faults.fault_seed.to_string()]);
            }
            for p in &faults.interrupts {
                passed.extend(["--interrupt".into(), format!("{}:{}", p.after, p.kind.name())]);
            }
            cli::bench_play::run(cli::bench_play::BenchPlayArgs {
                deals,
                first_seed,
                theme: look.theme,
                look: look.table_look,
                size: look.size,
                scale: look.scale,
                animation_ms,
                faults: passed,
            })
        }
        Some(Command::Templates { remove, json }) => {
            cli::sets::run(cli::sets::SetsArgs { remove, json })
        }
        Some(Command::Panel {
            game,
            klondike,
            open_table,
        }) => {
            solitaire_agent::panel::run(Some(game.with_table(klondike.draw)?), open_table)
                .map_err(|message| cli::Failure { message, status: 1 })
        }
        None => solitaire_agent::panel::run(None, false)
            .map_err(|message| cli::Failure { message, status: 1 }),
    }
}
