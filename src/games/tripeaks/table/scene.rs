//! What one frame of TriPeaks' table shows (the tableau with its face-down cards, the stock, the
//! waste, cards in flight, the dialog and the status line) and the one function that draws it, so
//! that the window and `render --game tripeaks` give the same picture.

use super::layout::Layout;
use crate::cards::Card;
use crate::games::tripeaks::state::State;
use crate::games::tripeaks::tableau::TABLEAU;
use crate::table::chrome::{draw_toolbar, empty_pile, DialogShown};
use crate::table::harness::Flight;
use crate::table::paint;
use crate::table::render::{draw_top_layers, Renderer};
use image::RgbaImage;

/// One frame's content.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    /// Each tableau place: its card and whether it shows its face.
    pub tableau: [Option<(Card, bool)>; TABLEAU],
    /// Cards in the stock (face down).
    pub stock_count: usize,
    pub waste_top: Option<Card>,
    pub flights: Vec<Flight>,
    pub dialog: DialogShown,
    /// An interruption showing over everything (`--interrupt`).
    pub interruption: Option<crate::table::interrupt::Interruption>,
    pub status: String,
}

impl Scene {
    /// A still picture of `state`.
    pub fn still(state: &State, status: String) -> Scene {
        Scene {
            tableau: std::array::from_fn(|i| state.tableau()[i].map(|c| (c, state.is_face_up(i)))),
            stock_count: state.stock().len(),
            waste_top: state.waste_top(),
            flights: Vec::new(),
            dialog: DialogShown::Closed,
            interruption: None,
            status,
        }
    }
}

/// The status line: deal, cards left in the tableau and stock, steps taken, or "Board cleared!".
pub fn status_line(deal: &str, state: &State, steps: usize) -> String {
    if state.is_cleared() {
        format!("BOARD CLEARED!   DEAL {deal}   STEPS {steps}")
    } else {
        format!(
            "DEAL {deal}   TABLEAU {}   STOCK {}   STEPS {steps}",
            state.tableau().iter().flatten().count(),
            state.stock().len()
        )
    }
}

/// Draws `scene` laid out by `layout` with the renderer's card art.
pub fn render(renderer: &mut Renderer, scene: &Scene, layout: &Layout) -> RgbaImage {
    let (mut pm, faces) =
        renderer.canvas(layout.width, layout.height, layout.card_w, layout.card_h);
    draw_toolbar(&mut pm, &layout.chrome);
    // Deal order is top row first, so each lower row is drawn over the one it covers.
    for (slot, place) in layout.slots.iter().zip(&scene.tableau) {
        match place {
            Some((card, true)) => paint::draw_pixmap(&mut pm, faces.card(*card), slot.x, slot.y),
            Some((_, false)) => paint::draw_pixmap(&mut pm, faces.back(), slot.x, slot.y),
            None => {}
        }
    }
    let stock = layout.stock;
    if scene.stock_count == 0 {
        empty_pile(&mut pm, stock, &layout.chrome);
    } else {
        let depth = (scene.stock_count - 1).min(3) as i32;
        let d = (layout.card_w / 40).max(2);
        for k in (0..=depth).rev() {
            paint::draw_pixmap(&mut pm, faces.back(), stock.x - k * d, stock.y - k * d);
        }
    }
    match scene.waste_top {
        Some(card) => paint::draw_pixmap(&mut pm, faces.card(card), layout.waste.x, layout.waste.y),
        None => empty_pile(&mut pm, layout.waste, &layout.chrome),
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
    RgbaImage::from_raw(layout.width, layout.height, pm.take()).expect("image size")
}
