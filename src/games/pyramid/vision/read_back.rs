//! Calibration's last check: the frames it learned from, read back with the templates just made,
//! at card sizes other than the calibration's. Every card of the calibration deal is known, so a
//! card read as another there is proof that this art's corners do not tell those two apart at a
//! size the reader meets; the set is refused instead of saved, and the reader never guesses on
//! such cards later. (KDE's oxygen decks print the rank only at the top right and pips at the
//! top left: their 6 and 8 of a suit show the same corner.) Cards left unsure are not held
//! against the art: the reader says so at play and stops.

use super::profile::Profile;
use super::read_frame;
use crate::cards::Card;
use crate::vision::calibrate::StockSeen;
use crate::vision::recognize::{Matcher, Seen};
use crate::vision::templates::Templates;
use image::imageops::{resize, FilterType};
use image::RgbaImage;
use rayon::prelude::*;

/// The card sizes the frames are read back at, as shares of the calibration's card width: cards
/// about as small as an 800×600 window shows when calibrated at 1440×900, and a third larger.
pub const READ_BACK_SCALES: [f32; 2] = [0.67, 1.3];

/// One card of the calibration deal read as another when read back.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Misread {
    pub card: Card,
    pub read: Card,
    /// The share of the calibration's card width it was read at.
    pub scale: f32,
}

/// The cards of `frames` (the fresh table, then after each of 24 draws or clicks on the stock, as
/// `stock` says; `cards[i]` the card of corner `i`: the pyramid, then the stock from the top) that
/// `templates` read as other cards at `READ_BACK_SCALES`. Frames not read as a table at some
/// scale are passed over.
pub fn misreads(
    frames: &[RgbaImage],
    cards: &[Card],
    stock: StockSeen,
    profile: &Profile,
    templates: &Templates,
) -> Vec<Misread> {
    let matcher = Matcher::new(templates);
    let jobs: Vec<(f32, usize)> = READ_BACK_SCALES
        .iter()
        .flat_map(|&s| (0..frames.len()).map(move |k| (s, k)))
        .collect();
    let mut found: Vec<Misread> = jobs
        .par_iter()
        .flat_map_iter(|&(scale, k)| {
            let frame = &frames[k];
            let (w, h) = (
                (frame.width() as f32 * scale).round() as u32,
                (frame.height() as f32 * scale).round() as u32,
            );
            let small = resize(frame, w, h, FilterType::Triangle);
            let mut matcher = matcher.clone();
            let mut out = Vec::new();
            let Ok((board, _)) = read_frame(&small, profile, &mut matcher) else {
                return out;
            };
            let mut check = |card: Option<&Card>, seen: Seen| {
                if let (Some(&card), Seen::Card(read, _)) = (card, seen) {
                    if read != card {
                        out.push(Misread { card, read, scale });
                    }
                }
            };
            if k == 0 {
                for (card, seen) in cards.iter().zip(board.pyramid) {
                    check(Some(card), seen);
                }
            }
            match stock {
                StockSeen::OnWaste if k > 0 => check(cards.get(28 + k - 1), board.waste),
                StockSeen::OnStock => check(cards.get(28 + k), board.stock_top),
                _ => {}
            }
            out
        })
        .collect();
    found.sort_by_key(|m| (m.card.index(), m.read.index()));
    found.dedup_by_key(|m| (m.card, m.read));
    found
}

/// The message refusing a template set whose read-back found `misreads` (not empty).
pub fn refusal(misreads: &[Misread]) -> String {
    let named: Vec<String> = misreads
        .iter()
        .take(8)
        .map(|m| {
            format!(
                "{} as {} (cards {:.0}% as wide)",
                m.card,
                m.read,
                m.scale * 100.0
            )
        })
        .collect();
    let more = match misreads.len() {
        n if n > 8 => format!(" and {} more", n - 8),
        _ => String::new(),
    };
    // What the picture lacks, for each kind of misread: a card read as its own rank in the other
    // suit, the suit; as another rank, the rank.
    let suits = misreads.iter().any(|m| m.card.rank == m.read.rank);
    let ranks = misreads.iter().any(|m| m.card.rank != m.read.rank);
    let mut lacks = Vec::new();
    if suits {
        lacks.push(
            "what a corner shows of some cards tells their rank but not their suit: on a covered \
card the suit glyph can lie under the card over it",
        );
    }
    if ranks {
        lacks.push(
            "what a corner shows of some cards does not tell their rank from another's at every \
size (and art that prints the rank only away from the card's top-left corner cannot be read yet)",
        );
    }
    let missing = lacks.join("; ");
    format!(
        "this card art's index corners do not tell every card apart: read back at other sizes, \
the calibration deal's {}{more} were read as other cards. The reader would guess on such cards, \
so nothing was saved; {missing}",
        named.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn misread(card: &str, read: &str) -> Misread {
        Misread {
            card: card.parse().unwrap(),
            read: read.parse().unwrap(),
            scale: 1.3,
        }
    }

    /// The refusal names the cards, and says what the picture lacks: the suit where a card was
    /// read as its own rank, the rank where it was read as another, both where both happened.
    #[test]
    fn a_refusal_names_the_cards_and_what_their_corners_lack() {
        let suits = refusal(&[misread("8d", "8h"), misread("8h", "8d")]);
        assert!(suits.contains("8d as 8h (cards 130% as wide)"), "{suits}");
        assert!(suits.contains("rank but not their suit"), "{suits}");
        assert!(!suits.contains("rank from another's"), "{suits}");
        let ranks = refusal(&[misread("6s", "8s"), misread("6d", "9d")]);
        assert!(ranks.contains("6s as 8s"), "{ranks}");
        assert!(ranks.contains("rank from another's"), "{ranks}");
        assert!(!ranks.contains("not their suit"), "{ranks}");
        // Both kinds (KDE's nicu-white in the msc look: Qd as 9d, 9s as 9c): both said.
        let both = refusal(&[misread("Qd", "9d"), misread("9s", "9c")]);
        assert!(
            both.contains("Qd as 9d") && both.contains("9s as 9c"),
            "{both}"
        );
        assert!(both.contains("rank but not their suit"), "{both}");
        assert!(both.contains("rank from another's"), "{both}");
    }
}
