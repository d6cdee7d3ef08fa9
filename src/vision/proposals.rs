//! Proposed labels for guided calibration: which rank each row of the grouped corners shows and
//! which suit each column, found by comparing their glyphs with the glyphs of card faces the
//! project knows (the built-in theme and every installed one). Each corner's rank glyph (and the
//! suit's pip under it) is cut to its own ink's bounds and scaled to one size, so that glyphs of
//! other fonts, sizes and index boxes compare; a row takes the rank its four glyphs are most like,
//! a column the suit its 13 pips are most like (one rank per row and one suit per column). The
//! user checks them: they are proposals, never labels taken without a look.

use super::calibrate::Corners;
use super::groups::{assign, ink, ink_colour, paper, pip_box, rank_box, unit, Box4, Groups};
use super::recognize::dot;
use super::recognize::soften;
use super::sampling::sample;
use super::templates::{TEMPLATE_H, TEMPLATE_W};
use crate::cards::{Card, Rank, Suit};
use crate::table::theme::Theme;
use image::RgbaImage;

/// The size glyphs are compared at, in pixels.
const GW: usize = 12;
const GH: usize = 16;

/// The glyphs of a deck's 52 corners (in the order given): rank glyphs and pips, normalised.
#[derive(Clone, Debug)]
pub struct Glyphs {
    pub rank: Vec<Vec<f32>>,
    pub pip: Vec<Vec<f32>>,
    /// How red each corner's ink is (red less the larger of green and blue, over its brightness).
    pub redness: Vec<f32>,
}

impl Glyphs {
    /// The glyphs of corner crops (RGB, template size).
    pub fn of(crops: &[Vec<f32>]) -> Glyphs {
        let (w, h) = (TEMPLATE_W as usize, TEMPLATE_H as usize);
        let paper = paper(crops);
        let soft: Vec<Vec<f32>> = crops.iter().map(|c| soften(c, w, h)).collect();
        let inks: Vec<Vec<f32>> = soft.iter().map(|c| ink(c, paper)).collect();
        let rank_at = rank_box(&inks);
        let pip_at = pip_box(rank_at);
        let redness = crops
            .iter()
            .zip(&inks)
            .map(|(c, k)| {
                let [r, g, b] = ink_colour(c, k);
                (r - g.max(b)) / r.max(g).max(b).max(1.0)
            })
            .collect();
        Glyphs {
            rank: inks.iter().map(|k| glyph(k, rank_at, false)).collect(),
            pip: inks.iter().map(|k| glyph(k, pip_at, true)).collect(),
            redness,
        }
    }

    /// The glyphs of a theme's 52 faces (by `Card::index`), cut as calibration cuts a corner.
    pub fn of_theme(theme: &Theme, index_box: [f32; 4]) -> Glyphs {
        let width = 140u32;
        let height = (width as f32 * theme.aspect()).round() as u32;
        let faces = theme.faces(width, height);
        let crops: Vec<Vec<f32>> = Card::all()
            .map(|card| {
                let face = on_white(faces.card(card).data(), width, height);
                let [x, y, bw, bh] = index_box.map(|v| v * width as f32);
                sample(
                    &face,
                    x,
                    y,
                    bw,
                    bh,
                    TEMPLATE_W as usize,
                    TEMPLATE_H as usize,
                )
                .rgb
            })
            .collect();
        Glyphs::of(&crops)
    }
}

/// A face's premultiplied RGBA over white paper (its rounded corners are see-through).
fn on_white(data: &[u8], width: u32, height: u32) -> RgbaImage {
    let px: Vec<u8> = data
        .chunks_exact(4)
        .flat_map(|p| {
            let a = 255 - p[3];
            [
                p[0].saturating_add(a),
                p[1].saturating_add(a),
                p[2].saturating_add(a),
                255,
            ]
        })
        .collect();
    RgbaImage::from_raw(width, height, px).expect("face size")
}

/// The ink inside `at`, cut to the bounds of its own ink and scaled to `GW`×`GH`, normalised;
/// `square`: the bounds widened to the glyph's proportions there, so that its shape is kept.
fn glyph(ink: &[f32], (x0, y0, x1, y1): Box4, square: bool) -> Vec<f32> {
    let w = TEMPLATE_W as usize;
    let at = |x: usize, y: usize| ink[(y * w + x) * 3];
    let top = (y0..y1)
        .flat_map(|y| (x0..x1).map(move |x| (x, y)))
        .map(|(x, y)| at(x, y))
        .fold(0.0f32, f32::max);
    if top <= 1.0 {
        return vec![0.0; GW * GH];
    }
    let on = |x: usize, y: usize| at(x, y) > 0.35 * top;
    let xs: Vec<usize> = (x0..x1).filter(|&x| (y0..y1).any(|y| on(x, y))).collect();
    let ys: Vec<usize> = (y0..y1).filter(|&y| (x0..x1).any(|x| on(x, y))).collect();
    let (bx0, bx1) = (xs[0] as f32, *xs.last().expect("ink") as f32 + 1.0);
    let (mut by0, mut by1) = (ys[0] as f32, *ys.last().expect("ink") as f32 + 1.0);
    let (mut bx0, mut bx1) = (bx0, bx1);
    if square {
        // Widen the narrower side about its centre to GW:GH.
        let (w, h) = (bx1 - bx0, by1 - by0);
        let want = GW as f32 / GH as f32;
        if w / h < want {
            let grow = (h * want - w) / 2.0;
            (bx0, bx1) = (bx0 - grow, bx1 + grow);
        } else {
            let grow = (w / want - h) / 2.0;
            (by0, by1) = (by0 - grow, by1 + grow);
        }
    }
    let mut out = Vec::with_capacity(GW * GH);
    for j in 0..GH {
        for i in 0..GW {
            // Bilinear at the centre of the output pixel.
            let fx = bx0 + (i as f32 + 0.5) * (bx1 - bx0) / GW as f32 - 0.5;
            let fy = by0 + (j as f32 + 0.5) * (by1 - by0) / GH as f32 - 0.5;
            if fx < -0.5 || fy < -0.5 || fx > x1 as f32 - 0.5 || fy > y1 as f32 - 0.5 {
                out.push(0.0);
                continue;
            }
            let (fx, fy) = (fx.max(0.0), fy.max(0.0));
            let (ix, iy) = (fx.floor() as usize, fy.floor() as usize);
            let (tx, ty) = (fx - ix as f32, fy - iy as f32);
            let (ix1, iy1) = ((ix + 1).min(w - 1), (iy + 1).min(TEMPLATE_H as usize - 1));
            let v = at(ix, iy) * (1.0 - tx) * (1.0 - ty)
                + at(ix1, iy) * tx * (1.0 - ty)
                + at(ix, iy1) * (1.0 - tx) * ty
                + at(ix1, iy1) * tx * ty;
            out.push(v);
        }
    }
    unit(out)
}

/// The faces the project knows: the built-in theme's and every installed theme's glyphs, but for
/// those named in `leave_out` (to measure proposals on a theme as if it were unknown).
pub fn known_glyphs(index_box: [f32; 4], leave_out: &[String]) -> Vec<Glyphs> {
    named_glyphs(index_box, leave_out)
        .into_iter()
        .map(|(_, g)| g)
        .collect()
}

/// The glyphs of every known theme, made once (at the first guided calibration: rendering the
/// installed themes takes a moment).
pub fn known_faces() -> &'static [Glyphs] {
    static KNOWN: std::sync::OnceLock<Vec<Glyphs>> = std::sync::OnceLock::new();
    KNOWN.get_or_init(|| known_glyphs(INDEX_BOX, &[]))
}

/// Where the known faces' corners are cut (in card widths: the practice table's index box, which
/// holds the rank and the pip under it on every theme; glyphs are cut to their own ink after).
pub const INDEX_BOX: [f32; 4] = [0.03, 0.02, 0.34, 0.38];

/// `known_glyphs` with each theme's name.
pub fn named_glyphs(index_box: [f32; 4], leave_out: &[String]) -> Vec<(String, Glyphs)> {
    let mut themes = vec![Theme::built_in()];
    themes.extend(
        Theme::installed()
            .iter()
            .filter_map(|p| Theme::from_file(p).ok()),
    );
    themes.retain(|t| !leave_out.iter().any(|n| n == t.name()));
    use rayon::prelude::*;
    themes
        .par_iter()
        .map(|t| (t.name().to_string(), Glyphs::of_theme(t, index_box)))
        .collect()
}

/// Labels proposed for a grouping: a rank for every row, a suit for every column.
#[derive(Clone, Debug, PartialEq)]
pub struct Proposal {
    pub ranks: Vec<Rank>,
    pub suits: Vec<Suit>,
}

/// Proposes every row's rank and every column's suit of `groups` (13 rows of 4) from the glyphs
/// of known faces; none when there are no known faces or the grouping is not 13 by 4.
pub fn propose(corners: &Corners, groups: &Groups, known: &[Glyphs]) -> Option<Proposal> {
    if known.is_empty() || groups.ranks.len() != 13 {
        return None;
    }
    let seen = Glyphs::of(&corners.crops);
    // How like rank `r` (any suit) a corner's glyph is, in the theme most like it.
    let like_rank = |i: usize, r: usize| -> f32 {
        known
            .iter()
            .map(|k| {
                Suit::ALL
                    .iter()
                    .map(|&s| dot(&seen.rank[i], &k.rank[Card::new(rank(r), s).index()]))
                    .fold(f32::MIN, f32::max)
            })
            .fold(f32::MIN, f32::max)
    };
    let score: Vec<Vec<f32>> = groups
        .ranks
        .iter()
        .map(|row| {
            (0..13)
                .map(|r| row.iter().map(|&i| like_rank(i, r)).sum::<f32>() / 4.0)
                .collect()
        })
        .collect();
    let ranks: Vec<Rank> = assign(&score).into_iter().map(rank).collect();
    // How like suit `s` a column's pips are (of the rank proposed for each row), and whether its
    // ink is as red as the suit.
    let red_column: Vec<f32> = (0..4)
        .map(|k| groups.suit(k).iter().map(|&i| seen.redness[i]).sum::<f32>() / 13.0)
        .collect();
    let threshold = {
        let mut r = red_column.clone();
        r.sort_by(|a, b| a.total_cmp(b));
        (r[1] + r[2]) / 2.0
    };
    let like_suit = |k: usize, s: Suit| -> f32 {
        let shape = groups
            .ranks
            .iter()
            .zip(&ranks)
            .map(|(row, &r)| {
                known
                    .iter()
                    .map(|g| dot(&seen.pip[row[k]], &g.pip[Card::new(r, s).index()]))
                    .fold(f32::MIN, f32::max)
            })
            .sum::<f32>()
            / 13.0;
        let red = matches!(s, Suit::Hearts | Suit::Diamonds);
        let looks_red = red_column[k] > threshold && red_column[k] > 0.2;
        shape + if red == looks_red { 0.15 } else { 0.0 }
    };
    let mut best = (f32::MIN, [0usize; 4]);
    for order in permutations4() {
        let s: f32 = (0..4).map(|k| like_suit(k, Suit::ALL[order[k]])).sum();
        if s > best.0 {
            best = (s, order);
        }
    }
    let suits: Vec<Suit> = best.1.iter().map(|&i| Suit::ALL[i]).collect();
    Some(Proposal { ranks, suits })
}

/// Rank of index `r` (0 the ace, 12 the king).
fn rank(r: usize) -> Rank {
    Rank::all().nth(r).expect("13 ranks")
}

/// The 24 orders of 0..4.
fn permutations4() -> Vec<[usize; 4]> {
    let mut out = Vec::with_capacity(24);
    for a in 0..4 {
        for b in (0..4).filter(|&b| b != a) {
            for c in (0..4).filter(|&c| c != a && c != b) {
                out.push([a, b, c, 6 - a - b - c]);
            }
        }
    }
    out
}
