//! Suits of one colour (clubs and spades, hearts and diamonds) are where a reader is tempted to
//! guess. These tests read themes whose suit glyphs are small or odd, and one that prints the suit
//! beside the rank, outside the usual index corner: no card may ever be read as another card.

use solitaire_agent::cards::Deck;
use solitaire_agent::games::pyramid::state::State;
use solitaire_agent::games::pyramid::table::scene::{Scene, Selection};
use solitaire_agent::games::pyramid::vision::accuracy::{
    calibrate_rendered, calibrate_rendered_at, calibration_frames, calibration_frames_at, measure,
    positions, Tally, CALIBRATION_SEED,
};
use solitaire_agent::games::pyramid::vision::board::{read_board, Board};
use solitaire_agent::games::pyramid::vision::locate::locate;
use solitaire_agent::games::pyramid::vision::profile::Profile;
use solitaire_agent::games::pyramid::vision::read_frame;
use solitaire_agent::table::look::Look;
use solitaire_agent::table::render::Renderer;
use solitaire_agent::table::theme::Theme;
use solitaire_agent::vision::calibrate::{corners, seen_whole, templates_from, StockSeen};
use solitaire_agent::vision::edges::Edges;
use solitaire_agent::vision::recognize::{Matcher, Seen};
use solitaire_agent::vision::suits::{SuitPrototypes, SUIT_BOX, SUIT_MARGIN};

/// A window size: width, height, display scale.
type Size = (u32, u32, f32);

/// A position of a deal (see `positions`): the deal's seed, which position.
type Deal = (u64, usize);

#[test]
fn cards_of_one_rank_and_colour_are_never_read_as_each_other() {
    // Sizes where each of these themes read a club as a spade, a queen as a jack (rheinland's
    // D and B), or a six as an eight before the duel lined up each glyph on its own.
    let cases: [(&str, &[Size]); 3] = [
        ("gnomangelo", &[(2560, 1440, 2.5), (1024, 768, 1.0)]),
        ("orell", &[(1024, 768, 1.0), (2560, 1440, 2.5)]),
        ("rheinland", &[(1920, 1080, 1.0), (1024, 768, 1.0)]),
    ];
    let mut wrong = Vec::new();
    for (theme, sizes) in cases {
        let mut r = Renderer::new(Theme::load(theme).unwrap());
        let templates = calibrate_rendered(&mut r, &Deck::shuffled(CALIBRATION_SEED)).unwrap();
        let mut matcher = Matcher::new(&templates);
        assert!(matcher.shows_suits(), "{theme}: its corners show the suits");
        for &size in sizes {
            let tally = measure(&mut r, &mut matcher, size, 0..5);
            eprintln!(
                "{theme} {size:?}: {} right, {} unsure, {} wrong of {}",
                tally.right,
                tally.unsure,
                tally.wrong,
                tally.places()
            );
            // Nearly every card is read, so that "no wrong read" is not won by reading nothing.
            assert!(
                tally.right * 100 >= tally.places() * 93,
                "{theme} {size:?}: only {} of {} right",
                tally.right,
                tally.places()
            );
            wrong.extend(
                tally
                    .confusions
                    .iter()
                    .map(|(truth, read)| format!("{theme} {size:?}: {truth} read as {read}")),
            );
        }
    }
    assert!(wrong.is_empty(), "wrong reads:\n{}", wrong.join("\n"));
}

/// Where a theme draws its suit glyph is learned at calibration, from the cards seen whole
/// (`suits::learn_box`). In a box placed at the same card widths for every theme, anglo's small
/// glyph lay in the top rows with a number card's corner pip and a court card's picture beside
/// it, plastic's and paris's below it with their pips: prototypes made there told 8, 27 and 20 of
/// the 31 cards seen whole, each left out, the other suit of their colour. Learned where it lies,
/// each theme's glyphs tell every card seen whole on other deals, at other sizes, its own suit.
#[test]
fn the_suit_glyph_is_looked_for_where_calibration_found_it() {
    let cases = [
        ("anglo", Look::Msc),
        ("plastic", Look::Practice),
        ("paris", Look::Practice),
    ];
    for (theme, look) in cases {
        let mut r = Renderer::with_look(Theme::load(theme).unwrap(), look);
        let templates = calibrate_rendered(&mut r, &Deck::shuffled(CALIBRATION_SEED)).unwrap();
        let suit_box = templates
            .manifest
            .suit_box
            .expect("the glyph's box is saved");
        assert_ne!(suit_box, SUIT_BOX, "{theme}: the box is learned");
        let prototypes = SuitPrototypes::new(templates.suit_images.as_deref().unwrap(), suit_box)
            .expect("the glyphs tell the suits apart");
        for (seed, (w, h, scale)) in [(7, (1024, 768, 1.0)), (12, (1920, 1080, 1.5))] {
            let deck = Deck::shuffled(seed);
            let frames = calibration_frames_at(&mut r, &deck, (w, h), scale).unwrap();
            let profile = Profile::of_look(look);
            let cut = corners(&frames, &profile, StockSeen::OnWaste).unwrap();
            let seen = seen_whole(&cut, &deck.0);
            assert!(seen.len() >= 30, "{theme}: {} cards seen whole", seen.len());
            for card in seen {
                let glyph = prototypes.look(&frames[card.frame], card.x, card.y, card.card_w);
                let own = card.suit.index();
                for other in (0..4).filter(|&o| o != own) {
                    let duel = prototypes.duel(&glyph, own, other);
                    assert!(
                        duel > SUIT_MARGIN,
                        "{theme} deal {seed} at {w}x{h}@{scale}, frame {}: a {:?} glyph is \
                         suit {other}'s by {duel:.2}",
                        card.frame,
                        card.suit
                    );
                }
            }
        }
    }
}

/// KDE's nicu-white in MSC's look: its faces have no border, and a covered card shows its rank
/// with no suit under it, so only the cards seen whole (the bottom row, the stock, the waste)
/// show their suits, by the glyph under the rank. Calibration learned those glyphs on a table
/// located again by the usual search, 26 px right of its cards at 1440×900, read every club on
/// the waste back as a spade, and refused the art. Learned where its corners were cut, in the
/// usual box (a whole glyph; the learned one, a tenth of a card, read 15 places of 2,880 as the
/// other suit of their colour), the set is kept: four deals in the smallest and the largest
/// window, no card read as another, no frame refused, and the cards not read (nearly all
/// covered ones, whose suit the card over them hides) at most three in ten.
#[test]
fn a_suit_hidden_on_covered_cards_is_read_from_the_cards_seen_whole() {
    let theme = "/usr/share/carddecks/svg-nicu-white/white.svgz";
    let mut r = Renderer::with_look(Theme::load(theme).unwrap(), Look::Msc);
    let templates = calibrate_rendered(&mut r, &Deck::shuffled(CALIBRATION_SEED))
        .unwrap_or_else(|e| panic!("nicu-white refused: {e}"));
    let mut matcher = Matcher::new(&templates);
    for size in [(800, 600, 1.0), (3840, 2160, 1.0)] {
        let tally = measure(&mut r, &mut matcher, size, 20..24);
        assert!(tally.places() >= 300, "{size:?}: {} places", tally.places());
        assert!(
            tally.right * 10 >= tally.places() * 7,
            "{size:?}: {} of {} right",
            tally.right,
            tally.places()
        );
        assert_eq!(
            (tally.wrong, tally.refused),
            (0, 0),
            "{size:?}:\n{}",
            tally.mistakes.join("\n")
        );
    }
}

/// KDE's standard deck in MSC's look, read in a smaller window than at calibration: the suit
/// glyph under an uncovered 2c, and under a selected Ts (tinted by the highlight), looked like
/// the other black suit's, and settled the card against what its corner leaned to (2c over 2s,
/// Ts over Tc). A glyph may settle what the corner leaves open, never overturn what it leans to:
/// those places stay unsure, and nothing is read as another card.
#[test]
fn a_suit_glyph_does_not_overturn_what_the_corner_leans_to() {
    let theme = "/usr/share/carddecks/svg-standard/standard.svgz";
    let mut r = Renderer::with_look(Theme::load(theme).unwrap(), Look::Msc);
    let templates = calibrate_rendered(&mut r, &Deck::shuffled(CALIBRATION_SEED)).unwrap();
    assert!(
        templates.suit_images.is_some(),
        "its suit glyphs are learnt"
    );
    let mut matcher = Matcher::new(&templates);
    let tally = measure(&mut r, &mut matcher, (1024, 768, 1.0), 1..2);
    assert_nearly_all_right_and_none_wrong(&tally);
}

/// anglo+borderless in MSC's look: the suit box holds the glyph in its top rows only, and beside
/// it a number card's corner pip or a court card's picture; the clubs' prototype held the corner
/// pip of the clubs seen whole, and at 800×600 a 2c, blank there, was read as 2s by it (and a
/// 2s as 2c; deals 1 and 4). Each card's own top strip is weighed before the suit's prototype.
#[test]
fn a_card_s_own_strip_is_weighed_before_its_suit_s_glyph() {
    let theme = Theme::load("anglo+borderless").unwrap();
    let mut r = Renderer::with_look(theme, Look::Msc);
    let templates = calibrate_rendered(&mut r, &Deck::shuffled(CALIBRATION_SEED)).unwrap();
    let mut matcher = Matcher::new(&templates);
    let tally = measure(&mut r, &mut matcher, (800, 600, 1.0), 1..5);
    assert_nearly_all_right_and_none_wrong(&tally);
}

/// gnomangelo in MSC's look, calibrated on cards 236 pixels wide (2560×1440) and read on cards
/// 77 and 99 wide (800×600, 1024×768): clubs and spades differ most at the corner's bottom right,
/// where its fours to tens print a big pip, and its aces, twos and threes blank paper. Their
/// duels weighed that blank place, alike on both templates to a millionth, and read covered 3c,
/// 2c and Ac as spades and the spades as clubs (36 places of 720 on deals 0 to 4). Weighed where
/// their own glyphs differ, none is wrong.
#[test]
fn a_rank_s_two_black_suits_are_weighed_where_its_own_glyphs_differ() {
    let theme = Theme::load("gnomangelo").unwrap();
    let mut r = Renderer::with_look(theme, Look::Msc);
    let deck = Deck::shuffled(CALIBRATION_SEED);
    let templates = calibrate_rendered_at(&mut r, &deck, (2560, 1440), 1.0).unwrap();
    let mut matcher = Matcher::new(&templates);
    for size in [(800, 600, 1.0), (1024, 768, 1.0)] {
        let tally = measure(&mut r, &mut matcher, size, 0..5);
        eprintln!("{size:?}: {:?}", tally.mistakes);
        assert_nearly_all_right_and_none_wrong(&tally);
    }
}

/// A card seen whole on the stock or the waste that its suit's glyph leaves torn is weighed by its
/// own top strip and gap too: ancient_french's glyph prototypes leave its queens and kings of
/// clubs and spades torn, and deal 7's waste Qc and deal 20's waste Kc (among others) were unsure
/// at every size.
#[test]
fn the_stock_s_and_waste_s_cards_are_weighed_by_their_own_parts() {
    let theme = Theme::load("ancient_french").unwrap();
    let mut r = Renderer::new(theme);
    let templates = calibrate_rendered(&mut r, &Deck::shuffled(CALIBRATION_SEED)).unwrap();
    let mut matcher = Matcher::new(&templates);
    for deal in [7, 20] {
        let tally = measure(&mut r, &mut matcher, (800, 600, 1.0), deal..deal + 1);
        assert_eq!(
            (tally.right, tally.unsure, tally.wrong, tally.refused),
            (tally.places(), 0, 0, 0),
            "deal {deal}: {:?}",
            tally.mistakes
        );
    }
}

/// At least 95 % of the places read right (so that "none wrong" is not won by reading nothing),
/// and none read as another card.
fn assert_nearly_all_right_and_none_wrong(tally: &Tally) {
    assert!(
        tally.right * 100 >= tally.places() * 95,
        "only {} of {} right",
        tally.right,
        tally.places()
    );
    let wrong: Vec<String> = tally
        .confusions
        .iter()
        .map(|(truth, read)| format!("{truth} read as {read}"))
        .collect();
    assert!(wrong.is_empty(), "wrong reads: {}", wrong.join(", "));
}

#[test]
fn a_suit_beside_the_rank_is_found_by_calibration() {
    // tango_nuevo prints the suit at the top right of the card, not under the rank.
    let mut r = Renderer::new(Theme::load("tango_nuevo").unwrap());
    let templates = calibrate_rendered(&mut r, &Deck::shuffled(CALIBRATION_SEED)).unwrap();
    let [_, _, width, _] = templates.manifest.index_box;
    assert!(
        width > 0.8,
        "the index box should span the card's top strip, is {width} card widths"
    );
    let mut matcher = Matcher::new(&templates);
    assert!(matcher.shows_suits());
    for size in [(1440, 900, 1.0), (800, 600, 1.0), (2560, 1440, 2.5)] {
        let tally = measure(&mut r, &mut matcher, size, 0..2);
        assert!(tally.places() > 0);
        assert!(
            tally.mistakes.is_empty(),
            "{size:?}:\n{}",
            tally.mistakes.join("\n")
        );
    }
}

#[test]
fn a_corner_without_the_suit_reads_unsure_never_a_suit() {
    // The usual index corner of tango_nuevo holds the rank only: hearts and diamonds of one rank
    // look the same there, as do clubs and spades. Templates cut there must not pick one.
    let mut r = Renderer::new(Theme::load("tango_nuevo").unwrap());
    let profile = Profile::practice_table();
    let deck = Deck::shuffled(CALIBRATION_SEED);
    let frames = calibration_frames(&mut r, &deck).unwrap();
    let seen = corners(&frames, &profile, StockSeen::OnWaste).unwrap();
    let templates = templates_from(&seen, deck.cards(), &profile, "rank-only").unwrap();
    let mut matcher = Matcher::new(&templates);
    assert!(!matcher.shows_suits(), "these corners show no suit");
    let (mut right, mut unsure) = (0, 0);
    for seed in 0..3 {
        let state = State::deal(&Deck::shuffled(seed));
        let layout = r.layout(1440, 900, 1.0);
        let frame = r.render(&Scene::still(&state, None, "DEAL 1".into()), &layout);
        let e = Edges::new(&frame);
        let located = locate(&frame, &e, &profile, Some(matcher.aspect)).unwrap();
        matcher.prepare(located.card_w);
        let board = read_board(&frame, &e, &located, &matcher, profile.row_step);
        for (i, seen) in board.pyramid.iter().enumerate() {
            match seen {
                Seen::Card(card, _) => {
                    assert_eq!(Some(*card), state.pyramid[i], "deal {seed} pyramid:{i}");
                    right += 1;
                }
                Seen::Unknown(_) => unsure += 1,
                Seen::Empty => panic!("deal {seed} pyramid:{i} read as empty"),
            }
        }
    }
    // A card whose rank-mates of its colour are all elsewhere can still be read; most cannot.
    assert!(
        unsure > 0 && right + unsure == 84,
        "{right} right, {unsure} unsure"
    );
}

#[test]
fn a_suit_glyph_seen_whole_tells_clubs_from_spades() {
    // Ornamental prints the suit under the rank, below the index corner: the corner shows only
    // the top of the glyph, where its clubs and spades differ by a few pixels. Deal 1's king of
    // clubs at the bottom of the pyramid (place 21) and deal 2's king of spades on the stock
    // (halfway through) stayed unsure at every size. Calibration learns the four glyphs whole
    // from the cards seen whole, and the glyph settles them. Covered cards show only the top of
    // the glyph: on cards as large as at calibration or larger, the duel between the two suits
    // there counts in full: deal 2's ace of clubs at place 8 (at 1440x900 and 1920x1080 scale
    // 1.5) and deal 3's at place 20 (at 1440x900 and 3840x2160) were unsure when it did not.
    // (Deal 2's at 3840x2160 is still unsure.)
    let mut r = Renderer::new(Theme::load("ornamental").unwrap());
    let templates = calibrate_rendered(&mut r, &Deck::shuffled(CALIBRATION_SEED)).unwrap();
    assert!(
        templates.suit_images.is_some(),
        "ornamental's suit glyphs tell the suits apart"
    );
    let mut matcher = Matcher::new(&templates);
    let cases: [(Size, &[Deal]); 3] = [
        ((1440, 900, 1.0), &[(1, 0), (2, 1), (2, 0), (3, 0)]),
        ((3840, 2160, 1.0), &[(1, 0), (2, 1), (3, 0)]),
        ((1920, 1080, 1.5), &[(1, 0), (2, 1), (2, 0)]),
    ];
    for (size, deals) in cases {
        for &(seed, which) in deals {
            let position = positions(seed).swap_remove(which);
            let board = read_drawn(&mut r, &mut matcher, &position, size);
            let state = &position.0;
            let tag = format!("deal {seed} at {size:?}");
            for (i, seen) in board.pyramid.iter().enumerate() {
                assert!(
                    same_place(*seen, truth(state, i)),
                    "{tag} pyramid:{i}: {seen:?}"
                );
            }
            let stock = state
                .stock_top()
                .map_or(Seen::Empty, |c| Seen::Card(c, 0.0));
            assert!(same_place(board.stock_top, stock), "{tag} stock");
        }
    }
}

/// Draws `state` (with `selection`) at `size` and reads it.
fn read_drawn(
    r: &mut Renderer,
    matcher: &mut Matcher,
    (state, selection): &(State, Option<Selection>),
    size: Size,
) -> Board {
    let layout = r.layout(size.0, size.1, size.2);
    let frame = r.render(&Scene::still(state, *selection, "DEAL 1".into()), &layout);
    read_frame(&frame, &Profile::practice_table(), matcher)
        .unwrap()
        .0
}

/// What pyramid place `i` of `state` holds, as a read would give it.
fn truth(state: &State, i: usize) -> Seen {
    state.pyramid[i].map_or(Seen::Empty, |c| Seen::Card(c, 0.0))
}

/// Whether two places hold the same thing (the same card, whatever the confidence).
fn same_place(a: Seen, b: Seen) -> bool {
    match (a, b) {
        (Seen::Card(x, _), Seen::Card(y, _)) => x == y,
        (Seen::Empty, Seen::Empty) => true,
        _ => false,
    }
}

/// Asserts that every pyramid place of `board` reads what `position` holds there, except that the
/// places `may_be_unsure` names may read unsure; returns how many of those did.
fn unsure_among(
    board: &Board,
    position: &(State, Option<Selection>),
    may_be_unsure: impl Fn(usize) -> bool,
    tag: &str,
) -> usize {
    let mut unsure = 0;
    for (i, seen) in board.pyramid.iter().enumerate() {
        match seen {
            Seen::Unknown(_) if may_be_unsure(i) => unsure += 1,
            _ => assert!(
                same_place(*seen, truth(&position.0, i)),
                "{tag} pyramid:{i}: {seen:?}"
            ),
        }
    }
    unsure
}

#[test]
fn a_covered_card_is_read_from_its_index_corner_cut_where_the_others_lie() {
    // A covered card shows only its top strip. Ornamental's index corner there holds the rank and
    // the top of the suit glyph, where clubs and spades differ by a pixel or two on small cards:
    // at 1024x768, deal 0's eight of spades and eight of clubs (places 0 and 13) and deal 2's
    // queen and eight of clubs (12 and 19) stayed unsure, and deal 2's queen at 800x600, until
    // templates cut past the corner (the strip) settled them. What had made them unsure was
    // calibration taking the scroll under the rank, a few pixels inside the top edge, for the top
    // edge of some cards, whose templates were then cut low; with every corner cut where the
    // other cards' corners lie, the index corners alone read them (and over deals 0-19, three
    // positions each, at all eight sizes, no place needs the strip templates).
    let mut r = Renderer::new(Theme::load("ornamental").unwrap());
    let mut templates = calibrate_rendered(&mut r, &Deck::shuffled(CALIBRATION_SEED)).unwrap();
    templates.manifest.strip = None;
    templates.strip_images = None;
    templates.manifest.gap = None;
    templates.gap_images = None;
    let mut matcher = Matcher::new(&templates);
    let cases: [(Size, &[u64]); 2] = [((1024, 768, 1.0), &[0, 2]), ((800, 600, 1.0), &[2])];
    for (size, seeds) in cases {
        for &seed in seeds {
            let position = positions(seed).swap_remove(0);
            let board = read_drawn(&mut r, &mut matcher, &position, size);
            let tag = format!("deal {seed} at {size:?}");
            assert_eq!(unsure_among(&board, &position, |_| true, &tag), 0, "{tag}");
        }
    }
}

#[test]
fn a_covered_card_shows_the_middle_of_its_face_between_the_cards_over_it() {
    // Ornamental's covered jacks and aces of clubs and spades show the same top strip but for the
    // top of the suit under the rank; between the two cards over them, down to the row below,
    // they show the middle of their face: the ace's big pip, the jack's picture. Calibration cuts
    // templates there, and they settle them: over deals 0-19, three positions each, at all eight
    // sizes, these are the places left unsure without them (deal 13's Jc also in its first
    // position; the positions as `positions` gives them).
    let mut r = Renderer::new(Theme::load("ornamental").unwrap());
    let templates = calibrate_rendered(&mut r, &Deck::shuffled(CALIBRATION_SEED)).unwrap();
    assert!(
        templates.gap_images.is_some(),
        "the practice table's cards leave a gap between them"
    );
    let mut without = templates.clone();
    without.manifest.gap = None;
    without.gap_images = None;
    let cases: [(Size, Deal, usize); 5] = [
        ((1024, 768, 1.0), (1, 1), 9),
        ((1024, 768, 1.0), (3, 1), 20),
        ((800, 600, 1.0), (12, 2), 8),
        ((1024, 768, 1.0), (13, 2), 5),
        ((800, 600, 1.0), (15, 1), 10),
    ];
    let mut unsure_without = 0;
    for (set, gaps) in [(templates, true), (without, false)] {
        let mut matcher = Matcher::new(&set);
        for (size, (seed, which), place) in cases {
            let position = positions(seed).swap_remove(which);
            let board = read_drawn(&mut r, &mut matcher, &position, size);
            let tag = format!("deal {seed} position {which} at {size:?}");
            let may_be_unsure = |i: usize| !gaps && i == place;
            unsure_without += unsure_among(&board, &position, may_be_unsure, &tag);
        }
    }
    assert!(
        unsure_without >= 4,
        "without the gap templates these covered cards are unsure ({unsure_without} were)"
    );
}

/// The gap is looked at in views a few template pixels around where the corner puts it, below
/// its box too, so the box keeps that far clear of the card below. Ending a pixel above it (MSC's
/// look at 800x600), the views took in that card's top edge: ornamental's covered Qc on blue
/// felt, whose gap differs from the Qs's by the colour of the hair, fitted the Qs's better there
/// once the card below was not highlighted (deal 2, the stock drawn out), and was read as it.
/// Every position of deal 2 at 800x600 is read with no card read as another.
#[test]
fn the_gap_is_looked_at_clear_of_the_card_below_it() {
    let mut r = Renderer::with_look(Theme::load("ornamental+blue-felt").unwrap(), Look::Msc);
    let templates = calibrate_rendered(&mut r, &Deck::shuffled(CALIBRATION_SEED)).unwrap();
    assert!(templates.gap_images.is_some(), "MSC's cards leave a gap");
    let mut matcher = Matcher::new(&templates);
    let tally = measure(&mut r, &mut matcher, (800, 600, 1.0), 2..3);
    assert_eq!(tally.places(), 90, "three positions read");
    assert_eq!(
        (tally.wrong, tally.refused),
        (0, 0),
        "{}",
        tally.mistakes.join("\n")
    );
    assert!(tally.right >= 75, "only {} right", tally.right);
}

#[test]
fn a_top_strip_whose_pip_differs_past_the_corner_settles_the_suit() {
    // anglo_poker's covered 2c at 800x600 (deal 8, place 1) shows a tiny club under its rank and
    // the top of a big club pip in its strip; its strip and the 2s's are alike as a whole (0.963,
    // more than ornamental's eights), but past the index corner they differ (0.945, the pip), and
    // the strip settles it. Without the strip templates it was unsure; since suits duel only
    // where they differ the same way under most ranks (`Matcher::suits_differ`), the corner alone
    // reads it too, and without the strips it must be read right or left unsure, never wrong.
    let mut r = Renderer::new(Theme::load("anglo_poker").unwrap());
    let templates = calibrate_rendered(&mut r, &Deck::shuffled(CALIBRATION_SEED)).unwrap();
    let mut without = templates.clone();
    without.manifest.strip = None;
    without.strip_images = None;
    for (set, strips) in [(templates, true), (without, false)] {
        let mut matcher = Matcher::new(&set);
        for position in positions(8) {
            if position.0.pyramid[1].is_none() {
                continue;
            }
            let board = read_drawn(&mut r, &mut matcher, &position, (800, 600, 1.0));
            let expected = truth(&position.0, 1);
            if strips {
                assert!(
                    same_place(board.pyramid[1], expected),
                    "{:?}",
                    board.pyramid[1]
                );
            } else {
                assert!(
                    matches!(board.pyramid[1], Seen::Unknown(_))
                        || same_place(board.pyramid[1], expected),
                    "without the strip: {:?}",
                    board.pyramid[1]
                );
            }
        }
    }
}
