//! Reads every visible card of a located table: cuts out each card's index corner at the template
//! size, compares it with the 52 templates by normalised correlation, and uses the full deck (no card
//! twice) to settle near-ties. Close candidates then duel where they differ (see `Matcher::duel`);
//! a suit the templates do not show apart (a theme whose corner holds no suit) is never decided.
//! A selected card, whose highlight covers part of its corner, is matched against templates under
//! the same highlight. A card still torn between the suits of one rank is looked at again where a
//! covered card shows more: its top strip, and the middle of its face between the cards over it.
//! Anything under the confidence margin is reported as unknown with its slot; nothing is guessed.
//! Cutting a corner out is `sampling`'s, the dot products are `dots`', and where a card's edges
//! and corner lie is `card_edges`'.

use crate::cards::Card;
use crate::games::pyramid::position::{Position, PYRAMID_SIZE};
use crate::table::layout::Rect;
use crate::vision::edges::Edges;
use crate::vision::locate::Located;
use crate::vision::suits::{GlyphLook, SuitPrototypes, SUIT_MARGIN};
use crate::vision::templates::{PartManifest, Templates, TEMPLATE_H, TEMPLATE_W};
use image::RgbaImage;
use rayon::prelude::*;
use std::sync::{Arc, Mutex, OnceLock};

use super::card_edges::*;
pub use super::card_edges::{snap_corner, snap_pile_corner};
pub use super::dots::{dot, dots};
pub(crate) use super::dots::{normalised, row_dots, Rows};
pub(crate) use super::sampling::{across, degrade, soften, soften_across};
pub use super::sampling::{sample, sample_grid, window_of, Patch};

/// Lowest correlation accepted for a card.
pub const MIN_SCORE: f32 = 0.80;
/// Lowest lead of the chosen card over every close runner-up, judged where their templates differ
/// (−1 to 1). Over 20 deals of every theme, leads of 0.15 to 0.2 still held wrong reads (a 6 for
/// an 8 at 800×600).
pub const MIN_MARGIN: f32 = 0.2;

/// What one place of the table shows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Seen {
    Empty,
    Card(Card, f32),
    /// Something is there but no card matches well enough; the confidence it got.
    Unknown(f32),
}

impl Seen {
    pub fn card(&self) -> Option<Card> {
        match self {
            Seen::Card(c, _) => Some(*c),
            _ => None,
        }
    }
}

/// A board as read from a frame.
#[derive(Clone, Debug, PartialEq)]
pub struct Board {
    pub pyramid: [Seen; PYRAMID_SIZE],
    /// Whether the stock has cards (its top card lies face up on it).
    pub stock_present: bool,
    pub stock_top: Seen,
    pub waste: Seen,
    /// For places read as unknown that still look like a card: the close candidates, best
    /// first (places numbered as in `place_regions`: pyramid 0..28, stock 28, waste 29). The
    /// full deck may settle them later (see the agent's learning of the stock).
    pub unsure: Vec<(usize, Vec<Card>)>,
    /// Places whose card lies off its place, where the other cards' lie on theirs (numbered as
    /// `unsure`): a card in flight over a pile or a slot, read as the card there.
    pub misplaced: Vec<usize>,
}

impl Board {
    /// The lowest confidence among the cards read (1.0 when none).
    pub fn confidence_min(&self) -> f32 {
        self.seen()
            .filter_map(|s| match s {
                Seen::Card(_, c) | Seen::Unknown(c) => Some(c),
                Seen::Empty => None,
            })
            .fold(1.0, f32::min)
    }

    /// What place `place` shows (numbered as in `PLACES`).
    pub fn at(&self, place: usize) -> Seen {
        match place {
            p if p < PYRAMID_SIZE => self.pyramid[p],
            PYRAMID_SIZE => self.stock_top,
            _ => self.waste,
        }
    }

    fn seen(&self) -> impl Iterator<Item = Seen> + '_ {
        self.pyramid
            .iter()
            .copied()
            .chain([self.stock_top, self.waste])
    }

    /// The close candidates the reader gave for an unsure place (places numbered as in
    /// `PLACES`; none for a sure place, or one that looks like no card).
    pub fn candidates(&self, place: usize) -> &[Card] {
        self.unsure
            .iter()
            .find(|(p, _)| *p == place)
            .map_or(&[], |(_, cards)| cards.as_slice())
    }

    /// Places read as unknown, by name, each with its close candidates when there are any
    /// (`pyramid:12 (8c or 8s?)`).
    pub fn unknowns_with_candidates(&self) -> Vec<String> {
        self.unknown_places()
            .map(|(i, name)| match self.candidates(i) {
                [] => name,
                cards => {
                    let cards: Vec<String> = cards.iter().map(|c| c.to_string()).collect();
                    format!("{name} ({}?)", cards.join(" or "))
                }
            })
            .collect()
    }

    /// Places read as unknown, by name (`pyramid:12`, `stock`, `waste`).
    pub fn unknowns(&self) -> Vec<String> {
        self.unknown_places().map(|(_, name)| name).collect()
    }

    /// The places read as unknown (numbered as in `PLACES`), with their names.
    fn unknown_places(&self) -> impl Iterator<Item = (usize, String)> + '_ {
        (0..PYRAMID_SIZE)
            .map(|i| (i, self.pyramid[i]))
            .chain([
                (PYRAMID_SIZE, self.stock_top),
                (PYRAMID_SIZE + 1, self.waste),
            ])
            .filter(|(_, seen)| matches!(seen, Seen::Unknown(_)))
            .map(|(i, _)| (i, place_name(i)))
    }

    /// How many places show something (a card or an unknown).
    pub fn shown(&self) -> usize {
        self.seen().filter(|s| *s != Seen::Empty).count()
    }
}

/// A place's name (numbered as in `PLACES`): `pyramid:12`, `stock`, `waste`.
pub fn place_name(place: usize) -> String {
    match place {
        p if p < PYRAMID_SIZE => format!("pyramid:{p}"),
        PYRAMID_SIZE => "stock".to_string(),
        _ => "waste".to_string(),
    }
}

fn mean_of(vectors: &[Vec<f32>]) -> Vec<f32> {
    let mut mean = vec![0.0f32; vectors[0].len()];
    for v in vectors {
        for (m, x) in mean.iter_mut().zip(v) {
            *m += x;
        }
    }
    normalised(&mean).unwrap_or(mean)
}

/// The mean of the card templates (by card index) of each rank, and of each suit.
fn rank_and_suit_means(vectors: &[Vec<f32>]) -> (Vec<Vec<f32>>, Vec<Vec<f32>>) {
    let mean = |cards: Vec<usize>| {
        let mut out = vec![0.0f32; vectors[0].len()];
        for &k in &cards {
            for (o, v) in out.iter_mut().zip(&vectors[k]) {
                *o += v / cards.len() as f32;
            }
        }
        out
    };
    (
        (0..13)
            .map(|r| mean((0..4).map(|s| s * 13 + r).collect()))
            .collect(),
        (0..4)
            .map(|s| mean((0..13).map(|r| s * 13 + r).collect()))
            .collect(),
    )
}

/// How far apart the templates show each two suits, by suit index: how many times what it would be
/// by chance the difference of the two suits' means is (at least `MIN_APART` to tell them apart), the spread of the differences
/// of their cards of each rank (how each glyph fell on the pixels, the cards around), shrunk by
/// averaging 13 of them. A theme whose index corner shows no suit gives suits no further apart
/// than that.
fn suits_apart(vectors: &[Vec<f32>], suit_means: &[Vec<f32>]) -> Vec<Vec<f32>> {
    let mut out = vec![vec![f32::INFINITY; 4]; 4];
    for a in 0..4 {
        for b in a + 1..4 {
            let mean: Vec<f32> = suit_means[a]
                .iter()
                .zip(&suit_means[b])
                .map(|(x, y)| x - y)
                .collect();
            let signal: f32 = mean.iter().map(|d| d * d).sum();
            let chance: f32 = (0..13)
                .map(|rank| {
                    let (x, y) = (&vectors[a * 13 + rank], &vectors[b * 13 + rank]);
                    x.iter()
                        .zip(y)
                        .zip(&mean)
                        .map(|((x, y), d)| (x - y - d).powi(2))
                        .sum::<f32>()
                })
                .sum::<f32>()
                / (13 * 13) as f32;
            let apart = if chance > 0.0 {
                signal / chance
            } else {
                f32::INFINITY
            };
            out[a][b] = apart;
            out[b][a] = apart;
        }
    }
    out
}

/// How many times what chance gives the difference of two suits' templates must be, for the
/// templates to tell them apart (see `suits_apart`). Themes with suits in the corner give 3.3
/// (swiss-xvii's) and 3.7 (anglo_poker's small clubs and spades) to 25; a corner without them, 1.8
/// to 2.6 (tango_nuevo's: what little differs between its clubs' and spades' corners stands out
/// more since corners are sampled by area).
const MIN_APART: f32 = 3.0;

/// How far from the others, in template pixels either way, a template must lie on its card to
/// have its highlight band painted apart from theirs (see `Matcher::lined_up_apart`): face cards
/// with no index lined up on their picture lie 4 or more off; the rest within a pixel or so.
const APART_PLACED: f32 = 2.5;

/// What a matcher under a highlight was made for (see `Matcher::under_band`): the band, card
/// width and shift (as bits), and the colour.
#[derive(Clone, Copy, PartialEq)]
struct BandKey {
    band: [u32; 5],
    colour: [u8; 3],
}

type BandedMatchers = Vec<(BandKey, Arc<Matcher>)>;

/// How many matchers under a highlight a matcher keeps (see `under_band`).
const KEPT_BANDED: usize = 8;

/// Templates prepared for matching: normalised vectors.
#[derive(Clone)]
pub struct Matcher {
    raw: Vec<Vec<f32>>,
    /// The templates as prepared (see `prepare`), by card index.
    templates: Vec<Template>,
    /// The normalised mean of all templates: what every index corner shares (card edge, layout).
    mean: Template,
    /// The mean of the templates of each rank (four suits), and of each suit (thirteen ranks):
    /// where two cards of one suit or one rank differ, free of what sets single templates apart
    /// (how their glyphs fell on the pixels, the cards around them).
    rank_means: Vec<Vec<f32>>,
    suit_means: Vec<Vec<f32>>,
    /// How far apart the templates show two suits (by suit index): see `suits_apart`. (Ranks are
    /// what an index corner shows first; of suits, some themes show none there.)
    suits_apart: Vec<Vec<f32>>,
    pub index_box: [f32; 4],
    pub aspect: f32,
    /// Card width the templates were made at, and the width they are prepared for now.
    calibrated_width: f32,
    prepared_width: f32,
    /// The suits' glyphs under the rank, when the template set has them (see `suits`).
    suits: Option<SuitPrototypes>,
    /// Per pair of templates (a × 52 + b), where they differ, worked out when first needed.
    duel_pairs: Arc<Vec<OnceLock<Option<DuelPair>>>>,
    /// The matchers under a highlight made last (see `under_band`), shared by clones.
    banded: Arc<Mutex<BandedMatchers>>,
    /// The top strip and gap templates, when the template set has them (see `PartManifest`).
    strip: Option<Box<Matcher>>,
    gap: Option<Box<Matcher>>,
    /// Whether two cards' duels weigh where their own templates differ, not where their suits'
    /// or ranks' means do: templates of a part of the card that shows pips or a picture, whose
    /// suits differ card by card (a two's pip, a king's face), not in one glyph.
    pairwise: bool,
    /// Where each card's template lies on the card, in template pixels (by card index), when the
    /// set says (see `Manifest::placed`).
    placed: Option<Vec<(f32, f32)>>,
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
            .and_then(SuitPrototypes::new);
        let part = |part: &Option<PartManifest>, images: &Option<Vec<image::RgbImage>>| {
            let (part, images) = (part.as_ref()?, images.as_ref()?);
            let values = values_of(images);
            let mut matcher = Matcher::from_raw(values, part.index_box, m.aspect, m.card_width);
            matcher.pairwise = true;
            Some(Box::new(matcher))
        };
        matcher.strip = part(&m.strip, &templates.strip_images);
        matcher.gap = part(&m.gap, &templates.gap_images);
        matcher.placed = m.placed.as_ref().and_then(|placed| {
            Card::all()
                .map(|c| placed.get(&c.to_string()).map(|&[x, y]| (x, y)))
                .collect()
        });
        matcher
    }

    /// A matcher of templates given as RGB values (by card index), cut at `index_box` from cards
    /// `card_width` pixels wide.
    fn from_raw(raw: Vec<Vec<f32>>, index_box: [f32; 4], aspect: f32, card_width: f32) -> Matcher {
        let (tw, th) = (TEMPLATE_W as usize, TEMPLATE_H as usize);
        let vectors: Vec<Vec<f32>> = raw
            .iter()
            .map(|values| {
                normalised(&soften(values, tw, th)).unwrap_or_else(|| vec![0.0; values.len()])
            })
            .collect();
        let (rank_means, suit_means) = rank_and_suit_means(&vectors);
        Matcher {
            raw,
            templates: vectors.iter().map(|v| Template::new(v)).collect(),
            mean: Template::new(&mean_of(&vectors)),
            suits_apart: suits_apart(&vectors, &suit_means),
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
    fn make_under_band(
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
        m.prepare(card_w);
        m
    }

    /// Per template, how far from the others it lies on its card, in template pixels (from the
    /// median of where the set says they lie, `placed`), where that is more than `APART_PLACED`
    /// either way; else (and for a set that does not say) nothing. Each template's own
    /// `placed` differs from the median by up to a pixel or so without being apart: painting
    /// every band there instead turned selected cards unsure and some wrong (anglo_modern,
    /// ancient_french at 800x600).
    fn lined_up_apart(&self) -> Vec<(f32, f32)> {
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
    fn template_pixel(&self, card_w: f32) -> (f32, f32) {
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

    /// Prepares the templates for cards `card_w` pixels wide: for cards smaller than at
    /// calibration, blurred to the detail such cards can show.
    pub fn prepare(&mut self, card_w: f32) {
        for part in [&mut self.strip, &mut self.gap].into_iter().flatten() {
            part.prepare(card_w);
        }
        let target = card_w.min(self.calibrated_width);
        if (target - self.prepared_width).abs() < 0.03 * self.calibrated_width {
            return;
        }
        let factor = self.calibrated_width / target;
        let (w, h) = (TEMPLATE_W as usize, TEMPLATE_H as usize);
        let vectors: Vec<Vec<f32>> = self
            .raw
            .iter()
            .map(|values| {
                let v = if factor > 1.05 {
                    degrade(values, w, h, factor)
                } else {
                    values.clone()
                };
                normalised(&soften(&v, w, h)).unwrap_or_else(|| vec![0.0; v.len()])
            })
            .collect();
        self.mean = Template::new(&mean_of(&vectors));
        (self.rank_means, self.suit_means) = rank_and_suit_means(&vectors);
        self.suits_apart = suits_apart(&vectors, &self.suit_means);
        self.templates = vectors.iter().map(|v| Template::new(v)).collect();
        self.prepared_width = target;
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
    fn look_within(&self, frame: &RgbaImage, x: f32, y: f32, card_w: f32, spread: usize) -> Look {
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
    fn climb(&self, look: &Look, best: &mut [(f32, usize)], scanned: &[usize]) {
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

    /// Where templates `a` and `b` differ, for their duels (see `DuelPair`); None when the
    /// templates cannot tell them apart.
    fn duel_pair(&self, a: usize, b: usize) -> Option<DuelPair> {
        let (ta, tb) = (&self.templates[a].values, &self.templates[b].values);
        // Where they differ: for two cards of one rank, where the suits differ; of one suit,
        // where the ranks differ.
        let (ma, mb) = if self.pairwise {
            (ta, tb)
        } else if a % 13 == b % 13 {
            if self.suits_apart[a / 13][b / 13] < MIN_APART {
                return None;
            }
            (&self.suit_means[a / 13], &self.suit_means[b / 13])
        } else if a / 13 == b / 13 {
            (&self.rank_means[a % 13], &self.rank_means[b % 13])
        } else {
            (ta, tb)
        };
        let diffs: Vec<f32> = ma.iter().zip(mb).map(|(x, y)| (x - y).abs()).collect();
        let cut = diffs.iter().cloned().fold(0.0, f32::max) * 0.35;
        let mask: Vec<usize> = (0..ta.len()).filter(|&i| diffs[i] >= cut).collect();
        let dab: f32 = mask.iter().map(|&i| (ta[i] - tb[i]).powi(2)).sum();
        if dab <= 0.0 {
            return None;
        }
        let region = runs(&surroundings(&mask, DUEL_REACH));
        Some(DuelPair {
            mask_len: mask.len(),
            dab,
            region,
        })
    }

    /// How clearly the corner looks like card `a` rather than card `b`, judged only where they
    /// differ: +1 exactly `a`, −1 exactly `b`, 0 when the templates cannot tell.
    ///
    /// Where they differ is taken from the means of their suits (two cards of one rank) or of their
    /// ranks (one suit), so that it is the glyph that differs and not how each template's glyph
    /// fell on the pixels. Each template is lined up on its own over that part and what is around
    /// it, within half a pixel of where it fits the whole corner best: the suit under a rank can sit
    /// a little off where the rank puts it.
    pub fn duel(&self, look: &Look, a: usize, b: usize) -> f32 {
        let cached = |duels: &Vec<(usize, usize, f32)>| {
            duels.iter().find(|d| (d.0, d.1) == (a, b)).map(|d| d.2)
        };
        if let Some(d) = cached(&look.duels.lock().expect("duels")) {
            return d;
        }
        let d = self.duel_afresh(look, a, b);
        look.duels.lock().expect("duels").push((a, b, d));
        d
    }

    /// `duel`, worked out.
    fn duel_afresh(&self, look: &Look, a: usize, b: usize) -> f32 {
        let Some(pair) = self.duel_pairs[a * 52 + b]
            .get_or_init(|| self.duel_pair(a, b))
            .as_ref()
        else {
            return 0.0;
        };
        let (ta, tb) = (&self.templates[a].values, &self.templates[b].values);
        let (dab, region) = (pair.dab, &pair.region);
        // Where the two fit best more than a pixel apart (a king's picture can fit a four's
        // corner some way off), both are lined up where the better of them fits: the duel weighs
        // them against the same pixels.
        let (mut at_a, mut at_b) = (look.best[a].1, look.best[b].1);
        if look.apart(at_a, at_b) > 2 {
            let at = if look.best[a].0 >= look.best[b].0 {
                at_a
            } else {
                at_b
            };
            (at_a, at_b) = (at, at);
        }
        let (Some(da), Some(db)) = (
            look.nearest(ta, region, at_a),
            look.nearest(tb, region, at_b),
        ) else {
            return 0.0;
        };
        // A margin over few pixels, or between suits the templates show barely apart on cards
        // smaller than at calibration, says less: it is weighed down by the lesser of the two (see
        // `DUEL_PIXELS`, `SUITS_CLEARLY_APART`).
        let pixels = (pair.mask_len as f32 / DUEL_PIXELS).min(1.0).sqrt();
        let evidence = pixels.min(self.suits_weight(a, b));
        ((db - da) / dab).clamp(-1.0, 1.0) * evidence
    }

    /// How much a duel between cards `a` and `b` counts for the suits it is between: under 1 for
    /// two suits of one rank the templates show barely apart, on cards smaller than at calibration
    /// (see `SUITS_CLEARLY_APART`); else 1.
    fn suits_weight(&self, a: usize, b: usize) -> f32 {
        let smaller = self.prepared_width < 0.97 * self.calibrated_width;
        if a % 13 == b % 13 && smaller && !self.pairwise {
            (self.suits_apart[a / 13][b / 13] / SUITS_CLEARLY_APART).min(1.0)
        } else {
            1.0
        }
    }
}

/// Where two templates differ, as their duels weigh it: how many values differ by at least a
/// third of the most (`mask_len`), the templates' squared distance over those (`dab`), and the
/// values within `DUEL_REACH` of them (runs of template values).
struct DuelPair {
    mask_len: usize,
    dab: f32,
    region: Vec<std::ops::Range<usize>>,
}

/// Ascending template values as runs of values one after another.
fn runs(values: &[usize]) -> Vec<std::ops::Range<usize>> {
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
fn values_of(images: &[image::RgbImage]) -> Vec<Vec<f32>> {
    images
        .iter()
        .map(|img| img.as_raw().iter().map(|&v| v as f32).collect())
        .collect()
}

/// An empty `Matcher::duel_pairs`.
fn fresh_duel_pairs() -> Arc<Vec<OnceLock<Option<DuelPair>>>> {
    Arc::new((0..52 * 52).map(|_| OnceLock::new()).collect())
}

/// How many template values (pixels × channels) two templates must differ at for a duel's margin
/// to count in full; over fewer, it counts by the square root of the share. Under a selected
/// card's band, atlasnye_skat's 8d and 9d differ at about 30 values, where the 9 won by 0.23;
/// anglo_modern's ranks at 30 to 80 with margins of 0.7 and more.
const DUEL_PIXELS: f32 = 150.0;

/// How far apart (see `suits_apart`) two suits must be for a duel between them to count in full
/// on cards smaller than at calibration; closer, it counts by the share. Ornamental's clubs and
/// spades are 4.7 to 5.1 apart (the suit under a covered card's rank shows only its top), where
/// margins of up to 0.35 went the wrong way at 800x600 and 1024x768 (uncovered kings); other
/// themes' suits are 8 to 130 apart (swiss-xvii's 3.4 to 5.4, whose duels are all clear, 1). On
/// cards as large as at calibration or larger, the same duels all went the right way, by 0.32 or
/// more on covered cards (5 deals, every size): there they count in full.
const SUITS_CLEARLY_APART: f32 = 12.0;

/// How far around the pixels where two templates differ, in template pixels, the duel lines them
/// up.
const DUEL_REACH: usize = 2;

/// The values of the pixels within `reach` (across and down) of a pixel with a value in `mask`,
/// every channel.
fn surroundings(mask: &[usize], reach: usize) -> Vec<usize> {
    let (tw, th) = (TEMPLATE_W as usize, TEMPLATE_H as usize);
    let mut near = vec![false; tw * th];
    for &i in mask {
        let (x, y) = ((i / 3) % tw, (i / 3) / tw);
        for yy in y.saturating_sub(reach)..=(y + reach).min(th - 1) {
            for xx in x.saturating_sub(reach)..=(x + reach).min(tw - 1) {
                near[yy * tw + xx] = true;
            }
        }
    }
    (0..tw * th)
        .filter(|&p| near[p])
        .flat_map(|p| [3 * p, 3 * p + 1, 3 * p + 2])
        .collect()
}

/// How far around the anchor, in template pixels, views are cut out of the sampled corner, and
/// how far each template is then tried around where the corner best fits them all.
const REACH: usize = 6;
const SPREAD: usize = 3;

/// How far below the best correlation at the views around the anchor a template may be and still
/// be followed uphill in the thorough look (`close_candidates` takes those within 0.15 of the
/// best).
const CONTENDER_GAP: f32 = 0.25;

/// How far below the best correlation at the anchor a template may be and still climb
/// (`climb`). The right template never falls this far behind near the anchor, even when it peaks
/// further off; the others, far behind, cost half the dot products for nothing. (Set for the scan
/// the climb replaced: 150 frames of five themes read the same with 0.4; 0.3 changed reads.)
const AROUND_GAP: f32 = 0.5;

/// How many of the offsets `look` scores roughly for the anchor it scores exactly. (Over 4,576
/// looks at five themes and five sizes, the offset scoring best exactly was always among the
/// three best rough ones.)
const ANCHOR_CANDIDATES: usize = 6;

/// A card's index corner as sampled (with the margin views are cut from), and softened whole.
struct Corner {
    raw: Vec<f32>,
    /// The first pass of softening (see `across`).
    across: Vec<f32>,
    soft: Vec<f32>,
    w: usize,
    h: usize,
    /// Running sums over the softened corner of each channel and of all squares:
    /// `running[y*(w+1) + x]` sums the pixels above and left of (x, y).
    running: Vec<[f64; 4]>,
}

impl Corner {
    fn new(raw: Vec<f32>, w: usize, h: usize) -> Corner {
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
    fn border_fix(&self, ox: usize, oy: usize) -> Vec<f32> {
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
    fn rough_correlations<const N: usize>(
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
    fn rows(&self) -> Rows {
        Rows {
            count: TEMPLATE_H as usize,
            len: PADDED_ROW,
            a_stride: self.w * 3,
            b_stride: PADDED_ROW,
        }
    }

    /// Sums over the `tw`×`th` window at (ox, oy) of the softened corner: each channel, and all
    /// squares.
    fn window_sums(&self, ox: usize, oy: usize, tw: usize, th: usize) -> [f64; 4] {
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
fn border() -> &'static [(usize, usize)] {
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
fn dots_in_place<const A: usize, const B: usize>(
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
const VIEWS_AT_ONCE: usize = 8;

/// The correlations of `template` with up to `VIEWS_AT_ONCE` views of `look` (`views`, in order;
/// the rest are zero): all in one pass over the template.
fn scores(look: &Look, views: &[usize], template: &Template) -> [f32; VIEWS_AT_ONCE] {
    fn some<const N: usize>(look: &Look, views: &[usize], template: &Template) -> [f32; N] {
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
fn correlation(dot: f32, mean: [f32; 3], norm: f32, template: &Template) -> f32 {
    (dot - (0..3).map(|c| mean[c] * template.sums[c]).sum::<f32>()) / norm
}

/// A template row's values rounded up to whole eights: the rows `row_dots` reads, in a template
/// and in a corner (whose softened values end with as many zeros to spare).
const PADDED_ROW: usize = (TEMPLATE_W as usize * 3).div_ceil(8) * 8;

/// A normalised template as `View::score` takes it: its values, and the sum of each channel.
#[derive(Clone)]
struct Template {
    values: Vec<f32>,
    sums: [f32; 3],
    /// The values on the border (see `border`), in its order.
    border: Vec<f32>,
    /// The values with each row padded with zeros to `PADDED_ROW` (see `row_dots`).
    padded: Vec<f32>,
}

impl Template {
    fn new(values: &[f32]) -> Template {
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
struct View {
    patch: u8,
    ox: u8,
    oy: u8,
    fix: Vec<f32>,
    mean: [f32; 3],
    norm: f32,
    /// The window normalised as the templates are, for duels (see `View::normalised`).
    normalised: OnceLock<Vec<f32>>,
}

impl View {
    /// The window at (ox, oy) of sampling `patch`; None for a flat window (as `normalised`).
    fn at(patches: &[Corner], patch: usize, ox: usize, oy: usize) -> Option<View> {
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
    fn score(&self, patches: &[Corner], template: &Template) -> f32 {
        self.correlation(self.dot_in_place(patches, template), template)
    }

    /// The correlation from the dot product of the window with a template.
    fn correlation(&self, dot: f32, template: &Template) -> f32 {
        correlation(dot, self.mean, self.norm, template)
    }

    /// The softened corner from the window's first value on: its rows lie `w` × 3 values apart
    /// (see `Rows`); the border correction `fix` is not in it.
    fn start<'a>(&self, patches: &'a [Corner]) -> &'a [f32] {
        let corner = &patches[self.patch as usize];
        &corner.soft[(self.oy as usize * corner.w + self.ox as usize) * 3..]
    }

    /// The dot product of the window (the view's part of the corner, corrected by `fix`) with a
    /// template's values, taken where the window lies in the corner, without cutting it out.
    fn dot_in_place(&self, patches: &[Corner], template: &Template) -> f32 {
        dots_in_place([self], patches, [template])[0][0]
    }

    /// The window (its part of the corner, corrected by `fix`) normalised as the templates are:
    /// zero mean per channel, unit length. Worked out when a duel first needs it.
    fn normalised(&self, patches: &[Corner]) -> &[f32] {
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
    fn distance(
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
    patches: Vec<Corner>,
    /// The views within `spread` of the anchor, per sampling, row by row; each cut out (see
    /// `View::at`) when first needed. None for a flat window.
    views: Vec<OnceLock<Option<View>>>,
    /// Where the views are centred in the sampled corner (whole template pixels), and how far
    /// around it they reach.
    anchor: (usize, usize),
    spread: usize,
    /// Per template: (best correlation, the view it came from).
    pub best: Vec<(f32, usize)>,
    /// How far the corner looked at was moved from the one asked for, in template pixels
    /// (across, down): a look again around the edge of a first look's views (see
    /// `Matcher::look_closely`).
    moved: (f32, f32),
    /// The duels (see `Matcher::duel`) worked out so far: (a, b, duel of a against b). A look is
    /// judged by one matcher only (the one it was taken with).
    duels: Mutex<Vec<(usize, usize, f32)>>,
}

impl Look {
    /// View `i` (see `views`).
    fn view(&self, i: usize) -> Option<&View> {
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
    fn leader(&self) -> usize {
        (0..self.best.len())
            .max_by(|&a, &b| self.best[a].0.total_cmp(&self.best[b].0))
            .unwrap_or(0)
    }

    /// Whether the best template's best view is at the edge of the views tried.
    fn best_at_edge(&self) -> bool {
        let top = self.leader();
        let (x, y) = self.lattice(self.best[top].1);
        let last = 2 * (2 * self.spread + 1) - 1;
        x == 0 || y == 0 || x == last || y == last
    }

    /// Where view `i` is, in half template pixels across and down from the first view: 2 ×
    /// its whole-pixel offset + its sampling's half pixel.
    fn lattice(&self, i: usize) -> (usize, usize) {
        let side = 2 * self.spread + 1;
        let (patch, at) = (i / (side * side), i % (side * side));
        (2 * (at % side) + patch % 2, 2 * (at / side) + patch / 2)
    }

    /// The view at (x, y) in half template pixels (the inverse of `lattice`).
    fn view_at(&self, x: usize, y: usize) -> usize {
        let side = 2 * self.spread + 1;
        (x % 2 + 2 * (y % 2)) * side * side + (y / 2) * side + x / 2
    }

    /// How far apart views `i` and `j` are, in half template pixels (the larger of across and
    /// down).
    fn apart(&self, i: usize, j: usize) -> usize {
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
    fn nearest(
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

/// The cards still free whose correlation is close to the best one's (at most six), best first.
fn close_candidates(look: &Look, free: &[bool; 52]) -> Vec<usize> {
    let ranked: Vec<(f32, usize)> = look
        .ranked()
        .into_iter()
        .filter(|&(_, k)| free[k])
        .collect();
    let Some(&(s1, _)) = ranked.first() else {
        return Vec::new();
    };
    ranked
        .iter()
        .take_while(|&&(s, _)| s >= s1 - 0.15)
        .take(6)
        .map(|&(_, k)| k)
        .collect()
}

/// The card a look shows among the cards still free: the correlation leader, challenged by every
/// close runner-up where their templates differ. Returns (card index, correlation, duel margin).
pub fn decide(matcher: &Matcher, look: &Look, free: &[bool; 52]) -> Option<(usize, f32, f32)> {
    let close = close_candidates(look, free);
    // Each pair's duel is worked out once (it is antisymmetric: duel(a, b) = −duel(b, a)).
    let mut duels: Vec<(usize, usize, f32)> = Vec::new();
    let mut duel = |a: usize, b: usize| -> f32 {
        if let Some(&(_, _, d)) = duels.iter().find(|&&(x, y, _)| x == a && y == b) {
            return d;
        }
        if let Some(&(_, _, d)) = duels.iter().find(|&&(x, y, _)| x == b && y == a) {
            return -d;
        }
        let d = matcher.duel(look, a, b);
        duels.push((a, b, d));
        d
    };
    let mut champion = *close.first()?;
    for &k in &close[1..] {
        if duel(k, champion) > 0.0 {
            champion = k;
        }
    }
    let mut margin = close
        .iter()
        .filter(|&&k| k != champion)
        .map(|&k| duel(champion, k))
        .fold(1.0, f32::min);
    // A duel between suits the templates show barely apart says little on its own: where the
    // whole corner fits the other suit better, the two disagree and the corner does not decide
    // (ornamental's Ks at 800x600, whose duels with the Kc went the Kc's way by 0.2 on every
    // deal while the corner fitted the Ks better).
    let leader = close[0];
    if leader != champion && matcher.suits_weight(champion, leader) < 1.0 {
        margin = margin.min(0.0);
    }
    Some((champion, look.best[champion].0, margin))
}

/// Settles the `open` places, unsure which card they hold, by the full deck (see
/// `read_board_reusing`), claiming in `free` the cards it gives them; returns the places settled. First each is decided again among the cards still
/// free (a card read after it may have been its rival), until nothing changes. Then two places
/// each torn between the same two cards, every other candidate clearly beaten, take them one way
/// round or the other when the two duels together say so by `PAIR_MARGIN`.
fn settle(
    matcher: &Matcher,
    looks: &[Option<Looked>],
    free: &mut [bool; 52],
    seen: &mut [Seen],
    mut open: Vec<usize>,
) -> Vec<usize> {
    let look_of = |i: usize| {
        let (look, banded) = looks[i].as_ref().expect("an unsure place was looked at");
        (look, banded.as_deref().unwrap_or(matcher))
    };
    let mut settled = Vec::new();
    let mut claim = |i: usize, k: usize, confidence: f32, free: &mut [bool; 52]| {
        free[k] = false;
        seen[i] = Seen::Card(Card::from_index(k), confidence.clamp(0.0, 1.0));
        i
    };
    loop {
        let mut changed = false;
        open.retain(|&i| {
            let (look, m) = look_of(i);
            match decide(m, look, free) {
                Some((k, score, margin)) if margin >= MIN_MARGIN => {
                    settled.push(claim(i, k, score.min(0.5 + margin / 2.0), free));
                    changed = true;
                    false
                }
                _ => true,
            }
        });
        if !changed {
            break;
        }
    }
    // The two cards a place is torn between, with the duel of the first against the second.
    let torn = |i: usize, free: &[bool; 52]| -> Option<(usize, usize, f32)> {
        let (look, m) = look_of(i);
        let close = close_candidates(look, free);
        let (&a, &b) = (close.first()?, close.get(1)?);
        let beaten = |x: usize| close[2..].iter().all(|&c| m.duel(look, x, c) >= MIN_MARGIN);
        (beaten(a) && beaten(b)).then(|| (a, b, m.duel(look, a, b)))
    };
    for x in 0..open.len() {
        for y in x + 1..open.len() {
            let (i, j) = (open[x], open[y]);
            if settled.contains(&i) || settled.contains(&j) {
                continue;
            }
            let (Some((a, b, di)), Some((c, d, dj))) = (torn(i, free), torn(j, free)) else {
                continue;
            };
            // i takes a and j takes b: by how much the duels favour that over the other way.
            let joint = match (c, d) {
                (c, d) if (c, d) == (b, a) => di + dj,
                (c, d) if (c, d) == (a, b) => di - dj,
                _ => continue,
            };
            let score = |i: usize, k: usize| look_of(i).0.best[k].0;
            if joint >= PAIR_MARGIN {
                settled.push(claim(i, a, score(i, a).min(0.5 + joint / 4.0), free));
                settled.push(claim(j, b, score(j, b).min(0.5 + joint / 4.0), free));
            } else if joint <= -PAIR_MARGIN {
                settled.push(claim(i, b, score(i, b).min(0.5 - joint / 4.0), free));
                settled.push(claim(j, a, score(j, a).min(0.5 - joint / 4.0), free));
            }
        }
    }
    settled
}

/// The card a look is torn between the suits of one rank over, settled by the suit's glyph under
/// the rank (`glyph` looks at it, only when needed): the close candidates of another rank must be
/// clearly beaten by the leader, and the glyph must be clearly one candidate suit's rather than
/// each other's. Returns (card index, confidence).
pub(crate) fn by_suit_glyph(
    matcher: &Matcher,
    suits: &SuitPrototypes,
    look: &Look,
    free: &[bool; 52],
    glyph: impl FnOnce() -> GlyphLook,
) -> Option<(usize, f32)> {
    let (rank, candidate_suits, score) = torn_between_suits(matcher, look, free)?;
    let glyph = glyph();
    let clearly = |a: usize| {
        candidate_suits
            .iter()
            .filter(|&&b| b != a)
            .map(|&b| suits.duel(&glyph, a, b))
            .fold(1.0, f32::min)
    };
    let (suit, margin) = candidate_suits
        .iter()
        .map(|&a| (a, clearly(a)))
        .max_by(|x, y| x.1.total_cmp(&y.1))?;
    if margin < SUIT_MARGIN {
        return None;
    }
    let card = suit * 13 + rank;
    free[card].then_some((card, score.min(0.5 + margin / 2.0).clamp(0.0, 1.0)))
}

/// Whether a look is torn between the suits of one rank only: the close candidates of another
/// rank clearly beaten by the leader. Returns the rank, the candidate suits (the leader's first)
/// and the leader's correlation.
fn torn_between_suits(
    matcher: &Matcher,
    look: &Look,
    free: &[bool; 52],
) -> Option<(usize, Vec<usize>, f32)> {
    let (leader, score, _) = decide(matcher, look, free)?;
    let rank = leader % 13;
    let mut candidate_suits = vec![leader / 13];
    for k in close_candidates(look, free) {
        if k == leader {
            continue;
        }
        if k % 13 == rank {
            candidate_suits.push(k / 13);
        } else if matcher.duel(look, leader, k) < MIN_MARGIN {
            return None;
        }
    }
    (candidate_suits.len() >= 2).then_some((rank, candidate_suits, score))
}

/// The cards a look is torn between, whatever their ranks and suits: the leader and the close
/// candidates it does not clearly beat. Returns them (the leader first) and the leader's
/// correlation.
fn torn_between(matcher: &Matcher, look: &Look, free: &[bool; 52]) -> Option<(Vec<usize>, f32)> {
    let (leader, score, _) = decide(matcher, look, free)?;
    let mut cards = vec![leader];
    for k in close_candidates(look, free) {
        if k != leader && matcher.duel(look, leader, k) < MIN_MARGIN {
            cards.push(k);
        }
    }
    (cards.len() >= 2).then_some((cards, score))
}

/// The card a look is torn between the suits of one rank over (or, when not only those, between
/// any cards: see `torn_between`), settled by another part of the card (`cut` looks at it, only
/// when needed, with that part's templates `part`; see `PartManifest`): among the candidates
/// only, the part must fit a card well and its duels must clearly favour it. Returns (card
/// index, confidence).
fn by_part(
    matcher: &Matcher,
    part: &Matcher,
    look: &Look,
    free: &[bool; 52],
    cut: impl FnOnce() -> Look,
) -> Option<(usize, f32)> {
    let (cards, score) = match torn_between_suits(matcher, look, free) {
        Some((rank, suits, score)) => (suits.iter().map(|s| s * 13 + rank).collect(), score),
        None => torn_between(matcher, look, free)?,
    };
    let mut candidates = [false; 52];
    for k in cards {
        candidates[k] = true;
    }
    let seen = cut();
    let (card, part_score, margin) = decide(part, &seen, &candidates)?;
    // The part must fit the card best, and its template must differ from the other candidates'
    // past the index corner (where it does not, the part tells no more than the corner:
    // ornamental's kings and aces, whose top strips differ only by the suit under the rank).
    let leader = (0..52)
        .filter(|&k| candidates[k])
        .max_by(|&a, &b| seen.best[a].0.total_cmp(&seen.best[b].0))?;
    let alike = alike_past_corner(matcher, part, card, &candidates);
    (leader == card && alike <= PART_MAX_ALIKE && part_score >= MIN_SCORE && margin >= PART_MARGIN)
        .then(|| (card, score.min(0.5 + margin / 2.0).clamp(0.0, 1.0)))
}

/// How alike (correlation) `part`'s template of `card` is to the other `candidates`' at most,
/// over what lies past the index corner of `matcher` (1 when that part shows nothing there).
fn alike_past_corner(
    matcher: &Matcher,
    part: &Matcher,
    card: usize,
    candidates: &[bool; 52],
) -> f32 {
    let (tw, th) = (TEMPLATE_W as usize, TEMPLATE_H as usize);
    let [px, py, pw, ph] = part.index_box;
    let [ix, iy, iw, ih] = matcher.index_box;
    let keep: Vec<usize> = (0..tw * th)
        .filter(|&i| {
            let (x, y) = (i % tw, i / tw);
            let cx = px + (x as f32) * pw / tw as f32;
            let cy = py + (y as f32) * ph / th as f32;
            let (sx, sy) = (pw / tw as f32, ph / th as f32);
            cx >= ix + iw || cy >= iy + ih || cx + sx <= ix || cy + sy <= iy
        })
        .flat_map(|i| [3 * i, 3 * i + 1, 3 * i + 2])
        .collect();
    let sub = |k: usize| -> Option<Vec<f32>> {
        let v: Vec<f32> = keep.iter().map(|&i| part.templates[k].values[i]).collect();
        normalised(&v)
    };
    let Some(a) = sub(card) else { return 1.0 };
    (0..52)
        .filter(|&k| candidates[k] && k != card)
        .map(|k| sub(k).map_or(1.0, |b| dot(&a, &b)))
        .fold(f32::MIN, f32::max)
}

/// How clearly the duels of a part of the card must favour a card (see `by_part`): as the index
/// corner's must. (Over 20 deals of ornamental at every size, every strip whose template differed
/// from the other candidate's by more than `PART_MAX_ALIKE` allows went the right way.)
const PART_MARGIN: f32 = MIN_MARGIN;

/// How alike (correlation, past the index corner: see `alike_past_corner`) a candidate's template
/// of a part may be to another candidate's for the part to decide between them. Ornamental's kings
/// and aces, whose strips differ only by the suit under the rank (0.99 past the corner), went the
/// wrong way by margins up to 0.4 at 800x600 and 1024x768; anglo_poker's 2c and 2s strips,
/// whose big pips differ (0.945 past the corner; 0.963 as a whole), go the right way.
const PART_MAX_ALIKE: f32 = 0.96;

/// What a place shows besides its look: how strong a card's top edge is there, how much of it is
/// felt, and where the card's top-left corner was found.
struct Glance {
    edge: f32,
    felt: f32,
    corner: (f32, f32),
}

/// How far two duels together must favour one way of giving two places two cards (see `settle`):
/// `MIN_MARGIN` for each, as a sum of two.
const PAIR_MARGIN: f32 = MIN_MARGIN * std::f32::consts::SQRT_2;

/// How far the pyramid cards' corners lie from their slots, across and down, in whole pixels:
/// the median over the cards found with a top edge (none: (0, 0), with fewer than three).
fn slot_offset(glances: &[Glance], slots: &[Rect]) -> (i32, i32) {
    let (mut xs, mut ys): (Vec<f32>, Vec<f32>) = glances
        .iter()
        .zip(slots)
        .filter(|(g, _)| g.edge >= TOP_EDGE)
        .map(|(g, r)| (g.corner.0 - r.x as f32, g.corner.1 - r.y as f32))
        .unzip();
    if xs.len() < 3 {
        return (0, 0);
    }
    (
        median(&mut xs).round() as i32,
        median(&mut ys).round() as i32,
    )
}

/// The middle value of `v` (the upper of the two middle ones for an even count), sorting it.
fn median(v: &mut [f32]) -> f32 {
    v.sort_by(f32::total_cmp);
    v[v.len() / 2]
}

/// How many pixels off their slots the cards' corners must lie, all alike, for the slots without
/// a top edge to be looked at again that far off (see `read_board_reusing`). Cards on a table
/// located right lie a pixel or two off (the slots are rounded; a card's edge line takes a
/// pixel or two).
const SLOTS_OFF: i32 = 4;

/// Share of felt-like pixels in a rectangle (sampled).
fn felt_share(frame: &RgbaImage, r: Rect) -> f32 {
    let (mut n, mut felt) = (0u32, 0u32);
    let step = (r.w / 12).max(1);
    let mut y = r.y + r.h / 10;
    while y < r.y + r.h * 9 / 10 {
        let mut x = r.x + r.w / 10;
        while x < r.x + r.w * 9 / 10 {
            if x >= 0 && y >= 0 && (x as u32) < frame.width() && (y as u32) < frame.height() {
                n += 1;
                if crate::vision::locate::felt_like(frame.get_pixel(x as u32, y as u32)) {
                    felt += 1;
                }
            }
            x += step;
        }
        y += step;
    }
    if n == 0 {
        1.0
    } else {
        felt as f32 / n as f32
    }
}

/// What a place's corner looked like, and the templates under a highlight it was looked at with,
/// when it has one (see `Matcher::under_band`).
type Looked = (Look, Option<Arc<Matcher>>);

/// Reads the board of a located frame.
pub fn read_board(
    frame: &RgbaImage,
    e: &Edges,
    located: &Located,
    matcher: &Matcher,
    row_step: f32,
) -> Board {
    read_board_reusing(frame, e, located, matcher, row_step, &[None; PLACES])
}

/// Places read on a board: the 28 pyramid slots, the stock, the waste.
pub const PLACES: usize = PYRAMID_SIZE + 2;

/// The regions whose pixels decide what each place shows (the visible strip of a pyramid slot,
/// the whole pile), for telling which places changed between frames.
pub fn place_regions(located: &Located, row_step: f32) -> Vec<Rect> {
    let strip = (row_step * located.card_w) as i32;
    let mut out: Vec<Rect> = located
        .slots
        .iter()
        .map(|r| Rect::new(r.x, r.y, r.w, strip))
        .collect();
    let d = (located.card_w / 10.0) as i32;
    for r in [located.stock, located.waste] {
        out.push(Rect::new(r.x - d, r.y - d, r.w + d, r.h + d));
    }
    out
}

/// As `read_board`, keeping what `reuse` says for the places that did not change.
pub fn read_board_reusing(
    frame: &RgbaImage,
    e: &Edges,
    located: &Located,
    matcher: &Matcher,
    row_step: f32,
    reuse: &[Option<Seen>; PLACES],
) -> Board {
    let w = located.card_w;
    let strip = row_step * w;
    let mut places: Vec<(Rect, bool)> = located.slots.iter().map(|r| (*r, true)).collect();
    places.push((located.stock, false));
    places.push((located.waste, false));
    // Each place is looked at on its own (in parallel): where its corner is, how strong the card
    // edge there is, and what the corner looks like (none for felt or a place kept from before).
    // A card under a highlight is looked at with templates under the same band (see
    // `Matcher::under_band`), which then also judge it.
    // (`snap`: the card's corner is looked for around the place's; else it is the place's.)
    let look_at_place = |rect: Rect, in_pyramid: bool, snap: bool| -> (Option<Looked>, Glance) {
        let depth = if in_pyramid {
            strip
        } else {
            0.9 * located.card_h
        };
        // The stock's top card lies over backs that peek out up and to the left.
        let from = if in_pyramid {
            -(0.05 * w).round().max(2.0) as i32
        } else {
            -1
        };
        let (sx, sy) = (rect.x as f32, rect.y as f32);
        let (mut x, mut y) = (sx, sy);
        if snap {
            (x, y, _) = snap_corner_within(e, rect, depth, w, from);
        }
        let mut band = highlight_band(frame, x, y, w, depth);
        // A selected card's band can be a weaker line than the inner frame inside it (swiss-xvii's),
        // which the snap then takes for the card's edge: where the corner was snapped in from the
        // slot's, and the band shows at the slot's corner but not at the snapped one, the slot's
        // corner is the card's.
        if band.is_none() && in_pyramid && (x > sx + 2.0 || y > sy + 2.0) {
            if let Some(found) = highlight_band(frame, sx, sy, w, depth) {
                (x, y, band) = (sx, sy, Some(found));
            }
        }
        let edge = top_edge_continuity(frame, x as i32, y as i32, w);
        let look_at = if in_pyramid {
            Rect::new(rect.x, rect.y, rect.w, strip as i32)
        } else {
            rect
        };
        let felt = felt_share(frame, look_at);
        let glance = Glance {
            edge,
            felt,
            corner: (x, y),
        };
        if (!in_pyramid && felt > 0.6) || (in_pyramid && felt > 0.5) {
            return (None, glance);
        }
        // The templates sit a little off the card's edges, where the band lies: how far, the
        // best template shows in a first look.
        let banded = band.map(|(band, colour)| {
            let first = matcher.under_band(band, colour, w, (0.0, 0.0));
            let look = first.look(frame, x, y, w);
            let (ox, oy) = look.offset();
            // (Less how far apart the best template lies, if it does.)
            let (ax, ay) = matcher.lined_up_apart()[look.leader()];
            matcher.under_band(band, colour, w, (ox - ax, oy - ay))
        });
        let m = banded.as_deref().unwrap_or(matcher);
        // Thoroughly only where a card's top edge is (see `Matcher::look_closely`).
        let look = m.look_closely(frame, (x, y), w, !in_pyramid || edge >= TOP_EDGE);
        (Some((look, banded)), glance)
    };
    let (mut looks, mut glances): (Vec<Option<Looked>>, Vec<Glance>) = places
        .par_iter()
        .enumerate()
        .map(|(i, &(rect, in_pyramid))| {
            if reuse[i].is_some() {
                let glance = Glance {
                    edge: 0.0,
                    felt: 1.0,
                    corner: (0.0, 0.0),
                };
                return (None, glance);
            }
            look_at_place(rect, in_pyramid, true)
        })
        .unzip();
    // Where the cards' corners, those with a top edge, lie some pixels off their slots all alike,
    // the table was located that far off, and a slot without a top edge may have missed its
    // card's corner (searched for only a few pixels around the slot): it is looked at again
    // that far off, and kept if its top edge is stronger there (tango_nuevo's deal 13 at
    // 1440x900, located 6 pixels low: its top card's corner was 8 pixels above its slot, the top
    // of its "2" taken for the corner instead).
    let (dx, dy) = slot_offset(&glances, &located.slots);
    // Slot i moved as far as the cards' corners lie off their slots.
    let moved_slot = |i: usize| {
        let r: Rect = located.slots[i];
        Rect::new(r.x + dx, r.y + dy, r.w, r.h)
    };
    if dx.abs() >= SLOTS_OFF || dy.abs() >= SLOTS_OFF {
        let again: Vec<(usize, (Option<Looked>, Glance))> = (0..PYRAMID_SIZE)
            .into_par_iter()
            .filter(|&i| reuse[i].is_none() && glances[i].edge < TOP_EDGE)
            .map(|i| (i, look_at_place(moved_slot(i), true, true)))
            .collect();
        for (i, (look, glance)) in again {
            if glance.edge > glances[i].edge {
                (looks[i], glances[i]) = (look, glance);
            }
        }
    }
    // A card (a top edge) whose corner looks like no card may have had a line beside its edge
    // taken for the edge (swiss-xvii's tree trunk on the card behind, 4 pixels left of its Qc's
    // edge at 800x600): it is looked at again from its slot's corner, moved as the other cards'
    // corners are, and that look kept if it finds a card more like it.
    let best_score = |look: &Option<Looked>| look.as_ref().map_or(f32::MIN, |(l, _)| l.lead());
    let again: Vec<(usize, (Option<Looked>, Glance))> = (0..PYRAMID_SIZE)
        .into_par_iter()
        .filter(|&i| {
            let (r, g) = (moved_slot(i), &glances[i]);
            let off = (g.corner.0 - r.x as f32).abs() + (g.corner.1 - r.y as f32).abs();
            reuse[i].is_none()
                && g.edge >= TOP_EDGE
                && best_score(&looks[i]) < MIN_SCORE
                && off >= 2.0
        })
        .map(|i| (i, look_at_place(moved_slot(i), true, false)))
        .collect();
    for (i, (look, glance)) in again {
        if best_score(&look) > best_score(&looks[i]) {
            (looks[i], glances[i]) = (look, glance);
        }
    }
    let edge_strength: Vec<f32> = glances.iter().map(|g| g.edge).collect();
    let felt: Vec<f32> = glances.iter().map(|g| g.felt).collect();
    let corners: Vec<(f32, f32)> = glances.iter().map(|g| g.corner).collect();
    // Settle cards best match first; a card is used once (the full deck).
    let mut order: Vec<usize> = (0..places.len()).filter(|&i| looks[i].is_some()).collect();
    let lead = |i: usize| looks[i].as_ref().map_or(0.0, |(l, _)| l.lead());
    order.sort_by(|&a, &b| lead(b).total_cmp(&lead(a)));
    let mut free = [true; 52];
    let mut seen = vec![Seen::Empty; places.len()];
    let mut unsure = Vec::new();
    // Places whose corner looks like a card (a template scores at least `MIN_SCORE`).
    let mut card_like = vec![false; places.len()];
    for (i, r) in reuse.iter().enumerate() {
        if let Some(kept) = r {
            seen[i] = *kept;
            if let Seen::Card(c, _) = kept {
                free[c.index()] = false;
            }
        }
    }
    // The duels the first decisions below take, worked out for all places at once (in parallel):
    // each look keeps its duels, so deciding again after claims mostly finds them done.
    looks.par_iter().flatten().for_each(|(look, banded)| {
        decide(banded.as_deref().unwrap_or(matcher), look, &free);
    });
    for i in order {
        let (look, banded) = looks[i].as_ref().expect("a look");
        let matcher = banded.as_deref().unwrap_or(matcher);
        let Some((k, score, margin)) = decide(matcher, look, &free) else {
            seen[i] = Seen::Unknown(0.0);
            continue;
        };
        card_like[i] = score >= MIN_SCORE;
        let confidence = score.min(0.5 + margin / 2.0).clamp(0.0, 1.0);
        let (in_pyramid, edge) = (places[i].1, edge_strength[i]);
        let (x, y) = corners[i];
        let no_side = || left_edge_continuity(frame, x as i32, y as i32, w, strip) < SIDE_EDGE;
        if in_pyramid && edge < TOP_EDGE && (score < MIN_SCORE || edge < BARE_EDGE || no_side()) {
            // No card's top edge, and nothing like a card, hardly an edge at all or no left edge
            // either: an empty slot over the cards behind it (whose pips may look like an index).
            seen[i] = Seen::Empty;
        } else if score >= MIN_SCORE && margin >= MIN_MARGIN && !(in_pyramid && edge < TOP_EDGE) {
            free[k] = false;
            seen[i] = Seen::Card(Card::from_index(k), confidence);
        } else {
            seen[i] = Seen::Unknown(confidence);
            if score >= MIN_SCORE {
                let cards = close_candidates(look, &free);
                unsure.push((i, cards.into_iter().map(Card::from_index).collect()));
            }
        }
    }
    // A card nothing covers shows its suit's glyph whole under the rank: where its index corner
    // leaves it torn between the suits of one rank, that glyph settles it.
    if let Some(suits) = &matcher.suits {
        unsure.retain(|&(i, _)| {
            let whole = i >= PYRAMID_SIZE
                || Position::all().nth(i).is_some_and(|p| {
                    p.covered_by()
                        .is_none_or(|kids| kids.iter().all(|q| seen[q.index()] == Seen::Empty))
                });
            if !whole || (places[i].1 && edge_strength[i] < TOP_EDGE) {
                return true;
            }
            let (look, banded) = looks[i].as_ref().expect("an unsure place was looked at");
            let m = banded.as_deref().unwrap_or(matcher);
            let (x, y) = corners[i];
            match by_suit_glyph(m, suits, look, &free, || suits.look(frame, x, y, w)) {
                Some((k, confidence)) => {
                    free[k] = false;
                    seen[i] = Seen::Card(Card::from_index(k), confidence);
                    false
                }
                None => true,
            }
        });
    }
    // A covered card shows the top of its face past the index corner, and the middle of its face
    // between the two cards over it: where the corner leaves it torn between the suits of one
    // rank, or between cards of other ranks (a thin "10" like a 4), the templates of those parts
    // (when the set has them) settle it, the strip first.
    // The gap is looked at where the index corner was found to lie, not where the card's edges
    // put it (as its templates were cut; see `calibrate::part_templates`).
    for (part, found) in [(&matcher.strip, false), (&matcher.gap, true)] {
        let Some(part) = part else { continue };
        unsure.retain(|&(i, _)| {
            let (look, banded) = looks[i].as_ref().expect("an unsure place was looked at");
            if !places[i].1 || edge_strength[i] < TOP_EDGE {
                return true;
            }
            let (mut x, mut y) = corners[i];
            // A selected card's parts lie under the highlight's band as its corner does (the
            // top strip along the card's top and left edges; the gap, in its middle, hardly).
            let part_banded = banded.as_ref().and_then(|_| {
                let (band, colour) = highlight_band(frame, x, y, w, strip)?;
                Some(part.under_band(band, colour, w, (0.0, 0.0)))
            });
            let (m, part) = (
                banded.as_deref().unwrap_or(matcher),
                part_banded.as_deref().unwrap_or(part),
            );
            if found {
                let ((ox, oy), (px, py)) = (look.offset(), m.template_pixel(w));
                (x, y) = (x + ox * px, y + oy * py);
            }
            let cut = || part.look(frame, x, y, w);
            match by_part(m, part, look, &free, cut) {
                Some((k, confidence)) => {
                    free[k] = false;
                    seen[i] = Seen::Card(Card::from_index(k), confidence);
                    false
                }
                None => true,
            }
        });
    }
    // The full deck settles some unsure places: a card read later is not a candidate any more,
    // and two places torn between the same two cards are weighed together.
    // (Only places unsure of which card they hold: not those without a card's top edge.)
    let open: Vec<usize> = unsure
        .iter()
        .map(|&(i, _)| i)
        .filter(|&i| !places[i].1 || edge_strength[i] >= TOP_EDGE)
        .collect();
    let settled = settle(matcher, &looks, &mut free, &mut seen, open);
    unsure.retain(|(i, _)| !settled.contains(i));
    // A card lies on the cards it covers: where one of those is gone (read as empty, with nothing
    // like a card), no card lies over it. A place there read as unsure, with nothing like a card
    // or no card's top edge, is empty: what showed an edge or something like an index there is
    // the picture of a card above hanging down into it (the middle line of a court card, pips).
    // Rows top down, so that this carries on down the pyramid.
    // Nor does a card lie there, with no card's top edge, where the cards it would lie on show
    // their bottom edges across the part of them it would cover: what looked like a card's
    // corner is their pips (bellot's 7c halfway through deal 41 at 1024x768, its clubs under the
    // empty place below it and the 6d beside it).
    for p in Position::all() {
        let i = p.index();
        if reuse[i].is_some() || !matches!(seen[i], Seen::Unknown(_)) {
            continue;
        }
        let gone_under = (!card_like[i] || edge_strength[i] < TOP_EDGE)
            && p.covers()
                .any(|q| seen[q.index()] == Seen::Empty && !card_like[q.index()]);
        let shown_under = edge_strength[i] < TOP_EDGE
            && p.covers().all(|q| {
                matches!(seen[q.index()], Seen::Card(..))
                    && bottom_edge_shown(frame, located.slots[q.index()], located.slots[i], w)
            });
        if gone_under || shown_under {
            seen[i] = Seen::Empty;
        }
    }
    // Nor can the two it covers be gone.
    for p in Position::all() {
        if seen[p.index()] == Seen::Empty {
            if let Some(kids) = p.covered_by() {
                if kids.iter().any(|k| seen[k.index()] != Seen::Empty) {
                    seen[p.index()] = Seen::Unknown(0.0);
                }
            }
        }
    }
    // What an empty place's strip shows, when not the felt, is the cards above it hanging down
    // into it. An empty place that shows no felt and lies under no card is not as found: the
    // table is not where it was located, or something covers it. It is unsure.
    let present: Vec<bool> = seen[..PYRAMID_SIZE]
        .iter()
        .map(|s| *s != Seen::Empty)
        .collect();
    for i in 0..PYRAMID_SIZE {
        if seen[i] != Seen::Empty || reuse[i].is_some() || felt[i] > 0.5 {
            continue;
        }
        let slot = located.slots[i];
        let strip = Rect::new(slot.x, slot.y, slot.w, strip as i32);
        let covered = |r: Rect| {
            let across = (r.right().min(strip.right()) - r.x.max(strip.x)).max(0);
            let down = (r.bottom().min(strip.bottom()) - r.y.max(strip.y)).max(0);
            across * down
        };
        let under_a_card = (0..PYRAMID_SIZE)
            .any(|j| j != i && present[j] && 10 * covered(located.slots[j]) > strip.w * strip.h);
        if !under_a_card {
            seen[i] = Seen::Unknown(0.0);
        }
    }
    unsure.retain(|&(i, _)| matches!(seen[i], Seen::Unknown(_)));
    // Where each card read was found, against its place: where its template fitted, less where
    // that template lies on its card. The same for every card at rest; not for one in flight
    // over a place (a card drawn from the stock, halfway to the waste, is read as the stock's).
    let template_pixel = matcher.template_pixel(w);
    let index_at: Vec<Option<(f32, f32)>> = (0..places.len())
        .map(|i| {
            let (look, _) = looks[i].as_ref()?;
            let card = seen[i].card()?;
            let placed = matcher
                .placed
                .as_ref()
                .map_or((0.0, 0.0), |p| p[card.index()]);
            let ((ox, oy), r) = (look.offset(), places[i].0);
            Some((
                corners[i].0 + (ox - placed.0) * template_pixel.0 - r.x as f32,
                corners[i].1 + (oy - placed.1) * template_pixel.1 - r.y as f32,
            ))
        })
        .collect();
    let limit = if matcher.placed.is_some() {
        OFF_PLACE
    } else {
        OFF_PLACE_UNPLACED
    };
    let rects: Vec<Rect> = places.iter().map(|(r, _)| *r).collect();
    let misplaced = off_their_places(&index_at, &rects, w, limit);
    let mut pyramid = [Seen::Empty; PYRAMID_SIZE];
    pyramid.copy_from_slice(&seen[..PYRAMID_SIZE]);
    let stock_top = seen[PYRAMID_SIZE];
    Board {
        pyramid,
        stock_present: stock_top != Seen::Empty,
        stock_top,
        waste: seen[PYRAMID_SIZE + 1],
        unsure,
        misplaced,
    }
}

/// How far a card's index may lie from where the other cards' indices lie on their places, in
/// card widths, before the card is taken for one off its place, where the template set says where
/// each template lies on its card (`Manifest::placed`). At rest, over 3 deals of every theme at
/// five sizes, the indices lay within 0.046 of the others' (0.035 but for gnomangelo_bitmap and
/// tarocco); a card drawn from the stock a sixth of the way to the waste lies 0.1 off.
const OFF_PLACE: f32 = 0.06;
/// The same for a set made before it said where its templates lie: then a face card showing
/// only a picture, lined up with the others a few pixels off, lies up to 0.07 off at rest.
const OFF_PLACE_UNPLACED: f32 = 0.1;
/// How much further a pile's card may lie: the piles are placed from the card height found, below
/// the pyramid, and a table located a little off puts them further off than its pyramid's slots
/// (atlasnye's stock at 2560x1440@2.5, 6 pyramid cards left, lay 0.065 card widths below the
/// pyramid cards' median).
const PILE_LEEWAY: f32 = 0.025;
/// The largest drift of the cards from their slots, per pixel across (down), that a layout fitted
/// with steps a little off gives (3.5 % at 3840x2160, swiss-xvii halfway through deal 53).
const MOST_DRIFT: f32 = 0.05;

/// The places whose card's index (`index_at`, against the corner of the place `places[i]`, for
/// the places read as a card) lies more than `limit` card widths off where the others lie:
/// against the line that fits the pyramid's cards best across and down (a layout fitted with its
/// steps a little off puts the cards further from their slots the further out they lie; Theil and
/// Sen's line, which one card off does not move), the piles' (`PYRAMID_SIZE` on) with
/// `PILE_LEEWAY` more. None with fewer than three cards read, or none of them in the pyramid.
fn off_their_places(
    index_at: &[Option<(f32, f32)>],
    places: &[Rect],
    card_w: f32,
    limit: f32,
) -> Vec<usize> {
    let read: Vec<(usize, (f32, f32))> = index_at
        .iter()
        .enumerate()
        .filter_map(|(i, at)| Some((i, (*at)?)))
        .collect();
    if read.len() < 3 {
        return Vec::new();
    }
    let pyramid: Vec<&(usize, (f32, f32))> =
        read.iter().filter(|(i, _)| *i < PYRAMID_SIZE).collect();
    // The line along one axis, from the pyramid's cards: (drift per pixel, offset at position 0,
    // and the span of positions it was fitted over: it is not drawn on past them, where a drift
    // measured over a few rows would carry its rounding far).
    let line = |axis: usize| -> (f32, f32, f32, f32) {
        let pos = |i: usize| {
            let r = places[i];
            if axis == 0 {
                r.x as f32
            } else {
                r.y as f32
            }
        };
        let off = |at: (f32, f32)| if axis == 0 { at.0 } else { at.1 };
        let mut slopes = Vec::new();
        for (a, &&(i, at)) in pyramid.iter().enumerate() {
            for &&(j, bt) in &pyramid[a + 1..] {
                let apart = pos(j) - pos(i);
                if apart.abs() >= card_w / 2.0 {
                    slopes.push((off(bt) - off(at)) / apart);
                }
            }
        }
        let slope = if pyramid.len() >= 4 && !slopes.is_empty() {
            median(&mut slopes).clamp(-MOST_DRIFT, MOST_DRIFT)
        } else {
            0.0
        };
        let mut offsets: Vec<f32> = pyramid
            .iter()
            .map(|&&(i, at)| off(at) - slope * pos(i))
            .collect();
        let (lo, hi) = pyramid
            .iter()
            .fold((f32::MAX, f32::MIN), |(lo, hi), &&(i, _)| {
                (lo.min(pos(i)), hi.max(pos(i)))
            });
        (slope, median(&mut offsets), lo, hi)
    };
    if pyramid.is_empty() {
        return Vec::new();
    }
    let (across, down) = (line(0), line(1));
    read.iter()
        .filter(|&&(i, (x, y))| {
            let r = places[i];
            let on = |(slope, offset, lo, hi): (f32, f32, f32, f32), pos: i32| {
                offset + slope * (pos as f32).clamp(lo, hi)
            };
            let (ex, ey) = (on(across, r.x), on(down, r.y));
            let reach = if i < PYRAMID_SIZE {
                limit
            } else {
                limit + PILE_LEEWAY
            };
            (x - ex).abs().max((y - ey).abs()) > reach * card_w
        })
        .map(|&(i, _)| i)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vision::dots::{lane_sums, lane_sums_portable};

    /// Sampled down by a step that is not a whole number of pixels, each frame pixel counts by
    /// how much of it a sample covers: a one-pixel line falls into the samples it crosses by
    /// its share of each, wherever the steps fall.
    /// `view_at` undoes `lattice`, and every lattice point names one view.
    #[test]
    fn views_and_lattice_points_go_both_ways() {
        for spread in [SPREAD, REACH] {
            let side = 2 * spread + 1;
            let look = Look {
                patches: Vec::new(),
                views: (0..4 * side * side).map(|_| OnceLock::new()).collect(),
                anchor: (REACH, REACH),
                spread,
                best: Vec::new(),
                moved: (0.0, 0.0),
                duels: Mutex::new(Vec::new()),
            };
            let mut seen = vec![false; 4 * side * side];
            for i in 0..4 * side * side {
                let (x, y) = look.lattice(i);
                assert!(x < 2 * side && y < 2 * side);
                assert_eq!(look.view_at(x, y), i);
                assert!(!std::mem::replace(&mut seen[y * 2 * side + x], true));
            }
        }
    }

    #[test]
    fn a_sample_weighs_each_pixel_by_how_much_of_it_it_covers() {
        // White, with a black column at x = 2.
        let frame = RgbaImage::from_fn(6, 3, |x, _| {
            let v = if x == 2 { 0 } else { 255 };
            image::Rgba([v, v, v, 255])
        });
        // Four samples across six pixels: [0, 1.5), [1.5, 3), [3, 4.5), [4.5, 6).
        let patch = sample(&frame, 0.0, 0.0, 6.0, 3.0, 4, 1);
        let row: Vec<f32> = patch.rgb.chunks(3).map(|px| px[0]).collect();
        // The second covers half of pixel 1 and all of the black pixel 2: a third white.
        let expected = [255.0, 85.0, 255.0, 255.0];
        for (got, want) in row.iter().zip(expected) {
            assert!((got - want).abs() < 1e-3, "{row:?}");
        }
        // Shifted by three quarters of a pixel, the line is split between two samples, by how
        // much of it each covers (a quarter and three quarters of a pixel).
        let patch = sample(&frame, 0.75, 0.0, 4.5, 3.0, 3, 1);
        let row: Vec<f32> = patch.rgb.chunks(3).map(|px| px[0]).collect();
        let expected = [
            255.0 * (1.0 - 0.25 / 1.5),
            255.0 * (1.0 - 0.75 / 1.5),
            255.0,
        ];
        for (got, want) in row.iter().zip(expected) {
            assert!((got - want).abs() < 1e-3, "{row:?}");
        }
    }

    /// A soft straight edge (a cream card over another, shaded over three rows) is a card's top
    /// edge; pips scattered over a card's middle are not, even where they are sharp.
    #[test]
    fn unsure_places_are_named_with_their_close_candidates() {
        let card = |s: &str| s.parse::<Card>().unwrap();
        let mut pyramid = [Seen::Card(card("Kd"), 0.9); PYRAMID_SIZE];
        pyramid[3] = Seen::Unknown(0.5);
        pyramid[20] = Seen::Unknown(0.0);
        let board = Board {
            pyramid,
            stock_present: true,
            stock_top: Seen::Unknown(0.4),
            waste: Seen::Empty,
            unsure: vec![
                (3, vec![card("8c"), card("8s")]),
                (28, vec![card("Qh"), card("Qd")]),
            ],
            misplaced: Vec::new(),
        };
        assert_eq!(
            board.unknowns_with_candidates(),
            ["pyramid:3 (8c or 8s?)", "pyramid:20", "stock (Qh or Qd?)"]
        );
        assert_eq!(board.unknowns(), ["pyramid:3", "pyramid:20", "stock"]);
        assert_eq!(board.candidates(20), &[] as &[Card]);
    }

    #[test]
    fn a_card_off_its_place_is_told_from_the_others() {
        // Places 100 px wide in a row, 150 px apart, and two piles below; indices 2 px right and
        // 1 px down of their places, give or take a pixel; the fifth 9 px right.
        let mut places: Vec<Rect> = (0..PYRAMID_SIZE)
            .map(|i| Rect::new(150 * i as i32, 0, 100, 140))
            .collect();
        places.extend([Rect::new(0, 500, 100, 140), Rect::new(150, 500, 100, 140)]);
        let mut at = vec![None; PLACES];
        for (i, v) in [
            (2.0, 1.0),
            (3.0, 1.5),
            (1.0, 0.0),
            (2.0, 1.0),
            (11.0, 1.0),
            (2.5, 1.0),
        ]
        .into_iter()
        .enumerate()
        {
            at[i] = Some(v);
        }
        assert_eq!(off_their_places(&at, &places, 100.0, 0.06), [4]);
        assert!(off_their_places(&at, &places, 100.0, 0.1).is_empty());
        // A pile's card as far off is off too; one 7 px off is within its leeway.
        at[PYRAMID_SIZE] = Some((2.0, 10.0));
        at[PYRAMID_SIZE + 1] = Some((9.0, 1.0));
        assert_eq!(
            off_their_places(&at, &places, 100.0, 0.06),
            [4, PYRAMID_SIZE]
        );
        // Cards further from their slots the further right they lie, 2 px per slot (a layout
        // whose steps are a little off): none is off its place but the one off that line.
        let drifting: Vec<Option<(f32, f32)>> = (0..PLACES)
            .map(|i| (i < 8).then_some((2.0 * i as f32, 1.0)))
            .collect();
        assert!(off_their_places(&drifting, &places, 100.0, 0.06).is_empty());
        let mut one_off = drifting.clone();
        one_off[3] = Some((6.0 + 8.0, 1.0));
        assert_eq!(off_their_places(&one_off, &places, 100.0, 0.06), [3]);
        // Fewer than three cards read: nothing to tell them by.
        let few: Vec<Option<(f32, f32)>> = at.iter().take(2).copied().collect();
        assert!(off_their_places(&few, &places, 100.0, 0.06).is_empty());
    }

    #[test]
    fn top_edge_is_one_line_across() {
        let card = image::Rgba([236, 232, 214, 255]);
        let mut soft = RgbaImage::from_pixel(120, 80, card);
        for x in 0..120 {
            for (y, v) in [(38, 230), (39, 222), (40, 214), (41, 206)] {
                soft.put_pixel(x, y, image::Rgba([v, v, v - 10, 255]));
            }
        }
        assert!(top_edge_continuity(&soft, 10, 40, 100.0) > 0.95);
        let mut pips = RgbaImage::from_pixel(120, 80, card);
        for (px, py) in [(20, 30), (55, 38), (85, 42)] {
            for y in py..py + 8 {
                for x in px..px + 8 {
                    pips.put_pixel(x, y, image::Rgba([20, 20, 20, 255]));
                }
            }
        }
        let scattered = top_edge_continuity(&pips, 10, 40, 100.0);
        assert!(scattered < TOP_EDGE, "{scattered}");
        // A line across a court card's picture, with patches of other colours below it, is no
        // card's edge, though the picture changes all along it (anglo's Kd hanging down into an
        // empty place, whose line crossing red, blue and gold read as 0.68 of an edge).
        let patches = [[200, 30, 30], [40, 60, 190], [220, 180, 40]];
        let patch = |x: u32, y: u32| {
            let [r, g, b] = patches[(x as usize / 9 + y as usize / 7) % patches.len()];
            image::Rgba([r, g, b, 255])
        };
        let picture = RgbaImage::from_fn(120, 80, |x, y| if y < 40 { card } else { patch(x, y) });
        let across_a_picture = top_edge_continuity(&picture, 10, 40, 100.0);
        assert!(across_a_picture < TOP_EDGE, "{across_a_picture}");
        // A card lying over that picture, its plain face below the line, is an edge.
        let face = RgbaImage::from_fn(120, 80, |x, y| if y < 40 { patch(x, y) } else { card });
        assert!(top_edge_continuity(&face, 10, 40, 100.0) > 0.95);
    }

    #[test]
    fn left_edge_is_one_line_down() {
        let card = image::Rgba([250, 250, 250, 255]);
        // A card whose left edge is at x = 40, over another card's face: its outline runs down
        // the whole side, with its plain face right of it.
        let mut lying = RgbaImage::from_pixel(120, 80, card);
        for y in 20..80 {
            lying.put_pixel(40, y, image::Rgba([30, 30, 30, 255]));
        }
        let whole = left_edge_continuity(&lying, 40, 20, 100.0, 50.0);
        assert!(whole > 0.95, "{whole}");
        // Found from a corner snapped a few pixels off, as ornamental's soft edges are.
        let near = left_edge_continuity(&lying, 44, 20, 100.0, 50.0);
        assert!(near > 0.95, "{near}");
        // An empty slot over the middle of a card behind: a pip's side ends by it, no more.
        let mut pips = RgbaImage::from_pixel(120, 80, card);
        for y in 30..40 {
            for x in 30..40 {
                pips.put_pixel(x, y, image::Rgba([20, 20, 20, 255]));
            }
        }
        let pip = left_edge_continuity(&pips, 40, 20, 100.0, 50.0);
        assert!(pip < SIDE_EDGE, "{pip}");
    }

    /// A white card on the felt with a black inner frame 7 pixels inside its edges (a stronger
    /// line than the edge itself, as swiss-xvii's cards have): the corner is the card's, not the
    /// frame's, also with a row of pips (an upper card's) just above the card.
    #[test]
    fn corner_is_the_card_edge_not_its_inner_frame() {
        let felt = image::Rgba([40, 110, 60, 255]);
        let black = image::Rgba([0, 0, 0, 255]);
        let mut framed = RgbaImage::from_fn(200, 200, |x, y| {
            let inside = (30..130).contains(&x) && (30..180).contains(&y);
            let frame = (37..123).contains(&x)
                && (37..173).contains(&y)
                && (!(39..121).contains(&x) || !(39..171).contains(&y));
            match (inside, frame) {
                (false, _) => felt,
                (true, true) => black,
                (true, false) => image::Rgba([255, 255, 255, 255]),
            }
        });
        let slot = Rect::new(33, 33, 100, 150);
        let (x, y, _) = snap_corner(&Edges::new(&framed), slot, 50.0, 100.0);
        assert_eq!((x, y), (30.0, 30.0));
        for px in [45, 70, 95] {
            for y in 24..28 {
                for x in px..px + 8 {
                    framed.put_pixel(x, y, black);
                }
            }
        }
        let (x, y, _) = snap_corner(&Edges::new(&framed), slot, 50.0, 100.0);
        assert_eq!((x, y), (30.0, 30.0));
        // A light line down the felt beside the card, running on above it (a tree's trunk on a
        // card behind) is not its edge either.
        for y in 0..200 {
            for x in 22..24 {
                framed.put_pixel(x, y, image::Rgba([223, 223, 223, 255]));
            }
        }
        let slot = Rect::new(29, 33, 100, 150);
        let (x, y, _) = snap_corner(&Edges::new(&framed), slot, 50.0, 100.0);
        assert_eq!((x, y), (30.0, 30.0));
    }

    /// A gold frame just inside a card's top and left edges is a highlight (5 pixels wide); a
    /// white card with a red index and a grey border, or a red line along its top only, is not.
    #[test]
    fn a_coloured_frame_inside_the_edges_is_a_highlight() {
        let card = |band: Option<(image::Rgba<u8>, bool)>| {
            RgbaImage::from_fn(200, 200, |x, y| {
                let inside = (30..130).contains(&x) && (30..180).contains(&y);
                let rim = x < 35 || y < 35;
                match (inside, band) {
                    (false, _) => image::Rgba([40, 110, 60, 255]),
                    (true, Some((colour, both))) if rim && (both || y < 35) => colour,
                    (true, _) if x == 30 || y == 30 => image::Rgba([120, 120, 120, 255]),
                    (true, _) if (40..48).contains(&x) && (40..55).contains(&y) => {
                        image::Rgba([210, 20, 20, 255])
                    }
                    (true, _) => image::Rgba([255, 255, 255, 255]),
                }
            })
        };
        let gold = image::Rgba([255, 200, 30, 255]);
        let band = highlight_band(&card(Some((gold, true))), 30.0, 30.0, 100.0, 50.0);
        assert_eq!(band, Some(((0.05, 0.05), [255, 200, 30])));
        assert_eq!(highlight_band(&card(None), 30.0, 30.0, 100.0, 50.0), None);
        let red = image::Rgba([210, 20, 20, 255]);
        let top_only = highlight_band(&card(Some((red, false))), 30.0, 30.0, 100.0, 50.0);
        assert_eq!(top_only, None);
    }

    fn vector(n: usize, seed: u32) -> Vec<f32> {
        (0..n as u32)
            .map(|i| {
                ((i.wrapping_mul(2_654_435_761) ^ seed.wrapping_mul(40_503)) % 2001) as f32 / 1000.0
                    - 1.0
            })
            .collect()
    }

    /// `dots` gives, bit for bit, what the portable lanes give and what `dot` gives pair by pair,
    /// at the template's length and at lengths with a tail.
    #[test]
    fn dots_are_the_same_sums_everywhere() {
        for n in [4860, 16, 13, 7, 0] {
            let a: Vec<Vec<f32>> = (0..4).map(|s| vector(n, s)).collect();
            let b: Vec<Vec<f32>> = (4..6).map(|s| vector(n, s)).collect();
            let (a, b): ([&[f32]; 4], [&[f32]; 2]) = (
                std::array::from_fn(|i| &a[i][..]),
                std::array::from_fn(|j| &b[j][..]),
            );
            let fast = dots(a, b);
            let rows = Rows {
                count: 1,
                len: n / 8 * 8,
                a_stride: 0,
                b_stride: 0,
            };
            assert_eq!(
                lane_sums(a, b, rows),
                lane_sums_portable(a, b, rows),
                "length {n}"
            );
            for i in 0..4 {
                for j in 0..2 {
                    assert_eq!(fast[i][j].to_bits(), dot(a[i], b[j]).to_bits());
                    let plain: f64 = a[i].iter().zip(b[j]).map(|(x, y)| (x * y) as f64).sum();
                    assert!((fast[i][j] as f64 - plain).abs() < 1e-3, "length {n}");
                }
            }
        }
    }

    /// Scoring up to eight views at once gives, bit for bit, what scoring each alone gives.
    #[test]
    fn views_scored_together_score_as_alone() {
        let m = made_up_matcher();
        let side = 2 * SPREAD + 1;
        let look = Look {
            patches: (1..=4).map(corner).collect(),
            views: (0..4 * side * side).map(|_| OnceLock::new()).collect(),
            anchor: (REACH, REACH),
            spread: SPREAD,
            best: Vec::new(),
            moved: (0.0, 0.0),
            duels: Mutex::new(Vec::new()),
        };
        let views: Vec<usize> = [0, 7, 30, 60, 88, 100, 123, 150, 171, 190]
            .into_iter()
            .filter(|&i| look.view(i).is_some())
            .collect();
        assert!(views.len() >= VIEWS_AT_ONCE, "views that are not flat");
        for template in m.templates.iter().take(5) {
            for n in 1..=VIEWS_AT_ONCE {
                let together = scores(&look, &views[..n], template);
                for (j, &i) in views[..n].iter().enumerate() {
                    let alone = look.view(i).unwrap().score(&look.patches, template);
                    assert_eq!(together[j].to_bits(), alone.to_bits());
                }
            }
        }
    }

    /// A matcher of 52 made-up templates.
    fn made_up_matcher() -> Matcher {
        let n = (TEMPLATE_W * TEMPLATE_H * 3) as usize;
        let raw = (0..52).map(|k| vector(n, k).iter().map(|v| 128.0 + 100.0 * v).collect());
        Matcher::from_raw(raw.collect(), [0.05, 0.04, 0.15, 0.25], 1.4, 100.0)
    }

    /// A matcher under a highlight is made once for a band, colour, width and shift, and kept:
    /// asked again, the same one; its templates are those made afresh; other bands get others.
    #[test]
    fn matchers_under_a_highlight_are_kept() {
        let m = made_up_matcher();
        let first = m.under_band((0.1, 0.08), [200, 180, 40], 90.0, (0.5, 0.0));
        let again = m.under_band((0.1, 0.08), [200, 180, 40], 90.0, (0.5, 0.0));
        assert!(Arc::ptr_eq(&first, &again));
        let fresh = m.make_under_band((0.1, 0.08), [200, 180, 40], 90.0, (0.5, 0.0));
        for (kept, fresh) in first.templates.iter().zip(&fresh.templates) {
            assert_eq!(kept.values, fresh.values);
        }
        let shifted = m.under_band((0.1, 0.08), [200, 180, 40], 90.0, (1.0, 0.0));
        assert!(!Arc::ptr_eq(&first, &shifted));
        assert_ne!(first.templates[0].values, shifted.templates[0].values);
        // Only the last few are kept.
        for i in 0..KEPT_BANDED {
            m.under_band((0.1, 0.08), [200, 180, 40], 90.0, (i as f32 + 2.0, 0.0));
        }
        let after = m.under_band((0.1, 0.08), [200, 180, 40], 90.0, (0.5, 0.0));
        assert!(!Arc::ptr_eq(&first, &after));
        assert_eq!(m.banded.lock().unwrap().len(), KEPT_BANDED);
    }

    /// A corner as `look` samples it, softened, with values that vary smoothly and at random.
    fn corner(seed: u32) -> Corner {
        let (w, h) = (
            TEMPLATE_W as usize + 2 * REACH,
            TEMPLATE_H as usize + 2 * REACH,
        );
        let raw: Vec<f32> = vector(w * h * 3, seed)
            .iter()
            .enumerate()
            .map(|(i, v)| 128.0 + 60.0 * ((i / 3 % w) as f32 / 5.0).sin() + 40.0 * v)
            .collect();
        Corner::new(raw, w, h)
    }

    /// Windows read where they lie in the corner, against templates' padded rows, give what the
    /// windows copied out give; the AVX and portable lanes agree bit for bit.
    #[test]
    fn row_dots_read_windows_where_they_lie() {
        let corner = corner(7);
        let (tw, th) = (TEMPLATE_W as usize, TEMPLATE_H as usize);
        let templates: Vec<Template> = (0..2)
            .map(|s| Template::new(&vector(tw * th * 3, 20 + s)))
            .collect();
        let at = [(0, 0), (3, 5), (2 * REACH, 2 * REACH), (2 * REACH, 0)];
        let starts = at.map(|(ox, oy)| &corner.soft[(oy * corner.w + ox) * 3..]);
        let padded = [0, 1].map(|k| templates[k].padded.as_slice());
        let got = row_dots(starts, padded, corner.rows());
        assert_eq!(
            lane_sums(starts, padded, corner.rows()),
            lane_sums_portable(starts, padded, corner.rows())
        );
        for (i, &(ox, oy)) in at.iter().enumerate() {
            let window = window_of(&corner.soft, corner.w, (ox, oy), (tw, th));
            for (k, template) in templates.iter().enumerate() {
                let plain: f64 = window
                    .iter()
                    .zip(&template.values)
                    .map(|(x, y)| (x * y) as f64)
                    .sum();
                assert!(
                    (got[i][k] as f64 - plain).abs() < 1e-2 * plain.abs().max(1.0),
                    "window at ({ox}, {oy}), template {k}: {} against {plain}",
                    got[i][k]
                );
            }
        }
    }

    /// The rough correlation, without the border correction, is close to the exact one at every
    /// offset, and the offset fitting best exactly is among the few best rough ones.
    #[test]
    fn the_rough_correlation_is_close_to_the_exact_one() {
        let (tw, th) = (TEMPLATE_W as usize, TEMPLATE_H as usize);
        for seed in 0..4 {
            let patches = vec![corner(seed)];
            // A template cut from the corner itself, so that one offset fits far best.
            let cut = window_of(&patches[0].raw, patches[0].w, (4, 7), (tw, th));
            let template = Template::new(&normalised(&soften(&cut, tw, th)).expect("not flat"));
            let span = 2 * REACH + 1;
            let mut scores: Vec<(f32, f32, usize)> = (0..span * span)
                .filter_map(|i| {
                    let view = View::at(&patches, 0, i % span, i / span)?;
                    let exact = view.score(&patches, &template);
                    let [rough] = patches[0].rough_correlations([(i % span, i / span)], &template);
                    assert!((exact - rough).abs() < 0.05, "{exact} against {rough}");
                    Some((rough, exact, i))
                })
                .collect();
            let best = scores
                .iter()
                .max_by(|a, b| a.1.total_cmp(&b.1))
                .expect("views")
                .2;
            assert_eq!(best, 7 * span + 4, "the template's own place fits best");
            scores.sort_by(|a, b| b.0.total_cmp(&a.0));
            assert!(scores[..ANCHOR_CANDIDATES].iter().any(|s| s.2 == best));
        }
    }
}
