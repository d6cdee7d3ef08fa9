//! The egui control panel that `solitaire-agent` (and `cargo run --release`) opens: state shared
//! with the agent's thread (`shared`) apart from drawing (`app`).

pub mod app;
pub mod arrange;
pub mod shared;

/// The panel window's title.
pub const TITLE: &str = "solitaire-agent";

/// Opens the panel for `game` (none: the game played last time) and runs until it is closed; with
/// `open_table`, the game's practice table opens beside it when no game window is open.
pub fn run(game: Option<&'static dyn crate::games::Game>, open_table: bool) -> Result<(), String> {
    let viewport = egui::ViewportBuilder::default()
        .with_title(TITLE)
        .with_inner_size([1100.0, 720.0])
        .with_min_inner_size([arrange::PANEL_MIN_W, 420.0]);
    let options = eframe::NativeOptions {
        viewport,
        ..Default::default()
    };
    let mut app = app::PanelApp::new();
    if let Some(game) = game {
        app.choose_game(game);
    }
    if open_table && !app.has_game_window() {
        // Opened with the first frame, once the screen's size is known.
        app.open_table_soon();
    }
    eframe::run_native(TITLE, options, Box::new(|_cc| Ok(Box::new(app))))
        .map_err(|e| format!("cannot open the panel (is there a display?): {e}"))
}
