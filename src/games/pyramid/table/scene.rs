//! What one frame of the table shows, in window pixels: the cards at rest, the cards in flight, the
//! selection, the dialog and the status line. The table model builds it; the renderer only draws it.

use crate::cards::Card;
use crate::games::pyramid::position::{Position, PYRAMID_SIZE};
use crate::games::pyramid::state::{State, MAX_RECYCLES};
use crate::games::pyramid::table::layout::Layout;
use crate::table::chrome::{self, draw_toolbar, empty_pile, highlight, DialogShown};
use crate::table::harness::Flight;
use crate::table::paint;
use crate::table::render::{draw_top_layers, Renderer};
use image::RgbaImage;
use resvg::tiny_skia::Pixmap;

/// What is selected (highlighted) on the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selection {
    Pyramid(Position),
    Waste,
}

impl Selection {
    /// Parses `pyramid:12`, `12` or `waste`.
    pub fn parse(text: &str) -> Result<Selection, String> {
        let t = text.trim().to_ascii_lowercase();
        if t == "waste" {
            return Ok(Selection::Waste);
        }
        let n = t.strip_prefix("pyramid:").unwrap_or(&t);
        match n.parse::<u8>() {
            Ok(i) if (i as usize) < PYRAMID_SIZE => Ok(Selection::Pyramid(Position(i))),
            _ => Err(format!(
                "'{text}' is not a slot: use pyramid:0 … pyramid:27 (top row first) or waste"
            )),
        }
    }
}

/// One frame's content.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    pub pyramid: [Option<Card>; PYRAMID_SIZE],
    /// Cards in the stock; its top card is shown face up on the pile.
    pub stock_count: usize,
    pub stock_top: Option<Card>,
    pub waste_top: Option<Card>,
    pub recycles_left: u8,
    pub selected: Option<Selection>,
    pub flights: Vec<Flight>,
    pub dialog: DialogShown,
    /// An interruption showing over everything (`--interrupt`).
    pub interruption: Option<crate::table::interrupt::Interruption>,
    pub status: String,
}

impl Scene {
    /// A still picture of `state`.
    pub fn still(state: &State, selected: Option<Selection>, status: String) -> Scene {
        Scene {
            pyramid: state.pyramid,
            stock_count: state.stock.len(),
            stock_top: state.stock_top(),
            waste_top: state.waste_top(),
            recycles_left: MAX_RECYCLES - state.recycles,
            selected,
            flights: Vec::new(),
            dialog: DialogShown::Closed,
            interruption: None,
            status,
        }
    }
}

/// The status line: deal, passes left, steps taken and MSC's score, or "Board cleared!".
pub fn status_line(deal: &str, state: &State, steps: usize) -> String {
    let score = crate::games::pyramid::score::points_of(state);
    if state.is_cleared() {
        format!("BOARD CLEARED!   DEAL {deal}   STEPS {steps}   SCORE {score}")
    } else {
        format!(
            "DEAL {deal}   PASSES LEFT {}   STEPS {steps}   SCORE {score}",
            MAX_RECYCLES - state.recycles
        )
    }
}

/// Pyramid's drawing, on the renderer every game shares.
impl Renderer {
    /// The layout of a `width`×`height` window at `scale` for this theme's cards.
    pub fn layout(&self, width: u32, height: u32, scale: f32) -> Layout {
        Layout::for_look(self.look(), width, height, scale, self.theme().aspect())
    }

    /// Draws `scene` laid out by `layout`.
    pub fn render(&mut self, scene: &Scene, layout: &Layout) -> RgbaImage {
        let pm = self.render_pixmap(scene, layout);
        // Every pixel is opaque (the felt is), so premultiplied and straight RGBA are the same.
        RgbaImage::from_raw(layout.width, layout.height, pm.take()).expect("image size")
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

        draw_top_layers(
            &mut pm,
            faces,
            &layout.chrome,
            &scene.flights,
            &scene.status,
            scene.dialog,
            scene.interruption,
        );
        pm
    }
}
