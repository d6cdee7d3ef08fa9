//! Telling a card's back from a face, learnt from a deal: the face-down cards' corners (or
//! strips) against the face-up ones', sampled alike. Their pattern (normalised, correlated as
//! templates are) is used when it tells every back from every face of the deal, else their tone
//! (mean colour and spread) when it does; the threshold lies halfway between the two, so it comes
//! from this theme at this size, never from constants tuned across themes.

use crate::vision::recognize::normalised;

/// What tells a card's back from a face on this table, learnt from the deal.
pub enum Backs {
    /// The backs' pattern (normalised), and the correlation with it above which a corner is a back.
    Pattern(Vec<f32>, f32),
    /// The backs' tone, and the distance from it below which a corner is a back.
    Tone([f32; 4], f32),
}

/// A corner's normalised pattern (flat: all zero).
fn pattern(corner: &[f32]) -> Vec<f32> {
    normalised(corner).unwrap_or_else(|| vec![0.0; corner.len()])
}

/// A corner's tone: mean red, green and blue, and the spread of its grey levels.
fn tone(corner: &[f32]) -> [f32; 4] {
    let n = (corner.len() / 3).max(1) as f32;
    let mut mean = [0.0f32; 3];
    for px in corner.chunks_exact(3) {
        for c in 0..3 {
            mean[c] += px[c] / n;
        }
    }
    let grey = |px: &[f32]| (px[0] + px[1] + px[2]) / 3.0;
    let m = (mean[0] + mean[1] + mean[2]) / 3.0;
    let var = corner
        .chunks_exact(3)
        .map(|px| (grey(px) - m).powi(2))
        .sum::<f32>()
        / n;
    [mean[0], mean[1], mean[2], var.sqrt()]
}

fn distance(a: &[f32; 4], b: &[f32; 4]) -> f32 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).powi(2))
        .sum::<f32>()
        .sqrt()
}

impl Backs {
    /// Learns from a deal's face-down corners and its face-up ones (each sampled the same way);
    /// the error says how the backs failed to stand apart.
    pub fn learn(backs: &[Vec<f32>], faces: &[Vec<f32>]) -> Result<Backs, String> {
        let mut mean = vec![0.0; backs[0].len()];
        for b in backs {
            for (m, v) in mean.iter_mut().zip(b) {
                *m += v / backs.len() as f32;
            }
        }
        let dot = |a: &[f32], b: &[f32]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f32>();
        let like = pattern(&mean);
        let least_back = backs
            .iter()
            .map(|b| dot(&pattern(b), &like))
            .fold(f32::MAX, f32::min);
        let most_face = faces
            .iter()
            .map(|f| dot(&pattern(f), &like))
            .fold(f32::MIN, f32::max);
        if least_back > most_face {
            return Ok(Backs::Pattern(like, (least_back + most_face) / 2.0));
        }
        let centre = tone(&mean);
        let farthest_back = backs
            .iter()
            .map(|b| distance(&tone(b), &centre))
            .fold(0.0, f32::max);
        let nearest_face = faces
            .iter()
            .map(|f| distance(&tone(f), &centre))
            .fold(f32::MAX, f32::min);
        if farthest_back < nearest_face {
            return Ok(Backs::Tone(centre, (farthest_back + nearest_face) / 2.0));
        }
        Err(format!(
            "do not all show one back (by pattern the least like the others {least_back:.2}, a \
face {most_face:.2}; by tone the farthest {farthest_back:.0}, a face {nearest_face:.0})"
        ))
    }

    pub fn is_back(&self, corner: &[f32]) -> bool {
        match self {
            Backs::Pattern(like, floor) => {
                pattern(corner)
                    .iter()
                    .zip(like)
                    .map(|(a, b)| a * b)
                    .sum::<f32>()
                    >= *floor
            }
            Backs::Tone(centre, ceiling) => distance(&tone(corner), centre) <= *ceiling,
        }
    }
}
