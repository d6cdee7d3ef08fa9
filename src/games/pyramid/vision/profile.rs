//! Layout profiles (`calibration/*.json`): the proportions of a game's table in card widths, which
//! `locate` fits to a picture to find the slots at any window size and scale. One ships for the
//! practice table and one for MSC (from the geometry in shared/notes/msc-pyramid.md); users can edit
//! them.

use crate::vision::buttons::Controls;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// How far above the next row (`row_step`) a profile's index box must end, in card widths: the
/// outline of the card over a covered one, with its antialiasing, is a pixel or two at 140 px
/// wide. Inside the box that outline would be part of a covered card's templates and not of the
/// same card's when nothing covers it, and the reader would take one card for another (in MSC's
/// look, with a box reaching the next row, 8d read as 6d and Ad as As on most themes).
pub const INDEX_MARGIN: f32 = 0.015;

/// A game's table proportions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Profile {
    pub name: String,
    /// Distance between neighbouring pyramid cards, in card widths.
    pub column_step: f32,
    /// Distance between pyramid rows, in card widths.
    pub row_step: f32,
    /// Horizontal offset of the stock's centre from the pyramid's centre, in card widths (the waste
    /// sits at the mirrored offset).
    pub stock_dx: f32,
    /// Gap between the bottom pyramid row's cards and the stock/waste row, in card widths.
    pub pile_gap: f32,
    /// Range of card height over width searched when it is not known from the templates.
    pub aspect_range: [f32; 2],
    /// Card width as a share of the window width: the range searched.
    pub card_width_share: [f32; 2],
    /// The index corner read on each card: x, y, width, height in card widths from its top-left.
    pub index_box: [f32; 4],
    pub controls: Controls,
}

impl Profile {
    /// The practice table's profile (also in `calibration/practice-table.json`).
    pub fn practice_table() -> Profile {
        use crate::games::pyramid::table::layout::{COLUMN_STEP, PILE_GAP, ROW_STEP};
        Profile {
            name: "practice-table".into(),
            column_step: COLUMN_STEP,
            row_step: ROW_STEP,
            stock_dx: -0.7,
            pile_gap: PILE_GAP,
            aspect_range: [1.2, 1.7],
            card_width_share: [0.05, 0.16],
            index_box: [0.03, 0.02, 0.34, ROW_STEP - 0.04],
            controls: Controls::Toolbar,
        }
    }

    /// Microsoft Solitaire Collection at 1440×900, 100 % (cards ~140 px wide, 163 px apart, rows
    /// 43 px apart, stock and waste index corners at x 557 and 770 beside the apex's 663).
    pub fn msc() -> Profile {
        Profile {
            name: "msc".into(),
            column_step: 163.0 / 140.0,
            row_step: 43.0 / 140.0,
            stock_dx: -0.76,
            pile_gap: 0.04,
            // As the practice profile's: art drawn taller than MSC's own cards (orell's and
            // tarocco's, 1.65) is located at its height (see docs/vision.md).
            aspect_range: [1.2, 1.7],
            card_width_share: [0.06, 0.14],
            index_box: [0.02, 0.02, 0.2, 0.27],
            controls: Controls::Fractions {
                undo_board: crate::table::look::MSC_UNDO_BOARD,
                ok: crate::table::look::MSC_OK,
                new_deal: Some(crate::table::look::MSC_NEW_DEAL),
            },
        }
    }

    /// The profile that reads the practice table in `look`.
    pub fn of_look(look: crate::table::look::Look) -> Profile {
        match look {
            crate::table::look::Look::Practice => Profile::practice_table(),
            crate::table::look::Look::Msc => Profile::msc(),
        }
    }

    /// Loads a profile: `practice-table`, `msc`, a name in `calibration/`, or a path.
    pub fn load(spec: &str) -> Result<Profile, String> {
        let path = if Path::new(spec).is_file() {
            Path::new(spec).to_path_buf()
        } else {
            Path::new("calibration").join(format!("{spec}.json"))
        };
        if !path.is_file() {
            return match spec {
                "practice-table" => Ok(Profile::practice_table()),
                "msc" => Ok(Profile::msc()),
                _ => Err(format!(
                    "layout profile '{spec}' not found (tried {})",
                    path.display()
                )),
            };
        }
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("layout profile {}: {e}", path.display()))?;
        let profile: Profile = serde_json::from_str(&text)
            .map_err(|e| format!("layout profile {} is not valid: {e}", path.display()))?;
        profile
            .check()
            .map_err(|e| format!("layout profile {}: {e}", path.display()))?;
        Ok(profile)
    }

    /// The profiles `auto` tries: the practice table's and MSC's (from `calibration/` when they
    /// are there, so that edits count).
    pub fn candidates() -> Vec<Profile> {
        ["practice-table", "msc"]
            .into_iter()
            .map(|name| {
                Profile::load(name).unwrap_or_else(|_| match name {
                    "msc" => Profile::msc(),
                    _ => Profile::practice_table(),
                })
            })
            .collect()
    }

    /// The profile that fits `frame` best (`--profile auto`): each candidate's layout is fitted to
    /// the picture's edges, and the one whose card edges the picture shows most strongly is kept.
    /// Each is fitted as `locate` does and also from the fit by the cards' corners
    /// (`locate_table_from_corners`), the better kept: borderless cards' index glyphs can outscore
    /// their sides, so that `locate` alone put anglo+borderless's msc table off its cards, where
    /// the practice table's profile fitted better. Fails, with each profile's reason, when none
    /// finds a table.
    pub fn choose(frame: &image::RgbaImage, candidates: &[Profile]) -> Result<Profile, String> {
        let e = crate::vision::edges::Edges::new(frame);
        let mut best: Option<(f32, &Profile)> = None;
        let mut reasons = Vec::new();
        for profile in candidates {
            let corners = super::locate::locate_table_from_corners(frame, &e, profile, None)
                .map_or(f32::MIN, |l| l.score);
            match super::locate::locate(frame, &e, profile, None) {
                Ok(located) => {
                    let score = located.score.max(corners);
                    if best.is_none_or(|(b, _)| score > b) {
                        best = Some((score, profile));
                    }
                }
                Err(why) => reasons.push(format!("{}: {why}", profile.name)),
            }
        }
        best.map(|(_, p)| p.clone()).ok_or_else(|| {
            format!(
                "no layout profile finds a table in the picture ({})",
                reasons.join("; ")
            )
        })
    }

    /// Checks that the numbers make a table.
    pub fn check(&self) -> Result<(), String> {
        let positive = [
            self.column_step,
            self.row_step,
            self.index_box[2],
            self.index_box[3],
        ];
        if positive.iter().any(|v| !(v.is_finite() && *v > 0.0)) {
            return Err("steps and index box sizes must be positive".into());
        }
        if self.index_box[1] + self.index_box[3] > self.row_step - INDEX_MARGIN {
            return Err(format!(
                "index_box must end at least {INDEX_MARGIN} card widths above row_step: below \
                 that lies the edge of the card over a covered one, which a card nothing covers \
                 does not show"
            ));
        }
        if self.column_step < 1.0 {
            return Err("column_step below 1.0 would make cards of a row overlap".into());
        }
        let [a, b] = self.card_width_share;
        if !(0.0 < a && a < b && b < 1.0) {
            return Err("card_width_share must be an increasing range inside (0, 1)".into());
        }
        let [a, b] = self.aspect_range;
        if !(0.5 < a && a < b && b < 3.0) {
            return Err("aspect_range must be an increasing range inside (0.5, 3)".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pyramid::table::scene::Scene;
    use crate::games::pyramid::State;
    use crate::table::look::Look;
    use crate::table::render::Renderer;
    use crate::table::theme::Theme;

    /// `auto` picks the profile of the look a table is drawn in, whatever the theme, size, scale
    /// and position.
    #[test]
    fn auto_chooses_the_profile_of_the_look_on_screen() {
        let candidates = [Profile::practice_table(), Profile::msc()];
        let mut wrong = Vec::new();
        for theme in ["builtin", "anglo", "paris", "anglo+borderless"] {
            for look in Look::ALL {
                let Ok(t) = Theme::load(theme) else {
                    continue;
                };
                let mut r = Renderer::with_look(t, look);
                // (The last: a fresh deal, as `play --sim` first sees it.)
                for (w, h, scale, seed, draws) in [
                    (800, 600, 1.0, 1, 3),
                    (1440, 900, 1.0, 2, 3),
                    (1920, 1080, 1.5, 3, 3),
                    (3840, 2160, 2.5, 4, 3),
                    (1200, 760, 1.0, 6, 0),
                ] {
                    let mut state = State::deal(&crate::cards::Deck::shuffled(seed));
                    for _ in 0..draws {
                        let _ = state.apply(crate::games::pyramid::Step::Draw);
                    }
                    let layout = r.layout(w, h, scale);
                    let frame = r.render(&Scene::still(&state, None, "DEAL".into()), &layout);
                    let chosen = Profile::choose(&frame, &candidates).map(|p| p.name);
                    if chosen.as_deref() != Ok(Profile::of_look(look).name.as_str()) {
                        wrong.push(format!(
                            "{theme} {} {w}x{h}@{scale}: {chosen:?}",
                            look.name()
                        ));
                    }
                }
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
        let felt = image::RgbaImage::from_pixel(800, 600, image::Rgba([30, 110, 60, 255]));
        assert!(Profile::choose(&felt, &candidates).is_err());
    }

    #[test]
    fn an_index_box_that_reaches_the_next_row_is_refused() {
        let mut p = Profile::msc();
        p.index_box[3] = p.row_step - p.index_box[1];
        assert!(p.check().unwrap_err().contains("index_box"));
    }

    #[test]
    fn shipped_profiles_match_the_built_in_ones() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("calibration");
        for p in [Profile::practice_table(), Profile::msc()] {
            let path = dir.join(format!("{}.json", p.name));
            let text = std::fs::read_to_string(&path).unwrap();
            let shipped: Profile = serde_json::from_str(&text).unwrap();
            assert_eq!(shipped, p, "{} differs from the code", path.display());
            assert_eq!(shipped.check(), Ok(()));
        }
    }
}
