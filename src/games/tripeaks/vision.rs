//! Reading TriPeaks' table from a picture, with the shared card reader (`vision::recognize`'s
//! `Matcher`, whose templates any game's calibration makes: the cards are the same).
//!
//! - Locating: the table's proportions (in card widths) are fitted to the picture's edges: the card
//!   width and where the middle of the peaks and their tops are, by the contrast along each
//!   place's top edge and the sides of its top strip, and the piles'. Done on the deal, when all
//!   28 places hold a card, and kept for the game.
//! - What the deal teaches about this theme, at this size: how strong a card's top edge and the
//!   sides of its top strip are in each row (each row's cards lie over
//!   other things: felt, backs, faces); a place whose top edge, or both sides, show under half the
//!   weakest of its row at the deal is empty. Where the cards of the rows above show through an
//!   emptied place (a card two rows up lies right behind it) it can read as a back, a card unsure,
//!   or even a card: the agent, which knows the place was emptied, does not look there (places
//!   are never filled again, and a card put back would change the waste).
//!   and what the back of a card looks like (the 18 face-down places' index corners): its pattern
//!   (the corners averaged, correlated as templates are) or, where the pattern is too fine to
//!   repeat from place to place (a light fretwork at small sizes), its tone (mean colour and
//!   spread). The pattern is used when it tells every back from every face of the deal, else the
//!   tone when it does; a place counts as a back when it is nearer the back than the deal's faces
//!   ever came, halfway between the two.
//! - Faces are read as Pyramid's are: the index corner against the 52 templates, the leader
//!   challenged where close runners-up differ; a card read twice, or under the confidence
//!   margins, is unsure. Nothing is guessed.

use super::tableau::{column_offset, row_and_column, TABLEAU};
use crate::agent::report::Mark;
use crate::cards::Card;
use crate::table::rect::Rect;
use crate::vision::backs::Backs;
use crate::vision::edges::Edges;
use crate::vision::felt::Felt;
use crate::vision::recognize::{
    by_part, by_suit_glyph, decide, sample, Matcher, MIN_MARGIN, MIN_SCORE,
};
use crate::vision::templates::{TEMPLATE_H, TEMPLATE_W};
use image::RgbaImage;
use rayon::prelude::*;

/// The table's proportions in card widths.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Proportions {
    /// Distance between neighbouring bottom-row cards.
    pub column_step: f32,
    /// Distance between rows.
    pub row_step: f32,
    /// The stock's centre left of the middle, and the waste's right of it.
    pub pile_dx: f32,
    /// Gap between the bottom row and the piles.
    pub pile_gap: f32,
}

impl Proportions {
    /// The practice table's.
    pub fn practice() -> Proportions {
        use super::table::layout::{COLUMN_STEP, PILE_DX, PILE_GAP, ROW_STEP};
        Proportions {
            column_step: COLUMN_STEP,
            row_step: ROW_STEP,
            pile_dx: PILE_DX,
            pile_gap: PILE_GAP,
        }
    }
}

/// Where the table's places are in a frame.
#[derive(Clone, Debug, PartialEq)]
pub struct Located {
    pub width: u32,
    pub height: u32,
    pub card_w: f32,
    pub card_h: f32,
    pub slots: [Rect; TABLEAU],
    pub stock: Rect,
    pub waste: Rect,
}

impl Located {
    /// The rectangle every place and both piles lie in: where the cards are.
    pub fn cards_area(&self) -> Rect {
        Rect::around(self.slots.iter().chain([&self.stock, &self.waste]).copied())
    }
}

/// One candidate fit: the middle of the peaks, their tops' y, the card width.
#[derive(Clone, Copy, Debug)]
struct Fit {
    cx: f32,
    top: f32,
    w: f32,
}

/// Top-left corners of the 28 places, then the stock and the waste, for a fit.
fn corners(fit: Fit, p: &Proportions, aspect: f32) -> Vec<(f32, f32)> {
    let Fit { cx, top, w } = fit;
    let mut out: Vec<(f32, f32)> = (0..TABLEAU)
        .map(|i| {
            let row = row_and_column(i).0 as f32;
            (
                cx + column_offset(i) * p.column_step * w - w / 2.0,
                top + row * p.row_step * w,
            )
        })
        .collect();
    let pile_y = top + 3.0 * p.row_step * w + (w * aspect).round() + p.pile_gap * w;
    out.push((cx - p.pile_dx * w - w / 2.0, pile_y));
    out.push((cx + p.pile_dx * w - w / 2.0, pile_y));
    out
}

/// The contrast (per pixel) along a place's top edge at (x, y), and along the two sides of its
/// top strip `strip` high, for a card `w` wide: the strongest within a pixel (`exact` false), or
/// on these very lines.
fn edges_at(e: &Edges, (x, y): (f32, f32), w: f32, strip: f32, exact: bool) -> [f32; 3] {
    let (x, y, wi) = (x.round() as i32, y.round() as i32, w.round() as i32);
    let (x0, x1) = (x + (0.15 * w) as i32, x + (0.85 * w) as i32);
    let (y0, y1) = (y + (0.15 * strip) as i32, y + (0.85 * strip) as i32);
    let across = (x1 - x0).max(1) as f32;
    let down = (y1 - y0).max(1) as f32;
    let (top, left, right) = if exact {
        (
            e.h_segment(y, x0, x1),
            e.v_segment(x, y0, y1),
            e.v_segment(x + wi, y0, y1),
        )
    } else {
        (
            e.h_band(y, x0, x1),
            e.v_band(x, y0, y1),
            e.v_band(x + wi, y0, y1),
        )
    };
    [top as f32 / across, left as f32 / down, right as f32 / down]
}

/// A place's top edge, per pixel, as its third weakest tenth of the nine from 0.05 to 0.95 of its
/// width (each the strongest within four pixels: the fit is good to a pixel or two, a card's
/// border antialiased over two). A card's top edge runs its whole width, but a court card's
/// picture can reach its top in a dark hat or crown no brighter than the felt: two tenths may
/// show little.
fn top_edge(e: &Edges, (x, y): (f32, f32), w: f32) -> f32 {
    let (x, y) = (x.round() as i32, y.round() as i32);
    let mut tenths: Vec<f32> = (0..9)
        .map(|k| {
            let x0 = x + (w * (0.05 + 0.1 * k as f32)).round() as i32;
            let x1 = x + (w * (0.15 + 0.1 * k as f32)).round() as i32;
            let strongest = [-3, 0, 3]
                .map(|dy| e.h_band(y + dy, x0, x1))
                .into_iter()
                .max();
            strongest.unwrap_or(0) as f32 / (x1 - x0).max(1) as f32
        })
        .collect();
    tenths.sort_by(f32::total_cmp);
    tenths[2]
}

fn score(e: &Edges, fit: Fit, p: &Proportions, aspect: f32, exact: bool) -> f32 {
    let strip = p.row_step * fit.w;
    let places = corners(fit, p, aspect);
    let total: f32 = places
        .iter()
        .map(|&c| edges_at(e, c, fit.w, strip, exact).iter().sum::<f32>())
        .sum();
    total / (3 * places.len()) as f32
}

/// Which pixels of a frame look like felt, worked out once for the many fits tried.
struct FeltMap {
    width: i64,
    height: i64,
    felt: Vec<bool>,
}

impl FeltMap {
    fn new(frame: &RgbaImage) -> FeltMap {
        FeltMap {
            width: frame.width() as i64,
            height: frame.height() as i64,
            felt: {
                let felt = Felt::of(frame);
                frame.pixels().map(|p| felt.like(p)).collect()
            },
        }
    }

    /// Whether (x, y) looks like felt; `None` outside the frame.
    fn at(&self, x: i64, y: i64) -> Option<bool> {
        (x >= 0 && y >= 0 && x < self.width && y < self.height)
            .then(|| self.felt[(y * self.width + x) as usize])
    }
}

/// The share of points around the table's outline that agree with a fit: felt just outside the
/// peak tops, the piles and the bottom row's ends, card just inside them. A fit moved onto a
/// frame drawn inside the cards (a back's border) has card outside it.
fn felt_agreement(felt_map: &FeltMap, fit: Fit, p: &Proportions, aspect: f32) -> f32 {
    let places = corners(fit, p, aspect);
    let w = fit.w;
    let felt = |x: f32, y: f32| felt_map.at(x.round() as i64, y.round() as i64);
    let mut checks = Vec::new();
    // Above and just inside the top edge of the peak tops and the piles.
    for &(x, y) in places[..3].iter().chain(&places[TABLEAU..]) {
        for k in 1..=4 {
            let px = x + w * k as f32 / 5.0;
            checks.push((felt(px, y - 2.0), true));
            checks.push((felt(px, y + 2.0), false));
        }
    }
    // Beside the bottom row's ends and just inside them.
    let strip = p.row_step * w;
    let (left, right) = (places[18], places[27]);
    for k in 1..=3 {
        let y = left.1 + strip * k as f32 / 4.0;
        checks.push((felt(left.0 - 2.0, y), true));
        checks.push((felt(left.0 + 2.0, y), false));
        checks.push((felt(right.0 + w + 1.0, y), true));
        checks.push((felt(right.0 + w - 3.0, y), false));
    }
    let agree = checks
        .iter()
        .filter(|(got, want)| *got == Some(*want))
        .count();
    agree as f32 / checks.len() as f32
}

/// What tells a card from an empty place: its top edge (`top_edge`), and the sides of its top
/// strip.
fn edges_of_place(e: &Edges, r: Rect, w: f32, strip: f32) -> [f32; 3] {
    let at = (r.x as f32, r.y as f32);
    let side = |dx: f32| edges_at(e, (at.0 + dx, at.1), w, strip, false);
    let (a, b, c) = (side(-3.0), side(0.0), side(3.0));
    [
        top_edge(e, at, w),
        a[1].max(b[1]).max(c[1]),
        a[2].max(b[2]).max(c[2]),
    ]
}

/// Finds the table of a fresh deal (every place holding a card) in `frame`, for cards whose
/// height is `aspect` times their width.
pub fn locate(frame: &RgbaImage, p: &Proportions, aspect: f32) -> Result<Located, String> {
    let e = Edges::new(frame);
    let felt_map = FeltMap::new(frame);
    let (wf, hf) = (frame.width() as f32, frame.height() as f32);
    // Coarse: every third card width, every fourth pixel across and third down.
    let widths: Vec<f32> = (0..)
        .map(|k| (0.04 * wf).max(12.0) + 3.0 * k as f32)
        .take_while(|&w| w <= 0.14 * wf)
        .collect();
    // Edges count as far as felt lies outside the table's outline and card inside it: a fit on
    // lines drawn on the cards (a back's border or pattern) has card outside.
    let best_of = |fits: Vec<Fit>, exact: bool| {
        fits.into_par_iter()
            .map(|f| {
                let s = score(&e, f, p, aspect, exact);
                (s * felt_agreement(&felt_map, f, p, aspect), f)
            })
            .max_by(|a, b| a.0.total_cmp(&b.0))
    };
    let mut coarse = Vec::new();
    for &w in &widths {
        // From the middle to the outer side of the bottom row's end cards.
        let span_x = 4.5 * p.column_step * w + w / 2.0;
        let height = 3.0 * p.row_step * w + 2.0 * w * aspect + p.pile_gap * w;
        let mut cx = span_x;
        while cx <= wf - span_x {
            let mut top = 0.0;
            while top + height <= hf {
                coarse.push(Fit { cx, top, w });
                top += 3.0;
            }
            cx += 4.0;
        }
    }
    let (_, found) =
        best_of(coarse, false).ok_or("the picture is too small to hold a TriPeaks table")?;
    // Fine: every pixel and card width around the coarse fit.
    let mut fine = Vec::new();
    for dw in -3..=3 {
        for dx in -6..=6 {
            for dy in -6..=6 {
                fine.push(Fit {
                    cx: found.cx + dx as f32,
                    top: found.top + dy as f32,
                    w: found.w + dw as f32,
                });
            }
        }
    }
    let (best, fit) = best_of(fine, true).expect("fits");
    if best < 8.0 {
        return Err(format!(
            "no TriPeaks table in the picture (the best fit's card edges show a contrast of {best:.1})"
        ));
    }
    let w = fit.w.round();
    let h = (w * aspect).round();
    let rect =
        |(x, y): (f32, f32)| Rect::new(x.round() as i32, y.round() as i32, w as i32, h as i32);
    let places = corners(Fit { w, ..fit }, p, aspect);
    Ok(Located {
        width: frame.width(),
        height: frame.height(),
        card_w: w,
        card_h: h,
        slots: std::array::from_fn(|i| rect(places[i])),
        stock: rect(places[TABLEAU]),
        waste: rect(places[TABLEAU + 1]),
    })
}

/// What one place shows.
#[derive(Clone, Debug, PartialEq)]
pub enum Seen {
    Empty,
    Back,
    Card(Card),
    /// A card face the reader is not sure of, with the close candidates.
    Unsure(Vec<Card>),
}

impl std::fmt::Display for Seen {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Seen::Empty => f.write_str("empty"),
            Seen::Back => f.write_str("a card face down"),
            Seen::Card(c) => write!(f, "{c}"),
            Seen::Unsure(cards) if cards.is_empty() => f.write_str("a card nothing matches"),
            Seen::Unsure(cards) => {
                let names: Vec<String> = cards.iter().map(Card::to_string).collect();
                write!(f, "unsure ({})", names.join(" or "))
            }
        }
    }
}

/// A board as read from a frame.
#[derive(Clone, Debug, PartialEq)]
pub struct Board {
    pub tableau: Vec<Seen>,
    /// Whether the stock holds cards (face down).
    pub stock: bool,
    pub waste: Seen,
}

impl Board {
    /// What each place showing something was read as, where it lies in the frame (a face-down
    /// card as `back`, a face the reader is unsure of as `?`).
    pub fn marks(&self, located: &Located) -> Vec<Mark> {
        let places = located.slots.iter().zip(&self.tableau);
        let mut marks: Vec<Mark> = places
            .chain([(&located.waste, &self.waste)])
            .filter_map(|(&rect, seen)| {
                let (text, confidence) = match seen {
                    Seen::Empty => return None,
                    Seen::Back => ("back".to_string(), 1.0),
                    Seen::Card(c) => (c.to_string(), 1.0),
                    Seen::Unsure(_) => ("?".to_string(), 0.0),
                };
                Some(Mark {
                    rect,
                    text,
                    confidence,
                })
            })
            .collect();
        if self.stock {
            marks.push(Mark {
                rect: located.stock,
                text: "back".into(),
                confidence: 1.0,
            });
        }
        marks
    }
}

/// Reads TriPeaks frames: the located table and what the deal taught.
pub struct Reader {
    matcher: Matcher,
    pub located: Located,
    /// The table's proportions the reader was made with.
    pub proportions: Proportions,
    /// What tells a back from a face here.
    backs: Backs,
    /// Per row: contrast along a place's top edge, and along the sides of its top strip, below
    /// which the place is empty.
    edge_floor: [[f32; 3]; 4],
    /// The same for the waste (on felt).
    waste_floor: [f32; 3],
}

impl Reader {
    /// Learns the table from a picture of a fresh deal: where it is, how strong a card's top edge
    /// is, and what a card's back looks like.
    pub fn from_deal(
        frame: &RgbaImage,
        mut matcher: Matcher,
        p: &Proportions,
    ) -> Result<Reader, String> {
        let located = locate(frame, p, matcher.aspect)?;
        matcher.prepare(located.card_w);
        let e = Edges::new(frame);
        let strip = p.row_step * located.card_w;
        let at_deal: Vec<[f32; 3]> = located
            .slots
            .iter()
            .map(|r| edges_of_place(&e, *r, located.card_w, strip))
            .collect();
        // Each row's cards lie over different things (felt, backs, faces): half the weakest
        // card of the row at the deal.
        let edge_floor = std::array::from_fn(|row| {
            std::array::from_fn(|k| {
                (0..TABLEAU)
                    .filter(|&i| row_and_column(i).0 == row)
                    .map(|i| at_deal[i][k])
                    .fold(f32::MAX, f32::min)
                    / 2.0
            })
        });
        let waste_floor = edges_of_place(&e, located.waste, located.card_w, strip).map(|v| v / 2.0);
        let mut reader = Reader {
            matcher,
            located,
            proportions: *p,
            waste_floor,
            backs: Backs::Pattern(Vec::new(), 1.0),
            edge_floor,
        };
        // The 18 places above the bottom row and the stock are face down at the deal, the
        // bottom row and the waste face up.
        let l = &reader.located;
        let corners: Vec<Vec<f32>> = l.slots[..18]
            .iter()
            .chain([&l.stock])
            .chain(&l.slots[18..])
            .chain([&l.waste])
            .map(|&r| reader.corner(frame, r))
            .collect();
        reader.backs = Backs::learn(&corners[..19], &corners[19..]).map_err(|e| {
            format!("not a fresh TriPeaks deal: the cards above the bottom row {e}")
        })?;
        Ok(reader)
    }

    /// The index corner of a card at `r`, sampled at template size (RGB values).
    fn corner(&self, frame: &RgbaImage, r: Rect) -> Vec<f32> {
        let [bx, by, bw, bh] = self.matcher.index_box;
        let w = self.located.card_w;
        let patch = sample(
            frame,
            r.x as f32 + bx * w,
            r.y as f32 + by * w,
            bw * w,
            bh * w,
            TEMPLATE_W as usize,
            TEMPLATE_H as usize,
        );
        patch.rgb
    }

    fn is_back(&self, frame: &RgbaImage, r: Rect) -> bool {
        self.backs.is_back(&self.corner(frame, r))
    }

    /// The face at `r`: the card, or unsure with the close candidates.
    fn face(&self, frame: &RgbaImage, r: Rect) -> Seen {
        let (x, y, w) = (r.x as f32, r.y as f32, self.located.card_w);
        let look = self.matcher.look_closely(frame, (x, y), w, true);
        let free = [true; 52];
        if let Some((k, score, margin)) = decide(&self.matcher, &look, &free) {
            if score >= MIN_SCORE && margin >= MIN_MARGIN {
                return Seen::Card(Card::from_index(k));
            }
        }
        // Torn between the suits of one rank: a face-up card shows its suit's glyph whole under
        // the rank, which settles it when the set has the glyphs.
        if let Some(suits) = self.matcher.suit_glyphs() {
            let glyph = || suits.look(frame, x, y, w);
            if let Some((k, _)) = by_suit_glyph(&self.matcher, suits, &look, &free, glyph) {
                return Seen::Card(Card::from_index(k));
            }
        }
        // Or by its top strip past the index corner (its first pips, or its picture), when the
        // set has that part's templates: each card's own, as calibration saw it.
        if let Some(strip) = &self.matcher.strip {
            let cut = || strip.look(frame, x, y, w);
            if let Some((k, _)) = by_part(&self.matcher, strip, &look, &free, cut) {
                return Seen::Card(Card::from_index(k));
            }
        }
        let close = look.ranked().into_iter().take(3);
        Seen::Unsure(close.map(|(_, k)| Card::from_index(k)).collect())
    }

    /// Reads every place of a frame of the same table.
    pub fn read(&self, frame: &RgbaImage) -> Result<Board, String> {
        let l = &self.located;
        if (frame.width(), frame.height()) != (l.width, l.height) {
            return Err(format!(
                "the window changed size ({}x{} to {}x{})",
                l.width,
                l.height,
                frame.width(),
                frame.height()
            ));
        }
        let e = Edges::new(frame);
        let strip = self.proportions.row_step * l.card_w;
        // A card shows its top edge and at least one side of its top strip (pips of a card
        // behind an empty place can line up with where its top edge would be, not with its sides).
        let present = |r: Rect, f: [f32; 3]| {
            let [top, left, right] = edges_of_place(&e, r, l.card_w, strip);
            top >= f[0] && (left >= f[1] || right >= f[2])
        };
        let tableau: Vec<Seen> = l
            .slots
            .par_iter()
            .enumerate()
            .map(|(i, &r)| {
                if !present(r, self.edge_floor[row_and_column(i).0]) {
                    Seen::Empty
                } else if self.is_back(frame, r) {
                    Seen::Back
                } else {
                    self.face(frame, r)
                }
            })
            .collect();
        let waste = if present(l.waste, self.waste_floor) {
            self.face(frame, l.waste)
        } else {
            Seen::Empty
        };
        Ok(Board {
            tableau,
            stock: self.is_back(frame, l.stock),
            waste,
        })
    }
}
