//! One card's index corner, sampled once and viewed at every small offset.

use super::*;
use crate::vision::templates::{TEMPLATE_H, TEMPLATE_W};
use std::sync::{Mutex, OnceLock};

pub use crate::vision::dots::dots;
pub(crate) use crate::vision::dots::{row_dots, Rows};
pub use crate::vision::sampling::window_of;
pub(crate) use crate::vision::sampling::{across, soften_across};

/// A card's index corner as sampled (with the margin views are cut from), and softened whole.
pub(crate) struct Corner {
    pub(crate) raw: Vec<f32>,
    /// The first pass of softening (see `across`).
    pub(crate) across: Vec<f32>,
    pub(crate) soft: Vec<f32>,
    pub(crate) w: usize,
    pub(crate) h: usize,
    /// Running sums over the softened corner of each channel and of all squares:
    /// `running[y*(w+1) + x]` sums the pixels above and left of (x, y).
    pub(crate) running: Vec<[f64; 4]>,
}

impl Corner {
    pub(crate) fn new(raw: Vec<f32>, w: usize, h: usize) -> Corner {
        let across = across(&raw, w, h);
        let mut soft = soften_across(&across, w, h);
        // Zeros to spare after the last row, for `row_dots` reading a window's padded rows.
        soft.extend([0.0; PADDED_ROW - TEMPLATE_W as usize * 3]);
        let mut running = vec![[0.0f64; 4]; (w + 1) * (h + 1)];
        for y in 0..h {
            let mut row = [0.0f64; 4];
            for x in 0..w {
                let px = &soft[(y * w + x) * 3..(y * w + x) * 3 + 3];
                for c in 0..3 {
                    row[c] += px[c] as f64;
                    row[3] += (px[c] as f64).powi(2);
                }
                let above = running[y * (w + 1) + x + 1];
                running[(y + 1) * (w + 1) + x + 1] = std::array::from_fn(|i| above[i] + row[i]);
            }
        }
        Corner {
            raw,
            across,
            soft,
            w,
            h,
            running,
        }
    }

    /// For the border pixels (see `border`) of the template-sized window at (ox, oy): what
    /// softening the window alone (edges repeated, as `soften` does a template) gives less what
    /// the window of the softened corner holds. Along the top and bottom rows that is the step
    /// between the edge row and the row outside it, in the pass across; down the sides, the steps
    /// between the edge column and the column outside it, softened down; the four corners are
    /// worked out in full.
    pub(crate) fn border_fix(&self, ox: usize, oy: usize) -> Vec<f32> {
        let (tw, th, w) = (TEMPLATE_W as usize, TEMPLATE_H as usize, self.w);
        // Patch coordinates of the window's edges and of the rows and columns just outside them
        // (the patch's own edges repeated, as its softening did).
        let (top, bottom) = (oy, oy + th - 1);
        let (above, below) = (top.saturating_sub(1), (bottom + 1).min(self.h - 1));
        let (left, right) = (ox, ox + tw - 1);
        let after = (right + 1).min(w - 1);
        let at = |x: usize, y: usize| (y * w + x) * 3;
        let mut fix = vec![0.0f32; border().len() * 3];
        for x in 1..tw - 1 {
            for c in 0..3 {
                let (i, j) = (at(ox + x, top) + c, at(ox + x, above) + c);
                fix[x * 6 + c] = (self.across[i] - self.across[j]) / 16.0;
                let (i, j) = (at(ox + x, bottom) + c, at(ox + x, below) + c);
                fix[x * 6 + 3 + c] = (self.across[i] - self.across[j]) / 16.0;
            }
        }
        // Down the sides: the steps into the column outside, softened down [1 2 1] / 16 (the step
        // out of the right edge is the step into the column after it, turned round).
        let raw = &self.raw;
        let step = |x: usize, y: usize, c: usize| {
            raw[(y * w + x) * 3 + c] - raw[(y * w + x.saturating_sub(1)) * 3 + c]
        };
        let softened_step = |x: usize, y: usize, c: usize| {
            let (u, m, d) = (step(x, y - 1, c), step(x, y, c), step(x, y + 1, c));
            (u + 2.0 * m + d) / 16.0
        };
        for y in 1..th - 1 {
            let base = tw * 6 + (y - 1) * 6;
            for c in 0..3 {
                fix[base + c] = softened_step(left, oy + y, c);
                fix[base + 3 + c] = if after > right {
                    -softened_step(after, oy + y, c)
                } else {
                    0.0
                };
            }
        }
        // The corners: (0, 0), (0, th−1), (tw−1, 0), (tw−1, th−1).
        let raw = |x: usize, y: usize, c: usize| self.raw[at(ox + x, oy + y) + c];
        let across = |x: usize, y: usize, c: usize| {
            let (l, r) = (x.saturating_sub(1), (x + 1).min(tw - 1));
            raw(l, y, c) + 2.0 * raw(x, y, c) + raw(r, y, c)
        };
        for (x, y, slot) in [
            (0, 0, 0),
            (0, th - 1, 3),
            (tw - 1, 0, (tw - 1) * 6),
            (tw - 1, th - 1, (tw - 1) * 6 + 3),
        ] {
            let (u, d) = (y.saturating_sub(1), (y + 1).min(th - 1));
            for c in 0..3 {
                let exact = (across(x, u, c) + 2.0 * across(x, y, c) + across(x, d, c)) / 16.0;
                fix[slot + c] = exact - self.soft[at(ox + x, oy + y) + c];
            }
        }
        fix
    }

    /// The correlations of `template` with the template-sized windows at `at` (ox, oy) of the
    /// softened corner as they are, without the correction at their border that `View::at`
    /// makes: cheap, and close enough to pick the few offsets worth scoring exactly. `f32::MIN`
    /// for a flat window. (Several windows at a time, the template read once for them all.)
    pub(crate) fn rough_correlations<const N: usize>(
        &self,
        at: [(usize, usize); N],
        template: &Template,
    ) -> [f32; N] {
        let (tw, th) = (TEMPLATE_W as usize, TEMPLATE_H as usize);
        let starts = at.map(|(ox, oy)| &self.soft[(oy * self.w + ox) * 3..]);
        let sums = row_dots(starts, [&template.padded], self.rows());
        std::array::from_fn(|i| {
            let (ox, oy) = at[i];
            let [r, g, b, squares] = self.window_sums(ox, oy, tw, th);
            let n = (tw * th) as f64;
            let spread = squares - (r * r + g * g + b * b) / n;
            if spread <= 0.0 {
                return f32::MIN;
            }
            let mean = [r, g, b].map(|s| (s / n) as f32);
            correlation(sums[i][0], mean, spread.sqrt() as f32, template)
        })
    }

    /// How `row_dots` reads a template-sized window of the softened corner against a template's
    /// padded rows.
    pub(crate) fn rows(&self) -> Rows {
        Rows {
            count: TEMPLATE_H as usize,
            len: PADDED_ROW,
            a_stride: self.w * 3,
            b_stride: PADDED_ROW,
        }
    }

    /// Sums over the `tw`×`th` window at (ox, oy) of the softened corner: each channel, and all
    /// squares.
    pub(crate) fn window_sums(&self, ox: usize, oy: usize, tw: usize, th: usize) -> [f64; 4] {
        let at = |x: usize, y: usize| self.running[y * (self.w + 1) + x];
        let (a, b, c, d) = (
            at(ox, oy),
            at(ox + tw, oy),
            at(ox, oy + th),
            at(ox + tw, oy + th),
        );
        std::array::from_fn(|i| d[i] - b[i] - c[i] + a[i])
    }
}

/// The border pixels of a template-sized window, (x, y), in a fixed order: where softening a
/// window on its own (edges repeated, as the templates were) differs from cutting it out of the
/// softened corner.
pub(crate) fn border() -> &'static [(usize, usize)] {
    static BORDER: std::sync::OnceLock<Vec<(usize, usize)>> = std::sync::OnceLock::new();
    BORDER.get_or_init(|| {
        let (tw, th) = (TEMPLATE_W as usize, TEMPLATE_H as usize);
        let mut out: Vec<(usize, usize)> = (0..tw).flat_map(|x| [(x, 0), (x, th - 1)]).collect();
        out.extend((1..th - 1).flat_map(|y| [(0, y), (tw - 1, y)]));
        out
    })
}

/// `View::dot_in_place` of each of `views` (all of one look's corners, which share their width)
/// with each of `templates`: the window where it lies, then its border correction.
pub(crate) fn dots_in_place<const A: usize, const B: usize>(
    views: [&View; A],
    patches: &[Corner],
    templates: [&Template; B],
) -> [[f32; B]; A] {
    let inner = row_dots(
        views.map(|v| v.start(patches)),
        templates.map(|t| t.padded.as_slice()),
        patches[0].rows(),
    );
    let border = dots(
        views.map(|v| v.fix.as_slice()),
        templates.map(|t| t.border.as_slice()),
    );
    std::array::from_fn(|i| std::array::from_fn(|j| inner[i][j] + border[i][j]))
}

/// How many views `scores` takes at once: the sums of eight views with one template keep eight
/// additions under way at once, where fewer would wait on one another (while eight sums and the
/// values being read still fit in the processor's sixteen vector registers).
pub(crate) const VIEWS_AT_ONCE: usize = 8;

/// The correlations of `template` with up to `VIEWS_AT_ONCE` views of `look` (`views`, in order;
/// the rest are zero): all in one pass over the template.
pub(crate) fn scores(look: &Look, views: &[usize], template: &Template) -> [f32; VIEWS_AT_ONCE] {
    pub(crate) fn some<const N: usize>(
        look: &Look,
        views: &[usize],
        template: &Template,
    ) -> [f32; N] {
        let view = |j: usize| look.view(views[j]).expect("a view that is not flat");
        let dots: [[f32; 1]; N] =
            dots_in_place(std::array::from_fn(view), &look.patches, [template]);
        std::array::from_fn(|j| view(j).correlation(dots[j][0], template))
    }
    let mut out = [0.0; VIEWS_AT_ONCE];
    let n = views.len();
    match n {
        1 => out[..n].copy_from_slice(&some::<1>(look, views, template)),
        2 => out[..n].copy_from_slice(&some::<2>(look, views, template)),
        3 => out[..n].copy_from_slice(&some::<3>(look, views, template)),
        4 => out[..n].copy_from_slice(&some::<4>(look, views, template)),
        5 => out[..n].copy_from_slice(&some::<5>(look, views, template)),
        6 => out[..n].copy_from_slice(&some::<6>(look, views, template)),
        7 => out[..n].copy_from_slice(&some::<7>(look, views, template)),
        8 => out[..n].copy_from_slice(&some::<8>(look, views, template)),
        _ => panic!("{n} views at once"),
    }
    out
}

/// The correlation of a window with a normalised template, from their dot product and the
/// window's per-channel mean and its length once that is taken off. (The template's channels sum
/// to nearly zero; what is left is taken off exactly.)
pub(crate) fn correlation(dot: f32, mean: [f32; 3], norm: f32, template: &Template) -> f32 {
    (dot - (0..3).map(|c| mean[c] * template.sums[c]).sum::<f32>()) / norm
}

/// A template row's values rounded up to whole eights: the rows `row_dots` reads, in a template
/// and in a corner (whose softened values end with as many zeros to spare).
pub(crate) const PADDED_ROW: usize = (TEMPLATE_W as usize * 3).div_ceil(8) * 8;

/// A normalised template as `View::score` takes it: its values, and the sum of each channel.
#[derive(Clone)]
pub(crate) struct Template {
    pub(crate) values: Vec<f32>,
    pub(crate) sums: [f32; 3],
    /// The values on the border (see `border`), in its order.
    pub(crate) border: Vec<f32>,
    /// The values with each row padded with zeros to `PADDED_ROW` (see `row_dots`).
    pub(crate) padded: Vec<f32>,
}

impl Template {
    pub(crate) fn new(values: &[f32]) -> Template {
        let mut sums = [0.0f32; 3];
        for px in values.chunks_exact(3) {
            for c in 0..3 {
                sums[c] += px[c];
            }
        }
        let tw = TEMPLATE_W as usize;
        let border = border()
            .iter()
            .flat_map(|&(x, y)| (0..3).map(move |c| values[(y * tw + x) * 3 + c]))
            .collect();
        let row = tw * 3;
        let mut padded = vec![0.0; PADDED_ROW * TEMPLATE_H as usize];
        for (out, row) in padded
            .chunks_exact_mut(PADDED_ROW)
            .zip(values.chunks_exact(row))
        {
            out[..row.len()].copy_from_slice(row);
        }
        Template {
            values: values.to_vec(),
            sums,
            border,
            padded,
        }
    }
}

/// A template-sized window of a look's corner, softened on its own as the templates were: the
/// window of the softened corner, with its border pixels corrected by `fix`. Also its
/// per-channel mean and its length once that mean is taken off.
pub(crate) struct View {
    pub(crate) patch: u8,
    pub(crate) ox: u8,
    pub(crate) oy: u8,
    pub(crate) fix: Vec<f32>,
    pub(crate) mean: [f32; 3],
    pub(crate) norm: f32,
    /// The window normalised as the templates are, for duels (see `View::normalised`).
    pub(crate) normalised: OnceLock<Vec<f32>>,
}

impl View {
    /// The window at (ox, oy) of sampling `patch`; None for a flat window (as `normalised`).
    pub(crate) fn at(patches: &[Corner], patch: usize, ox: usize, oy: usize) -> Option<View> {
        let corner = &patches[patch];
        let (tw, th) = (TEMPLATE_W as usize, TEMPLATE_H as usize);
        let at = |x: usize, y: usize| ((y + oy) * corner.w + x + ox) * 3;
        let [r, g, b, q] = corner.window_sums(ox, oy, tw, th);
        let (mut sum, mut squares) = ([r, g, b], q);
        let fix = corner.border_fix(ox, oy);
        for (&(x, y), fix) in border().iter().zip(fix.chunks_exact(3)) {
            let i = at(x, y);
            for c in 0..3 {
                let (cut, fix) = (corner.soft[i + c] as f64, fix[c] as f64);
                sum[c] += fix;
                squares += fix * (2.0 * cut + fix);
            }
        }
        let n = (tw * th) as f64;
        let spread = squares - sum.iter().map(|s| s * s / n).sum::<f64>();
        let norm = spread.max(0.0).sqrt() as f32;
        if norm < 1e-3 * (n as f32).sqrt() * 4.0 {
            return None;
        }
        Some(View {
            patch: patch as u8,
            ox: ox as u8,
            oy: oy as u8,
            fix,
            mean: sum.map(|s| (s / n) as f32),
            norm,
            normalised: OnceLock::new(),
        })
    }

    /// Correlation of this view with a normalised template (zero mean per channel, unit length).
    pub(crate) fn score(&self, patches: &[Corner], template: &Template) -> f32 {
        self.correlation(self.dot_in_place(patches, template), template)
    }

    /// The correlation from the dot product of the window with a template.
    pub(crate) fn correlation(&self, dot: f32, template: &Template) -> f32 {
        correlation(dot, self.mean, self.norm, template)
    }

    /// The softened corner from the window's first value on: its rows lie `w` × 3 values apart
    /// (see `Rows`); the border correction `fix` is not in it.
    pub(crate) fn start<'a>(&self, patches: &'a [Corner]) -> &'a [f32] {
        let corner = &patches[self.patch as usize];
        &corner.soft[(self.oy as usize * corner.w + self.ox as usize) * 3..]
    }

    /// The dot product of the window (the view's part of the corner, corrected by `fix`) with a
    /// template's values, taken where the window lies in the corner, without cutting it out.
    pub(crate) fn dot_in_place(&self, patches: &[Corner], template: &Template) -> f32 {
        dots_in_place([self], patches, [template])[0][0]
    }

    /// The window (its part of the corner, corrected by `fix`) normalised as the templates are:
    /// zero mean per channel, unit length. Worked out when a duel first needs it.
    pub(crate) fn normalised(&self, patches: &[Corner]) -> &[f32] {
        self.normalised.get_or_init(|| {
            let corner = &patches[self.patch as usize];
            let (tw, th) = (TEMPLATE_W as usize, TEMPLATE_H as usize);
            let mut window = window_of(
                &corner.soft,
                corner.w,
                (self.ox as usize, self.oy as usize),
                (tw, th),
            );
            for (&(x, y), fix) in border().iter().zip(self.fix.chunks_exact(3)) {
                for c in 0..3 {
                    window[(y * tw + x) * 3 + c] += fix[c];
                }
            }
            let scale = 1.0 / self.norm;
            for px in window.chunks_exact_mut(3) {
                for (v, mean) in px.iter_mut().zip(self.mean) {
                    *v = (*v - mean) * scale;
                }
            }
            window
        })
    }

    /// Squared distance between this view normalised as the templates are (zero mean per
    /// channel, unit length) and `template`, over the runs of values `region` names only.
    pub(crate) fn distance(
        &self,
        patches: &[Corner],
        template: &[f32],
        region: &[std::ops::Range<usize>],
    ) -> f32 {
        let window = self.normalised(patches);
        // Eight running sums over each run, so that the additions need not wait on one another.
        let mut sums = [0.0f32; 8];
        for run in region {
            let (w, t) = (&window[run.clone()], &template[run.clone()]);
            let (mut ws, mut ts) = (w.chunks_exact(8), t.chunks_exact(8));
            for (w, t) in (&mut ws).zip(&mut ts) {
                for l in 0..8 {
                    let d = w[l] - t[l];
                    sums[l] += d * d;
                }
            }
            for (sum, (w, t)) in sums
                .iter_mut()
                .zip(ws.remainder().iter().zip(ts.remainder()))
            {
                let d = w - t;
                *sum += d * d;
            }
        }
        sums.iter().sum()
    }
}

/// What a card's index corner looked like against the templates.
pub struct Look {
    /// The corner sampled four ways (whole and half pixels).
    pub(crate) patches: Vec<Corner>,
    /// The views within `spread` of the anchor, per sampling, row by row; each cut out (see
    /// `View::at`) when first needed. None for a flat window.
    pub(crate) views: Vec<OnceLock<Option<View>>>,
    /// Where the views are centred in the sampled corner (whole template pixels), and how far
    /// around it they reach.
    pub(crate) anchor: (usize, usize),
    pub(crate) spread: usize,
    /// Per template: (best correlation, the view it came from).
    pub best: Vec<(f32, usize)>,
    /// How far the corner looked at was moved from the one asked for, in template pixels
    /// (across, down): a look again around the edge of a first look's views (see
    /// `Matcher::look_closely`).
    pub(crate) moved: (f32, f32),
    /// The duels (see `Matcher::duel`) worked out so far: (a, b, duel of a against b). A look is
    /// judged by one matcher only (the one it was taken with).
    pub(crate) duels: Mutex<Vec<(usize, usize, f32)>>,
}

impl Look {
    /// View `i` (see `views`).
    pub(crate) fn view(&self, i: usize) -> Option<&View> {
        let side = 2 * self.spread + 1;
        self.views[i]
            .get_or_init(|| {
                let (patch, at) = (i / (side * side), i % (side * side));
                let (ax, ay) = self.anchor;
                View::at(
                    &self.patches,
                    patch,
                    ax - self.spread + at % side,
                    ay - self.spread + at / side,
                )
            })
            .as_ref()
    }

    /// Where the best template fits, in template pixels from where the card's edges put the
    /// index box (across, down): from the corner the look was asked for, moved or not.
    pub fn offset(&self) -> (f32, f32) {
        let top = self.leader();
        // Half template pixels from the first view, which lies `spread` from the anchor.
        let (x, y) = self.lattice(self.best[top].1);
        let from = |anchor: usize, half: usize| {
            anchor as f32 + 0.5 * half as f32 - (self.spread + REACH) as f32
        };
        (
            self.moved.0 + from(self.anchor.0, x),
            self.moved.1 + from(self.anchor.1, y),
        )
    }

    /// The template that fits best.
    pub(crate) fn leader(&self) -> usize {
        (0..self.best.len())
            .max_by(|&a, &b| self.best[a].0.total_cmp(&self.best[b].0))
            .unwrap_or(0)
    }

    /// Whether the best template's best view is at the edge of the views tried.
    pub(crate) fn best_at_edge(&self) -> bool {
        let top = self.leader();
        let (x, y) = self.lattice(self.best[top].1);
        let last = 2 * (2 * self.spread + 1) - 1;
        x == 0 || y == 0 || x == last || y == last
    }

    /// Where view `i` is, in half template pixels across and down from the first view: 2 ×
    /// its whole-pixel offset + its sampling's half pixel.
    pub(crate) fn lattice(&self, i: usize) -> (usize, usize) {
        let side = 2 * self.spread + 1;
        let (patch, at) = (i / (side * side), i % (side * side));
        (2 * (at % side) + patch % 2, 2 * (at / side) + patch / 2)
    }

    /// The view at (x, y) in half template pixels (the inverse of `lattice`).
    pub(crate) fn view_at(&self, x: usize, y: usize) -> usize {
        let side = 2 * self.spread + 1;
        (x % 2 + 2 * (y % 2)) * side * side + (y / 2) * side + x / 2
    }

    /// How far apart views `i` and `j` are, in half template pixels (the larger of across and
    /// down).
    pub(crate) fn apart(&self, i: usize, j: usize) -> usize {
        let ((xi, yi), (xj, yj)) = (self.lattice(i), self.lattice(j));
        xi.abs_diff(xj).max(yi.abs_diff(yj))
    }

    /// The best correlation of any template.
    pub fn lead(&self) -> f32 {
        self.best.iter().map(|b| b.0).fold(f32::MIN, f32::max)
    }

    /// Template indices by correlation, best first.
    pub fn ranked(&self) -> Vec<(f32, usize)> {
        let mut r: Vec<(f32, usize)> = self
            .best
            .iter()
            .enumerate()
            .map(|(k, b)| (b.0, k))
            .collect();
        r.sort_by(|a, b| b.0.total_cmp(&a.0));
        r
    }

    /// The least squared distance, over the template values `region` names only, between
    /// `template` and view `around` or a view half a template pixel from it (across, down or
    /// both).
    pub(crate) fn nearest(
        &self,
        template: &[f32],
        region: &[std::ops::Range<usize>],
        around: usize,
    ) -> Option<f32> {
        let side = 2 * self.spread + 1;
        let (x, y) = self.lattice(around);
        let mut best: Option<f32> = None;
        for yy in y.saturating_sub(1)..=(y + 1).min(2 * side - 1) {
            for xx in x.saturating_sub(1)..=(x + 1).min(2 * side - 1) {
                let Some(view) = self.view(self.view_at(xx, yy)) else {
                    continue;
                };
                let d = view.distance(&self.patches, template, region);
                best = Some(best.map_or(d, |b: f32| b.min(d)));
            }
        }
        best
    }
}
