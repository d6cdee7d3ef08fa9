//! A dialog over the table (MSC's "No more moves", a bonus-game offer, a notice over the cards):
//! found in a frame, over the cards or within a card's height of them, as a panel of one flat
//! colour, wider than any card and with a straight side, whose colour is not the table's own (the
//! flat colours a frame read right showed where the cards are: the felt, dimmed or not, keeps its
//! hue) and which that frame did not show (a bar across the window); its buttons, flat boxes of another colour
//! inside it; and which of them is an OK, by the picture of the OK the game showed in its Undo
//! board dialog (learnt when the agent pressed it). Nothing here is tuned to one look: what counts
//! as the table's colour and what an OK looks like both come from the game's own pictures. A panel
//! in the cards' own face colour (white over white cards) is told from the cards by what it hides:
//! the ink of cards the game's state says stay as they were in the last frame read right.

use crate::table::rect::Rect;
use crate::vision::dots::{dot, normalised};
use image::RgbaImage;
use std::sync::Arc;

/// Largest difference of a channel from a run's first pixel for the run to count as one flat
/// colour (the felt's weave and gradient stay within it over a card's width).
const FLAT: i32 = 12;
/// A run of one colour at least this many card widths long is not on a card: cards in a row
/// stand apart, and a card is one card width wide.
const WIDE: f32 = 1.3;
/// How far apart (sum over the three channels of r, g and b shares) a colour's hue must be from
/// every colour of the table's background to be a dialog's.
const HUE_APART: f32 = 0.05;
/// The share of a box in a colour the cards' faces showed that must lie where the learning frame
/// showed felt for the box to be laid over the table.
const OVER_FELT: f32 = 0.25;
/// Runs darker than this (sum of channels) have no hue to tell them by: never a panel.
const DARK: i32 = 45;
/// A button's colour differs from its panel's by more than this in some channel.
const BUTTON_APART: i32 = 24;
/// Normalised correlation a button must reach with the learnt OK to be taken for an OK.
const OK_MATCH: f32 = 0.9;
/// The share of the ink a box covers on cards that stay (what the last frame read right showed
/// apart from the faces' colour there) that must now be the box's colour for the box to hide it.
const INK_HIDDEN: f32 = 0.6;
/// The share of a box that must lie on the cards the last frame read right showed for it to be
/// taken for their faces (see `faces_of_cards_under`).
const ON_CARDS: f32 = 0.9;
/// The least ink, in card areas, a box must hide: more than a stray mark, about a rank glyph's.
const INK_AREA: f32 = 1.0 / 200.0;

/// A dialog seen over the table.
#[derive(Clone, Debug, PartialEq)]
pub struct Dialog {
    /// The panel's extent (as far as its flat rows show it).
    pub panel: Rect,
    /// Its buttons, left to right, top to bottom.
    pub buttons: Vec<Rect>,
    /// The centre of the button that looks like the game's OK, if one does.
    pub ok: Option<(i32, i32)>,
}

impl Dialog {
    /// What was seen, for the user: where, how big, how many buttons and whether one is an OK.
    pub fn describe(&self) -> String {
        let p = self.panel;
        format!(
            "a dialog over the table at {},{} ({}x{} px) with {} button{}",
            p.x,
            p.y,
            p.w,
            p.h,
            self.buttons.len(),
            if self.buttons.len() == 1 { "" } else { "s" }
        )
    }
}

/// The OK button as the game draws it: its pixels, normalised (`dots::normalised`).
#[derive(Clone, Debug, PartialEq)]
struct OkPicture {
    w: i32,
    h: i32,
    pixels: Vec<f32>,
}

/// What the agent knows for finding dialogs in one game's window.
#[derive(Clone, Debug)]
pub struct DialogWatch {
    /// The frame size learnt at: another size means another layout.
    pub size: (u32, u32),
    /// Where dialogs are looked for: the cards, and a card's height above and below them.
    area: Rect,
    card_w: f32,
    card_h: f32,
    /// The hues of the wide flat runs a frame read right showed where the cards are.
    background: Vec<[f32; 3]>,
    /// Of those, the runs in the felt's hue (the hue beside the top cards, at the cards' left or
    /// right edge): where that frame showed the table itself.
    felt: Vec<Run>,
    /// What that frame showed near the cards that looks like a panel (a bar across the window, a
    /// wide button on it), with its hue: the same box in that hue, dimmed or not, is no dialog.
    fixtures: Vec<(Rect, [f32; 3])>,
    ok: Option<OkPicture>,
    /// The last frame read right (`read_right`), to see what a box hides.
    read: Option<Arc<RgbaImage>>,
    /// The cards (whole rects) the game's state says stay on the table through the step being
    /// played, and those it changes (taken off, turned over): `expect_cards`.
    staying: Vec<Rect>,
    changing: Vec<Rect>,
}

/// A run of one flat colour along a row: [x0, x1) and its mean colour.
#[derive(Clone, Copy, Debug)]
struct Run {
    y: i32,
    x0: i32,
    x1: i32,
    rgb: [i32; 3],
}

fn rgb(frame: &RgbaImage, x: i32, y: i32) -> [i32; 3] {
    let p = frame.get_pixel(x as u32, y as u32).0;
    [p[0] as i32, p[1] as i32, p[2] as i32]
}

fn apart(a: [i32; 3], b: [i32; 3]) -> i32 {
    (0..3).map(|c| (a[c] - b[c]).abs()).max().unwrap_or(0)
}

fn hue(c: [i32; 3]) -> [f32; 3] {
    let sum = (c[0] + c[1] + c[2]).max(1) as f32;
    [c[0] as f32 / sum, c[1] as f32 / sum, c[2] as f32 / sum]
}

fn hue_distance(a: [f32; 3], b: [f32; 3]) -> f32 {
    (0..3).map(|c| (a[c] - b[c]).abs()).sum()
}

/// The runs of one flat colour at least `min_len` long on row `y` between `x0` and `x1`.
fn flat_runs(frame: &RgbaImage, y: i32, x0: i32, x1: i32, min_len: i32) -> Vec<Run> {
    let mut runs = Vec::new();
    let mut start = x0;
    let mut first = rgb(frame, x0, y);
    let mut sum = [0i64; 3];
    let mut x = x0;
    while x <= x1 {
        let c = if x < x1 { Some(rgb(frame, x, y)) } else { None };
        match c {
            Some(c) if apart(c, first) <= FLAT => {
                for k in 0..3 {
                    sum[k] += c[k] as i64;
                }
            }
            _ => {
                let len = x - start;
                if len >= min_len {
                    let n = len as i64;
                    runs.push(Run {
                        y,
                        x0: start,
                        x1: x,
                        rgb: [
                            (sum[0] / n) as i32,
                            (sum[1] / n) as i32,
                            (sum[2] / n) as i32,
                        ],
                    });
                }
                if let Some(c) = c {
                    start = x;
                    first = c;
                    sum = [c[0] as i64, c[1] as i64, c[2] as i64];
                }
            }
        }
        x += 1;
    }
    runs
}

/// Groups runs row after row into boxes: a run joins a box whose last row is near, whose colour
/// is close and whose extent it overlaps. Gives each box's runs.
fn group(runs: Vec<Run>, max_gap: i32) -> Vec<Vec<Run>> {
    let mut boxes: Vec<Vec<Run>> = Vec::new();
    for r in runs {
        let joined = boxes.iter_mut().find(|b| {
            let last = b.last().expect("a run");
            let (x0, x1) = extent(b);
            r.y - last.y <= max_gap
                && r.y > last.y - 1
                && apart(r.rgb, last.rgb) <= FLAT
                && r.x0 < x1
                && r.x1 > x0
        });
        match joined {
            Some(b) => b.push(r),
            None => boxes.push(vec![r]),
        }
    }
    boxes
}

fn extent(runs: &[Run]) -> (i32, i32) {
    (
        runs.iter().map(|r| r.x0).min().unwrap_or(0),
        runs.iter().map(|r| r.x1).max().unwrap_or(0),
    )
}

fn bounds(runs: &[Run]) -> Rect {
    let (x0, x1) = extent(runs);
    let y0 = runs.iter().map(|r| r.y).min().unwrap_or(0);
    let y1 = runs.iter().map(|r| r.y).max().unwrap_or(0);
    Rect::new(x0, y0, x1 - x0, y1 - y0 + 1)
}

/// Whether half the rows of a box start at its left side, or half end at its right one: a panel
/// has straight sides (its buttons and text keep some rows from reaching one or both).
fn straight_sided(runs: &[Run]) -> bool {
    let (x0, x1) = extent(runs);
    let mut rows: Vec<i32> = runs.iter().map(|r| r.y).collect();
    rows.dedup();
    let touching = |side: &dyn Fn(&Run) -> bool| {
        rows.iter()
            .filter(|&&y| runs.iter().any(|r| r.y == y && side(r)))
            .count()
            * 2
            >= rows.len()
    };
    rows.len() >= 3 && (touching(&|r| r.x0 <= x0 + 2) || touching(&|r| r.x1 >= x1 - 2))
}

/// `r` grown up and down over the rows where its colour still shows just inside its left or right
/// side: the rows between those sampled, and those its buttons and text kept from being flat.
fn grow(frame: &RgbaImage, r: Rect, colour: [i32; 3]) -> Rect {
    let h = frame.height() as i32;
    let inside = |y: i32| {
        [r.x + 2, r.right() - 3]
            .iter()
            .any(|&x| apart(rgb(frame, x, y), colour) <= FLAT)
    };
    let (mut y0, mut y1) = (r.y, r.bottom());
    while y0 > 0 && inside(y0 - 1) {
        y0 -= 1;
    }
    while y1 < h && inside(y1) {
        y1 += 1;
    }
    Rect::new(r.x, y0, r.w, y1 - y0)
}

impl DialogWatch {
    /// Learns the table's background from `frame`, a picture read right, where the cards take
    /// `area` and are `card_w` by `card_h`: the flat colours wider than a card there (the felt).
    pub fn new(frame: &RgbaImage, area: Rect, card_w: f32, card_h: f32) -> DialogWatch {
        let size = frame.dimensions();
        let cards = clip(area, size);
        // A dialog over the cards may reach above or below them.
        let reach = card_h.round() as i32;
        let area = clip(
            Rect::new(area.x, area.y - reach, area.w, area.h + 2 * reach),
            size,
        );
        let mut watch = DialogWatch {
            size,
            area: cards,
            card_w,
            card_h,
            background: Vec::new(),
            felt: Vec::new(),
            fixtures: Vec::new(),
            ok: None,
            read: None,
            staying: Vec::new(),
            changing: Vec::new(),
        };
        let runs = watch.wide_runs(frame);
        // The felt shows beside the top cards: runs there reaching the cards' left or right edge.
        let top = cards.y + (card_h / 2.0) as i32;
        let felt_hues: Vec<[f32; 3]> = runs
            .iter()
            .filter(|r| r.y < top && (r.x0 <= cards.x + 1 || r.x1 >= cards.right() - 1))
            .map(|r| hue(r.rgb))
            .collect();
        // Where the felt shows: runs in its hue over the whole area looked at, above and below
        // the cards too (a banner may lie there, over nothing but felt).
        watch.area = area;
        let around = watch.wide_runs(frame);
        watch.felt = around
            .iter()
            .filter(|r| {
                felt_hues
                    .iter()
                    .any(|&f| hue_distance(f, hue(r.rgb)) < HUE_APART / 2.0)
            })
            .copied()
            .collect();
        for r in runs {
            let h = hue(r.rgb);
            if !watch
                .background
                .iter()
                .any(|&b| hue_distance(b, h) < HUE_APART / 2.0)
            {
                watch.background.push(h);
            }
        }
        watch.fixtures = watch
            .panels(around)
            .into_iter()
            .map(|(r, c)| (r, hue(c)))
            .collect();
        watch
    }

    /// Keeps `frame`, just read right, as the picture of the cards on the table (`expect_cards`).
    pub fn read_right(&mut self, frame: Arc<RgbaImage>) {
        if frame.dimensions() == self.size {
            self.read = Some(frame);
        }
    }

    /// Tells the watch, for the step being played since the last frame read right, which cards
    /// stay where they are and look as they did (their whole rects) and which it changes (takes
    /// off, turns over): where only staying cards lie, the picture is the one read right unless
    /// something lies over it, so a box in the faces' own colour that hides their ink is a dialog.
    /// Games whose cards move about (Klondike's piles) do not tell it.
    pub fn expect_cards(&mut self, staying: Vec<Rect>, changing: Vec<Rect>) {
        self.staying = staying;
        self.changing = changing;
    }

    /// Whether the OK's picture has been learnt.
    pub fn knows_ok(&self) -> bool {
        self.ok.is_some()
    }

    fn row_step(&self) -> i32 {
        ((self.card_h / 24.0) as i32).max(2)
    }

    fn wide_runs(&self, frame: &RgbaImage) -> Vec<Run> {
        let a = self.area;
        let min_len = (self.card_w * WIDE).ceil() as i32;
        (a.y..a.bottom())
            .step_by(self.row_step() as usize)
            .flat_map(|y| flat_runs(frame, y, a.x, a.right(), min_len))
            .collect()
    }

    /// Boxes of wide flat runs with a straight side: a dialog's panel, or a bar across the window.
    fn panels(&self, runs: Vec<Run>) -> Vec<(Rect, [i32; 3])> {
        group(runs, 3 * self.row_step())
            .into_iter()
            .filter(|b| straight_sided(b))
            .map(|b| (bounds(&b), b[0].rgb))
            .collect()
    }

    /// The dialog over the cards in `frame`, if one shows.
    pub fn find(&self, frame: &RgbaImage) -> Option<Dialog> {
        if frame.dimensions() != self.size {
            return None;
        }
        let runs: Vec<Run> = self
            .wide_runs(frame)
            .into_iter()
            .filter(|r| {
                r.rgb.iter().sum::<i32>() > DARK && (self.unlike_table(r) || !self.felt_hued(r.rgb))
            })
            .collect();
        let (panel, colour) = self
            .panels(runs)
            .into_iter()
            .filter(|(p, c)| {
                !self
                    .fixtures
                    .iter()
                    .any(|(f, h)| mostly_over(*f, *p) && hue_distance(*h, hue(*c)) < HUE_APART)
            })
            // In a colour the table showed (the cards' faces), a box is laid over the table only
            // where it covers felt: cards only ever leave it.
            .filter(|(p, c)| {
                self.unlike_table(&Run {
                    y: p.y,
                    x0: p.x,
                    x1: p.right(),
                    rgb: *c,
                }) || self.felt_share(*p) >= OVER_FELT
                    || self.hides_ink(frame, *p, *c)
            })
            // Faces whose borders do not show run on into each other wider than a card: a box in
            // the faces' colour lying on cards that stay, with no button, is those faces. (A
            // window over the cards with no button either leaves the board unreadable, which
            // stops play on its own.)
            .filter(|(p, c)| {
                !(self.faces_of_cards_under(*p, *c)
                    && self.buttons(frame, grow(frame, *p, *c), *c).is_empty())
            })
            .max_by_key(|(p, _)| p.w as i64 * p.h as i64)?;
        let panel = grow(frame, panel, colour);
        if (panel.h as f32) < 0.2 * self.card_h {
            return None;
        }
        let buttons = self.buttons(frame, panel, colour);
        let ok = self.ok.as_ref().and_then(|ok| {
            buttons
                .iter()
                .filter_map(|b| Some((ok_match(frame, ok, *b)?, *b)))
                .filter(|(score, _)| *score >= OK_MATCH)
                .max_by(|a, b| a.0.total_cmp(&b.0))
                .map(|(_, b)| b.centre())
        });
        Some(Dialog { panel, buttons, ok })
    }

    /// Whether a run's hue is apart from every colour of the table's background.
    fn unlike_table(&self, r: &Run) -> bool {
        self.background
            .iter()
            .all(|&b| hue_distance(b, hue(r.rgb)) >= HUE_APART)
    }

    /// Whether a colour is the felt's.
    fn felt_hued(&self, rgb: [i32; 3]) -> bool {
        self.felt
            .iter()
            .any(|f| hue_distance(hue(f.rgb), hue(rgb)) < HUE_APART)
    }

    /// The share of `r` where the learning frame showed felt (along the rows it sampled).
    fn felt_share(&self, r: Rect) -> f32 {
        let step = self.row_step();
        let (mut covered, mut all) = (0i64, 0i64);
        let mut rows: Vec<i32> = self.felt.iter().map(|f| f.y).collect();
        rows.dedup();
        for y in rows
            .into_iter()
            .filter(|&y| y >= r.y - step / 2 && y < r.bottom() + step / 2)
        {
            all += r.w as i64;
            covered += self
                .felt
                .iter()
                .filter(|f| f.y == y)
                .map(|f| (f.x1.min(r.right()) - f.x0.max(r.x)).max(0) as i64)
                .sum::<i64>();
        }
        if all == 0 {
            0.0
        } else {
            covered as f32 / all as f32
        }
    }

    /// Whether `panel`, in `colour`, hides ink on the cards that stay (`expect_cards`). Of the
    /// pixels inside it that the last frame read right showed on those cards (out of the cards
    /// that change), the ink is what stood apart from their most common colour (the faces'):
    /// ranks, pips, pictures. Cards that stay look as they did, so their ink shows unless
    /// something lies over it: the panel hides it when most of it is now the panel's colour. A
    /// dimmed table darkens the ink with the faces, so it hides nothing.
    fn hides_ink(&self, frame: &RgbaImage, panel: Rect, colour: [i32; 3]) -> bool {
        let Some(read) = self.read.as_deref() else {
            return false;
        };
        let box_ = clip(panel, self.size);
        let mut on_cards = Vec::new();
        for y in box_.y..box_.bottom() {
            let staying: Vec<&Rect> = self
                .staying
                .iter()
                .filter(|c| y >= c.y && y < c.bottom())
                .collect();
            for x in box_.x..box_.right() {
                if staying.iter().any(|c| x >= c.x && x < c.right())
                    && !self.changing.iter().any(|c| c.contains(x, y))
                {
                    on_cards.push((x, y));
                }
            }
        }
        let Some(face) = most_common(on_cards.iter().map(|&(x, y)| rgb(read, x, y))) else {
            return false;
        };
        let (mut ink, mut hidden) = (0usize, 0usize);
        for &(x, y) in &on_cards {
            if apart(rgb(read, x, y), face) > 3 * FLAT {
                ink += 1;
                if apart(rgb(frame, x, y), colour) <= FLAT {
                    hidden += 1;
                }
            }
        }
        let least = (INK_AREA * self.card_w * self.card_h).max(4.0);
        ink as f32 >= least && hidden as f32 >= INK_HIDDEN * ink as f32
    }

    /// Whether `panel`, in `colour`, lies on the cards the last frame read right showed (those
    /// that stay through the step being played and those it changes: `expect_cards`), nearly all
    /// of it, in the colour that frame showed most there: their faces'.
    fn faces_of_cards_under(&self, panel: Rect, colour: [i32; 3]) -> bool {
        let Some(read) = self.read.as_deref() else {
            return false;
        };
        let area = clip(panel, self.size);
        let on_cards: Vec<(i32, i32)> = (area.y..area.bottom())
            .flat_map(|y| (area.x..area.right()).map(move |x| (x, y)))
            .filter(|&(x, y)| {
                self.staying
                    .iter()
                    .chain(&self.changing)
                    .any(|c| c.contains(x, y))
            })
            .collect();
        let all = (area.w.max(0) * area.h.max(0)) as f32;
        all > 0.0
            && on_cards.len() as f32 >= ON_CARDS * all
            && most_common(on_cards.iter().map(|&(x, y)| rgb(read, x, y)))
                .is_some_and(|face| apart(face, colour) <= FLAT)
    }

    /// Flat boxes inside `panel` of a colour apart from the panel's: its buttons.
    fn buttons(&self, frame: &RgbaImage, panel: Rect, panel_colour: [i32; 3]) -> Vec<Rect> {
        let min_len = ((self.card_w * 0.3) as i32).max(6);
        let runs: Vec<Run> = (panel.y..panel.bottom())
            .flat_map(|y| flat_runs(frame, y, panel.x, panel.right(), min_len))
            .filter(|r| {
                apart(r.rgb, panel_colour) > BUTTON_APART && r.x0 > panel.x && r.x1 < panel.right()
            })
            .collect();
        // Rows through a button's label are not flat: its rows above and below the label are
        // joined across them.
        let mut boxes: Vec<Rect> = group(runs, ((self.card_h * 0.15) as i32).max(4))
            .into_iter()
            .map(|b| bounds(&b))
            .filter(|b| b.h >= 6 && b.h < panel.h)
            .collect();
        // A button's outline and its fill's shades make boxes over one another: one button.
        let mut merged: Vec<Rect> = Vec::new();
        boxes.sort_by_key(|b| -(b.w * b.h));
        for b in boxes {
            match merged.iter_mut().find(|m| mostly_over(**m, b)) {
                Some(m) => *m = union(*m, b),
                None => merged.push(b),
            }
        }
        merged.sort_by_key(|b| (b.y / b.h.max(1), b.x));
        merged
    }

    /// Learns the OK the game draws: the button around `point` in `frame`, where its dialog shows.
    /// False when no button is found there.
    pub fn learn_ok(&mut self, frame: &RgbaImage, point: (i32, i32)) -> bool {
        let Some(dialog) = self.find(frame) else {
            return false;
        };
        let Some(b) = dialog.buttons.iter().find(|b| b.contains(point.0, point.1)) else {
            return false;
        };
        let Some(pixels) = normalised(&patch(frame, *b)) else {
            return false;
        };
        self.ok = Some(OkPicture {
            w: b.w,
            h: b.h,
            pixels,
        });
        true
    }
}

/// The mean of the colours in the fullest bin of 16 levels a channel, if any.
fn most_common(colours: impl Iterator<Item = [i32; 3]>) -> Option<[i32; 3]> {
    let mut bins: std::collections::HashMap<[i32; 3], (i64, [i64; 3])> = Default::default();
    for c in colours {
        let bin = bins.entry(c.map(|v| v >> 4)).or_default();
        bin.0 += 1;
        for (sum, v) in bin.1.iter_mut().zip(c) {
            *sum += v as i64;
        }
    }
    let (n, sum) = bins.into_values().max_by_key(|(n, _)| *n)?;
    Some(sum.map(|v| (v / n) as i32))
}

/// Whether most of the smaller of `a` and `b` lies inside the other.
fn mostly_over(a: Rect, b: Rect) -> bool {
    let w = (a.right().min(b.right()) - a.x.max(b.x)).max(0);
    let h = (a.bottom().min(b.bottom()) - a.y.max(b.y)).max(0);
    2 * w * h >= (a.w * a.h).min(b.w * b.h)
}

fn union(a: Rect, b: Rect) -> Rect {
    let (x0, y0) = (a.x.min(b.x), a.y.min(b.y));
    Rect::new(
        x0,
        y0,
        a.right().max(b.right()) - x0,
        a.bottom().max(b.bottom()) - y0,
    )
}

fn clip(r: Rect, (w, h): (u32, u32)) -> Rect {
    let x0 = r.x.clamp(0, w as i32 - 1);
    let y0 = r.y.clamp(0, h as i32 - 1);
    let x1 = r.right().clamp(x0 + 1, w as i32);
    let y1 = r.bottom().clamp(y0 + 1, h as i32);
    Rect::new(x0, y0, x1 - x0, y1 - y0)
}

/// The pixels of `r`, row by row, r, g and b each.
fn patch(frame: &RgbaImage, r: Rect) -> Vec<f32> {
    let mut out = Vec::with_capacity((3 * r.w * r.h) as usize);
    for y in r.y..r.bottom() {
        for x in r.x..r.right() {
            out.extend(rgb(frame, x, y).map(|v| v as f32));
        }
    }
    out
}

/// How well the button `b` matches the learnt OK: the best normalised correlation with the OK's
/// picture laid over it, shifted a pixel or two; None when the sizes differ.
fn ok_match(frame: &RgbaImage, ok: &OkPicture, b: Rect) -> Option<f32> {
    let slack = 3.max(ok.w / 16);
    if (b.w - ok.w).abs() > slack || (b.h - ok.h).abs() > slack {
        return None;
    }
    let (fw, fh) = (frame.width() as i32, frame.height() as i32);
    let mut best = f32::MIN;
    for dy in -2..=2 {
        for dx in -2..=2 {
            let x = b.x + (b.w - ok.w) / 2 + dx;
            let y = b.y + (b.h - ok.h) / 2 + dy;
            if x < 0 || y < 0 || x + ok.w > fw || y + ok.h > fh {
                continue;
            }
            if let Some(p) = normalised(&patch(frame, Rect::new(x, y, ok.w, ok.h))) {
                best = best.max(dot(&p, &ok.pixels));
            }
        }
    }
    (best > f32::MIN).then_some(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgba;

    const FELT: Rgba<u8> = Rgba([30, 100, 50, 255]);
    const FACE: Rgba<u8> = Rgba([232, 232, 232, 255]);
    const PANEL: Rgba<u8> = Rgba([250, 250, 246, 255]);
    const INK: Rgba<u8> = Rgba([20, 20, 20, 255]);
    const CW: i32 = 80;
    const CH: i32 = 110;

    fn fill(f: &mut RgbaImage, r: Rect, c: Rgba<u8>) {
        for y in r.y..r.bottom() {
            for x in r.x..r.right() {
                f.put_pixel(x as u32, y as u32, c);
            }
        }
    }

    /// Four rows of borderless cards in one flat grey-white, each row a card more and half a step
    /// further left, overlapping the row above and their neighbours (so their faces run together
    /// wider than a card), each with a rank in its corner and a pip in its middle.
    fn cards() -> Vec<Rect> {
        (0..4)
            .flat_map(|r| {
                (0..r + 2).map(move |i| Rect::new(300 - 40 * r + 70 * i, 200 + 50 * r, CW, CH))
            })
            .collect()
    }

    fn table(cards: &[Rect]) -> RgbaImage {
        let mut f = RgbaImage::from_pixel(800, 600, FELT);
        for c in cards {
            fill(&mut f, *c, FACE);
            fill(&mut f, Rect::new(c.x + 5, c.y + 5, 12, 18), INK);
            fill(&mut f, Rect::new(c.x + 30, c.y + 45, 20, 20), INK);
        }
        f
    }

    /// A panel in nearly the faces' colour, with a button, over the lower rows' middle cards.
    fn with_panel(mut f: RgbaImage) -> RgbaImage {
        fill(&mut f, Rect::new(250, 256, 230, 90), PANEL);
        fill(
            &mut f,
            Rect::new(330, 316, 70, 22),
            Rgba([180, 190, 200, 255]),
        );
        f
    }

    fn watch(first: &RgbaImage) -> DialogWatch {
        let area = Rect::around(cards());
        DialogWatch::new(first, area, CW as f32, CH as f32)
    }

    #[test]
    fn a_panel_in_the_faces_colour_is_seen_by_the_ink_it_hides_on_cards_that_stay() {
        let first = table(&cards());
        let mut w = watch(&first);
        let shown = with_panel(first.clone());
        // Without the cards, the panel is more of the faces' colour.
        assert_eq!(w.find(&shown), None);
        w.read_right(Arc::new(first.clone()));
        w.expect_cards(cards(), Vec::new());
        assert_eq!(w.find(&first), None, "no panel, nothing hidden");
        let seen = w
            .find(&shown)
            .expect("the panel hides the cards' ranks and pips");
        assert!(seen.panel.contains(365, 300), "{seen:?}");
        assert_eq!(seen.buttons.len(), 1, "{seen:?}");
    }

    #[test]
    fn cards_that_change_and_a_dimmed_table_hide_nothing() {
        let first = table(&cards());
        let mut w = watch(&first);
        w.read_right(Arc::new(first.clone()));
        // The lower rows, under the panel, are taken off by the step: what shows there is no
        // evidence.
        let (changing, staying): (Vec<Rect>, Vec<Rect>) =
            cards().into_iter().partition(|c| c.y >= 250);
        w.expect_cards(staying, changing);
        assert_eq!(w.find(&with_panel(first.clone())), None);
        // A dimmed table darkens the ink with the faces: the dimmed faces, a box of one colour
        // where the faces were, hide none of it.
        w.expect_cards(cards(), Vec::new());
        let dim = |c: [u8; 4]| c.map(|v| (v as f32 * 0.55) as u8);
        let mut dimmed = first.clone();
        for p in dimmed.pixels_mut() {
            p.0 = dim(p.0);
        }
        assert_eq!(w.find(&dimmed), None);
        let [r, g, b, _] = dim(FACE.0).map(|v| v as i32);
        assert!(!w.hides_ink(&dimmed, Rect::around(cards()), [r, g, b]));
    }
}
