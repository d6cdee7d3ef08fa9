//! What the agent's thread and the panel share: the latest picture and reading, the plan and
//! progress, the log, the result, and the Pause/Stop switches. The agent writes through `PanelWatch`;
//! the panel only reads (and flips the switches).

use crate::agent::report::{Mark, Report, Watch};
use crate::cards::{Card, Rank, Suit};
use crate::vision::calibrate::Corners;
use crate::vision::groups::Groups;
use crate::vision::proposals::{known_faces, propose, Proposal};
use image::RgbaImage;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

#[derive(Default)]
pub struct Shared {
    pub frame: Option<Arc<RgbaImage>>,
    /// Bumped with every new frame, so the panel uploads it once.
    pub frame_version: u64,
    pub marks: Vec<Mark>,
    pub plan: Vec<String>,
    pub done: usize,
    pub log: Vec<String>,
    pub report: Option<Report>,
    /// The log of the game played (or being played).
    pub game_log: Option<std::path::PathBuf>,
    pub running: bool,
    /// Guided calibration waiting for the user's labels.
    pub labelling: Option<Labelling>,
}

/// Guided calibration in the panel: the grouped corners, the labels given so far (at first those
/// proposed), a card picked for a swap, and the answer the agent waits for.
pub struct Labelling {
    pub corners: Corners,
    pub groups: Groups,
    /// The labels proposed from the card faces the project knows, if any.
    pub proposed: Option<Proposal>,
    /// The rank of each row, once given.
    pub ranks: Vec<Option<Rank>>,
    /// The suit of each column, once given.
    pub suits: Vec<Option<Suit>>,
    /// A card clicked, waiting for the card to swap it with: (row, column).
    pub picked: Option<(usize, usize)>,
    /// What the agent gets: the cards, or why there are none.
    pub answer: Option<Result<Vec<Card>, String>>,
}

impl Labelling {
    /// Labelling `groups`, every row and column given its proposed label where there is one.
    pub fn new(corners: Corners, groups: Groups, proposed: Option<Proposal>) -> Labelling {
        let (ranks, suits) = match &proposed {
            Some(p) => (
                p.ranks.iter().map(|&r| Some(r)).collect(),
                p.suits.iter().map(|&s| Some(s)).collect(),
            ),
            None => (vec![None; groups.ranks.len()], vec![None; 4]),
        };
        Labelling {
            ranks,
            suits,
            corners,
            groups,
            proposed,
            picked: None,
            answer: None,
        }
    }

    /// Whether row `r`'s rank is still the one proposed (not yet changed by the user).
    pub fn rank_proposed(&self, r: usize) -> bool {
        self.proposed
            .as_ref()
            .is_some_and(|p| self.ranks[r] == Some(p.ranks[r]))
    }

    /// Whether column `k`'s suit is still the one proposed.
    pub fn suit_proposed(&self, k: usize) -> bool {
        self.proposed
            .as_ref()
            .is_some_and(|p| self.suits[k] == Some(p.suits[k]))
    }

    /// A click on a card: the first picks it, a second on another card swaps the two, a second on
    /// the same card lets it go.
    pub fn click(&mut self, cell: (usize, usize)) {
        match self.picked.take() {
            None => self.picked = Some(cell),
            Some(p) if p == cell => {}
            Some(p) => self.groups.swap(p, cell),
        }
    }

    /// The cards, when every row and column has its label (each once); else what is missing.
    pub fn cards(&self) -> Result<Vec<Card>, String> {
        let ranks: Option<Vec<Rank>> = self.ranks.iter().copied().collect();
        let suits: Option<Vec<Suit>> = self.suits.iter().copied().collect();
        match (ranks, suits) {
            (Some(r), Some(s)) => self.groups.cards(&r, &s),
            _ => {
                let rows = self.ranks.iter().filter(|r| r.is_none()).count();
                let cols = self.suits.iter().filter(|s| s.is_none()).count();
                Err(format!(
                    "{rows} rows still need a rank and {cols} columns a suit"
                ))
            }
        }
    }
}

/// The switches the panel flips.
#[derive(Default)]
pub struct Switches {
    pub pause: AtomicBool,
    pub stop: AtomicBool,
}

/// The agent's side: reports into `Shared`, obeys `Switches`.
pub struct PanelWatch {
    pub shared: Arc<Mutex<Shared>>,
    pub switches: Arc<Switches>,
    /// Asks the panel to repaint.
    pub wake: Box<dyn Fn() + Send>,
}

impl Watch for PanelWatch {
    fn log(&mut self, line: &str) {
        if let Ok(mut s) = self.shared.lock() {
            s.log.push(line.to_string());
        }
        (self.wake)();
    }

    fn seen(&mut self, frame: &Arc<RgbaImage>, marks: &[Mark]) {
        if let Ok(mut s) = self.shared.lock() {
            s.frame = Some(Arc::clone(frame));
            s.frame_version += 1;
            s.marks = marks.to_vec();
        }
        (self.wake)();
    }

    fn plan(&mut self, steps: &[String]) {
        if let Ok(mut s) = self.shared.lock() {
            s.plan = steps.to_vec();
            s.done = 0;
        }
        (self.wake)();
    }

    fn progress(&mut self, done: usize) {
        if let Ok(mut s) = self.shared.lock() {
            s.done = done;
        }
        (self.wake)();
    }

    /// Shows the grouping in the panel, with labels proposed, and waits for the user's labels
    /// (or Stop).
    fn label(&mut self, corners: &Corners, groups: Groups) -> Result<Vec<Card>, String> {
        let proposed = propose(corners, &groups, known_faces());
        if let Ok(mut s) = self.shared.lock() {
            s.labelling = Some(Labelling::new(corners.clone(), groups, proposed));
        }
        (self.wake)();
        loop {
            if self.switches.stop.load(Ordering::Relaxed) {
                if let Ok(mut s) = self.shared.lock() {
                    s.labelling = None;
                }
                return Err("stopped by the user".into());
            }
            if let Ok(mut s) = self.shared.lock() {
                if let Some(answer) = s.labelling.as_mut().and_then(|l| l.answer.take()) {
                    s.labelling = None;
                    drop(s);
                    (self.wake)();
                    return answer;
                }
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }

    fn proceed(&mut self) -> Result<(), String> {
        while self.switches.pause.load(Ordering::Relaxed) {
            if self.switches.stop.load(Ordering::Relaxed) {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        if self.switches.stop.load(Ordering::Relaxed) {
            return Err("stopped by the user".into());
        }
        Ok(())
    }
}
