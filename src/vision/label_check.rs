//! Checking a calibration deal's labels against its pictures before anything is saved: a deck
//! file of another deal, two cards exchanged or a line shifted would otherwise make templates
//! that misread those cards from then on. The corners are compared as guided calibration groups
//! them (`groups::Features`), but against the labels given, each card on its own:
//! - its ink's colour: the corners split by colour (red and black, or four suit colours) must
//!   split as their labels do; a card clearly of the other side's colour disagrees (one a court
//!   figure or an ace's picture colours between the two is left to the other rules);
//! - its rank glyph: two cards whose labels are exchanged each look like the other's rank's
//!   cards (as closely as cards of this deal look like their nearest) and unlike their own; and
//!   when many cards on their own look like another rank's cards rather than their own (a deck
//!   of another deal, or shifted), every such card disagrees. One or two odd glyphs (court cards
//!   some art draws unlike their rank's others) are not taken for a wrong deck;
//! - its suit, between the two suits of one colour: for each rank, what tells the two cards of a
//!   colour apart under the rank glyph (the suit's pip) must agree with what tells them apart in
//!   the other ranks. Only where the theme shows the suits apart there (the corners hold a pip
//!   under the rank glyph, and most ranks agree clearly): a theme with no suit in its index
//!   corner, or only the pip's first rows at the corner's foot, gives no evidence either way.
//!   A rank that says the opposite is named only if its pips, each looked for where it matches
//!   best, lean the other way too (`suit_lean`): a court picture beside the index can line a
//!   corner up a few pixels off the others, and the fixed place then compares the wrong rows.
//!
//! Every rule compares the deal's own cards with each other, so it holds for any card art.

use super::calibrate::Corners;
use super::groups::{centre_of, clearly_apart, colour_distance, likeness, Box4, Features};
use super::recognize::{dot, normalised};
use super::templates::{TEMPLATE_H, TEMPLATE_W};
use crate::cards::{Card, Suit};

/// One card whose picture disagrees with its label.
#[derive(Clone, Debug, PartialEq)]
pub struct Disagreement {
    /// Which corner (0–27 the pyramid, row by row; 28–51 the stock, top first).
    pub corner: usize,
    pub label: Card,
    /// What about it disagrees.
    pub why: String,
}

/// Where a corner was seen, in words.
pub fn place_name(corner: usize) -> String {
    if corner < 28 {
        format!("pyramid card {}", corner + 1)
    } else {
        format!("stock card {}", corner - 27)
    }
}

/// The cards whose pictures disagree with their labels (`cards[i]` for `corners.crops[i]`),
/// none when all agree.
pub fn disagreements(corners: &Corners, cards: &[Card]) -> Vec<Disagreement> {
    disagreements_in(&Features::of(corners), cards)
}

/// The cards that disagree with their labels and, where any do, the refusal of art whose corners
/// show the suit where the rank should be (`suit_where_rank_is`), which then stands instead of
/// the labels': what calibration asks, with the corners looked at once. Refused where the
/// corners show no glyph at all: cut beside the cards' index (the table found off where it
/// lies), they are no evidence for or against any label, and templates made of them would read
/// nothing.
pub fn check(
    corners: &Corners,
    cards: &[Card],
) -> Result<(Vec<Disagreement>, Option<String>), String> {
    let features = Features::of(corners);
    if !features.glyph_found {
        return Err(NO_GLYPH.to_string());
    }
    let found = disagreements_in(&features, cards);
    let art = if found.is_empty() {
        None
    } else {
        suit_in_rank_place(&features, cards)
    };
    Ok((found, art))
}

/// Why corners that show no glyph are not checked (see `check`).
pub(crate) const NO_GLYPH: &str = "the corners cut where the table's layout puts the cards' index show no rank glyph: the table was not found where it lies, or the cards print no index in their top-left corner";

/// `disagreements`, from the corners' features.
fn disagreements_in(features: &Features, cards: &[Card]) -> Vec<Disagreement> {
    assert_eq!(
        cards.len(),
        features.shape_sim.len(),
        "a label for every corner"
    );
    let mut found: Vec<(usize, String)> = colour_disagreements(features, cards);
    found.extend(rank_disagreements(features, cards));
    let already: Vec<usize> = found.iter().map(|(corner, _)| *corner).collect();
    found.extend(suit_disagreements(features, cards, &already));
    // One entry a card: the first reason found.
    let mut out: Vec<Disagreement> = Vec::new();
    for (corner, why) in found {
        if !out.iter().any(|d| d.corner == corner) {
            out.push(Disagreement {
                corner,
                label: cards[corner],
                why,
            });
        }
    }
    out.sort_by_key(|d| d.corner);
    out
}

/// The message for labels that disagree with the pictures, naming the cards (at most twelve).
pub fn refusal(found: &[Disagreement]) -> String {
    let named: Vec<String> = found
        .iter()
        .take(12)
        .map(|d| format!("{} ({}) {}", d.label, place_name(d.corner), d.why))
        .collect();
    let more = found.len().saturating_sub(12);
    format!(
        "the deck does not match the cards on screen: {} of 52 cards disagree with their labels: {}{}; nothing was saved (is it the deck of this deal, in order?)",
        found.len(),
        named.join("; "),
        if more > 0 {
            format!("; and {more} more")
        } else {
            String::new()
        }
    )
}

/// Card art whose top-left corners show the suit where the rank glyph should be (KDE's oxygen
/// decks print the rank at the top right, and pips at the top left): the refusal, saying so, for
/// labels that disagree with such corners. Told by the labels: there, cards of one suit look more
/// alike than cards of two suits by more than `SUIT_IN_RANK_PLACE`. On every installed theme the
/// two differ by under 0.01 (the rank glyph says nothing of the suit), and with the labels of
/// another deal by under 0.02 either way; KDE's oxygen decks give 0.07 to 0.13. None otherwise:
/// then the labels are what disagrees.
pub fn suit_where_rank_is(corners: &Corners, cards: &[Card]) -> Option<String> {
    suit_in_rank_place(&Features::of(corners), cards)
}

/// `suit_where_rank_is`, from the corners' features.
fn suit_in_rank_place(features: &Features, cards: &[Card]) -> Option<String> {
    let (mut suit, mut apart) = ((0.0f32, 0usize), (0.0f32, 0usize));
    for a in 0..cards.len() {
        for b in a + 1..cards.len() {
            let (ca, cb) = (cards[a], cards[b]);
            if ca.rank == cb.rank {
                continue;
            }
            let sum = if ca.suit == cb.suit {
                &mut suit
            } else {
                &mut apart
            };
            sum.0 += features.shape_sim[a][b];
            sum.1 += 1;
        }
    }
    let mean = |(total, n): (f32, usize)| total / n.max(1) as f32;
    let gap = mean(suit) - mean(apart);
    (gap > SUIT_IN_RANK_PLACE).then(|| {
        format!(
            "this card art's top-left corners show the suit where the rank should be: there, cards \
of one suit look alike whatever their rank ({gap:.2} more alike than cards of two suits, where other \
art differs by under 0.01). The reader reads a card's rank from that corner, so this art (which may \
print its rank elsewhere, such as at the top right) cannot be read; nothing was saved"
        )
    })
}

/// How much more alike cards of one suit must look than cards of two suits where the rank glyph
/// should be, for the corners to be taken as showing the suit there (see `suit_where_rank_is`).
const SUIT_IN_RANK_PLACE: f32 = 0.04;

/// Cards on the other side of the colour split than their label's colour (or suit, with four
/// colours) puts them.
fn colour_disagreements(features: &Features, cards: &[Card]) -> Vec<(usize, String)> {
    // A theme whose indices are all one colour splits nothing. Nine in ten cards, not all: a
    // court card's or an ace's picture can colour its corner.
    if !clearly_apart(&features.colours, &features.classes, 0.9) {
        return colours_exchanged(features, cards);
    }
    let four = features.classes.len() == 4;
    let key = |c: Card| colour_key(four, c);
    // The label each class's cards mostly carry, and the class's centre.
    let majors: Vec<Option<usize>> = features
        .classes
        .iter()
        .map(|class| major_key(class, cards, four))
        .collect();
    let centres: Vec<[f32; 3]> = features
        .classes
        .iter()
        .map(|class| centre_of(class, &features.colours))
        .collect();
    let mut out = Vec::new();
    for (class, (major, centre)) in features.classes.iter().zip(majors.iter().zip(&centres)) {
        let Some(major) = *major else {
            // No majority: the whole split disagrees with the labels.
            out.extend(
                class
                    .iter()
                    .map(|&i| (i, "is printed in another colour".into())),
            );
            continue;
        };
        for &i in class {
            let label = key(cards[i]);
            if label == major {
                continue;
            }
            // A card whose corner a court figure or an ace's picture colours lies between the
            // colours, and the split puts it on either side: it disagrees only when it is clearly
            // of its class's colour, twice as near its centre as that of its label's class.
            let theirs = majors
                .iter()
                .zip(&centres)
                .filter(|(m, _)| **m == Some(label))
                .map(|(_, c)| colour_distance(&features.colours[i], c))
                .fold(f32::MAX, f32::min);
            if theirs > 2.0 * colour_distance(&features.colours[i], centre) {
                out.push((i, "is printed in another colour".into()));
            }
        }
    }
    out
}

/// Where court pictures blur the colour split (paris at 1200×760: a black queen's corner brownish,
/// a red king's between the colours, so fewer than nine in ten cards lie clearly in their class),
/// but the number cards alone split clearly: two cards labelled with two colours (or suits, with
/// four) that each lie nearer the other's colour than their own, by more than half the way between
/// the two colours in all, as two exchanged labels put them. A card between the colours on its
/// own proves nothing, as the split's own rule says; two, each on the other's side, do. None
/// where the number cards do not split clearly either.
fn colours_exchanged(features: &Features, cards: &[Card]) -> Vec<(usize, String)> {
    let numbers: Vec<Vec<usize>> = features
        .classes
        .iter()
        .map(|class| {
            let numbers = class.iter().filter(|&&i| cards[i].rank.value() <= 10);
            numbers.copied().collect()
        })
        .collect();
    if !clearly_apart(&features.colours, &numbers, 0.9) {
        return Vec::new();
    }
    let four = numbers.len() == 4;
    let key = |c: Card| colour_key(four, c);
    // Each colour's centre, by the number cards of the class that mostly carry it.
    let mut centres: Vec<Option<[f32; 3]>> = vec![None; 4];
    for class in &numbers {
        match major_key(class, cards, four) {
            Some(major) if centres[major].is_none() => {
                centres[major] = Some(centre_of(class, &features.colours))
            }
            // No majority, or two classes with one: the split disagrees with the labels, which
            // the rank and suit checks see; no colour to judge by.
            _ => return Vec::new(),
        }
    }
    let mut out = Vec::new();
    for a in 0..cards.len() {
        for b in a + 1..cards.len() {
            let (ka, kb) = (key(cards[a]), key(cards[b]));
            let (Some(ca), Some(cb)) = (centres[ka], centres[kb]) else {
                continue;
            };
            if ka == kb {
                continue;
            }
            let (colour_a, colour_b) = (&features.colours[a], &features.colours[b]);
            let (own_a, other_a) = (
                colour_distance(colour_a, &ca),
                colour_distance(colour_a, &cb),
            );
            let (own_b, other_b) = (
                colour_distance(colour_b, &cb),
                colour_distance(colour_b, &ca),
            );
            if other_a < own_a
                && other_b < own_b
                && (own_a + own_b) - (other_a + other_b) > 0.5 * colour_distance(&ca, &cb)
            {
                out.push((a, "is printed in another colour".into()));
                out.push((b, "is printed in another colour".into()));
            }
        }
    }
    out
}

/// Which colour a card's label gives it: its suit where the ink has four colours, else red or
/// black.
fn colour_key(four: bool, c: Card) -> usize {
    match four {
        true => c.suit.index(),
        false => usize::from(c.suit.is_red()),
    }
}

/// The colour (`colour_key`) most of a class's cards are labelled with, if more than half are.
fn major_key(class: &[usize], cards: &[Card], four: bool) -> Option<usize> {
    let mut counts = [0usize; 4];
    for &i in class {
        counts[colour_key(four, cards[i])] += 1;
    }
    let (major, &n) = counts
        .iter()
        .enumerate()
        .max_by_key(|(_, n)| **n)
        .expect("four counts");
    (n * 2 > class.len()).then_some(major)
}

/// How many cards must look like another rank's on their own (no partner they were exchanged
/// with) for the labels to be refused: a deck of another deal or shifted puts most cards off
/// (17 to 45 of 52 over every installed theme), while a theme's odd glyphs (court cards drawn
/// unlike their rank's others) are at most 4 there.
const MISFITS: usize = 8;

/// Cards that look like another rank's cards rather than their own rank's: two cards whose
/// labels are exchanged (each looks like the other's rank, and both fit far better the other
/// way round), and, where many cards misfit, each of them.
fn rank_disagreements(features: &Features, cards: &[Card]) -> Vec<(usize, String)> {
    let sim = &features.shape_sim;
    // The likeness of a card's glyph to the nearest glyph of a rank's cards, other than `but`.
    let nearest = |a: usize, rank: u8, but: usize| -> f32 {
        (0..cards.len())
            .filter(|&b| b != a && b != but && cards[b].rank.value() == rank)
            .map(|b| sim[a][b])
            .fold(f32::MIN, f32::max)
    };
    let rank_of = |a: usize| cards[a].rank.value();
    // How alike a card is to the card nearest it (almost always one of its rank) in this deal,
    // whatever the labels say: typically (the median), and a tenth of the way up; their
    // difference is the scale misfits are judged by.
    let mut nearest_any: Vec<f32> = (0..cards.len())
        .map(|a| {
            (0..cards.len())
                .filter(|&b| b != a)
                .map(|b| sim[a][b])
                .fold(f32::MIN, f32::max)
        })
        .collect();
    nearest_any.sort_by(|a, b| a.total_cmp(b));
    let (typical, tenth) = (
        nearest_any[nearest_any.len() / 2],
        nearest_any[nearest_any.len() / 10],
    );
    let scale = typical - tenth;
    // "looks like a 7", "looks like an 8".
    let name = |r: u8| {
        let c = crate::cards::Rank::new(r).map_or('?', |r| r.char());
        format!("{} {c}", if matches!(c, 'A' | '8') { "an" } else { "a" })
    };
    let mut out = Vec::new();
    // Exchanged pairs.
    for a in 0..cards.len() {
        for b in a + 1..cards.len() {
            let (ra, rb) = (rank_of(a), rank_of(b));
            // Two court cards are not judged against each other: art draws them with letters
            // and pictures that can look alike across ranks (guyenne-classic's J and K at
            // 800x600, swiss-xvii's Q and K, whose corners show only their pictures).
            if ra == rb || (ra > 10 && rb > 10) {
                continue;
            }
            let (like_a, like_b) = (nearest(a, rb, b), nearest(b, ra, a));
            let gain_a = like_a - nearest(a, ra, b);
            let gain_b = like_b - nearest(b, rb, a);
            if gain_a <= 0.0 || gain_b <= 0.0 || like_a.max(like_b) < tenth {
                continue;
            }
            let (own_a, own_b) = (nearest(a, ra, b), nearest(b, rb, a));
            // How alike the two ranks' other cards are to each other: where the art draws them
            // alike (court cards at a small size), looking like the other rank proves nothing.
            let confusion = (0..cards.len())
                .filter(|&c| c != a && c != b && rank_of(c) == ra)
                .flat_map(|c| {
                    (0..cards.len())
                        .filter(move |&d| d != a && d != b && rank_of(d) == rb)
                        .map(move |d| sim[c][d])
                })
                .fold(f32::MIN, f32::max);
            // Each like the other's rank's cards as cards are like their nearest (as all but a
            // few cards of the deal are), better than like its own, and more than the two ranks'
            // other cards are like each other; one of them unlike its own as few cards are; and
            // far better so in all.
            if own_a.min(own_b) < tenth
                && like_a.min(like_b) > confusion
                && gain_a > 0.0
                && gain_b > 0.0
                && gain_a + gain_b >= 2.0 * scale.max(0.05)
            {
                out.push((a, format!("looks like {}", name(rb))));
                out.push((b, format!("looks like {}", name(ra))));
            }
        }
    }
    // Cards that misfit on their own.
    let misfits: Vec<(usize, String)> = (0..cards.len())
        .filter_map(|a| {
            let own = nearest(a, rank_of(a), usize::MAX);
            let (best, like) = (1..=13u8)
                .filter(|&r| r != rank_of(a))
                .map(|r| (r, nearest(a, r, usize::MAX)))
                .max_by(|x, y| x.1.total_cmp(&y.1))
                .expect("other ranks");
            (own < tenth && like >= tenth && like - own >= scale.max(0.1))
                .then(|| (a, format!("looks like {}", name(best))))
        })
        .collect();
    if misfits.len() >= MISFITS {
        out.extend(misfits);
    }
    out
}

/// The least ink below the rank glyph, as a share of the rank glyph's ink, that shows a suit's
/// pip there. A pip drawn under the rank holds from about a tenth of the glyph's ink (cut short
/// by the corner's foot) to twice it; a corner that ends at the rank glyph holds only the glyph's
/// own last row and the top row or two of a pip cut off below (a few hundredths).
const PIP_INK: f32 = 0.05;

/// How well a typical rank must agree with the others on what tells a colour's two suits apart
/// for the theme to show them apart under the rank at all.
const SUITS_SHOWN: f32 = 0.2;

/// The two suits of each colour, in a fixed order.
const SUIT_PAIRS: [[Suit; 2]; 2] = [[Suit::Clubs, Suit::Spades], [Suit::Diamonds, Suit::Hearts]];

/// How the ranks agree on what tells a colour's two suits apart under the rank glyph.
struct SuitAgreement {
    /// The corners of each rank's two cards, the pair's first suit first.
    rows: Vec<(usize, usize)>,
    /// How well each rank's difference agrees with the other ranks'.
    agree: Vec<f32>,
    /// The median of `agree`: the typical rank's.
    typical: f32,
}

/// What tells the two suits of `pair` apart under the rank glyph, rank by rank. None with fewer
/// than three ranks. A card in `already` (found to be another rank's) leaves its rank out.
fn suit_agreement(
    features: &Features,
    cards: &[Card],
    pair: [Suit; 2],
    already: &[usize],
) -> Option<SuitAgreement> {
    let find = |c: Card| cards.iter().position(|&x| x == c);
    // For each rank, the pip of its first-suit card less its second-suit card's.
    let mut rows = Vec::new();
    let mut differences = Vec::new();
    for rank in crate::cards::Rank::all() {
        let (Some(a), Some(b)) = (
            find(Card::new(rank, pair[0])),
            find(Card::new(rank, pair[1])),
        ) else {
            continue;
        };
        if already.contains(&a) || already.contains(&b) {
            continue;
        }
        rows.push((a, b));
        differences.push(features.pip_difference(a, b));
    }
    if rows.len() < 3 {
        return None;
    }
    let sim = likeness(&differences);
    let agree: Vec<f32> = (0..rows.len())
        .map(|i| {
            let others = (0..rows.len()).filter(|&j| j != i);
            others.clone().map(|j| sim[i][j]).sum::<f32>() / others.count() as f32
        })
        .collect();
    let mut sorted = agree.clone();
    sorted.sort_by(|a, b| a.total_cmp(b));
    let typical = sorted[sorted.len() / 2];
    Some(SuitAgreement {
        rows,
        agree,
        typical,
    })
}

/// Ranks whose two cards of one colour are told apart the other way round from the other ranks.
fn suit_disagreements(
    features: &Features,
    cards: &[Card],
    already: &[usize],
) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    // Only the first rows of a pip cut off below: those rows change with where the pip begins
    // under each rank as much as with its suit (`suits_cut_off` says so).
    if features.pip_share < PIP_INK {
        return out;
    }
    for pair in SUIT_PAIRS {
        let Some(SuitAgreement {
            rows,
            agree,
            typical,
        }) = suit_agreement(features, cards, pair, already)
        else {
            continue;
        };
        // The theme shows these two suits apart under the rank (most ranks agree), this rank
        // says the opposite as clearly as the others agree, and its pips, each looked for where
        // it matches best, lean the other way too (`suit_lean`).
        if typical <= SUITS_SHOWN || agree.iter().all(|&g| g >= -typical / 2.0) {
            continue;
        }
        let lean = suit_lean(features, &rows);
        for (i, &(a, b)) in rows.iter().enumerate() {
            if agree[i] < -typical / 2.0 && lean[i] < 0.0 {
                let why = |c: Card, other: Suit| {
                    format!("shows the suit of {}{}", c.rank.char(), other.char())
                };
                out.push((a, why(cards[a], pair[1])));
                out.push((b, why(cards[b], pair[0])));
            }
        }
    }
    out
}

/// How far a card's pip is looked for around where the pip box puts it, across and down, in
/// template pixels: corners are lined up by the whole index, and a court card's picture beside it
/// can pull its corner a few pixels (jolly-royal's Js lay 4 lower than its other spades).
const PIP_REACH: (isize, isize) = (2, 4);

/// For each rank's two cards of a colour (`rows`, the pair's first suit first), how much more the
/// first card's pip looks like the first suit's pips of the other ranks than like the second
/// suit's, and the second card's the other way round: positive where the labels agree with the
/// pips, negative where the two look exchanged. Each card's pip is looked for where it matches
/// best within `PIP_REACH`, so a corner lined up a few pixels off by a picture beside its index
/// still shows its own suit, where the fixed-place difference `suit_agreement` compares does not.
fn suit_lean(features: &Features, rows: &[(usize, usize)]) -> Vec<f32> {
    let at = |c: usize, dx: isize, dy: isize| -> Option<Vec<f32>> {
        normalised(&shifted_box(&features.colour[c], features.pip_box, dx, dy))
    };
    let (rx, ry) = PIP_REACH;
    let shifts: Vec<Vec<Vec<f32>>> = rows
        .iter()
        .flat_map(|&(a, b)| [a, b])
        .map(|c| {
            (-ry..=ry)
                .flat_map(|dy| (-rx..=rx).map(move |dx| (dx, dy)))
                .filter_map(|(dx, dy)| at(c, dx, dy))
                .collect()
        })
        .collect();
    let fixed: Vec<Option<Vec<f32>>> = rows
        .iter()
        .flat_map(|&(a, b)| [a, b])
        .map(|c| at(c, 0, 0))
        .collect();
    // The best likeness of card `k`'s pip (any shift) to card `m`'s (where the box is).
    let like = |k: usize, m: usize| -> f32 {
        let Some(reference) = &fixed[m] else {
            return 0.0;
        };
        shifts[k]
            .iter()
            .map(|v| dot(v, reference))
            .fold(0.0f32, f32::max)
    };
    // How much more card `k` (in row `i`) looks like the first suit's pips of the other rows.
    let toward_first = |k: usize, i: usize| -> f32 {
        let others = (0..rows.len()).filter(|&j| j != i);
        let n = others.clone().count().max(1) as f32;
        others
            .map(|j| like(k, 2 * j) - like(k, 2 * j + 1))
            .sum::<f32>()
            / n
    };
    (0..rows.len())
        .map(|i| toward_first(2 * i, i) - toward_first(2 * i + 1, i))
        .collect()
}

/// A corner's RGB inside `pip_box` moved by (dx, dy), the corner's edge repeated outside it.
fn shifted_box(v: &[f32], (x0, y0, x1, y1): Box4, dx: isize, dy: isize) -> Vec<f32> {
    let (w, h) = (TEMPLATE_W as isize, TEMPLATE_H as isize);
    let mut out = Vec::with_capacity((x1 - x0) * (y1 - y0) * 3);
    for y in y0 as isize..y1 as isize {
        for x in x0 as isize..x1 as isize {
            let (sx, sy) = ((x + dx).clamp(0, w - 1), (y + dy).clamp(0, h - 1));
            let i = ((sy * w + sx) * 3) as usize;
            out.extend_from_slice(&v[i..i + 3]);
        }
    }
    out
}

/// Card art whose index corners end under the rank glyph, showing only the first rows of the
/// suit's pip, and whose suits of one colour differ only there: the refusal, saying so. Those rows
/// tell a club from a spade on one rank and not on the next (the pip begins a row higher or
/// lower), and on a covered card nothing else of the suit shows, so the reader would guess. None
/// where the corners show a pip under the rank, or show no suit there at all (a theme that prints
/// it beside the rank, read from the card's top strip), or the ink has four suit colours.
pub fn suits_cut_off(corners: &Corners, cards: &[Card]) -> Option<String> {
    let features = Features::of(corners);
    // Four suit colours tell every suit apart by the ink.
    if features.pip_share >= PIP_INK || features.classes.len() == 4 {
        return None;
    }
    let shown = SUIT_PAIRS.iter().any(|&pair| {
        suit_agreement(&features, cards, pair, &[]).is_some_and(|a| a.typical > SUITS_SHOWN)
    });
    shown.then(|| {
        format!(
            "this card art's index corners end under the rank: below it they show at most the first rows of the suit's pip \
({:.0} % as much ink as the rank), too little to tell clubs from spades or diamonds from hearts on a \
covered card, where the rest of the suit lies under the card over it. The reader would guess such \
cards, so nothing was saved",
            features.pip_share.max(0.0) * 100.0
        )
    })
}
