//! Reading Klondike's practice table from a picture, with the shared card reader
//! (`vision::recognize`'s `Matcher`, whose templates any game's calibration makes: the cards are
//! the same pictures).
//!
//! - Locating: the table's layout is the practice table's for the frame's size, at the display
//!   scale and card aspect (around the templates') whose cards' sides best part the felt outside
//!   from the card inside (the scale sets the bars' height, and so where the board sits and how large its
//!   cards are); its seven pile tops must then read as seven different cards.
//! - What the deal teaches about this theme, at this size: what a back looks like (the strip each
//!   of the 21 face-down cards shows, against the top strips of the seven faces: `vision::backs`),
//!   and the felt under each pile (the pixels below its cards), so that a pile's end is where its
//!   column stops looking like that felt.
//! - A pile is read from the top: its backs strip by strip, then its faces, as many as fit between
//!   the first face and where the pile ends (a whole number of face steps, or the pile is unsure);
//!   each face by its index corner, which the face step leaves whole. The waste's top is the
//!   rightmost of the fanned places with a card, the stock holds cards unless its place shows the
//!   felt, and a foundation shows its top card or felt.
//! - Faces are read as every game's are: the index corner against the 52 templates, the leader
//!   challenged where close runners-up differ; under the confidence margins a card is unknown.
//!   Nothing is guessed.

use super::table::layout::Layout;
use super::PILES;
use crate::agent::report::Mark;
use crate::cards::Card;
use crate::table::rect::Rect;
use crate::vision::backs::Backs;
use crate::vision::recognize::{decide, sample, Matcher, Seen, MIN_MARGIN, MIN_SCORE};
use crate::vision::templates::{TEMPLATE_H, TEMPLATE_W};
use image::RgbaImage;

/// The display scales the practice table may be drawn at (Windows' 100–250 %).
pub const SCALES: [f32; 7] = [1.0, 1.25, 1.5, 1.75, 2.0, 2.25, 2.5];
/// Card aspects tried around the templates': this many steps each way, of this fraction.
const ASPECT_STEPS: i32 = 5;
const ASPECT_STEP: f32 = 0.004;
/// A colour this far from the felt's (in RGB units) is clearly something else.
const NOT_FELT: f32 = 40.0;

/// How well a fresh deal's picture fits the cards `l` puts there: along the middle of the sides of
/// the stock and of each pile's top card that have felt beyond them, the pixel just outside
/// should be the felt and the first pixel inside should not (so an inner frame line of the art,
/// which has card on both sides, scores nothing). `felt` is the picture's commonest colour.
fn edge_strength(frame: &RgbaImage, l: &Layout, felt: &[f32; 3]) -> f32 {
    // Outside, the nearer the felt the better; inside, anything clearly not felt will do (a dark
    // outline as well as the paper beyond it, so the edge is not pulled onto the paper).
    let step = |outside: [f32; 3], inside: [f32; 3]| {
        dist(&inside, felt).min(NOT_FELT) - dist(&outside, felt)
    };
    let mut total = 0.0;
    // The sides of a card with felt beyond them: a pile's top card has backs above it, and the
    // stock has cards stacked above and left of its top one, so those sides count only for the
    // first pile's one card (weighted as much as the other piles' tops together).
    let mut sides = |r: Rect, above_and_left: bool, weight: f32| {
        let (x0, x1) = (r.x + r.w / 5, r.right() - r.w / 5);
        let (y0, y1) = (r.y + r.h / 5, r.bottom() - r.h / 5);
        for x in (x0..x1).step_by(2) {
            if above_and_left {
                total += weight * step(color(frame, x, r.y - 1), color(frame, x, r.y));
            }
            total += weight * step(color(frame, x, r.bottom()), color(frame, x, r.bottom() - 1));
        }
        for y in (y0..y1).step_by(2) {
            if above_and_left {
                total += weight * step(color(frame, r.x - 1, y), color(frame, r.x, y));
            }
            total += weight * step(color(frame, r.right(), y), color(frame, r.right() - 1, y));
        }
    };
    sides(l.stock, false, 1.0);
    sides(l.pile_card(0, 0, 0), true, PILES as f32);
    for i in 1..PILES {
        sides(l.pile_card(i, i, i), false, 1.0);
    }
    total
}

/// The picture's commonest colour between its bars (at a fresh deal, the felt): each channel's
/// median over a grid of pixels.
fn felt_guess(frame: &RgbaImage, l: &Layout) -> [f32; 3] {
    let (top, bottom) = (l.chrome.toolbar.bottom(), l.chrome.status.y);
    let mut channels: [Vec<f32>; 3] = Default::default();
    for y in (top..bottom).step_by(7) {
        for x in (0..frame.width() as i32).step_by(7) {
            let p = color(frame, x, y);
            for c in 0..3 {
                channels[c].push(p[c]);
            }
        }
    }
    std::array::from_fn(|c| {
        let v = &mut channels[c];
        v.sort_by(f32::total_cmp);
        v.get(v.len() / 2).copied().unwrap_or(0.0)
    })
}

/// The colour of the pixel at (x, y).
fn color(frame: &RgbaImage, x: i32, y: i32) -> [f32; 3] {
    let px = x.clamp(0, frame.width() as i32 - 1) as u32;
    let py = y.clamp(0, frame.height() as i32 - 1) as u32;
    let p = frame.get_pixel(px, py).0;
    [p[0] as f32, p[1] as f32, p[2] as f32]
}

/// One pile as read: its face-down cards, then its face-up cards from the bottom up.
#[derive(Clone, Debug, PartialEq)]
pub struct Pile {
    pub down: usize,
    pub up: Vec<Seen>,
}

/// A table as read from a frame.
#[derive(Clone, Debug, PartialEq)]
pub struct Board {
    pub piles: Vec<Pile>,
    /// Whether the stock holds cards (face down).
    pub stock: bool,
    /// The waste's top card, and how many of its cards show (fanned with Draw 3).
    pub waste: Seen,
    pub waste_shown: usize,
    /// Each foundation's top card, by suit index.
    pub foundations: Vec<Seen>,
}

impl Board {
    /// The places read as unknown, named for a message (`pile 3 card 2`, `waste`, …): the agent
    /// stops and shows them rather than guess.
    pub fn unsure(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (i, pile) in self.piles.iter().enumerate() {
            for (k, seen) in pile.up.iter().enumerate() {
                if matches!(seen, Seen::Unknown(_)) {
                    out.push(format!("pile {} card {}", i + 1, pile.down + k + 1));
                }
            }
        }
        if matches!(self.waste, Seen::Unknown(_)) {
            out.push("waste".into());
        }
        for (f, seen) in self.foundations.iter().enumerate() {
            if matches!(seen, Seen::Unknown(_)) {
                out.push(format!("foundation {}", f + 1));
            }
        }
        out
    }
}

impl Board {
    /// What was read at each place, where it lies in `l`, for the watcher: each face (a covered
    /// one by the strip it shows), a back for each face-down card and the stock, the waste's top
    /// and the foundations.
    pub fn marks(&self, l: &Layout) -> Vec<Mark> {
        let back = |rect: Rect| Mark {
            rect,
            text: "back".into(),
            confidence: 1.0,
        };
        let mut marks = Vec::new();
        for (i, pile) in self.piles.iter().enumerate() {
            for k in 0..pile.down {
                let r = l.pile_card(i, k, pile.down);
                marks.push(back(Rect::new(r.x, r.y, r.w, l.down_step)));
            }
            for (k, seen) in pile.up.iter().enumerate() {
                let mut r = l.pile_card(i, pile.down + k, pile.down);
                if k + 1 < pile.up.len() {
                    r.h = l.up_step;
                }
                marks.extend(Mark::of_seen(r, *seen));
            }
        }
        if self.stock {
            marks.push(back(l.stock));
        }
        let waste = l.waste_card(self.waste_shown.saturating_sub(1));
        marks.extend(Mark::of_seen(waste, self.waste));
        for (r, seen) in l.foundations.iter().zip(&self.foundations) {
            marks.extend(Mark::of_seen(*r, *seen));
        }
        marks
    }
}

/// The felt under one pile's column, learnt from the deal: its mean colour and how far from it a
/// pixel of that felt may be.
#[derive(Clone, Copy, Debug)]
struct Felt {
    mean: [f32; 3],
    reach: f32,
}

impl Felt {
    fn learn(pixels: &[[f32; 3]]) -> Felt {
        let n = pixels.len().max(1) as f32;
        let mut mean = [0.0; 3];
        for p in pixels {
            for c in 0..3 {
                mean[c] += p[c] / n;
            }
        }
        let far = pixels.iter().map(|p| dist(p, &mean)).fold(0.0, f32::max);
        // Twice the farthest felt pixel of the deal, and a margin for its gradient beyond.
        Felt {
            mean,
            reach: 2.0 * far + 8.0,
        }
    }

    fn holds(&self, p: &[f32; 3]) -> bool {
        dist(p, &self.mean) <= self.reach
    }
}

fn dist(a: &[f32; 3], b: &[f32; 3]) -> f32 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
}

/// The mean colour of the three pixels around (x, y) in a row.
fn pixel(frame: &RgbaImage, x: i32, y: i32) -> [f32; 3] {
    let mut sum = [0.0; 3];
    for dx in -1..=1 {
        let px = (x + dx).clamp(0, frame.width() as i32 - 1) as u32;
        let py = y.clamp(0, frame.height() as i32 - 1) as u32;
        let p = frame.get_pixel(px, py).0;
        for c in 0..3 {
            sum[c] += p[c] as f32 / 3.0;
        }
    }
    sum
}

/// Reads Klondike frames: the table's layout and what the deal taught.
pub struct Reader {
    matcher: Matcher,
    pub layout: Layout,
    backs: Backs,
    /// The felt under each pile, in the waste's place and in the foundations'.
    felt: [Felt; PILES],
    waste_felt: Felt,
    foundation_felt: Felt,
}

impl Reader {
    /// Learns the table from a picture of a fresh deal: its layout, what a back looks like, and
    /// the felt under the piles.
    pub fn from_deal(frame: &RgbaImage, mut matcher: Matcher) -> Result<Reader, String> {
        let (width, height) = (frame.width(), frame.height());
        // Every display scale, and card heights around the templates' (their aspect was measured
        // at another size, rounded to whole pixels): the layout whose cards' edges the picture
        // shows most strongly.
        let candidates = SCALES.iter().flat_map(|&scale| {
            (-ASPECT_STEPS..=ASPECT_STEPS).map(move |k| {
                let aspect = matcher.aspect * (1.0 + k as f32 * ASPECT_STEP);
                Layout::new(width, height, scale, aspect)
            })
        });
        let felt = felt_guess(
            frame,
            &Layout::new(width, height, SCALES[0], matcher.aspect),
        );
        let layout = candidates
            .map(|l| (edge_strength(frame, &l, &felt), l))
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, l)| l)
            .expect("at least one candidate");
        matcher.prepare(layout.card_w as f32);
        let mut tops = Vec::new();
        for i in 0..PILES {
            match read_face(&matcher, frame, layout.pile_card(i, i, i)) {
                Seen::Card(c, _) if !tops.contains(&c) => tops.push(c),
                _ => break,
            }
        }
        if tops.len() < PILES {
            return Err(
                "not a fresh Klondike deal on the practice table: the seven piles' top \
cards do not read as seven different cards"
                    .into(),
            );
        }
        // The strip each face-down card shows, against the same strip of each pile's top card.
        let strip = |r: Rect| strip_of(frame, &layout, r);
        let downs: Vec<Vec<f32>> = (1..PILES)
            .flat_map(|i| (0..i).map(move |k| (i, k)))
            .map(|(i, k)| strip(layout.pile_card(i, k, i)))
            .collect();
        let faces: Vec<Vec<f32>> = (0..PILES)
            .map(|i| strip(layout.pile_card(i, i, i)))
            .collect();
        let backs = Backs::learn(&downs, &faces)
            .map_err(|e| format!("not a fresh Klondike deal: the face-down cards {e}"))?;
        // Under each pile, down to the status line, the felt.
        let felt = std::array::from_fn(|i| {
            let r = layout.pile_card(i, i, i);
            let x = r.x + r.w / 2;
            let pixels: Vec<[f32; 3]> = (r.bottom() + layout.card_w / 8
                ..layout.chrome.status.y - 2)
                .map(|y| pixel(frame, x, y))
                .collect();
            Felt::learn(&pixels)
        });
        // The waste is empty at the deal, and so are the foundations: felt in their middles.
        let middle = |r: Rect, x: i32| -> Vec<[f32; 3]> {
            (r.y + r.h / 5..r.y + r.h * 4 / 5)
                .map(|y| pixel(frame, x, y))
                .collect()
        };
        let waste_pixels: Vec<[f32; 3]> = (0..3)
            .flat_map(|k| {
                let r = layout.waste_card(k);
                middle(r, r.x + r.w * 9 / 10)
            })
            .collect();
        let foundation_pixels: Vec<[f32; 3]> = layout
            .foundations
            .iter()
            .flat_map(|&r| middle(r, r.x + r.w / 2))
            .collect();
        let reader = Reader {
            matcher,
            backs,
            felt,
            waste_felt: Felt::learn(&waste_pixels),
            foundation_felt: Felt::learn(&foundation_pixels),
            layout,
        };
        if !reader.stock_holds_cards(frame) {
            return Err("not a fresh Klondike deal: the stock's place shows no cards".into());
        }
        Ok(reader)
    }

    /// Reads every place of a frame of the same table.
    pub fn read(&self, frame: &RgbaImage) -> Result<Board, String> {
        let l = &self.layout;
        if (frame.width(), frame.height()) != (l.width, l.height) {
            return Err(format!(
                "the window changed size ({}x{} to {}x{})",
                l.width,
                l.height,
                frame.width(),
                frame.height()
            ));
        }
        let piles = (0..PILES)
            .map(|i| self.pile(frame, i))
            .collect::<Result<Vec<_>, _>>()?;
        let on_felt = |r: Rect| {
            let mut p = [0.0; 3];
            for (dx, dy) in [(0, 0), (-2, -2), (2, 2)] {
                let q = pixel(frame, r.x + r.w / 2 + dx, r.y + r.h / 2 + dy);
                for c in 0..3 {
                    p[c] += q[c] / 3.0;
                }
            }
            self.foundation_felt.holds(&p)
        };
        // The waste: the rightmost fanned place whose right part shows a card.
        let fanned = (0..3)
            .filter(|&k| {
                let r = l.waste_card(k);
                let x = r.x + r.w * 9 / 10;
                !self.waste_felt.holds(&pixel(frame, x, r.y + r.h / 2))
            })
            .max();
        let (waste, waste_shown) = match fanned {
            Some(k) => (read_face(&self.matcher, frame, l.waste_card(k)), k + 1),
            None => (Seen::Empty, 0),
        };
        let foundations = l
            .foundations
            .iter()
            .map(|&r| {
                if on_felt(r) {
                    Seen::Empty
                } else {
                    read_face(&self.matcher, frame, r)
                }
            })
            .collect();
        Ok(Board {
            piles,
            stock: self.stock_holds_cards(frame),
            waste,
            waste_shown,
            foundations,
        })
    }

    /// Whether the stock's place shows cards rather than the felt inside an empty place's outline
    /// (looked at low in the place, clear of the ring an empty stock shows when the waste can be
    /// turned back). A back's strip alone can pass for an outline on felt.
    fn stock_holds_cards(&self, frame: &RgbaImage) -> bool {
        let r = self.layout.stock;
        let y = r.y + r.h * 4 / 5;
        [r.w / 3, r.w / 2, r.w * 2 / 3]
            .iter()
            .any(|&dx| !self.waste_felt.holds(&pixel(frame, r.x + dx, y)))
    }

    /// Pile `i`: its backs strip by strip from the top, then as many faces as its end allows.
    fn pile(&self, frame: &RgbaImage, i: usize) -> Result<Pile, String> {
        let l = &self.layout;
        let first = l.piles[i];
        let x = first.x + first.w / 2;
        let felt = &self.felt[i];
        // Where the pile ends: the lowest pixel of its column that is not felt.
        let end = (first.y..l.chrome.status.y - 1)
            .rev()
            .find(|&y| !felt.holds(&pixel(frame, x, y)))
            .map(|y| y + 1);
        let centre = pixel(frame, x, first.y + first.h / 2);
        let Some(end) = end.filter(|&e| e > first.y + first.h - 3 && !felt.holds(&centre)) else {
            return Ok(Pile {
                down: 0,
                up: Vec::new(),
            });
        };
        let mut down = 0;
        while down < PILES - 1 {
            let r = l.pile_card(i, down, down + 1);
            if r.bottom() > end || !self.backs.is_back(&strip_of(frame, l, r)) {
                break;
            }
            down += 1;
        }
        // The faces: the first at the end of the backs, each next a face step lower, the last
        // ending where the pile does.
        let span = end - l.pile_card(i, down, down).y - l.card_h;
        let faces = (span as f32 / l.up_step as f32).round() as i32;
        if faces < 0 || (span - faces * l.up_step).abs() > 2 {
            return Err(format!(
                "pile {} does not end where whole cards would: {down} face down, then {span} \
pixels that are not a whole number of face steps ({} pixels each)",
                i + 1,
                l.up_step
            ));
        }
        let up = (0..=faces as usize)
            .map(|k| read_face(&self.matcher, frame, l.pile_card(i, down + k, down)))
            .collect();
        Ok(Pile { down, up })
    }
}

/// The strip a face-down card shows in a pile (its top, one face-down step high, across its index
/// corner's width), at template size.
fn strip_of(frame: &RgbaImage, l: &Layout, r: Rect) -> Vec<f32> {
    let w = l.card_w as f32;
    let patch = sample(
        frame,
        r.x as f32 + 0.05 * w,
        r.y as f32 + 0.02 * w,
        0.6 * w,
        l.down_step as f32 - 0.04 * w,
        TEMPLATE_W as usize,
        (TEMPLATE_H / 3) as usize,
    );
    patch.rgb
}

/// The face at `r`: the card with its correlation, or unknown with the best correlation.
fn read_face(matcher: &Matcher, frame: &RgbaImage, r: Rect) -> Seen {
    let look = matcher.look_closely(frame, (r.x as f32, r.y as f32), r.w as f32, true);
    let free = [true; 52];
    match decide(matcher, &look, &free) {
        Some((k, score, margin)) if score >= MIN_SCORE && margin >= MIN_MARGIN => {
            Seen::Card(Card::from_index(k), score)
        }
        Some((_, score, _)) => Seen::Unknown(score),
        None => Seen::Unknown(0.0),
    }
}
