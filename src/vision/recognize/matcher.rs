//! The 52 templates of one set, ready to compare with a card's index corner.

use super::*;
use crate::cards::Card;
use crate::vision::suits::{SuitPrototypes, SUIT_BOX};
use crate::vision::templates::{PartManifest, Templates, TEMPLATE_H, TEMPLATE_W};
use image::RgbaImage;
use std::sync::{Arc, Mutex, OnceLock};

pub(crate) use crate::vision::dots::normalised;
pub use crate::vision::sampling::sample_grid;
pub(crate) use crate::vision::sampling::soften;

/// How far from the others, in template pixels either way, a template must lie on its card to
/// have its highlight band painted apart from theirs (see `Matcher::lined_up_apart`): face cards
/// with no index lined up on their picture lie 4 or more off; the rest within a pixel or so.
pub(crate) const APART_PLACED: f32 = 2.5;

/// What a matcher under a highlight was made for (see `Matcher::under_band`): the band, card
/// width and shift (as bits), and the colour.
#[derive(Clone, Copy, PartialEq)]
pub(crate) struct BandKey {
    pub(crate) band: [u32; 5],
    pub(crate) colour: [u8; 3],
}

pub(crate) type BandedMatchers = Vec<(BandKey, Arc<Matcher>)>;

/// How many matchers under a highlight a matcher keeps (see `under_band`).
pub(crate) const KEPT_BANDED: usize = 8;

/// Templates prepared for matching: normalised vectors.
#[derive(Clone)]
pub struct Matcher {
    pub(crate) raw: Vec<Vec<f32>>,
    /// The templates as prepared (see `prepare`), by card index.
    pub(crate) templates: Vec<Template>,
    /// The normalised mean of all templates: what every index corner shares (card edge, layout).
    pub(crate) mean: Template,
    /// The mean of the templates of each rank (four suits), and of each suit (thirteen ranks):
    /// where two cards of one suit or one rank differ, free of what sets single templates apart
    /// (how their glyphs fell on the pixels, the cards around them).
    pub(crate) rank_means: Vec<Vec<f32>>,
    pub(crate) suit_means: Vec<Vec<f32>>,
    /// How far apart the templates show two suits (by suit index): see `suits_apart`. (Ranks are
    /// what an index corner shows first; of suits, some themes show none there.)
    pub(crate) suits_apart: Vec<Vec<f32>>,
    /// `suits_apart` of the templates as calibrated, before they were blurred for smaller cards:
    /// what a corner shows of the suits at all (blurring shows no more, though it can move the
    /// figure either way).
    pub(crate) calibrated_suits_apart: Vec<Vec<f32>>,
    /// The same for two ranks (by rank index): see `ranks_apart`.
    pub(crate) ranks_apart: Vec<Vec<f32>>,
    pub index_box: [f32; 4],
    pub aspect: f32,
    /// Card width the templates were made at, and the width they are prepared for now.
    pub(crate) calibrated_width: f32,
    pub(crate) prepared_width: f32,
    /// The suits' glyphs under the rank, when the template set has them (see `suits`).
    pub(crate) suits: Option<SuitPrototypes>,
    /// Per pair of templates (a × 52 + b), where they differ, worked out when first needed.
    pub(crate) duel_pairs: Arc<Vec<OnceLock<Option<DuelPair>>>>,
    /// The matchers under a highlight made last (see `under_band`), shared by clones.
    pub(crate) banded: Arc<Mutex<BandedMatchers>>,
    /// The top strip and gap templates, when the template set has them (see `PartManifest`).
    pub(crate) strip: Option<Box<Matcher>>,
    pub(crate) gap: Option<Box<Matcher>>,
    /// Whether two cards' duels weigh where their own templates differ, not where their suits'
    /// or ranks' means do: templates of a part of the card that shows pips or a picture, whose
    /// suits differ card by card (a two's pip, a king's face), not in one glyph.
    pub(crate) pairwise: bool,
    /// Where each card's template lies on the card, in template pixels (by card index), when the
    /// set says (see `Manifest::placed`).
    pub(crate) placed: Option<Vec<(f32, f32)>>,
    /// The cards whose corners hold no index, only a picture, as bits by card index (see
    /// `Manifest::no_index`; 0 when the set says none): such templates are left out of what the
    /// corners share (the mean that places a look, and the rank and suit means duels weigh by).
    pub(crate) no_index: u64,
    /// Whether the cards' faces have no border (see `Manifest::borderless`).
    pub borderless: bool,
    /// Whether the suit is read beside the rank, not in the corner (see `Manifest::suit_beside`).
    pub(crate) suit_beside: bool,
    /// Where the card over a covered card begins, in card widths below the card's top (the
    /// layout's row step), when the reader says (see `cover_at`): its outline can reach into the
    /// bottom rows of a covered card's index box.
    pub(crate) covered_at: Option<f32>,
    /// The cards whose templates were cut from covered cards, as bits by card index (see
    /// `Manifest::covered`; 0 when the set does not say).
    pub(crate) cut_covered: u64,
}

impl Matcher {
    pub fn new(templates: &Templates) -> Matcher {
        let m = &templates.manifest;
        let mut matcher = Matcher::from_raw(
            values_of(&templates.images),
            m.index_box,
            m.aspect,
            m.card_width,
        );
        matcher.suits = templates
            .suit_images
            .as_deref()
            .and_then(|images| SuitPrototypes::new(images, m.suit_box.unwrap_or(SUIT_BOX)));
        let part = |part: &Option<PartManifest>, images: &Option<Vec<image::RgbImage>>| {
            let (part, images) = (part.as_ref()?, images.as_ref()?);
            let values = values_of(images);
            let mut matcher = Matcher::from_raw(values, part.index_box, m.aspect, m.card_width);
            matcher.pairwise = true;
            Some(Box::new(matcher))
        };
        matcher.strip = part(&m.strip, &templates.strip_images);
        matcher.gap = part(&m.gap, &templates.gap_images);
        matcher.borderless = m.borderless;
        matcher.suit_beside = m.suit_beside;
        matcher.placed = m.placed.as_ref().and_then(|placed| {
            Card::all()
                .map(|c| placed.get(&c.to_string()).map(|&[x, y]| (x, y)))
                .collect()
        });
        matcher.cut_covered = m.covered.as_deref().map_or(0, card_bits);
        if let Some(cards) = &m.no_index {
            matcher.leave_out(card_bits(cards));
        }
        matcher
    }

    /// Marks the templates whose corners hold no index (`no_index`) and leaves them out of what
    /// the corners share.
    fn leave_out(&mut self, no_index: u64) {
        self.no_index = no_index;
        let vectors = self.templates.iter().map(|t| t.values.clone()).collect();
        self.set_vectors(vectors);
        self.calibrated_suits_apart = self.suits_apart.clone();
    }

    /// A matcher of templates given as RGB values (by card index), cut at `index_box` from cards
    /// `card_width` pixels wide.
    pub(crate) fn from_raw(
        raw: Vec<Vec<f32>>,
        index_box: [f32; 4],
        aspect: f32,
        card_width: f32,
    ) -> Matcher {
        let (tw, th) = (TEMPLATE_W as usize, TEMPLATE_H as usize);
        let vectors: Vec<Vec<f32>> = raw
            .iter()
            .map(|values| {
                normalised(&soften(values, tw, th)).unwrap_or_else(|| vec![0.0; values.len()])
            })
            .collect();
        let (rank_means, suit_means) = rank_and_suit_means(&vectors, 0);
        let apart = suits_apart(&vectors, &suit_means);
        Matcher {
            raw,
            templates: vectors.iter().map(|v| Template::new(v)).collect(),
            mean: Template::new(&mean_of(&vectors, 0)),
            calibrated_suits_apart: apart.clone(),
            suits_apart: apart,
            ranks_apart: ranks_apart(&vectors, &rank_means),
            rank_means,
            suit_means,
            index_box,
            aspect,
            calibrated_width: card_width,
            prepared_width: card_width,
            suits: None,
            duel_pairs: fresh_duel_pairs(),
            banded: Arc::default(),
            strip: None,
            gap: None,
            pairwise: false,
            placed: None,
            no_index: 0,
            borderless: false,
            suit_beside: false,
            covered_at: None,
            cut_covered: 0,
        }
    }

    /// The templates as a card under a highlight shows them: a band painted `colour` inside the
    /// card's left and top edges, reaching `band` = (across, down) card widths in from them, for
    /// cards `card_w` pixels wide. Matched against such a card, the band is alike in all of them,
    /// and what the band leaves of each glyph decides (a 6 whose left stroke is covered is not
    /// taken for a 5).
    ///
    /// `shift` is where the templates sit in a corner, in template pixels from where the card's
    /// edges put the index box (see `Look::offset`): the band lies along the edges. A template
    /// the set says was lined up apart from the others on its card (`lined_up_apart`) has its
    /// band that much further off: a face card with no index can lie far from the others
    /// (swiss-xvii's Jd, 6.4 template pixels right of the median), and a band painted where the
    /// others sit covered 4 columns of its picture that the selected card shows (unsure at
    /// 2560x1440@2.5, deals 40 and 41).
    ///
    /// The last few made are kept: a card selected stays so over frame after frame, and the
    /// highlight of a theme at one size is the same whichever card it is on.
    pub fn under_band(
        &self,
        band: (f32, f32),
        colour: [u8; 3],
        card_w: f32,
        shift: (f32, f32),
    ) -> Arc<Matcher> {
        let key = BandKey {
            band: [band.0, band.1, card_w, shift.0, shift.1].map(f32::to_bits),
            colour,
        };
        let kept = |banded: &BandedMatchers| {
            let found = banded.iter().find(|(k, _)| *k == key);
            found.map(|(_, m)| Arc::clone(m))
        };
        if let Some(m) = kept(&self.banded.lock().expect("banded matchers")) {
            return m;
        }
        let m = Arc::new(self.make_under_band(band, colour, card_w, shift));
        let mut banded = self.banded.lock().expect("banded matchers");
        if kept(&banded).is_none() {
            if banded.len() == KEPT_BANDED {
                banded.remove(0);
            }
            banded.push((key, Arc::clone(&m)));
        }
        m
    }

    /// `under_band`, made afresh.
    pub(crate) fn make_under_band(
        &self,
        band: (f32, f32),
        colour: [u8; 3],
        card_w: f32,
        shift: (f32, f32),
    ) -> Matcher {
        let [bx, by, bw, bh] = self.index_box;
        let (tw, th) = (TEMPLATE_W as usize, TEMPLATE_H as usize);
        let (sx, sy) = (bw / tw as f32, bh / th as f32);
        // How much of a template pixel starting `start` card widths in, `size` wide, lies within
        // `reach` of the edge.
        let covered = |start: f32, size: f32, reach: f32| ((reach - start) / size).clamp(0.0, 1.0);
        let apart = self.lined_up_apart();
        let raw = self
            .raw
            .iter()
            .enumerate()
            .map(|(k, values)| {
                let (ax, ay) = apart[k];
                let shift = (shift.0 + ax, shift.1 + ay);
                let mut out = values.clone();
                for j in 0..th {
                    let down = covered(by + (j as f32 + shift.1) * sy, sy, band.1);
                    for i in 0..tw {
                        let part = covered(bx + (i as f32 + shift.0) * sx, sx, band.0).max(down);
                        let at = (j * tw + i) * 3;
                        for c in 0..3 {
                            out[at + c] += part * (colour[c] as f32 - out[at + c]);
                        }
                    }
                }
                out
            })
            .collect();
        let mut m = Matcher::from_raw(raw, self.index_box, self.aspect, self.calibrated_width);
        if self.no_index != 0 {
            m.leave_out(self.no_index);
        }
        // Under the band as elsewhere, the suit is read beside the rank.
        m.suit_beside = self.suit_beside;
        (m.covered_at, m.cut_covered) = (self.covered_at, self.cut_covered);
        m.prepare(card_w);
        m
    }

    /// Per template, how far from the others it lies on its card, in template pixels (from the
    /// median of where the set says they lie, `placed`), where that is more than `APART_PLACED`
    /// either way; else (and for a set that does not say) nothing. Each template's own
    /// `placed` differs from the median by up to a pixel or so without being apart: painting
    /// every band there instead turned selected cards unsure and some wrong (anglo_modern,
    /// ancient_french at 800x600).
    pub(crate) fn lined_up_apart(&self) -> Vec<(f32, f32)> {
        let Some(placed) = &self.placed else {
            return vec![(0.0, 0.0); self.raw.len()];
        };
        let mut xs: Vec<f32> = placed.iter().map(|p| p.0).collect();
        let mut ys: Vec<f32> = placed.iter().map(|p| p.1).collect();
        let (mx, my) = (median(&mut xs), median(&mut ys));
        placed
            .iter()
            .map(|&(x, y)| {
                let (dx, dy) = (x - mx, y - my);
                if dx.abs().max(dy.abs()) > APART_PLACED {
                    (dx, dy)
                } else {
                    (0.0, 0.0)
                }
            })
            .collect()
    }

    /// The size of a template pixel on cards `card_w` pixels wide, across and down.
    pub(crate) fn template_pixel(&self, card_w: f32) -> (f32, f32) {
        let [_, _, bw, bh] = self.index_box;
        (
            bw * card_w / TEMPLATE_W as f32,
            bh * card_w / TEMPLATE_H as f32,
        )
    }

    /// The suits' glyphs under the rank, when the template set has them.
    pub fn suit_glyphs(&self) -> Option<&SuitPrototypes> {
        self.suits.as_ref()
    }

    /// Whether the templates tell every two suits apart (see `suits_apart`): a theme whose index
    /// corner holds no suit does not.
    pub fn shows_suits(&self) -> bool {
        self.suits_apart.iter().flatten().all(|&a| a >= MIN_APART)
    }

    /// Says where the card over a covered card begins, in card widths below the card's top (the
    /// layout's row step): duels leave out the rows its outline can reach (see `outline_rows`).
    pub fn cover_at(&mut self, row_step: f32) {
        if self.covered_at != Some(row_step) {
            self.covered_at = Some(row_step);
            self.duel_pairs = fresh_duel_pairs();
        }
    }

    /// The first template row that a duel between cards `a` and `b` weighs no more: where the
    /// outline of a card over a covered card can reach, the rows whose bottom lies within
    /// `OUTLINE_REACH` pixels of where that card begins (see `cover_at`) on cards as wide as at
    /// calibration, when one of the two templates was cut from a covered card and the other from
    /// a card seen whole (see `cut_covered`). There the first can show a line along its bottom
    /// that the second does not, and where a corner read shows the line too, over the glyph it
    /// hides, the line outweighed the glyphs above it (anglo calibrated at 800x600: a covered As
    /// read as the covered Ac, 0.8 ahead). Two templates cut alike show the line alike, or
    /// neither does, and keep every row: leaving the rows out of every duel made calibration at
    /// 800x600 refuse paris, whose clubs and spades show their suits there (read back on cards
    /// two thirds as wide, they were read as each other). `TEMPLATE_H` when no row is left out.
    pub(crate) fn outline_rows(&self, a: usize, b: usize) -> usize {
        let th = TEMPLATE_H as usize;
        let cut = |k: usize| (self.cut_covered >> k) & 1;
        let Some(row_step) = self.covered_at.filter(|_| cut(a) != cut(b)) else {
            return th;
        };
        let [_, by, _, bh] = self.index_box;
        let reached = row_step - OUTLINE_REACH / self.calibrated_width;
        (0..th)
            .find(|&y| by + (y + 1) as f32 * bh / th as f32 > reached)
            .unwrap_or(th)
    }

    /// Takes `vectors` (normalised, by card index) as the templates, with what they share.
    pub(crate) fn set_vectors(&mut self, vectors: Vec<Vec<f32>>) {
        self.mean = Template::new(&mean_of(&vectors, self.no_index));
        (self.rank_means, self.suit_means) = rank_and_suit_means(&vectors, self.no_index);
        self.suits_apart = suits_apart(&vectors, &self.suit_means);
        self.ranks_apart = ranks_apart(&vectors, &self.rank_means);
        self.templates = vectors.iter().map(|v| Template::new(v)).collect();
        self.duel_pairs = fresh_duel_pairs();
    }

    /// Looks at the index corner of a card whose top-left is (x, y): correlation with every
    /// template, each at its best offset of up to three template pixels around where the corner
    /// sits (the offset that best fits what all cards share), and at half-pixel shifts.
    ///
    /// The corner is sampled with a margin and softened once; views are windows of it, corrected
    /// at their border to what softening each alone gives (see `View`).
    pub fn look(&self, frame: &RgbaImage, x: f32, y: f32, card_w: f32) -> Look {
        self.look_within(frame, x, y, card_w, SPREAD)
    }

    /// As `look`, but every template at every whole-pixel view of the sampled corner, around
    /// where the card's edges put it: for a corner whose templates were lined up further off
    /// than what all cards share can tell (a face card's picture without an index: the mean of
    /// all templates can fit it best a long way off).
    pub fn look_thoroughly(&self, frame: &RgbaImage, x: f32, y: f32, card_w: f32) -> Look {
        self.look_within(frame, x, y, card_w, REACH)
    }

    /// `look`, and as the reader takes it: a best fit at the edge of the views tried may lie
    /// further off (a corner cut from the wrong edge), so it is looked at again around it, and the
    /// better look kept. Where no template fits well and `thoroughly` allows, every template is
    /// tried at every view too (see `look_thoroughly`), the same way, and the better look kept
    /// (swiss-xvii's picture-only corners, cut a few pixels off at calibration, fitted at the
    /// edge on cards smaller than then: 0.52 for Js at 800x600, 0.96 around it).
    pub fn look_closely(
        &self,
        frame: &RgbaImage,
        at: (f32, f32),
        card_w: f32,
        thoroughly: bool,
    ) -> Look {
        let (x, y) = at;
        let around_edge = |look_at: &dyn Fn(f32, f32) -> Look| {
            let look = look_at(x, y);
            if !look.best_at_edge() {
                return look;
            }
            let ((ox, oy), (px, py)) = (look.offset(), self.template_pixel(card_w));
            let mut again = look_at(x + ox * px, y + oy * py);
            again.moved = (ox, oy);
            if again.lead() > look.lead() {
                again
            } else {
                look
            }
        };
        let look = around_edge(&|x, y| self.look(frame, x, y, card_w));
        if look.lead() >= MIN_SCORE || !thoroughly {
            return look;
        }
        let thorough = around_edge(&|x, y| self.look_thoroughly(frame, x, y, card_w));
        if thorough.lead() > look.lead() {
            thorough
        } else {
            look
        }
    }

    /// `look`, trying templates at views up to `spread` template pixels around the anchor (when
    /// `spread` is `REACH`: around where the card's edges put the corner, every view).
    pub(crate) fn look_within(
        &self,
        frame: &RgbaImage,
        x: f32,
        y: f32,
        card_w: f32,
        spread: usize,
    ) -> Look {
        let [bx, by, _, _] = self.index_box;
        let (px, py) = self.template_pixel(card_w);
        let (tw, th) = (TEMPLATE_W as usize, TEMPLATE_H as usize);
        let (pw, ph) = (tw + 2 * REACH, th + 2 * REACH);
        let r = REACH as f32;
        // The corner sampled at whole and half template pixels, across and down: the cards'
        // positions fall between pixels, and the finer glyph strokes tell apart only when lined up.
        // (In the order (0, 0), (½, 0), (0, ½), (½, ½).)
        let halves = [0.0, 0.5];
        let patches: Vec<Corner> = sample_grid(
            frame,
            &halves.map(|dx| x + bx * card_w - (r - dx) * px),
            &halves.map(|dy| y + by * card_w - (r - dy) * py),
            (pw as f32 * px, ph as f32 * py),
            (pw, ph),
        )
        .into_iter()
        .map(|patch| Corner::new(patch.rgb, pw, ph))
        .collect();
        // Where the corner sits: the offset that best fits what all cards share. Every whole-pixel
        // offset is scored roughly (see `Corner::rough_correlations`), the best few exactly.
        let span = 2 * REACH + 1;
        let mut first: Vec<Option<Option<View>>> = (0..span * span).map(|_| None).collect();
        let mut anchor = (f32::MIN, REACH, REACH);
        // Templates were lined up by the same shared features, give or take a few pixels; the
        // thorough look centres its views where the card's edges put the corner.
        if spread != REACH {
            let offsets: Vec<usize> = (0..span * span).collect();
            let rough: Vec<f32> = offsets
                .chunks(VIEWS_AT_ONCE)
                .flat_map(|some| {
                    // (A short last few repeats an offset.)
                    let at: [(usize, usize); VIEWS_AT_ONCE] = std::array::from_fn(|j| {
                        let i = some[j.min(some.len() - 1)];
                        (i % span, i / span)
                    });
                    let scores = patches[0].rough_correlations(at, &self.mean);
                    scores.into_iter().take(some.len())
                })
                .collect();
            let mut order: Vec<usize> = (0..span * span).collect();
            order.sort_by(|&a, &b| rough[b].total_cmp(&rough[a]));
            for &i in order.iter().take(ANCHOR_CANDIDATES) {
                first[i] = Some(View::at(&patches, 0, i % span, i / span));
            }
            // (Scored in place, as every view is: windows are read where they lie in the corner.)
            for (i, view) in first.iter().enumerate() {
                if let Some(Some(view)) = view {
                    let s = view.correlation(view.dot_in_place(&patches, &self.mean), &self.mean);
                    if s > anchor.0 {
                        anchor = (s, i % span, i / span);
                    }
                }
            }
        }
        let clamp = |a: usize| a.clamp(spread, 2 * REACH - spread);
        let (ax, ay) = (clamp(anchor.1), clamp(anchor.2));
        let side = 2 * spread + 1;
        // The views of the other samplings are cut out when first needed.
        let views: Vec<OnceLock<Option<View>>> = (0..4 * side * side)
            .map(|i| {
                let (patch, at) = (i / (side * side), i % (side * side));
                let (ox, oy) = (ax - spread + at % side, ay - spread + at / side);
                match first[oy * span + ox].take() {
                    Some(view) if patch == 0 => OnceLock::from(view),
                    _ => OnceLock::new(),
                }
            })
            .collect();
        let look = Look {
            patches,
            views,
            anchor: (ax, ay),
            spread,
            best: Vec::new(),
            moved: (0.0, 0.0),
            duels: Mutex::new(Vec::new()),
        };
        // Every template at the anchor; then those not far behind the best climb uphill from
        // there over the views of all four samplings (see `climb`). The thorough look, for
        // corners lined up far off, instead scans every template at the views within half a
        // pixel of the anchor, the rest within a pixel and every whole-pixel view, then follows
        // those that come close to the best uphill from their best view, in half-pixel steps.
        let at = |x: usize, y: usize| look.view_at(x, y);
        let near = |i: usize| {
            let (x, y) = look.lattice(i);
            let span = 2 * (spread - 1)..=2 * (spread + 1) + 1;
            span.contains(&x) && span.contains(&y)
        };
        let all: Vec<usize> = (0..self.templates.len()).collect();
        let mut best = vec![(f32::MIN, 0usize); 52];
        let centre = |i: usize| {
            let (x, y) = look.lattice(i);
            let span = 2 * spread - 1..=2 * spread + 1;
            span.contains(&x) && span.contains(&y)
        };
        // The views `keep` takes that are not flat, in order.
        let scan = |keep: &dyn Fn(usize) -> bool| -> Vec<usize> {
            (0..look.views.len())
                .filter(|&i| keep(i) && look.view(i).is_some())
                .collect()
        };
        // The others: every template at the anchor, then those not far behind the best climb
        // uphill from there (see `climb`). (When the window at the anchor is flat, from the
        // views within half a pixel of it.)
        let thorough = spread == REACH;
        let anchor = at(2 * spread, 2 * spread);
        if !thorough {
            if let Some(view) = look.view(anchor) {
                for four in all.chunks(4) {
                    // (A short last four repeats a template.)
                    let ks: [usize; 4] = std::array::from_fn(|t| four[t.min(four.len() - 1)]);
                    let templates = ks.map(|k| &self.templates[k]);
                    let dots = dots_in_place([view], &look.patches, templates)[0];
                    for (t, &k) in four.iter().enumerate() {
                        best[k] = (view.correlation(dots[t], templates[t]), anchor);
                    }
                }
                self.climb(&look, &mut best, &[anchor]);
                return Look { best, ..look };
            }
        }
        let mut scans = vec![scan(&centre)];
        if thorough {
            scans.push(scan(&|i| near(i) && !centre(i)));
            scans.push(scan(&|i| !near(i) && i < side * side));
        }
        // Template by template, each read once for all the views, eight at a time (see `scores`);
        // each template takes the views in order, so ties go to the first.
        for (k, template) in self.templates.iter().enumerate() {
            for scanned in &scans {
                for some in scanned.chunks(VIEWS_AT_ONCE) {
                    for (&i, s) in some.iter().zip(scores(&look, some, template)) {
                        if s > best[k].0 {
                            best[k] = (s, i);
                        }
                    }
                }
            }
        }
        if !thorough {
            self.climb(&look, &mut best, &scans[0]);
            return Look { best, ..look };
        }
        let top = best.iter().map(|b| b.0).fold(f32::MIN, f32::max);
        for k in all {
            if best[k].0 < top - CONTENDER_GAP {
                continue;
            }
            let mut tried: Vec<usize> = Vec::new();
            loop {
                let (x, y) = look.lattice(best[k].1);
                let from = best[k].1;
                for yy in y.saturating_sub(1)..=(y + 1).min(2 * side - 1) {
                    for xx in x.saturating_sub(1)..=(x + 1).min(2 * side - 1) {
                        let i = at(xx, yy);
                        if near(i) || i < side * side || tried.contains(&i) {
                            continue;
                        }
                        tried.push(i);
                        let Some(view) = look.view(i) else { continue };
                        let s = view.score(&look.patches, &self.templates[k]);
                        if s > best[k].0 {
                            best[k] = (s, i);
                        }
                    }
                }
                if best[k].1 == from {
                    break;
                }
            }
        }
        Look { best, ..look }
    }

    /// From the views `scanned` (the anchor), each template within `AROUND_GAP` of the best is
    /// followed uphill over the half-pixel views: from its best view to the best of the views
    /// around it not yet tried, until none is better. Templates line up with one another within a
    /// pixel or so, but one lined up a little off (a ten whose "0" fits over the other tens' "1")
    /// peaks further off. (Over the 20-deal run of every theme at every size, 394,320 cards, this
    /// reads exactly as scanning every template at the views within half a pixel of the anchor,
    /// then the rest within a pixel and the whole-pixel views further off did, with a third of
    /// the correlations or fewer.) Each template climbs on its own, the views of each step
    /// scored together (see `scores`): the template is read once for them, and stays in the cache
    /// from step to step.
    pub(crate) fn climb(&self, look: &Look, best: &mut [(f32, usize)], scanned: &[usize]) {
        let lattice = 2 * (2 * look.spread + 1);
        let top = best.iter().map(|b| b.0).fold(f32::MIN, f32::max);
        let mut tried_first = vec![false; lattice * lattice];
        for &i in scanned {
            let (x, y) = look.lattice(i);
            tried_first[y * lattice + x] = true;
        }
        let climbers: Vec<usize> = (0..self.templates.len())
            .filter(|&k| best[k].0 >= top - AROUND_GAP)
            .collect();
        // (The lattice points each climber has tried, and the views of its next step.)
        let mut tried = tried_first.clone();
        let mut views: Vec<usize> = Vec::with_capacity(9);
        for k in climbers {
            let template = &self.templates[k];
            tried.copy_from_slice(&tried_first);
            loop {
                let from = best[k].1;
                let (x, y) = look.lattice(from);
                views.clear();
                for yy in y.saturating_sub(1)..=(y + 1).min(lattice - 1) {
                    for xx in x.saturating_sub(1)..=(x + 1).min(lattice - 1) {
                        if !std::mem::replace(&mut tried[yy * lattice + xx], true) {
                            let i = look.view_at(xx, yy);
                            if look.view(i).is_some() {
                                views.push(i);
                            }
                        }
                    }
                }
                for some in views.chunks(VIEWS_AT_ONCE) {
                    for (&i, s) in some.iter().zip(scores(look, some, template)) {
                        if s > best[k].0 {
                            best[k] = (s, i);
                        }
                    }
                }
                if best[k].1 == from {
                    break;
                }
            }
        }
    }
}

/// The cards named (like "Th") as bits by card index.
fn card_bits(cards: &[String]) -> u64 {
    Card::all()
        .filter(|c| cards.contains(&c.to_string()))
        .fold(0, |m, c| m | 1 << c.index())
}

/// Ascending template values as runs of values one after another.
pub(crate) fn runs(values: &[usize]) -> Vec<std::ops::Range<usize>> {
    let mut runs: Vec<std::ops::Range<usize>> = Vec::new();
    for &v in values {
        match runs.last_mut() {
            Some(run) if run.end == v => run.end += 1,
            _ => runs.push(v..v + 1),
        }
    }
    runs
}

/// Template images as RGB values (by card index).
pub(crate) fn values_of(images: &[image::RgbImage]) -> Vec<Vec<f32>> {
    images
        .iter()
        .map(|img| img.as_raw().iter().map(|&v| v as f32).collect())
        .collect()
}

/// How far above where a card over a covered card begins, in pixels, its outline can reach into
/// the covered card's index box as calibration cut it: a line a pixel thick, on cards laid to the
/// nearest pixel, sampled between pixels and softened. (Anglo's covered corners cut from cards 77
/// pixels wide, whose box ends 1.3 pixels above the next row, show it in their last two rows.)
pub(crate) const OUTLINE_REACH: f32 = 2.0;

/// How far around the anchor, in template pixels, views are cut out of the sampled corner, and
/// how far each template is then tried around where the corner best fits them all.
pub(crate) const REACH: usize = 6;
pub(crate) const SPREAD: usize = 3;

/// How far below the best correlation at the views around the anchor a template may be and still
/// be followed uphill in the thorough look (`close_candidates` takes those within 0.15 of the
/// best).
pub(crate) const CONTENDER_GAP: f32 = 0.25;

/// How far below the best correlation at the anchor a template may be and still climb
/// (`climb`). The right template never falls this far behind near the anchor, even when it peaks
/// further off; the others, far behind, cost half the dot products for nothing. (Set for the scan
/// the climb replaced: 150 frames of five themes read the same with 0.4; 0.3 changed reads.)
pub(crate) const AROUND_GAP: f32 = 0.5;

/// How many of the offsets `look` scores roughly for the anchor it scores exactly. (Over 4,576
/// looks at five themes and five sizes, the offset scoring best exactly was always among the
/// three best rough ones.)
pub(crate) const ANCHOR_CANDIDATES: usize = 6;
