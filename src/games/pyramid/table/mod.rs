//! Pyramid's practice table: where its slots and piles are (`layout`), what a frame shows and how it
//! is drawn (`scene`), and the model that turns clicks into moves (`game`).
pub mod game;
pub mod layout;
pub mod scene;

/// The Pyramid window's title (a contract: the agent finds the table by it).
pub const TITLE: &str = "Pyramid Practice Table";
