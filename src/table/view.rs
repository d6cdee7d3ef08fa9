//! A game's table as the window shows it, the same for every game: the table model, the card art
//! and the last picture's scene (a picture is drawn again only when its scene changed). A game's
//! table model says how through `Model`.

use crate::table::harness::Event;
use crate::table::look::Look;
use crate::table::render::Renderer;
use crate::table::window::TableView;
use image::RgbaImage;

/// What the window's view needs of a game's table model.
pub trait Model {
    /// Where everything sits for one window size.
    type Layout;
    /// What one frame shows.
    type Scene: Clone + PartialEq;
    /// The layout of a `width`×`height` window at display `scale` in `look`, for cards whose
    /// height is `aspect` times their width.
    fn layout(look: Look, width: u32, height: u32, scale: f32, aspect: f32) -> Self::Layout;
    /// A click at window pixel (x, y) at `now_ms`, against the layout the window shows.
    fn click(&mut self, layout: &Self::Layout, x: i32, y: i32, now_ms: u64);
    /// What the window shows at `now_ms`.
    fn scene(&self, layout: &Self::Layout, now_ms: u64) -> Self::Scene;
    /// Draws a scene.
    fn draw(renderer: &mut Renderer, scene: &Self::Scene, layout: &Self::Layout) -> RgbaImage;
    /// True while the picture is changing or about to change.
    fn is_busy(&self, now_ms: u64) -> bool;
    /// Events logged since the last call, with their times.
    fn take_events(&mut self) -> Vec<(u64, Event)>;
}

/// A table model with its card art, as the window shows it.
pub struct View<M: Model> {
    pub table: M,
    pub renderer: Renderer,
    pub scale: f32,
    shown: Option<(u32, u32, M::Scene)>,
}

impl<M: Model> View<M> {
    pub fn new(table: M, renderer: Renderer, scale: f32) -> View<M> {
        View {
            table,
            renderer,
            scale,
            shown: None,
        }
    }

    /// The layout of a `width`×`height` window for this view's cards and scale.
    pub fn layout(&self, width: u32, height: u32) -> M::Layout {
        M::layout(
            self.renderer.look(),
            width,
            height,
            self.scale,
            self.renderer.theme().aspect(),
        )
    }
}

impl<M: Model> TableView for View<M> {
    fn click(&mut self, width: u32, height: u32, x: i32, y: i32, now_ms: u64) {
        let layout = self.layout(width, height);
        self.table.click(&layout, x, y, now_ms);
    }

    fn picture(&mut self, width: u32, height: u32, now_ms: u64) -> Option<RgbaImage> {
        let layout = self.layout(width, height);
        let scene = self.table.scene(&layout, now_ms);
        if self.shown.as_ref() == Some(&(width, height, scene.clone())) {
            return None;
        }
        let image = M::draw(&mut self.renderer, &scene, &layout);
        self.shown = Some((width, height, scene));
        Some(image)
    }

    fn is_busy(&self, now_ms: u64) -> bool {
        self.table.is_busy(now_ms)
    }

    fn take_events(&mut self) -> Vec<(u64, Event)> {
        self.table.take_events()
    }
}
