//! The recogniser of card corners every game reads its cards with: a card's index corner, cut out
//! at the template size (`Look`), is compared with the 52 templates by normalised correlation
//! (`Matcher`), and the full deck (no card twice) settles near-ties. Close candidates then duel where they differ (see `Matcher::duel`);
//! a suit the templates do not show apart (a theme whose corner holds no suit) is never decided
//! (`apart` measures how far apart the templates show suits and ranks).
//! A selected card, whose highlight covers part of its corner, is matched against templates under
//! the same highlight. A card still torn between the suits of one rank is looked at again where a
//! covered card shows more: its top strip, and the middle of its face between the cards over it.
//! Anything under the confidence margin is reported as unknown; nothing is guessed. Where a game's
//! places are and what each shows is the game's (Pyramid's `board`, TriPeaks' `vision`).
//! Cutting a corner out is `sampling`'s, the dot products are `dots`', and where a card's edges
//! and corner lie is `card_edges`'.

mod apart;
mod duel;
mod look;
mod matcher;
mod prepare;

pub(crate) use apart::*;
pub(crate) use duel::*;

pub use look::Look;
pub(crate) use look::*;
pub use matcher::Matcher;
pub(crate) use matcher::*;

use crate::cards::Card;
use crate::vision::suits::{GlyphLook, SuitPrototypes, SUIT_MARGIN};
use crate::vision::templates::{TEMPLATE_H, TEMPLATE_W};
use std::sync::Arc;

pub use crate::vision::card_edges::{snap_corner, snap_pile_corner};
pub(crate) use crate::vision::dots::normalised;
pub use crate::vision::dots::{dot, dots};
pub(crate) use crate::vision::sampling::soften;
pub use crate::vision::sampling::{sample, sample_grid, window_of, Patch};

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

/// How far two duels together must favour one way of giving two places two cards (see `settle`):
/// `MIN_MARGIN` for each, as a sum of two.
pub(crate) const PAIR_MARGIN: f32 = MIN_MARGIN * std::f32::consts::SQRT_2;

/// The middle value of `v` (the upper of the two middle ones for an even count), sorting it.
pub(crate) fn median(v: &mut [f32]) -> f32 {
    v.sort_by(f32::total_cmp);
    v[v.len() / 2]
}

/// What a place's corner looked like, and the templates under a highlight it was looked at with,
/// when it has one (see `Matcher::under_band`).
pub(crate) type Looked = (Look, Option<Arc<Matcher>>);

/// The cards still free whose correlation is close to the best one's (at most six), best first.
pub(crate) fn close_candidates(look: &Look, free: &[bool; 52]) -> Vec<usize> {
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

/// Place `i` read as card `k` with `confidence`: so it is seen, and the card is no longer free.
pub(crate) fn take(seen: &mut [Seen], free: &mut [bool; 52], i: usize, k: usize, confidence: f32) {
    free[k] = false;
    seen[i] = Seen::Card(Card::from_index(k), confidence.clamp(0.0, 1.0));
}

/// How sure a read is, 0 to 1: the chosen card's correlation, held down where its lead over the
/// close runners-up (`decide`'s margin, −1 to 1) is slim.
pub fn confidence(score: f32, margin: f32) -> f32 {
    score.min(0.5 + margin / 2.0).clamp(0.0, 1.0)
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
    // deal while the corner fitted the Ks better). At every size: on cards larger than at
    // calibration, simplistic's covered Ac, whose corner shows only the top of the pip, fitted
    // the Ac better and lost its duel with the As by 0.22 (2560x1440, msc look).
    let leader = close[0];
    if leader != champion && matcher.suits_barely_apart(champion, leader) {
        margin = margin.min(0.0);
    }
    Some((champion, look.best[champion].0, margin))
}

/// Settles the `open` places, unsure which card they hold, by the full deck (see
/// `read_board_reusing`), claiming in `free` the cards it gives them; returns the places settled. First each is decided again among the cards still
/// free (a card read after it may have been its rival), until nothing changes. Then two places
/// each torn between the same two cards, every other candidate clearly beaten, take them one way
/// round or the other when the two duels together say so by `PAIR_MARGIN`.
pub(crate) fn settle(
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
        take(seen, free, i, k, confidence);
        i
    };
    loop {
        let mut changed = false;
        open.retain(|&i| {
            let (look, m) = look_of(i);
            match decide(m, look, free) {
                Some((k, score, margin)) if margin >= MIN_MARGIN => {
                    settled.push(claim(i, k, confidence(score, margin), free));
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
    let card = suit * 13 + rank;
    // The glyph may settle what the corner leaves open, not overturn what the corner leans to:
    // where the corner's leader beats the glyph's card by half the margin a read needs, the two
    // disagree (a glyph drawn small, or under a highlight, can look like another suit's).
    let leader = candidate_suits[0] * 13 + rank;
    let corner_against = if card == leader {
        0.0
    } else {
        matcher.duel(look, leader, card)
    };
    if margin < SUIT_MARGIN || corner_against >= MIN_MARGIN / 2.0 {
        return None;
    }
    free[card].then_some((card, confidence(score, margin)))
}

/// Whether a look is torn between the suits of one rank only: the close candidates of another
/// rank clearly beaten by the leader. Returns the rank, the candidate suits (the leader's first)
/// and the leader's correlation.
pub(crate) fn torn_between_suits(
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
/// candidates it does not clearly beat, or whose rank this art's corners draw barely apart from
/// the leader's (see `Matcher::ranks_weight`: guyenne-classic's court corners show a pip and no
/// letter, and a duel between them weighs how each fell on the pixels). Returns them (the
/// leader first) and the leader's correlation.
pub(crate) fn torn_between(
    matcher: &Matcher,
    look: &Look,
    free: &[bool; 52],
) -> Option<(Vec<usize>, f32)> {
    let (leader, score, _) = decide(matcher, look, free)?;
    let mut cards = vec![leader];
    for k in close_candidates(look, free) {
        let drawn_alike = matcher.ranks_weight(leader, k) < 1.0;
        if k != leader && (drawn_alike || matcher.duel(look, leader, k) < MIN_MARGIN) {
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
pub(crate) fn by_part(
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
    // The suit printed beside the rank (see `Manifest::suit_beside`), where the part shows the
    // suits clearly apart under every rank, tells them apart however alike its pips are as a
    // whole (tango's clubs and spades, 0.97).
    let suits_shown = matcher.suit_beside
        && (0..52).filter(|&k| candidates[k] && k != card).all(|k| {
            k % 13 == card % 13 && part.suits_shown_apart(k / 13, card / 13) >= SUITS_CLEARLY_APART
        });
    let alike = alike_past_corner(matcher, part, card, &candidates);
    // The card must be told by what its part shows: a template that is nearly blank paper
    // (ornamental's pip cards, whose gaps between the pips show no ink) fits any other blank
    // part by its faint shading, which normalised correlation magnifies (a covered 9h's gap
    // fitted the 9d's 0.90 and its own 0.16 at 1024x768, calibrated at 800x600).
    let shows_ink = part.contrast(card) >= PART_MIN_CONTRAST * matcher.contrast(card);
    (leader == card
        && shows_ink
        && (suits_shown || alike <= PART_MAX_ALIKE)
        && part_score >= MIN_SCORE
        && margin >= PART_MARGIN)
        .then(|| (card, confidence(score, margin)))
}

/// How alike (correlation) `part`'s template of `card` is to the other `candidates`' at most,
/// over what lies past the index corner of `matcher` (1 when that part shows nothing there).
pub(crate) fn alike_past_corner(
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
pub(crate) const PART_MARGIN: f32 = MIN_MARGIN;

/// How alike (correlation, past the index corner: see `alike_past_corner`) a candidate's template
/// of a part may be to another candidate's for the part to decide between them. Ornamental's kings
/// and aces, whose strips differ only by the suit under the rank (0.99 past the corner), went the
/// wrong way by margins up to 0.4 at 800x600 and 1024x768; anglo_poker's 2c and 2s strips,
/// whose big pips differ (0.945 past the corner; 0.963 as a whole), go the right way.
pub(crate) const PART_MAX_ALIKE: f32 = 0.96;

/// How much a card's template of a part must vary (see `Matcher::contrast`), as a share of how
/// much its index corner's does (this theme's ink on its paper), for the part to decide for that
/// card. Ornamental's gaps between the pips of its fours, fives, eights and nines vary 0.13 to
/// 0.20 of the corner; its other cards' (pips in the gap, court pictures) 0.75 to 1.2.
pub(crate) const PART_MIN_CONTRAST: f32 = 0.4;

#[cfg(test)]
mod tests;
