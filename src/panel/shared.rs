//! What the agent's thread and the panel share: the latest picture and reading, the plan and
//! progress, the log, the result, and the Pause/Stop switches. The agent writes through `PanelWatch`;
//! the panel only reads (and flips the switches).

use crate::agent::play::{Report, Watch};
use crate::pyramid::step::Step;
use crate::table::layout::Rect;
use crate::vision::locate::Located;
use crate::vision::recognize::{Board, Seen};
use image::RgbaImage;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// One mark drawn over the capture: a place, what was read there, and how sure.
#[derive(Clone, Debug)]
pub struct Mark {
    pub rect: Rect,
    pub text: String,
    pub confidence: f32,
}

#[derive(Default)]
pub struct Shared {
    pub frame: Option<RgbaImage>,
    /// Bumped with every new frame, so the panel uploads it once.
    pub frame_version: u64,
    pub marks: Vec<Mark>,
    pub plan: Vec<String>,
    pub done: usize,
    pub log: Vec<String>,
    pub report: Option<Report>,
    pub running: bool,
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

fn marks(board: &Board, located: &Located) -> Vec<Mark> {
    let mut out = Vec::new();
    let mut add = |rect: Rect, seen: Seen| {
        let (text, confidence) = match seen {
            Seen::Empty => return,
            Seen::Card(c, conf) => (c.to_string(), conf),
            Seen::Unknown(conf) => ("?".to_string(), conf),
        };
        out.push(Mark {
            rect,
            text,
            confidence,
        });
    };
    for (i, s) in board.pyramid.iter().enumerate() {
        add(located.slots[i], *s);
    }
    add(located.stock, board.stock_top);
    add(located.waste, board.waste);
    out
}

impl Watch for PanelWatch {
    fn log(&mut self, line: &str) {
        if let Ok(mut s) = self.shared.lock() {
            s.log.push(line.to_string());
        }
        (self.wake)();
    }

    fn seen(&mut self, frame: &RgbaImage, board: Option<&Board>, located: Option<&Located>) {
        if let Ok(mut s) = self.shared.lock() {
            s.frame = Some(frame.clone());
            s.frame_version += 1;
            s.marks = match (board, located) {
                (Some(b), Some(l)) => marks(b, l),
                _ => Vec::new(),
            };
        }
        (self.wake)();
    }

    fn plan(&mut self, steps: &[Step]) {
        if let Ok(mut s) = self.shared.lock() {
            s.plan = steps.iter().map(|s| s.to_string()).collect();
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
