//! Card art: the built-in theme drawn by the program, and aisleriot / gnome-cards-data `.svgz` sprite
//! sheets rendered with resvg. A theme turns into a [`Faces`] set: the 52 card faces and the back as
//! pixmaps of one size.

use crate::cards::{Card, Rank, Suit};
use crate::table::paint::{self, Rgba};
use crate::table::variant::Variant;
use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg;
use std::fmt;
use std::path::{Path, PathBuf};

/// Where `--theme NAME` looks for aisleriot card themes.
pub const THEME_DIR: &str = "/usr/share/aisleriot/cards";

/// The name of the built-in theme.
pub const BUILT_IN: &str = "builtin";

/// A theme that could not be loaded, with a message naming it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThemeError(pub String);

impl fmt::Display for ThemeError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ThemeError {}

/// Card art to draw the table with.
pub struct Theme {
    name: String,
    art: Art,
    /// A change of the faces once drawn (`NAME+borderless`), if any.
    variant: Option<Variant>,
}

enum Art {
    BuiltIn,
    Svg {
        tree: Box<usvg::Tree>,
        /// Bounding boxes in the sheet: 52 cards by `Card::index`, then the back.
        boxes: Vec<usvg::Rect>,
    },
}

/// The 52 card faces (by `Card::index`) and the back, all `width`×`height` pixels.
pub struct Faces {
    pub width: u32,
    pub height: u32,
    pixmaps: Vec<Pixmap>,
}

impl Faces {
    /// The face of `card`.
    pub fn card(&self, card: Card) -> &Pixmap {
        &self.pixmaps[card.index()]
    }

    /// The back of a card.
    pub fn back(&self) -> &Pixmap {
        &self.pixmaps[52]
    }
}

/// How a sheet names and places its cards.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Sheet {
    /// aisleriot / gnome-cards-data: `club_1` … `club_king`, in a grid of 13 columns and 5 rows.
    Aisleriot,
    /// KDE's card decks (kdegames-card-data): `1_club` … `king_club`, each card anywhere.
    Kde,
}

/// The element id of `card` in a sheet: `club_1` … `club_10`, `club_jack`, `club_queen`,
/// `club_king` in aisleriot's, `1_club` … `king_club` in KDE's.
fn element_id(card: Card, sheet: Sheet) -> String {
    let suit = match card.suit {
        Suit::Clubs => "club",
        Suit::Diamonds => "diamond",
        Suit::Hearts => "heart",
        Suit::Spades => "spade",
    };
    let rank = match card.rank.value() {
        11 => "jack".to_string(),
        12 => "queen".to_string(),
        13 => "king".to_string(),
        v => v.to_string(),
    };
    match sheet {
        Sheet::Aisleriot => format!("{suit}_{rank}"),
        Sheet::Kde => format!("{rank}_{suit}"),
    }
}

impl Theme {
    /// The theme drawn by the program itself; needs no files.
    pub fn built_in() -> Theme {
        Theme {
            name: BUILT_IN.to_string(),
            art: Art::BuiltIn,
            variant: None,
        }
    }

    /// `builtin`, a theme name looked up in [`THEME_DIR`] (`anglo` → `anglo.svgz`), or a path to a
    /// `.svg`/`.svgz` sprite sheet.
    /// `NAME+VARIANT` (like `anglo+borderless`) draws the theme with one of [`Variant`]'s changes.
    pub fn load(spec: &str) -> Result<Theme, ThemeError> {
        if let Some((base, variant)) = spec.rsplit_once('+').filter(|_| !Path::new(spec).is_file())
        {
            let v = Variant::parse(variant).ok_or_else(|| {
                let names: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
                ThemeError(format!(
                    "card theme '{spec}': '{variant}' is not a variant ({})",
                    names.join(", ")
                ))
            })?;
            let mut theme = Theme::load(base)?;
            if theme.variant.is_some() {
                return Err(ThemeError(format!(
                    "card theme '{spec}': one variant at most"
                )));
            }
            theme.name = format!("{}+{variant}", theme.name);
            theme.variant = Some(v);
            return Ok(theme);
        }
        if spec.eq_ignore_ascii_case(BUILT_IN) || spec.eq_ignore_ascii_case("built-in") {
            return Ok(Theme::built_in());
        }
        let path = Theme::find(spec)?;
        Theme::from_file(&path)
    }

    /// Every aisleriot theme installed in [`THEME_DIR`], sorted by name.
    pub fn installed() -> Vec<PathBuf> {
        let mut found: Vec<PathBuf> = std::fs::read_dir(THEME_DIR)
            .map(|dir| {
                dir.filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.extension().is_some_and(|e| e == "svgz" || e == "svg"))
                    .collect()
            })
            .unwrap_or_default();
        found.sort();
        found
    }

    fn find(spec: &str) -> Result<PathBuf, ThemeError> {
        let direct = PathBuf::from(spec);
        if direct.is_file() {
            return Ok(direct);
        }
        if !spec.contains('/') {
            for ext in ["svgz", "svg"] {
                let p = Path::new(THEME_DIR).join(format!("{spec}.{ext}"));
                if p.is_file() {
                    return Ok(p);
                }
            }
        }
        let names: Vec<String> = Theme::installed()
            .iter()
            .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
            .collect();
        let hint = if names.is_empty() {
            format!("no themes are installed in {THEME_DIR} (apt-get install gnome-cards-data)")
        } else {
            format!("installed: builtin, {}", names.join(", "))
        };
        Err(ThemeError(format!(
            "card theme '{spec}' not found: not a file, and not a name in {THEME_DIR}; {hint}"
        )))
    }

    /// Loads an aisleriot sprite sheet and checks that it has all 52 cards and a back.
    pub fn from_file(path: &Path) -> Result<Theme, ThemeError> {
        let shown = path.display();
        let data = std::fs::read(path)
            .map_err(|e| ThemeError(format!("card theme {shown}: cannot read it: {e}")))?;
        let mut options = usvg::Options::default();
        options.fontdb_mut().load_system_fonts();
        let tree = usvg::Tree::from_data(&data, &options).map_err(|e| {
            ThemeError(format!(
                "card theme {shown}: not a readable SVG/SVGZ file: {e}"
            ))
        })?;
        // The sheet's kind: the naming most of its cards follow (aisleriot's on a tie).
        let sheet = [Sheet::Aisleriot, Sheet::Kde]
            .into_iter()
            .max_by_key(|&sheet| {
                let named = |card| tree.node_by_id(&element_id(card, sheet)).is_some();
                (
                    Card::all().filter(|&card| named(card)).count(),
                    sheet == Sheet::Aisleriot,
                )
            })
            .expect("two kinds");
        let mut boxes = Vec::with_capacity(53);
        let mut missing = Vec::new();
        let ids: Vec<String> = Card::all()
            .map(|card| element_id(card, sheet))
            .chain(std::iter::once("back".to_string()))
            .collect();
        for id in &ids {
            match tree.node_by_id(id) {
                Some(node) => {
                    let b = match sheet {
                        Sheet::Aisleriot => node.abs_stroke_bounding_box(),
                        Sheet::Kde => card_body(node),
                    };
                    if b.width() < 1.0 || b.height() < 1.0 {
                        missing.push(id.clone());
                    }
                    boxes.push(b);
                }
                None => missing.push(id.clone()),
            }
        }
        if !missing.is_empty() {
            return Err(ThemeError(format!(
                "card theme {shown}: not an aisleriot or KDE card sheet, it lacks the elements {}",
                missing.join(", ")
            )));
        }
        let boxes = match sheet {
            Sheet::Aisleriot => grid_boxes(&boxes, tree.size()),
            Sheet::Kde => free_boxes(&boxes),
        };
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| shown.to_string());
        let name = match sheet {
            Sheet::Kde => kde_deck_name(path).unwrap_or(stem),
            Sheet::Aisleriot => stem,
        };
        Ok(Theme {
            name,
            art: Art::Svg {
                tree: Box::new(tree),
                boxes,
            },
            variant: None,
        })
    }

    /// The theme's name: `builtin` or the sheet's file name without extension.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Height over width of the theme's cards.
    pub fn aspect(&self) -> f32 {
        match &self.art {
            Art::BuiltIn => 1.45,
            Art::Svg { boxes, .. } => {
                let b = boxes[0];
                b.height() / b.width()
            }
        }
    }

    /// The variant the theme is drawn with, if any.
    pub fn variant(&self) -> Option<Variant> {
        self.variant
    }

    /// All faces and the back at `width`×`height` pixels.
    pub fn faces(&self, width: u32, height: u32) -> Faces {
        let (width, height) = (width.max(8), height.max(8));
        let pixmaps = match &self.art {
            Art::BuiltIn => Card::all()
                .map(|c| built_in_face(c, width, height))
                .chain(std::iter::once(built_in_back(width, height)))
                .collect(),
            Art::Svg { tree, boxes } => svg_faces(tree, boxes, width, height),
        };
        let mut pixmaps = pixmaps;
        if let Some(v) = self.variant {
            for (i, face) in pixmaps.iter_mut().enumerate() {
                v.apply(Card::all().nth(i), face);
            }
        }
        Faces {
            width,
            height,
            pixmaps,
        }
    }
}

/// Aisleriot sheets are grids of 13 columns and 5 rows. Some cards draw outside their card (their
/// boxes only grow), so every card gets the box of the smallest one, moved to its own grid cell (found
/// from its centre).
fn grid_boxes(found: &[usvg::Rect], sheet: usvg::Size) -> Vec<usvg::Rect> {
    let (cw, ch) = (sheet.width() / 13.0, sheet.height() / 5.0);
    let cell = |b: &usvg::Rect| {
        let cx = b.x() + b.width() / 2.0;
        let cy = b.y() + b.height() / 2.0;
        (
            (cx / cw).floor().clamp(0.0, 12.0),
            (cy / ch).floor().clamp(0.0, 4.0),
        )
    };
    let plain = found
        .iter()
        .min_by(|a, b| (a.width() * a.height()).total_cmp(&(b.width() * b.height())))
        .expect("53 boxes");
    let (c0, r0) = cell(plain);
    let (ox, oy) = (plain.x() - c0 * cw, plain.y() - r0 * ch);
    found
        .iter()
        .map(|b| {
            let (c, r) = cell(b);
            usvg::Rect::from_xywh(c * cw + ox, r * ch + oy, plain.width(), plain.height())
                .unwrap_or(*b)
        })
        .collect()
}

/// The box of a KDE card: its largest shape, the last of equals (the card's own outline or paper,
/// drawn over any shadow of its size), so that what a face draws outside its card (a court
/// figure's overhang, a shadow) does not move the box.
fn card_body(node: &usvg::Node) -> usvg::Rect {
    fn largest(node: &usvg::Node, best: &mut Option<usvg::Rect>) {
        match node {
            usvg::Node::Group(group) => {
                for child in group.children() {
                    largest(child, best);
                }
            }
            usvg::Node::Path(_) => {
                let b = node.abs_bounding_box();
                if best.is_none_or(|o| b.width() * b.height() >= o.width() * o.height()) {
                    *best = Some(b);
                }
            }
            _ => {}
        }
    }
    let mut best = None;
    largest(node, &mut best);
    best.unwrap_or_else(|| node.abs_bounding_box())
}

/// KDE's sheets place each card anywhere. A card that draws outside its card (a shadow, a
/// stroke) has a larger box: every card gets the size of the most common one, centred on its own.
fn free_boxes(found: &[usvg::Rect]) -> Vec<usvg::Rect> {
    let key = |b: &usvg::Rect| {
        (
            (b.width() * 4.0).round() as i64,
            (b.height() * 4.0).round() as i64,
        )
    };
    let mut sizes: Vec<(i64, i64)> = found.iter().map(key).collect();
    sizes.sort_unstable();
    let common = sizes
        .chunk_by(|a, b| a == b)
        .max_by_key(|run| run.len())
        .map(|run| run[0])
        .expect("53 boxes");
    let (w, h) = (common.0 as f32 / 4.0, common.1 as f32 / 4.0);
    found
        .iter()
        .map(|b| {
            let (cx, cy) = (b.x() + b.width() / 2.0, b.y() + b.height() / 2.0);
            usvg::Rect::from_xywh(cx - w / 2.0, cy - h / 2.0, w, h).unwrap_or(*b)
        })
        .collect()
}

/// Renders the sheet once at the scale that makes a card `width`×`height`, then cuts out each card.
fn svg_faces(tree: &usvg::Tree, boxes: &[usvg::Rect], width: u32, height: u32) -> Vec<Pixmap> {
    let card = boxes[0];
    let sx = width as f32 / card.width();
    let sy = height as f32 / card.height();
    let size = tree.size();
    let mut sheet = Pixmap::new(
        (size.width() * sx).ceil().max(1.0) as u32 + 2,
        (size.height() * sy).ceil().max(1.0) as u32 + 2,
    )
    .expect("sheet size");
    resvg::render(tree, Transform::from_scale(sx, sy), &mut sheet.as_mut());
    boxes
        .iter()
        .map(|b| {
            // Each box gets its own scale so that every face is exactly width×height.
            let bx = b.x() * sx;
            let by = b.y() * sy;
            let bw = b.width() * sx;
            let bh = b.height() * sy;
            let mut face = Pixmap::new(width, height).expect("face size");
            let t = Transform::from_row(
                width as f32 / bw,
                0.0,
                0.0,
                height as f32 / bh,
                -bx * width as f32 / bw,
                -by * height as f32 / bh,
            );
            face.draw_pixmap(
                0,
                0,
                sheet.as_ref(),
                &resvg::tiny_skia::PixmapPaint {
                    quality: resvg::tiny_skia::FilterQuality::Bilinear,
                    ..Default::default()
                },
                t,
                None,
            );
            face
        })
        .collect()
}

fn suit_colour(suit: Suit) -> Rgba {
    if suit.is_red() {
        Rgba::RED
    } else {
        Rgba::BLACK
    }
}

fn rank_text(rank: Rank) -> String {
    match rank.value() {
        10 => "10".to_string(),
        _ => rank.char().to_string(),
    }
}

/// A white card with rounded corners and a grey outline: what faces and backs are drawn on.
fn blank_card(width: u32, height: u32) -> Pixmap {
    let mut pm = Pixmap::new(width, height).expect("card size");
    let (w, h) = (width as f32, height as f32);
    if let Some(path) = paint::rounded_rect(0.5, 0.5, w - 1.0, h - 1.0, w * 0.07) {
        paint::fill_path(&mut pm, &path, Rgba::WHITE);
        paint::stroke_path(
            &mut pm,
            &path,
            Rgba(120, 120, 120, 255),
            (w / 100.0).max(1.0),
        );
    }
    pm
}

/// A card face of the built-in theme: white card, rank and suit index in the top-left and bottom-right
/// corners, a large suit (or the court letter) in the middle.
fn built_in_face(card: Card, width: u32, height: u32) -> Pixmap {
    let mut pm = blank_card(width, height);
    let (w, h) = (width as f32, height as f32);
    let colour = suit_colour(card.suit);
    let text = rank_text(card.rank);
    // The index (rank over suit) fits in the top 0.37 of the width: all that shows of a covered card.
    let px = w * 0.022;
    let margin = w * 0.05;
    let glyph_h = 7.0 * px;
    let suit_size = w * 0.17;
    let index_w = paint::text_width(&text, px).max(suit_size);
    // Top-left index.
    let tx = margin + (index_w - paint::text_width(&text, px)) / 2.0;
    paint::draw_text(&mut pm, &text, tx, margin, px, colour);
    let sy = margin + glyph_h + w * 0.015;
    let sxx = margin + (index_w - suit_size) / 2.0;
    if let Some(path) = paint::suit_path(card.suit, sxx, sy, suit_size) {
        paint::fill_path(&mut pm, &path, colour);
    }
    // Bottom-right index (upright, for simplicity).
    let bx = w - margin - index_w;
    let by = h - margin - glyph_h - w * 0.03 - suit_size;
    if let Some(path) = paint::suit_path(card.suit, bx + (index_w - suit_size) / 2.0, by, suit_size)
    {
        paint::fill_path(&mut pm, &path, colour);
    }
    paint::draw_text(
        &mut pm,
        &text,
        bx + (index_w - paint::text_width(&text, px)) / 2.0,
        by + suit_size + w * 0.03,
        px,
        colour,
    );
    // Centre.
    let big = w * 0.42;
    if card.rank.value() > 10 {
        let bpx = w * 0.07;
        let tw = paint::text_width(&text, bpx);
        paint::draw_text(
            &mut pm,
            &text,
            (w - tw) / 2.0,
            h * 0.5 - 7.0 * bpx * 0.5,
            bpx,
            colour,
        );
        let frame = paint::rounded_rect(w * 0.22, h * 0.26, w * 0.56, h * 0.48, w * 0.04);
        if let Some(frame) = frame {
            paint::stroke_path(&mut pm, &frame, colour, (w / 60.0).max(1.0));
        }
    } else if let Some(path) = paint::suit_path(card.suit, (w - big) / 2.0, (h - big) / 2.0, big) {
        paint::fill_path(&mut pm, &path, colour);
    }
    pm
}

/// The back of the built-in theme: dark blue with a white frame and a diamond lattice.
fn built_in_back(width: u32, height: u32) -> Pixmap {
    let mut pm = blank_card(width, height);
    let (w, h) = (width as f32, height as f32);
    let inset = w * 0.07;
    if let Some(inner) =
        paint::rounded_rect(inset, inset, w - 2.0 * inset, h - 2.0 * inset, w * 0.04)
    {
        paint::fill_path(&mut pm, &inner, Rgba(30, 60, 140, 255));
        let step = (w * 0.12).max(4.0);
        let mut pb = resvg::tiny_skia::PathBuilder::new();
        let mut d = -h;
        while d < w + h {
            pb.move_to(inset + d, inset);
            pb.line_to(inset + d + h, inset + h);
            pb.move_to(inset + d + h, inset);
            pb.line_to(inset + d, inset + h);
            d += step;
        }
        if let Some(lattice) = pb.finish() {
            let mut clipped = Pixmap::new(width, height).expect("back size");
            paint::stroke_path(
                &mut clipped,
                &lattice,
                Rgba(90, 130, 210, 255),
                (w / 70.0).max(1.0),
            );
            // Keep the lattice inside the frame.
            let mut mask = resvg::tiny_skia::Mask::new(width, height).expect("mask size");
            mask.fill_path(
                &inner,
                resvg::tiny_skia::FillRule::Winding,
                true,
                Transform::identity(),
            );
            pm.draw_pixmap(
                0,
                0,
                clipped.as_ref(),
                &resvg::tiny_skia::PixmapPaint::default(),
                Transform::identity(),
                Some(&mask),
            );
        }
    }
    pm
}

/// The name of a KDE card deck at `path`: KDE keeps each deck in a folder of its own
/// (`svg-oxygen/oxygen.svgz`), and the deck is named after it (`kde-oxygen`). None for a path
/// outside such a folder.
pub fn kde_deck_name(path: &Path) -> Option<String> {
    let folder = path.parent()?.file_name()?.to_str()?.strip_prefix("svg-")?;
    Some(format!("kde-{folder}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn element_ids_follow_aisleriot_and_kde_names() {
        let id = |card: &str, sheet| element_id(card.parse().unwrap(), sheet);
        assert_eq!(id("Ac", Sheet::Aisleriot), "club_1");
        assert_eq!(id("Td", Sheet::Aisleriot), "diamond_10");
        assert_eq!(id("Kh", Sheet::Aisleriot), "heart_king");
        assert_eq!(id("Js", Sheet::Aisleriot), "spade_jack");
        assert_eq!(id("Ac", Sheet::Kde), "1_club");
        assert_eq!(id("Qd", Sheet::Kde), "queen_diamond");
    }

    #[test]
    fn unknown_theme_is_named_in_the_error() {
        let err = Theme::load("no-such-theme").err().unwrap();
        assert!(err.0.contains("'no-such-theme'"), "{err}");
    }

    #[test]
    fn a_file_that_is_not_svg_is_refused_with_its_name() {
        let dir = std::env::temp_dir().join(format!("theme-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("broken.svgz");
        std::fs::write(&path, b"\x1f\x8bnot really gzip").unwrap();
        let err = Theme::load(path.to_str().unwrap()).err().unwrap();
        assert!(err.0.contains("broken.svgz"), "{err}");
        std::fs::write(
            &path,
            b"<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'/>",
        )
        .unwrap();
        let err = Theme::load(path.to_str().unwrap()).err().unwrap();
        assert!(err.0.contains("lacks the elements"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A KDE-style sheet: cards named `1_club` … `king_spade` and `back`, placed in no grid, each a
    /// 40×60 card of its own colour, one of them with a shadow that draws outside it.
    #[test]
    fn a_kde_sheet_is_cut_card_by_card() {
        let mut body = String::new();
        let ids: Vec<String> = Card::all()
            .map(|c| element_id(c, Sheet::Kde))
            .chain(std::iter::once("back".to_string()))
            .collect();
        for (i, id) in ids.iter().enumerate() {
            // Staggered, so that no grid of 13 by 5 would find them.
            let (x, y) = (10 + (i % 7) * 57 + (i / 7) * 3, 10 + (i / 7) * 71);
            let shadow = if id == "king_heart" {
                format!(
                    "<rect x='{}' y='{}' width='40' height='60' fill='#000'/>",
                    x + 4,
                    y + 4
                )
            } else {
                String::new()
            };
            body += &format!(
                "<g id='{id}'>{shadow}<rect x='{x}' y='{y}' width='40' height='60' fill='rgb({i},{},90)'/></g>",
                255 - i
            );
        }
        let svg = format!(
            "<svg xmlns='http://www.w3.org/2000/svg' width='460' height='600'>{body}</svg>"
        );
        let dir = std::env::temp_dir().join(format!("kde-theme-{}", std::process::id()));
        let deck = dir.join("svg-test");
        std::fs::create_dir_all(&deck).unwrap();
        let path = deck.join("test.svg");
        std::fs::write(&path, svg).unwrap();
        let theme = Theme::load(path.to_str().unwrap()).unwrap();
        assert_eq!(theme.name(), "kde-test");
        assert!((theme.aspect() - 1.5).abs() < 0.01, "{}", theme.aspect());
        let faces = theme.faces(40, 60);
        // Every face shows the colour given to its card, in the middle and near the corners.
        for (i, card) in Card::all().enumerate() {
            let face = faces.card(card);
            for (x, y) in [(20, 30), (2, 2), (37, 57)] {
                let p = face.pixel(x, y).unwrap();
                assert_eq!(
                    (p.red(), p.green(), p.blue()),
                    (i as u8, 255 - i as u8, 90),
                    "{card} at ({x},{y})"
                );
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn built_in_faces_differ() {
        let faces = Theme::built_in().faces(60, 87);
        let a = faces.card("Ac".parse().unwrap()).data().to_vec();
        let b = faces.card("As".parse().unwrap()).data().to_vec();
        let c = faces.back().data().to_vec();
        assert_ne!(a, b);
        assert_ne!(a, c);
    }
}
