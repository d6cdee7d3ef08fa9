//! The practice table's window (eframe), for any game: shows exactly the game's rendered pixels,
//! one image pixel per screen pixel, and hands mouse clicks to the game's table; events go to the
//! log file as they happen. A game's table comes in through `TableView`.

use crate::table::harness::Event;

use image::RgbaImage;
use std::io::Write;
use std::time::Instant;

/// What the window needs of a game's table: clicks in, pictures out, whether it is animating,
/// and the events to log. Sizes are the window's in physical pixels.
pub trait TableView {
    fn click(&mut self, width: u32, height: u32, x: i32, y: i32, now_ms: u64);
    /// The picture at `now_ms`, or `None` when it is the one last returned.
    fn picture(&mut self, width: u32, height: u32, now_ms: u64) -> Option<RgbaImage>;
    fn is_busy(&self, now_ms: u64) -> bool;
    fn take_events(&mut self) -> Vec<(u64, Event)>;
}

/// Options of `solitaire-agent table` that concern the window.
pub struct WindowOptions {
    pub width: u32,
    pub height: u32,
    /// The window's top-left corner on the screen, when asked for.
    pub position: Option<(i32, i32)>,
}

struct TableApp {
    view: Box<dyn TableView>,
    log: Option<Box<dyn Write>>,
    start: Instant,
    texture: Option<egui::TextureHandle>,
    /// The picture the texture holds.
    shown: Option<RgbaImage>,
}

impl TableApp {
    fn now_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    fn flush_events(&mut self) {
        let events = self.view.take_events();
        if let Some(log) = self.log.as_mut() {
            for (t, e) in &events {
                let _ = writeln!(log, "{}", e.to_json(*t));
            }
            let _ = log.flush();
        }
    }

    /// Puts `image` in the texture: only the part that differs from the picture shown (a moving
    /// card's path, a highlight), so that a frame while a card flies uploads a card's worth of
    /// pixels, not the window's.
    fn show(&mut self, ctx: &egui::Context, image: RgbaImage) {
        let options = egui::TextureOptions::NEAREST;
        let colour = |image: &RgbaImage| {
            let (w, h) = image.dimensions();
            egui::ColorImage::from_rgba_unmultiplied([w as usize, h as usize], image.as_raw())
        };
        match (self.texture.as_mut(), self.shown.as_ref()) {
            (Some(texture), Some(shown)) if shown.dimensions() == image.dimensions() => {
                if let Some((x, y, w, h)) = changed_box(shown, &image) {
                    let part = image::imageops::crop_imm(&image, x, y, w, h).to_image();
                    texture.set_partial([x as usize, y as usize], colour(&part), options);
                }
            }
            (Some(texture), _) => texture.set(colour(&image), options),
            (None, _) => self.texture = Some(ctx.load_texture("table", colour(&image), options)),
        }
        self.shown = Some(image);
    }
}

/// The smallest rectangle (x, y, width, height) outside which `a` and `b`, of one size, are the
/// same; `None` where they are the same everywhere.
fn changed_box(a: &RgbaImage, b: &RgbaImage) -> Option<(u32, u32, u32, u32)> {
    let (width, height) = a.dimensions();
    let len = width as usize * 4;
    fn row(image: &RgbaImage, y: u32, len: usize) -> &[u8] {
        &image.as_raw()[y as usize * len..(y as usize + 1) * len]
    }
    let rows: Vec<u32> = (0..height)
        .filter(|&y| row(a, y, len) != row(b, y, len))
        .collect();
    let (&top, &bottom) = (rows.first()?, rows.last()?);
    let (mut left, mut right) = (width, 0);
    for &y in &rows {
        let (ra, rb) = (row(a, y, len), row(b, y, len));
        let differs = |x: &u32| ra[*x as usize * 4..][..4] != rb[*x as usize * 4..][..4];
        if let Some(x) = (0..left).find(differs) {
            left = x;
        }
        if let Some(x) = (right..width).rev().find(differs) {
            right = x;
        }
    }
    Some((left, top, right - left + 1, bottom - top + 1))
}

impl eframe::App for TableApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        // One point per physical pixel, so the picture is exactly the renderer's.
        if let Some(native) = ctx.native_pixels_per_point() {
            if (ctx.pixels_per_point() - 1.0).abs() > 1e-3 && native > 0.0 {
                ctx.set_zoom_factor(1.0 / native);
            }
        }
        let ppp = ctx.pixels_per_point();
        let rect = ctx.viewport_rect();
        let width = (rect.width() * ppp).round().max(1.0) as u32;
        let height = (rect.height() * ppp).round().max(1.0) as u32;

        let now = self.now_ms();
        let clicks: Vec<egui::Pos2> = ui.input(|i| {
            i.events
                .iter()
                .filter_map(|e| match e {
                    egui::Event::PointerButton {
                        pos,
                        button: egui::PointerButton::Primary,
                        pressed: true,
                        ..
                    } => Some(*pos),
                    _ => None,
                })
                .collect()
        });
        for pos in clicks {
            let (x, y) = ((pos.x * ppp).floor() as i32, (pos.y * ppp).floor() as i32);
            self.view.click(width, height, x, y, now);
        }
        self.flush_events();

        if let Some(image) = self.view.picture(width, height, now) {
            self.show(&ctx, image);
        }
        if let Some(texture) = &self.texture {
            ui.painter().image(
                texture.id(),
                rect,
                egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0)),
                egui::Color32::WHITE,
            );
        }
        if self.view.is_busy(now) {
            ctx.request_repaint();
        } else {
            ctx.request_repaint_after(std::time::Duration::from_millis(250));
        }
    }
}

/// Opens a table window titled `title` and runs until it is closed.
pub fn run(
    view: Box<dyn TableView>,
    title: &str,
    options: WindowOptions,
    log: Option<Box<dyn Write>>,
) -> Result<(), String> {
    let mut viewport = egui::ViewportBuilder::default()
        .with_title(title)
        .with_inner_size([options.width as f32, options.height as f32])
        .with_min_inner_size([320.0, 240.0])
        .with_resizable(true);
    if let Some((x, y)) = options.position {
        viewport = viewport.with_position([x as f32, y as f32]);
    }
    let native = eframe::NativeOptions {
        viewport,
        ..Default::default()
    };
    let mut app = TableApp {
        view,
        log,
        start: Instant::now(),
        texture: None,
        shown: None,
    };
    app.flush_events();
    eframe::run_native(title, native, Box::new(|_cc| Ok(Box::new(app))))
        .map_err(|e| format!("cannot open the table window: {e}"))
}

/// Writes `events` as JSON lines (for tests and the headless player).
pub fn write_events(out: &mut dyn Write, events: &[(u64, Event)]) -> std::io::Result<()> {
    for (t, e) in events {
        writeln!(out, "{}", e.to_json(*t))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::changed_box;
    use image::{Rgba, RgbaImage};

    #[test]
    fn the_changed_box_holds_every_pixel_that_differs_and_no_more() {
        let a = RgbaImage::from_pixel(40, 30, Rgba([0, 90, 0, 255]));
        assert_eq!(changed_box(&a, &a), None);
        let mut b = a.clone();
        b.put_pixel(7, 20, Rgba([255, 255, 255, 255]));
        assert_eq!(changed_box(&a, &b), Some((7, 20, 1, 1)));
        b.put_pixel(31, 4, Rgba([0, 90, 1, 255]));
        b.put_pixel(3, 11, Rgba([0, 0, 0, 255]));
        assert_eq!(changed_box(&a, &b), Some((3, 4, 29, 17)));
    }
}
