//! Measuring guided calibration's proposed labels (`vision::proposals`) where the truth is known:
//! a theme's calibration deal drawn by the practice table's renderer, its corners grouped as guided
//! calibration groups them, labels proposed from the glyphs of every other known theme (the theme
//! itself left out, as a theme nobody here has seen would be), and compared with the deal.

use super::accuracy::{calibration_frames, CALIBRATION_SEED};
use super::profile::Profile;
use crate::cards::{Card, Deck};
use crate::table::render::Renderer;
use crate::table::theme::Theme;
use crate::vision::calibrate::{corners, StockSeen};
use crate::vision::groups::{group, Groups};
use crate::vision::proposals::{propose, Glyphs};

/// How the proposals for one theme went.
#[derive(Clone, Debug, PartialEq)]
pub struct ProposalCheck {
    pub theme: String,
    /// Whether every group holds one rank and one suit (else no labels can be all right).
    pub grouped: bool,
    /// Rows given their true rank (the rank most of the row's cards have), of 13.
    pub ranks_right: usize,
    /// Columns given their true suit, of 4.
    pub suits_right: usize,
    /// Cards the proposals name right, of 52.
    pub cards_right: usize,
}

/// Proposals for `theme`'s calibration deal, from the glyphs of every `known` theme but itself
/// (`vision::proposals::named_glyphs` at `INDEX_BOX`).
pub fn check_proposals(theme: Theme, known: &[(String, Glyphs)]) -> Result<ProposalCheck, String> {
    let name = theme.name().to_string();
    let deck = Deck::shuffled(CALIBRATION_SEED);
    let frames = calibration_frames(&mut Renderer::new(theme), &deck)?;
    let profile = Profile::practice_table();
    let cut = corners(&frames, &profile, StockSeen::OnWaste)?;
    let groups = group(&cut);
    let known: Vec<Glyphs> = known
        .iter()
        .filter(|(n, _)| *n != name)
        .map(|(_, g)| g.clone())
        .collect();
    let proposal = propose(&cut, &groups, &known).ok_or("no known faces to propose from")?;
    let truth = deck.cards();
    Ok(ProposalCheck {
        theme: name,
        grouped: grouped_right(&groups, truth),
        ranks_right: groups
            .ranks
            .iter()
            .zip(&proposal.ranks)
            .filter(|(row, &r)| row.iter().filter(|&&i| truth[i].rank == r).count() > 2)
            .count(),
        suits_right: (0..4)
            .filter(|&k| {
                let column = groups.suit(k);
                column
                    .iter()
                    .filter(|&&i| truth[i].suit == proposal.suits[k])
                    .count()
                    > 6
            })
            .count(),
        cards_right: groups
            .ranks
            .iter()
            .enumerate()
            .flat_map(|(r, row)| row.iter().enumerate().map(move |(k, &i)| (r, k, i)))
            .filter(|&(r, k, i)| truth[i] == Card::new(proposal.ranks[r], proposal.suits[k]))
            .count(),
    })
}

/// Whether each row holds one rank and each column one suit.
fn grouped_right(groups: &Groups, truth: &[Card]) -> bool {
    groups
        .ranks
        .iter()
        .all(|row| row.iter().all(|&i| truth[i].rank == truth[row[0]].rank))
        && (0..4).all(|k| {
            let column = groups.suit(k);
            column
                .iter()
                .all(|&i| truth[i].suit == truth[column[0]].suit)
        })
}
