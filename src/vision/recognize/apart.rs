//! How far apart the templates show groups of cards: the mean template of each rank and of each
//! suit, and how many times what chance gives two suits' (or two ranks') means differ by (see
//! `suits_apart`), which tells whether a theme's corners show its suits at all.

use super::normalised;

/// The normalised mean of the templates, leaving out those whose bit (by card index) is set in
/// `apart` (corners that hold no index: see `Matcher::no_index`).
pub(crate) fn mean_of(vectors: &[Vec<f32>], apart: u64) -> Vec<f32> {
    let mut mean = vec![0.0f32; vectors[0].len()];
    let kept = vectors
        .iter()
        .enumerate()
        .filter(|(k, _)| apart >> k & 1 == 0);
    for (_, v) in kept {
        for (m, x) in mean.iter_mut().zip(v) {
            *m += x;
        }
    }
    normalised(&mean).unwrap_or(mean)
}

/// The mean of the card templates (by card index) of each rank, and of each suit, leaving out
/// those whose bit is set in `apart` (unless that leaves none).
pub(crate) fn rank_and_suit_means(
    vectors: &[Vec<f32>],
    apart: u64,
) -> (Vec<Vec<f32>>, Vec<Vec<f32>>) {
    let mean = |cards: Vec<usize>| {
        let kept: Vec<usize> = cards
            .iter()
            .copied()
            .filter(|&k| apart >> k & 1 == 0)
            .collect();
        let cards = if kept.is_empty() { cards } else { kept };
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
pub(crate) fn suits_apart(vectors: &[Vec<f32>], suit_means: &[Vec<f32>]) -> Vec<Vec<f32>> {
    groups_apart(vectors, suit_means, 13, |suit, rank| suit * 13 + rank)
}

/// `suits_apart` for ranks, by rank index: how many times what chance gives (the spread of the
/// differences of their cards of each suit) the difference of two ranks' means is. A theme whose
/// face cards' corners show only the suit's pip (guyenne-classic's) gives its J, Q and K no
/// further apart than that.
pub(crate) fn ranks_apart(vectors: &[Vec<f32>], rank_means: &[Vec<f32>]) -> Vec<Vec<f32>> {
    groups_apart(vectors, rank_means, 4, |rank, suit| suit * 13 + rank)
}

/// How far apart the templates show each two groups of cards (suits, or ranks) whose means are
/// `means`: the squared difference of the means over the spread of the differences of their
/// `members` cards taken in pairs (`card(group, member)`), shrunk by averaging them.
fn groups_apart(
    vectors: &[Vec<f32>],
    means: &[Vec<f32>],
    members: usize,
    card: impl Fn(usize, usize) -> usize,
) -> Vec<Vec<f32>> {
    let n = means.len();
    let mut out = vec![vec![f32::INFINITY; n]; n];
    for a in 0..n {
        for b in a + 1..n {
            let mean: Vec<f32> = means[a].iter().zip(&means[b]).map(|(x, y)| x - y).collect();
            let signal: f32 = mean.iter().map(|d| d * d).sum();
            let chance: f32 = (0..members)
                .map(|k| {
                    let (x, y) = (&vectors[card(a, k)], &vectors[card(b, k)]);
                    x.iter()
                        .zip(y)
                        .zip(&mean)
                        .map(|((x, y), d)| (x - y - d).powi(2))
                        .sum::<f32>()
                })
                .sum::<f32>()
                / (members * members) as f32;
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
pub(crate) const MIN_APART: f32 = 3.0;
