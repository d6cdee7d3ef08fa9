//! The suit glyphs' box at calibration: the cards seen whole in the calibration frames, and the
//! glyphs cut from them where they tell those cards their suits best (see `suits`).

use crate::cards::{Card, Suit};
use crate::games::pyramid::vision::locate::locate;
use crate::games::pyramid::vision::profile::Profile;
use crate::vision::calibrate::StockSeen;
use crate::vision::edges::Edges;
use crate::vision::recognize::{snap_corner, snap_pile_corner};
use crate::vision::suits::{self, SuitPrototypes};
use image::{RgbImage, RgbaImage};

/// A card seen whole in calibration frames: its suit, the frame, and its top-left corner and
/// width there.
#[derive(Clone, Copy, Debug)]
pub struct SeenWhole {
    pub suit: Suit,
    pub frame: usize,
    pub x: f32,
    pub y: f32,
    pub card_w: f32,
}

/// The cards seen whole in `frames` (the fresh table, then the table after each of 24 draws, or
/// clicks on the stock): the pyramid's bottom row on the fresh table, and each stock card drawn
/// onto the waste.
pub fn seen_whole(
    frames: &[RgbaImage],
    cards: &[Card],
    profile: &Profile,
    stock: StockSeen,
) -> Result<Vec<SeenWhole>, String> {
    let mut seen = Vec::new();
    let mut aspect = None;
    for (k, frame) in frames.iter().enumerate() {
        let e = Edges::new(frame);
        let here =
            locate(frame, &e, profile, aspect).map_err(|err| format!("frame {k:02}: {err}"))?;
        aspect = Some(here.card_h / here.card_w);
        let w = here.card_w;
        let mut push = |suit, (x, y, _): (f32, f32, f32)| {
            seen.push(SeenWhole {
                suit,
                frame: k,
                x,
                y,
                card_w: w,
            })
        };
        if k == 0 {
            let strip = profile.row_step * w;
            for (slot, card) in here.slots.iter().zip(cards).skip(21) {
                push(card.suit, snap_corner(&e, *slot, strip, w));
            }
            continue;
        }
        // After k draws the waste's top card is stock card k (clicked on the stock, a king is
        // removed instead).
        let card = cards[28 + k - 1];
        if stock == StockSeen::OnStock && card.is_king() {
            continue;
        }
        push(
            card.suit,
            snap_pile_corner(&e, here.waste, 0.9 * here.card_h, w),
        );
    }
    Ok(seen)
}

/// The four suits' glyph images and the box they were cut from (see `suits`).
type SuitGlyphs = (Vec<RgbImage>, [f32; 4]);

/// The suits' glyphs under the rank (see `suits`) from the cards seen whole in `frames`
/// (`seen_whole`), cut from the box where those cards, each left out, are told their own suits
/// best: the box learned from them (`suits::learn_box`) or the usual one (`suits::SUIT_BOX`).
/// None when a suit was not seen whole, or the glyphs found there do not tell the suits apart.
pub(crate) fn suit_glyphs(
    frames: &[RgbaImage],
    cards: &[Card],
    profile: &Profile,
    stock: StockSeen,
) -> Result<Option<SuitGlyphs>, String> {
    let seen = seen_whole(frames, cards, profile, stock)?;
    let searched: Vec<(Suit, Vec<f32>)> = seen
        .iter()
        .map(|c| {
            (
                c.suit,
                suits::cut_search(&frames[c.frame], c.x, c.y, c.card_w),
            )
        })
        .collect();
    let learned = suits::learn_box(&searched);
    // The box learned against the usual place: the one whose glyphs tell more of the cards seen
    // whole their own suit, each card weighed by the prototypes of the others.
    let mut boxes = vec![learned];
    if learned != suits::SUIT_BOX {
        boxes.push(suits::SUIT_BOX);
    }
    let Some((_, suit_box, cuts)) = boxes
        .into_iter()
        .map(|b| {
            let cuts: Vec<(Suit, Vec<f32>)> = seen
                .iter()
                .map(|c| (c.suit, suits::cut(&frames[c.frame], c.x, c.y, c.card_w, b)))
                .collect();
            (suits::LeftOut::of(&cuts), b, cuts)
        })
        .min_by(|a, b| a.0.order(&b.0))
    else {
        return Ok(None);
    };
    Ok(suits::prototype_images(&cuts)
        .filter(|images| SuitPrototypes::new(images, suit_box).is_some())
        .map(|images| (images, suit_box)))
}
