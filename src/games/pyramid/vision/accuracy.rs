//! Measuring the reader against the practice table's renderer, where the truth is known: calibrate
//! once at 1440×900 from a known deal (as a user does), then read rendered frames of other deals at
//! other window sizes and display scales, in full, partly cleared, selected and empty-stock
//! positions, and count every card read right, unsure or wrong. `solitaire-agent accuracy` prints
//! the table; tests/vision_read.rs holds the sizes where reading is exact to it.

use crate::cards::{Card, Deck};
use crate::games::pyramid::table::scene::{Scene, Selection};
use crate::games::pyramid::vision::profile::Profile;
use crate::games::pyramid::vision::read_frame_timed;
use crate::games::pyramid::{Position, State, Step};
use crate::table::render::Renderer;
use crate::vision::calibrate::calibrate;
use crate::vision::recognize::{Matcher, Seen};
use crate::vision::templates::Templates;
use image::RgbaImage;

/// The deal the templates are calibrated on, and the size they are calibrated at.
pub const CALIBRATION_SEED: u64 = 1000;
pub const CALIBRATION_SIZE: (u32, u32) = (1440, 900);

/// Rendered frames of `deck` at 1440×900, scale 1.0, as calibration sees a deal: the fresh table,
/// then the table after each of 24 draws.
pub fn calibration_frames(r: &mut Renderer, deck: &Deck) -> Result<Vec<RgbaImage>, String> {
    calibration_frames_at(r, deck, CALIBRATION_SIZE, 1.0)
}

/// `calibration_frames` in a window of another size and scale.
pub fn calibration_frames_at(
    r: &mut Renderer,
    deck: &Deck,
    size: (u32, u32),
    scale: f32,
) -> Result<Vec<RgbaImage>, String> {
    let layout = r.layout(size.0, size.1, scale);
    let mut state = State::deal(deck);
    let mut frames = vec![r.render(&Scene::still(&state, None, "DEAL".into()), &layout)];
    for _ in 0..24 {
        state.apply(Step::Draw).map_err(|e| e.to_string())?;
        frames.push(r.render(&Scene::still(&state, None, "DEAL".into()), &layout));
    }
    Ok(frames)
}

/// Calibrates a template set from rendered frames of `deck` (`calibration_frames`).
pub fn calibrate_rendered(r: &mut Renderer, deck: &Deck) -> Result<Templates, String> {
    calibrate_rendered_at(r, deck, CALIBRATION_SIZE, 1.0)
}

/// `calibrate_rendered` from frames drawn in a window of another size and scale.
pub fn calibrate_rendered_at(
    r: &mut Renderer,
    deck: &Deck,
    size: (u32, u32),
    scale: f32,
) -> Result<Templates, String> {
    let frames = calibration_frames_at(r, deck, size, scale)?;
    calibrate(&frames, deck, &Profile::of_look(r.look()), "rendered")
}

/// The positions read for a deal: the fresh deal with a pyramid card selected, halfway through
/// its solution with the waste selected (when it has one), and the stock drawn to the end.
pub fn positions(seed: u64) -> Vec<(State, Option<Selection>)> {
    let deal = State::deal(&Deck::shuffled(seed));
    let mut out = vec![(deal.clone(), Some(Selection::Pyramid(Position(24))))];
    if let Ok(Some(steps)) = crate::games::pyramid::solver::solve(&deal).map(|s| s.steps) {
        let mut s = deal.clone();
        for step in steps.iter().take(steps.len() / 2) {
            s.apply(*step).expect("a solution's step is legal");
        }
        let sel = s.waste_top().map(|_| Selection::Waste);
        out.push((s, sel));
    }
    let mut t = deal;
    while t.stock_top().is_some() {
        t.apply(Step::Draw)
            .expect("drawing from a stock with cards");
    }
    out.push((t, None));
    out
}

/// What reading some frames came to.
#[derive(Default, Debug, Clone)]
pub struct Tally {
    /// Places read right (cards and empty places).
    pub right: usize,
    /// Places read as unsure (`?`).
    pub unsure: usize,
    /// Places read as another card, or as empty/a card where the truth is the other.
    pub wrong: usize,
    /// Frames the reader refused as not a readable board.
    pub refused: usize,
    /// One line per place not read right, and per refused frame.
    pub mistakes: Vec<String>,
    /// Cards read as another card: (truth, read).
    pub confusions: Vec<(Card, Card)>,
    /// How long reading each frame took (locating the table and reading every card), in ms.
    pub millis: Vec<f64>,
    /// Of that, how long finding the table took (edges, dialog check, locate), in ms.
    pub locate_millis: Vec<f64>,
}

impl Tally {
    pub fn places(&self) -> usize {
        self.right + self.unsure + self.wrong
    }

    fn add(&mut self, tag: &str, place: &str, truth: Option<Card>, read: Seen) {
        let show = |c: Option<Card>| c.map_or("empty".to_string(), |c| c.to_string());
        match (truth, read) {
            (None, Seen::Empty) => self.right += 1,
            (Some(c), Seen::Card(g, _)) if c == g => self.right += 1,
            (_, Seen::Unknown(_)) => {
                self.unsure += 1;
                self.mistakes
                    .push(format!("{tag}: {place} is {}, read ?", show(truth)));
            }
            (_, read) => {
                self.wrong += 1;
                if let (Some(c), Seen::Card(g, _)) = (truth, read) {
                    self.confusions.push((c, g));
                }
                self.mistakes.push(format!(
                    "{tag}: {place} is {}, read {}",
                    show(truth),
                    show(read.card())
                ));
            }
        }
    }
}

/// Reads every position of `deals` (seeds) rendered at `size` (width, height, display scale).
pub fn measure(
    r: &mut Renderer,
    matcher: &mut Matcher,
    size: (u32, u32, f32),
    deals: std::ops::Range<u64>,
) -> Tally {
    let (w, h, scale) = size;
    let layout = r.layout(w, h, scale);
    let profile = Profile::of_look(r.look());
    let mut tally = Tally::default();
    for seed in deals {
        for (state, sel) in positions(seed) {
            let frame = r.render(&Scene::still(&state, sel, "DEAL 1".into()), &layout);
            let tag = format!(
                "{w}x{h}@{scale} seed {seed} ({} cards)",
                state.pyramid_count()
            );
            let start = std::time::Instant::now();
            let (read, locate_ms) = read_frame_timed(&frame, &profile, matcher);
            tally.millis.push(start.elapsed().as_secs_f64() * 1000.0);
            tally.locate_millis.push(locate_ms);
            match read {
                Ok((board, _)) => {
                    for i in 0..28 {
                        tally.add(
                            &tag,
                            &format!("pyramid:{i}"),
                            state.pyramid[i],
                            board.pyramid[i],
                        );
                    }
                    tally.add(&tag, "stock", state.stock_top(), board.stock_top);
                    tally.add(&tag, "waste", state.waste_top(), board.waste);
                }
                Err(e) => {
                    tally.refused += 1;
                    tally.mistakes.push(format!("{tag}: refused: {e}"));
                }
            }
        }
    }
    tally
}
