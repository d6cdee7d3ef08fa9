//! The practice tables' shared parts: each game draws its own table (its layout, scene and model
//! live in its module under `games/`); what every game's table is drawn with and run by is here.
//!
//! - `chrome`: the felt, toolbar, status line and Undo board dialog every game's table shares.
//! - `look`: the table's look, its own or MSC's (`--look practice|msc`).
//! - `rect`: rectangles in window pixels.
//! - `theme`, `paint`, `font`: card art (built-in or aisleriot `.svgz`) and drawing primitives;
//!   `variant`: changes of a theme's faces (borderless, four-colour, cream) for unseen art.
//! - `render`: the renderer every game draws with (felt and card faces kept between frames).
//! - `harness`: deal sources, faults, the event log and animation timing every table shares.
//! - `interrupt`: MSC's interruptions (a dialog over the table) the table raises on request.
//! - `session`: one game on a table: the deal, the position, Undo, Undo board and New deal.
//! - `view`: a game's table model with its card art, as the window shows it (`Model`).
//! - `window`: the eframe window that shows a game's pixels and feeds it clicks.
pub mod chrome;
pub mod font;
pub mod harness;
pub mod interrupt;
pub mod look;
pub mod paint;
pub mod rect;
pub mod render;
pub mod session;
pub mod theme;
pub mod variant;
pub mod view;
pub mod window;
