//! Calibration's last check: the frames it learned from, read back with the templates just made,
//! at card sizes other than the calibration's, and at its own. Every card of the calibration deal
//! is known, so a card read as another there is proof that this art's corners do not tell those
//! two apart at a size the reader meets; the set is refused instead of saved, and the reader
//! never guesses on such cards later. (KDE's oxygen decks print the rank only at the top right
//! and pips at the top left: their 6 and 8 of a suit show the same corner.) At the frames' own
//! size, a card read as another means a template was cut from a picture that does not show its
//! label the way the others of its rank or suit do, though the label check let it pass (see
//! docs/vision.md). Cards left unsure are not held against the art: the reader says so at play
//! and stops. Nor are frames not read as a table at one size; at every size, the read-back has
//! checked nothing, and the set is refused too.

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
/// The smaller is never below what the smallest window shows (see `read_back_scales`).
pub const READ_BACK_SCALES: [f32; 2] = [0.67, 1.3];

/// The smallest window the reader is measured at and meant for (`accuracy`'s sizes start there).
pub const SMALLEST_WINDOW: (u32, u32) = (800, 600);

/// The shares of the calibration's card width that frames `width`×`height` are read back at:
/// `READ_BACK_SCALES`, the smaller raised to the share that shrinks the frame to the smallest
/// window (`SMALLEST_WINDOW`) where it would shrink it further, at most 1. Cards smaller than any
/// window shows are no size the reader meets: calibrated at 800×600 in MSC's look, anglo_modern's
/// 3c and anglo_bitmap's 2c read as spades on cards two thirds as wide (a 536×402 window) refused
/// sets that read deals at 800×600 and 1024×768 with no card read as another.
///
/// Frames whose smallest window's share is a tenth or more below `READ_BACK_SCALES`' smaller are
/// read back at that share too: calibrated at 2560×1440 (cards 236 pixels wide), anglo_bitmap's
/// covered clubs and spades read as each other at 1024×768 (99), which two thirds (158) never
/// showed.
///
/// Where the smaller share is raised to within a tenth of the calibration's own cards (calibrated
/// in a window about as small as any), the frames are read back larger too, at `READ_BACK_LARGER`:
/// read back at its own size and a third larger only, kde-oxygen-white calibrated at 800×600 in
/// MSC's look (its rank read across the top strip) was kept, and read 5 places of 30 wrong at
/// 1440×900. The calibration deal's cards are all it checks: other deals' cards can still be
/// misread larger (docs/vision.md, "Sets calibrated on small cards").
pub fn read_back_scales(width: u32, height: u32) -> Vec<f32> {
    let to_smallest = (SMALLEST_WINDOW.0 as f32 / width as f32)
        .max(SMALLEST_WINDOW.1 as f32 / height as f32)
        .min(1.0);
    let [small, large] = READ_BACK_SCALES;
    match (to_smallest < 0.9 * small, to_smallest >= 0.9) {
        (true, _) => vec![small, large, to_smallest],
        (false, false) => vec![to_smallest.max(small), large],
        (false, true) => vec![to_smallest.max(small), large, READ_BACK_LARGER],
    }
}

/// `scales`, and the frames' own size (1) after them when it is not among them: read there for
/// misreads only. A set that reads a card of its own frames as another, at the size it was cut
/// at, has a corner cut from a picture that did not show its label (the module's doc). Whether
/// frames are read as a table is asked at `scales` alone; and a card misread at other sizes too is
/// named at the first of them, as before.
fn with_own_size(scales: &[f32]) -> Vec<f32> {
    let mut all = scales.to_vec();
    if !all.contains(&1.0) {
        all.push(1.0);
    }
    all
}

/// The larger share frames calibrated in a window about as small as any are read back at too
/// (see `read_back_scales`): cards as large as a 1440×900 window shows when calibrated at
/// 800×600.
pub const READ_BACK_LARGER: f32 = 1.8;

/// One card of the calibration deal read as another when read back.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Misread {
    pub card: Card,
    pub read: Card,
    /// The share of the calibration's card width it was read at.
    pub scale: f32,
}

/// What reading the frames back found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReadBack {
    /// The cards read as other cards.
    pub misreads: Vec<Misread>,
    /// Per scale read back at (`read_back_scales`), how many frames were not read as a table at
    /// all.
    pub unread: Vec<(f32, usize)>,
}

/// The cards of `frames` (the fresh table, then after each of 24 draws or clicks on the stock, as
/// `stock` says; `cards[i]` the card of corner `i`: the pyramid, then the stock from the top) that
/// `templates` read as other cards at `read_back_scales`. Frames not read as a table at some
/// scale are passed over (see `read_back` for how many).
pub fn misreads(
    frames: &[RgbaImage],
    cards: &[Card],
    stock: StockSeen,
    profile: &Profile,
    templates: &Templates,
) -> Vec<Misread> {
    read_back(frames, cards, stock, profile, templates).misreads
}

/// `misreads`, and how many frames were not read as a table at each scale.
pub fn read_back(
    frames: &[RgbaImage],
    cards: &[Card],
    stock: StockSeen,
    profile: &Profile,
    templates: &Templates,
) -> ReadBack {
    let matcher = Matcher::new(templates);
    let scales = frames.first().map_or(READ_BACK_SCALES.to_vec(), |f| {
        read_back_scales(f.width(), f.height())
    });
    let read_at = with_own_size(&scales);
    let jobs: Vec<(f32, usize)> = read_at
        .iter()
        .flat_map(|&s| (0..frames.len()).map(move |k| (s, k)))
        .collect();
    // Per job: the misreads, or None when the frame was not read as a table.
    let results: Vec<Option<Vec<Misread>>> = jobs
        .par_iter()
        .map(|&(scale, k)| {
            let frame = &frames[k];
            let (w, h) = (
                (frame.width() as f32 * scale).round() as u32,
                (frame.height() as f32 * scale).round() as u32,
            );
            let resized;
            let small = match scale == 1.0 {
                true => frame,
                false => {
                    resized = resize(frame, w, h, FilterType::Triangle);
                    &resized
                }
            };
            let mut matcher = matcher.clone();
            let mut out = Vec::new();
            let Ok((board, _)) = read_frame(small, profile, &mut matcher) else {
                return None;
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
            Some(out)
        })
        .collect();
    let unread = scales
        .iter()
        .map(|&s| {
            let missed = jobs
                .iter()
                .zip(&results)
                .filter(|((scale, _), r)| *scale == s && r.is_none())
                .count();
            (s, missed)
        })
        .collect();
    let mut found: Vec<Misread> = results.into_iter().flatten().flatten().collect();
    found.sort_by_key(|m| (m.card.index(), m.read.index()));
    found.dedup_by_key(|m| (m.card, m.read));
    ReadBack {
        misreads: found,
        unread,
    }
}

/// Why a template set is refused after its read-back (`refusal_of`), by what the read-back
/// found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Frames read as a table showed cards read as others: what the art's corners lack.
    Misread(String),
    /// Most frames were not read as a table at all at every scale: the corners were cut, or the
    /// table found, off where the cards lie, or this art's cards are not found again.
    NotRead(String),
}

impl Refusal {
    /// The message.
    pub fn why(&self) -> &str {
        match self {
            Refusal::Misread(why) | Refusal::NotRead(why) => why,
        }
    }
}

/// Why a template set is refused for what reading `frames` frames back found (`read_back`), if
/// it is: cards read as others (see `refusal`), or most frames not read as a table at all at every
/// scale, which would leave the set's reads unchecked (and its user with every frame refused).
/// Frames not read at one scale only are no reason: calibrated at 800×600, cards two thirds as
/// wide are smaller than any window shows, and ornamental's are not found there in MSC's look.
pub fn refusal_of(found: &ReadBack, frames: usize) -> Option<Refusal> {
    if !found.misreads.is_empty() {
        return Some(Refusal::Misread(refusal(&found.misreads)));
    }
    if found.unread.is_empty() || found.unread.iter().any(|&(_, missed)| 2 * missed <= frames) {
        return None;
    }
    let missed: Vec<String> = found
        .unread
        .iter()
        .map(|&(scale, missed)| format!("{missed} on cards {:.0}% as wide", scale * 100.0))
        .collect();
    Some(Refusal::NotRead(format!(
        "read back with the templates just made, most of the {frames} calibration frames were not read as a Pyramid table at all ({}): these corners do not find this art's cards again at other sizes, so nothing was saved",
        missed.join(", ")
    )))
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
        "this card art's index corners do not tell every card apart: read back at several sizes, \
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

    /// Read back no smaller than the smallest window: calibrated at 1440×900 (as the 0.67 was
    /// chosen), as before; larger, at the smallest window's cards too; at 1024×768, the smallest
    /// window's cards; at 800×600, its own, and larger ones (`READ_BACK_LARGER`).
    #[test]
    fn frames_are_read_back_no_smaller_than_the_smallest_window_shows() {
        assert_eq!(read_back_scales(1440, 900), READ_BACK_SCALES);
        let [small, large, smallest] = read_back_scales(2560, 1440)[..] else {
            panic!("three scales")
        };
        assert_eq!([small, large], READ_BACK_SCALES);
        assert!((smallest - 600.0 / 1440.0).abs() < 1e-6);
        let [small, large] = read_back_scales(1024, 768)[..] else {
            panic!("two scales")
        };
        assert!((small - 800.0 / 1024.0).abs() < 1e-6 && large == READ_BACK_SCALES[1]);
        assert_eq!(
            read_back_scales(800, 600),
            [1.0, READ_BACK_SCALES[1], READ_BACK_LARGER]
        );
        assert_eq!(
            read_back_scales(640, 480)[0],
            1.0,
            "never larger than the frame"
        );
    }

    /// Misreads are looked for at the frames' own size as well, once, after the other sizes.
    #[test]
    fn frames_are_read_back_at_their_own_size_too() {
        assert_eq!(
            with_own_size(&read_back_scales(1440, 900)),
            [READ_BACK_SCALES[0], READ_BACK_SCALES[1], 1.0]
        );
        assert_eq!(
            with_own_size(&read_back_scales(800, 600)),
            [1.0, READ_BACK_SCALES[1], READ_BACK_LARGER]
        );
    }

    /// A read-back that found no misread but did not read most frames at every scale refuses
    /// the set all the same, naming how many; one that read most frames at some scale does not.
    #[test]
    fn frames_not_read_as_a_table_refuse_the_set() {
        let unread = |a: usize, b: usize| ReadBack {
            misreads: Vec::new(),
            unread: vec![(0.67, a), (1.3, b)],
        };
        assert_eq!(refusal_of(&unread(25, 12), 25), None);
        assert_eq!(refusal_of(&unread(0, 25), 25), None);
        let why = refusal_of(&unread(25, 13), 25).expect("refused");
        assert!(matches!(why, Refusal::NotRead(_)), "{why:?}");
        assert!(
            why.why()
                .contains("25 on cards 67% as wide, 13 on cards 130% as wide"),
            "{why:?}"
        );
        let misread = ReadBack {
            misreads: vec![misread("8d", "8h")],
            ..unread(0, 0)
        };
        assert!(refusal_of(&misread, 25)
            .is_some_and(|w| matches!(w, Refusal::Misread(_)) && w.why().contains("8d as 8h")));
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
