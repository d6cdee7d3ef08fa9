//! Calibration: learns the 52 index corners from one deal seen whole — the fresh table (28 pyramid
//! cards and the stock's top card), then the table after each of 24 draws (each stock card on the
//! waste) — labelled from the known deal, and makes a template set of them. Once the cards are
//! known each corner is lined up again with the others of its rank and of its suit; a theme that
//! prints the suit outside the usual index corner gets an index box across the card's top strip.
//! Templates of the parts a covered card still shows (its top strip, the gap between the two
//! cards over it) are cut too.

use crate::cards::{Card, Deck};
use crate::games::pyramid::position::{PYRAMID_SIZE, ROWS};
use crate::games::pyramid::vision::locate::{
    locate, locate_table_from_corners, locate_wide, NotATable, Objective,
};
use crate::games::pyramid::vision::profile::Profile;
use crate::table::rect::Rect;
use crate::vision::card_edges::{
    apart_from_the_others, top_edge_continuity, top_edge_where_it_shows, TOP_EDGE,
};
use crate::vision::edges::Edges;
pub use crate::vision::glyph_box::{seen_whole, SeenWhole};
use crate::vision::groups::Features;
use crate::vision::label_check;
use crate::vision::recognize::{median, sample, snap_corner, snap_pile_corner, window_of};
pub use crate::vision::showing_suits::templates_showing_suits;
use crate::vision::showing_suits::templates_showing_suits_in;
use crate::vision::suit_beside::Region;
use crate::vision::templates::{Manifest, Templates, TEMPLATE_H, TEMPLATE_W};
use image::{RgbImage, RgbaImage};
use std::collections::BTreeMap;

/// How far (in template pixels) crops are shifted to line them up with each other.
pub(crate) const REACH: usize = 4;
/// How far, once the cards are known, a crop is shifted again to line it up with its rank and suit.
const REALIGN: usize = 2;

/// A card's corner as lined up, the crop with margins it came from, where in that it was taken,
/// and whether it holds no index.
type LinedUp<'a> = (Card, Vec<f32>, &'a [f32], (usize, usize), bool);

/// Where the card's edges put the top-left corner of the card whose located box is `rect`.
fn snapped(e: &Edges, rect: Rect, strip: f32, w: f32, pile: bool) -> (f32, f32) {
    let (x, y, _) = if pile {
        snap_pile_corner(e, rect, strip, w)
    } else {
        snap_corner(e, rect, strip, w)
    };
    (x, y)
}

/// The index corner of a card `w` pixels wide whose top-left corner is at `at`, at template size
/// with `REACH` pixels of margin on every side.
fn corner(frame: &RgbaImage, w: f32, (x, y): (f32, f32), profile: &Profile) -> Vec<f32> {
    let [bx, by, bw, bh] = profile.index_box;
    let (px, py) = (bw * w / TEMPLATE_W as f32, bh * w / TEMPLATE_H as f32);
    let r = REACH as f32;
    sample(
        frame,
        x + bx * w - r * px,
        y + by * w - r * py,
        (TEMPLATE_W as usize + 2 * REACH) as f32 * px,
        (TEMPLATE_H as usize + 2 * REACH) as f32 * py,
        TEMPLATE_W as usize + 2 * REACH,
        TEMPLATE_H as usize + 2 * REACH,
    )
    .rgb
}

/// For card corners found `at` on their places `places`: each lying apart from the others
/// (`apart_from_the_others`) is moved to where the others lie, the median of all; how many were
/// moved. Ornamental's scroll under the rank, in the msc look, was taken for the top edge of 3 of
/// its cards, 6 and 7 pixels low, and one of their templates was cut from its pips.
fn with_the_others(at: &mut [(f32, f32)], places: &[Rect], w: f32) -> usize {
    if at.len() < 3 {
        return 0;
    }
    let off: Vec<(f32, f32)> = at
        .iter()
        .zip(places)
        .map(|(&(x, y), p)| (x - p.x as f32, y - p.y as f32))
        .collect();
    let mut xs: Vec<f32> = off.iter().map(|o| o.0).collect();
    let mut ys: Vec<f32> = off.iter().map(|o| o.1).collect();
    let others = (median(&mut xs), median(&mut ys));
    let mut moved = 0;
    for ((a, &o), p) in at.iter_mut().zip(&off).zip(places) {
        if apart_from_the_others(o, others, w) {
            *a = (p.x as f32 + others.0, p.y as f32 + others.1);
            moved += 1;
        }
    }
    moved
}

/// The template-sized window of a margin crop at offset (ox, oy).
fn window(crop: &[f32], ox: usize, oy: usize) -> Vec<f32> {
    let (tw, th) = (TEMPLATE_W as usize, TEMPLATE_H as usize);
    window_of(crop, tw + 2 * REACH, (ox, oy), (tw, th))
}

fn centred(v: &[f32]) -> Vec<f32> {
    let n = v.len() / 3;
    let mut mean = [0.0f32; 3];
    for (i, x) in v.iter().enumerate() {
        mean[i % 3] += x / n as f32;
    }
    let out: Vec<f32> = v.iter().enumerate().map(|(i, x)| x - mean[i % 3]).collect();
    let norm = out.iter().map(|x| x * x).sum::<f32>().sqrt().max(1e-6);
    out.into_iter().map(|x| x / norm).collect()
}

/// Where in the margin crop the window lines up best with `reference`, within `reach` pixels of
/// `around` (across and down), and how well it fits there (correlation).
fn register(
    crop: &[f32],
    reference: &[f32],
    around: (usize, usize),
    reach: usize,
) -> (f32, (usize, usize)) {
    let span = |c: usize| c.saturating_sub(reach)..=(c + reach).min(2 * REACH);
    let mut best = (f32::MIN, around);
    for oy in span(around.1) {
        for ox in span(around.0) {
            let v = centred(&window(crop, ox, oy));
            let s = super::recognize::dot(&v, reference);
            if s > best.0 {
                best = (s, (ox, oy));
            }
        }
    }
    best
}

/// Where each crop lines up best with what the corners share (`reference`), whether it holds no
/// index, and the median fit (or the one given, when given). A corner whose best fit lies at the
/// rim of the shifts tried (it would fit better further off still) and is under `SHARES_NOTHING`
/// of the median fit holds no index (a face card that shows only its picture): moving it would
/// only line up some stroke of the picture with the others' index, so it stays where its card's
/// edges put it, and `corners` leaves it out of what the corners share.
fn line_up_with(
    crops: &[Vec<f32>],
    reference: &[f32],
    median_fit: Option<f32>,
) -> (Vec<Placing>, f32) {
    let reference = centred(reference);
    let found: Vec<(f32, (usize, usize))> = crops
        .iter()
        .map(|crop| register(crop, &reference, (REACH, REACH), REACH))
        .collect();
    let median_fit = median_fit.unwrap_or_else(|| {
        let mut fits: Vec<f32> = found.iter().map(|f| f.0).collect();
        super::recognize::median(&mut fits)
    });
    let at = found
        .into_iter()
        .map(|(fit, at)| {
            let at_the_rim = [at.0, at.1].iter().any(|&c| c == 0 || c == 2 * REACH);
            if at_the_rim && fit < SHARES_NOTHING * median_fit {
                ((REACH, REACH), true)
            } else {
                (at, false)
            }
        })
        .collect();
    (at, median_fit)
}

/// Where a crop is taken in its margins, and whether it holds no index (see `line_up_with`).
type Placing = ((usize, usize), bool);

/// See `line_up_with`. The corners of a theme with an index fit what they share at 0.5 to 0.9; a
/// face card's picture with no index, at 0.4 down to below 0.
const SHARES_NOTHING: f32 = 0.5;

/// Takes each corner that holds no index (`none`) where the others cut from the same place (the
/// pyramid's slots, or one pile) were lined up: the median of their offsets. Their edges put them
/// alike, and a pile's top edge over felt can be found a pixel or two from where a covered card's
/// over paper is (the outline's inner side, not its outer), which lining up takes out of the
/// corners with an index but not of those without.
fn as_their_pile(offsets: &mut [(usize, usize)], none: &[bool]) {
    let (mut xs, mut ys): (Vec<f32>, Vec<f32>) = offsets
        .iter()
        .zip(none)
        .filter(|(_, &n)| !n)
        .map(|(&(x, y), _)| (x as f32, y as f32))
        .unzip();
    if xs.is_empty() {
        return;
    }
    let at = (
        median(&mut xs).round() as usize,
        median(&mut ys).round() as usize,
    );
    for (o, _) in offsets.iter_mut().zip(none).filter(|(_, &n)| n) {
        *o = at;
    }
}

/// The 52 index corners of one deal seen whole, lined up with each other, in the order they were
/// seen: the 28 pyramid cards top row first, then the 24 stock cards from the top of the stock.
#[derive(Clone, Debug)]
pub struct Corners {
    /// Template-sized RGB values, row by row, one per card.
    pub crops: Vec<Vec<f32>>,
    /// The same corners as cut, with `REACH` pixels of margin on every side, and where in them
    /// `crops` were taken (for lining them up again once their cards are known).
    pub margins: Vec<Vec<f32>>,
    pub offsets: Vec<(usize, usize)>,
    /// Where the stock cards in `crops` were cut from.
    pub stock_seen: StockSeen,
    /// The waste's top card after each click on the stock: the stock card clicked, when the click
    /// drew it (not a king it removed).
    pub waste: Vec<Vec<f32>>,
    /// `waste` as cut, with margins, and where `waste` was taken in them.
    pub waste_margins: Vec<Vec<f32>>,
    pub waste_offsets: Vec<(usize, usize)>,
    /// Whether each crop of `crops`, and of `waste`, holds no index (see `line_up_with`).
    pub no_index: Vec<bool>,
    pub waste_no_index: Vec<bool>,
    /// Where each crop of `crops`, and of `waste`, was cut: the frame, and the card's top-left
    /// corner there as its edges put it.
    pub cut_at: Vec<(usize, (f32, f32))>,
    pub waste_cut_at: Vec<(usize, (f32, f32))>,
    /// How far that corner lay from the place's (the slot's or the pile's, as located), in pixels
    /// across and down, for each crop of `crops` and of `waste`.
    pub off_place: Vec<(f32, f32)>,
    pub waste_off_place: Vec<(f32, f32)>,
    /// Height over width of the cards.
    pub aspect: f32,
    /// Card width in pixels in the frames.
    pub card_w: f32,
    /// How the table was found in each frame.
    pub search: Search,
    /// Whether the cards' faces have no border, so that one runs into the next (see
    /// `cards_show_edges`), and the pyramid's corners were cut at their slots.
    pub borderless: bool,
}

impl Corners {
    /// The waste's crop to take for card `card`, the `i`-th seen, instead of `crops[i]`: a stock
    /// card seen on the stock was also drawn onto the waste, unless it is a king (the click
    /// removed it), and the waste shows it as the pyramid's cards are shown, not over backs.
    pub(crate) fn on_waste(&self, i: usize, card: Card) -> Option<usize> {
        let k = i.checked_sub(28)?;
        (self.stock_seen == StockSeen::OnStock && !card.is_king() && k < self.waste.len())
            .then_some(k)
    }
}

/// Where the 24 stock cards' corners are cut from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StockSeen {
    /// The waste's top card after each draw (frames 01 … 24).
    OnWaste,
    /// The stock's top card before each click on the stock (frames 00 … 23). A click on a king
    /// there removes it instead of drawing it, so this is how to see a deal whose cards are not
    /// known yet.
    OnStock,
}

/// Cuts out and lines up the 52 index corners from `frames`: the fresh table, then the table after
/// each of 24 draws (or clicks on the stock), each pyramid card's where its edges put it.
pub fn corners(
    frames: &[RgbaImage],
    profile: &Profile,
    stock: StockSeen,
) -> Result<Corners, String> {
    corners_of(frames, profile, stock, false, Search::Usual)
}

/// `corners`, the table found by the first search (in the order calibration tries them) whose
/// corners show a rank glyph: where the usual search finds the table off where it lies, the
/// corners a label check is asked about are those calibration goes on to.
pub fn corners_showing_glyphs(
    frames: &[RgbaImage],
    profile: &Profile,
    stock: StockSeen,
) -> Result<Corners, String> {
    let mut refused = None;
    for search in Search::ALL {
        match corners_of(frames, profile, stock, false, search) {
            Ok(cut) if Features::of(&cut).glyph_found => return Ok(cut),
            Ok(_) => refused = Some(label_check::NO_GLYPH.to_string()),
            Err(why) => refused = refused.or(Some(why)),
        }
    }
    Err(refused.expect("a search refused"))
}

/// As `corners`; `borderless` cards' pyramid corners are cut at their slots as located, since
/// their edges show at most over a few columns (see `cards_show_edges`), too few to snap to: a
/// line in the ink of a card behind would be taken for one. The table is found as `search` says.
pub(crate) fn corners_of(
    frames: &[RgbaImage],
    profile: &Profile,
    stock: StockSeen,
    borderless: bool,
    search: Search,
) -> Result<Corners, String> {
    let locate = |frame: &RgbaImage, e: &Edges, aspect: Option<f32>| match search {
        Search::Usual => locate(frame, e, profile, aspect),
        Search::Wide => locate_wide(frame, e, profile, aspect, Objective::Table),
        Search::Corners => locate_table_from_corners(frame, e, profile, aspect)
            .ok_or_else(|| NotATable("no pyramid found".into())),
    };
    if frames.len() != 25 {
        return Err(format!(
            "calibration needs 25 frames (the fresh table and one after each of 24 draws), got {}",
            frames.len()
        ));
    }
    let first_edges = Edges::new(&frames[0]);
    let located = locate(&frames[0], &first_edges, None).map_err(|e| format!("frame 00: {e}"))?;
    let aspect = located.card_h / located.card_w;
    let strip = profile.row_step * located.card_w;
    let mut crops: Vec<Vec<f32>> = Vec::new();
    let mut cut_at = Vec::new();
    let mut off_place = Vec::new();
    let off = |(x, y): (f32, f32), place: crate::table::rect::Rect| {
        (x - place.x as f32, y - place.y as f32)
    };
    let mut pyramid_at: Vec<(f32, f32)> = located
        .slots
        .iter()
        .map(|&slot| match borderless {
            true => (slot.x as f32, slot.y as f32),
            false => snapped(&first_edges, slot, strip, located.card_w, false),
        })
        .collect();
    with_the_others(&mut pyramid_at, &located.slots, located.card_w);
    for (&at, &slot) in pyramid_at.iter().zip(&located.slots) {
        crops.push(corner(&frames[0], located.card_w, at, profile));
        cut_at.push((0, at));
        off_place.push(off(at, slot));
    }
    // Where each pile's top card lies, frame by frame: the frame, the pile's place and the corner.
    let (mut stock_seen, mut waste_seen) = (Vec::new(), Vec::new());
    for (k, frame) in frames.iter().enumerate() {
        if frame.dimensions() != frames[0].dimensions() {
            return Err(format!("frame {k:02} is {}x{}, frame 00 is {}x{}: all frames must come from one window size", frame.width(), frame.height(), frames[0].width(), frames[0].height()));
        }
        let e = Edges::new(frame);
        let found =
            locate(frame, &e, Some(aspect)).map_err(|err| format!("frame {k:02}: {err}"))?;
        // The table does not move between the frames: a fit whose piles lie apart from where
        // frame 00's do was found off where the table lies (a centre a few pixels off that lines
        // inside the cards scored better), and frame 00's is taken instead.
        let pile_off = |a: Rect, b: Rect| ((a.x - b.x) as f32, (a.y - b.y) as f32);
        let agrees = [(found.stock, located.stock), (found.waste, located.waste)]
            .iter()
            .all(|&(a, b)| !apart_from_the_others(pile_off(a, b), (0.0, 0.0), located.card_w));
        let here = if agrees { &found } else { &located };
        let depth = 0.9 * here.card_h;
        // Before the k+1-th click the stock's top card is stock card k+1; after k draws the
        // waste's top card is stock card k.
        if k < 24 && stock == StockSeen::OnStock {
            let at = snapped(&e, here.stock, depth, here.card_w, true);
            stock_seen.push((k, here.stock, here.card_w, at));
        }
        if k > 0 {
            let at = snapped(&e, here.waste, depth, here.card_w, true);
            waste_seen.push((k, here.waste, here.card_w, at));
        }
    }
    // Each pile's corners cut where they lie with the pile's others.
    let cut_pile = |seen: &[(usize, Rect, f32, (f32, f32))]| {
        let places: Vec<Rect> = seen.iter().map(|s| s.1).collect();
        let mut at: Vec<(f32, f32)> = seen.iter().map(|s| s.3).collect();
        with_the_others(&mut at, &places, located.card_w);
        let (mut tops, mut cut, mut offs) = (Vec::new(), Vec::new(), Vec::new());
        for (&(k, place, w, _), &a) in seen.iter().zip(&at) {
            tops.push(corner(&frames[k], w, a, profile));
            cut.push((k, a));
            offs.push(off(a, place));
        }
        (tops, cut, offs)
    };
    let (stock_tops, stock_at, stock_off) = cut_pile(&stock_seen);
    let (waste_tops, waste_at, waste_off) = cut_pile(&waste_seen);
    crops.extend(match stock {
        StockSeen::OnStock => stock_tops,
        StockSeen::OnWaste => waste_tops.clone(),
    });
    cut_at.extend(match stock {
        StockSeen::OnStock => stock_at,
        StockSeen::OnWaste => waste_at.clone(),
    });
    off_place.extend(match stock {
        StockSeen::OnStock => stock_off,
        StockSeen::OnWaste => waste_off.clone(),
    });
    // Line every crop up with what the pyramid's corners share, twice (the second time against
    // the mean of the lined-up crops).
    let mut reference = vec![0.0f32; (TEMPLATE_W * TEMPLATE_H * 3) as usize];
    for crop in crops.iter().take(28) {
        for (r, v) in reference
            .iter_mut()
            .zip(centred(&window(crop, REACH, REACH)))
        {
            *r += v;
        }
    }
    // The waste's corners (stock cards seen again) are judged by the fit of all 52.
    let mut median_fit = 0.0;
    let mut line_up = |crops: &[Vec<f32>], reference: &[f32], all: bool| {
        let (found, median) = line_up_with(crops, reference, (!all).then_some(median_fit));
        median_fit = median;
        found.into_iter().unzip::<_, _, Vec<_>, Vec<_>>()
    };
    let windows = |crops: &[Vec<f32>], offsets: &[(usize, usize)]| -> Vec<Vec<f32>> {
        crops
            .iter()
            .zip(offsets)
            .map(|(crop, &(ox, oy))| window(crop, ox, oy))
            .collect()
    };
    // Borderless corners share no edge to line up by, only glyphs of other widths (a "10" lines
    // up with a "7" off by a stroke): each is kept where it was cut, at its place.
    let at_the_cut =
        |crops: &[Vec<f32>]| (vec![(REACH, REACH); crops.len()], vec![false; crops.len()]);
    let (mut aligned, mut offsets, mut no_index) = (Vec::new(), Vec::new(), Vec::new());
    if borderless {
        (offsets, no_index) = at_the_cut(&crops);
        aligned = windows(&crops, &offsets);
    } else {
        for _ in 0..2 {
            (offsets, no_index) = line_up(&crops, &reference, true);
            aligned = windows(&crops, &offsets);
            reference = vec![0.0; reference.len()];
            for (v, _) in aligned.iter().zip(&no_index).filter(|(_, &none)| !none) {
                for (r, x) in reference.iter_mut().zip(centred(v)) {
                    *r += x;
                }
            }
        }
    }
    if !borderless {
        let (pyramid, pile) = offsets.split_at_mut(PYRAMID_SIZE);
        let (pyramid_none, pile_none) = no_index.split_at(PYRAMID_SIZE);
        as_their_pile(pyramid, pyramid_none);
        as_their_pile(pile, pile_none);
        aligned = windows(&crops, &offsets);
    }
    let (waste_offsets, waste_no_index) = match borderless {
        true => at_the_cut(&waste_tops),
        false => {
            let (mut at, none) = line_up(&waste_tops, &reference, false);
            as_their_pile(&mut at, &none);
            (at, none)
        }
    };
    Ok(Corners {
        crops: aligned,
        margins: crops,
        offsets,
        stock_seen: stock,
        waste: windows(&waste_tops, &waste_offsets),
        waste_margins: waste_tops,
        waste_offsets,
        no_index,
        waste_no_index,
        cut_at,
        waste_cut_at: waste_at,
        off_place,
        waste_off_place: waste_off,
        aspect,
        card_w: located.card_w,
        borderless,
        search,
    })
}

/// `corners`, cut with `profile`'s index box ended above what covered cards show there of the
/// cards over them (`covering_rows`), and the profile as used. A thick outline on the card over a
/// covered card can reach into the bottom of the box: templates cut from covered cards would show
/// it and those cut whole would not, and a covered card would fit a covered card's template best
/// for that alone (swiss-xvii's covered 2d read as 2h, whose template came from a covered card).
pub fn cut_corners(
    frames: &[RgbaImage],
    profile: &Profile,
    stock: StockSeen,
) -> Result<(Corners, Profile), String> {
    cut_corners_of(frames, profile, stock, Search::Usual)
}

/// `cut_corners`, the table found as `search` says.
fn cut_corners_of(
    frames: &[RgbaImage],
    profile: &Profile,
    stock: StockSeen,
    search: Search,
) -> Result<(Corners, Profile), String> {
    let mut cut = corners_of(frames, profile, stock, false, search)?;
    if cards_show_edges(&frames[0], &cut)? {
        cut = corners_of(frames, profile, stock, true, search)?;
    }
    let rows = covering_rows(&cut);
    if rows == 0 {
        return Ok((cut, profile.clone()));
    }
    // One row more, for the corners lined up a pixel or so lower.
    let mut trimmed = profile.clone();
    let th = TEMPLATE_H as f32;
    trimmed.index_box[3] *= (th - rows as f32 - 1.0) / th;
    Ok((
        corners_of(frames, &trimmed, stock, cut.borderless, search)?,
        trimmed,
    ))
}

/// Whether the cards are borderless, or refuses art whose cards show no edge where they can. The
/// reader finds a pyramid card by its top edge (an empty slot shows the cards behind it). Of the
/// 28 pyramid cards of the calibration frame, every one shows its top edge on each installed
/// theme, in both looks; faces without a border (the built-in and anglo cards with their outline
/// painted over, KDE's nicu-white) show it on 2 to 13, where it lies over felt or ink only, and
/// their face runs into the face of the card behind everywhere else. Art whose outline is so
/// faint that it vanishes on some cards at some sizes (KDE's jolly-royal: a line 9 levels darker
/// than the white at 1440x900 on some cards, none at all on others) shows it on 14 to 21: the
/// reader would refuse those cards wherever they lie on a white face. So art on which more than
/// one card misses its edge is borderless: its cards' edges are looked for only where they can
/// show (`top_edge_where_it_shows`), and must show on at least half the cards where they can.
fn cards_show_edges(frame: &RgbaImage, cut: &Corners) -> Result<bool, String> {
    let pyramid = &cut.cut_at[..PYRAMID_SIZE];
    let edged = pyramid
        .iter()
        .filter(|(_, (x, y))| {
            top_edge_continuity(frame, *x as i32, *y as i32, cut.card_w) >= TOP_EDGE
        })
        .count();
    if edged + 1 >= PYRAMID_SIZE {
        return Ok(false);
    }
    let shows: Vec<f32> = pyramid
        .iter()
        .filter_map(|(_, (x, y))| top_edge_where_it_shows(frame, *x as i32, *y as i32, cut.card_w))
        .collect();
    let edged = shows.iter().filter(|&&e| e >= TOP_EDGE).count();
    if !shows.is_empty() && 2 * edged >= shows.len() {
        return Ok(true);
    }
    Err(format!(
        "these cards show no edge where one lies over another: {edged} of the {} pyramid cards \
whose top edge lies over felt or ink show it. The reader finds cards by their edges, so this art \
cannot be read; nothing was saved",
        shows.len()
    ))
}

/// How many rows at the bottom of the index box show the cards over a covered card: where the
/// covered pyramid cards' corners (rows 1 to 6) are darker on average than the corners of the
/// cards seen whole (the bottom row, the stock's) by more than any row of the box above differs
/// between the two. Cards differ at random; an outline over every covered card does not.
fn covering_rows(cut: &Corners) -> usize {
    let (tw, th) = (TEMPLATE_W as usize, TEMPLATE_H as usize);
    let luma =
        |v: &[f32], y: usize| v[y * tw * 3..(y + 1) * tw * 3].iter().sum::<f32>() / (3 * tw) as f32;
    let mean =
        |set: &[Vec<f32>], y: usize| set.iter().map(|v| luma(v, y)).sum::<f32>() / set.len() as f32;
    let covered = PYRAMID_SIZE - ROWS;
    let (under, whole) = cut.crops.split_at(covered);
    let darker: Vec<f32> = (0..th).map(|y| mean(whole, y) - mean(under, y)).collect();
    let (above, bottom) = darker.split_at(th - COVERING_ROWS);
    let apart = above.iter().fold(0.0f32, |m, d| m.max(d.abs()));
    bottom.iter().rev().take_while(|&&d| d > apart).count()
}

/// The most rows at the bottom of the index box that `covering_rows` may find.
const COVERING_ROWS: usize = 5;

/// Builds a template set from `frames` (the fresh table, then after each draw) of the deal `deck`.
/// Refused, naming the cards, when the deck's labels disagree with the pictures (another deal, two
/// cards exchanged: see `label_check`).
///
/// A calibration refused with the table found by the usual search is tried again with the others
/// (`Search`), in turn, and kept if every check passes. A refusal reports the reason of the search
/// that got furthest through the checks (the earliest of those that got as far).
pub fn calibrate(
    frames: &[RgbaImage],
    deck: &Deck,
    profile: &Profile,
    name: &str,
) -> Result<Templates, String> {
    let mut refused: Option<(Refused, String)> = None;
    // The corners of the searches whose labels were taken, cut once.
    let mut took_labels = Vec::new();
    for search in Search::ALL {
        let made = cut_and_checked(frames, deck, profile, search).and_then(|(cut, profile)| {
            let made =
                templates_showing_suits_in(frames, &cut, deck.cards(), &profile, name, Region::All);
            made.map_err(|not| {
                took_labels.push((cut, profile));
                match not.not_read {
                    true => (Refused::NotReadBack, not.why),
                    false => (Refused::Templates, not.why),
                }
            })
        });
        match made {
            Ok(templates) => return Ok(templates),
            Err(why) => {
                if refused.as_ref().is_none_or(|r| why.0 > r.0) {
                    refused = Some(why);
                }
            }
        }
    }
    // Last, where the labels were taken: a suit beside the rank found as the part joined to
    // where the suits differ most (see `suit_beside_box`), which would take a suit-sized part of
    // corners cut on a table found off where it lies if it came first.
    for (cut, profile) in took_labels {
        if let Ok(templates) =
            templates_showing_suits_in(frames, &cut, deck.cards(), &profile, name, Region::Joined)
        {
            return Ok(templates);
        }
    }
    Err(refused.expect("every search refused").1)
}

/// How calibration finds the table in its frames. Borderless cards show their sides only at
/// each row's ends, and lines inside them can outscore those a few pixels off, which cuts every
/// corner off its card: then the wide search (`locate_wide`) keeps more centres for each row
/// spacing, and the corners' start (`locate_table_from_corners`) begins from the fit that weighs
/// each card by the weakest of its top and sides, where a glyph's side cannot stand in for a
/// card's (builtin+borderless in the msc look at 1440×900: the index glyphs' sides put the table
/// 24 px right by the other two).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Search {
    /// `locate`.
    Usual,
    /// `locate_wide`.
    Wide,
    /// `locate_table_from_corners`.
    Corners,
}

impl Search {
    /// In the order calibration tries them.
    const ALL: [Search; 3] = [Search::Usual, Search::Wide, Search::Corners];
}

/// How far a calibration got before it was refused: its corners could not be cut, they were
/// unlike their labels, they showed the suit where the rank should be (art, not labels, at
/// fault), the templates made of them did not read their frames back as a table at all, or they
/// were refused for what they read or what the corners show. (A search that found the table off
/// where it lies can cut corners that pass their labels and read back nothing: kde-nicu-white's
/// borderless cards in the msc look, found 20 px right of where they lie by the usual search.
/// Where a search that found them where they lie is refused too, its reason says more of the
/// art. Likewise KDE's oxygen in the msc look at 1440×900: the usual and wide searches' covered
/// corners show too little of the pip for the suit to stand out from their labels, the corners'
/// search shows it, and its reason, not "the deck does not match", is the one a user needs.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Refused {
    Cutting,
    Labels,
    SuitWhereRankIs,
    NotReadBack,
    Templates,
}

/// The corners of `frames` cut with the table found as `search` says, and the profile they were
/// cut with, once their labels (`deck`) are checked against the pictures; refused with how far it
/// got.
fn cut_and_checked(
    frames: &[RgbaImage],
    deck: &Deck,
    profile: &Profile,
    search: Search,
) -> Result<(Corners, Profile), (Refused, String)> {
    let (cut, profile) = cut_corners_of(frames, profile, StockSeen::OnWaste, search)
        .map_err(|why| (Refused::Cutting, why))?;
    let (found, art) =
        label_check::check(&cut, deck.cards()).map_err(|why| (Refused::Cutting, why))?;
    if let Some(why) = art {
        return Err((Refused::SuitWhereRankIs, why));
    }
    if !found.is_empty() && cut.borderless {
        // Cut where the layout puts them, not by their edges: the labels may be right and the
        // table found off where it lies.
        return Err((
            Refused::Labels,
            format!(
                "these cards have no border (one card's face runs into the next), so their \
corners were cut where the table's layout puts them, and some do not match their labels: the \
table may have been found off where it lies, or the labels are wrong. {}",
                label_check::refusal(&found)
            ),
        ));
    }
    if !found.is_empty() {
        return Err((Refused::Labels, label_check::refusal(&found)));
    }
    Ok((cut, profile))
}

/// How far from where a corner was lined up with all of them it is lined up again by its rank and
/// suit: `REALIGN`, or, for a number card whose corner lies at the rim of its margin (it fitted
/// them all best as far off as the margin reaches), anywhere in the margin. neoclassical's Td
/// calibrated at 3840×2160 in the msc look lay at the rim, its "10" 5 template pixels right of
/// the other tens', out of reading's reach on smaller cards: read back on cards two thirds as
/// wide as the Th. A court card's corner holds its picture beside the letter, which fits its
/// rank's other pictures as well a few pixels off: guyenne-classic's Kd calibrated at 800×600,
/// lined up again over its margin, then won over its Qd at 1024×768.
fn realign_reach(card: Card, (ox, oy): (usize, usize)) -> usize {
    let rim = |o: usize| o == 0 || o == 2 * REACH;
    match card.rank.value() <= 10 && (rim(ox) || rim(oy)) {
        true => 2 * REACH,
        false => REALIGN,
    }
}

/// An index box as tall as `index_box`, across the card's whole width (a small margin each side).
pub fn wide_index_box(index_box: [f32; 4]) -> [f32; 4] {
    let [_, by, _, bh] = index_box;
    [0.03, by, 0.94, bh]
}

/// Lines each corner up again, now that the cards are known, with what the other cards of its rank
/// and of its suit share: the rank's glyph and the suit's. (What all corners share can pull a card
/// that looks unlike most, a face card's picture say, a few pixels off.) Within `REALIGN` pixels of
/// where the corner was lined up with all of them: a glyph like "10" would fit its neighbour's
/// "1" with its own "0" further off. Twice, the second time against the corners as lined up the
/// first time. Returns where each corner was taken in its margins in the end.
///
/// A number card's corner lined up at the rim of its margin ran out of room, and the glyph like
/// "10" that fitted its "0" to the others' glyph lies there: it is lined up over its whole
/// margin (`realign_reach`), against its own rank's and suit's.
fn line_up_by_rank_and_suit(lined_up: &mut [LinedUp]) -> Vec<(usize, usize)> {
    let mut taken: Vec<(usize, usize)> = lined_up.iter().map(|(.., offset, _)| *offset).collect();
    for _ in 0..2 {
        let centred_all: Vec<Vec<f32>> = lined_up.iter().map(|(_, v, ..)| centred(v)).collect();
        let realigned: Vec<(Vec<f32>, (usize, usize))> = lined_up
            .iter()
            .enumerate()
            .map(|(i, (card, values, margin, offset, no_index))| {
                if *no_index {
                    return (values.clone(), *offset);
                }
                let mean_of = |alike: &dyn Fn(Card) -> bool| {
                    let mut sum = vec![0.0f32; values.len()];
                    let mut n = 0;
                    for (j, (other, .., none)) in lined_up.iter().enumerate() {
                        if j != i && !none && alike(*other) {
                            n += 1;
                            for (s, v) in sum.iter_mut().zip(&centred_all[j]) {
                                *s += v;
                            }
                        }
                    }
                    (n > 0).then(|| centred(&sum))
                };
                let (rank, suit) = (
                    mean_of(&|c: Card| c.rank == card.rank),
                    mean_of(&|c: Card| c.suit == card.suit),
                );
                match (rank, suit) {
                    (Some(r), Some(s)) => {
                        let both: Vec<f32> = r.iter().zip(&s).map(|(a, b)| a + b).collect();
                        let reach = realign_reach(*card, *offset);
                        let (_, (ox, oy)) = register(margin, &centred(&both), *offset, reach);
                        (window(margin, ox, oy), (ox, oy))
                    }
                    _ => (values.clone(), *offset),
                }
            })
            .collect();
        for (((_, values, ..), at), (new, moved)) in
            lined_up.iter_mut().zip(&mut taken).zip(realigned)
        {
            (*values, *at) = (new, moved);
        }
    }
    taken
}

/// Makes a template set from the corners and the card each one is (`cards[i]` for `crops[i]`).
pub fn templates_from(
    corners: &Corners,
    cards: &[Card],
    profile: &Profile,
    name: &str,
) -> Result<Templates, String> {
    // Each card's corner, aligned and with margins, and how far it was cut off its place.
    let mut lined_up: Vec<LinedUp> = Vec::with_capacity(cards.len());
    let mut off_place = Vec::with_capacity(cards.len());
    // The cards cut from covered pyramid cards: the first places, all rows but the last.
    let mut covered = Vec::new();
    for (i, (card, crop)) in cards.iter().zip(&corners.crops).enumerate() {
        if i < PYRAMID_SIZE - ROWS {
            covered.push(card.to_string());
        }
        let (values, margin, offset, off, no_index) = match corners.on_waste(i, *card) {
            Some(k) => (
                &corners.waste[k],
                &corners.waste_margins[k],
                corners.waste_offsets[k],
                corners.waste_off_place[k],
                corners.waste_no_index[k],
            ),
            None => (
                crop,
                &corners.margins[i],
                corners.offsets[i],
                corners.off_place[i],
                corners.no_index[i],
            ),
        };
        lined_up.push((*card, values.clone(), margin.as_slice(), offset, no_index));
        off_place.push(off);
    }
    let taken = line_up_by_rank_and_suit(&mut lined_up);
    // Where each template was taken, from the index box at its place's corner, in template
    // pixels: where its card's edges put the corner (a line inside the card can have been taken
    // for an edge, ornamental's Ac's rank stroke), then as lined up.
    let [_, _, bw, bh] = profile.index_box;
    let pixel = (
        bw * corners.card_w / TEMPLATE_W as f32,
        bh * corners.card_w / TEMPLATE_H as f32,
    );
    let placed = lined_up
        .iter()
        .zip(&taken)
        .zip(&off_place)
        .map(|(((card, ..), (ox, oy)), (dx, dy))| {
            let from = |o: usize, d: f32, pixel: f32| o as f32 - REACH as f32 + d / pixel;
            let round = |v: f32| (v * 100.0).round() / 100.0;
            let at = [
                round(from(*ox, *dx, pixel.0)),
                round(from(*oy, *dy, pixel.1)),
            ];
            (card.to_string(), at)
        })
        .collect();
    let no_index: Vec<String> = lined_up
        .iter()
        .filter(|(.., none)| *none)
        .map(|(card, ..)| card.to_string())
        .collect();
    let mut sums: Vec<(Vec<f32>, u32)> =
        vec![(vec![0.0; (TEMPLATE_W * TEMPLATE_H * 3) as usize], 0); 52];
    for (card, values, ..) in &lined_up {
        let (acc, n) = &mut sums[card.index()];
        for (a, v) in acc.iter_mut().zip(values) {
            *a += v;
        }
        *n += 1;
    }
    let mut images = Vec::with_capacity(52);
    let mut files = BTreeMap::new();
    for card in Card::all() {
        let (acc, n) = &sums[card.index()];
        if *n == 0 {
            return Err(format!("card {card} was never seen in the frames"));
        }
        let raw: Vec<u8> = acc
            .iter()
            .map(|v| (v / *n as f32).round().clamp(0.0, 255.0) as u8)
            .collect();
        images.push(RgbImage::from_raw(TEMPLATE_W, TEMPLATE_H, raw).expect("template size"));
        files.insert(card.to_string(), format!("{card}.png"));
    }
    Ok(Templates {
        manifest: Manifest {
            name: name.to_string(),
            format: 1,
            size: [TEMPLATE_W, TEMPLATE_H],
            profile: profile.name.clone(),
            aspect: corners.aspect,
            card_width: corners.card_w,
            index_box: profile.index_box,
            cards: files,
            suits: None,
            suit_box: None,
            strip: None,
            gap: None,
            placed: Some(placed),
            no_index: (!no_index.is_empty()).then_some(no_index),
            covered: Some(covered),
            borderless: corners.borderless,
            suit_beside: false,
            made: None,
        },
        images,
        suit_images: None,
        strip_images: None,
        gap_images: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A corner snapped to a line inside its card, well below where the others lie on their
    /// places, is moved to where they lie; those a pixel or two off stay where their edges put
    /// them.
    #[test]
    fn a_corner_apart_from_the_others_is_cut_where_they_lie() {
        let places: Vec<Rect> = (0..5).map(|i| Rect::new(100 * i, 50, 139, 190)).collect();
        let mut at = vec![
            (-1.0, -1.0),
            (0.0, -1.0),
            (-1.0, 7.0),
            (1.0, 0.0),
            (-1.0, -1.0),
        ];
        for (a, p) in at.iter_mut().zip(&places) {
            *a = (p.x as f32 + a.0, p.y as f32 + a.1);
        }
        let before = at.clone();
        assert_eq!(with_the_others(&mut at, &places, 139.0), 1);
        assert_eq!(at[2], (places[2].x as f32 - 1.0, places[2].y as f32 - 1.0));
        for i in [0, 1, 3, 4] {
            assert_eq!(at[i], before[i], "corner {i} moved");
        }
    }

    /// A pile's corners lined up a few template pixels above where they were cut: the one that
    /// holds no index is taken where the others of its pile were, not left where it was cut.
    #[test]
    fn a_corner_with_no_index_is_taken_where_its_pile_was_lined_up() {
        let mut offsets = vec![(3, 0), (4, 0), (REACH, REACH), (3, 1), (3, 0)];
        let none = [false, false, true, false, false];
        as_their_pile(&mut offsets, &none);
        assert_eq!(offsets, [(3, 0), (4, 0), (3, 0), (3, 1), (3, 0)]);
        // A pile with no index anywhere is left as cut.
        let mut offsets = vec![(REACH, REACH); 3];
        as_their_pile(&mut offsets, &[true; 3]);
        assert_eq!(offsets, [(REACH, REACH); 3]);
    }
}
