//! The one place that draws the practice table: (scene, layout, theme) → RGBA image. The window shows
//! exactly these pixels and `solitaire-agent render` writes them to a PNG, so a capture of the window
//! and a headless render of the same position are the same picture.

use crate::table::chrome::{self, draw_dialog, draw_status, draw_toolbar, empty_pile, highlight};
use crate::table::layout::Layout;
use crate::table::paint;
use crate::table::scene::{Scene, Selection};
use crate::table::theme::{Faces, Theme};
use image::RgbaImage;
use resvg::tiny_skia::Pixmap;

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

    /// The felt of a `width`×`height` window to draw on, and the theme's faces at a card size
    /// (both kept for the next frame of the same sizes): what every game's renderer starts from.
    pub fn canvas(
        &mut self,
        width: u32,
        height: u32,
        card_w: i32,
        card_h: i32,
    ) -> (Pixmap, &Faces) {
        let felt = self.felt(width, height);
        (felt, self.faces(card_w, card_h))
    }

    fn faces(&mut self, card_w: i32, card_h: i32) -> &Faces {
        let (w, h) = (card_w as u32, card_h as u32);
        let stale = self
            .faces
            .as_ref()
            .is_none_or(|f| f.width != w || f.height != h);
        if stale {
            self.faces = Some(self.theme.faces(w, h));
        }
        self.faces.as_ref().expect("faces")
    }

    fn felt(&mut self, width: u32, height: u32) -> Pixmap {
        let stale = self
            .felt
            .as_ref()
            .is_none_or(|f| f.width() != width || f.height() != height);
        if stale {
            self.felt = Some(chrome::felt(width, height));
        }
        self.felt.clone().expect("felt")
    }

    fn render_pixmap(&mut self, scene: &Scene, layout: &Layout) -> Pixmap {
        let (mut pm, faces) =
            self.canvas(layout.width, layout.height, layout.card_w, layout.card_h);
        draw_toolbar(&mut pm, &layout.chrome);

        for (i, card) in scene.pyramid.iter().enumerate() {
            let slot = layout.slots[i];
            if let Some(card) = card {
                paint::draw_pixmap(&mut pm, faces.card(*card), slot.x, slot.y);
                if scene.selected
                    == Some(Selection::Pyramid(
                        crate::games::pyramid::position::Position(i as u8),
                    ))
                {
                    highlight(&mut pm, slot, &layout.chrome);
                }
            }
        }

        // Stock: a few backs for depth, the top card face up.
        let stock = layout.stock;
        if scene.stock_count == 0 {
            empty_pile(&mut pm, stock, &layout.chrome);
            if scene.recycles_left > 0 {
                chrome::recycle_mark(&mut pm, stock);
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
                    highlight(&mut pm, waste, &layout.chrome);
                }
            }
            None => empty_pile(&mut pm, waste, &layout.chrome),
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

        draw_status(&mut pm, &layout.chrome, &scene.status);
        if scene.dialog {
            draw_dialog(&mut pm, &layout.chrome);
        }
        pm
    }
}
