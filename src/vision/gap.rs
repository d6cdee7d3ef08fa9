//! The gap templates (see `PartManifest`): what a covered pyramid card shows between the two cards
//! over it, the middle of its face. The layout says where the gap lies; the calibration frames say
//! how far into it the cards over it reach with their edges, outlines and shadows. Those show on
//! every covered card and on none seen whole (in the bottom row, on the stock or the waste), so
//! a template cut from a card seen whole would differ there from the same card read covered: the
//! box keeps clear of them.

use crate::cards::Card;
use crate::games::pyramid::position::PYRAMID_SIZE;
use crate::games::pyramid::vision::profile::Profile;
use crate::vision::calibrate::{Corners, REACH};
use crate::vision::recognize::{sample, SPREAD};
use crate::vision::templates::{TEMPLATE_H, TEMPLATE_W};
use image::{RgbImage, RgbaImage};

/// The covered pyramid places (every row but the last), and of them those with a card under the
/// two over them (every row but the last two), whose gap ends where that card starts.
const COVERED: usize = PYRAMID_SIZE - 7;
const WITH_ONE_BELOW: usize = COVERED - 6;

/// How far the gap templates keep from what the cards over the gap show in it (as the frames
/// show it), in card widths: the corner a covered card is read at may lie a pixel off the one its
/// template was cut at, and an outline one pixel wide at calibration is wider at smaller sizes.
const GAP_MARGIN: f32 = 0.015;

/// The narrowest gap worth templates, in card widths (3 pixels on cards 75 pixels wide).
const MIN_GAP: f32 = 0.04;

/// Samples a strip is cut into to see how far the cards over the gap reach into it: across, per
/// pixel of card at calibration; down, in all.
const SAMPLES_PER_PIXEL: f32 = 2.0;
const ROW_SAMPLES: usize = 24;

/// How many times the difference between the means of the covered cards and of the cards seen
/// whole, in a column or a row of the gap, must exceed what chance gives it (how much the whole
/// cards differ among themselves there, over the two sets' sizes) for it to count as showing the
/// cards over the gap: faces differ from card to card, an edge over them lies on every covered
/// card alike.
const APART: f32 = 1.5;

/// Least difference (RGB levels, root mean square) that counts, however alike the whole cards are
/// there (the faint noise of plain paper).
const NOISE: f32 = 4.0;

/// The box of the gap templates (in card widths, like the index box): the layout's gap between
/// the two cards over a covered card, down to where the card below them starts, less what the
/// frames show of the cards around it (see `reach_in`) and `GAP_MARGIN`. None when the cards of a
/// row lie too close side by side for a gap worth templates.
pub fn gap_box(
    frames: &[RgbaImage],
    cut: &Corners,
    cards: &[Card],
    profile: &Profile,
) -> Option<[f32; 4]> {
    let (across, down) = (profile.column_step - 1.0, profile.row_step);
    if across - 2.0 * GAP_MARGIN < MIN_GAP {
        return None;
    }
    let layout = [0.5 - across / 2.0, down, across, down];
    let [left, right, bottom] = reach_in(frames, cut, cards, profile, layout);
    let x0 = layout[0] + left * across + GAP_MARGIN;
    let x1 = layout[0] + (1.0 - right) * across - GAP_MARGIN;
    let y0 = down + GAP_MARGIN;
    // The part is looked at in views up to `SPREAD` template pixels below the box too: those
    // must keep clear of the card below as well. (A box ending `GAP_MARGIN` above it, 1 px at
    // 800x600, let a view 3 template pixels down take in that card's top edge: ornamental's
    // covered Qc on blue felt fitted the Qs's gap there, where the card below was not
    // highlighted, and was read as it.)
    let clear = 2.0 * down - bottom * down - GAP_MARGIN;
    let y1 = y0 + (clear - y0) / (1.0 + SPREAD as f32 / TEMPLATE_H as f32);
    (x1 - x0 >= MIN_GAP && y1 > y0).then_some([x0, y0, x1 - x0, y1 - y0])
}

/// How far into `layout` (a box in card widths) the cards around the gap show on the covered
/// cards, as shares of its width (left, right) and height (bottom): the columns from each side,
/// and the rows from the bottom, whose mean over the covered cards differs from the mean over the
/// cards seen whole by more than chance gives (see `apart`). (What a card's face shows there is
/// the same on average, covered or not; the edge of a card over it is the same on every covered
/// card and on none seen whole.)
fn reach_in(
    frames: &[RgbaImage],
    cut: &Corners,
    cards: &[Card],
    profile: &Profile,
    layout: [f32; 4],
) -> [f32; 3] {
    let nx = ((layout[2] * cut.card_w * SAMPLES_PER_PIXEL).ceil() as usize).max(4);
    let ny = ROW_SAMPLES;
    let strips: Vec<Vec<f32>> = cards
        .iter()
        .enumerate()
        .map(|(i, &card)| cut_part(frames, cut, profile, i, card, layout, (nx, ny)))
        .collect();
    let whole: Vec<&Vec<f32>> = strips[COVERED..].iter().collect();
    // Rows first, over the middle half of the columns (where no card over the gap reaches), then
    // the columns over the rows kept.
    let middle: Vec<usize> = (nx / 4..nx - nx / 4).collect();
    let all_columns: Vec<usize> = (0..nx).collect();
    let row_apart = |covered: &[Vec<f32>], y: usize| {
        let covered: Vec<&Vec<f32>> = covered.iter().collect();
        apart(&covered, &whole, nx, &middle, &[y])
    };
    let rows: Vec<usize> = (0..ny).collect();
    // The bottom rows border the card below the two over the gap, where there is one. The top
    // rows are kept: only the rounded corners of the cards over the gap reach into them, at its
    // sides, and what they leave between shows the most of a card's face there (ornamental's
    // covered jacks and aces of clubs and spades, which the gap tells apart, lost it when whole
    // rows were left out there).
    let bottom = rows
        .iter()
        .rev()
        .take_while(|&&y| row_apart(&strips[..WITH_ONE_BELOW], y))
        .count();
    let kept: Vec<usize> = (0..ny - bottom).collect();
    let covered: Vec<&Vec<f32>> = strips[..COVERED].iter().collect();
    let column_apart = |x: usize| !kept.is_empty() && apart(&covered, &whole, nx, &[x], &kept);
    let left = all_columns.iter().take_while(|&&x| column_apart(x)).count();
    let right = all_columns
        .iter()
        .rev()
        .take_while(|&&x| column_apart(x))
        .count();
    let (nx, ny) = (nx as f32, ny as f32);
    [left as f32 / nx, right as f32 / nx, bottom as f32 / ny]
}

/// Whether, over the samples at `columns` × `rows` of strips `nx` samples wide, the mean of the
/// `covered` strips differs from the mean of the `whole` ones by more than the whole ones differ
/// among themselves, over the two sets' sizes, `APART` times (both root mean square over the
/// samples and their channels), and by `NOISE`.
fn apart(
    covered: &[&Vec<f32>],
    whole: &[&Vec<f32>],
    nx: usize,
    columns: &[usize],
    rows: &[usize],
) -> bool {
    let mean =
        |set: &[&Vec<f32>], i: usize| set.iter().map(|s| s[i]).sum::<f32>() / set.len() as f32;
    let (mut differ, mut spread, mut n) = (0.0, 0.0, 0.0);
    for &y in rows {
        for &x in columns {
            for c in 0..3 {
                let i = 3 * (y * nx + x) + c;
                let (mc, mw) = (mean(covered, i), mean(whole, i));
                let var =
                    whole.iter().map(|s| (s[i] - mw).powi(2)).sum::<f32>() / whole.len() as f32;
                differ += (mc - mw).powi(2);
                spread += var;
                n += 1.0;
            }
        }
    }
    let (differ, spread) = ((differ / n).sqrt(), (spread / n).sqrt());
    let chance = spread * (1.0 / covered.len() as f32 + 1.0 / whole.len() as f32).sqrt();
    differ > (APART * chance).max(NOISE)
}

/// Card `i` of `cards`'s `part` (a box in card widths), sampled `size` large where
/// `templates_from` took its index corner (see `Corners::on_waste`), its top-left corner moved by
/// as much as lining up the index corner with the others moved that.
fn cut_part(
    frames: &[RgbaImage],
    cut: &Corners,
    profile: &Profile,
    i: usize,
    card: Card,
    part: [f32; 4],
    (tw, th): (usize, usize),
) -> Vec<f32> {
    let w = cut.card_w;
    let [_, _, ibw, ibh] = profile.index_box;
    let (ipx, ipy) = (ibw * w / TEMPLATE_W as f32, ibh * w / TEMPLATE_H as f32);
    let ((frame, (x, y)), (ox, oy)) = match cut.on_waste(i, card) {
        Some(k) => (cut.waste_cut_at[k], cut.waste_offsets[k]),
        None => (cut.cut_at[i], cut.offsets[i]),
    };
    let x = x + (ox as f32 - REACH as f32) * ipx;
    let y = y + (oy as f32 - REACH as f32) * ipy;
    let [bx, by, bw, bh] = part;
    sample(
        &frames[frame],
        x + bx * w,
        y + by * w,
        bw * w,
        bh * w,
        tw,
        th,
    )
    .rgb
}

/// Templates of another part of the card (`part`, a box in card widths like the index box): each
/// card cut where its index corner was cut (`cut`), its top-left corner moved by as much as lining
/// up its index corner with the others moved that (a card's edges can put its corner a few pixels
/// off, where a line inside it is stronger). Not lined up again: a part showing pips or a picture
/// has nothing all cards share.
pub(crate) fn part_templates(
    frames: &[RgbaImage],
    cut: &Corners,
    cards: &[Card],
    profile: &Profile,
    part: [f32; 4],
) -> Result<Vec<RgbImage>, String> {
    let (tw, th) = (TEMPLATE_W as usize, TEMPLATE_H as usize);
    let mut images: Vec<Option<RgbImage>> = vec![None; 52];
    for (i, card) in cards.iter().enumerate() {
        let values = cut_part(frames, cut, profile, i, *card, part, (tw, th));
        let raw: Vec<u8> = values
            .iter()
            .map(|v| v.round().clamp(0.0, 255.0) as u8)
            .collect();
        images[card.index()] = RgbImage::from_raw(TEMPLATE_W, TEMPLATE_H, raw);
    }
    Card::all()
        .map(|card| {
            images[card.index()]
                .take()
                .ok_or_else(|| format!("card {card} was never seen in the frames"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` strips `nx`×`ny`, faces that differ from card to card (levels drawn from `seed`), with
    /// `edge` (a level) in their last two columns when given.
    fn strips(n: usize, (nx, ny): (usize, usize), seed: u64, edge: Option<f32>) -> Vec<Vec<f32>> {
        let mut state = seed;
        let mut level = move || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) as f32 / (1u64 << 31) as f32 * 255.0
        };
        (0..n)
            .map(|_| {
                (0..nx * ny * 3)
                    .map(|i| match edge {
                        Some(e) if (i / 3) % nx >= nx - 2 => e,
                        _ => level(),
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn an_edge_on_every_covered_card_is_apart_where_faces_are_not() {
        let size = (12, 8);
        let covered = strips(COVERED, size, 1, Some(20.0));
        let whole = strips(52 - COVERED, size, 2, None);
        let (c, w): (Vec<&Vec<f32>>, Vec<&Vec<f32>>) =
            (covered.iter().collect(), whole.iter().collect());
        let rows: Vec<usize> = (0..size.1).collect();
        assert!(apart(&c, &w, size.0, &[11], &rows));
        assert!(apart(&c, &w, size.0, &[10], &rows));
        for x in 0..10 {
            assert!(!apart(&c, &w, size.0, &[x], &rows), "column {x}");
        }
    }

    #[test]
    fn paper_alike_on_every_card_is_not_apart_unless_shaded_past_noise() {
        let size = (6, 4);
        let paper = |level: f32, n: usize| vec![vec![level; size.0 * size.1 * 3]; n];
        let whole = paper(250.0, 52 - COVERED);
        let w: Vec<&Vec<f32>> = whole.iter().collect();
        let rows: Vec<usize> = (0..size.1).collect();
        for (covered_level, shown) in [(250.0, false), (248.0, false), (230.0, true)] {
            let covered = paper(covered_level, COVERED);
            let c: Vec<&Vec<f32>> = covered.iter().collect();
            assert_eq!(apart(&c, &w, size.0, &[0], &rows), shown, "{covered_level}");
        }
    }
}
