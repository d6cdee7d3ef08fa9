//! Helpers shared by the integration tests: running the command, the test decks, and replaying a
//! solution through the rules module (`pyramid::State::apply`), which shares no code with the
//! solver's move generation.

#![allow(dead_code)]

pub mod desktop;
pub mod launch;

use launch::Launch;

use solitaire_agent::agent::report::{Mark, Watch};
use solitaire_agent::agent::sim::SimView;
use solitaire_agent::games::pyramid::table::game::{PyramidView, Table};
use solitaire_agent::games::pyramid::vision::accuracy::{
    calibrate_rendered_at, measure, Tally, CALIBRATION_SEED,
};
use solitaire_agent::table::harness::Event;
use solitaire_agent::table::look::Look;
use solitaire_agent::table::render::Renderer;
use solitaire_agent::table::theme::Theme;
use solitaire_agent::vision::recognize::Matcher;

/// What a watcher was shown: the marks of every frame read, and the last plan.
#[derive(Default)]
pub struct Shown {
    pub marks: Vec<Vec<Mark>>,
    pub plan: Vec<String>,
}

impl Watch for Shown {
    fn seen(&mut self, _frame: &std::sync::Arc<image::RgbaImage>, marks: &[Mark]) {
        self.marks.push(marks.to_vec());
    }
    fn plan(&mut self, steps: &[String]) {
        self.plan = steps.to_vec();
    }
}

/// How many of a table's logged events `what` picks.
pub fn count(events: &[(u64, Event)], what: fn(&Event) -> bool) -> usize {
    events.iter().filter(|(_, e)| what(e)).count()
}

/// Runs `solitaire-agent ARGS`: its exit status, stdout and stderr.
pub fn run_cli(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_solitaire-agent"))
        .args(args)
        .run();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs `command` (the program with `--json`), which must succeed, and its JSON line.
pub fn json_line(command: &mut std::process::Command) -> serde_json::Value {
    let out = command.run();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON line")
}

/// The `steps` of a JSON line of the contract.
pub fn json_steps(line: &serde_json::Value) -> Vec<String> {
    line["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

/// Pyramid's table in-process as the agent's world, `width`×`height` at display `scale`.
pub fn pyramid_sim(
    table: Table,
    renderer: Renderer,
    width: u32,
    height: u32,
    scale: f32,
) -> SimView {
    SimView::new(
        Box::new(PyramidView::new(table, renderer, scale)),
        width,
        height,
    )
}

use solitaire_agent::cards::Deck;
use solitaire_agent::games::pyramid::{State, Step};
use std::path::PathBuf;

pub fn deck_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/decks")
        .join(name)
}

pub fn read_deck(name: &str) -> Deck {
    Deck::parse(&std::fs::read_to_string(deck_path(name)).unwrap()).unwrap()
}

/// The 1500 corpus decks with their proven optimal lengths (0 = no solution).
pub fn corpus() -> Vec<(Deck, usize)> {
    std::fs::read_to_string(deck_path("random-1500-optimal.tsv"))
        .unwrap()
        .lines()
        .map(|line| {
            let (deck, len) = line.split_once('\t').unwrap();
            (Deck::parse(deck).unwrap(), len.trim().parse().unwrap())
        })
        .collect()
}

/// Plays the steps from `start` with the rules; panics on an illegal step, returns the end state.
pub fn replay(start: &State, steps: &[Step]) -> State {
    let mut state = start.clone();
    for (i, step) in steps.iter().enumerate() {
        if let Err(e) = state.apply(*step) {
            panic!("step {} ({step}) is illegal: {e}", i + 1);
        }
    }
    state
}

/// Checks that the steps clear the pyramid from `start`, and that the last step is the one that
/// clears it (no step is wasted after the board is clear).
pub fn assert_clears(start: &State, steps: &[Step]) {
    let end = replay(start, steps);
    assert!(
        end.is_cleared(),
        "the solution leaves {} pyramid cards",
        end.pyramid_count()
    );
    if let Some((_, before)) = steps.split_last() {
        assert!(
            !replay(start, before).is_cleared(),
            "the board was clear before the last step"
        );
    }
}

/// What a user who can see the cards answers in guided calibration, given the grouping
/// (`rows[r][c]`: the corner in row r, column c) and the true card of every corner: the swaps
/// that put each card in the row of its rank and the column of its suit, then the rank of every
/// row and the suit of every column. Rows and columns take the label most of their cards have.
pub struct Answers {
    pub swaps: Vec<((usize, usize), (usize, usize))>,
    pub ranks: Vec<solitaire_agent::cards::Rank>,
    pub suits: Vec<solitaire_agent::cards::Suit>,
}

pub fn answers(rows: &[[usize; 4]], truth: &[solitaire_agent::cards::Card]) -> Answers {
    use solitaire_agent::cards::{Rank, Suit};
    // Labels by the most votes first, each label and each row or column once.
    fn pick<L: Copy + PartialEq>(votes: Vec<Vec<(L, usize)>>) -> Vec<L> {
        let mut all: Vec<(usize, usize, L)> = votes
            .iter()
            .enumerate()
            .flat_map(|(g, v)| v.iter().map(move |&(l, n)| (n, g, l)))
            .collect();
        all.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let mut out: Vec<Option<L>> = vec![None; votes.len()];
        for (_, g, l) in all {
            if out[g].is_none() && !out.contains(&Some(l)) {
                out[g] = Some(l);
            }
        }
        out.into_iter()
            .map(|l| l.expect("a label for every group"))
            .collect()
    }
    let ranks = pick(
        rows.iter()
            .map(|g| {
                Rank::all()
                    .map(|r| (r, g.iter().filter(|&&i| truth[i].rank == r).count()))
                    .collect()
            })
            .collect(),
    );
    let suits = pick(
        (0..4)
            .map(|c| {
                Suit::ALL
                    .iter()
                    .map(|&s| (s, rows.iter().filter(|g| truth[g[c]].suit == s).count()))
                    .collect()
            })
            .collect(),
    );
    let mut grid = rows.to_vec();
    let mut swaps = Vec::new();
    loop {
        let wrong = (0..grid.len())
            .flat_map(|r| (0..4).map(move |c| (r, c)))
            .find(|&(r, c)| {
                let card = truth[grid[r][c]];
                card.rank != ranks[r] || card.suit != suits[c]
            });
        let Some((r, c)) = wrong else { break };
        let card = truth[grid[r][c]];
        let to = (
            ranks.iter().position(|&x| x == card.rank).unwrap(),
            suits.iter().position(|&x| x == card.suit).unwrap(),
        );
        let there = grid[to.0][to.1];
        grid[to.0][to.1] = grid[r][c];
        grid[r][c] = there;
        swaps.push(((r, c), to));
    }
    Answers {
        swaps,
        ranks,
        suits,
    }
}

impl Answers {
    /// The answers as lines typed in the terminal.
    pub fn lines(&self) -> String {
        let cell = |(r, c): (usize, usize)| format!("{}{}", r + 1, (b'A' + c as u8) as char);
        let mut out = String::new();
        for (a, b) in &self.swaps {
            out.push_str(&format!("swap {} {}\n", cell(*a), cell(*b)));
        }
        let ranks: Vec<String> = self.ranks.iter().map(|r| r.char().to_string()).collect();
        let suits: Vec<String> = self.suits.iter().map(|s| s.char().to_string()).collect();
        out.push_str(&format!(
            "ranks {}\nsuits {}\n",
            ranks.join(" "),
            suits.join(" ")
        ));
        out
    }
}

/// Asserts that the KDE card deck at `path` is installed (the held-out themes' source), saying how
/// to install it when not.
pub fn assert_kde_deck(path: &str) {
    assert!(
        std::path::Path::new(path).is_file(),
        "{path} is missing: run scripts/setup (it installs kdegames-card-data-kf5)"
    );
}

/// At least `places` places read, none read as another card, no frame refused.
pub fn assert_none_wrong_or_refused(tally: &Tally, places: usize) {
    assert!(tally.places() >= places, "{} places", tally.places());
    assert_eq!(
        (tally.wrong, tally.refused),
        (0, 0),
        "{}",
        tally.mistakes.join("\n")
    );
}

/// `theme` in the msc look, calibrated in a `calibrated_at` window, is kept and reads deal 20 in
/// each of `windows` (scale 1): nine places in ten right, none read as another card, no frame
/// refused.
pub fn reads_deal_20_in(theme: &str, calibrated_at: (u32, u32), windows: &[(u32, u32)]) {
    let mut r = Renderer::with_look(Theme::load(theme).unwrap(), Look::Msc);
    let deck = Deck::shuffled(CALIBRATION_SEED);
    let templates = calibrate_rendered_at(&mut r, &deck, calibrated_at, 1.0)
        .unwrap_or_else(|e| panic!("{theme} refused: {e}"));
    let mut matcher = Matcher::new(&templates);
    for &(w, h) in windows {
        let tally = measure(&mut r, &mut matcher, (w, h, 1.0), 20..21);
        assert!(
            tally.right * 10 >= tally.places() * 9,
            "{theme} at {w}x{h}: {} of {} right",
            tally.right,
            tally.places()
        );
        assert_none_wrong_or_refused(&tally, 90);
    }
}
