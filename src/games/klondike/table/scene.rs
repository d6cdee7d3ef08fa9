//! What one frame of Klondike's table shows (the piles with their face-down cards, the stock, the
//! waste, the foundations, the selected cards, cards in flight, the dialog and the status line)
//! and the one function that draws it, so that the window and `render --game klondike` give the
//! same picture.

use super::layout::Layout;
use crate::cards::{Card, Rank, Suit};
use crate::games::klondike::rules::Table as Position;
use crate::games::klondike::Draw;
use crate::table::chrome::recycle_mark;
use crate::table::chrome::{draw_toolbar, empty_pile, highlight, DialogShown};
use crate::table::harness::Flight;
use crate::table::paint;
use crate::table::render::{draw_top_layers, Renderer};
use image::RgbaImage;

/// Cards picked up by a first click, waiting for the click that says where they go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selection {
    /// The waste's top card.
    Waste,
    /// A foundation's top card, by suit index.
    Foundation(u8),
    /// Pile `pile`'s cards from `from` (counted from the bottom) up: a face-up run.
    Pile { pile: u8, from: u8 },
}

/// One frame's content.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    /// Each pile's cards from the bottom, and how many of them are face down.
    pub piles: Vec<(Vec<Card>, usize)>,
    pub stock_count: usize,
    /// The waste cards that show, its top card last (three at most with Draw 3, else one).
    pub waste: Vec<Card>,
    /// Each foundation's top card, by suit index.
    pub foundations: [Option<Card>; 4],
    pub selection: Option<Selection>,
    pub flights: Vec<Flight>,
    pub dialog: DialogShown,
    /// An interruption showing over everything (`--interrupt`).
    pub interruption: Option<crate::table::interrupt::Interruption>,
    pub status: String,
}

impl Scene {
    /// A still picture of `position`.
    pub fn still(position: &Position, status: String) -> Scene {
        let shown = Layout::waste_shown(position);
        Scene {
            piles: position
                .piles
                .iter()
                .map(|p| (p.cards.clone(), p.down))
                .collect(),
            stock_count: position.stock.len(),
            waste: position.waste[position.waste.len() - shown..].to_vec(),
            foundations: std::array::from_fn(|f| foundation_top(position, f)),
            selection: None,
            flights: Vec::new(),
            dialog: DialogShown::Closed,
            interruption: None,
            status,
        }
    }
}

/// The top card of the foundation of suit index `f`, if any.
pub fn foundation_top(position: &Position, f: usize) -> Option<Card> {
    let n = *position.foundations.get(f)?;
    Rank::new(n).map(|rank| Card::new(rank, Suit::ALL[f]))
}

/// The status line: deal, draw, cards on the foundations, steps taken, or "Deal won!".
pub fn status_line(deal: &str, position: &Position, steps: usize) -> String {
    let draw = match position.draw {
        Draw::One => 1,
        Draw::Three => 3,
    };
    if position.is_won() {
        format!("DEAL WON!   DEAL {deal}   STEPS {steps}")
    } else {
        format!(
            "DEAL {deal}   DRAW {draw}   FOUNDATIONS {}   STOCK {}   STEPS {steps}",
            position.cleared(),
            position.stock.len()
        )
    }
}

/// Draws `scene` laid out by `layout` with the renderer's card art.
pub fn render(renderer: &mut Renderer, scene: &Scene, layout: &Layout) -> RgbaImage {
    let (mut pm, faces) =
        renderer.canvas(layout.width, layout.height, layout.card_w, layout.card_h);
    draw_toolbar(&mut pm, &layout.chrome);
    // The stock: a few backs stacked, or an empty place (marked when a recycle would refill it).
    let stock = layout.stock;
    if scene.stock_count == 0 {
        empty_pile(&mut pm, stock, &layout.chrome);
        if !scene.waste.is_empty() {
            recycle_mark(&mut pm, stock);
        }
    } else {
        let depth = (scene.stock_count - 1).min(3) as i32;
        let d = (layout.card_w / 40).max(2);
        for k in (0..=depth).rev() {
            paint::draw_pixmap(&mut pm, faces.back(), stock.x - k * d, stock.y - k * d);
        }
    }
    if scene.waste.is_empty() {
        empty_pile(&mut pm, layout.waste, &layout.chrome);
    }
    for (k, card) in scene.waste.iter().enumerate() {
        let r = layout.waste_card(k);
        paint::draw_pixmap(&mut pm, faces.card(*card), r.x, r.y);
    }
    for (f, top) in scene.foundations.iter().enumerate() {
        let r = layout.foundations[f];
        match top {
            Some(card) => paint::draw_pixmap(&mut pm, faces.card(*card), r.x, r.y),
            None => empty_pile(&mut pm, r, &layout.chrome),
        }
    }
    for (i, (cards, down)) in scene.piles.iter().enumerate() {
        if cards.is_empty() {
            empty_pile(&mut pm, layout.piles[i], &layout.chrome);
        }
        for (k, card) in cards.iter().enumerate() {
            let r = layout.pile_card(i, k, *down);
            let face = if k < *down {
                faces.back()
            } else {
                faces.card(*card)
            };
            paint::draw_pixmap(&mut pm, face, r.x, r.y);
        }
    }
    if let Some(selection) = scene.selection {
        for r in selected_rects(scene, layout, selection) {
            highlight(&mut pm, r, &layout.chrome);
        }
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

/// The places of the selected cards (each card of a selected run).
fn selected_rects(
    scene: &Scene,
    layout: &Layout,
    selection: Selection,
) -> Vec<crate::table::rect::Rect> {
    match selection {
        Selection::Waste if !scene.waste.is_empty() => {
            vec![layout.waste_card(scene.waste.len() - 1)]
        }
        Selection::Foundation(f) => vec![layout.foundations[f as usize]],
        Selection::Pile { pile, from } => match scene.piles.get(pile as usize) {
            Some((cards, down)) => (from as usize..cards.len())
                .map(|k| layout.pile_card(pile as usize, k, *down))
                .collect(),
            None => Vec::new(),
        },
        Selection::Waste => Vec::new(),
    }
}
