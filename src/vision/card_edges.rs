//! Where a card's edges are and what shows of them, from the frame and its edge map: the exact
//! corner of the card in a slot or on a pile (its outermost edge lines, not a frame drawn inside
//! them), whether a card's top, left or bottom edge runs across a place (an empty place shows the
//! cards behind it, not an edge of its own), and a selected card's highlight band.

use crate::table::rect::Rect;
use crate::vision::edges::Edges;
use crate::vision::sampling::pixel_at;
use image::RgbaImage;

/// The exact top-left corner of the card in `slot`: the strongest top and left edges within a few
/// percent of the located position, and their mean contrast.
pub fn snap_corner(e: &Edges, slot: Rect, strip: f32, card_w: f32) -> (f32, f32, f32) {
    snap_corner_within(
        e,
        slot,
        strip,
        card_w,
        -(0.05 * card_w).round().max(2.0) as i32,
    )
}

/// Where the top card of a pile (the stock, the waste) has its top-left corner: as `snap_corner`,
/// but not up and to the left, where the stock's backs peek out.
pub fn snap_pile_corner(e: &Edges, pile: Rect, depth: f32, card_w: f32) -> (f32, f32, f32) {
    snap_corner_within(e, pile, depth, card_w, -1)
}

/// As `snap_corner`, searching offsets from `from` (negative: up and left) to 5 % of the width.
pub(crate) fn snap_corner_within(
    e: &Edges,
    slot: Rect,
    strip: f32,
    card_w: f32,
    from: i32,
) -> (f32, f32, f32) {
    let m = (0.05 * card_w).round().max(2.0) as i32;
    let (w, s) = (card_w, strip);
    // The edge strength along a card's top and down its left side, from its corner at (x, y).
    let top = |x: i32, y: i32| e.h_segment(y, x + (0.15 * w) as i32, x + (0.85 * w) as i32);
    let left = |x: i32, y: i32| e.v_segment(x, y + (0.15 * s) as i32, y + (0.85 * s) as i32);
    let score = |x: i32, y: i32| top(x, y) as f32 / (0.7 * w) + left(x, y) as f32 / (0.7 * s);
    let mut best = (f32::MIN, slot.x as f32, slot.y as f32);
    for dy in from..=m {
        for dx in from..=m {
            let (x, y) = (slot.x + dx, slot.y + dy);
            let score = score(x, y);
            if score > best.0 {
                best = (score, x as f32, y as f32);
            }
        }
    }
    // A card's inner frame (swiss-xvii's on every card, rheinland's court cards'), a few pixels
    // inside its edge, can be a stronger line than the edge itself: the edge is then the
    // outermost line (see `outermost_line`).
    let (mut x, mut y) = (best.1 as i32, best.2 as i32);
    y = outermost_line(
        |yy| top(x, yy),
        |yy| line_across(e, x, yy, w) >= OUTER_LINE,
        slot.y + from,
        y,
    );
    // A card's left edge ends at its top: a line that runs on above it (a tree's trunk on the
    // card behind, swiss-xvii's) is not the card's.
    let above = 0.3 * s;
    x = outermost_line(
        |xx| left(xx, y),
        |xx| {
            line_down(e, xx, y, s) >= OUTER_LINE && line_down(e, xx, y - above as i32, above) < 0.5
        },
        slot.x + from,
        x,
    );
    if (x, y) == (best.1 as i32, best.2 as i32) {
        return (best.1, best.2, best.0 / 2.0);
    }
    (x as f32, y as f32, score(x, y) / 2.0)
}

/// Where a card's edge is, given the strongest line found (at `found`, along one axis) and the
/// strength of the line at each offset: the outermost line from `from` on, at least half as
/// strong, that runs along nearly the whole card where a card's edge would (`along`), when there
/// is one more than three pixels out (an inner frame drawn inside the card's edge was found). The
/// edge's own line (a border drawn dark, then light) can take a few pixels; the strongest change
/// within it is taken, as for any other card.
pub(crate) fn outermost_line(
    strength: impl Fn(i32) -> u32,
    along: impl Fn(i32) -> bool,
    from: i32,
    found: i32,
) -> i32 {
    let strongest = strength(found);
    let outer = (from..found - 3).find(|&at| 2 * strength(at) >= strongest && along(at));
    match outer {
        Some(at) => (at..=at + 3)
            .max_by_key(|&p| (strength(p), -p))
            .unwrap_or(at),
        None => found,
    }
}

/// The least share of a card's side along which a line outside the strongest must run to be
/// taken for the card's edge (see `snap_corner_within`).
pub(crate) const OUTER_LINE: f32 = 0.85;

/// How much of a card's top edge there is at (x, y): the largest share of the columns along it
/// where the picture changes from above a row to below it, and below is the card's face, that
/// row one of those within two of y. A card lying there gives nearly all of them, one line across
/// with the same plain face below it; an empty slot over the cards behind gives only where their
/// pips or pictures happen to cross a row, and a line across a court card's picture has no plain
/// face below it. The change is taken over three pixels and in any colour channel, so that the
/// soft edge of a cream card over another (ornamental's, at large sizes: hardly a change in grey,
/// 20 to 35 levels in the blue) counts too. The face is the row's median colour two rows below.
pub(crate) fn top_edge_continuity(frame: &RgbaImage, x: i32, y: i32, w: f32) -> f32 {
    let (x0, x1) = (x + (0.1 * w) as i32, x + (0.9 * w) as i32);
    let best = (y - 2..=y + 1)
        .map(|yy| edge_columns(frame, x0..x1, yy).0)
        .max()
        .unwrap_or(0);
    best as f32 / (x1 - x0).max(1) as f32
}

/// As `top_edge_continuity`, for faces without a border (a set's `borderless`): a card's top edge
/// over such a face is one white running into the same white, and shows only where something
/// else lies above it, the felt beside the cards it covers or their ink. So the columns where the
/// face runs on across the row unchanged (no change down, the pixel above of the face's colour
/// too) say nothing and are left out of the share. None when nearly all say nothing (nine tenths
/// or more): a card there, or none, cannot be told by its edge.
pub(crate) fn top_edge_where_it_shows(frame: &RgbaImage, x: i32, y: i32, w: f32) -> Option<f32> {
    let (x0, x1) = (x + (0.1 * w) as i32, x + (0.9 * w) as i32);
    let n = (x1 - x0).max(1) as usize;
    (y - 2..=y + 1)
        .filter_map(|yy| {
            let (edges, blind) = edge_columns(frame, x0..x1, yy);
            let shown = n - blind;
            (10 * shown >= n).then(|| edges as f32 / shown as f32)
        })
        .reduce(f32::max)
}

/// Along row y, over the columns `xs`: how many show a card's top edge (the picture changes down
/// across the row, and below it is the card's face, the row's median colour two rows below), and
/// how many show nothing either way (no change, and the face's colour above the row too).
fn edge_columns(frame: &RgbaImage, xs: std::ops::Range<i32>, y: i32) -> (usize, usize) {
    let face = median_colour(frame, xs.clone(), y + 2);
    let on_face = |p: [u8; 4]| (0..3).all(|c| p[c].abs_diff(face[c]) <= FACE_TOLERANCE);
    let (mut edges, mut blind) = (0, 0);
    for x in xs {
        let changes = changes_down(frame, x, y) || changes_down(frame, x, y + 1);
        if changes && on_face(pixel_at(frame, x, y + 2)) {
            edges += 1;
        } else if !changes && on_face(pixel_at(frame, x, y - 2)) {
            blind += 1;
        }
    }
    (edges, blind)
}

/// Whether the picture changes down column x about row y (from row y − 2 to row y + 1) by more
/// than 15 levels in any colour channel: a card's top or bottom edge, soft ones too.
pub(crate) fn changes_down(frame: &RgbaImage, x: i32, y: i32) -> bool {
    let (below, above) = (pixel_at(frame, x, y + 1), pixel_at(frame, x, y - 2));
    (0..3).any(|c| below[c].abs_diff(above[c]) > 15)
}

/// How much of a card's left edge there is at (x, y), down `depth` (the part of a pyramid card that
/// the row below leaves showing): as `top_edge_continuity` is for the top edge, the largest share
/// of the rows where the picture changes from the left of a column to its right, and the right is
/// the card's face, that column one of those within 5 % of the width of x (ornamental's soft
/// edges lie several pixels from where its corner is snapped). A card lying there gives nearly
/// all of them; an empty slot over the cards behind (whose middles its left side crosses) only
/// where a pip happens to end.
pub(crate) fn left_edge_continuity(frame: &RgbaImage, x: i32, y: i32, w: f32, depth: f32) -> f32 {
    let (y0, y1) = (y + (0.1 * depth) as i32, y + (0.9 * depth) as i32);
    let m = (0.05 * w).round().max(2.0) as i32;
    let changes = |xx: i32, yy: i32| {
        let (right, left) = (pixel_at(frame, xx + 1, yy), pixel_at(frame, xx - 2, yy));
        (0..3).any(|c| right[c].abs_diff(left[c]) > 15)
    };
    let best = (x - m..=x + m)
        .map(|xx| {
            let face = median_colour_down(frame, xx + 2, y0..y1);
            let on_face = |yy: i32| {
                let p = pixel_at(frame, xx + 2, yy);
                (0..3).all(|c| p[c].abs_diff(face[c]) <= FACE_TOLERANCE)
            };
            (y0..y1)
                .filter(|&yy| (changes(xx, yy) || changes(xx + 1, yy)) && on_face(yy))
                .count()
        })
        .max()
        .unwrap_or(0);
    best as f32 / (y1 - y0).max(1) as f32
}

/// Whether the card at `under` shows its bottom edge across the part of it that a card at `over`
/// would cover (but the ends, where corners are round): the picture changes, in any colour
/// channel, over three pixels around the card's bottom on nearly every column there.
pub(crate) fn bottom_edge_shown(frame: &RgbaImage, under: Rect, over: Rect, w: f32) -> bool {
    let margin = (0.1 * w) as i32;
    let (x0, x1) = (
        under.x.max(over.x) + margin,
        under.right().min(over.right()) - margin,
    );
    if x1 - x0 < margin || !(over.y..over.bottom()).contains(&under.bottom()) {
        return false;
    }
    let y = under.bottom();
    (y - 2..=y + 1)
        .map(|yy| share(x0..x1, |xx| changes_down(frame, xx, yy)))
        .fold(0.0, f32::max)
        >= BOTTOM_SHOWN
}

/// The share of the columns where a card's bottom edge must show for it to be seen uncovered
/// there (see `bottom_edge_shown`).
pub(crate) const BOTTOM_SHOWN: f32 = 0.9;

/// How far, in any colour channel, a pixel just below a card's top edge may be from the row's
/// median and still be the card's plain face (see `top_edge_continuity`).
pub(crate) const FACE_TOLERANCE: u8 = 24;

/// The median of each colour channel along row y, over the columns `xs`.
pub(crate) fn median_colour(frame: &RgbaImage, xs: std::ops::Range<i32>, y: i32) -> [u8; 3] {
    median_of(xs.map(|xx| pixel_at(frame, xx, y)))
}

/// The median of each colour channel down column x, over the rows `ys`.
pub(crate) fn median_colour_down(frame: &RgbaImage, x: i32, ys: std::ops::Range<i32>) -> [u8; 3] {
    median_of(ys.map(|yy| pixel_at(frame, x, yy)))
}

/// The median of each colour channel of some pixels.
pub(crate) fn median_of(pixels: impl Iterator<Item = [u8; 4]>) -> [u8; 3] {
    let mut channels: [Vec<u8>; 3] = Default::default();
    for p in pixels {
        for (c, values) in channels.iter_mut().enumerate() {
            values.push(p[c]);
        }
    }
    channels.map(|mut values| {
        if values.is_empty() {
            return 0;
        }
        let mid = values.len() / 2;
        *values.select_nth_unstable(mid).1
    })
}

/// The share of the columns along a card's top at (x, y), `w` wide, where the picture changes
/// from row y − 1 to row y.
pub(crate) fn line_across(e: &Edges, x: i32, y: i32, w: f32) -> f32 {
    let (x0, x1) = (x + (0.1 * w) as i32, x + (0.9 * w) as i32);
    share(x0..x1, |xx| {
        e.grey_at(xx, y).abs_diff(e.grey_at(xx, y - 1)) > 15
    })
}

/// The share of the rows down a card's left side at (x, y), `depth` long, where the picture
/// changes from column x − 1 to column x.
pub(crate) fn line_down(e: &Edges, x: i32, y: i32, depth: f32) -> f32 {
    let (y0, y1) = (y + (0.1 * depth) as i32, y + (0.9 * depth) as i32);
    share(y0..y1, |yy| {
        e.grey_at(x, yy).abs_diff(e.grey_at(x - 1, yy)) > 15
    })
}

/// The share of the positions in `span` where `holds` is true (0 for an empty span).
pub(crate) fn share(span: std::ops::Range<i32>, holds: impl Fn(i32) -> bool) -> f32 {
    let n = span.len().max(1);
    span.filter(|&t| holds(t)).count() as f32 / n as f32
}

/// The coloured band just inside a card's top and left edges, as a selected card's highlight
/// draws it (the practice table's gold frame, which covers part of the index corner), when the
/// card at (x, y) has one: how far in from the edges it reaches (in card widths) and its colour.
/// A band is a line of strongly coloured pixels along nearly all of each side, within a few
/// pixels of the edge; card faces keep their edges white, cream, grey or black.
pub(crate) fn highlight_band(
    frame: &RgbaImage,
    x: f32,
    y: f32,
    w: f32,
    depth: f32,
) -> Option<((f32, f32), [u8; 3])> {
    let pixel = |px: i32, py: i32| pixel_at(frame, px, py);
    let coloured = |px: i32, py: i32| {
        let p = pixel(px, py);
        let (hi, lo) = (p[0].max(p[1]).max(p[2]), p[0].min(p[1]).min(p[2]));
        hi - lo > HIGHLIGHT_COLOUR
    };
    let (x, y) = (x.round() as i32, y.round() as i32);
    let inside = (0.03 * w).ceil().max(3.0) as i32;
    let (x0, x1) = (x + (0.2 * w) as i32, x + (0.8 * w) as i32);
    let (y0, y1) = (y + (0.2 * depth) as i32, y + (0.8 * depth) as i32);
    let top = (-1..=inside).find(|&d| share(x0..x1, |t| coloured(t, y + d)) >= 0.9)?;
    let left = (-1..=inside).find(|&d| share(y0..y1, |t| coloured(x + d, t)) >= 0.9)?;
    // Its colour, in the middle of the top side; how far in from (x, y) it reaches: pixels of
    // that colour, the least run of them at a few places along each side (a glyph of a like
    // colour can touch the band at one).
    let colour = pixel(x + (0.5 * w) as i32, y + top);
    let alike = |px: i32, py: i32| {
        let p = pixel(px, py);
        (0..3).all(|c| p[c].abs_diff(colour[c]) < 60)
    };
    let run = |from: i32, at: &dyn Fn(i32) -> bool| {
        from + (from..from + (0.1 * w) as i32)
            .take_while(|&d| at(d))
            .count() as i32
    };
    let along = [0.3, 0.5, 0.7];
    let down = along
        .iter()
        .map(|f| run(top, &|d| alike(x + (f * w) as i32, y + d)))
        .min()
        .unwrap_or(top);
    let across = along
        .iter()
        .map(|f| run(left, &|d| alike(x + d, y + (f * depth) as i32)))
        .min()
        .unwrap_or(left);
    let band = (across as f32 / w, down as f32 / w);
    Some((band, [colour[0], colour[1], colour[2]]))
}

/// How far apart a pixel's strongest and weakest channels are when it is strongly coloured
/// (see `highlight_band`).
pub(crate) const HIGHLIGHT_COLOUR: u8 = 100;

/// The least `top_edge_continuity` that counts as a card's top edge in a pyramid slot. Over the
/// accuracy set, cards lying there give 0.65 or more but for a few; empty slots over the cards
/// behind give up to about 0.7.
pub(crate) const TOP_EDGE: f32 = 0.65;

/// Below this share of a top edge, a place is empty whatever its corner looks like.
pub(crate) const BARE_EDGE: f32 = 0.25;

/// Below this share of a left edge (`left_edge_continuity`), a pyramid place without a card's top
/// edge is empty whatever its corner looks like. Over 3 deals of every theme at every size, cards
/// gave 0.54 or more (ornamental's soft edges the least), and the empty slots whose corner looked
/// like a card (bellot's pips) 0.13 to 0.16.
pub(crate) const SIDE_EDGE: f32 = 0.4;

/// How far, in card widths, a card's corner as its edges put it (`snap_corner`) may lie from
/// where the other cards' corners lie on their places, across or down, before it is taken for a
/// line inside the card (and at least two pixels): a line across the card inside its edge can be
/// stronger than the edge against the paper of the card behind (ornamental's scroll under the
/// rank, in the msc look, 6 and 7 pixels below the top edge of a card 139 pixels wide). Cards of
/// one located table lie within a pixel or two of each other.
pub(crate) const APART_FROM_THE_OTHERS: f32 = 0.02;

/// Whether a corner `off` its place (in pixels, across and down) lies apart from where the
/// other cards' corners lie (`others`), for cards `w` pixels wide (see `APART_FROM_THE_OTHERS`).
pub(crate) fn apart_from_the_others(off: (f32, f32), others: (f32, f32), w: f32) -> bool {
    let limit = (APART_FROM_THE_OTHERS * w).max(2.0);
    (off.0 - others.0).abs() > limit || (off.1 - others.1).abs() > limit
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A soft straight edge (a cream card over another, shaded over three rows) is a card's top
    /// edge; pips scattered over a card's middle are not, even where they are sharp.
    #[test]
    fn top_edge_is_one_line_across() {
        let card = image::Rgba([236, 232, 214, 255]);
        let mut soft = RgbaImage::from_pixel(120, 80, card);
        for x in 0..120 {
            for (y, v) in [(38, 230), (39, 222), (40, 214), (41, 206)] {
                soft.put_pixel(x, y, image::Rgba([v, v, v - 10, 255]));
            }
        }
        assert!(top_edge_continuity(&soft, 10, 40, 100.0) > 0.95);
        let mut pips = RgbaImage::from_pixel(120, 80, card);
        for (px, py) in [(20, 30), (55, 38), (85, 42)] {
            for y in py..py + 8 {
                for x in px..px + 8 {
                    pips.put_pixel(x, y, image::Rgba([20, 20, 20, 255]));
                }
            }
        }
        let scattered = top_edge_continuity(&pips, 10, 40, 100.0);
        assert!(scattered < TOP_EDGE, "{scattered}");
        // A line across a court card's picture, with patches of other colours below it, is no
        // card's edge, though the picture changes all along it (anglo's Kd hanging down into an
        // empty place, whose line crossing red, blue and gold read as 0.68 of an edge).
        let patches = [[200, 30, 30], [40, 60, 190], [220, 180, 40]];
        let patch = |x: u32, y: u32| {
            let [r, g, b] = patches[(x as usize / 9 + y as usize / 7) % patches.len()];
            image::Rgba([r, g, b, 255])
        };
        let picture = RgbaImage::from_fn(120, 80, |x, y| if y < 40 { card } else { patch(x, y) });
        let across_a_picture = top_edge_continuity(&picture, 10, 40, 100.0);
        assert!(across_a_picture < TOP_EDGE, "{across_a_picture}");
        // A card lying over that picture, its plain face below the line, is an edge.
        let face = RgbaImage::from_fn(120, 80, |x, y| if y < 40 { patch(x, y) } else { card });
        assert!(top_edge_continuity(&face, 10, 40, 100.0) > 0.95);
    }

    /// A borderless card over the white of the cards behind shows its top edge only where felt
    /// lies above it; the white running on into its face says nothing either way.
    #[test]
    fn a_borderless_top_edge_is_looked_for_where_it_can_show() {
        let (white, felt) = (
            image::Rgba([250, 250, 250, 255]),
            image::Rgba([30, 110, 60, 255]),
        );
        // Above row 40: white but for felt over columns 50 to 70 (between the cards behind).
        let above = |x: u32| if (50..70).contains(&x) { felt } else { white };
        // A card lying at row 40: white below all along.
        let lying = RgbaImage::from_fn(120, 80, |x, y| if y < 40 { above(x) } else { white });
        let shown = top_edge_where_it_shows(&lying, 10, 40, 100.0);
        assert!(shown.is_some_and(|e| e > 0.95), "{shown:?}");
        assert!(top_edge_continuity(&lying, 10, 40, 100.0) < TOP_EDGE);
        // No card there: the felt runs on down between the cards behind.
        let empty = RgbaImage::from_fn(120, 80, |x, _| above(x));
        let shown = top_edge_where_it_shows(&empty, 10, 40, 100.0);
        assert!(shown.is_some_and(|e| e < 0.1), "{shown:?}");
        // White above and below all along: nothing shows, a card or none.
        let blank = RgbaImage::from_pixel(120, 80, white);
        assert_eq!(top_edge_where_it_shows(&blank, 10, 40, 100.0), None);
    }

    #[test]
    fn left_edge_is_one_line_down() {
        let card = image::Rgba([250, 250, 250, 255]);
        // A card whose left edge is at x = 40, over another card's face: its outline runs down
        // the whole side, with its plain face right of it.
        let mut lying = RgbaImage::from_pixel(120, 80, card);
        for y in 20..80 {
            lying.put_pixel(40, y, image::Rgba([30, 30, 30, 255]));
        }
        let whole = left_edge_continuity(&lying, 40, 20, 100.0, 50.0);
        assert!(whole > 0.95, "{whole}");
        // Found from a corner snapped a few pixels off, as ornamental's soft edges are.
        let near = left_edge_continuity(&lying, 44, 20, 100.0, 50.0);
        assert!(near > 0.95, "{near}");
        // An empty slot over the middle of a card behind: a pip's side ends by it, no more.
        let mut pips = RgbaImage::from_pixel(120, 80, card);
        for y in 30..40 {
            for x in 30..40 {
                pips.put_pixel(x, y, image::Rgba([20, 20, 20, 255]));
            }
        }
        let pip = left_edge_continuity(&pips, 40, 20, 100.0, 50.0);
        assert!(pip < SIDE_EDGE, "{pip}");
    }

    /// A white card on the felt with a black inner frame 7 pixels inside its edges (a stronger
    /// line than the edge itself, as swiss-xvii's cards have): the corner is the card's, not the
    /// frame's, also with a row of pips (an upper card's) just above the card.
    #[test]
    fn corner_is_the_card_edge_not_its_inner_frame() {
        let felt = image::Rgba([40, 110, 60, 255]);
        let black = image::Rgba([0, 0, 0, 255]);
        let mut framed = RgbaImage::from_fn(200, 200, |x, y| {
            let inside = (30..130).contains(&x) && (30..180).contains(&y);
            let frame = (37..123).contains(&x)
                && (37..173).contains(&y)
                && (!(39..121).contains(&x) || !(39..171).contains(&y));
            match (inside, frame) {
                (false, _) => felt,
                (true, true) => black,
                (true, false) => image::Rgba([255, 255, 255, 255]),
            }
        });
        let slot = Rect::new(33, 33, 100, 150);
        let (x, y, _) = snap_corner(&Edges::new(&framed), slot, 50.0, 100.0);
        assert_eq!((x, y), (30.0, 30.0));
        for px in [45, 70, 95] {
            for y in 24..28 {
                for x in px..px + 8 {
                    framed.put_pixel(x, y, black);
                }
            }
        }
        let (x, y, _) = snap_corner(&Edges::new(&framed), slot, 50.0, 100.0);
        assert_eq!((x, y), (30.0, 30.0));
        // A light line down the felt beside the card, running on above it (a tree's trunk on a
        // card behind) is not its edge either.
        for y in 0..200 {
            for x in 22..24 {
                framed.put_pixel(x, y, image::Rgba([223, 223, 223, 255]));
            }
        }
        let slot = Rect::new(29, 33, 100, 150);
        let (x, y, _) = snap_corner(&Edges::new(&framed), slot, 50.0, 100.0);
        assert_eq!((x, y), (30.0, 30.0));
    }

    /// A gold frame just inside a card's top and left edges is a highlight (5 pixels wide); a
    /// white card with a red index and a grey border, or a red line along its top only, is not.
    #[test]
    fn a_coloured_frame_inside_the_edges_is_a_highlight() {
        let card = |band: Option<(image::Rgba<u8>, bool)>| {
            RgbaImage::from_fn(200, 200, |x, y| {
                let inside = (30..130).contains(&x) && (30..180).contains(&y);
                let rim = x < 35 || y < 35;
                match (inside, band) {
                    (false, _) => image::Rgba([40, 110, 60, 255]),
                    (true, Some((colour, both))) if rim && (both || y < 35) => colour,
                    (true, _) if x == 30 || y == 30 => image::Rgba([120, 120, 120, 255]),
                    (true, _) if (40..48).contains(&x) && (40..55).contains(&y) => {
                        image::Rgba([210, 20, 20, 255])
                    }
                    (true, _) => image::Rgba([255, 255, 255, 255]),
                }
            })
        };
        let gold = image::Rgba([255, 200, 30, 255]);
        let band = highlight_band(&card(Some((gold, true))), 30.0, 30.0, 100.0, 50.0);
        assert_eq!(band, Some(((0.05, 0.05), [255, 200, 30])));
        assert_eq!(highlight_band(&card(None), 30.0, 30.0, 100.0, 50.0), None);
        let red = image::Rgba([210, 20, 20, 255]);
        let top_only = highlight_band(&card(Some((red, false))), 30.0, 30.0, 100.0, 50.0);
        assert_eq!(top_only, None);
    }
}
