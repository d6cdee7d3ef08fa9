//! Grouping the 52 index corners of one deal by what they show, so that a user who does not know
//! the deal labels 13 ranks and 4 suits instead of 52 cards (guided calibration). The ink's colour
//! splits the suits (red and black, or four colours); the rank glyphs — found where the corners'
//! mean ink has its top-left blob — pair up and match across colours into 13 rank groups; the pip
//! under the glyph tells the two suits of one colour apart. Every grouping has the shape of a
//! deck (each rank once in each suit), so labelling it always gives 52 distinct cards; a corner in
//! the wrong place is mended by swapping it with another. `sheet` draws the grouping for the user.

use super::calibrate::Corners;
use super::recognize::{dot, normalised, soften};
use super::templates::{TEMPLATE_H, TEMPLATE_W};
use crate::cards::{Card, Rank, Suit};

/// The corners (indices into `Corners::crops`) grouped by rank and by suit.
#[derive(Clone, Debug, PartialEq)]
pub struct Groups {
    /// 13 groups of 4 corners alike in shape; `ranks[g][k]` is the corner of suit group `k`.
    pub ranks: Vec<[usize; 4]>,
}

/// The first label given a second time, if any (ranks and suits must each be given once).
pub fn repeated<T: PartialEq>(labels: &[T]) -> Option<&T> {
    labels
        .iter()
        .enumerate()
        .find(|(i, l)| labels[..*i].contains(l))
        .map(|(_, l)| l)
}

impl Groups {
    /// The 13 corners of suit group `k`, in rank-group order.
    pub fn suit(&self, k: usize) -> Vec<usize> {
        self.ranks.iter().map(|g| g[k]).collect()
    }

    /// The card of every corner once each rank group and each suit group has its label.
    pub fn cards(&self, ranks: &[Rank], suits: &[Suit]) -> Result<Vec<Card>, String> {
        if ranks.len() != 13 || suits.len() != 4 {
            return Err(format!(
                "13 rank labels and 4 suit labels are needed, got {} and {}",
                ranks.len(),
                suits.len()
            ));
        }
        if let Some(r) = repeated(ranks) {
            return Err(format!("rank {} is given to two groups", r.char()));
        }
        if let Some(s) = repeated(suits) {
            return Err(format!("suit {} is given to two groups", s.char()));
        }
        let mut cards = vec![None; 52];
        for (g, group) in self.ranks.iter().enumerate() {
            for (k, &i) in group.iter().enumerate() {
                cards[i] = Some(Card::new(ranks[g], suits[k]));
            }
        }
        cards
            .into_iter()
            .enumerate()
            .map(|(i, c)| c.ok_or_else(|| format!("corner {i} is in no group")))
            .collect()
    }

    /// The rank group and suit group of a corner.
    pub fn cell_of(&self, corner: usize) -> Option<(usize, usize)> {
        self.ranks
            .iter()
            .enumerate()
            .find_map(|(r, g)| g.iter().position(|&i| i == corner).map(|s| (r, s)))
    }

    /// Exchanges the places of two corners (to mend a corner put in the wrong group).
    pub fn swap(&mut self, a: (usize, usize), b: (usize, usize)) {
        let (x, y) = (self.ranks[a.0][a.1], self.ranks[b.0][b.1]);
        self.ranks[a.0][a.1] = y;
        self.ranks[b.0][b.1] = x;
    }

    /// Groups the corners from a known list of cards (`cards[i]` for corner `i`), rank groups in
    /// rank order and suit groups in suit order: what a perfect grouping of that deal is.
    pub fn of_cards(cards: &[Card]) -> Groups {
        let mut ranks = vec![[usize::MAX; 4]; 13];
        for (i, c) in cards.iter().enumerate() {
            ranks[c.rank.value() as usize - 1][c.suit.index()] = i;
        }
        Groups { ranks }
    }
}

/// How dark or coloured every pixel is against the card's paper: the largest drop of any channel
/// below the paper's colour, so red, black, blue and yellow ink all count alike.
pub(crate) fn ink(crop: &[f32], paper: [f32; 3]) -> Vec<f32> {
    let mut out = Vec::with_capacity(crop.len());
    for px in crop.chunks_exact(3) {
        let drop = (0..3).map(|c| paper[c] - px[c]).fold(0.0f32, f32::max);
        // Three equal channels, so that shape and colour share the normalising.
        out.extend_from_slice(&[drop; 3]);
    }
    out
}

/// The paper colour: per channel, the median over every pixel of every corner.
pub(crate) fn paper(crops: &[Vec<f32>]) -> [f32; 3] {
    let mut out = [0.0; 3];
    for (c, o) in out.iter_mut().enumerate() {
        let mut v: Vec<f32> = crops
            .iter()
            .flat_map(|crop| crop.iter().skip(c).step_by(3).copied())
            .collect();
        v.sort_by(|a, b| a.total_cmp(b));
        *o = v[v.len() / 2];
    }
    out
}

/// Likeness of every two features (normalised correlation).
pub(crate) fn likeness(features: &[Vec<f32>]) -> Vec<Vec<f32>> {
    let unit: Vec<Vec<f32>> = features
        .iter()
        .map(|v| normalised(v).unwrap_or_else(|| v.clone()))
        .collect();
    unit.iter()
        .map(|a| unit.iter().map(|b| dot(a, b)).collect())
        .collect()
}

/// Total likeness between the members of a group.
fn cohesion(sim: &[Vec<f32>], group: impl Iterator<Item = usize> + Clone) -> f32 {
    let mut s = 0.0;
    for (i, a) in group.clone().enumerate() {
        for b in group.clone().skip(i + 1) {
            s += sim[a][b];
        }
    }
    s
}

/// `size`-sized groups as alike within as can be found: seeded greedily (the corner whose
/// nearest `size - 1` are nearest takes them), then improved by swapping members between groups
/// while that helps.
fn partition(sim: &[Vec<f32>], size: usize) -> Vec<Vec<usize>> {
    let n = sim.len();
    let mut free: Vec<bool> = vec![true; n];
    let mut groups: Vec<Vec<usize>> = Vec::new();
    while groups.len() < n / size {
        let mut best: Option<(f32, Vec<usize>)> = None;
        for a in (0..n).filter(|&a| free[a]) {
            let mut near: Vec<usize> = (0..n).filter(|&b| b != a && free[b]).collect();
            near.sort_by(|&x, &y| sim[a][y].total_cmp(&sim[a][x]));
            let g: Vec<usize> = std::iter::once(a)
                .chain(near[..size - 1].iter().copied())
                .collect();
            let score = cohesion(sim, g.iter().copied());
            if best.as_ref().is_none_or(|(s, _)| score > *s) {
                best = Some((score, g));
            }
        }
        let (_, g) = best.expect("free corners remain");
        for &i in &g {
            free[i] = false;
        }
        groups.push(g);
    }
    loop {
        let mut improved = false;
        for g in 0..groups.len() {
            for h in g + 1..groups.len() {
                for i in 0..size {
                    for j in 0..size {
                        let gain = |x: &[usize], y: &[usize]| {
                            cohesion(sim, x.iter().copied()) + cohesion(sim, y.iter().copied())
                        };
                        let before = gain(&groups[g], &groups[h]);
                        let (mut a, mut b) = (groups[g].clone(), groups[h].clone());
                        std::mem::swap(&mut a[i], &mut b[j]);
                        if gain(&a, &b) > before + 1e-6 {
                            groups[g] = a;
                            groups[h] = b;
                            improved = true;
                        }
                    }
                }
            }
        }
        if !improved {
            return groups;
        }
    }
}

/// Where the rank glyph is, in template pixels (x0, y0, x1, y1, ends excluded): the blob of the
/// corners' mean ink nearest the top-left corner, where every card has its rank (pips below it and
/// on the card's face are a suit's, or on some cards only).
pub(crate) fn rank_box(shape: &[Vec<f32>]) -> (usize, usize, usize, usize) {
    let (w, h) = (TEMPLATE_W as usize, TEMPLATE_H as usize);
    let mean = mean_ink(shape);
    let top = mean.iter().copied().fold(1e-6f32, f32::max);
    let on: Vec<bool> = mean.iter().map(|m| *m > 0.3 * top).collect();
    // Connected blobs of the mask: (mass, x0, y0, x1, y1).
    let mut seen = vec![false; w * h];
    let mut blobs: Vec<(f32, usize, usize, usize, usize)> = Vec::new();
    for start in 0..w * h {
        if !on[start] || seen[start] {
            continue;
        }
        let mut stack = vec![start];
        seen[start] = true;
        let mut b = (0.0, w, h, 0, 0);
        while let Some(i) = stack.pop() {
            let (x, y) = (i % w, i / w);
            b.0 += mean[i];
            b.1 = b.1.min(x);
            b.2 = b.2.min(y);
            b.3 = b.3.max(x + 1);
            b.4 = b.4.max(y + 1);
            let mut next = Vec::with_capacity(4);
            if x > 0 {
                next.push(i - 1);
            }
            if x + 1 < w {
                next.push(i + 1);
            }
            if y > 0 {
                next.push(i - w);
            }
            if y + 1 < h {
                next.push(i + w);
            }
            for j in next {
                if on[j] && !seen[j] {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
        blobs.push(b);
    }
    let heaviest = blobs.iter().map(|b| b.0).fold(0.0f32, f32::max);
    let b = blobs
        .iter()
        // Glyph-shaped: not a line along the corner's edge (a card's border or frame).
        .filter(|b| {
            b.0 >= 0.1 * heaviest && b.4 - b.2 >= 6 && b.3 - b.1 >= 3 && b.3 - b.1 <= w * 3 / 4
        })
        .min_by_key(|b| b.1 + b.2)
        .copied()
        .unwrap_or((0.0, 0, 0, w, h / 2));
    // Rank and pip can run together in the mean: cut at a clear dip of ink between them.
    let row = |y: usize| (b.1..b.3).map(|x| mean[y * w + x]).sum::<f32>();
    let fullest = (b.2..b.4).map(row).fold(0.0f32, f32::max);
    let height = b.4 - b.2;
    let dip = (b.2 + height * 3 / 10..b.2 + height * 8 / 10)
        .min_by(|&a, &c| row(a).total_cmp(&row(c)))
        .filter(|&y| row(y) < 0.35 * fullest);
    let bottom = dip.unwrap_or(b.4);
    (
        b.1.saturating_sub(1),
        b.2.saturating_sub(1),
        (b.3 + 1).min(w),
        (bottom + 1).min(h),
    )
}

/// Whether more than half the corners hold any ink in the box (where the rank glyph is). Corners
/// cut beside the cards' index (the table found off where it lies) hold only paper there but for
/// the odd wide glyph (a 10's), and checking labels on them would find nothing either way.
fn glyph_found(shape: &[Vec<f32>], (x0, y0, x1, y1): Box4) -> bool {
    let w = TEMPLATE_W as usize;
    let inked = shape
        .iter()
        .filter(|k| (y0..y1).any(|y| (x0..x1).any(|x| k[(y * w + x) * 3] > 0.0)))
        .count();
    2 * inked > shape.len()
}

/// The corners' mean ink, one value a template pixel.
fn mean_ink(shape: &[Vec<f32>]) -> Vec<f32> {
    let mut mean = vec![0.0f32; (TEMPLATE_W * TEMPLATE_H) as usize];
    for v in shape {
        for (m, k) in mean.iter_mut().zip(v.chunks_exact(3)) {
            *m += k[0] / shape.len() as f32;
        }
    }
    mean
}

/// A box in template pixels: x0, y0, x1, y1 (ends excluded).
pub(crate) type Box4 = (usize, usize, usize, usize);

/// How much ink the corners hold in the pip box below the rank glyph, as a share of the ink in
/// the rank glyph: a tenth or more where the suit's pip is drawn under the rank, next to
/// nothing where the corner ends at the rank glyph (the pip lies outside it, or on a covered card
/// under the card over it) and the pip box holds only the glyph's last rows.
fn pip_share(shape: &[Vec<f32>], rank: Box4) -> f32 {
    let w = TEMPLATE_W as usize;
    let mean = mean_ink(shape);
    let mass = |(x0, y0, x1, y1): Box4| -> f32 {
        (y0..y1)
            .map(|y| mean[y * w + x0..y * w + x1].iter().sum::<f32>())
            .sum()
    };
    let pip = pip_box(rank);
    mass((pip.0, rank.3.min(pip.3), pip.2, pip.3)) / mass(rank).max(1e-6)
}

/// Where the suit's pip is: under the rank glyph, about as wide, up to three quarters as high.
pub(crate) fn pip_box((x0, y0, x1, y1): Box4) -> Box4 {
    let (w, h) = (TEMPLATE_W as usize, TEMPLATE_H as usize);
    (
        x0.saturating_sub(2),
        y1.saturating_sub(1),
        (x1 + 2).min(w),
        (y1 + (y1 - y0) * 3 / 4 + 2).min(h),
    )
}

/// The RGB values of a corner inside a box.
fn rgb_inside(v: &[f32], (x0, y0, x1, y1): Box4) -> Vec<f32> {
    let w = TEMPLATE_W as usize;
    (y0..y1)
        .flat_map(|y| v[(y * w + x0) * 3..(y * w + x1) * 3].iter().copied())
        .collect()
}

/// How far rank glyphs are shifted against each other when compared, in template pixels: corners
/// are lined up by the whole index, and a suit's pip can pull its corners a pixel or two.
const GLYPH_REACH: isize = 2;

/// One channel of a three-channel feature inside a box moved by (dx, dy), zero outside the corner.
fn inside(
    v: &[f32],
    (x0, y0, x1, y1): (usize, usize, usize, usize),
    dx: isize,
    dy: isize,
) -> Vec<f32> {
    let (w, h) = (TEMPLATE_W as isize, TEMPLATE_H as isize);
    let mut out = Vec::with_capacity((x1 - x0) * (y1 - y0));
    for y in y0 as isize..y1 as isize {
        for x in x0 as isize..x1 as isize {
            let (sx, sy) = (x + dx, y + dy);
            out.push(if (0..w).contains(&sx) && (0..h).contains(&sy) {
                v[((sy * w + sx) * 3) as usize]
            } else {
                0.0
            });
        }
    }
    out
}

/// Zero mean, unit length (a flat patch stays zero).
pub(crate) fn unit(v: Vec<f32>) -> Vec<f32> {
    let m = v.iter().sum::<f32>() / v.len() as f32;
    let c: Vec<f32> = v.iter().map(|x| x - m).collect();
    let n = dot(&c, &c).sqrt();
    if n < 1e-6 {
        return c;
    }
    c.into_iter().map(|x| x / n).collect()
}

/// Likeness of the rank glyphs of every two corners: the best correlation of the glyph boxes over
/// small shifts.
fn glyph_likeness(inks: &[Vec<f32>], rank_box: (usize, usize, usize, usize)) -> Vec<Vec<f32>> {
    let fixed: Vec<Vec<f32>> = inks
        .iter()
        .map(|v| unit(inside(v, rank_box, 0, 0)))
        .collect();
    let shifts: Vec<Vec<Vec<f32>>> = inks
        .iter()
        .map(|v| {
            (-GLYPH_REACH..=GLYPH_REACH)
                .flat_map(|dy| (-GLYPH_REACH..=GLYPH_REACH).map(move |dx| (dx, dy)))
                .map(|(dx, dy)| unit(inside(v, rank_box, dx, dy)))
                .collect()
        })
        .collect();
    let n = inks.len();
    let mut sim = vec![vec![0.0f32; n]; n];
    for a in 0..n {
        for b in a..n {
            let best = shifts[b]
                .iter()
                .map(|s| dot(&fixed[a], s))
                .fold(f32::MIN, f32::max);
            sim[a][b] = best;
            sim[b][a] = best;
        }
    }
    sim
}

/// The mean colour of a corner's ink (pixels well below the paper), as a unit-free vector.
pub(crate) fn ink_colour(crop: &[f32], ink: &[f32]) -> [f32; 3] {
    let mut sum = [0.0f32; 3];
    let mut n = 0.0f32;
    for (px, k) in crop.chunks_exact(3).zip(ink.chunks_exact(3)) {
        if k[0] > 60.0 {
            for c in 0..3 {
                sum[c] += px[c];
            }
            n += 1.0;
        }
    }
    sum.map(|v| v / n.max(1.0))
}

/// Splits the corners by the colour of their ink: four classes of 13 when the deck has four suit
/// colours, else two of 26 (red and black).
fn colour_classes(colours: &[[f32; 3]]) -> Vec<Vec<usize>> {
    let n = colours.len();
    let sim: Vec<Vec<f32>> = colours
        .iter()
        .map(|a| colours.iter().map(|b| -colour_distance(a, b)).collect())
        .collect();
    let four = partition(&sim, n / 4);
    if clearly_apart(colours, &four, 1.0) {
        four
    } else {
        partition(&sim, n / 2)
    }
}

/// The mean ink colour of a class's cards.
pub(crate) fn centre_of(class: &[usize], colours: &[[f32; 3]]) -> [f32; 3] {
    let mut m = [0.0f32; 3];
    for &i in class {
        for (mc, v) in m.iter_mut().zip(colours[i]) {
            *mc += v / class.len() as f32;
        }
    }
    m
}

/// How far apart two ink colours are.
pub(crate) fn colour_distance(a: &[f32; 3], b: &[f32; 3]) -> f32 {
    (0..3).map(|c| (a[c] - b[c]).powi(2)).sum::<f32>().sqrt()
}

/// Whether classes of ink colours are far apart against how far their cards lie from their
/// class's centre: every two classes' centres more than three times as far apart (and at least 4
/// levels times three) as the `share` quantile of those distances (1 takes the farthest card).
pub(crate) fn clearly_apart(colours: &[[f32; 3]], classes: &[Vec<usize>], share: f32) -> bool {
    let centres: Vec<[f32; 3]> = classes.iter().map(|g| centre_of(g, colours)).collect();
    let mut reach: Vec<f32> = classes
        .iter()
        .zip(&centres)
        .flat_map(|(g, m)| g.iter().map(move |&i| colour_distance(&colours[i], m)))
        .collect();
    if reach.is_empty() {
        return false;
    }
    reach.sort_by(|a, b| a.total_cmp(b));
    let spread = reach[((reach.len() - 1) as f32 * share).round() as usize];
    let mut apart = f32::MAX;
    for (i, a) in centres.iter().enumerate() {
        for b in &centres[i + 1..] {
            apart = apart.min(colour_distance(a, b));
        }
    }
    apart > 3.0 * spread.max(4.0)
}

/// The best one-to-one match of rows to columns of `score` (row `r` gets column `out[r]`): greedy
/// by highest score, then improved by exchanging two rows' columns while that helps.
pub(crate) fn assign(score: &[Vec<f32>]) -> Vec<usize> {
    let n = score.len();
    let mut out = vec![usize::MAX; n];
    let mut taken = vec![false; n];
    let mut order: Vec<(usize, usize)> = (0..n).flat_map(|r| (0..n).map(move |c| (r, c))).collect();
    order.sort_by(|a, b| score[b.0][b.1].total_cmp(&score[a.0][a.1]));
    for (r, c) in order {
        if out[r] == usize::MAX && !taken[c] {
            out[r] = c;
            taken[c] = true;
        }
    }
    loop {
        let mut improved = false;
        for a in 0..n {
            for b in a + 1..n {
                let now = score[a][out[a]] + score[b][out[b]];
                if score[a][out[b]] + score[b][out[a]] > now + 1e-6 {
                    out.swap(a, b);
                    improved = true;
                }
            }
        }
        if !improved {
            return out;
        }
    }
}

/// Orders every pair (two suits of one colour, one rank) so that the first of each pair is the same
/// suit: what tells the two suits apart (each corner less its pair's mean) must agree in every
/// pair. Tries every way (2¹² of them).
fn orient(pairs: &mut [[usize; 2]], features: &Features) {
    let differences: Vec<Vec<f32>> = pairs
        .iter()
        .map(|p| features.pip_difference(p[0], p[1]))
        .collect();
    let sim = likeness(&differences);
    let n = pairs.len();
    let mut best = (f32::MIN, 0u32);
    for flips in 0..(1u32 << (n - 1)) {
        let sign = |i: usize| if flips >> i & 1 == 1 { -1.0 } else { 1.0 };
        let mut s = 0.0;
        for (i, row) in sim.iter().enumerate() {
            for (j, like) in row.iter().enumerate().skip(i + 1) {
                s += sign(i) * sign(j) * like;
            }
        }
        if s > best.0 {
            best = (s, flips);
        }
    }
    for (i, p) in pairs.iter_mut().enumerate() {
        if best.1 >> i & 1 == 1 {
            p.swap(0, 1);
        }
    }
}

/// What the corners of one deal show, as grouping and checking labels compare them.
pub(crate) struct Features {
    /// The corners split by the colour of their ink: four classes of 13 (four suit colours) or
    /// two of 26 (red and black).
    pub classes: Vec<Vec<usize>>,
    /// The mean colour of each corner's ink.
    pub colours: Vec<[f32; 3]>,
    /// Likeness of the rank glyphs of every two corners.
    pub shape_sim: Vec<Vec<f32>>,
    /// The corners softened, RGB.
    pub colour: Vec<Vec<f32>>,
    /// Where the suit's pip is, under the rank glyph.
    pub pip_box: Box4,
    /// The ink below the rank glyph in `pip_box`, as a share of the rank glyph's (`pip_share`).
    pub pip_share: f32,
    /// Whether most corners hold ink where the rank glyph is (`glyph_found`): not where they
    /// were cut beside the cards' index.
    pub glyph_found: bool,
}

impl Features {
    pub fn of(corners: &Corners) -> Features {
        let (w, h) = (TEMPLATE_W as usize, TEMPLATE_H as usize);
        let paper = paper(&corners.crops);
        let colour: Vec<Vec<f32>> = corners.crops.iter().map(|c| soften(c, w, h)).collect();
        let shape: Vec<Vec<f32>> = colour.iter().map(|c| ink(c, paper)).collect();
        let colours: Vec<[f32; 3]> = corners
            .crops
            .iter()
            .zip(&shape)
            .map(|(c, k)| ink_colour(c, k))
            .collect();
        let rank_box = rank_box(&shape);
        let inks: Vec<Vec<f32>> = corners.crops.iter().map(|c| ink(c, paper)).collect();
        let classes = colour_classes(&colours);
        Features {
            colours,
            classes,
            shape_sim: glyph_likeness(&inks, rank_box),
            colour,
            pip_box: pip_box(rank_box),
            pip_share: pip_share(&shape, rank_box),
            glyph_found: glyph_found(&shape, rank_box),
        }
    }

    /// What tells corners `a` and `b` apart under the rank glyph (the suit's pip): `a`'s RGB
    /// there less `b`'s.
    pub fn pip_difference(&self, a: usize, b: usize) -> Vec<f32> {
        let (x, y) = (
            rgb_inside(&self.colour[a], self.pip_box),
            rgb_inside(&self.colour[b], self.pip_box),
        );
        x.iter().zip(&y).map(|(p, q)| p - q).collect()
    }
}

/// Groups the corners of one deal by rank and by suit.
///
/// First by the colour of the ink: four suit colours give the suits at once; with red and black,
/// each colour's 26 corners pair up into the 13 pairs most alike (one rank, two suits: the same
/// rank glyph and face layout in the same colour), and each pair is turned so that its first
/// corners show the same suit. Then the ranks: the classes are matched to each other by shape with
/// the colour left out.
pub fn group(corners: &Corners) -> Groups {
    let features = Features::of(corners);
    let (classes, shape_sim) = (&features.classes, &features.shape_sim);
    // Every class as rows of corners of one rank: 13 rows of one corner (four colours), or 13
    // rows of a pair (red and black).
    let rows_of: Vec<Vec<Vec<usize>>> = classes
        .iter()
        .map(|class| {
            if class.len() == 13 {
                return class.iter().map(|&i| vec![i]).collect();
            }
            let sub: Vec<Vec<f32>> = class
                .iter()
                .map(|&a| class.iter().map(|&b| shape_sim[a][b]).collect())
                .collect();
            let mut pairs: Vec<[usize; 2]> = partition(&sub, 2)
                .into_iter()
                .map(|p| [class[p[0]], class[p[1]]])
                .collect();
            orient(&mut pairs, &features);
            pairs.into_iter().map(|p| p.to_vec()).collect()
        })
        .collect();
    // Match every class's rows to the first class's rows by shape.
    let mut grid: Vec<Vec<usize>> = rows_of[0].clone();
    for rows in &rows_of[1..] {
        let score: Vec<Vec<f32>> = grid
            .iter()
            .map(|g| {
                rows.iter()
                    .map(|r| {
                        let s: f32 = g
                            .iter()
                            .flat_map(|&a| r.iter().map(move |&b| (a, b)))
                            .map(|(a, b)| shape_sim[a][b])
                            .sum();
                        s / (g.len() * r.len()) as f32
                    })
                    .collect()
            })
            .collect();
        let to = assign(&score);
        for (g, &k) in grid.iter_mut().zip(&to) {
            g.extend_from_slice(&rows[k]);
        }
    }
    Groups {
        ranks: grid.into_iter().map(|g| [g[0], g[1], g[2], g[3]]).collect(),
    }
}

/// How many times larger than a template each corner is drawn on the sheet.
pub const SHEET_ZOOM: u32 = 3;
const SHEET_GAP: u32 = 6;
/// Font pixel size of the sheet's labels.
const SHEET_FONT: u32 = 4;

/// Where the corner of rank group `row`, suit group `col` is drawn on the sheet: x, y.
pub fn sheet_cell(row: usize, col: usize) -> (u32, u32) {
    let (cw, ch) = (TEMPLATE_W * SHEET_ZOOM, TEMPLATE_H * SHEET_ZOOM);
    let left = SHEET_FONT * crate::table::font::ADVANCE * 2 + 2 * SHEET_GAP;
    let top = SHEET_FONT * crate::table::font::HEIGHT + 2 * SHEET_GAP;
    (
        left + col as u32 * (cw + SHEET_GAP),
        top + row as u32 * (ch + SHEET_GAP),
    )
}

/// The grouping as one picture for the user: 13 rows (rank groups, numbered 1-13) of 4 corners,
/// in 4 columns (suit groups, lettered A-D).
pub fn sheet(corners: &Corners, groups: &Groups) -> image::RgbImage {
    let (cw, ch) = (TEMPLATE_W * SHEET_ZOOM, TEMPLATE_H * SHEET_ZOOM);
    let (w, h) = sheet_cell(groups.ranks.len(), 4);
    let mut img = image::RgbImage::from_pixel(w, h, image::Rgb([40, 90, 60]));
    let ink = image::Rgb([255, 255, 255]);
    let text = |img: &mut image::RgbImage, t: &str, x: u32, y: u32| {
        for (k, c) in t.chars().enumerate() {
            let Some(rows) = crate::table::font::glyph(c) else {
                continue;
            };
            for (gy, row) in rows.iter().enumerate() {
                for (gx, b) in row.bytes().enumerate() {
                    if b != b'#' {
                        continue;
                    }
                    let ox = x + (k as u32 * crate::table::font::ADVANCE + gx as u32) * SHEET_FONT;
                    let oy = y + gy as u32 * SHEET_FONT;
                    for dy in 0..SHEET_FONT {
                        for dx in 0..SHEET_FONT {
                            if ox + dx < img.width() && oy + dy < img.height() {
                                img.put_pixel(ox + dx, oy + dy, ink);
                            }
                        }
                    }
                }
            }
        }
    };
    for col in 0..4 {
        let (x, _) = sheet_cell(0, col);
        text(
            &mut img,
            &((b'A' + col as u8) as char).to_string(),
            x + cw / 2 - 10,
            SHEET_GAP,
        );
    }
    for (row, group) in groups.ranks.iter().enumerate() {
        let (_, y) = sheet_cell(row, 0);
        text(&mut img, &(row + 1).to_string(), SHEET_GAP, y + ch / 2 - 14);
        for (col, &i) in group.iter().enumerate() {
            let (x, y) = sheet_cell(row, col);
            let crop = &corners.crops[i];
            for py in 0..ch {
                for px in 0..cw {
                    let k = (((py / SHEET_ZOOM) * TEMPLATE_W + px / SHEET_ZOOM) * 3) as usize;
                    let v = |c: usize| crop[k + c].round().clamp(0.0, 255.0) as u8;
                    img.put_pixel(x + px, y + py, image::Rgb([v(0), v(1), v(2)]));
                }
            }
        }
    }
    img
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_give_a_deck() {
        let cards: Vec<Card> = crate::cards::Deck::shuffled(3).cards().to_vec();
        let g = Groups::of_cards(&cards);
        let ranks: Vec<Rank> = Rank::all().collect();
        let suits = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];
        assert_eq!(g.cards(&ranks, &suits).unwrap(), cards);
        let mut twice = ranks.clone();
        twice[3] = twice[2];
        assert!(g.cards(&twice, &suits).unwrap_err().contains("two groups"));
    }
}
