//! Vision, pure functions of images: find the table in a frame (`locate`, with the layout `profile`),
//! learn the cards once (`calibrate` into a `templates` set), and read every card (`recognize`).

pub mod accuracy;
pub mod calibrate;
pub mod edges;
pub mod groups;
pub mod labels;
pub mod locate;
pub mod profile;
pub mod reader;
pub mod recognize;
pub mod templates;

use image::RgbaImage;
use locate::{find_buttons, locate, Located, NotATable};
use profile::Profile;
use recognize::{read_board, Board, Matcher};

/// Reads a frame: checks that it is a table, locates it and reads every card. Refuses frames with the
/// Undo board dialog open and frames where most cards cannot be read (cards moving, something over
/// the table).
pub fn read_frame(
    frame: &RgbaImage,
    profile: &Profile,
    matcher: &mut Matcher,
) -> Result<(Board, Located), NotATable> {
    let e = edges::Edges::new(frame);
    if find_buttons(frame, &e, profile).ok.is_some()
        && matches!(profile.controls, profile::Controls::Toolbar)
    {
        return Err(NotATable("a dialog covers the table (Undo board?)".into()));
    }
    let located = locate(frame, &e, profile, Some(matcher.aspect))?;
    matcher.prepare(located.card_w);
    let board = read_board(frame, &e, &located, matcher, profile.row_step);
    let unknown = board.unknowns().len();
    if unknown * 3 > board.shown().max(1) {
        return Err(NotATable(format!(
            "{unknown} of {} cards cannot be read: cards moving, or something over the table",
            board.shown()
        )));
    }
    Ok((board, located))
}
