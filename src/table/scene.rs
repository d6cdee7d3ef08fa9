//! What one frame of the table shows, in window pixels: the cards at rest, the cards in flight, the
//! selection, the dialog and the status line. The table model builds it; the renderer only draws it.

use crate::cards::Card;
use crate::games::pyramid::position::{Position, PYRAMID_SIZE};
use crate::games::pyramid::state::{State, MAX_RECYCLES};

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

/// A card moving across the table, drawn over everything else.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Flight {
    /// The face shown, or None for a card back.
    pub card: Option<Card>,
    /// Top-left corner in pixels.
    pub x: f32,
    pub y: f32,
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
    pub dialog: bool,
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
            dialog: false,
            status,
        }
    }
}

/// The status line: deal, passes left, steps taken, or "Board cleared!".
pub fn status_line(deal: &str, state: &State, steps: usize) -> String {
    if state.is_cleared() {
        format!("BOARD CLEARED!   DEAL {deal}   STEPS {steps}")
    } else {
        format!(
            "DEAL {deal}   PASSES LEFT {}   STEPS {steps}",
            MAX_RECYCLES - state.recycles
        )
    }
}
