//! Duels between two templates: where two cards' templates differ (for two cards of one rank,
//! where their suits do; of one suit, where their ranks do), and how clearly a corner looks like
//! one rather than the other there, weighed by how much those templates can tell.

use super::*;
use crate::cards::Suit;
use crate::vision::templates::TEMPLATE_W;
use std::sync::{Arc, OnceLock};

impl Matcher {
    /// Where templates `a` and `b` differ, for their duels (see `DuelPair`); None when the
    /// templates cannot tell them apart.
    pub(crate) fn duel_pair(&self, a: usize, b: usize) -> Option<DuelPair> {
        let (ta, tb) = (&self.templates[a].values, &self.templates[b].values);
        // (Not where the outline of a card over a covered card can reach: see `outline_rows`.)
        let end = self.outline_rows(a, b) * TEMPLATE_W as usize * 3;
        // Where they differ: for two cards of one rank, where the suits' means differ (see
        // `suits_differ`), or, on templates blurred for smaller cards, where the two templates
        // differ as the suits do when they are alike there (see `suits_differ_under`); of one
        // suit, where the ranks differ in every suit alike (see `ranks_differ`).
        // Blurring fades a small glyph under the rank faster than a big pip, so the place the
        // suits differ most can leave the glyph out. Templates used as calibrated were read
        // back on the calibration deal with these very duels at 1.3 times the size (see
        // `read_back`), which refused the sets that weighed their glyph-less ranks there:
        // gnomangelo and gnomangelo_bitmap calibrated at 800x600, whose aces and threes are
        // barely told apart there either way (weighed by their own templates, gnomangelo_bitmap
        // then calibrated and read 21 places wrong on deals 20 and 21).
        let apart = |ma: &[f32], mb: &[f32]| -> Vec<f32> {
            ma.iter().zip(mb).map(|(x, y)| (x - y).abs()).collect()
        };
        let one_rank = !self.pairwise && a % 13 == b % 13;
        // The suits' difference, signed (for two cards of one rank).
        let mut suits = Vec::new();
        let diffs = if self.pairwise {
            apart(ta, tb)
        } else if one_rank {
            if self.suits_shown_apart(a / 13, b / 13) < MIN_APART {
                return None;
            }
            suits = self.suits_differ_signed(a / 13, b / 13);
            suits.iter().map(|d| d.abs()).collect()
        } else if a / 13 == b / 13 {
            self.ranks_differ(a % 13, b % 13)
        } else {
            apart(ta, tb)
        };
        let mask_of = |diffs: &[f32]| -> Vec<usize> {
            let cut = diffs[..end].iter().cloned().fold(0.0, f32::max) * 0.35;
            (0..end).filter(|&i| diffs[i] >= cut).collect()
        };
        let own = |mask: &[usize]| -> f32 { mask.iter().map(|&i| (ta[i] - tb[i]).powi(2)).sum() };
        let mut mask = mask_of(&diffs);
        if one_rank && self.prepared_smaller() {
            let apart: f32 = mask.iter().map(|&i| diffs[i].powi(2)).sum();
            if own(&mask) < (ALIKE_WHERE_SUITS_DIFFER * ALIKE_WHERE_SUITS_DIFFER) * apart {
                mask = mask_of(&self.suits_differ_under(a, b, &suits, end)?);
            }
        }
        let dab = own(&mask);
        if dab <= 0.0 {
            return None;
        }
        let within: Vec<usize> = surroundings(&mask, DUEL_REACH)
            .into_iter()
            .filter(|&i| i < end)
            .collect();
        Some(DuelPair {
            mask_len: mask.len(),
            dab,
            region: runs(&within),
        })
    }

    /// Of `0..count`, those whose two `cards` both have an index corner (see `no_index`); all of
    /// them when none does.
    fn with_index(&self, count: usize, cards: impl Fn(usize) -> [usize; 2]) -> Vec<usize> {
        let shown: Vec<usize> = (0..count)
            .filter(|&i| cards(i).iter().all(|&k| (self.no_index >> k) & 1 == 0))
            .collect();
        if shown.is_empty() {
            (0..count).collect()
        } else {
            shown
        }
    }

    /// Where two suits differ the same way under most ranks: per template value, the difference
    /// of the two suits' means, times how much of it goes one way (the sum of the ranks'
    /// differences over the sum of their sizes: 1 when every rank's goes the same way, near 0
    /// when as much goes each way). What lies past a card's rounded corner (felt, or the card
    /// under it) differs between two cards by where each lay in the calibration deal, one way
    /// under some ranks and the other way under others; the suit's glyph differs the same way
    /// under every rank that shows it. (The means alone kept the first: simplistic's clubs lay
    /// on the felt more often than its spades, and in MSC's look a covered ace whose corner lay
    /// on another card read as the Ac, one on the felt as the As.)
    pub(crate) fn suits_differ(&self, sa: usize, sb: usize) -> Vec<f32> {
        self.suits_differ_signed(sa, sb)
            .into_iter()
            .map(f32::abs)
            .collect()
    }

    /// Where cards `a` and `b`, of one rank, differ as their suits do: per template value, the
    /// suits' difference (`suits`, as `suits_differ` but signed) where the two templates differ the
    /// same way, and at most as much as they do; else 0. None when, over the first `end` values,
    /// that is nowhere `SUITS_SHOWN_UNDER_RANK` of the suits' greatest difference: these two cards'
    /// templates are alike where the suits differ, and what tells them apart is how each glyph fell
    /// on the pixels. The suits differ most where only some ranks show them: gnomangelo's big pips
    /// at the corner's bottom right on its fours to tens. Its aces, twos and threes show blank
    /// paper there; calibrated at 2560x1440 and read at 800x600, its covered 3c and 3s templates
    /// were alike there to a millionth of the others' difference, and their duels went whichever
    /// way that went, by the full margin. Their own glyphs under the rank differ by a fifth to a
    /// half of the suits' greatest difference (every installed theme, at 800x600 and 2560x1440).
    pub(crate) fn suits_differ_under(
        &self,
        a: usize,
        b: usize,
        suits: &[f32],
        end: usize,
    ) -> Option<Vec<f32>> {
        let (ta, tb) = (&self.templates[a].values, &self.templates[b].values);
        let under: Vec<f32> = suits
            .iter()
            .zip(ta.iter().zip(tb))
            .map(|(&m, (&x, &y))| match (x - y) * m > 0.0 {
                true => m.abs().min((x - y).abs()),
                false => 0.0,
            })
            .collect();
        let most = |v: &[f32]| v[..end].iter().fold(0.0f32, |top, x| top.max(x.abs()));
        (most(&under) >= SUITS_SHOWN_UNDER_RANK * most(suits)).then_some(under)
    }

    /// `suits_differ`, signed: positive where suit `sa`'s templates are the brighter.
    fn suits_differ_signed(&self, sa: usize, sb: usize) -> Vec<f32> {
        let ranks = self.with_index(13, |r| [sa * 13 + r, sb * 13 + r]);
        let n = self.templates[0].values.len();
        (0..n)
            .map(|i| {
                let (mut sum, mut size) = (0.0f32, 0.0f32);
                for &r in &ranks {
                    let d = self.templates[sa * 13 + r].values[i]
                        - self.templates[sb * 13 + r].values[i];
                    sum += d;
                    size += d.abs();
                }
                if size > 0.0 {
                    sum / ranks.len() as f32 * (sum.abs() / size)
                } else {
                    0.0
                }
            })
            .collect()
    }

    /// Where two ranks differ in every suit alike: per template value, the least difference of
    /// the two ranks' templates over the suits when all go the same way, else 0.
    pub(crate) fn ranks_differ(&self, ra: usize, rb: usize) -> Vec<f32> {
        let suits = self.with_index(4, |s| [s * 13 + ra, s * 13 + rb]);
        let n = self.templates[0].values.len();
        (0..n)
            .map(|i| {
                let (mut lo, mut hi) = (f32::INFINITY, f32::NEG_INFINITY);
                for &s in &suits {
                    let d = self.templates[s * 13 + ra].values[i]
                        - self.templates[s * 13 + rb].values[i];
                    lo = lo.min(d);
                    hi = hi.max(d);
                }
                if lo > 0.0 {
                    lo
                } else if hi < 0.0 {
                    -hi
                } else {
                    0.0
                }
            })
            .collect()
    }

    /// How clearly the corner looks like card `a` rather than card `b`, judged only where they
    /// differ: +1 exactly `a`, −1 exactly `b`, 0 when the templates cannot tell.
    ///
    /// Where they differ is taken from where their suits differ under most ranks alike (two cards
    /// of one rank: see `suits_differ`), or from where their ranks differ in every suit alike (one
    /// suit), so that it is the glyph that differs and not how each template's glyph fell on the
    /// pixels, or what lay past its card's corner. Each template is lined up on its own over that part and what is around it, within
    /// half a pixel of where it fits the whole corner best: the suit under a rank can sit a little
    /// off where the rank puts it.
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
    pub(crate) fn duel_afresh(&self, look: &Look, a: usize, b: usize) -> f32 {
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
        // them against the same pixels. Templates of another part of the card always are: that
        // part is looked at where the card's index corner was found, and its templates were cut
        // lined up by their corners too, so a template that fits best elsewhere has moved onto
        // what is not its own (tango's small club and spade pips in the gap between two cards:
        // at 800x600 a Tc's gap fitted the Ts's template moved a pixel, and was read as it).
        let (mut at_a, mut at_b) = (look.best[a].1, look.best[b].1);
        let most_apart = if self.pairwise { 0 } else { 2 };
        if look.apart(at_a, at_b) > most_apart {
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
        let evidence = pixels
            .min(self.suits_weight(a, b))
            .min(self.ranks_weight(a, b));
        ((db - da) / dab).clamp(-1.0, 1.0) * evidence
    }

    /// How much a duel between two court cards `a` and `b` of one suit counts for the ranks it is
    /// between: under 1 for two ranks the templates show barely apart (see `ranks_apart`; the
    /// threshold is the suits', `SUITS_CLEARLY_APART`), at any size; else 1. Two corners showing
    /// the same pip and no rank (guyenne-classic's Js, Qs and Ks, 0.96 to 0.99 alike) differ only
    /// in how they fell on the pixels, which a duel would take for evidence. (Over every rank,
    /// the ranks' spread over only four suits is wide where a corner shows pips or pictures
    /// beside the rank: number cards' duels lost weight they needed, gnomangelo's among them.)
    pub(crate) fn ranks_weight(&self, a: usize, b: usize) -> f32 {
        let courts = |k: usize| k % 13 >= COURTS;
        if a / 13 == b / 13 && a % 13 != b % 13 && courts(a) && courts(b) && !self.pairwise {
            (self.ranks_apart[a % 13][b % 13] / SUITS_CLEARLY_APART).min(1.0)
        } else {
            1.0
        }
    }

    /// How far apart the templates show suits `sa` and `sb` (see `suits_apart`), as prepared and
    /// as calibrated, whichever is less: suits the calibrated corners do not tell apart (tango's
    /// clubs and spades in the msc look, whose corners end in the first rows of the pip) are no
    /// further apart blurred for smaller cards, however the figure moves. None at all, for suits
    /// of one colour, in a set that reads the suit beside the rank (`suit_beside`).
    pub(crate) fn suits_shown_apart(&self, sa: usize, sb: usize) -> f32 {
        let one_colour = Suit::ALL[sa].is_red() == Suit::ALL[sb].is_red();
        if self.suit_beside && one_colour && sa != sb {
            return 0.0;
        }
        self.suits_apart[sa][sb].min(self.calibrated_suits_apart[sa][sb])
    }

    /// How much card `k`'s template varies as calibrated (the standard deviation of its values,
    /// 0 to 255): ink on paper varies a lot, paper with faint shading little.
    pub(crate) fn contrast(&self, k: usize) -> f32 {
        let v = &self.raw[k];
        if v.is_empty() {
            return 0.0;
        }
        let n = v.len() as f32;
        let mean = v.iter().sum::<f32>() / n;
        (v.iter().map(|x| (x - mean) * (x - mean)).sum::<f32>() / n).sqrt()
    }

    /// Whether cards `a` and `b` are two suits of one rank that the templates show barely apart
    /// (under `SUITS_CLEARLY_APART`), at any size.
    pub(crate) fn suits_barely_apart(&self, a: usize, b: usize) -> bool {
        a % 13 == b % 13
            && a != b
            && !self.pairwise
            && self.suits_apart[a / 13][b / 13] < SUITS_CLEARLY_APART
    }

    /// Whether the templates are prepared for cards smaller than at calibration (blurred: see
    /// `prepare`).
    pub(crate) fn prepared_smaller(&self) -> bool {
        self.prepared_width < 0.97 * self.calibrated_width
    }

    /// How much a duel between cards `a` and `b` counts for the suits it is between: under 1 for
    /// two suits of one rank the templates show barely apart, on cards smaller than at calibration
    /// (see `SUITS_CLEARLY_APART`); else 1.
    pub(crate) fn suits_weight(&self, a: usize, b: usize) -> f32 {
        if self.prepared_smaller() && self.suits_barely_apart(a, b) {
            self.suits_apart[a / 13][b / 13] / SUITS_CLEARLY_APART
        } else {
            1.0
        }
    }
}

/// Where two templates differ, as their duels weigh it: how many values differ by at least a
/// third of the most (`mask_len`), the templates' squared distance over those (`dab`), and the
/// values within `DUEL_REACH` of them (runs of template values).
pub(crate) struct DuelPair {
    pub(crate) mask_len: usize,
    pub(crate) dab: f32,
    pub(crate) region: Vec<std::ops::Range<usize>>,
}

/// An empty `Matcher::duel_pairs`.
pub(crate) fn fresh_duel_pairs() -> Arc<Vec<OnceLock<Option<DuelPair>>>> {
    Arc::new((0..52 * 52).map(|_| OnceLock::new()).collect())
}

/// How many template values (pixels × channels) two templates must differ at for a duel's margin
/// to count in full; over fewer, it counts by the square root of the share. Under a selected
/// card's band, atlasnye_skat's 8d and 9d differ at about 30 values, where the 9 won by 0.23;
/// anglo_modern's ranks at 30 to 80 with margins of 0.7 and more.
pub(crate) const DUEL_PIXELS: f32 = 150.0;

/// How far apart (see `suits_apart`) two suits must be for a duel between them to count in full
/// on cards smaller than at calibration; closer, it counts by the share. Ornamental's clubs and
/// spades are 4.7 to 5.1 apart (the suit under a covered card's rank shows only its top), where
/// margins of up to 0.35 went the wrong way at 800x600 and 1024x768 (uncovered kings); other
/// themes' suits are 8 to 130 apart (swiss-xvii's 3.4 to 5.4, whose duels are all clear, 1). On
/// cards as large as at calibration or larger, the same duels all went the right way, by 0.32 or
/// more on covered cards (5 deals, every size): there they count in full.
pub(crate) const SUITS_CLEARLY_APART: f32 = 12.0;

/// The first court card's rank index (the jack's): court cards are the ones whose corners may
/// show no rank at all, only a pip or their picture (see `Matcher::ranks_weight`); every number
/// card prints its number.
const COURTS: usize = 10;

/// How far two cards of one rank may differ where the suits differ most, as a share of how far
/// the suits' means differ there (root of the squares' sums), and still be alike there (see
/// `duel_pair`). Calibrated at 1440x900, every installed theme's pairs differ there by 0.03
/// (anglo_bitmap's aces at 800x600) or more; calibrated at 2560x1440 and read at 800x600 and
/// 1024x768, those printing blank paper where the others print a pip by 0.0004 to 0.005
/// (gnomangelo's, gnomangelo_bitmap's and anglo_bitmap's aces, twos and threes) and every
/// other by 0.14 or more.
pub(crate) const ALIKE_WHERE_SUITS_DIFFER: f32 = 0.01;

/// How much two cards of one rank must differ where their suits do, as a share of the suits'
/// greatest difference, for a duel to weigh them there (see `suits_differ_under`). Their glyphs
/// under the rank differ by 0.23 (gnomangelo_bitmap's twos at 800x600) to 1 of it; less is the
/// pixels' grain.
pub(crate) const SUITS_SHOWN_UNDER_RANK: f32 = 0.1;

/// How far around the pixels where two templates differ, in template pixels, the duel lines them
/// up.
pub(crate) const DUEL_REACH: usize = 2;

/// The values of the pixels within `reach` (across and down) of a pixel with a value in `mask`,
/// every channel.
pub(crate) fn surroundings(mask: &[usize], reach: usize) -> Vec<usize> {
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
