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
            let colour = egui::ColorImage::from_rgba_unmultiplied(
                [width as usize, height as usize],
                image.as_raw(),
            );
            match self.texture.as_mut() {
                Some(t) => t.set(colour, egui::TextureOptions::NEAREST),
                None => {
                    self.texture =
                        Some(ctx.load_texture("table", colour, egui::TextureOptions::NEAREST))
                }
            }
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
