//! Finds the table in a frame: fits a layout profile's proportions (column step, row step, pile row)
//! to the edges in the picture, which gives the card size and the position of the 28 pyramid slots,
//! the stock and the waste at any window size and display scale; and tells a picture that is not a
//! table (mostly black, blank, no pyramid) from one that is.

use crate::games::pyramid::position::{Position, PYRAMID_SIZE};
use crate::games::pyramid::vision::profile::Profile;
use crate::table::rect::Rect;
use crate::vision::edges::Edges;
use crate::vision::felt::{felt_rows, shrink, FeltMap};
use crate::vision::scratch;
use image::RgbaImage;
use rayon::prelude::*;

mod coarse;

use coarse::{coarse_fit, CENTRES_PER_TOP, WIDE_CENTRES_PER_TOP};

/// Where the table's parts are in a frame.
#[derive(Clone, Debug, PartialEq)]
pub struct Located {
    pub card_w: f32,
    pub card_h: f32,
    pub slots: [Rect; PYRAMID_SIZE],
    pub stock: Rect,
    pub waste: Rect,
    /// How well the fitted layout matches the picture's edges (mean edge contrast along slot edges).
    pub score: f32,
}

impl Located {
    /// The rectangle every slot and both piles lie in: where the cards are.
    pub fn cards_area(&self) -> Rect {
        Rect::around(self.slots.iter().chain([&self.stock, &self.waste]).copied())
    }
}

/// Why a frame cannot be read as a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotATable(pub String);

impl std::fmt::Display for NotATable {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The layout's numbers for one candidate: pyramid centre x, apex top y, card width.
#[derive(Clone, Copy, Debug)]
struct Fit {
    cx: f32,
    top: f32,
    /// Card width.
    w: f32,
    /// The unit of the steps between cards (the card width of the layout, which can exceed the
    /// drawn card's by a margin).
    u: f32,
}

impl Fit {
    fn slot_x(&self, p: Position, profile: &Profile) -> f32 {
        self.cx + (p.col() as f32 - p.row() as f32 / 2.0) * profile.column_step * self.u
            - self.w / 2.0
    }
    fn slot_y(&self, p: Position, profile: &Profile) -> f32 {
        self.top + p.row() as f32 * profile.row_step * self.u
    }
}

/// What a fit is judged by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Objective {
    /// The whole table: the mean contrast along every pyramid slot's visible edges, and the piles'
    /// edges (which give the card height). Right for any pyramid with a good share of its cards.
    Table,
    /// The corners of the cards there are: per pyramid slot, the weakest of its three visible
    /// edges, so that a slot counts only where a card's top and both sides all lie, and only as
    /// much as the cards it lies on count (see `corners_score`); the piles count only for the
    /// card size and the steps between cards, near the fit the corners made (`size_by_piles`).
    /// The first fits tried include the topmost card on the felt as the apex
    /// (`apex_candidates`). For a pyramid with few cards left, whose edges the piles' (the
    /// stock's stacked backs, a card's inner frame, the empty waste's outline), the toolbar's and
    /// lines across the cards can outweigh: deal 48 halfway (the top 3 rows left) was located a
    /// third of a row off or 4% small at 11 theme × size, and refused, with `Table`; with the apex
    /// alone, `Table` finds no table at all.
    Corners,
}

/// How far from where a fit puts an edge it is looked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Look {
    /// The strongest within a pixel.
    Band,
    /// The strongest within so many pixels, weighed down with the distance (`Edges::h_band_peaked`).
    Peaked(i32),
}

/// The contrast along the visible edges of pyramid slot `p` for a fit: its top edge, and the left
/// and right edges of its top strip (what shows of a card with the next row over it), each looked
/// for as `look` says.
fn slot_edges(e: &Edges, fit: Fit, profile: &Profile, p: Position, look: Look) -> [f32; 3] {
    let strip = profile.row_step * fit.w;
    let x = fit.slot_x(p, profile).round() as i32;
    let y = fit.slot_y(p, profile).round() as i32;
    let w = fit.w.round() as i32;
    let (ex0, ex1) = (x + (0.15 * fit.w) as i32, x + (0.85 * fit.w) as i32);
    let (ey0, ey1) = (y + (0.2 * strip) as i32, y + (0.8 * strip) as i32);
    let (top, left, right) = match look {
        Look::Band => (
            e.h_band(y, ex0, ex1) as f32,
            e.v_band(x, ey0, ey1) as f32,
            e.v_band(x + w, ey0, ey1) as f32,
        ),
        Look::Peaked(reach) => (
            e.h_band_peaked(y, reach, ex0, ex1),
            e.v_band_peaked(x, reach, ey0, ey1),
            e.v_band_peaked(x + w, reach, ey0, ey1),
        ),
    };
    [
        top / (ex1 - ex0).max(1) as f32,
        left / (ey1 - ey0).max(1) as f32,
        right / (ey1 - ey0).max(1) as f32,
    ]
}

/// Mean contrast along the visible edges (top edge, left and right edges of the top strip) of every
/// pyramid slot.
fn pyramid_score(e: &Edges, fit: Fit, profile: &Profile) -> f32 {
    let total: f32 = Position::all()
        .map(|p| {
            slot_edges(e, fit, profile, p, Look::Band)
                .iter()
                .sum::<f32>()
        })
        .sum();
    total / (3.0 * PYRAMID_SIZE as f32)
}

/// Mean over the pyramid slots of the weakest of each slot's visible edges (looked for as `look`),
/// each capped by those of the cards it lies on (see `Objective::Corners`): a card is only there
/// if the cards it lies on are (those above go last), so a fit that puts the cards there are on
/// slots lower down, with nothing at its apex (two rows down and a column across, its apex in the
/// toolbar), gains nothing by them. A slot whose top strip crosses a row of the picture with no
/// felt (`felt_rows`, when given) is on a bar across the window, not the table: the toolbar's
/// buttons have a card's top and sides.
fn corners_score(e: &Edges, fit: Fit, profile: &Profile, look: Look, felt_rows: &[bool]) -> f32 {
    let strip = profile.row_step * fit.w;
    let mut corner = [0f32; PYRAMID_SIZE];
    for p in Position::all() {
        let middle = (fit.slot_y(p, profile) + strip / 2.0).round();
        let on_a_bar = middle >= 0.0 && felt_rows.get(middle as usize) == Some(&false);
        let own = if on_a_bar {
            0.0
        } else {
            slot_edges(e, fit, profile, p, look)
                .into_iter()
                .fold(f32::MAX, f32::min)
        };
        corner[p.index()] = p
            .covers()
            .map(|above| corner[above.index()])
            .fold(own, f32::min);
    }
    corner.iter().sum::<f32>() / PYRAMID_SIZE as f32
}

/// How a stage of `locate` weighs a fit's edges.
struct Judge<'a> {
    objective: Objective,
    /// How much the piles' edges count against the pyramid's (`Table`).
    pile_weight: f32,
    /// How far from where the fit puts it an edge is looked for (`Corners`).
    look: Look,
    /// Per row of the picture, whether it shows felt somewhere (`Corners`; empty: not known).
    felt_rows: &'a [bool],
}

impl<'a> Judge<'a> {
    /// How the full frame's edges are weighed once the first fit is made on a copy shrunk `k`
    /// times: the piles counted twice, and for `Corners` edges looked for as far as the first
    /// fit's were, weighed down with the distance (a fit a few pixels off still scores, less).
    fn refining(objective: Objective, k: u32, felt_rows: &'a [bool]) -> Judge<'a> {
        Judge {
            objective,
            pile_weight: 2.0,
            look: Look::Peaked(2 * k as i32),
            felt_rows,
        }
    }
}

/// The rows of `frame` that show felt, as `objective` needs them (`Judge::felt_rows`).
fn felt_rows_for(frame: &RgbaImage, objective: Objective) -> Vec<bool> {
    match objective {
        Objective::Table => Vec::new(),
        Objective::Corners => felt_rows(&FeltMap::new(frame)).to_vec(),
    }
}

/// A fit's edges as `judge` weighs them, with the card height they give (height over width).
fn edges_for(
    judge: &Judge,
    e: &Edges,
    fit: Fit,
    profile: &Profile,
    aspect: Option<f32>,
) -> (f32, f32) {
    let Judge {
        objective,
        pile_weight,
        look,
        felt_rows,
    } = *judge;
    match objective {
        Objective::Table => {
            let (pile, a) = pile_fit(e, fit, profile, aspect);
            (pyramid_score(e, fit, profile) + pile_weight * pile, a)
        }
        Objective::Corners => (
            corners_score(e, fit, profile, look, felt_rows),
            aspect.unwrap_or_else(|| pile_fit(e, fit, profile, None).1),
        ),
    }
}

/// The pile row for a fit: the best card height (from `aspect`, or searched in the profile's range)
/// by the edges around the stock and the waste, as (score, aspect).
fn pile_fit(e: &Edges, fit: Fit, profile: &Profile, aspect: Option<f32>) -> (f32, f32) {
    let w = fit.w;
    let row6 = fit.top + 6.0 * profile.row_step * fit.u;
    let xs = [
        fit.cx + profile.stock_dx * fit.u - w / 2.0,
        fit.cx - profile.stock_dx * fit.u - w / 2.0,
    ];
    let score_at = |a: f32| -> f32 {
        let y = row6 + a * w + profile.pile_gap * fit.u;
        let h = a * w;
        let mut sc = 0.0;
        for &x in &xs {
            let (x0, x1) = ((x + 0.15 * w) as i32, (x + 0.85 * w) as i32);
            let (y0, y1) = ((y + 0.15 * h) as i32, (y + 0.85 * h) as i32);
            let top = e.h_band(y.round() as i32, x0, x1) as f32 / (x1 - x0).max(1) as f32;
            let bottom =
                e.h_band((y + h).round() as i32 - 1, x0, x1) as f32 / (x1 - x0).max(1) as f32;
            let left = e.v_band(x.round() as i32, y0, y1) as f32 / (y1 - y0).max(1) as f32;
            let right =
                e.v_band((x + w).round() as i32 - 1, y0, y1) as f32 / (y1 - y0).max(1) as f32;
            sc += top + bottom + left + right;
        }
        sc / 8.0
    };
    match aspect {
        Some(a) => (score_at(a), a),
        None => {
            // The piles alone can mislead (a stock drawn as a stack, whose top card sits above
            // its place; lines inside the cards): jolly-royal's piles at 1200x760 scored a card
            // 4% short (a line inside the cards) a little over the true height. Where another
            // peak of the piles' score comes near the best, a few pixels apart, the bottom
            // pyramid row's lower edges (over felt where its cards lie) choose between them.
            let [a0, a1] = profile.aspect_range;
            let step = 0.5 / w;
            let curve: Vec<(f32, f32)> = (0..)
                .map(|k| a0 + k as f32 * step)
                .take_while(|&a| a <= a1)
                .map(|a| (a, score_at(a)))
                .collect();
            let best = curve
                .iter()
                .copied()
                .fold((a0, f32::MIN), |b, c| if c.1 > b.1 { c } else { b });
            let peaks = curve.iter().enumerate().filter(|&(k, &(a, sc))| {
                let left = k.checked_sub(1).map_or(f32::MIN, |k| curve[k].1);
                let right = curve.get(k + 1).map_or(f32::MIN, |c| c.1);
                sc >= left
                    && sc >= right
                    && sc >= PEAK_NEAR * best.1
                    && (a - best.0).abs() * w > PEAKS_APART
            });
            let bottoms = |a: f32| bottom_row_edges(e, fit, profile, row6 + a * w);
            let at_best = bottoms(best.0);
            // Taken when its bottoms are clearer by more than its piles' score falls short.
            let other = peaks
                .map(|(_, &(a, sc))| (a, sc, bottoms(a)))
                .filter(|&(_, sc, b)| b * sc > BOTTOMS_CLEARER * at_best * best.1)
                .max_by(|x, y| x.2.total_cmp(&y.2));
            match other {
                Some((a, sc, _)) => (sc, a),
                None => (best.1, best.0),
            }
        }
    }
}

/// How near the piles' best score another peak of theirs must come (as a share of it) for the
/// bottom pyramid row to choose between them (`pile_fit`). A stock drawn as a stack on cards with
/// an inner frame fits a card 5 pixels short nearly as well as the true one (swiss-xvii in the msc
/// look at 800x600: the pile's top at the bottom row's lower edge, its bottom on the inner frame;
/// the true height scores 0.88 to 0.90 of that).
const PEAK_NEAR: f32 = 0.8;

/// How far apart, in pixels of card height, two peaks of the piles' score must lie to be two
/// (within that, one edge: its rows blur into each other).
const PEAKS_APART: f32 = 2.5;

/// How many times stronger the bottom row's lower edges must be at another peak than at the
/// best for it to be taken, times the share of the best's score the piles give it: clearly, as
/// card over felt is against a line inside a card, and the more clearly the further the piles
/// fall short (swiss-xvii's true height above: 2.7 to 6 times).
const BOTTOMS_CLEARER: f32 = 1.5;

/// The mean contrast along the lower edges of the bottom pyramid row's slots, at row `y` of the
/// picture (their top plus the card height).
fn bottom_row_edges(e: &Edges, fit: Fit, profile: &Profile, y: f32) -> f32 {
    let w = fit.w;
    let y = y.round() as i32 - 1;
    let row: Vec<f32> = Position::all()
        .filter(|p| p.row() == 6)
        .map(|p| {
            let x = fit.slot_x(p, profile);
            let (x0, x1) = ((x + 0.15 * w) as i32, (x + 0.85 * w) as i32);
            e.h_band(y, x0, x1) as f32 / (x1 - x0).max(1) as f32
        })
        .collect();
    row.iter().sum::<f32>() / row.len().max(1) as f32
}

/// Share of the felt-like pixels among those a fit says are felt: inside the board's bounds but
/// outside every slot and pile (sampled on a grid), on rows that show felt somewhere.
fn felt_agreement(frame: &FeltMap, fit: Fit, aspect: f32, profile: &Profile) -> f32 {
    let w = fit.w;
    let h = aspect * w;
    let mut rects: Vec<(f32, f32)> = Position::all()
        .map(|p| (fit.slot_x(p, profile), fit.slot_y(p, profile)))
        .collect();
    let row6 = fit.top + 6.0 * profile.row_step * fit.u;
    let pile_y = row6 + aspect * w + profile.pile_gap * fit.u;
    rects.push((fit.cx + profile.stock_dx * fit.u - w / 2.0, pile_y));
    rects.push((fit.cx - profile.stock_dx * fit.u - w / 2.0, pile_y));
    let x0 = fit.cx - 3.0 * profile.column_step * w - 0.8 * w;
    let x1 = fit.cx + 3.0 * profile.column_step * w + 0.8 * w;
    let (y0, y1) = (fit.top - 0.3 * w, pile_y + h + 0.3 * w);
    let step = (w / 16.0).max(2.0);
    let (fw, fh) = (frame.width as f32, frame.height as f32);
    // A margin around each card allows for rounding and shadows.
    let m = 0.04 * w;
    let (mut total, mut felt) = (0u32, 0u32);
    let mut spans: Vec<(f32, f32)> = Vec::with_capacity(rects.len());
    // The samples across, the same on every row: where they are, and which column.
    let mut xs: Vec<f32> = Vec::new();
    let mut x = x0.max(0.0);
    while x < x1.min(fw) {
        xs.push(x);
        x += step;
    }
    let columns: Vec<usize> = xs.iter().map(|&x| x as u32 as usize).collect();
    let mut y = y0.max(0.0);
    while y < y1.min(fh) {
        // A row with no felt at all is a bar across the window, not the table's: a fit reaching
        // into the toolbar is not the worse for it (apex just under the toolbar: with few cards
        // left, a fit a third of a row lower, clear of it, won).
        if !frame.any[y as u32 as usize] {
            y += step;
            continue;
        }
        // The cards this row of samples crosses, as x spans [from, to), sorted and merged.
        spans.clear();
        spans.extend(
            rects
                .iter()
                .filter(|&&(_, ry)| y >= ry - m && y < ry + h + m)
                .map(|&(rx, _)| (rx - m, rx + w + m)),
        );
        spans.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut merged: Vec<(f32, f32)> = Vec::with_capacity(spans.len());
        for &(from, to) in &spans {
            match merged.last_mut() {
                Some(last) if from <= last.1 => last.1 = last.1.max(to),
                _ => merged.push((from, to)),
            }
        }
        // The samples outside every card: the runs between the spans (a span [from, to) holds
        // the samples from the first at or past `from` to the last before `to`).
        let row = &frame.felt[y as u32 as usize * frame.width as usize..];
        let mut outside = |from: usize, to: usize| {
            if from < to {
                total += (to - from) as u32;
                felt += columns[from..to]
                    .iter()
                    .map(|&x| row[x] as u32)
                    .sum::<u32>();
            }
        };
        let mut start = 0;
        for &(from, to) in &merged {
            let (a, b) = (
                xs.partition_point(|&x| x < from),
                xs.partition_point(|&x| x < to),
            );
            outside(start, a);
            start = start.max(b);
        }
        outside(start, xs.len());
        y += step;
    }
    if total == 0 {
        0.0
    } else {
        felt as f32 / total as f32
    }
}

/// The score `locate` refines a layout by (piles counted twice), times the square of its felt
/// agreement, for apex centre `cx`, apex top `top` and card width `w` (for diagnosing fits).
pub fn score_of(
    frame: &RgbaImage,
    e: &Edges,
    profile: &Profile,
    aspect: Option<f32>,
    cx: f32,
    top: f32,
    w: f32,
) -> (f32, f32, f32, f32) {
    let f = Fit { cx, top, w, u: w };
    let (pile, a) = pile_fit(e, f, profile, aspect);
    let agree = felt_agreement(&FeltMap::new(frame), f, a, profile);
    (
        pyramid_score(e, f, profile),
        pile,
        agree,
        (pyramid_score(e, f, profile) + 2.0 * pile) * agree * agree,
    )
}

/// Checks for pictures that cannot show a table at all.
fn check_picture(e: &Edges) -> Result<(), NotATable> {
    let n = e.grey.len().max(1);
    // Counted in parallel, in pieces added up after.
    let histogram = e
        .grey
        .par_chunks(1 << 16)
        .map(|piece| {
            // Four counts per level, for pixels in turn: runs of one level (the felt) would
            // otherwise wait on their own last count.
            let mut h = [[0u32; 256]; 4];
            let mut fours = piece.chunks_exact(4);
            for four in &mut fours {
                for (h, &g) in h.iter_mut().zip(four) {
                    h[g as usize] += 1;
                }
            }
            for &g in fours.remainder() {
                h[0][g as usize] += 1;
            }
            std::array::from_fn(|g| h.iter().map(|h| h[g] as usize).sum::<usize>())
        })
        .reduce(
            || [0usize; 256],
            |mut a, b| {
                for (x, y) in a.iter_mut().zip(b) {
                    *x += y;
                }
                a
            },
        );
    let black: usize = histogram[..6].iter().sum();
    if black * 10 > n * 4 {
        return Err(NotATable(format!(
            "{}% of the picture is black: the window is covered, minimised or off screen",
            black * 100 / n
        )));
    }
    let levels = || {
        histogram
            .iter()
            .enumerate()
            .map(|(g, &c)| (g as f64, c as f64))
    };
    let mean = levels().map(|(g, c)| g * c).sum::<f64>() / n as f64;
    let var = levels().map(|(g, c)| c * (g - mean).powi(2)).sum::<f64>() / n as f64;
    if var < 25.0 {
        return Err(NotATable("the picture is blank (one flat colour)".into()));
    }
    Ok(())
}

/// The least contrast along the weakest visible edge of the apex card for a fit by
/// `Objective::Corners`: the cards' edges are some tens (tango_nuevo's softest, 18), the felt's 2.
const MIN_APEX_CORNER: f32 = 8.0;

/// How many times smaller the copy the first fit is made on is: at most 1,100 pixels wide.
fn shrink_factor(width: u32) -> u32 {
    width.div_ceil(1100).max(1)
}

/// The first fit of a frame, on a copy shrunk to at most 1,100 pixels wide (None for frames that
/// narrow, whose first fit `locate` makes on the frame's own edges): it needs no edges of the full
/// frame, so it can be made while they are worked out (see `locate_from`).
pub struct FirstFit {
    fit: Option<Result<Vec<Fit>, NotATable>>,
    objective: Objective,
    centres: usize,
}

/// `FirstFit` of `frame` (see `locate` for `aspect`), by the usual search.
pub fn first_fit(
    frame: &RgbaImage,
    profile: &Profile,
    aspect: Option<f32>,
    objective: Objective,
) -> FirstFit {
    first_fit_keeping(frame, profile, aspect, objective, CENTRES_PER_TOP)
}

/// `first_fit`, keeping `centres` centres for each row spacing and top.
fn first_fit_keeping(
    frame: &RgbaImage,
    profile: &Profile,
    aspect: Option<f32>,
    objective: Objective,
    centres: usize,
) -> FirstFit {
    let k = shrink_factor(frame.width());
    if k == 1 || frame.height() < 150 {
        return FirstFit {
            fit: None,
            objective,
            centres,
        };
    }
    let small = shrink(frame, k);
    let small_edges = Edges::new(&small);
    let f = coarse_fit(&small, &small_edges, profile, aspect, objective, centres);
    drop(small_edges);
    scratch::BYTES.give(small.into_raw());
    let kf = k as f32;
    FirstFit {
        fit: Some(f.map(|fits| {
            fits.into_iter()
                .map(|f| Fit {
                    cx: f.cx * kf + (kf - 1.0) / 2.0,
                    top: f.top * kf + (kf - 1.0) / 2.0,
                    w: f.w * kf,
                    u: f.u * kf,
                })
                .collect()
        })),
        objective,
        centres,
    }
}

/// Fits `profile` to `frame`. `aspect` is the cards' height over width when known (from the
/// templates); otherwise it is measured from the pile row. The search runs on a copy shrunk to about
/// 1,100 pixels wide or less; the fit is then refined on the full frame.
pub fn locate(
    frame: &RgbaImage,
    e: &Edges,
    profile: &Profile,
    aspect: Option<f32>,
) -> Result<Located, NotATable> {
    locate_for(frame, e, profile, aspect, Objective::Table)
}

/// `locate`, judging fits by `objective`.
pub fn locate_for(
    frame: &RgbaImage,
    e: &Edges,
    profile: &Profile,
    aspect: Option<f32>,
    objective: Objective,
) -> Result<Located, NotATable> {
    locate_from(
        frame,
        e,
        profile,
        aspect,
        first_fit(frame, profile, aspect, objective),
    )
}

/// `locate_for` by the wide search: more centres kept for each row spacing and top (see
/// `WIDE_CENTRES_PER_TOP`). For borderless cards whose usual fit was found wanting (calibration's
/// labels disagree with it, or a frame is refused): lines inside such cards can outscore their
/// sides a few pixels off.
pub fn locate_wide(
    frame: &RgbaImage,
    e: &Edges,
    profile: &Profile,
    aspect: Option<f32>,
    objective: Objective,
) -> Result<Located, NotATable> {
    let first = first_fit_keeping(frame, profile, aspect, objective, WIDE_CENTRES_PER_TOP);
    locate_from_scanning(frame, e, profile, aspect, first, true)
}

/// `fit` moved across (its centre up to `SCAN_REACH` card widths either way, a pixel of the
/// shrunk copy at a time) to where the full frame's edges, as `refine` weighs them, are best.
/// The first search on the shrunk copy can keep a centre further off than `refine` reaches:
/// borderless cards show their sides only where felt lies beside them, and on the shrunk copy
/// lines inside the cards (an index glyph's side, the next card's edge a few pixels on) can add
/// up to more (anglo+borderless in the msc look at 2560×1440, scale 2.5: about 30 px right, 0.14
/// card widths, where the full frame's edges score the true centre up to twice as well; at
/// 1440×900, 17 px). Made by the wide search, and by the usual one for a template set calibrated
/// as borderless: on cards with a border the first fit lies within a pixel or two of the best,
/// and lines inside the card (ornamental's scroll lines) can score better a scan away (one frame
/// at 3840×2160 in the msc look was refused when every search scanned).
fn centre_scanned(
    frame: &RgbaImage,
    e: &Edges,
    profile: &Profile,
    aspect: Option<f32>,
    objective: Objective,
    fit: Fit,
) -> Fit {
    let k = shrink_factor(e.width as u32);
    let felt_rows = felt_rows_for(frame, objective);
    let judge = Judge::refining(objective, k, &felt_rows);
    let k = k as f32;
    let steps = (SCAN_REACH * fit.w / k).ceil() as i32;
    // Every shift but none: the fit itself is scored as the best so far.
    let candidates: Vec<Fit> = (-steps..=steps)
        .filter(|&i| i != 0)
        .map(|i| Fit {
            cx: fit.cx + i as f32 * k,
            ..fit
        })
        .collect();
    let scores: Vec<f32> = candidates
        .par_iter()
        .map(|&f| edges_for(&judge, e, f, profile, aspect).0)
        .collect();
    let mut best = (edges_for(&judge, e, fit, profile, aspect).0, fit);
    for (sc, cand) in scores.into_iter().zip(candidates) {
        if sc > best.0 {
            best = (sc, cand);
        }
    }
    best.1
}

/// How far `centre_scanned` looks either way, in card widths.
const SCAN_REACH: f32 = 0.2;

/// `locate`, from the frame's `first` fit.
pub fn locate_from(
    frame: &RgbaImage,
    e: &Edges,
    profile: &Profile,
    aspect: Option<f32>,
    first: FirstFit,
) -> Result<Located, NotATable> {
    locate_from_scanning(frame, e, profile, aspect, first, false)
}

/// `locate_from`, the first fit's centre moved across on the full frame first when `scan`
/// (`centre_scanned`): for cards calibrated as borderless, whose first fit can lie further off
/// than refining reaches.
pub fn locate_from_scanning(
    frame: &RgbaImage,
    e: &Edges,
    profile: &Profile,
    aspect: Option<f32>,
    first: FirstFit,
    scan: bool,
) -> Result<Located, NotATable> {
    let objective = first.objective;
    let coarse = first_fits(frame, e, profile, aspect, first)?;
    let start = match scan {
        true => centre_scanned(frame, e, profile, aspect, objective, coarse[0]),
        false => coarse[0],
    };
    refine(frame, e, profile, aspect, objective, start)
}

/// The first fits of `first` (made here for a frame too narrow to shrink), after checking the
/// picture could be a table.
fn first_fits(
    frame: &RgbaImage,
    e: &Edges,
    profile: &Profile,
    aspect: Option<f32>,
    first: FirstFit,
) -> Result<Vec<Fit>, NotATable> {
    check_picture(e)?;
    let (width, height) = (e.width as i32, e.height as i32);
    if width < 200 || height < 150 {
        return Err(NotATable(format!(
            "the picture is too small ({width}x{height})"
        )));
    }
    match first.fit {
        Some(fits) => fits,
        None => coarse_fit(frame, e, profile, aspect, first.objective, first.centres),
    }
}

/// The first search's fits by `Objective::Corners` (its best first), none when the picture
/// cannot be a table.
fn corner_fits(frame: &RgbaImage, e: &Edges, profile: &Profile, aspect: Option<f32>) -> Vec<Fit> {
    let first = first_fit(frame, profile, aspect, Objective::Corners);
    first_fits(frame, e, profile, aspect, first).unwrap_or_default()
}

/// Other fits by `Objective::Corners` near its best (`fits`, best first, as `corner_fits` gives
/// them), each refined as `locate` refines the best: those of the first search's next best
/// (`NEAR_FITS`) that lie within a fifth of a card of it, at least a pixel and a half away.
/// Borderless cards show few edges of their own, and the best score can lie a few pixels off the
/// cards (anglo+borderless at 1440×900 in the msc look: 5 px right, where no apex corner is
/// found); a read from one of these stands only as `Corners` reads do, with every card read. A
/// fit whole rows or columns off is never among them, so no card can be read at another card's
/// place.
fn locate_near(
    frame: &RgbaImage,
    e: &Edges,
    profile: &Profile,
    aspect: Option<f32>,
    fits: &[Fit],
) -> Vec<Located> {
    let Some((&best, rest)) = fits.split_first() else {
        return Vec::new();
    };
    let apart = |a: Fit, b: Fit| (a.cx - b.cx).abs().max((a.top - b.top).abs());
    let mut near: Vec<Located> = Vec::new();
    for &fit in rest {
        if apart(fit, best) > 0.2 * best.w
            || apart(fit, best) < 1.5
            || (fit.w / best.w - 1.0).abs() > 0.05
        {
            continue;
        }
        let Ok(located) = refine(frame, e, profile, aspect, Objective::Corners, fit) else {
            continue;
        };
        let apex = |l: &Located| (l.slots[0].x, l.slots[0].y);
        let same = |l: &Located| {
            let ((ax, ay), (bx, by)) = (apex(l), apex(&located));
            (ax - bx).abs().max((ay - by).abs()) <= 1
        };
        if !near.iter().any(same) {
            near.push(located);
        }
    }
    near
}

/// The second look at a frame whose first read was refused, fit by fit, each made only when the
/// one before did not read: by the corners of the cards there are (a pyramid with few cards left,
/// borderless cards), the other fits near their best (`locate_near`; both from one first search),
/// then the wide search (`locate_wide`) for the whole table and by the corners. A read from any of
/// them stands only with every card read (`stands` for `Objective::Corners`).
pub fn second_look<'a>(
    frame: &'a RgbaImage,
    e: &'a Edges,
    profile: &'a Profile,
    aspect: Option<f32>,
) -> impl Iterator<Item = Located> + 'a {
    let fits = std::rc::Rc::new(std::cell::OnceCell::new());
    let corners = move || -> Vec<Fit> {
        fits.get_or_init(|| corner_fits(frame, e, profile, aspect))
            .clone()
    };
    let best = std::iter::once_with({
        let corners = corners.clone();
        move || {
            let best = *corners().first()?;
            refine(frame, e, profile, aspect, Objective::Corners, best).ok()
        }
    });
    let near =
        std::iter::once_with(move || locate_near(frame, e, profile, aspect, &corners())).flatten();
    let wide = [Objective::Table, Objective::Corners]
        .into_iter()
        .map(move |objective| locate_wide(frame, e, profile, aspect, objective).ok());
    let table = std::iter::once_with(move || locate_table_from_corners(frame, e, profile, aspect));
    best.flatten()
        .chain(near)
        .chain(wide.flatten())
        .chain(table.flatten())
}

/// The whole table (`Objective::Table`) refined from the best first fit by the corners.
pub fn locate_table_from_corners(
    frame: &RgbaImage,
    e: &Edges,
    profile: &Profile,
    aspect: Option<f32>,
) -> Option<Located> {
    let best = *corner_fits(frame, e, profile, aspect).first()?;
    refine(frame, e, profile, aspect, Objective::Table, best).ok()
}

/// The mean edge contrast along the pyramid's slots (`pyramid_score`) below which a fit by
/// `Objective::Table` is no table.
const TABLE_EDGES: f32 = 12.0;

/// The fit `coarse` refined on the full frame, with its slots and piles.
fn refine(
    frame: &RgbaImage,
    e: &Edges,
    profile: &Profile,
    aspect: Option<f32>,
    objective: Objective,
    coarse: Fit,
) -> Result<Located, NotATable> {
    let (width, height) = (e.width as i32, e.height as i32);
    let k = shrink_factor(width as u32);
    // Refine all three numbers on the full frame by the pyramid's and the piles' edges (those of
    // the pyramid's cards alone for `Corners`).
    let felt_rows = felt_rows_for(frame, objective);
    let judge = Judge::refining(objective, k, &felt_rows);
    // A `Table` fit whose pyramid shows too little of a table's edges (`TABLE_EDGES`) is refused
    // at the end, however its piles fit: the refinement does not move from a fit that shows
    // enough to one that does not (borderless cards, whose pyramid shows edges only at each
    // row's ends, followed the piles of anglo+borderless at 3840x2160 to cards 4% too wide, whose
    // stacked stock fitted better, and the frame was refused).
    let score = |f: Fit| {
        let total = edges_for(&judge, e, f, profile, aspect).0;
        let shows = objective != Objective::Table || pyramid_score(e, f, profile) >= TABLE_EDGES;
        (shows, total)
    };
    let mut fit = coarse;
    let passes: [(i32, f32, i32, i32); 3] = [
        (12, 0.005, k as i32 + 1, (k as i32 / 2).max(1)),
        (5, 0.0015, 2, 1),
        (3, 0.0007, 1, 1),
    ];
    // Each pass scores its candidates around the pass's base (in parallel), then takes them in
    // order: the first that beats the best so far, and so on, as one at a time would.
    let mut best_score = score(fit);
    let mut take_best = |candidates: Vec<Fit>, fit: &mut Fit| {
        let scores: Vec<(bool, f32)> = candidates.par_iter().map(|&f| score(f)).collect();
        for (sc, cand) in scores.into_iter().zip(candidates) {
            if sc > best_score {
                best_score = sc;
                *fit = cand;
            }
        }
    };
    for (steps, rel, reach, stride) in passes {
        let base = fit;
        let mut candidates = Vec::new();
        for kw in -steps..=steps {
            let mut dx = -reach;
            while dx <= reach {
                let mut dy = -reach;
                while dy <= reach {
                    let scale = 1.0 + kw as f32 * rel;
                    candidates.push(Fit {
                        cx: base.cx + dx as f32,
                        top: base.top + dy as f32,
                        w: base.w * scale,
                        u: base.u * scale,
                    });
                    dy += stride;
                }
                dx += stride;
            }
        }
        take_best(candidates, &mut fit);
    }
    // The steps between cards apart from the card size (a theme's cards may not fill their box).
    for _ in 0..2 {
        let base = fit;
        let mut candidates = Vec::new();
        for ku in -12..=12 {
            for dx in -2..=2 {
                for dy in -2..=2 {
                    candidates.push(Fit {
                        cx: base.cx + dx as f32,
                        top: base.top + dy as f32,
                        u: base.u * (1.0 + ku as f32 * 0.001),
                        ..base
                    });
                }
            }
        }
        take_best(candidates, &mut fit);
    }
    if objective == Objective::Corners {
        fit = size_by_piles(e, fit, profile, aspect, &judge);
    }
    let best_score = pyramid_score(e, fit, profile);
    match objective {
        Objective::Table if best_score < TABLE_EDGES => {
            return Err(NotATable(format!(
                "no Pyramid table found in the picture (best fit has edge contrast {best_score:.1})"
            )))
        }
        Objective::Corners => {
            // Whatever is left of the pyramid, its apex card is there.
            let apex = slot_edges(e, fit, profile, Position::new(0, 0), judge.look)
                .into_iter()
                .fold(f32::MAX, f32::min);
            if apex < MIN_APEX_CORNER {
                return Err(NotATable(format!(
                    "no Pyramid table found in the picture (no card at the best fit's apex: \
                     edge contrast {apex:.1})"
                )));
            }
        }
        Objective::Table => {}
    }
    // 4. The pile row, below the bottom pyramid row.
    let w = fit.w;
    let row6 = fit.top + 6.0 * profile.row_step * fit.u;
    let stock_x = fit.cx + profile.stock_dx * fit.u - w / 2.0;
    let waste_x = fit.cx - profile.stock_dx * fit.u - w / 2.0;
    let (_, aspect) = pile_fit(e, fit, profile, aspect);
    let pile_y_for = |a: f32| row6 + a * w + profile.pile_gap * fit.u;
    let card_h = aspect * w;
    let pile_y = pile_y_for(aspect).round() as i32;
    let rect = |x: f32, y: f32| {
        Rect::new(
            x.round() as i32,
            y.round() as i32,
            w.round() as i32,
            card_h.round() as i32,
        )
    };
    let mut slots = [Rect::new(0, 0, 0, 0); PYRAMID_SIZE];
    for p in Position::all() {
        slots[p.index()] = rect(fit.slot_x(p, profile), fit.slot_y(p, profile));
    }
    let located = Located {
        card_w: w,
        card_h,
        slots,
        stock: rect(stock_x, pile_y as f32),
        waste: rect(waste_x, pile_y as f32),
        score: best_score,
    };
    if located.stock.bottom() > height || located.slots[0].y < 0 {
        return Err(NotATable("the table does not fit in the picture".into()));
    }
    Ok(located)
}

/// A fit by `Objective::Corners` with its card width and steps between cards set by the piles'
/// edges as well as the pyramid's corners, within a few per cent: with one card left, or one row,
/// the pyramid gives no steps between cards, and those place the piles (a pile row 2% off lay a
/// tenth of a card off, which reads as cards moving). Only near the fit the pyramid's corners
/// made, where the piles' misleading edges cannot draw it away.
fn size_by_piles(
    e: &Edges,
    fit: Fit,
    profile: &Profile,
    aspect: Option<f32>,
    judge: &Judge,
) -> Fit {
    let mut candidates = Vec::new();
    for kw in -8..=8 {
        for ku in -15..=15 {
            candidates.push(Fit {
                w: fit.w * (1.0 + kw as f32 * 0.0025),
                u: fit.u * (1.0 + ku as f32 * 0.002),
                ..fit
            });
        }
    }
    let score = |f: Fit| {
        let corners = edges_for(judge, e, f, profile, aspect).0;
        corners + pile_fit(e, f, profile, aspect).0
    };
    let scores: Vec<f32> = candidates.par_iter().map(|&f| score(f)).collect();
    let mut best = (score(fit), fit);
    for (sc, cand) in scores.into_iter().zip(candidates) {
        if sc > best.0 {
            best = (sc, cand);
        }
    }
    best.1
}
