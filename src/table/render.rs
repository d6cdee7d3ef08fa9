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
            self.felt = Some(chrome::felt(layout.width, layout.height));
        }
        self.felt.clone().expect("felt")
    }

    fn render_pixmap(&mut self, scene: &Scene, layout: &Layout) -> Pixmap {
        let mut pm = self.felt(layout);
        let faces = {
            self.faces(layout);
            self.faces.as_ref().expect("faces")
        };
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
