//! The first search for the table (`coarse_fit`, on a copy shrunk to about 1,100 pixels wide):
//! candidate row spacings and tops from the rows' top edges, a few centres for each from the
//! strips' side edges, shifts of the best by whole rows and half columns, and the choice among them
//! by edges, piles and felt. `locate` refines what it finds on the full frame.

use super::{edges_for, felt_agreement, Fit, Judge, Look, NotATable, Objective};
use crate::games::pyramid::position::Position;
use crate::games::pyramid::vision::profile::Profile;
use crate::vision::edges::Edges;
use crate::vision::felt::{felt_rows, FeltMap};
use image::RgbaImage;
use rayon::prelude::*;

/// How much the piles' edges count against the pyramid's when the table is first found (each a
/// mean contrast per edge). Halfway through deal 35 at 2560x1440 scale 2.5 (14 pyramid cards
/// left, the waste selected), the waste's highlight band and the stock card's inner frame (swiss-
/// xvii's, Атласные's face card) fitted a card 4% smaller, half a row lower, better than the cards'
/// own edges; with the piles counted twice that fit won (pyramid 31, piles 80, against 76 and 51),
/// and the frame was refused. The fit found is then refined with the piles counted twice, as
/// before: the card height is theirs to give.
const COARSE_PILE_WEIGHT: f32 = 1.0;

/// Fits whose apex is one of the topmost things on the felt as wide as a card (from `w_min` to
/// `w_max`): per row showing felt, from the top, the runs of other pixels with felt either side;
/// those in the first rows that have any (a card's rounded top corners make its first rows
/// narrower), each with the row it starts on and its widest run.
fn apex_candidates(felt: &FeltMap, w_min: f32, w_max: f32) -> Vec<Fit> {
    let width = felt.width as usize;
    // (centre, top, width) of each thing found, and the row the first was found on.
    let mut found: Vec<(f32, f32, f32)> = Vec::new();
    let mut first: Option<usize> = None;
    for y in 0..felt.height as usize {
        if first.is_some_and(|f| y as f32 > f as f32 + 0.15 * w_max) {
            break;
        }
        if !felt.any[y] {
            continue;
        }
        let row = &felt.felt[y * width..(y + 1) * width];
        let mut x = 0;
        while x < width {
            if row[x] == 1 {
                x += 1;
                continue;
            }
            let start = x;
            while x < width && row[x] == 0 {
                x += 1;
            }
            let len = (x - start) as f32;
            // Felt on both sides, and as wide as a card (or its top, between rounded corners).
            if start == 0 || x == width || len < 0.7 * w_min || len > 1.05 * w_max {
                continue;
            }
            let centre = (start + x) as f32 / 2.0;
            first.get_or_insert(y);
            match found
                .iter_mut()
                .find(|f| (f.0 - centre).abs() < 0.1 * f.2.max(len))
            {
                Some(f) if len > f.2 => (f.0, f.2) = (centre, len),
                Some(_) => {}
                None => found.push((centre, y as f32, len)),
            }
        }
    }
    found
        .into_iter()
        .filter(|f| f.2 >= w_min)
        .map(|(cx, top, w)| Fit { cx, top, w, u: w })
        .collect()
}

/// How many centres the coarse search keeps for each row spacing and top (see `coarse_fit`), at
/// least 0.05 card widths apart, in the usual search: one.
pub(super) const CENTRES_PER_TOP: usize = 1;

/// How many the wide search keeps (`locate_wide`). Borderless cards show their sides only at each
/// row's ends, so lines inside the cards can add up to more a few pixels off the right centre: three
/// located anglo+borderless and kde-nicu-white's calibration deal within a pixel at 1440×900, where
/// one put them 0.11 card widths off. It is not the usual search because it moved bordered cards'
/// fits by a pixel (anglo_poker at 800×600: the apex's top a row of pixels low), enough to change
/// which covered cards need the strip and gap templates (docs/vision.md).
pub(super) const WIDE_CENTRES_PER_TOP: usize = 3;

/// The best layout on a (possibly shrunk) frame: candidate row spacings and tops from the rows' top
/// edges, the best `centres` centres for each from the strips' side edges, then the choice by
/// edges, piles and felt.
/// The best fit comes first; for `Objective::Corners` up to `NEAR_FITS` more follow, by score (see
/// `locate_near`).
pub(super) fn coarse_fit(
    frame: &RgbaImage,
    e: &Edges,
    profile: &Profile,
    aspect: Option<f32>,
    objective: Objective,
    centres: usize,
) -> Result<Vec<Fit>, NotATable> {
    let (width, height) = (e.width as i32, e.height as i32);
    // 1. Rows: seven equally spaced horizontal edges (the tops of the pyramid rows).
    let profile_rows: Vec<f32> = (0..height)
        .map(|y| e.h_segment(y, 0, width) as f32)
        .collect();
    let row_at = |y: i32| -> f32 {
        (y - 1..=y + 1)
            .filter(|&yy| yy >= 0 && yy < height)
            .map(|yy| profile_rows[yy as usize])
            .fold(0.0, f32::max)
    };
    let w_min = profile.card_width_share[0] * width as f32;
    let w_max = profile.card_width_share[1] * width as f32;
    let (s_min, s_max) = (w_min * profile.row_step, w_max * profile.row_step);
    // For each spacing, the best few distinct tops (the spacings in parallel, kept in order).
    let mut spacings = Vec::new();
    let mut s = s_min;
    while s <= s_max {
        spacings.push(s);
        s += 0.5;
    }
    let tops = |s: f32| -> Vec<(f32, f32)> {
        let last = (height as f32 - 6.0 * s - s / profile.row_step).max(0.0) as i32;
        let w = s / profile.row_step;
        let mut firsts: Vec<(f32, i32)> = Vec::with_capacity(TOPS_PER_SPACING + 1);
        for top in 0..last {
            // Each row's top edge, as mean contrast per card it can hold, capped so that one long
            // line (a toolbar's edge) cannot stand in for several rows.
            let score: f32 = (0..7)
                .map(|r| {
                    let y = (top as f32 + r as f32 * s).round() as i32;
                    (row_at(y) / ((r + 1) as f32 * 0.8 * w)).min(40.0)
                })
                .sum();
            // Tops within 3 pixels of one another are one: the better is kept.
            match firsts.iter().position(|f| (top - f.1).abs() <= 3) {
                Some(j) if score > firsts[j].0 => firsts[j] = (score, top),
                Some(_) => continue,
                None => firsts.push((score, top)),
            }
            firsts.sort_by(|a, b| b.0.total_cmp(&a.0));
            firsts.truncate(TOPS_PER_SPACING);
        }
        firsts.iter().map(|&(_, top)| (top as f32, s)).collect()
    };
    let picked: Vec<(f32, f32)> = spacings.par_iter().flat_map_iter(|&s| tops(s)).collect();
    // 2. For each, the centre from the strips' vertical edges, then the full score: pyramid edges
    // and pile edges, weighted by how much of the felt the fit leaves free is felt.
    // A fit's score is its edges (pyramid and piles, see `COARSE_PILE_WEIGHT`) times the square
    // of how much of the felt it leaves free is felt, at most 1: so the edges alone bound it, and
    // the felt, which costs the most, is worked out only for fits whose bound can still win.
    let felt = FeltMap::new(frame);
    // (Edges within 2 pixels for `Corners`, whose weakest edge of a slot counts: a card's
    // antialiased top spreads over two rows, and a first fit a pixel off finds half of it.)
    let judge = Judge {
        objective,
        pile_weight: COARSE_PILE_WEIGHT,
        look: Look::Peaked(2),
        felt_rows: felt_rows(&felt),
    };
    let edges_of = |f: Fit| -> (f32, f32) { edges_for(&judge, e, f, profile, aspect) };
    let total = |f: Fit, (edges, a): (f32, f32)| -> f32 {
        let agree = felt_agreement(&felt, f, a, profile);
        edges * agree * agree
    };
    let centred: Vec<(Fit, (f32, f32))> = picked
        .par_iter()
        .map(|&(top, s)| {
            let w = s / profile.row_step;
            let (lo, hi) = ((0.2 * width as f32) as i32, (0.8 * width as f32) as i32);
            // Per row, the vertical edge strength of its strip at every column, computed once;
            // then per column the strength of a card's two sides when its left side is there.
            // Each centre only adds up those for its cards.
            let card_w = w.round() as i32;
            let sides: Vec<Vec<u32>> = (0..7)
                .map(|row| {
                    let y = Fit {
                        cx: 0.0,
                        top,
                        w,
                        u: w,
                    }
                    .slot_y(Position::new(row, 0), profile)
                    .round() as i32;
                    let (y0, y1) = (y + (0.2 * s) as i32, y + (0.8 * s) as i32);
                    let strip = e.v_segments(y0, y1);
                    // The strongest of the three columns around each x, for x from −1 to width:
                    // `banded[x + 1]`.
                    let banded = banded(&strip);
                    // From far enough left that both sides are off the picture (x = −(card_w +
                    // 2)), to its right edge (width + 1); zero beyond: per x, the band at x and at
                    // x + card_w.
                    // At index i, x = i − (card_w + 2): band(x) is banded[i − card_w − 1] and
                    // band(x + card_w) is banded[i − 1].
                    let len = (width + card_w + 4) as usize;
                    let mut sides = vec![0u32; len];
                    for shift in [card_w as usize + 1, 1] {
                        for (out, &b) in sides[shift..].iter_mut().zip(&banded) {
                            *out += b;
                        }
                    }
                    sides
                })
                .collect();
            // Each card's left side as `slot_x` puts it (the same sums in the same order, so the
            // same roundings), with its row's sides.
            let steps: Vec<(f32, &Vec<u32>)> = Position::all()
                .map(|p| {
                    let step = (p.col() as f32 - p.row() as f32 / 2.0) * profile.column_step * w;
                    (step, &sides[p.row()])
                })
                .collect();
            // Card by card over all centres (the sums are whole numbers well under 2^24, so
            // adding them up as integers gives what adding them as f32 did). Centre by centre a
            // card's side moves one column: a run of `sides` added to a run of `totals`, unless
            // rounding makes a step of 0 or 2 columns somewhere (then centre by centre).
            let mut totals = vec![0u32; (hi - lo).max(0) as usize];
            let side_at = |cx: i32, step: f32| (cx as f32 + step - w / 2.0).round() as i32;
            for &(step, sides) in &steps {
                let count = totals.len() as i32;
                if count == 0 {
                    break;
                }
                let first = side_at(lo, step) + card_w + 2;
                if side_at(hi - 1, step) + card_w + 2 == first + count - 1 {
                    // Centres whose side lands inside `sides`.
                    let (from, to) = ((-first).max(0), (sides.len() as i32 - first).min(count));
                    if from < to {
                        let run = &sides[(first + from) as usize..(first + to) as usize];
                        for (total, &side) in totals[from as usize..to as usize].iter_mut().zip(run)
                        {
                            *total += side;
                        }
                    }
                } else {
                    for (total, cx) in totals.iter_mut().zip(lo..hi) {
                        let i = side_at(cx, step) + card_w + 2;
                        if i >= 0 && (i as usize) < sides.len() {
                            *total += sides[i as usize];
                        }
                    }
                }
            }
            // The best few centres, apart from one another: borderless cards show their sides
            // only at each row's ends, so lines inside the cards can add up to more a few pixels
            // off the right centre, which the full score then tells apart.
            let mut best: Vec<(u32, i32)> = Vec::with_capacity(centres + 1);
            let apart = (0.05 * w).max(2.0) as i32;
            for (&total, cx) in totals.iter().zip(lo..hi) {
                match best.iter().position(|b| (cx - b.1).abs() <= apart) {
                    Some(j) if total > best[j].0 => best[j] = (total, cx),
                    Some(_) => continue,
                    None => best.push((total, cx)),
                }
                best.sort_by_key(|b| std::cmp::Reverse(b.0));
                best.truncate(centres);
            }
            best.into_iter()
                .map(|(_, cx)| {
                    let fit = Fit {
                        cx: cx as f32,
                        top,
                        w,
                        u: w,
                    };
                    (fit, edges_of(fit))
                })
                .collect::<Vec<_>>()
        })
        .flatten()
        .collect();
    // For `Corners`, also the topmost card on the felt as the apex: with one or two cards left,
    // the rows' tops are the toolbar's and the piles' edges, not theirs.
    let mut centred = centred;
    if objective == Objective::Corners {
        centred.extend(
            apex_candidates(&felt, w_min, w_max)
                .into_iter()
                .map(|fit| (fit, edges_of(fit))),
        );
    }
    // The best `SHIFTED_BASES` by score, ties in the order found: taken by bound, until no bound
    // left can reach the last of them.
    let mut by_bound: Vec<usize> = (0..centred.len()).collect();
    by_bound.sort_by(|&i, &j| centred[j].1 .0.total_cmp(&centred[i].1 .0));
    // (A few at a time in parallel, then taken in order: those past where the order stops are
    // left out.)
    let mut scored: Vec<(f32, usize)> = Vec::new();
    let mut from = 0;
    'scoring: while from < by_bound.len() {
        let size = if from == 0 { SHIFTED_BASES } else { 4 };
        let next = &by_bound[from..(from + size).min(by_bound.len())];
        let totals: Vec<f32> = next
            .par_iter()
            .map(|&i| total(centred[i].0, centred[i].1))
            .collect();
        for (&i, t) in next.iter().zip(totals) {
            if scored.len() >= SHIFTED_BASES {
                scored.sort_by(|a, b| b.0.total_cmp(&a.0));
                if centred[i].1 .0 < scored[SHIFTED_BASES - 1].0 {
                    break 'scoring;
                }
            }
            scored.push((t, i));
        }
        from += next.len();
    }
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let scored: Vec<(f32, Fit)> = scored.iter().map(|&(t, i)| (t, centred[i].0)).collect();
    // A fit shifted by whole rows and half columns explains a partly cleared pyramid almost as
    // well; try those around the best few (and half a row off, see below), and let the piles and
    // the felt decide.
    // (Taken in order, so that ties go as they always did.)
    let mut shifted: Vec<(Option<f32>, Fit)> = Vec::new();
    for &(score, base) in scored.iter().take(SHIFTED_BASES) {
        shifted.push((Some(score), base));
        for rows in -3i32..=3 {
            for half_columns in -4i32..=4 {
                if (rows - half_columns) % 2 != 0 || (rows == 0 && half_columns == 0) {
                    continue;
                }
                let cand = Fit {
                    cx: base.cx + half_columns as f32 * profile.column_step * base.u / 2.0,
                    top: base.top + rows as f32 * profile.row_step * base.u,
                    ..base
                };
                shifted.push((None, cand));
            }
        }
        // Half a row up and down: a line across every card partway down (ornamental's scroll
        // lines) can make better rows than the cards' own tops, none of which were kept.
        for half_rows in [-1.0f32, 1.0] {
            let cand = Fit {
                top: base.top + half_rows * profile.row_step * base.u / 2.0,
                ..base
            };
            shifted.push((None, cand));
        }
    }
    let bounds: Vec<(f32, f32)> = shifted
        .par_iter()
        .map(|&(known, fit)| known.map_or_else(|| edges_of(fit), |t| (t, 0.0)))
        .collect();
    // The best by score, ties in the order found (and for `Corners` the next few).
    let keep = match objective {
        Objective::Table => 1,
        Objective::Corners => 1 + NEAR_FITS,
    };
    let mut best: Vec<(f32, Fit)> = Vec::with_capacity(keep + 1);
    for (&bound, &(known, fit)) in bounds.iter().zip(&shifted) {
        if best.len() == keep && bound.0 <= best[keep - 1].0 {
            continue; // cannot beat the last kept so far
        }
        let t = known.unwrap_or_else(|| total(fit, bound));
        if best.len() < keep || t > best[keep - 1].0 {
            let at = best.iter().position(|&(b, _)| t > b).unwrap_or(best.len());
            best.insert(at, (t, fit));
            best.truncate(keep);
        }
    }
    if best.is_empty() {
        return Err(NotATable("no pyramid found".into()));
    }
    Ok(best.into_iter().map(|(_, f)| f).collect())
}

/// How many fits after the best `Objective::Corners` keeps from its first search (`locate_near`).
pub(super) const NEAR_FITS: usize = 4;

/// Per x from −1 to the width, the strongest of `strip`'s three columns around x (clipped to the
/// picture): `banded[x + 1]` is the largest of columns x − 1, x and x + 1.
fn banded(strip: &[u32]) -> Vec<u32> {
    let n = strip.len();
    // Entry i is the largest of columns i − 2 ..= i (those there are).
    let clipped = |i: usize| {
        let (from, to) = (i.saturating_sub(2), i.min(n - 1));
        strip[from..=to].iter().copied().max().unwrap_or(0)
    };
    if n < 3 {
        return (0..n + 2).map(clipped).collect();
    }
    let mut banded = Vec::with_capacity(n + 2);
    banded.extend([clipped(0), clipped(1)]);
    banded.extend(
        strip
            .iter()
            .zip(&strip[1..])
            .zip(&strip[2..])
            .map(|((&a, &b), &c)| a.max(b).max(c)),
    );
    banded.extend([clipped(n), clipped(n + 1)]);
    banded
}

/// How many of the best fits `coarse_fit` also tries shifted by whole rows and half columns. The
/// right fit of a partly cleared pyramid can be a shift of only the sixth best or worse: with six
/// taken, one more top kept per spacing (anglo's deal 14 halfway at 2560x1440@2.5) pushed it out.
const SHIFTED_BASES: usize = 10;

/// How many distinct tops `coarse_fit` keeps for each row spacing. Rows capped at full contrast
/// score alike: a toolbar's edge and the cards' tops a row lower fit as well as the cards' tops, and
/// with two kept, the right one could be left out (dondorf at 2560x1440@2.5, located 40 px low). A
/// line across every card (ornamental's scrolls, a third of a row below the top) can make better
/// rows than the soft tops of cream cards over one another: with three kept, the tops were left
/// out of ornamental's half-cleared deal 1 at four sizes, located half a row low and refused.
const TOPS_PER_SPACING: usize = 4;

#[cfg(test)]
mod tests {
    use super::*;

    /// Each shrunk pixel is the floor of its block's mean, channel by channel, for every block
    /// size the locator uses and beyond (the division is done by a multiplication).
    /// Each band is the strongest of the three columns around it, clipped to the picture.
    #[test]
    fn a_band_is_the_strongest_of_three_columns() {
        for n in [1usize, 2, 3, 4, 7, 720] {
            let strip: Vec<u32> = (0..n as u32).map(|i| (i * 7919 + 13) % 101).collect();
            let got = banded(&strip);
            assert_eq!(got.len(), n + 2);
            for (i, &b) in got.iter().enumerate() {
                // Columns x − 1 ..= x + 1 for x = i − 1.
                let want = (i as i64 - 2..=i as i64)
                    .filter(|&c| c >= 0 && (c as usize) < n)
                    .map(|c| strip[c as usize])
                    .max()
                    .unwrap_or(0);
                assert_eq!(b, want, "n {n}, entry {i}");
            }
        }
    }
}
