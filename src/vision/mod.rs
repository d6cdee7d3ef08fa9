//! Vision every game shares, pure functions of images: the recogniser of card corners
//! (`recognize`, with the `templates` it compares against, made once by `calibrate`), the edges and
//! felt of a frame, the buttons the agent presses, and a dialog over the table (`dialog`). Where a game's cards lie on its table is the
//! game's own (`games::pyramid::vision`, `games::tripeaks::vision`).

pub mod backs;
pub mod buttons;
pub mod calibrate;
pub(crate) mod card_edges;
pub mod dialog;
pub(crate) mod dots;
pub mod edges;
pub mod felt;
pub(crate) mod gap;
pub mod glyph_box;
pub mod groups;
pub mod label_check;
pub mod labels;
pub mod proposals;
pub mod recognize;
pub(crate) mod sampling;
pub mod scratch;
pub(crate) mod showing_suits;
pub(crate) mod suit_beside;
pub mod suits;
pub mod templates;
