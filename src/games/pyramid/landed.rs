//! When a move on the Pyramid table has landed, told from one picture, before the picture has
//! stayed still for the hold (`Hands::settle_until`): the hold waits 1.5 times the longest pause
//! seen between the game's repaints, which on a busy machine is most of a frame or two after
//! every move. A picture in which the move shows done ends the wait at once:
//! - outside the places the move changes and the places clicked (each grown by a margin for
//!   edges, highlights and a pile's stacked cards), across the window's width and over the rows
//!   of the cards, the picture is exactly the one before the move (nothing flies there: a card on
//!   its way to the waste, or to the discard, changes pixels outside those places until it has
//!   gone); above and below those rows, each row is as before the move or has stopped changing
//!   since the capture before (a status line changes with the move and stays so; a row a card
//!   flying off the top crosses changes until the card has gone);
//! - the board read from it is the one the move should give (the caller's test), with no card
//!   off its place and nothing stray, and no place read as a card before reads as unknown now;
//! - a card flying to a pile (the waste, on a draw) lies exactly where it comes to rest: as far
//!   from where it lay on the stock as a drawn card the hold found still did. A card a few pixels
//!   short is read as the waste's card all the same.
//!
//! Where the move's end cannot be told so (the first draw, onto an empty waste; a recycle; a
//! draw that also clears a selection elsewhere), the hold ends the wait as before.

use crate::games::pyramid::known::{STOCK_PLACE, WASTE_PLACE};
use crate::games::pyramid::position::PYRAMID_SIZE;
use crate::games::pyramid::state::{Place, State};
use crate::games::pyramid::step::Step;
use crate::games::pyramid::table::game::clicks_for;
use crate::games::pyramid::table::layout::Target;
use crate::games::pyramid::vision::board::Board;
use crate::games::pyramid::vision::locate::Located;
use crate::table::rect::Rect;
use crate::vision::recognize::Seen;
use image::RgbaImage;
use std::sync::Arc;

/// How far around a place the move may change pixels, in card widths: a pile's stacked edges,
/// a highlight's glow, a card's shadow (as `stray`'s margins).
const MARGIN: f32 = 0.1;
/// How far a card flown to a pile may lie from where it comes to rest, in pixels (what the
/// measure of sub-pixel placement leaves).
const AT_REST: f32 = 0.5;

/// What tells that one move has landed.
pub struct Landing {
    /// The last still picture before the move's last click.
    before: Arc<RgbaImage>,
    /// The rows watched, across the window's width.
    band: Rect,
    /// The places the move changes, grown by `MARGIN`.
    changing: Vec<Rect>,
    /// The pile a card flies to, and where the card's index comes to rest there.
    destination: Option<(usize, (f32, f32))>,
    /// The places read as cards in the last still picture.
    known: Vec<usize>,
}

impl Landing {
    /// What tells that `step`, played from `state` on the table `located`, has landed, from
    /// `before` (the still picture before its last click), `last` (the board last read from a
    /// still picture) and `stock_to_waste` (how far a card's index lies on the waste at rest
    /// from where it lay on the stock, learnt from a draw the hold found still: the same for
    /// every card, where the index's place against the card's corner differs by a pixel from
    /// card to card); `None` when its end can only be told by the hold.
    pub fn new(
        before: Arc<RgbaImage>,
        located: &Located,
        state: &State,
        step: Step,
        last: &Board,
        stock_to_waste: Option<(f32, f32)>,
    ) -> Option<Landing> {
        let margin = (MARGIN * located.card_w).ceil() as i32;
        let grown = |r: Rect| {
            Rect::new(
                r.x - margin,
                r.y - margin,
                r.w + 2 * margin,
                r.h + 2 * margin,
            )
        };
        let rect_of = |place: usize| match place {
            STOCK_PLACE => located.stock,
            WASTE_PLACE => located.waste,
            p => located.slots[p],
        };
        let (places, destination) = match step {
            Step::Draw => {
                let (on_stock, apart) = (last.index_at[STOCK_PLACE]?, stock_to_waste?);
                let rest = (on_stock.0 + apart.0, on_stock.1 + apart.1);
                (vec![STOCK_PLACE, WASTE_PLACE], Some((WASTE_PLACE, rest)))
            }
            Step::Recycle => return None,
            Step::King(_) | Step::Pair(..) => {
                let mut places = Vec::new();
                for card in step.cards() {
                    places.push(match state.place_of(card) {
                        Place::Pyramid(p) => p.index(),
                        Place::StockTop => STOCK_PLACE,
                        Place::WasteTop => WASTE_PLACE,
                        Place::Buried | Place::Gone => return None,
                    });
                }
                (places, None)
            }
        };
        // The places clicked change too (a card selected before a draw loses its highlight).
        let clicked = clicks_for(state, step).into_iter().filter_map(|t| match t {
            Target::Pyramid(p) => Some(p.index()),
            Target::Stock => Some(STOCK_PLACE),
            Target::Waste => Some(WASTE_PLACE),
            _ => None,
        });
        let places: Vec<usize> = places.into_iter().chain(clicked).collect();
        let area = located.cards_area();
        let band = Rect::new(
            0,
            area.y - margin,
            before.width() as i32,
            area.h + 2 * margin,
        );
        let known = (0..PYRAMID_SIZE + 2)
            .filter(|&i| matches!(last.at(i), Seen::Card(..)))
            .collect();
        Some(Landing {
            before,
            band,
            changing: places.into_iter().map(|p| grown(rect_of(p))).collect(),
            destination,
            known,
        })
    }

    /// Whether `frame` shows, over the cards' rows outside the places the move changes, exactly
    /// what the picture before the move did, and above and below those rows, row by row, what
    /// that picture or `prev` (the capture before it) did: there a status line may have changed
    /// with the move and stays so, and a row a card flying off the table crosses is back to what
    /// it was once the card has gone (the cheap test, made first).
    pub fn unchanged_elsewhere(&self, frame: &RgbaImage, prev: &RgbaImage) -> bool {
        if frame.dimensions() != self.before.dimensions() || prev.dimensions() != frame.dimensions()
        {
            return false;
        }
        let (w, h) = frame.dimensions();
        let y0 = self.band.y.clamp(0, h as i32) as usize;
        let y1 = (self.band.y + self.band.h).clamp(0, h as i32) as usize;
        let row = (w * 4) as usize;
        let (a, b, p) = (frame.as_raw(), self.before.as_raw(), prev.as_raw());
        let outside = (0..y0).chain(y1..h as usize).all(|y| {
            let r = y * row..(y + 1) * row;
            a[r.clone()] == b[r.clone()] || a[r.clone()] == p[r]
        });
        if !outside {
            return false;
        }
        for y in y0..y1 {
            // The row's stretches outside every changing place.
            let y = y as i32;
            let mut cuts: Vec<(i32, i32)> = self
                .changing
                .iter()
                .filter(|r| y >= r.y && y < r.y + r.h)
                .map(|r| (r.x.clamp(0, w as i32), (r.x + r.w).clamp(0, w as i32)))
                .collect();
            cuts.sort_unstable();
            let mut x = 0;
            let start = y as usize * row;
            for (c0, c1) in cuts.into_iter().chain([(w as i32, w as i32)]) {
                if c0 > x {
                    let (s, e) = (start + x as usize * 4, start + c0 as usize * 4);
                    if a[s..e] != b[s..e] {
                        return false;
                    }
                }
                x = x.max(c1);
            }
        }
        true
    }

    /// Whether `board`, read from a picture that passed `unchanged_elsewhere` and that the
    /// caller's test accepts, shows the move landed: no place read as a card before reads as
    /// unknown, and a card flown to a pile lies where the pile's card lay at rest.
    pub fn board_landed(&self, board: &Board) -> bool {
        if self
            .known
            .iter()
            .any(|&i| matches!(board.at(i), Seen::Unknown(_)))
        {
            return false;
        }
        match self.destination {
            None => true,
            Some((place, rest)) => board
                .index_at
                .get(place)
                .copied()
                .flatten()
                .is_some_and(|at| {
                    (at.0 - rest.0).abs() <= AT_REST && (at.1 - rest.1).abs() <= AT_REST
                }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgba;

    fn landing(changing: Vec<Rect>) -> Landing {
        Landing {
            before: Arc::new(RgbaImage::from_pixel(100, 80, Rgba([0, 90, 0, 255]))),
            band: Rect::new(0, 10, 100, 60),
            changing,
            destination: None,
            known: Vec::new(),
        }
    }

    const WHITE: Rgba<u8> = Rgba([255, 255, 255, 255]);

    #[test]
    fn a_change_inside_a_changing_place_or_a_still_one_outside_the_band_is_allowed() {
        let l = landing(vec![Rect::new(20, 20, 30, 30)]);
        let mut f = (*l.before).clone();
        for (x, y) in [(20, 20), (49, 49), (70, 5), (70, 75)] {
            f.put_pixel(x, y, WHITE);
        }
        assert!(l.unchanged_elsewhere(&f, &f.clone()));
    }

    #[test]
    fn a_change_just_outside_a_changing_place_is_a_card_still_flying() {
        let l = landing(vec![Rect::new(20, 20, 30, 30)]);
        for (x, y) in [(50, 30), (19, 30), (30, 50), (99, 10), (0, 69)] {
            let mut f = (*l.before).clone();
            f.put_pixel(x, y, WHITE);
            assert!(!l.unchanged_elsewhere(&f, &f.clone()), "{x},{y}");
        }
    }

    #[test]
    fn outside_the_band_a_row_still_changing_is_a_card_still_flying_off() {
        let l = landing(Vec::new());
        for (x, y) in [(70, 5), (70, 75)] {
            // The card was at x - 1 in the capture before, not there before the move.
            let mut prev = (*l.before).clone();
            prev.put_pixel(x - 1, y, WHITE);
            let mut f = (*l.before).clone();
            f.put_pixel(x, y, WHITE);
            assert!(!l.unchanged_elsewhere(&f, &prev), "{x},{y}");
            // Gone: the row is as it was before the move, whatever the capture before showed.
            assert!(l.unchanged_elsewhere(&l.before, &prev), "{x},{y}");
        }
    }

    #[test]
    fn a_card_flown_to_the_waste_has_landed_only_where_the_waste_card_lay() {
        let mut l = landing(Vec::new());
        l.destination = Some((WASTE_PLACE, (4.0, 5.0)));
        let mut board = Board {
            pyramid: [Seen::Empty; PYRAMID_SIZE],
            stock_present: false,
            stock_top: Seen::Empty,
            waste: Seen::Card("Ah".parse().unwrap(), 1.0),
            unsure: Vec::new(),
            misplaced: Vec::new(),
            index_at: vec![None; PYRAMID_SIZE + 2],
        };
        board.index_at[WASTE_PLACE] = Some((4.2, 4.9));
        assert!(l.board_landed(&board));
        board.index_at[WASTE_PLACE] = Some((5.0, 5.0));
        assert!(!l.board_landed(&board));
        board.index_at[WASTE_PLACE] = None;
        assert!(!l.board_landed(&board));
    }

    #[test]
    fn a_card_known_before_that_reads_unknown_has_not_landed() {
        let mut l = landing(Vec::new());
        l.known = vec![STOCK_PLACE];
        let board = Board {
            pyramid: [Seen::Empty; PYRAMID_SIZE],
            stock_present: true,
            stock_top: Seen::Unknown(0.3),
            waste: Seen::Empty,
            unsure: Vec::new(),
            misplaced: Vec::new(),
            index_at: vec![None; PYRAMID_SIZE + 2],
        };
        assert!(!l.board_landed(&board));
    }
}
