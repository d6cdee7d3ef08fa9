//! Reading frame after frame of one window: the table is located once per window size, and only the
//! places whose pixels changed since the last frame are read again, so a read during play costs a
//! few milliseconds.

use crate::cards::Card;
use crate::games::pyramid::vision::board::{
    place_regions, read_board_reusing, Board, Kept, PLACES,
};
use crate::games::pyramid::vision::locate::{
    first_fit, locate_from_scanning, second_look, Located, NotATable, Objective,
};
use crate::games::pyramid::vision::profile::Profile;
use crate::table::rect::Rect;
use crate::vision::buttons::Controls;
use crate::vision::buttons::{find_buttons, Buttons};
use crate::vision::edges::Edges;
use crate::vision::recognize::{Matcher, Seen, MIN_SCORE};
use image::RgbaImage;

pub struct Reader {
    pub profile: Profile,
    matcher: Matcher,
    located: Option<Located>,
    /// Whether a read from `located` stood: a fit whose first read was refused is shown, but the
    /// table is located again for the next frame.
    confirmed: bool,
    size: (u32, u32),
    /// The last read that stood: each place's pixels' signature, and what it showed.
    last: Option<(Vec<u64>, [Kept; PLACES])>,
}

fn signature(frame: &RgbaImage, r: Rect) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for y in r.y.max(0)..(r.y + r.h).min(frame.height() as i32) {
        for x in r.x.max(0)..(r.x + r.w).min(frame.width() as i32) {
            let p = frame.get_pixel(x as u32, y as u32).0;
            h = (h ^ u32::from_le_bytes(p) as u64).wrapping_mul(0x100_0000_01b3);
        }
    }
    h
}

impl Reader {
    pub fn new(profile: Profile, matcher: Matcher) -> Reader {
        Reader {
            profile,
            matcher,
            located: None,
            confirmed: false,
            size: (0, 0),
            last: None,
        }
    }

    /// Where the table was found last (or tried last, if no read from there stood).
    pub fn located(&self) -> Option<&Located> {
        self.located.as_ref()
    }

    /// Forgets the layout (after the window changed), so the next read locates the table again.
    pub fn forget(&mut self) {
        self.located = None;
        self.last = None;
    }

    /// Records that the card at `place` (read as unknown last time) is `card`, as established
    /// otherwise (the full deck): later reads report it while the place's pixels stay the same.
    pub fn settle(&mut self, place: usize, card: Card) {
        if let Some((sigs, seen)) = &mut self.last {
            if let Some((seen @ Seen::Unknown(_), _)) = &mut seen[place] {
                *seen = Seen::Card(card, MIN_SCORE);
                sigs[place] = !sigs[place]; // unknowns were stored inverted, to be read again
            }
        }
    }

    /// The buttons in a frame.
    pub fn buttons(&self, frame: &RgbaImage) -> Buttons {
        find_buttons(frame, &Edges::new(frame), &self.profile.controls)
    }

    /// Reads a frame; refuses frames that are not a readable board.
    ///
    /// The table is located on the first frame (and after the window changed, or a first read that
    /// was refused), for the whole table and, if that read is refused or leaves more than a third
    /// of its places unread, by `second_look` as `read_frame` does (a pyramid with few cards left,
    /// borderless cards), where a read stands with every card read, each as the first read named
    /// it; failing that, such a first read stands.
    pub fn read(&mut self, frame: &RgbaImage) -> Result<Board, NotATable> {
        let size = frame.dimensions();
        if size != self.size {
            self.forget();
            self.size = size;
        }
        if self.located.is_some() && self.confirmed {
            return self.read_located(frame, None);
        }
        let e = Edges::new(frame);
        let aspect = Some(self.matcher.aspect);
        let profile = self.profile.clone();
        let mut refused: Option<NotATable> = None;
        // A read from the whole table's fit that leaves more than a third of its places unread
        // (which `read_frame` refuses; play lets a frame with up to half stand, as cards fly over
        // a few) is kept while the corners are tried.
        let mut partial: Option<(Located, Board)> = None;
        // (Borderless cards' first fit can lie further off than refining reaches: see
        // `centre_scanned`.)
        let first = first_fit(frame, &profile, aspect, Objective::Table);
        let borderless = self.matcher.borderless;
        let located = locate_from_scanning(frame, &e, &profile, aspect, first, borderless);
        let first_score = located.as_ref().ok().map(|l| l.score);
        match located {
            Ok(located) => match self.read_at(frame, &e, located.clone()) {
                Ok(board) if !crate::games::pyramid::vision::mostly_unread(&board) => {
                    return Ok(self.confirm(board))
                }
                Ok(board) => partial = Some((located, board)),
                Err(err) => refused = Some(err),
            },
            Err(err) => refused = Some(err),
        }
        if !is_dialog(&refused) {
            for located in second_look(frame, &e, &profile, aspect) {
                let better = crate::games::pyramid::vision::found_better(first_score, &located);
                match self.read_at(frame, &e, located) {
                    Ok(board)
                        if crate::games::pyramid::vision::stands(Objective::Corners, &board)
                            && partial.as_ref().is_none_or(|(_, f)| f.agrees_with(&board)) =>
                    {
                        return Ok(self.confirm(board));
                    }
                    Ok(board) if better => return Ok(self.confirm(board)),
                    Ok(board) => {
                        refused =
                            refused.or(Some(crate::games::pyramid::vision::unreadable(&board)))
                    }
                    Err(err) => refused = refused.or(Some(err)),
                }
            }
        }
        if let Some((located, _)) = partial {
            // Read again from its fit, which the second look replaced.
            if let Ok(board) = self.read_at(frame, &e, located) {
                return Ok(self.confirm(board));
            }
        }
        self.confirmed = false;
        Err(refused.expect("a refusal"))
    }

    /// Takes `located` as the table's layout and reads `frame` from it.
    fn read_at(
        &mut self,
        frame: &RgbaImage,
        e: &Edges,
        located: Located,
    ) -> Result<Board, NotATable> {
        self.matcher.prepare(located.card_w);
        self.matcher.cover_at(self.profile.row_step);
        self.located = Some(located);
        self.last = None;
        self.read_located(frame, Some(e))
    }

    /// Keeps the layout the read `board` came from for the frames to come.
    fn confirm(&mut self, board: Board) -> Board {
        self.confirmed = true;
        board
    }

    /// Reads a frame where the table was located.
    fn read_located(
        &mut self,
        frame: &RgbaImage,
        edges: Option<&Edges>,
    ) -> Result<Board, NotATable> {
        if matches!(self.profile.controls, Controls::Toolbar) && dialog_open(frame) {
            return Err(NotATable(crate::games::pyramid::vision::DIALOG_OPEN.into()));
        }
        let located = self.located.as_ref().expect("located");
        let regions = place_regions(located, self.profile.row_step);
        let sigs: Vec<u64> = regions.iter().map(|r| signature(frame, *r)).collect();
        let mut reuse: [Kept; PLACES] = [None; PLACES];
        if let Some((old, kept)) = &self.last {
            for i in 0..PLACES {
                if old[i] == sigs[i] {
                    reuse[i] = kept[i];
                }
            }
        }
        let board = if reuse.iter().all(|r| r.is_some()) {
            let (_, kept) = self.last.as_ref().expect("last");
            board_of(kept)
        } else {
            let own;
            let e = match edges {
                Some(e) => e,
                None => {
                    own = Edges::new(frame);
                    &own
                }
            };
            read_board_reusing(
                frame,
                e,
                located,
                &self.matcher,
                self.profile.row_step,
                &reuse,
            )
        };
        // Many unknowns at once: cards moving or something over the table. (A few are normal:
        // empty slots over the cards behind them can look like nothing known.) A refused frame
        // leaves the last read that stood as it was: a place whose pixels are those read then is
        // still that card, so a card flying over one corner of the table costs a read of the
        // places it covers, not of them all.
        let unknown = board.unknowns().len();
        if unknown >= 6 && unknown * 2 > board.shown().max(1) {
            return Err(crate::games::pyramid::vision::unreadable(&board));
        }
        crate::games::pyramid::vision::in_place(frame, located, &board)?;
        let kept: [Kept; PLACES] = std::array::from_fn(|i| Some((board.at(i), board.index_at[i])));
        // Unknowns are read again next time.
        let sigs: Vec<u64> = sigs
            .iter()
            .enumerate()
            .map(|(i, s)| {
                if matches!(board.at(i), Seen::Unknown(_)) {
                    !s
                } else {
                    *s
                }
            })
            .collect();
        self.last = Some((sigs, kept));
        Ok(board)
    }
}

fn board_of(kept: &[Kept; PLACES]) -> Board {
    let seen: [Seen; PLACES] = std::array::from_fn(|i| kept[i].map_or(Seen::Empty, |(s, _)| s));
    let mut pyramid = [Seen::Empty; 28];
    pyramid.copy_from_slice(&seen[..28]);
    Board {
        pyramid,
        stock_present: seen[28] != Seen::Empty,
        stock_top: seen[28],
        waste: seen[29],
        unsure: Vec::new(),
        misplaced: Vec::new(),
        index_at: kept.iter().map(|k| k.and_then(|(_, at)| at)).collect(),
    }
}

/// Whether the practice table's Undo board dialog is open.
pub fn dialog_open(frame: &RgbaImage) -> bool {
    crate::vision::buttons::dialog_ok_button(frame).is_some()
}

/// Whether a refusal is the Undo board dialog over the table.
fn is_dialog(refused: &Option<NotATable>) -> bool {
    refused
        .as_ref()
        .is_some_and(|r| r.0 == crate::games::pyramid::vision::DIALOG_OPEN)
}
