//! Calibration reads its own frames back before it keeps a template set
//! (`games::pyramid::vision::read_back`): KDE's oxygen-white deck, whose top-left corners show
//! pips and no rank (its rank is printed at the top right only), is refused, naming cards read as
//! others, where its templates used to read 39–88 places a size wrong; the built-in cards read
//! back with no card read as another, under both ways of seeing the stock. Art whose faces have
//! no border is refused before that, for the cards' edges it lacks. The KDE decks come from
//! `scripts/setup` (Debian's kdegames-card-data-kf5).

use solitaire_agent::cards::Deck;
use solitaire_agent::games::pyramid::vision::accuracy::{
    calibrate_rendered, calibration_frames, CALIBRATION_SEED,
};
use solitaire_agent::games::pyramid::vision::profile::Profile;
use solitaire_agent::games::pyramid::vision::read_back::misreads;
use solitaire_agent::table::render::Renderer;
use solitaire_agent::table::theme::Theme;
use solitaire_agent::vision::calibrate::{corners, templates_from, StockSeen};

const OXYGEN_WHITE: &str = "/usr/share/carddecks/svg-oxygen-white/oxygen-white.svgz";

#[test]
fn art_whose_corners_do_not_tell_cards_apart_is_refused() {
    assert!(
        std::path::Path::new(OXYGEN_WHITE).is_file(),
        "{OXYGEN_WHITE} is missing: run scripts/setup (it installs kdegames-card-data-kf5)"
    );
    let theme = Theme::load(OXYGEN_WHITE).expect("oxygen-white loads");
    let mut renderer = Renderer::new(theme);
    let deck = Deck::shuffled(CALIBRATION_SEED);
    let err = match calibrate_rendered(&mut renderer, &deck) {
        Ok(_) => panic!("oxygen-white's corners were accepted"),
        Err(e) => e,
    };
    assert!(
        err.contains("do not tell every card apart") && err.contains(" as "),
        "refused for another reason: {err}"
    );
    assert!(err.contains("nothing was saved"), "{err}");
}

/// Faces without a border (the built-in cards with their outline painted over, a held-out
/// variant): one card's face runs into the next, so the cards lying over others show no top edge,
/// which is how the reader finds them. Calibration used to keep such a set, and every frame was
/// then refused ("12 of 15 cards cannot be read"); it now refuses the art, saying what is missing.
#[test]
fn art_without_card_borders_is_refused_saying_the_edges_are_missing() {
    let mut renderer = Renderer::new(Theme::load("builtin+borderless").expect("a variant"));
    let err = calibrate_rendered(&mut renderer, &Deck::shuffled(CALIBRATION_SEED))
        .expect_err("borderless faces were accepted");
    assert!(
        err.contains("show no edge where one lies over another"),
        "refused for another reason: {err}"
    );
    assert!(err.contains("nothing was saved"), "{err}");
}

#[test]
fn the_built_in_cards_read_back_right() {
    let mut renderer = Renderer::new(Theme::built_in());
    let deck = Deck::shuffled(CALIBRATION_SEED);
    let frames = calibration_frames(&mut renderer, &deck).expect("frames");
    let profile = Profile::practice_table();
    let cut = corners(&frames, &profile, StockSeen::OnWaste).expect("corners");
    let templates = templates_from(&cut, deck.cards(), &profile, "t").expect("templates");
    let found = misreads(
        &frames,
        deck.cards(),
        StockSeen::OnWaste,
        &profile,
        &templates,
    );
    assert!(found.is_empty(), "read as other cards: {found:?}");
    // Labels shifted by one stock card: what the read-back checks is the labels' truth, so a
    // stock read against the wrong frame names the cards.
    let mut shifted = deck.cards().to_vec();
    shifted[28..].rotate_left(1);
    let found = misreads(&frames, &shifted, StockSeen::OnWaste, &profile, &templates);
    assert!(
        found.len() >= 20,
        "a stock checked one frame off should disagree nearly everywhere: {found:?}"
    );
}
