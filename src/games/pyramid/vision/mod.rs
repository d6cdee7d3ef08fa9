//! Reading Pyramid's table: find it in a frame (`locate`, fitting a layout `profile`), read every
//! place with the shared recogniser (`board`), refuse frames with something astray (`stray`), read
//! frame after frame cheaply (`reader`), and measure all of it against the practice table
//! (`accuracy`), and guided calibration's proposed labels (`proposal_check`); calibration's
//! templates are read back on their own frames before they are kept (`read_back`).

pub mod accuracy;
pub mod board;
pub mod locate;
pub mod profile;
pub mod proposal_check;
pub mod read_back;
pub mod reader;
pub mod stray;

use crate::vision::buttons::find_buttons;
use crate::vision::edges;
use crate::vision::recognize::Matcher;
use board::{read_board, Board};
use image::RgbaImage;
use locate::{first_fit, locate_from_scanning, second_look, Located, NotATable, Objective};
use profile::Profile;

/// Reads a frame: checks that it is a table, locates it and reads every card. Refuses frames with the
/// Undo board dialog open and frames where most cards cannot be read (cards moving, something over
/// the table).
pub fn read_frame(
    frame: &RgbaImage,
    profile: &Profile,
    matcher: &mut Matcher,
) -> Result<(Board, Located), NotATable> {
    read_frame_timed(frame, profile, matcher).0
}

/// `read_frame`, with how long finding the table took (edges, dialog check, locate), in ms.
///
/// A frame refused as located for the whole table gets a second look (`second_look`: by the
/// corners of the cards there are, the fits near their best, then the wide search): a pyramid
/// with few cards left, or borderless cards, can be located wrong the first way. The
/// second read stands only if it passes every check and reads every card (no place unsure: a
/// window over part of the pyramid, refused the first time for showing where no card belongs, was
/// read the second time with six places unsure under it); if it does not, the first refusal is
/// what is reported.
pub fn read_frame_timed(
    frame: &RgbaImage,
    profile: &Profile,
    matcher: &mut Matcher,
) -> (Result<(Board, Located), NotATable>, f64) {
    let start = std::time::Instant::now();
    let aspect = Some(matcher.aspect);
    // The first fit needs no edges of the full frame: both at once.
    let (e, first) = rayon::join(
        || edges::Edges::new(frame),
        || first_fit(frame, profile, aspect, Objective::Table),
    );
    if find_buttons(frame, &e, &profile.controls).ok.is_some()
        && matches!(profile.controls, crate::vision::buttons::Controls::Toolbar)
    {
        let ms = start.elapsed().as_secs_f64() * 1000.0;
        return (Err(NotATable(DIALOG_OPEN.into())), ms);
    }
    // (Borderless cards' first fit can lie further off than refining reaches: see
    // `centre_scanned`.)
    let located = locate_from_scanning(frame, &e, profile, aspect, first, matcher.borderless);
    let mut locate_ms = start.elapsed().as_secs_f64() * 1000.0;
    let first_score = located.as_ref().ok().map(|l| l.score);
    let refused = match located.and_then(|l| read_located(frame, &e, profile, l, matcher)) {
        Ok(read) => return (Ok(read), locate_ms),
        Err(refused) => refused,
    };
    let mut looks = second_look(frame, &e, profile, aspect);
    loop {
        let again = std::time::Instant::now();
        let Some(located) = looks.next() else {
            return (Err(refused), locate_ms);
        };
        locate_ms += again.elapsed().as_secs_f64() * 1000.0;
        if let Ok((board, located)) = read_located(frame, &e, profile, located, matcher) {
            if stands(Objective::Corners, &board) || found_better(first_score, &located) {
                return (Ok((board, located)), locate_ms);
            }
        }
    }
}

/// Whether a board read from a table located by `objective` stands: one located by the corners
/// of the cards there are (the second look) only with every card read, or unsure only between
/// the suits of one rank (`Board::unread`): such a place shows a card's index where the fit puts
/// a card, as a place read does. (Ornamental's covered fours, fives, eights and nines in the msc
/// look hide their suit under the card over them: half-cleared tables the first search found a
/// few pixels off were read from the cards' corners with every place right or unsure between its
/// own suits, and refused for it.)
pub fn stands(objective: Objective, board: &Board) -> bool {
    objective == Objective::Table || board.unread() == 0
}

/// Whether a second look's fit shows the pyramid's edges (`Located::score`) at least
/// `FOUND_BETTER` times as strongly as the first search's fit did (`first`, none when it found
/// no table): then the first search missed the table, and a read from the second fit stands as a
/// first read does, with places left unsure (ornamental's covered cards in the msc look, whose
/// suit the card over them hides, left every read from a second look standing on none; at
/// 1920x1080 its deal 1 was first found 45 px right and 20 px high, edges 23.5, the table from the
/// cards' corners 62.6). A window over part of a table found right leaves no other fit that
/// strong.
pub fn found_better(first: Option<f32>, second: &Located) -> bool {
    first.is_some_and(|score| second.score >= FOUND_BETTER * score)
}

/// See `found_better`.
const FOUND_BETTER: f32 = 2.0;

/// Whether more than a third of the places showing something are read as no card known, not
/// even its rank (`Board::unread`): the table located off its cards, cards moving, or something
/// over them. (Ornamental's covered fours, fives, eights and nines in the msc look show their
/// rank and hide their suit: deal 1 has 11 of 29 such, and was refused from every fit.)
pub fn mostly_unread(board: &Board) -> bool {
    board.unread() * 3 > board.shown().max(1)
}

/// Reads every card of a located frame; refuses a board most of whose cards cannot be read, or
/// with a card off its place or something where no card belongs.
fn read_located(
    frame: &RgbaImage,
    e: &edges::Edges,
    profile: &Profile,
    located: Located,
    matcher: &mut Matcher,
) -> Result<(Board, Located), NotATable> {
    matcher.prepare(located.card_w);
    matcher.cover_at(profile.row_step);
    let board = read_board(frame, e, &located, matcher, profile.row_step);
    if mostly_unread(&board) {
        return Err(unreadable(&board));
    }
    in_place(frame, &located, &board)?;
    Ok((board, located))
}

/// Why a frame with the Undo board dialog open is refused.
pub const DIALOG_OPEN: &str = "a dialog covers the table (Undo board?)";

/// Why a board most of whose cards could not be read is refused.
pub fn unreadable(board: &Board) -> NotATable {
    NotATable(format!(
        "{} of {} cards cannot be read: not the game's table, cards moving, or something over it",
        board.unread(),
        board.shown()
    ))
}

/// Refuses a board read from a frame in which a card lies off its place or something lies on the
/// table where no card belongs (see `stray`): cards in motion, or a dialog or window over the
/// table.
pub fn in_place(frame: &RgbaImage, located: &Located, board: &Board) -> Result<(), NotATable> {
    if let Some(&place) = board.misplaced.first() {
        let card = board
            .at(place)
            .card()
            .map_or(String::new(), |c| format!(" ({c})"));
        return Err(NotATable(format!(
            "the card read at {}{card} lies off its place: cards moving",
            board::place_name(place)
        )));
    }
    match stray::find_stray(frame, located, board) {
        Some(stray) => Err(NotATable(stray.to_string())),
        None => Ok(()),
    }
}
