//! The suit glyphs' box at calibration: the cards seen whole in the calibration frames, and the
//! glyphs cut from them where they tell those cards their suits best (see `suits`).

use crate::cards::{Card, Suit};
use crate::games::pyramid::position::PYRAMID_SIZE;
use crate::games::pyramid::vision::read_back::read_back_scales;
use crate::vision::calibrate::{Corners, StockSeen};
use crate::vision::suits::{self, SuitPrototypes};
use image::imageops::{resize, FilterType};
use image::{RgbImage, RgbaImage};
use rayon::prelude::*;

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

/// The cards seen whole in the frames `cut` was cut from (the fresh table, then the table after
/// each of 24 draws, or clicks on the stock), where their corners were cut (`Corners::cut_at`):
/// the pyramid's bottom row on the fresh table, and each stock card drawn onto the waste. The
/// table is where calibration found it, by whichever search it took (`Corners::search`): located
/// again by the usual search, kde-nicu-white's borderless table in the msc look lay 26 pixels
/// right of its cards at 1440x900, the glyphs were cut from the ranks' strokes, and the
/// prototypes took every club seen whole on the waste for a spade.
pub fn seen_whole(cut: &Corners, cards: &[Card]) -> Vec<SeenWhole> {
    let at = |suit: Suit, &(frame, (x, y)): &(usize, (f32, f32))| SeenWhole {
        suit,
        frame,
        x,
        y,
        card_w: cut.card_w,
    };
    let bottom_row = cut.cut_at[21..PYRAMID_SIZE]
        .iter()
        .zip(&cards[21..PYRAMID_SIZE])
        .map(|(place, card)| at(card.suit, place));
    // The waste's top card after k draws is stock card k (clicked on the stock, a king is
    // removed instead, and the waste shows the card before it).
    let waste = cut.waste_cut_at.iter().filter_map(|place| {
        let card = cards[PYRAMID_SIZE + place.0 - 1];
        let removed = cut.stock_seen == StockSeen::OnStock && card.is_king();
        (!removed).then(|| at(card.suit, place))
    });
    bottom_row.chain(waste).collect()
}

/// The four suits' glyph images and the box they were cut from (see `suits`).
type SuitGlyphs = (Vec<RgbImage>, [f32; 4]);

/// The suits' glyphs under the rank (see `suits`) from the cards seen whole in `frames`
/// (`seen_whole`), cut from the usual box (`suits::SUIT_BOX`), which holds a whole glyph, or from
/// the box learned from those cards (`suits::learn_box`) where it tells fewer of them, each left
/// out, their own suit wrong, as cut and as the read-back shows the frames, shrunk or grown
/// (`read_back_scales`). None when a suit was not seen whole, or the glyphs found there do not
/// tell the suits apart.
pub(crate) fn suit_glyphs(
    frames: &[RgbaImage],
    cut: &Corners,
    cards: &[Card],
) -> Option<SuitGlyphs> {
    let seen = seen_whole(cut, cards);
    let searched: Vec<(Suit, Vec<f32>)> = seen
        .iter()
        .map(|c| {
            (
                c.suit,
                suits::cut_search(&frames[c.frame], c.x, c.y, c.card_w),
            )
        })
        .collect();
    // The usual box first; the learned one (often a tenth of a card, where the cards seen whole
    // differ most) is kept only where it tells fewer of them their own suit wrong. Kept for a
    // better margin on those 31 cards alone, a tenth of a card read ornamental's calibration
    // deal 24301 back with its 4d and 4h as each other in the msc look; kde-nicu-white's, beside
    // its glyphs' left side, read 15 places of 2,880 as the other suit of their colour.
    let learned = suits::learn_box(&searched);
    let mut boxes = vec![suits::SUIT_BOX];
    if learned != suits::SUIT_BOX {
        boxes.push(learned);
    }
    let (width, height) = frames.first()?.dimensions();
    let resized: Vec<Vec<Shown>> = read_back_scales(width, height)
        .into_iter()
        .map(|scale| {
            seen.par_iter()
                .map(|c| Shown::at(&frames[c.frame], c, scale))
                .collect()
        })
        .collect();
    let (_, suit_box, cuts) = boxes
        .into_iter()
        .map(|b| {
            let cuts: Vec<(Suit, Vec<f32>)> = seen
                .iter()
                .map(|c| (c.suit, suits::cut(&frames[c.frame], c.x, c.y, c.card_w, b)))
                .collect();
            let other_sizes: Vec<Vec<Vec<f32>>> = resized
                .iter()
                .map(|shown| shown.iter().map(|s| s.cut(b)).collect())
                .collect();
            (suits::LeftOut::of(&cuts, &other_sizes), b, cuts)
        })
        .min_by(|a, b| a.0.wrong.cmp(&b.0.wrong))?;
    suits::prototype_images(&cuts)
        .filter(|images| SuitPrototypes::new(images, suit_box).is_some())
        .map(|images| (images, suit_box))
}

/// A card seen whole, where its glyph may lie, as a window `scale` times the size shows it: the
/// part of the frame around it, resized.
struct Shown {
    image: RgbaImage,
    /// The card's top-left corner and width in `image`.
    x: f32,
    y: f32,
    card_w: f32,
}

impl Shown {
    fn at(frame: &RgbaImage, c: &SeenWhole, scale: f32) -> Shown {
        // Every box learned lies within `suits::GLYPH_SEARCH` (at most half a card across and
        // 0.84 down), and is looked at a few prototype pixels around.
        let w = c.card_w;
        let x0 = (c.x - 0.1 * w).floor().max(0.0);
        let y0 = (c.y - 0.1 * w).floor().max(0.0);
        let x1 = (c.x + 0.7 * w).ceil().min(frame.width() as f32);
        let y1 = (c.y + w).ceil().min(frame.height() as f32);
        let part = image::imageops::crop_imm(
            frame,
            x0 as u32,
            y0 as u32,
            (x1 - x0).max(1.0) as u32,
            (y1 - y0).max(1.0) as u32,
        )
        .to_image();
        let (pw, ph) = part.dimensions();
        let image = resize(
            &part,
            ((pw as f32 * scale).round() as u32).max(1),
            ((ph as f32 * scale).round() as u32).max(1),
            FilterType::Triangle,
        );
        Shown {
            image,
            x: (c.x - x0) * scale,
            y: (c.y - y0) * scale,
            card_w: w * scale,
        }
    }

    fn cut(&self, suit_box: [f32; 4]) -> Vec<f32> {
        suits::cut(&self.image, self.x, self.y, self.card_w, suit_box)
    }
}
