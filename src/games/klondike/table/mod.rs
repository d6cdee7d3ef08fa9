//! Klondike's practice table: where its cards lie in a window (`layout`), what a frame shows and
//! how it is drawn (`scene`), and the game behind the window: clicks → moves, Undo, Undo board,
//! New deal, animation, faults and the event log (`game`). The felt, toolbar, status line and
//! dialog are the shared `table::chrome`; the window is the shared `table::window`.

pub mod game;
pub mod layout;
pub mod scene;

/// The window's title (a contract: the agent finds the table by it).
pub const TITLE: &str = "Klondike Practice Table";
