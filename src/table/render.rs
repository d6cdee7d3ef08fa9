//! The one place that draws the practice table: (scene, layout, theme) → RGBA image. The window shows
//! exactly these pixels and `solitaire-agent render` writes them to a PNG, so a capture of the window
//! and a headless render of the same position are the same picture.

use crate::table::layout::{Layout, Rect, BUTTON_LABELS};
use crate::table::paint::{self, Rgba};
use crate::table::scene::{Scene, Selection};
use crate::table::theme::{Faces, Theme};
use image::RgbaImage;
use resvg::tiny_skia::Pixmap;

const FELT_CENTRE: [f32; 3] = [46.0, 128.0, 70.0];
const FELT_EDGE: [f32; 3] = [18.0, 78.0, 42.0];
const BAR: Rgba = Rgba(24, 44, 32, 255);
const BUTTON: Rgba = Rgba(222, 228, 222, 255);
const DIALOG_BUTTON: Rgba = Rgba(200, 214, 204, 255);
const BUTTON_TEXT: Rgba = Rgba(28, 36, 30, 255);
const STATUS_TEXT: Rgba = Rgba(235, 240, 235, 255);
const OUTLINE: Rgba = Rgba(120, 180, 135, 255);
const HIGHLIGHT: Rgba = Rgba(255, 200, 30, 255);

/// Draws frames of the table with one theme, keeping the card faces and the felt of the last size.
pub struct Renderer {
    theme: Theme,
    faces: Option<Faces>,
    felt: Option<Pixmap>,
}

impl Renderer {
    pub fn new(theme: Theme) -> Renderer {
        Renderer {
            theme,
            faces: None,
            felt: None,
        }
    }

    pub fn theme(&self) -> &Theme {
        &self.theme
    }

    /// The layout of a `width`×`height` window at `scale` for this theme's cards.
    pub fn layout(&self, width: u32, height: u32, scale: f32) -> Layout {
        Layout::new(width, height, scale, self.theme.aspect())
    }

    /// Draws `scene` laid out by `layout`.
    pub fn render(&mut self, scene: &Scene, layout: &Layout) -> RgbaImage {
        let pm = self.render_pixmap(scene, layout);
        // Every pixel is opaque (the felt is), so premultiplied and straight RGBA are the same.
        RgbaImage::from_raw(layout.width, layout.height, pm.take()).expect("image size")
    }

    fn faces(&mut self, layout: &Layout) -> &Faces {
        let (w, h) = (layout.card_w as u32, layout.card_h as u32);
        let stale = self
            .faces
            .as_ref()
            .is_none_or(|f| f.width != w || f.height != h);
        if stale {
            self.faces = Some(self.theme.faces(w, h));
        }
        self.faces.as_ref().expect("faces")
    }

    fn felt(&mut self, layout: &Layout) -> Pixmap {
        let stale = self
            .felt
            .as_ref()
            .is_none_or(|f| f.width() != layout.width || f.height() != layout.height);
        if stale {
            self.felt = Some(felt(layout.width, layout.height));
        }
        self.felt.clone().expect("felt")
    }

    fn render_pixmap(&mut self, scene: &Scene, layout: &Layout) -> Pixmap {
        let mut pm = self.felt(layout);
        let faces = {
            self.faces(layout);
            self.faces.as_ref().expect("faces")
        };
        draw_toolbar(&mut pm, layout);

        for (i, card) in scene.pyramid.iter().enumerate() {
            let slot = layout.slots[i];
            if let Some(card) = card {
                paint::draw_pixmap(&mut pm, faces.card(*card), slot.x, slot.y);
                if scene.selected
                    == Some(Selection::Pyramid(
                        crate::games::pyramid::position::Position(i as u8),
                    ))
                {
                    highlight(&mut pm, slot, layout);
                }
            }
        }

        // Stock: a few backs for depth, the top card face up.
        let stock = layout.stock;
        if scene.stock_count == 0 {
            empty_pile(&mut pm, stock, layout);
            if scene.recycles_left > 0 {
                recycle_mark(&mut pm, stock);
            }
        } else {
            let depth = (scene.stock_count - 1).min(3) as i32;
            let d = (layout.card_w / 40).max(2);
            for k in (1..=depth).rev() {
                paint::draw_pixmap(&mut pm, faces.back(), stock.x - k * d, stock.y - k * d);
            }
            match scene.stock_top {
                Some(card) => paint::draw_pixmap(&mut pm, faces.card(card), stock.x, stock.y),
                None => paint::draw_pixmap(&mut pm, faces.back(), stock.x, stock.y),
            }
        }

        let waste = layout.waste;
        match scene.waste_top {
            Some(card) => {
                paint::draw_pixmap(&mut pm, faces.card(card), waste.x, waste.y);
                if scene.selected == Some(Selection::Waste) {
                    highlight(&mut pm, waste, layout);
                }
            }
            None => empty_pile(&mut pm, waste, layout),
        }

        for flight in &scene.flights {
            let face = match flight.card {
                Some(card) => faces.card(card),
                None => faces.back(),
            };
            paint::draw_pixmap(
                &mut pm,
                face,
                flight.x.round() as i32,
                flight.y.round() as i32,
            );
        }

        draw_status(&mut pm, layout, &scene.status);
        if scene.dialog {
            draw_dialog(&mut pm, layout);
        }
        pm
    }
}

/// The felt: a radial gradient from a lighter centre to darker edges, with a faint fixed weave.
fn felt(width: u32, height: u32) -> Pixmap {
    let mut pm = Pixmap::new(width, height).expect("window size");
    let (cx, cy) = (width as f32 / 2.0, height as f32 / 2.0);
    let max_d2 = cx * cx + cy * cy;
    let data = pm.data_mut();
    for y in 0..height {
        for x in 0..width {
            let (dx, dy) = (x as f32 - cx, y as f32 - cy);
            let t = ((dx * dx + dy * dy) / max_d2).min(1.0);
            let weave = if (x + y) % 4 == 0 { 3.0 } else { 0.0 };
            let i = ((y * width + x) * 4) as usize;
            for c in 0..3 {
                let v = FELT_CENTRE[c] + (FELT_EDGE[c] - FELT_CENTRE[c]) * t + weave;
                data[i + c] = v.round().clamp(0.0, 255.0) as u8;
            }
            data[i + 3] = 255;
        }
    }
    pm
}

fn draw_toolbar(pm: &mut Pixmap, layout: &Layout) {
    let bar = layout.toolbar;
    paint::fill_rect(pm, 0.0, 0.0, bar.w as f32, bar.h as f32, BAR);
    for (rect, label) in [layout.undo, layout.undo_board, layout.new_deal]
        .iter()
        .zip(BUTTON_LABELS)
    {
        button(pm, *rect, label, layout, BUTTON, false);
    }
}

/// A rounded button filled with `fill` (outlined when `outline`), its label centred.
fn button(pm: &mut Pixmap, r: Rect, label: &str, layout: &Layout, fill: Rgba, outline: bool) {
    if let Some(path) = paint::rounded_rect(
        r.x as f32,
        r.y as f32,
        r.w as f32,
        r.h as f32,
        4.0 * layout.ui,
    ) {
        paint::fill_path(pm, &path, fill);
        if outline {
            paint::stroke_path(pm, &path, BAR, 1.0);
        }
    }
    centred_label(pm, r, label, layout.text_px);
}

fn draw_status(pm: &mut Pixmap, layout: &Layout, text: &str) {
    let s = layout.status;
    paint::fill_rect(pm, 0.0, s.y as f32, s.w as f32, s.h as f32, BAR);
    let px = layout.text_px;
    paint::draw_text(
        pm,
        text,
        (10.0 * layout.ui).round(),
        (s.y as f32 + (s.h as f32 - 7.0 * px) / 2.0).round(),
        px,
        STATUS_TEXT,
    );
}

fn empty_pile(pm: &mut Pixmap, r: Rect, layout: &Layout) {
    if let Some(path) = paint::rounded_rect(
        r.x as f32 + 1.0,
        r.y as f32 + 1.0,
        r.w as f32 - 2.0,
        r.h as f32 - 2.0,
        r.w as f32 * 0.07,
    ) {
        paint::stroke_path(pm, &path, OUTLINE, (2.0 * layout.ui).max(1.0));
    }
}

/// A ring in the empty stock: the waste can still be turned over.
fn recycle_mark(pm: &mut Pixmap, r: Rect) {
    let (cx, cy) = r.centre();
    let radius = r.w as f32 * 0.25;
    let mut pb = resvg::tiny_skia::PathBuilder::new();
    pb.push_circle(cx as f32, cy as f32, radius);
    if let Some(path) = pb.finish() {
        paint::stroke_path(pm, &path, OUTLINE, (r.w as f32 * 0.06).max(2.0));
    }
}

/// A selected card: a gold frame and a light golden tint over the card.
fn highlight(pm: &mut Pixmap, r: Rect, layout: &Layout) {
    let Rgba(hr, hg, hb, _) = HIGHLIGHT;
    paint::fill_rect(
        pm,
        r.x as f32,
        r.y as f32,
        r.w as f32,
        r.h as f32,
        Rgba(hr, hg, hb, 50),
    );
    let width = (3.0 * layout.ui).max(2.0);
    if let Some(path) = paint::rounded_rect(
        r.x as f32 + width / 2.0,
        r.y as f32 + width / 2.0,
        r.w as f32 - width,
        r.h as f32 - width,
        r.w as f32 * 0.07,
    ) {
        paint::stroke_path(pm, &path, HIGHLIGHT, width);
    }
}

fn draw_dialog(pm: &mut Pixmap, layout: &Layout) {
    paint::fill_rect(
        pm,
        0.0,
        0.0,
        layout.width as f32,
        layout.height as f32,
        Rgba(0, 0, 0, 110),
    );
    let d = layout.dialog;
    if let Some(path) = paint::rounded_rect(
        d.x as f32,
        d.y as f32,
        d.w as f32,
        d.h as f32,
        8.0 * layout.ui,
    ) {
        paint::fill_path(pm, &path, Rgba(245, 245, 240, 255));
        paint::stroke_path(pm, &path, BAR, (2.0 * layout.ui).max(1.0));
    }
    let px = layout.text_px;
    let title = "UNDO BOARD? THE DEAL STARTS AGAIN.";
    let mut tpx = px;
    while paint::text_width(title, tpx) > d.w as f32 * 0.92 && tpx > 1.0 {
        tpx -= 1.0;
    }
    let tw = paint::text_width(title, tpx);
    paint::draw_text(
        pm,
        title,
        (d.x as f32 + (d.w as f32 - tw) / 2.0).round(),
        (d.y as f32 + 18.0 * layout.ui).round(),
        tpx,
        BUTTON_TEXT,
    );
    for (rect, label) in [(layout.ok, "OK"), (layout.cancel, "CANCEL")] {
        button(pm, rect, label, layout, DIALOG_BUTTON, true);
    }
}

/// `label` in the button font, centred in `r`.
fn centred_label(pm: &mut Pixmap, r: Rect, label: &str, px: f32) {
    let tw = paint::text_width(label, px);
    paint::draw_text(
        pm,
        label,
        (r.x as f32 + (r.w as f32 - tw) / 2.0).round(),
        (r.y as f32 + (r.h as f32 - 7.0 * px) / 2.0).round(),
        px,
        BUTTON_TEXT,
    );
}
