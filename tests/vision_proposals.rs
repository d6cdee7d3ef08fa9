//! Guided calibration's proposed labels (`vision::proposals`), each theme read as if unknown (its
//! own faces left out of those proposed from): on a two-colour theme, a four-colour one and one
//! with its own index font, every row gets its rank and every column its suit; on a theme whose
//! court cards carry other letters (R, D, V), the proposals are not all right, and that is what
//! the user mends. `accuracy --proposals --themes all` measures every installed theme.

use solitaire_agent::games::pyramid::vision::proposal_check::check_proposals;
use solitaire_agent::table::theme::Theme;
use solitaire_agent::vision::proposals::{named_glyphs, INDEX_BOX};

#[test]
fn proposals_name_every_row_and_column_on_themes_left_out() {
    let known = named_glyphs(INDEX_BOX, &[]);
    assert!(known.len() > 1, "the built-in theme and installed ones");
    for name in ["builtin", "anglo_modern_4_color", "tango", "simplistic"] {
        let theme = Theme::load(name).unwrap();
        let c = check_proposals(theme, &known).unwrap();
        assert!(c.grouped, "{c:?}");
        assert_eq!(
            (c.ranks_right, c.suits_right, c.cards_right),
            (13, 4, 52),
            "{c:?}"
        );
    }
    let french = check_proposals(Theme::load("ancient_french").unwrap(), &known).unwrap();
    assert!(french.cards_right < 52, "{french:?}");
}
