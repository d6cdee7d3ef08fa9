//! A Pyramid board read from a located frame: each of the 28 slots, the stock and the waste looked
//! at with the shared recogniser; slots whose card lies a few pixels off looked at again where the
//! cards lie; a card off its place (in flight) told from the others.

use crate::agent::report::Mark;
use crate::cards::Card;
use crate::games::pyramid::position::{Position, PYRAMID_SIZE};
use crate::games::pyramid::vision::locate::Located;
use crate::table::rect::Rect;
use crate::vision::edges::Edges;
use crate::vision::recognize::*;
use image::RgbaImage;
use rayon::prelude::*;

use crate::vision::card_edges::*;
pub use crate::vision::card_edges::{snap_corner, snap_pile_corner};
pub use crate::vision::dots::{dot, dots};
pub use crate::vision::sampling::{sample, sample_grid, window_of, Patch};

/// A board as read from a frame.
#[derive(Clone, Debug, PartialEq)]
pub struct Board {
    pub pyramid: [Seen; PYRAMID_SIZE],
    /// Whether the stock has cards (its top card lies face up on it).
    pub stock_present: bool,
    pub stock_top: Seen,
    pub waste: Seen,
    /// For places read as unknown that still look like a card: the close candidates, best
    /// first (places numbered as in `place_regions`: pyramid 0..28, stock 28, waste 29). The
    /// full deck may settle them later (see the agent's learning of the stock).
    pub unsure: Vec<(usize, Vec<Card>)>,
    /// Places whose card lies off its place, where the other cards' lie on theirs (numbered as
    /// `unsure`): a card in flight over a pile or a slot, read as the card there.
    pub misplaced: Vec<usize>,
    /// Where each place's card index lies against the place's corner, in pixels (numbered as
    /// `unsure`; none where no card was read): kept with a place's read, so that a later read of
    /// a few places is told from where all the cards lie (see `read_board_reusing`).
    pub index_at: Vec<Option<(f32, f32)>>,
}

impl Board {
    /// The lowest confidence among the cards read (1.0 when none).
    pub fn confidence_min(&self) -> f32 {
        self.seen()
            .filter_map(|s| match s {
                Seen::Card(_, c) | Seen::Unknown(c) => Some(c),
                Seen::Empty => None,
            })
            .fold(1.0, f32::min)
    }

    /// What place `place` shows (numbered as in `PLACES`).
    pub fn at(&self, place: usize) -> Seen {
        match place {
            p if p < PYRAMID_SIZE => self.pyramid[p],
            PYRAMID_SIZE => self.stock_top,
            _ => self.waste,
        }
    }

    fn seen(&self) -> impl Iterator<Item = Seen> + '_ {
        self.pyramid
            .iter()
            .copied()
            .chain([self.stock_top, self.waste])
    }

    /// The close candidates the reader gave for an unsure place (places numbered as in
    /// `PLACES`; none for a sure place, or one that looks like no card).
    pub fn candidates(&self, place: usize) -> &[Card] {
        self.unsure
            .iter()
            .find(|(p, _)| *p == place)
            .map_or(&[], |(_, cards)| cards.as_slice())
    }

    /// Places read as unknown, by name, each with its close candidates when there are any
    /// (`pyramid:12 (8c or 8s?)`).
    pub fn unknowns_with_candidates(&self) -> Vec<String> {
        self.unknown_places()
            .map(|(i, name)| match self.candidates(i) {
                [] => name,
                cards => {
                    let cards: Vec<String> = cards.iter().map(|c| c.to_string()).collect();
                    format!("{name} ({}?)", cards.join(" or "))
                }
            })
            .collect()
    }

    /// How many places were read as unknown without even their rank: places unsure only between
    /// the suits of one rank (a covered corner whose suit the card over it hides) show a card's
    /// index where the table puts one, and are not counted.
    pub fn unread(&self) -> usize {
        self.unknown_places()
            .filter(|&(i, _)| !of_one_rank(self.candidates(i)))
            .count()
    }

    /// Places read as unknown, by name (`pyramid:12`, `stock`, `waste`).
    pub fn unknowns(&self) -> Vec<String> {
        self.unknown_places().map(|(_, name)| name).collect()
    }

    /// The places read as unknown (numbered as in `PLACES`), with their names.
    fn unknown_places(&self) -> impl Iterator<Item = (usize, String)> + '_ {
        (0..PYRAMID_SIZE)
            .map(|i| (i, self.pyramid[i]))
            .chain([
                (PYRAMID_SIZE, self.stock_top),
                (PYRAMID_SIZE + 1, self.waste),
            ])
            .filter(|(_, seen)| matches!(seen, Seen::Unknown(_)))
            .map(|(i, _)| (i, place_name(i)))
    }

    /// What each place showing something was read as, where it lies in the frame.
    pub fn marks(&self, located: &Located) -> Vec<Mark> {
        let rects = located.slots.iter().chain([&located.stock, &located.waste]);
        rects
            .zip(self.seen())
            .filter_map(|(&rect, seen)| Mark::of_seen(rect, seen))
            .collect()
    }

    /// How many places show something (a card or an unknown).
    pub fn shown(&self) -> usize {
        self.seen().filter(|s| *s != Seen::Empty).count()
    }

    /// Whether `other` reads every card this board reads, at the same place: a second look at a
    /// frame may read more of it, never other cards.
    pub fn agrees_with(&self, other: &Board) -> bool {
        (0..PLACES).all(|i| {
            self.at(i)
                .card()
                .is_none_or(|c| other.at(i).card() == Some(c))
        })
    }
}

/// Whether a place's candidates are the suits of one rank only: its corner shows the rank (a
/// covered corner whose suit the card over it hides), so a card lies there.
fn of_one_rank(cards: &[Card]) -> bool {
    cards
        .first()
        .is_some_and(|c| cards.iter().all(|d| d.rank == c.rank))
}

/// A place's name (numbered as in `PLACES`): `pyramid:12`, `stock`, `waste`.
pub fn place_name(place: usize) -> String {
    match place {
        p if p < PYRAMID_SIZE => format!("pyramid:{p}"),
        PYRAMID_SIZE => "stock".to_string(),
        _ => "waste".to_string(),
    }
}

/// What a place shows besides its look: how strong a card's top edge is there, how much of it is
/// felt, and where the card's top-left corner was found.
struct Glance {
    edge: f32,
    felt: f32,
    corner: (f32, f32),
}

/// How far the pyramid cards' corners lie from their slots, across and down, in whole pixels:
/// the median over the cards found with a top edge (none: (0, 0), with fewer than three).
fn slot_offset(glances: &[Glance], slots: &[Rect]) -> (i32, i32) {
    let (mut xs, mut ys): (Vec<f32>, Vec<f32>) = glances
        .iter()
        .zip(slots)
        .filter(|(g, _)| g.edge >= TOP_EDGE)
        .map(|(g, r)| (g.corner.0 - r.x as f32, g.corner.1 - r.y as f32))
        .unzip();
    if xs.len() < 3 {
        return (0, 0);
    }
    (
        median(&mut xs).round() as i32,
        median(&mut ys).round() as i32,
    )
}

/// How far the pyramid cards' indices lie from where the templates say they lie on cards on their
/// slots, across and down, in whole pixels: the median over the places whose corner looks like a
/// card (a template scores at least `MIN_SCORE`; none: (0, 0), with fewer than three). For a
/// borderless set, whose templates were cut at the slots (see `calibrate::corners_of`), this is
/// how far off the table was found.
fn index_offset(looks: &[Option<Looked>], matcher: &Matcher, w: f32) -> (i32, i32) {
    let (px, py) = matcher.template_pixel(w);
    let (mut xs, mut ys): (Vec<f32>, Vec<f32>) = looks[..PYRAMID_SIZE]
        .iter()
        .flatten()
        .filter(|(look, _)| look.lead() >= MIN_SCORE)
        .map(|(look, _)| {
            let (ox, oy) = look.offset();
            let placed = matcher
                .placed
                .as_ref()
                .map_or((0.0, 0.0), |p| p[look.leader()]);
            ((ox - placed.0) * px, (oy - placed.1) * py)
        })
        .unzip();
    if xs.len() < 3 {
        return (0, 0);
    }
    (
        median(&mut xs).round() as i32,
        median(&mut ys).round() as i32,
    )
}

/// `SLOTS_OFF` for a borderless set (see `index_offset`): its top edges are looked for over the two
/// rows above a corner and the one below, so cards found two pixels lower are looked at again
/// (anglo+borderless at 3840x2160, practice look: the table found 3 px above its cards, and most
/// cards, their top edges not seen, taken for empty places).
const BORDERLESS_SLOTS_OFF: i32 = 2;

/// How many pixels off their slots the cards' corners must lie, all alike, for the slots without
/// a top edge to be looked at again that far off (see `read_board_reusing`). Cards on a table
/// located right lie a pixel or two off (the slots are rounded; a card's edge line takes a
/// pixel or two).
const SLOTS_OFF: i32 = 4;

/// Share of felt-like pixels in a rectangle (sampled).
fn felt_share(frame: &RgbaImage, felt_of: crate::vision::felt::Felt, r: Rect) -> f32 {
    let (mut n, mut felt) = (0u32, 0u32);
    let step = (r.w / 12).max(1);
    let mut y = r.y + r.h / 10;
    while y < r.y + r.h * 9 / 10 {
        let mut x = r.x + r.w / 10;
        while x < r.x + r.w * 9 / 10 {
            if x >= 0 && y >= 0 && (x as u32) < frame.width() && (y as u32) < frame.height() {
                n += 1;
                if felt_of.like(frame.get_pixel(x as u32, y as u32)) {
                    felt += 1;
                }
            }
            x += step;
        }
        y += step;
    }
    if n == 0 {
        1.0
    } else {
        felt as f32 / n as f32
    }
}

/// Reads the board of a located frame.
pub fn read_board(
    frame: &RgbaImage,
    e: &Edges,
    located: &Located,
    matcher: &Matcher,
    row_step: f32,
) -> Board {
    read_board_reusing(frame, e, located, matcher, row_step, &[None; PLACES])
}

/// A place's read kept from the frame before, its pixels unchanged: what it showed and where its
/// card's index lay (`Board::index_at`).
pub type Kept = Option<(Seen, Option<(f32, f32)>)>;

/// Places read on a board: the 28 pyramid slots, the stock, the waste.
pub const PLACES: usize = PYRAMID_SIZE + 2;

/// The regions whose pixels decide what each place shows (the visible strip of a pyramid slot,
/// the whole pile), for telling which places changed between frames.
pub fn place_regions(located: &Located, row_step: f32) -> Vec<Rect> {
    let strip = (row_step * located.card_w) as i32;
    let mut out: Vec<Rect> = located
        .slots
        .iter()
        .map(|r| Rect::new(r.x, r.y, r.w, strip))
        .collect();
    let d = (located.card_w / 10.0) as i32;
    for r in [located.stock, located.waste] {
        out.push(Rect::new(r.x - d, r.y - d, r.w + d, r.h + d));
    }
    out
}

/// As `read_board`, keeping what `kept` says for the places that did not change.
pub fn read_board_reusing(
    frame: &RgbaImage,
    e: &Edges,
    located: &Located,
    matcher: &Matcher,
    row_step: f32,
    kept: &[Kept; PLACES],
) -> Board {
    let reuse: [Option<Seen>; PLACES] = std::array::from_fn(|i| kept[i].map(|(seen, _)| seen));
    let w = located.card_w;
    let strip = row_step * w;
    let mut places: Vec<(Rect, bool)> = located.slots.iter().map(|r| (*r, true)).collect();
    places.push((located.stock, false));
    places.push((located.waste, false));
    // Each place is looked at on its own (in parallel): where its corner is, how strong the card
    // edge there is, and what the corner looks like (none for felt or a place kept from before).
    // A card under a highlight is looked at with templates under the same band (see
    // `Matcher::under_band`), which then also judge it.
    // (`snap`: the card's corner is looked for around the place's; else it is the place's.)
    let felt_of = crate::vision::felt::Felt::of(frame);
    let look_at_place = |rect: Rect, in_pyramid: bool, snap: bool| -> (Option<Looked>, Glance) {
        let depth = if in_pyramid {
            strip
        } else {
            0.9 * located.card_h
        };
        // The stock's top card lies over backs that peek out up and to the left.
        let from = if in_pyramid {
            -(0.05 * w).round().max(2.0) as i32
        } else {
            -1
        };
        let (sx, sy) = (rect.x as f32, rect.y as f32);
        let (mut x, mut y) = (sx, sy);
        // A borderless card's edges show too little to snap to (calibration cut its corner at
        // the slot too: see `calibrate::corners_of`).
        if snap && !(matcher.borderless && in_pyramid) {
            (x, y, _) = snap_corner_within(e, rect, depth, w, from);
        }
        let mut band = highlight_band(frame, x, y, w, depth);
        // A selected card's band can be a weaker line than the inner frame inside it (swiss-xvii's),
        // which the snap then takes for the card's edge: where the corner was snapped in from the
        // slot's, and the band shows at the slot's corner but not at the snapped one, the slot's
        // corner is the card's.
        if band.is_none() && in_pyramid && (x > sx + 2.0 || y > sy + 2.0) {
            if let Some(found) = highlight_band(frame, sx, sy, w, depth) {
                (x, y, band) = (sx, sy, Some(found));
            }
        }
        // A borderless card's top edge shows only where felt or ink lies above it: none where
        // its face runs on into the face of a card behind all along (see `cards_show_edges`).
        let shown = if matcher.borderless && in_pyramid {
            top_edge_where_it_shows(frame, x as i32, y as i32, w)
        } else {
            Some(top_edge_continuity(frame, x as i32, y as i32, w))
        };
        let look_at = if in_pyramid {
            Rect::new(rect.x, rect.y, rect.w, strip as i32)
        } else {
            rect
        };
        let felt = felt_share(frame, felt_of, look_at);
        let mut glance = Glance {
            edge: shown.unwrap_or(0.0),
            felt,
            corner: (x, y),
        };
        if (!in_pyramid && felt > 0.6) || (in_pyramid && felt > 0.5) {
            return (None, glance);
        }
        // The templates sit a little off the card's edges, where the band lies: how far, the
        // best template shows in a first look.
        let banded = band.map(|(band, colour)| {
            let first = matcher.under_band(band, colour, w, (0.0, 0.0));
            let look = first.look(frame, x, y, w);
            let (ox, oy) = look.offset();
            // (Less how far apart the best template lies, if it does.)
            let (ax, ay) = matcher.lined_up_apart()[look.leader()];
            matcher.under_band(band, colour, w, (ox - ax, oy - ay))
        });
        let m = banded.as_deref().unwrap_or(matcher);
        // Thoroughly only where a card's top edge is, or cannot show (see `Matcher::look_closely`).
        let thorough = !in_pyramid || shown.is_none_or(|edge| edge >= TOP_EDGE);
        let mut look = m.look_closely(frame, (x, y), w, thorough);
        // A pile's top card lies inside the edges of the cards under it, which peek out up and
        // to the left, one more for every few cards: where nothing fits at the corner snapped
        // to, the stack is deeper than the snap reaches (ornamental's stock in the msc look,
        // whose top card lay 9 pixels under the stack's top edge), and the corner is looked for
        // again past it.
        if !in_pyramid && look.lead() < MIN_SCORE {
            let past = Rect::new(x as i32 + 1, y as i32 + 1, rect.w, rect.h);
            let (px, py, _) = snap_corner_within(e, past, depth, w, 0);
            let again = m.look_closely(frame, (px, py), w, thorough);
            if again.lead() > look.lead() {
                (look, glance.corner) = (again, (px, py));
            }
        }
        // Where the edge cannot show, a corner like a card's stands for it.
        if shown.is_none() && look.lead() >= MIN_SCORE {
            glance.edge = 1.0;
        }
        (Some((look, banded)), glance)
    };
    let (mut looks, mut glances): (Vec<Option<Looked>>, Vec<Glance>) = places
        .par_iter()
        .enumerate()
        .map(|(i, &(rect, in_pyramid))| {
            if reuse[i].is_some() {
                let glance = Glance {
                    edge: 0.0,
                    felt: 1.0,
                    corner: (0.0, 0.0),
                };
                return (None, glance);
            }
            look_at_place(rect, in_pyramid, true)
        })
        .unzip();
    // Where the cards' corners, those with a top edge, lie some pixels off their slots all alike,
    // the table was located that far off, and a slot without a top edge may have missed its
    // card's corner (searched for only a few pixels around the slot): it is looked at again
    // that far off, and kept if its top edge is stronger there (tango_nuevo's deal 13 at
    // 1440x900, located 6 pixels low: its top card's corner was 8 pixels above its slot, the top
    // of its "2" taken for the corner instead).
    // A borderless set's corners are looked at on their slots, not snapped to edges: there the
    // templates' fits tell how far off the table was found.
    let ((dx, dy), off_by) = if matcher.borderless {
        (index_offset(&looks, matcher, w), BORDERLESS_SLOTS_OFF)
    } else {
        (slot_offset(&glances, &located.slots), SLOTS_OFF)
    };
    // Slot i moved as far as the cards' corners lie off their slots.
    let moved_slot = |i: usize| {
        let r: Rect = located.slots[i];
        Rect::new(r.x + dx, r.y + dy, r.w, r.h)
    };
    if dx.abs() >= off_by || dy.abs() >= off_by {
        let again: Vec<(usize, (Option<Looked>, Glance))> = (0..PYRAMID_SIZE)
            .into_par_iter()
            .filter(|&i| reuse[i].is_none() && glances[i].edge < TOP_EDGE)
            .map(|i| (i, look_at_place(moved_slot(i), true, true)))
            .collect();
        for (i, (look, glance)) in again {
            if glance.edge > glances[i].edge {
                (looks[i], glances[i]) = (look, glance);
            }
        }
    }
    // A slot without a card's top edge, whose corner was snapped apart from where the other
    // cards' corners lie, may have taken a line inside its card for the edge (ornamental's scroll
    // under the rank, in the msc look: its 4s and 8h, uncovered, read as empty at 1920x1080), or
    // a line above it on the cards behind (ornamental's 10d at 2560x1440, scale 2.5: 4 pixels
    // above, on cards 241 wide): it is looked at again where the others lie, and that look kept
    // if its top edge is stronger. Without a top edge, more than the pixel or two by which the
    // cards of one table differ is apart.
    let again: Vec<(usize, (Option<Looked>, Glance))> = (0..PYRAMID_SIZE)
        .into_par_iter()
        .filter(|&i| {
            let (r, g) = (moved_slot(i), &glances[i]);
            let off = (g.corner.0 - r.x as f32, g.corner.1 - r.y as f32);
            reuse[i].is_none() && g.edge < TOP_EDGE && (off.0.abs() > 2.0 || off.1.abs() > 2.0)
        })
        .map(|i| (i, look_at_place(moved_slot(i), true, false)))
        .collect();
    for (i, (look, glance)) in again {
        if glance.edge > glances[i].edge {
            (looks[i], glances[i]) = (look, glance);
        }
    }
    // A card (a top edge) whose corner looks like no card may have had a line beside its edge
    // taken for the edge (swiss-xvii's tree trunk on the card behind, 4 pixels left of its Qc's
    // edge at 800x600): it is looked at again from its slot's corner, moved as the other cards'
    // corners are, and that look kept if it finds a card more like it.
    let best_score = |look: &Option<Looked>| look.as_ref().map_or(f32::MIN, |(l, _)| l.lead());
    let again: Vec<(usize, (Option<Looked>, Glance))> = (0..PYRAMID_SIZE)
        .into_par_iter()
        .filter(|&i| {
            let (r, g) = (moved_slot(i), &glances[i]);
            let off = (g.corner.0 - r.x as f32).abs() + (g.corner.1 - r.y as f32).abs();
            reuse[i].is_none()
                && g.edge >= TOP_EDGE
                && best_score(&looks[i]) < MIN_SCORE
                && off >= 2.0
        })
        .map(|i| (i, look_at_place(moved_slot(i), true, false)))
        .collect();
    for (i, (look, glance)) in again {
        if best_score(&look) > best_score(&looks[i]) {
            (looks[i], glances[i]) = (look, glance);
        }
    }
    let edge_strength: Vec<f32> = glances.iter().map(|g| g.edge).collect();
    let felt: Vec<f32> = glances.iter().map(|g| g.felt).collect();
    let corners: Vec<(f32, f32)> = glances.iter().map(|g| g.corner).collect();
    // Settle cards best match first; a card is used once (the full deck).
    let mut order: Vec<usize> = (0..places.len()).filter(|&i| looks[i].is_some()).collect();
    let lead = |i: usize| looks[i].as_ref().map_or(0.0, |(l, _)| l.lead());
    order.sort_by(|&a, &b| lead(b).total_cmp(&lead(a)));
    let mut free = [true; 52];
    let mut seen = vec![Seen::Empty; places.len()];
    let mut unsure = Vec::new();
    // Places whose corner looks like a card (a template scores at least `MIN_SCORE`).
    let mut card_like = vec![false; places.len()];
    for (i, r) in reuse.iter().enumerate() {
        if let Some(kept) = r {
            seen[i] = *kept;
            if let Seen::Card(c, _) = kept {
                free[c.index()] = false;
            }
        }
    }
    // The duels the first decisions below take, worked out for all places at once (in parallel):
    // each look keeps its duels, so deciding again after claims mostly finds them done.
    looks.par_iter().flatten().for_each(|(look, banded)| {
        decide(banded.as_deref().unwrap_or(matcher), look, &free);
    });
    for i in order {
        let (look, banded) = looks[i].as_ref().expect("a look");
        let matcher = banded.as_deref().unwrap_or(matcher);
        let Some((k, score, margin)) = decide(matcher, look, &free) else {
            seen[i] = Seen::Unknown(0.0);
            continue;
        };
        card_like[i] = score >= MIN_SCORE;
        let confidence = confidence(score, margin);
        let (in_pyramid, edge) = (places[i].1, edge_strength[i]);
        let (x, y) = corners[i];
        let no_side = || left_edge_continuity(frame, x as i32, y as i32, w, strip) < SIDE_EDGE;
        // A card whose top edge does not show (kde-standard's Js draws none at 800x600, white
        // over the white faces behind) and that nothing lies on shows its bottom edge where a
        // card lying here ends: with its left edge and a corner read clearly, it is a card. An
        // empty place shows there the felt, or the cards behind, which end a row higher. A face
        // without a border shows no left edge where the card behind runs on beside it
        // (anglo+borderless's 8s at the bottom row's end, beside the row above's 6s, in the msc
        // look at 1920x1080): there its bottom edge and its corner are enough.
        let side = || matcher.borderless || !no_side();
        let clear = score >= MIN_SCORE && margin >= MIN_MARGIN;
        let ends_here = || {
            let slot = places[i].0;
            bottom_edge_shown(
                frame,
                slot,
                Rect::new(slot.x, slot.bottom() - 2, slot.w, 5),
                w,
            )
        };
        if in_pyramid && edge < TOP_EDGE && clear && side() && ends_here() {
            take(&mut seen, &mut free, i, k, confidence);
        } else if in_pyramid
            && edge < TOP_EDGE
            && (score < MIN_SCORE || edge < BARE_EDGE || no_side())
        {
            // No card's top edge, and nothing like a card, hardly an edge at all or no left edge
            // either: an empty slot over the cards behind it (whose pips may look like an index).
            seen[i] = Seen::Empty;
        } else if clear && !(in_pyramid && edge < TOP_EDGE) {
            take(&mut seen, &mut free, i, k, confidence);
        } else {
            seen[i] = Seen::Unknown(confidence);
            if score >= MIN_SCORE {
                // The cards it may be: the leader and those it does not clearly beat (a card it
                // beats by a read's margin is no more likely here than where it is read as sure).
                let cards = torn_between(matcher, look, &free).map_or_else(|| vec![k], |(c, _)| c);
                unsure.push((i, cards.into_iter().map(Card::from_index).collect()));
            }
        }
    }
    // A card is taken only once nothing lies on it, so a place that a card read lies on holds a
    // card, whatever its own top edge shows: white on white with a thin border, it can fall short
    // of `TOP_EDGE` (dondorf's 5c and paris' 7c at 2560x1440 in the msc look, 0.63 and 0.649).
    // Bottom rows first, so that a card read here holds the one under it in turn.
    let mut held = vec![false; places.len()];
    let positions: Vec<Position> = Position::all().collect();
    for p in positions.into_iter().rev() {
        let i = p.index();
        held[i] = p.covered_by().is_some_and(|kids| {
            kids.iter()
                .any(|k| matches!(seen[k.index()], Seen::Card(..)))
        });
        if !held[i] || edge_strength[i] >= TOP_EDGE || reuse[i].is_some() {
            continue;
        }
        let (Seen::Unknown(_), Some((look, banded))) = (seen[i], looks[i].as_ref()) else {
            continue;
        };
        let Some((k, score, margin)) = decide(banded.as_deref().unwrap_or(matcher), look, &free)
        else {
            continue;
        };
        if score >= MIN_SCORE && margin >= MIN_MARGIN {
            take(&mut seen, &mut free, i, k, confidence(score, margin));
            unsure.retain(|&(j, _)| j != i);
        }
    }
    let edge_or_held = |i: usize| !places[i].1 || edge_strength[i] >= TOP_EDGE || held[i];
    // A covered card shows the top of its face past the index corner, and the middle of its face
    // between the two cards over it (a card seen whole, on the stock or the waste, shows both
    // too): where the corner leaves it torn between the suits of one rank, or between cards of
    // other ranks (a thin "10" like a 4), the templates of those parts (when the set has them)
    // settle it, the strip first. In the pyramid these come before the suit glyph: they are each
    // card's own, where a suit's glyph is one prototype averaged over the few cards of the suit
    // seen whole, which may hold what only some ranks print beside the glyph (anglo+borderless's
    // clubs' held a corner pip, and its 2c, blank there, read as 2s). On the stock and the waste
    // they come after it (see below).
    // The gap is looked at where the index corner was found to lie, not where the card's edges
    // put it (as its templates were cut; see `calibrate::part_templates`).
    let by_parts = |in_pyramid: bool,
                    unsure: &mut Vec<(usize, Vec<Card>)>,
                    free: &mut [bool; 52],
                    seen: &mut [Seen]| {
        for (part, found) in [(&matcher.strip, false), (&matcher.gap, true)] {
            let Some(part) = part else { continue };
            unsure.retain(|&(i, _)| {
                let (look, banded) = looks[i].as_ref().expect("an unsure place was looked at");
                if places[i].1 != in_pyramid || !edge_or_held(i) {
                    return true;
                }
                let (mut x, mut y) = corners[i];
                // A selected card's parts lie under the highlight's band as its corner does (the
                // top strip along the card's top and left edges; the gap, in its middle, hardly).
                let part_banded = banded.as_ref().and_then(|_| {
                    let (band, colour) = highlight_band(frame, x, y, w, strip)?;
                    Some(part.under_band(band, colour, w, (0.0, 0.0)))
                });
                let (m, part) = (
                    banded.as_deref().unwrap_or(matcher),
                    part_banded.as_deref().unwrap_or(part),
                );
                if found {
                    let ((ox, oy), (px, py)) = (look.offset(), m.template_pixel(w));
                    (x, y) = (x + ox * px, y + oy * py);
                }
                let cut = || part.look(frame, x, y, w);
                let found = by_part(m, part, look, free, cut);
                found.map(|(k, c)| take(seen, free, i, k, c)).is_none()
            });
        }
    };
    by_parts(true, &mut unsure, &mut free, &mut seen);
    // A card nothing covers shows its suit's glyph whole under the rank: where its index corner
    // (and its parts) leave it torn between the suits of one rank, that glyph settles it.
    if let Some(suits) = &matcher.suits {
        unsure.retain(|&(i, _)| {
            let whole = i >= PYRAMID_SIZE
                || Position::all().nth(i).is_some_and(|p| {
                    p.covered_by()
                        .is_none_or(|kids| kids.iter().all(|q| seen[q.index()] == Seen::Empty))
                });
            if !whole || !edge_or_held(i) {
                return true;
            }
            let (look, banded) = looks[i].as_ref().expect("an unsure place was looked at");
            let m = banded.as_deref().unwrap_or(matcher);
            let (x, y) = corners[i];
            let found = by_suit_glyph(m, suits, look, &free, || suits.look(frame, x, y, w));
            found
                .map(|(k, c)| take(&mut seen, &mut free, i, k, c))
                .is_none()
        });
    }
    // The stock's and the waste's cards, seen whole, by their parts where the glyph left them torn
    // (ancient_french's queens and kings of clubs and spades, over 60 deals). After the glyph:
    // read back at other sizes, the parts took ornamental's 8c, 6h and 9h there for the other
    // suit of their colour in the msc look, where the glyph read them right.
    by_parts(false, &mut unsure, &mut free, &mut seen);
    // The full deck settles some unsure places: a card read later is not a candidate any more,
    // and two places torn between the same two cards are weighed together.
    // (Only places unsure of which card they hold: not those without a card's top edge.)
    let open: Vec<usize> = unsure
        .iter()
        .map(|&(i, _)| i)
        .filter(|&i| edge_or_held(i))
        .collect();
    let settled = settle(matcher, &looks, &mut free, &mut seen, open);
    unsure.retain(|(i, _)| !settled.contains(i));
    // A card lies on the cards it covers: where one of those is gone (read as empty, with nothing
    // like a card), no card lies over it. A place there read as unsure, with nothing like a card
    // or no card's top edge, is empty: what showed an edge or something like an index there is
    // the picture of a card above hanging down into it (the middle line of a court card, pips).
    // Rows top down, so that this carries on down the pyramid.
    // Nor does a card lie there, with no card's top edge, where the cards it would lie on show
    // their bottom edges across the part of them it would cover: what looked like a card's
    // corner is their pips (bellot's 7c halfway through deal 41 at 1024x768, its clubs under the
    // empty place below it and the 6d beside it). Borderless art's top edge is the share of the
    // columns where one shows, and over the faces of the cards behind it can pass for one: there
    // a corner like no card's is enough (kde-nicu-white's empty place under its 8h and 8d in the
    // msc look, 0.75 of an edge, left four places unread and stopped play).
    // A place unsure only between the suits of one rank holds a card as surely as one read: its
    // corner shows the rank (kde-nicu-white's covered cards in the msc look, whose suit the card
    // over them hides, under the empty places of a nearly cleared table).
    let rank_read = |q: usize| {
        unsure
            .iter()
            .any(|(j, cards)| *j == q && of_one_rank(cards))
    };
    for p in Position::all() {
        let i = p.index();
        if reuse[i].is_some() || !matches!(seen[i], Seen::Unknown(_)) {
            continue;
        }
        let gone_under = (!card_like[i] || edge_strength[i] < TOP_EDGE)
            && p.covers()
                .any(|q| seen[q.index()] == Seen::Empty && !card_like[q.index()]);
        let shown_under = (edge_strength[i] < TOP_EDGE || (matcher.borderless && !card_like[i]))
            && p.covers().all(|q| {
                (matches!(seen[q.index()], Seen::Card(..)) || rank_read(q.index()))
                    && bottom_edge_shown(frame, located.slots[q.index()], located.slots[i], w)
            });
        if gone_under || shown_under {
            seen[i] = Seen::Empty;
        }
    }
    // Nor can the two it covers be gone.
    for p in Position::all() {
        if seen[p.index()] == Seen::Empty {
            if let Some(kids) = p.covered_by() {
                if kids.iter().any(|k| seen[k.index()] != Seen::Empty) {
                    seen[p.index()] = Seen::Unknown(0.0);
                }
            }
        }
    }
    // What an empty place's strip shows, when not the felt, is the cards above it hanging down
    // into it. An empty place that shows no felt and lies under no card is not as found: the
    // table is not where it was located, or something covers it. It is unsure.
    let present: Vec<bool> = seen[..PYRAMID_SIZE]
        .iter()
        .map(|s| *s != Seen::Empty)
        .collect();
    for i in 0..PYRAMID_SIZE {
        if seen[i] != Seen::Empty || reuse[i].is_some() || felt[i] > 0.5 {
            continue;
        }
        let slot = located.slots[i];
        let strip = Rect::new(slot.x, slot.y, slot.w, strip as i32);
        let covered = |r: Rect| {
            let across = (r.right().min(strip.right()) - r.x.max(strip.x)).max(0);
            let down = (r.bottom().min(strip.bottom()) - r.y.max(strip.y)).max(0);
            across * down
        };
        let under_a_card = (0..PYRAMID_SIZE)
            .any(|j| j != i && present[j] && 10 * covered(located.slots[j]) > strip.w * strip.h);
        if !under_a_card {
            seen[i] = Seen::Unknown(0.0);
        }
    }
    unsure.retain(|&(i, _)| matches!(seen[i], Seen::Unknown(_)));
    // Where each card read was found, against its place: where its template fitted, less where
    // that template lies on its card. The same for every card at rest; not for one in flight
    // over a place (a card drawn from the stock, halfway to the waste, is read as the stock's).
    let template_pixel = matcher.template_pixel(w);
    let mut index_at: Vec<Option<(f32, f32)>> = (0..places.len())
        .map(|i| {
            if let Some((_, at)) = kept[i] {
                return at;
            }
            let (look, _) = looks[i].as_ref()?;
            let card = seen[i].card()?;
            let placed = matcher
                .placed
                .as_ref()
                .map_or((0.0, 0.0), |p| p[card.index()]);
            let ((ox, oy), r) = (look.offset(), places[i].0);
            Some((
                corners[i].0 + (ox - placed.0) * template_pixel.0 - r.x as f32,
                corners[i].1 + (oy - placed.1) * template_pixel.1 - r.y as f32,
            ))
        })
        .collect();
    let limit = if matcher.placed.is_some() {
        OFF_PLACE
    } else {
        OFF_PLACE_UNPLACED
    };
    let rects: Vec<Rect> = places.iter().map(|(r, _)| *r).collect();
    // Told from where all the cards lie, those kept from before among them: a place read again
    // alone is as off its place as among all.
    let mut misplaced = off_their_places(&index_at, &rects, w, limit);
    misplaced.retain(|&i| reuse[i].is_none());
    // A borderless set's pyramid corners are looked at where the slots lie, not snapped to an
    // edge: a slot with no card over it (none read, nothing like one) whose "card" lies off its
    // place is an empty slot over the faces behind it, whose pips looked like an index and showed
    // like an edge.
    if matcher.borderless {
        misplaced.retain(|&i| {
            let open = Position::all().nth(i).is_some_and(|p| {
                p.covered_by().is_none_or(|kids| {
                    kids.iter().all(|q| {
                        let q = q.index();
                        seen[q] == Seen::Empty || (!card_like[q] && reuse[q].is_none())
                    })
                })
            });
            if open {
                (seen[i], index_at[i]) = (Seen::Empty, None);
            }
            !open
        });
    }
    let mut pyramid = [Seen::Empty; PYRAMID_SIZE];
    pyramid.copy_from_slice(&seen[..PYRAMID_SIZE]);
    let stock_top = seen[PYRAMID_SIZE];
    Board {
        pyramid,
        stock_present: stock_top != Seen::Empty,
        stock_top,
        waste: seen[PYRAMID_SIZE + 1],
        unsure,
        misplaced,
        index_at,
    }
}

/// How far a card's index may lie from where the other cards' indices lie on their places, in
/// card widths, before the card is taken for one off its place, where the template set says where
/// each template lies on its card (`Manifest::placed`). At rest, over 3 deals of every theme at
/// five sizes, the indices lay within 0.046 of the others' (0.035 but for gnomangelo_bitmap and
/// tarocco); a card drawn from the stock a sixth of the way to the waste lies 0.1 off.
const OFF_PLACE: f32 = 0.06;
/// The same for a set made before it said where its templates lie: then a face card showing
/// only a picture, lined up with the others a few pixels off, lies up to 0.07 off at rest.
const OFF_PLACE_UNPLACED: f32 = 0.1;
/// How much further a pile's card may lie: the piles are placed from the card height found, below
/// the pyramid, and a table located a little off puts them further off than its pyramid's slots
/// (atlasnye's stock at 2560x1440@2.5, 6 pyramid cards left, lay 0.065 card widths below the
/// pyramid cards' median).
const PILE_LEEWAY: f32 = 0.025;
/// The largest drift of the cards from their slots, per pixel across (down), that a layout fitted
/// with steps a little off gives (3.5 % at 3840x2160, swiss-xvii halfway through deal 53).
const MOST_DRIFT: f32 = 0.05;

/// The places whose card's index (`index_at`, against the corner of the place `places[i]`, for
/// the places read as a card) lies more than `limit` card widths off where the others lie:
/// against the line that fits the pyramid's cards best across and down (a layout fitted with its
/// steps a little off puts the cards further from their slots the further out they lie; Theil and
/// Sen's line, which one card off does not move), the piles' (`PYRAMID_SIZE` on) with
/// `PILE_LEEWAY` more. None with fewer than three cards read, or none of them in the pyramid.
fn off_their_places(
    index_at: &[Option<(f32, f32)>],
    places: &[Rect],
    card_w: f32,
    limit: f32,
) -> Vec<usize> {
    let read: Vec<(usize, (f32, f32))> = index_at
        .iter()
        .enumerate()
        .filter_map(|(i, at)| Some((i, (*at)?)))
        .collect();
    if read.len() < 3 {
        return Vec::new();
    }
    let pyramid: Vec<&(usize, (f32, f32))> =
        read.iter().filter(|(i, _)| *i < PYRAMID_SIZE).collect();
    // The line along one axis, from the pyramid's cards: (drift per pixel, offset at position 0,
    // and the span of positions it was fitted over: it is not drawn on past them, where a drift
    // measured over a few rows would carry its rounding far).
    let line = |axis: usize| -> (f32, f32, f32, f32) {
        let pos = |i: usize| {
            let r = places[i];
            if axis == 0 {
                r.x as f32
            } else {
                r.y as f32
            }
        };
        let off = |at: (f32, f32)| if axis == 0 { at.0 } else { at.1 };
        let mut slopes = Vec::new();
        for (a, &&(i, at)) in pyramid.iter().enumerate() {
            for &&(j, bt) in &pyramid[a + 1..] {
                let apart = pos(j) - pos(i);
                if apart.abs() >= card_w / 2.0 {
                    slopes.push((off(bt) - off(at)) / apart);
                }
            }
        }
        let slope = if pyramid.len() >= 4 && !slopes.is_empty() {
            median(&mut slopes).clamp(-MOST_DRIFT, MOST_DRIFT)
        } else {
            0.0
        };
        let mut offsets: Vec<f32> = pyramid
            .iter()
            .map(|&&(i, at)| off(at) - slope * pos(i))
            .collect();
        let (lo, hi) = pyramid
            .iter()
            .fold((f32::MAX, f32::MIN), |(lo, hi), &&(i, _)| {
                (lo.min(pos(i)), hi.max(pos(i)))
            });
        (slope, median(&mut offsets), lo, hi)
    };
    if pyramid.is_empty() {
        return Vec::new();
    }
    let (across, down) = (line(0), line(1));
    read.iter()
        .filter(|&&(i, (x, y))| {
            let r = places[i];
            let on = |(slope, offset, lo, hi): (f32, f32, f32, f32), pos: i32| {
                offset + slope * (pos as f32).clamp(lo, hi)
            };
            let (ex, ey) = (on(across, r.x), on(down, r.y));
            let reach = if i < PYRAMID_SIZE {
                limit
            } else {
                limit + PILE_LEEWAY
            };
            (x - ex).abs().max((y - ey).abs()) > reach * card_w
        })
        .map(|&(i, _)| i)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsure_places_are_named_with_their_close_candidates() {
        let card = |s: &str| s.parse::<Card>().unwrap();
        let mut pyramid = [Seen::Card(card("Kd"), 0.9); PYRAMID_SIZE];
        pyramid[3] = Seen::Unknown(0.5);
        pyramid[20] = Seen::Unknown(0.0);
        let board = Board {
            pyramid,
            stock_present: true,
            stock_top: Seen::Unknown(0.4),
            waste: Seen::Empty,
            unsure: vec![
                (3, vec![card("8c"), card("8s")]),
                (28, vec![card("Qh"), card("Qd")]),
            ],
            misplaced: Vec::new(),
            index_at: vec![None; PLACES],
        };
        assert_eq!(
            board.unknowns_with_candidates(),
            ["pyramid:3 (8c or 8s?)", "pyramid:20", "stock (Qh or Qd?)"]
        );
        assert_eq!(board.unknowns(), ["pyramid:3", "pyramid:20", "stock"]);
        assert_eq!(board.candidates(20), &[] as &[Card]);
    }

    #[test]
    fn a_card_off_its_place_is_told_from_the_others() {
        // Places 100 px wide in a row, 150 px apart, and two piles below; indices 2 px right and
        // 1 px down of their places, give or take a pixel; the fifth 9 px right.
        let mut places: Vec<Rect> = (0..PYRAMID_SIZE)
            .map(|i| Rect::new(150 * i as i32, 0, 100, 140))
            .collect();
        places.extend([Rect::new(0, 500, 100, 140), Rect::new(150, 500, 100, 140)]);
        let mut at = vec![None; PLACES];
        for (i, v) in [
            (2.0, 1.0),
            (3.0, 1.5),
            (1.0, 0.0),
            (2.0, 1.0),
            (11.0, 1.0),
            (2.5, 1.0),
        ]
        .into_iter()
        .enumerate()
        {
            at[i] = Some(v);
        }
        assert_eq!(off_their_places(&at, &places, 100.0, 0.06), [4]);
        assert!(off_their_places(&at, &places, 100.0, 0.1).is_empty());
        // A pile's card as far off is off too; one 7 px off is within its leeway.
        at[PYRAMID_SIZE] = Some((2.0, 10.0));
        at[PYRAMID_SIZE + 1] = Some((9.0, 1.0));
        assert_eq!(
            off_their_places(&at, &places, 100.0, 0.06),
            [4, PYRAMID_SIZE]
        );
        // Cards further from their slots the further right they lie, 2 px per slot (a layout
        // whose steps are a little off): none is off its place but the one off that line.
        let drifting: Vec<Option<(f32, f32)>> = (0..PLACES)
            .map(|i| (i < 8).then_some((2.0 * i as f32, 1.0)))
            .collect();
        assert!(off_their_places(&drifting, &places, 100.0, 0.06).is_empty());
        let mut one_off = drifting.clone();
        one_off[3] = Some((6.0 + 8.0, 1.0));
        assert_eq!(off_their_places(&one_off, &places, 100.0, 0.06), [3]);
        // Fewer than three cards read: nothing to tell them by.
        let few: Vec<Option<(f32, f32)>> = at.iter().take(2).copied().collect();
        assert!(off_their_places(&few, &places, 100.0, 0.06).is_empty());
    }
}
