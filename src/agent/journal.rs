//! A log of every game played, one file per game in the data folder's `logs/` (the last
//! `KEEP_LOGS` kept): what was read, the plan, each click and what followed, and why play ended.
//! The agent's loop and its hands emit `tracing` events; while a game is played they go to that
//! game's file (a subscriber for the playing thread only). Frames are kept beside the log where a
//! read was refused or unsure, and the last one seen when play stopped.

use crate::agent::report::{Mark, Outcome, Report, Watch};
use crate::cards::Card;
use crate::data::stamp;
use crate::vision::calibrate::Corners;
use crate::vision::groups::Groups;
use image::RgbaImage;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// How many game logs are kept (older ones are removed when a game starts).
pub const KEEP_LOGS: usize = 30;

/// At most this many frames are kept for one game.
const MOST_FRAMES: usize = 20;

/// Plays with every event of the playing thread written to a new log file: `play` is handed the
/// watcher to use. Returns the report and the log's path (none when no log could be made: then
/// `watch` hears why, and play goes on).
pub fn play_logged(
    heading: &str,
    watch: &mut dyn Watch,
    play: impl FnOnce(&mut dyn Watch) -> Report,
) -> (Report, Option<PathBuf>) {
    let opened = crate::data::logs_dir().and_then(|dir| {
        let path = new_log(&dir)?;
        let file = std::fs::File::create(&path)
            .map_err(|e| format!("cannot create {}: {e}", path.display()))?;
        Ok((path, file))
    });
    let (path, file) = match opened {
        Ok(opened) => opened,
        Err(e) => {
            watch.log(&format!("no game log: {e}"));
            return (play(watch), None);
        }
    };
    let subscriber = tracing_subscriber::fmt()
        .with_writer(Mutex::new(file))
        .with_target(false)
        .with_max_level(tracing::Level::INFO)
        .finish();
    let dispatch = tracing::Dispatch::new(subscriber);
    let frames = path.with_extension("");
    let report = tracing::dispatcher::with_default(&dispatch, || {
        tracing::info!("{heading} ({})", crate::VERSION);
        let mut logged = Logged {
            inner: watch,
            frames,
            saved: 0,
            last: None,
        };
        let report = play(&mut logged);
        let how = format!("ended {}", report.summary());
        if report.result == Outcome::Stopped {
            if let Some(frame) = logged.last.take() {
                logged.keep(&frame, "stop");
            }
            tracing::warn!("{how}");
        } else {
            tracing::info!("{how}");
        }
        report
    });
    (report, Some(path))
}

/// A new log's path in `dir` (created), named by the time and this process, after removing the
/// oldest logs beyond `KEEP_LOGS - 1`.
fn new_log(dir: &Path) -> Result<PathBuf, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    prune(dir, KEEP_LOGS - 1);
    let stem = format!(
        "{}-{}",
        stamp::file_text(stamp::now_secs()),
        std::process::id()
    );
    let mut path = dir.join(format!("{stem}.log"));
    let mut n = 1;
    while path.exists() {
        n += 1;
        path = dir.join(format!("{stem}-{n}.log"));
    }
    Ok(path)
}

/// The logs in `dir`, oldest first (their names begin with the time).
pub fn logs(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "log"))
                .collect()
        })
        .unwrap_or_default();
    found.sort();
    found
}

/// Removes the oldest logs (and their frames) so that at most `keep` remain.
fn prune(dir: &Path, keep: usize) {
    let found = logs(dir);
    let extra = found.len().saturating_sub(keep);
    for old in &found[..extra] {
        let _ = std::fs::remove_file(old);
        let _ = std::fs::remove_dir_all(old.with_extension(""));
    }
}

/// The watcher the game is played with: passes everything on, and writes it to the log.
struct Logged<'w> {
    inner: &'w mut dyn Watch,
    /// Where frames are kept.
    frames: PathBuf,
    saved: usize,
    /// The last frame seen.
    last: Option<Arc<RgbaImage>>,
}

impl Logged<'_> {
    /// Keeps a frame beside the log (up to `MOST_FRAMES`), and says where in the log.
    fn keep(&mut self, frame: &RgbaImage, what: &str) {
        if self.saved >= MOST_FRAMES {
            return;
        }
        self.saved += 1;
        let file = self.frames.join(format!("{:02}-{what}.png", self.saved));
        let kept = std::fs::create_dir_all(&self.frames)
            .map_err(|e| e.to_string())
            .and_then(|_| frame.save(&file).map_err(|e| e.to_string()));
        match kept {
            Ok(()) => tracing::info!("frame kept: {}", file.display()),
            Err(e) => tracing::warn!("cannot keep the frame {}: {e}", file.display()),
        }
    }
}

impl Watch for Logged<'_> {
    fn log(&mut self, line: &str) {
        tracing::info!("{line}");
        self.inner.log(line);
    }

    fn seen(&mut self, frame: &Arc<RgbaImage>, marks: &[Mark]) {
        if !marks.is_empty() {
            let unsure = marks.iter().filter(|m| m.text == "?").count();
            let read: Vec<&str> = marks.iter().map(|m| m.text.as_str()).collect();
            if unsure > 0 {
                tracing::warn!(
                    "read {} places, {unsure} unsure: {}",
                    marks.len(),
                    read.join(" ")
                );
                self.keep(frame, "unsure");
            } else {
                tracing::info!("read {} places: {}", marks.len(), read.join(" "));
            }
        }
        self.last = Some(Arc::clone(frame));
        self.inner.seen(frame, marks);
    }

    fn unreadable(&mut self, frame: &RgbaImage, why: &str) {
        tracing::warn!("read refused: {why}");
        self.keep(frame, "refused");
        self.inner.unreadable(frame, why);
    }

    fn plan(&mut self, steps: &[String]) {
        tracing::info!("plan of {} steps: {}", steps.len(), steps.join(" "));
        self.inner.plan(steps);
    }

    fn progress(&mut self, done: usize) {
        tracing::info!("{done} steps done");
        self.inner.progress(done);
    }

    fn proceed(&mut self) -> Result<(), String> {
        let go = self.inner.proceed();
        if let Err(why) = &go {
            tracing::warn!("told to stop: {why}");
        }
        go
    }

    fn label(&mut self, corners: &Corners, groups: Groups) -> Result<Vec<Card>, String> {
        tracing::info!("asking for the cards' labels (guided calibration)");
        let labels = self.inner.label(corners, groups);
        match &labels {
            Ok(_) => tracing::info!("labels given"),
            Err(e) => tracing::warn!("no labels: {e}"),
        }
        labels
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_newest_logs_are_kept_with_their_frames() {
        let dir = std::env::temp_dir().join(format!("sa-journal-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for k in 0..5 {
            std::fs::write(dir.join(format!("2026010{k}-000000-1.log")), "x").unwrap();
            std::fs::create_dir_all(dir.join(format!("2026010{k}-000000-1"))).unwrap();
        }
        std::fs::write(dir.join("notes.txt"), "kept").unwrap();
        prune(&dir, 2);
        let names: Vec<String> = logs(&dir)
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["20260103-000000-1.log", "20260104-000000-1.log"]);
        assert!(!dir.join("20260102-000000-1").exists());
        assert!(dir.join("20260103-000000-1").is_dir());
        assert!(dir.join("notes.txt").is_file());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
