//! The practice table: a playable Pyramid window with MSC's rules and layout, drawn by one renderer
//! that also works without a display.
//!
//! - `chrome`: the felt, toolbar, status line and Undo board dialog every game's table shares.
//! - `layout`: where slots, piles and buttons are for a window size and scale.
//! - `theme`, `paint`, `font`: card art (built-in or aisleriot `.svgz`) and drawing primitives.
//! - `scene`, `render`: what a frame shows, and the one function that draws it.
//! - `game`: clicks → moves, Undo, Undo board, animation timing, faults, the event log.
//! - `window`: the eframe window that shows `render`'s pixels and feeds clicks to `game`.

pub mod chrome;
pub mod font;
pub mod game;
pub mod layout;
pub mod paint;
pub mod render;
pub mod scene;
pub mod theme;
pub mod window;
