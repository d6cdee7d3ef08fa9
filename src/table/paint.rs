//! Drawing primitives over `tiny_skia` used by the renderer and the built-in theme: colours, filled and
//! rounded rectangles, the four suit symbols as vector paths, and text in the built-in pixel font.

use crate::cards::Suit;
use crate::table::font;
use resvg::tiny_skia::{
    Color, FillRule, Paint, Path, PathBuilder, Pixmap, Rect as SkRect, Stroke, Transform,
};

/// An RGBA colour, 8 bits per channel, not premultiplied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rgba(pub u8, pub u8, pub u8, pub u8);

impl Rgba {
    pub const WHITE: Rgba = Rgba(255, 255, 255, 255);
    pub const BLACK: Rgba = Rgba(20, 20, 20, 255);
    pub const RED: Rgba = Rgba(200, 20, 30, 255);

    fn paint(self) -> Paint<'static> {
        let mut paint = Paint::default();
        paint.set_color(Color::from_rgba8(self.0, self.1, self.2, self.3));
        paint.anti_alias = true;
        paint
    }
}

/// Fills the axis-aligned rectangle (x, y, w, h) in pixels.
pub fn fill_rect(pixmap: &mut Pixmap, x: f32, y: f32, w: f32, h: f32, colour: Rgba) {
    if let Some(rect) = SkRect::from_xywh(x, y, w, h) {
        let mut paint = colour.paint();
        paint.anti_alias = false;
        pixmap.fill_rect(rect, &paint, Transform::identity(), None);
    }
}

/// The path of a rectangle with rounded corners of radius `r`.
pub fn rounded_rect(x: f32, y: f32, w: f32, h: f32, r: f32) -> Option<Path> {
    let r = r.min(w / 2.0).min(h / 2.0).max(0.0);
    let mut pb = PathBuilder::new();
    pb.move_to(x + r, y);
    pb.line_to(x + w - r, y);
    pb.quad_to(x + w, y, x + w, y + r);
    pb.line_to(x + w, y + h - r);
    pb.quad_to(x + w, y + h, x + w - r, y + h);
    pb.line_to(x + r, y + h);
    pb.quad_to(x, y + h, x, y + h - r);
    pb.line_to(x, y + r);
    pb.quad_to(x, y, x + r, y);
    pb.close();
    pb.finish()
}

/// Fills a path.
pub fn fill_path(pixmap: &mut Pixmap, path: &Path, colour: Rgba) {
    pixmap.fill_path(
        path,
        &colour.paint(),
        FillRule::Winding,
        Transform::identity(),
        None,
    );
}

/// Strokes a path with a line `width` pixels wide.
pub fn stroke_path(pixmap: &mut Pixmap, path: &Path, colour: Rgba, width: f32) {
    let stroke = Stroke {
        width,
        ..Stroke::default()
    };
    pixmap.stroke_path(path, &colour.paint(), &stroke, Transform::identity(), None);
}

/// Draws `src` onto `dst` with its top-left corner at (x, y), blending by alpha (both premultiplied).
pub fn draw_pixmap(dst: &mut Pixmap, src: &Pixmap, x: i32, y: i32) {
    let (dw, dh) = (dst.width() as i32, dst.height() as i32);
    let (sw, sh) = (src.width() as i32, src.height() as i32);
    let (x0, x1) = (x.max(0), (x + sw).min(dw));
    let (y0, y1) = (y.max(0), (y + sh).min(dh));
    if x0 >= x1 || y0 >= y1 {
        return;
    }
    let sdata = src.data();
    let ddata = dst.data_mut();
    for yy in y0..y1 {
        let srow = ((yy - y) * sw + (x0 - x)) as usize * 4;
        let drow = (yy * dw + x0) as usize * 4;
        let n = (x1 - x0) as usize * 4;
        let (s, d) = (&sdata[srow..srow + n], &mut ddata[drow..drow + n]);
        for (sp, dp) in s.chunks_exact(4).zip(d.chunks_exact_mut(4)) {
            let a = sp[3] as u32;
            if a == 255 {
                dp.copy_from_slice(sp);
            } else if a > 0 {
                let inv = 255 - a;
                for c in 0..4 {
                    dp[c] = (sp[c] as u32 + (dp[c] as u32 * inv + 127) / 255).min(255) as u8;
                }
            }
        }
    }
}

/// Draws `text` in the pixel font with each font pixel `px` pixels wide, its top-left corner at (x, y).
/// Positions are not rounded, so a glyph keeps its proportions at every size (whole-pixel `px` and
/// positions give crisp text).
pub fn draw_text(pixmap: &mut Pixmap, text: &str, x: f32, y: f32, px: f32, colour: Rgba) {
    // One path for the whole text, filled once, so that neighbouring font pixels leave no seams.
    let mut pb = PathBuilder::new();
    let mut pen = x;
    for c in text.chars() {
        if let Some(rows) = font::glyph(c) {
            for (r, row) in rows.iter().enumerate() {
                for (col, ink) in row.bytes().enumerate() {
                    if ink == b'#' {
                        if let Some(rect) =
                            SkRect::from_xywh(pen + col as f32 * px, y + r as f32 * px, px, px)
                        {
                            pb.push_rect(rect);
                        }
                    }
                }
            }
        }
        pen += font::ADVANCE as f32 * px;
    }
    if let Some(path) = pb.finish() {
        let mut paint = colour.paint();
        paint.anti_alias = px.fract() != 0.0 || x.fract() != 0.0 || y.fract() != 0.0;
        pixmap.fill_path(
            &path,
            &paint,
            FillRule::Winding,
            Transform::identity(),
            None,
        );
    }
}

/// Width in pixels of `text` drawn with font pixels `px` wide.
pub fn text_width(text: &str, px: f32) -> f32 {
    font::text_width(text) as f32 * px
}

/// The symbol of `suit` filling the box (x, y, size, size).
pub fn suit_path(suit: Suit, x: f32, y: f32, size: f32) -> Option<Path> {
    let s = size;
    let p = |u: f32, v: f32| (x + u * s, y + v * s);
    let mut pb = PathBuilder::new();
    let circle = |pb: &mut PathBuilder, cx: f32, cy: f32, r: f32| {
        pb.push_circle(x + cx * s, y + cy * s, r * s);
    };
    match suit {
        Suit::Diamonds => {
            let (a, b) = p(0.5, 0.0);
            pb.move_to(a, b);
            let (a, b) = p(0.9, 0.5);
            pb.line_to(a, b);
            let (a, b) = p(0.5, 1.0);
            pb.line_to(a, b);
            let (a, b) = p(0.1, 0.5);
            pb.line_to(a, b);
            pb.close();
        }
        Suit::Hearts => {
            let (a, b) = p(0.5, 0.28);
            pb.move_to(a, b);
            let (c1, c2) = p(0.5, 0.0);
            let (c3, c4) = p(0.0, 0.0);
            let (e1, e2) = p(0.0, 0.32);
            pb.cubic_to(c1, c2, c3, c4, e1, e2);
            let (c1, c2) = p(0.0, 0.6);
            let (c3, c4) = p(0.4, 0.75);
            let (e1, e2) = p(0.5, 1.0);
            pb.cubic_to(c1, c2, c3, c4, e1, e2);
            let (c1, c2) = p(0.6, 0.75);
            let (c3, c4) = p(1.0, 0.6);
            let (e1, e2) = p(1.0, 0.32);
            pb.cubic_to(c1, c2, c3, c4, e1, e2);
            let (c1, c2) = p(1.0, 0.0);
            let (c3, c4) = p(0.5, 0.0);
            let (e1, e2) = p(0.5, 0.28);
            pb.cubic_to(c1, c2, c3, c4, e1, e2);
            pb.close();
        }
        Suit::Spades => {
            let (a, b) = p(0.5, 0.0);
            pb.move_to(a, b);
            let (c1, c2) = p(0.6, 0.2);
            let (c3, c4) = p(1.0, 0.35);
            let (e1, e2) = p(1.0, 0.58);
            pb.cubic_to(c1, c2, c3, c4, e1, e2);
            let (c1, c2) = p(1.0, 0.82);
            let (c3, c4) = p(0.6, 0.85);
            let (e1, e2) = p(0.52, 0.68);
            pb.cubic_to(c1, c2, c3, c4, e1, e2);
            let (a, b) = p(0.62, 1.0);
            pb.line_to(a, b);
            let (a, b) = p(0.38, 1.0);
            pb.line_to(a, b);
            let (a, b) = p(0.48, 0.68);
            pb.line_to(a, b);
            let (c1, c2) = p(0.4, 0.85);
            let (c3, c4) = p(0.0, 0.82);
            let (e1, e2) = p(0.0, 0.58);
            pb.cubic_to(c1, c2, c3, c4, e1, e2);
            let (c1, c2) = p(0.0, 0.35);
            let (c3, c4) = p(0.4, 0.2);
            let (e1, e2) = p(0.5, 0.0);
            pb.cubic_to(c1, c2, c3, c4, e1, e2);
            pb.close();
        }
        Suit::Clubs => {
            circle(&mut pb, 0.5, 0.25, 0.22);
            circle(&mut pb, 0.24, 0.58, 0.22);
            circle(&mut pb, 0.76, 0.58, 0.22);
            let (a, b) = p(0.5, 0.4);
            pb.move_to(a, b);
            let (a, b) = p(0.64, 1.0);
            pb.line_to(a, b);
            let (a, b) = p(0.36, 1.0);
            pb.line_to(a, b);
            pb.close();
        }
    }
    pb.finish()
}
