//! Vision, pure functions of images: find the table in a frame (`locate`, with the layout `profile`),
//! learn the cards once (`calibrate` into a `templates` set), and read every card (`recognize`).

pub mod edges;
pub mod locate;
pub mod profile;
