//! The one place that draws the practice table: (scene, layout, theme) → RGBA image. The window shows
//! exactly these pixels and `solitaire-agent render` writes them to a PNG, so a capture of the window
//! and a headless render of the same position are the same picture.

use crate::table::chrome::{self};
use crate::table::look::Look;
use crate::table::theme::{Faces, Theme};
use resvg::tiny_skia::Pixmap;

/// Draws frames of the table with one theme in one look, keeping the card faces and the felt of
/// the last size.
pub struct Renderer {
    theme: Theme,
    look: Look,
    faces: Option<Faces>,
    felt: Option<Pixmap>,
}

impl Renderer {
    /// The practice look.
    pub fn new(theme: Theme) -> Renderer {
        Renderer::with_look(theme, Look::Practice)
    }

    pub fn with_look(theme: Theme, look: Look) -> Renderer {
        Renderer {
            theme,
            look,
            faces: None,
            felt: None,
        }
    }

    pub fn theme(&self) -> &Theme {
        &self.theme
    }

    pub fn look(&self) -> Look {
        self.look
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
            let mut felt = chrome::felt(width, height);
            if let Some(v) = self.theme.variant() {
                v.apply_to_felt(&mut felt);
            }
            self.felt = Some(felt);
        }
        self.felt.clone().expect("felt")
    }
}

/// What every game's frame draws last, in this order: the cards in flight, the status line, the
/// Undo board dialog when it is open and an interruption when one shows.
pub fn draw_top_layers(
    pm: &mut Pixmap,
    faces: &Faces,
    chrome: &chrome::Chrome,
    flights: &[crate::table::harness::Flight],
    status: &str,
    dialog: chrome::DialogShown,
    interruption: Option<crate::table::interrupt::Interruption>,
) {
    for flight in flights {
        let face = flight.card.map_or(faces.back(), |c| faces.card(c));
        crate::table::paint::draw_pixmap(
            pm,
            face,
            flight.x.round() as i32,
            flight.y.round() as i32,
        );
    }
    chrome::draw_status(pm, chrome, status);
    match dialog {
        chrome::DialogShown::Closed => {}
        chrome::DialogShown::Opening => chrome::dim(pm, chrome),
        chrome::DialogShown::Open => chrome::draw_dialog(pm, chrome),
    }
    if let Some(kind) = interruption {
        chrome::draw_interruption(pm, chrome, kind);
    }
}
