//! Where Klondike's cards sit on the practice table for a window size and scale, as in MSC: the
//! stock at the top left with the waste beside it (Draw 3 fans its top three cards), the four
//! foundations at the top right, and the seven piles below, face-down cards in a tight step and
//! face-up cards fanned. Drawing and clicks both use it.

use crate::games::klondike::rules::Table as Position;
use crate::games::klondike::PILES;
use crate::table::chrome::{Button, Chrome};
use crate::table::rect::Rect;

/// Horizontal distance between neighbouring columns, in card widths.
pub const COLUMN_STEP: f32 = 1.15;
/// Vertical step between face-down cards of a pile, in card widths.
pub const DOWN_STEP: f32 = 0.16;
/// Vertical step between face-up cards of a pile, in card widths: a covered card shows its index
/// corner whole (the card reader's corner reaches 0.4 card widths down).
pub const UP_STEP: f32 = 0.42;
/// Horizontal step between the waste's fanned cards (Draw 3), in card widths.
pub const FAN_STEP: f32 = 0.25;
/// Gap between the top row (stock, waste, foundations) and the piles, in card widths.
pub const ROW_GAP: f32 = 0.3;
/// The most cards a pile can hold: six face down under a king-to-ace run.
const LONGEST_DOWN: f32 = 6.0;
const LONGEST_UP: f32 = 12.0;
const MARGIN_X: f32 = 0.4;
const MARGIN_Y: f32 = 0.2;

/// What a click lands on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    Stock,
    /// The waste's top card (or the empty waste).
    Waste,
    /// A foundation, by suit (`Suit::index`).
    Foundation(u8),
    /// Pile `pile` (from 0): the card at `card` from its bottom, or `None` for an empty pile.
    Pile {
        pile: u8,
        card: Option<u8>,
    },
    Button(Button),
    None,
}

impl Target {
    /// The name in the event log: `stock`, `waste`, `foundation:2`, `pile:3:4` (pile 3, its fifth
    /// card from the bottom; piles from 1, cards from 0), `pile:3` (an empty pile), a button's
    /// name or `none`.
    pub fn log_name(&self) -> String {
        match self {
            Target::Stock => "stock".into(),
            Target::Waste => "waste".into(),
            Target::Foundation(f) => format!("foundation:{f}"),
            Target::Pile {
                pile,
                card: Some(c),
            } => format!("pile:{}:{c}", pile + 1),
            Target::Pile { pile, card: None } => format!("pile:{}", pile + 1),
            Target::Button(b) => b.log_name().into(),
            Target::None => "none".into(),
        }
    }
}

/// The geometry of the table at one window size and scale.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    pub width: u32,
    pub height: u32,
    pub chrome: Chrome,
    pub card_w: i32,
    pub card_h: i32,
    pub stock: Rect,
    /// The waste's first (leftmost) place; Draw 3's fanned cards step right from it.
    pub waste: Rect,
    /// The foundations, by suit index.
    pub foundations: [Rect; 4],
    /// Each pile's first (bottom) card place.
    pub piles: [Rect; PILES],
    pub down_step: i32,
    pub up_step: i32,
    pub fan_step: i32,
}

impl Layout {
    /// The layout of a `width`×`height` window at display `scale`, for cards whose height is
    /// `aspect` times their width.
    pub fn new(width: u32, height: u32, scale: f32, aspect: f32) -> Layout {
        let chrome = Chrome::new(width, height, scale);
        let units_w = (PILES as f32 - 1.0) * COLUMN_STEP + 1.0 + 2.0 * MARGIN_X;
        let gaps = ROW_GAP + LONGEST_DOWN * DOWN_STEP + LONGEST_UP * UP_STEP;
        let (card_w, card_h, top) = chrome.fit_board(units_w, gaps, MARGIN_Y, aspect);
        let left = width as f32 / 2.0 - ((PILES as f32 - 1.0) * COLUMN_STEP + 1.0) * card_w / 2.0;
        let rect = |column: usize, y: f32| {
            Rect::new(
                (left + column as f32 * COLUMN_STEP * card_w).round() as i32,
                y.round() as i32,
                card_w as i32,
                card_h as i32,
            )
        };
        let piles_y = top + card_h + ROW_GAP * card_w;
        Layout {
            width,
            height,
            chrome,
            card_w: card_w as i32,
            card_h: card_h as i32,
            stock: rect(0, top),
            waste: rect(1, top),
            foundations: std::array::from_fn(|f| rect(3 + f, top)),
            piles: std::array::from_fn(|i| rect(i, piles_y)),
            down_step: (DOWN_STEP * card_w).round() as i32,
            up_step: (UP_STEP * card_w).round() as i32,
            fan_step: (FAN_STEP * card_w).round() as i32,
        }
    }

    /// Where the card at `index` (from the bottom) of a pile with `down` face-down cards lies.
    pub fn pile_card(&self, pile: usize, index: usize, down: usize) -> Rect {
        let r = self.piles[pile];
        let steps = index.min(down) as i32 * self.down_step
            + index.saturating_sub(down) as i32 * self.up_step;
        Rect::new(r.x, r.y + steps, r.w, r.h)
    }

    /// Where the waste's `shown`-th card from the left lies (Draw 3 shows up to three).
    pub fn waste_card(&self, shown: usize) -> Rect {
        let r = self.waste;
        Rect::new(r.x + shown as i32 * self.fan_step, r.y, r.w, r.h)
    }

    /// How many waste cards show: the top three with Draw 3, the top one with Draw 1.
    pub fn waste_shown(position: &Position) -> usize {
        position.waste.len().min(position.draw.count())
    }

    /// Where the waste's top card lies.
    pub fn waste_top(&self, position: &Position) -> Rect {
        self.waste_card(Layout::waste_shown(position).saturating_sub(1))
    }

    /// What a click at (x, y) lands on in `position`. A pile's later cards lie over its earlier
    /// ones. With the dialog open only its buttons respond.
    pub fn hit(&self, x: i32, y: i32, dialog_open: bool, position: &Position) -> Target {
        if let Some(button) = self.chrome.button_at(x, y, dialog_open) {
            return Target::Button(button);
        }
        if dialog_open {
            return Target::None;
        }
        if self.stock.contains(x, y) {
            return Target::Stock;
        }
        if self.waste_top(position).contains(x, y) {
            return Target::Waste;
        }
        if let Some(f) = self.foundations.iter().position(|r| r.contains(x, y)) {
            return Target::Foundation(f as u8);
        }
        for (i, pile) in position.piles.iter().enumerate() {
            let card = (0..pile.cards.len())
                .rev()
                .find(|&k| self.pile_card(i, k, pile.down).contains(x, y));
            if let Some(k) = card {
                return Target::Pile {
                    pile: i as u8,
                    card: Some(k as u8),
                };
            }
            if pile.cards.is_empty() && self.piles[i].contains(x, y) {
                return Target::Pile {
                    pile: i as u8,
                    card: None,
                };
            }
        }
        Target::None
    }

    /// A point to click to hit `target` in `position`: the middle of what shows of it.
    pub fn click_point(&self, target: Target, position: &Position) -> Option<(i32, i32)> {
        let r = match target {
            Target::Stock => self.stock,
            Target::Waste => self.waste_top(position),
            Target::Foundation(f) => *self.foundations.get(f as usize)?,
            Target::Pile { pile, card } => {
                let p = position.piles.get(pile as usize)?;
                match card {
                    None => self.piles[pile as usize],
                    Some(k) if (k as usize) < p.cards.len() => {
                        let r = self.pile_card(pile as usize, k as usize, p.down);
                        // A covered card shows its top strip; aim inside it.
                        if (k as usize) + 1 < p.cards.len() {
                            let strip = if (k as usize) < p.down {
                                self.down_step
                            } else {
                                self.up_step
                            };
                            return Some((r.x + r.w / 2, r.y + strip / 2));
                        }
                        r
                    }
                    Some(_) => return None,
                }
            }
            Target::Button(b) => self.chrome.rect(b),
            Target::None => return None,
        };
        Some(r.centre())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::klondike::{Draw, KlondikeDeck};

    #[test]
    fn everything_fits_at_every_size_and_scale_with_the_longest_piles() {
        for (w, h) in [(800, 600), (1200, 760), (1440, 900), (3840, 2160)] {
            for scale in [1.0, 1.5, 2.5] {
                let l = Layout::new(w, h, scale, 1.45);
                // The longest pile: six face down, then thirteen face up.
                let longest = l.pile_card(6, 18, 6);
                let places = [l.stock, l.waste_card(2), longest]
                    .into_iter()
                    .chain(l.foundations)
                    .chain(l.piles);
                for r in places {
                    assert!(r.x >= 0 && r.right() <= w as i32, "{w}x{h}@{scale}: {r:?}");
                    assert!(r.y >= l.chrome.toolbar.bottom(), "{w}x{h}@{scale}: {r:?}");
                    assert!(r.bottom() <= l.chrome.status.y, "{w}x{h}@{scale}: {r:?}");
                }
                assert!(l.card_w >= 30, "{w}x{h}@{scale}: cards {} wide", l.card_w);
                // The fanned waste stays clear of the first foundation.
                assert!(l.waste_card(2).right() < l.foundations[0].x);
            }
        }
    }

    #[test]
    fn clicks_hit_every_card_of_a_pile_and_the_piles_and_buttons() {
        let l = Layout::new(1200, 760, 1.0, 1.45);
        let mut position = Position::deal(&KlondikeDeck::shuffled(4), Draw::Three);
        for _ in 0..2 {
            position.play(crate::games::klondike::Step::Draw).unwrap();
        }
        for (i, pile) in position.piles.iter().enumerate() {
            for k in 0..pile.cards.len() {
                let t = Target::Pile {
                    pile: i as u8,
                    card: Some(k as u8),
                };
                let (x, y) = l.click_point(t, &position).unwrap();
                assert_eq!(l.hit(x, y, false, &position), t);
            }
        }
        for t in [
            Target::Stock,
            Target::Waste,
            Target::Foundation(0),
            Target::Foundation(3),
            Target::Button(Button::Undo),
            Target::Button(Button::NewDeal),
        ] {
            let (x, y) = l.click_point(t, &position).unwrap();
            assert_eq!(l.hit(x, y, false, &position), t);
            assert_eq!(l.hit(x, y, true, &position), Target::None);
        }
        position.piles[2].cards.clear();
        position.piles[2].down = 0;
        let empty = Target::Pile {
            pile: 2,
            card: None,
        };
        let (x, y) = l.click_point(empty, &position).unwrap();
        assert_eq!(l.hit(x, y, false, &position), empty);
    }
}
