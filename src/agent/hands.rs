//! What the agent's loop does the same way in every game: take pictures and wait until they are
//! still, click (each click confirmed by a change of the picture, clicked again when the game
//! ignored it), stop at once when the user takes over, and say how the picture is taken. Each
//! game's loop holds a `Hands` and adds its reading, planning and checking.

use crate::agent::io::World;
use crate::agent::report::Watch;
use crate::table::rect::Rect;
use crate::vision::dialog::DialogWatch;
use image::RgbaImage;
use std::sync::Arc;

/// Timing knobs.
#[derive(Clone, Debug)]
pub struct Options {
    /// Time between captures while waiting.
    pub poll_ms: u64,
    /// The least time the picture must stay the same, after changing, to count as still.
    pub still_ms: u64,
    /// How long a click may take to change the picture before it counts as dropped.
    pub change_timeout_ms: u64,
    /// How long the picture may keep changing before the agent gives up.
    pub settle_timeout_ms: u64,
    /// Clicks of one step tried at most this many times.
    pub retries: usize,
    /// How long to wait for the rest of a move when the board read is not yet what it should be.
    pub late_ms: u64,
    /// How long to wait for a picture that cannot be read (a window or dialog over the table, a
    /// card caught in flight) to change before play stops.
    pub covered_ms: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            poll_ms: 8,
            still_ms: 16,
            change_timeout_ms: 2500,
            settle_timeout_ms: 10_000,
            retries: 3,
            late_ms: 1500,
            covered_ms: 5000,
        }
    }
}

/// Dialogs dismissed one after another, with nothing else in between, before play stops: a
/// dialog that comes back after its OK is not going away.
const DIALOGS_IN_A_ROW: usize = 3;

/// Why play stopped early.
pub struct Stop(pub String);

impl From<String> for Stop {
    fn from(s: String) -> Stop {
        Stop(s)
    }
}

/// When the wait after a click may end.
pub enum Until<'a> {
    /// Once the picture has stayed still (the hold: see `Hands::settle_until`).
    Still,
    /// At the first changed picture: for a click whose effect does not animate (a card
    /// selected), where waiting would only add the game's repaint interval and more.
    Changed,
    /// Once still, or sooner: at the first new picture that `landed` accepts as the move's end
    /// (every card where the move puts it, nothing else changed), given with the capture
    /// before it.
    Landed(&'a mut dyn FnMut(&RgbaImage, &RgbaImage) -> bool),
}

/// Whether two captures show the same picture (the very same capture, or equal pixels).
fn same(a: &Arc<RgbaImage>, b: &Arc<RgbaImage>) -> bool {
    Arc::ptr_eq(a, b) || a == b
}

/// Whether two pictures show the same pixels in `region` (clipped to both).
fn region_equal(a: &RgbaImage, b: &RgbaImage, region: Rect) -> bool {
    if a.dimensions() != b.dimensions() {
        return false;
    }
    let (w, h) = a.dimensions();
    let x0 = region.x.clamp(0, w as i32) as u32;
    let y0 = region.y.clamp(0, h as i32) as u32;
    let x1 = (region.x + region.w).clamp(0, w as i32) as u32;
    let y1 = (region.y + region.h).clamp(0, h as i32) as u32;
    (y0..y1).all(|y| (x0..x1).all(|x| a.get_pixel(x, y) == b.get_pixel(x, y)))
}

/// The progress line saying how the game's picture is taken.
fn capture_line(kind: &str) -> String {
    match kind {
        "screen" => "capture: the window's rectangle of the screen (the window's own capture is black or cannot be made)".into(),
        other => format!("capture: {other}"),
    }
}

/// The game, the last still picture, and the clicks made.
pub struct Hands<'g, G: World + ?Sized> {
    pub game: &'g mut G,
    pub options: Options,
    pub clicks: usize,
    /// The last still picture.
    pub frame: Arc<RgbaImage>,
    /// How the last picture was taken (`Screen::capture_kind`), said once each time it changes.
    pub capture_kind: Option<&'static str>,
    /// Progress lines for the caller, and whether to go on.
    pub watch: &'g mut dyn Watch,
    /// What the agent knows for seeing a dialog over the table (learnt by the game's loop from
    /// a picture it read right, and from the game's own OK).
    pub dialogs: Option<DialogWatch>,
    /// Dialogs over the table dismissed by their OK.
    pub dialogs_dismissed: usize,
    /// A dialog the agent opened itself is showing (Undo board's): not an interruption.
    own_dialog: bool,
    /// Whether the last wait ended by the picture staying still (not at a change, nor at a
    /// picture that showed the move landed).
    pub still_by_hold: bool,
}

impl<'g, G: World + ?Sized> Hands<'g, G> {
    /// The hands on `game` from its first picture (what kind of capture it is noted), or why
    /// the game cannot be seen.
    pub fn start(
        game: &'g mut G,
        options: Options,
        watch: &'g mut dyn Watch,
    ) -> Result<Hands<'g, G>, String> {
        let frame = game.capture()?;
        let mut hands = Hands {
            game,
            options,
            clicks: 0,
            frame,
            capture_kind: None,
            watch,
            dialogs: None,
            dialogs_dismissed: 0,
            own_dialog: false,
            still_by_hold: false,
        };
        hands.note_capture_kind();
        Ok(hands)
    }

    /// Learns what the table looks like without a dialog from the last still picture, just read
    /// right, with the cards in `area` and `card_w` by `card_h`; kept until the window's size
    /// changes. The picture is kept each time as the cards' look that a dialog would hide.
    pub fn learn_table(&mut self, area: Rect, card_w: f32, card_h: f32) {
        if self
            .dialogs
            .as_ref()
            .is_none_or(|d| d.size != self.frame.dimensions())
        {
            self.dialogs = Some(DialogWatch::new(&self.frame, area, card_w, card_h));
        }
        if let Some(watch) = self.dialogs.as_mut() {
            watch.read_right(self.frame.clone());
        }
    }

    /// Tells the dialog watch which cards stay as they were through the step about to be played
    /// and which it changes (whole rects; `DialogWatch::expect_cards`).
    pub fn expect_cards(&mut self, staying: Vec<Rect>, changing: Vec<Rect>) {
        if let Some(watch) = self.dialogs.as_mut() {
            watch.expect_cards(staying, changing);
        }
    }

    /// Presses the OK of a dialog the agent opened (Undo board's), first learning from it what
    /// the game's OK looks like.
    fn press_own_ok(&mut self, point: (i32, i32)) -> Result<(), Stop> {
        if let Some(watch) = self.dialogs.as_mut() {
            if !watch.knows_ok() && !watch.learn_ok(&self.frame, point) {
                self.watch.log(
                    "the dialog's OK could not be learnt: a dialog over the table will stop play",
                );
            }
        }
        self.own_dialog = true;
        let pressed = self.click_until_change(point);
        self.own_dialog = false;
        pressed
    }

    /// Presses the game's Undo board at `button`, then the OK of the dialog it opens, found in
    /// the picture by `find_ok`. A slow game can dim the table and look still for a while before
    /// it draws the dialog, and the picture seen still after the press may be the last frame of
    /// the move before it: while no OK shows, waits for the picture to change and settle again,
    /// for up to `late_ms`; then stops, showing the picture, without clicking. An OK found at a
    /// fixed place (MSC's profile) is there before its dialog: once the dialog watch knows the
    /// table, the OK shows only when the watch also sees a dialog with a button there. Should the
    /// watch never see it, the OK is pressed all the same (without its picture learnt).
    pub fn undo_board(
        &mut self,
        button: (i32, i32),
        find_ok: impl Fn(&RgbaImage) -> Option<(i32, i32)>,
    ) -> Result<(), Stop> {
        self.click_until_change(button)?;
        let ok_shows = |h: &Self| {
            find_ok(&h.frame).is_some_and(|ok| {
                h.dialogs.as_ref().is_none_or(|watch| {
                    watch
                        .find(&h.frame)
                        .is_some_and(|d| d.buttons.iter().any(|b| b.contains(ok.0, ok.1)))
                })
            })
        };
        if !ok_shows(self) {
            self.settle_while(self.options.late_ms, |h| !ok_shows(h))?;
        }
        let Some(ok) = find_ok(&self.frame) else {
            let why = "the Undo board dialog did not open: no OK button in the picture";
            self.watch.unreadable(&self.frame, why);
            return Err(Stop(why.into()));
        };
        self.press_own_ok(ok)
    }

    /// When the last still picture shows a dialog over the table: presses its OK, when it has one
    /// like the game's own, and waits for the picture to settle (true: look again); otherwise
    /// stops, saying what it saw and showing the picture, without clicking.
    fn clear_dialog(&mut self) -> Result<bool, Stop> {
        if self.own_dialog {
            return Ok(false);
        }
        let Some(watch) = self.dialogs.as_ref() else {
            return Ok(false);
        };
        let Some(dialog) = watch.find(&self.frame) else {
            return Ok(false);
        };
        let what = dialog.describe();
        let Some(ok) = dialog.ok else {
            let why = if watch.knows_ok() {
                format!("{what}, none of them an OK like the game's: stopped without clicking")
            } else {
                format!("{what}, and the game's OK is not known yet (it is learnt from the Undo board dialog): stopped without clicking")
            };
            return self.wait_dialog_out(&what, why);
        };
        self.watch.log(&format!("{what}: pressing its OK"));
        self.own_dialog = true;
        let pressed = self.click_until_change(ok);
        self.own_dialog = false;
        pressed?;
        self.dialogs_dismissed += 1;
        Ok(true)
    }

    /// Waits up to `covered_ms` for a dialog without an OK (or another program's window over the
    /// table) to go away, without clicking: true once it has; otherwise stops for `why`.
    fn wait_dialog_out(&mut self, what: &str, why: String) -> Result<bool, Stop> {
        self.watch.log(&format!(
            "{what}: waiting for it to go away, without clicking"
        ));
        let dialog_shows = |h: &Self| {
            h.dialogs
                .as_ref()
                .is_some_and(|w| w.find(&h.frame).is_some())
        };
        if !self.settle_while(self.options.covered_ms, dialog_shows)? {
            return Ok(true);
        }
        self.watch.unreadable(&self.frame, &why);
        Err(Stop(why))
    }

    /// Clears dialogs over the table (`clear_dialog`) until none shows; true when one was.
    fn clear_dialogs(&mut self) -> Result<bool, Stop> {
        let mut cleared = 0;
        while self.clear_dialog()? {
            cleared += 1;
            if cleared >= DIALOGS_IN_A_ROW {
                if let Some(dialog) = self.dialogs.as_ref().and_then(|w| w.find(&self.frame)) {
                    let why = format!(
                        "{} is still there after its OK was pressed {cleared} times",
                        dialog.describe()
                    );
                    self.watch.unreadable(&self.frame, &why);
                    return Err(Stop(why));
                }
                break;
            }
        }
        Ok(cleared > 0)
    }

    pub fn capture(&mut self) -> Result<Arc<RgbaImage>, Stop> {
        self.check_user()?;
        let frame = self.game.capture()?;
        self.note_capture_kind();
        Ok(frame)
    }

    /// Says how the game's picture is taken, the first time it is known and whenever it changes.
    pub fn note_capture_kind(&mut self) {
        let kind = self.game.capture_kind();
        if kind != self.capture_kind {
            self.capture_kind = kind;
            if let Some(kind) = kind {
                self.watch.log(&capture_line(kind));
            }
        }
    }

    /// Stops at once when the user has taken over (Esc, the mouse).
    pub fn check_user(&mut self) -> Result<(), Stop> {
        match self.game.interrupted() {
            Some(reason) => Err(Stop(reason)),
            None => Ok(()),
        }
    }

    /// Waits until the picture stops changing. `expect_change`: first wait for it to differ from
    /// the last frame (false after `change_timeout_ms`: the click did nothing).
    pub fn settle(&mut self, expect_change: bool) -> Result<bool, Stop> {
        self.settle_within(expect_change, self.options.change_timeout_ms)
    }

    /// `settle`, giving up waiting for a change after `change_timeout_ms`.
    pub fn settle_within(
        &mut self,
        expect_change: bool,
        change_timeout_ms: u64,
    ) -> Result<bool, Stop> {
        self.settle_until(expect_change, change_timeout_ms, Until::Still)
    }

    /// `settle_within`, ending as `until` says.
    pub fn settle_until(
        &mut self,
        expect_change: bool,
        change_timeout_ms: u64,
        mut until: Until,
    ) -> Result<bool, Stop> {
        let start = self.game.now_ms();
        let before = self.frame.clone();
        let mut prev = self.capture()?;
        let mut changed = !same(&prev, &before);
        // A game that repaints slowly shows the same picture twice in the middle of a move: the
        // picture must stay the same longer than the longest pause seen between its changes (and
        // at least `still_ms` once it has changed).
        let mut same_since = self.game.now_ms();
        let mut longest_pause = 0;
        loop {
            self.game.sleep_ms(self.options.poll_ms);
            let f = self.capture()?;
            let now = self.game.now_ms();
            let elapsed = now - start;
            let (is_before, is_prev) = (same(&f, &before), same(&f, &prev));
            if !is_before {
                changed = true;
            }
            if !is_prev {
                if changed && !is_before {
                    longest_pause = longest_pause.max(now - same_since);
                }
                same_since = now;
            }
            if !is_before && !is_prev {
                let done = match &mut until {
                    Until::Still => false,
                    Until::Changed => true,
                    Until::Landed(landed) => landed(&f, &prev),
                };
                if done {
                    self.still_by_hold = false;
                    self.frame = f;
                    return Ok(true);
                }
            }
            let hold = if changed {
                (longest_pause + longest_pause / 2).max(self.options.still_ms)
            } else {
                self.options.poll_ms
            };
            if (changed || !expect_change) && is_prev && now - same_since >= hold {
                self.still_by_hold = true;
                self.frame = f;
                return Ok(changed);
            }
            if expect_change && !changed && elapsed > change_timeout_ms {
                self.still_by_hold = true;
                self.frame = f;
                return Ok(false);
            }
            if elapsed > self.options.settle_timeout_ms {
                return Err(Stop("the picture never became still".into()));
            }
            prev = f;
        }
    }

    /// After a click that must change what `region` shows (a card turned onto the waste): while
    /// the last still picture shows there what `before` did, waits for the picture to change and
    /// settle again, for up to `late_ms`. A game that repaints in steps can look still between
    /// them, with the card not yet there. The caller checks what it then sees.
    pub fn settle_until_changed_in(
        &mut self,
        before: &RgbaImage,
        region: Rect,
    ) -> Result<(), Stop> {
        self.settle_while(self.options.late_ms, |h| {
            region_equal(&h.frame, before, region)
        })?;
        Ok(())
    }

    /// While `waiting` holds of the last still picture, waits for the picture to change and
    /// settle again, for up to `patience_ms`; whether it still holds at the end.
    fn settle_while(
        &mut self,
        patience_ms: u64,
        waiting: impl Fn(&Self) -> bool,
    ) -> Result<bool, Stop> {
        let start = self.game.now_ms();
        while waiting(self) {
            let left = patience_ms.saturating_sub(self.game.now_ms() - start);
            if left == 0 || !self.settle_within(true, left)? {
                return Ok(waiting(self));
            }
        }
        Ok(false)
    }

    /// Reads the last still picture with `read` (which shows it to the watcher and says why
    /// it cannot be read), and while `done` does not accept it, waits for the picture to change
    /// again and reads once more: a slow game may show part of a move (a status line, a
    /// highlight) before the cards move, a game whose repaints stall in the middle of a move may
    /// look still with a card in flight, and a window may be dragged over the table for a while.
    /// Gives the last read once the picture stays the same for `late_ms`; a picture that stays
    /// unreadable for `covered_ms` stops play (`unreadable`).
    pub fn read_until<B>(
        &mut self,
        mut read: impl FnMut(&mut Self) -> Result<B, String>,
        done: impl Fn(&B) -> bool,
    ) -> Result<B, Stop> {
        let mut result = read(self);
        for _ in 0..3 {
            let wait = match &result {
                Ok(b) if done(b) => break,
                Ok(_) => self.options.late_ms,
                Err(_) => self.options.covered_ms,
            };
            // A dialog over the table is not waited out: its OK is pressed, or play stops.
            if self.clear_dialogs()? {
                result = read(self);
                continue;
            }
            if !self.settle_within(true, wait)? {
                break;
            }
            result = read(self);
        }
        result.map_err(|why| self.unreadable(&why))
    }

    /// Reports the last picture as unreadable, for `why`, and the stop it causes.
    pub fn unreadable(&mut self, why: &str) -> Stop {
        self.watch.unreadable(&self.frame, why);
        Stop(format!("cannot read the board: {why}"))
    }

    /// Clicks at (x, y): never under a dialog over the table (one with an OK like the game's is
    /// dismissed first; any other stops play).
    pub fn click_at(&mut self, (x, y): (i32, i32)) -> Result<(), Stop> {
        self.watch.proceed()?;
        self.check_user()?;
        self.clear_dialogs()?;
        self.game.click(x, y)?;
        self.clicks += 1;
        tracing::info!("click {} at {x},{y}", self.clicks);
        Ok(())
    }

    /// Clicks `target`, and again (up to the retries) while the picture does not change.
    pub fn click_until_change(&mut self, point: (i32, i32)) -> Result<(), Stop> {
        self.click_until(point, Until::Still)
    }

    /// `click_until_change`, each wait ending as `until` says (see `settle_until`).
    pub fn click_until(&mut self, point: (i32, i32), mut until: Until) -> Result<(), Stop> {
        for attempt in 0..self.options.retries {
            self.click_at(point)?;
            let until = match &mut until {
                Until::Still => Until::Still,
                Until::Changed => Until::Changed,
                Until::Landed(landed) => Until::Landed(&mut **landed),
            };
            if self.settle_until(true, self.options.change_timeout_ms, until)? {
                return Ok(());
            }
            self.watch.log(&format!(
                "no change after a click (attempt {}), clicking again",
                attempt + 1
            ));
        }
        Err(Stop(format!(
            "the game did not react to {} clicks at {},{}",
            self.options.retries, point.0, point.1
        )))
    }
}
