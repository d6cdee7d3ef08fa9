//! Which templates a calibrated set keeps so that they tell the suits apart: the index corner
//! (with the top strip past it), the corner cut across the card's whole top strip where the usual
//! corner holds no suit (or, where it shows only the first rows of a pip, may hold no rank),
//! or the corner with a part where the art prints the suit a second time beside the rank
//! (`suit_beside`). Each choice gets the parts and glyphs every set gets, and the
//! first that reads the calibration deal back right at other card sizes is kept.

use crate::cards::{Card, Suit};
use crate::games::pyramid::vision::profile::Profile;
use crate::games::pyramid::vision::read_back;
use crate::vision::calibrate::{corners_of, templates_from, wide_index_box, Corners};
use crate::vision::gap::{gap_box, part_templates};
use crate::vision::glyph_box::suit_glyphs;
use crate::vision::label_check;
use crate::vision::recognize::Matcher;
use crate::vision::suit_beside::{suit_beside_box, Region};
use crate::vision::templates::{PartManifest, Templates};
use image::RgbaImage;

/// Makes a template set from the corners cut from `frames` and the cards they are (`cards[i]` for
/// `cut.crops[i]`, see `templates_from`). Where templates of the usual index corner do not tell
/// the suits apart, or show only the first rows of the pip under the rank
/// (`label_check::suits_cut_off`), the suit may be printed beside the rank: the corners are cut
/// again across the card's whole top strip, and kept if they tell the suits apart, else (or if
/// those do not read back right) the corner is kept with templates of where the suits differ
/// beside it. Where the usual corners show only the first rows of a pip, the top strip is tried
/// last, for art that prints its rank away from the corner (checked for cut-off pips on its own
/// corners). Refused when the frames, read back with the templates at other card sizes, show a
/// card read as another or are not read as a table at all (`read_back`), and, read back right,
/// when the corners show only the first rows of the suits' pips and nothing beside the rank tells
/// them apart.
pub fn templates_showing_suits(
    frames: &[RgbaImage],
    cut: &Corners,
    cards: &[Card],
    profile: &Profile,
    name: &str,
) -> Result<Templates, String> {
    templates_showing_suits_in(frames, cut, cards, profile, name, Region::All).map_err(|n| n.why)
}

/// Why `templates_showing_suits_in` made no set, and how far it got.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotMade {
    pub why: String,
    /// Whether the frames were not read back as a table at all with any choice's templates
    /// (`read_back::Refusal::NotRead`): a refusal that says less of the art than one for what
    /// a read-back read, or for what the corners show.
    pub not_read: bool,
}

impl From<String> for NotMade {
    fn from(why: String) -> Self {
        NotMade {
            why,
            not_read: false,
        }
    }
}

impl From<read_back::Refusal> for NotMade {
    fn from(refusal: read_back::Refusal) -> Self {
        let not_read = matches!(refusal, read_back::Refusal::NotRead(_));
        NotMade {
            why: refusal.why().to_string(),
            not_read,
        }
    }
}

/// Keeps the first refusal, unless it is for frames not read as a table and `new` says more.
fn keep(refused: &mut Option<NotMade>, new: NotMade) {
    if refused.as_ref().is_none_or(|r| r.not_read && !new.not_read) {
        *refused = Some(new);
    }
}

/// `templates_showing_suits`, a suit beside the rank looked for as `region` says
/// (`suit_beside_box`). With `Region::Joined` only that choice is tried: the others are made as
/// with `Region::All`, which `calibrate` has tried first.
pub fn templates_showing_suits_in(
    frames: &[RgbaImage],
    cut: &Corners,
    cards: &[Card],
    profile: &Profile,
    name: &str,
    region: Region,
) -> Result<Templates, NotMade> {
    let corner = templates_from(cut, cards, profile, name)?;
    let shows = Matcher::new(&corner).shows_suits();
    // Corners that show only the first rows of a pip under the rank may tell the suits apart on
    // the calibration deal and not on the next.
    let cut_off = label_check::suits_cut_off(cut, cards);
    let cut_with = |index_box: [f32; 4]| -> Result<(Corners, Templates), String> {
        let part = Profile {
            index_box,
            ..profile.clone()
        };
        let part_cut = corners_of(frames, &part, cut.stock_seen, cut.borderless, cut.search)?;
        let templates = templates_from(&part_cut, cards, &part, name)?;
        Ok((part_cut, templates))
    };
    let cut_at = |index_box: [f32; 4]| cut_with(index_box).map(|(_, templates)| templates);
    // Each choice with the refusal that holds for it when its corners show only the first rows
    // of the suits' pips (none where the suit shows beside the rank).
    let mut choices: Vec<(Templates, Option<String>)> = Vec::new();
    let all = region == Region::All;
    if shows && cut_off.is_none() {
        if !all {
            return Err(NotMade::from(
                "the index corners show the suits: no suit beside the rank is looked for"
                    .to_string(),
            ));
        }
        choices.push((
            with_strip(corner.clone(), cut_at(strip_box(profile.index_box))?),
            None,
        ));
    } else {
        // Across the whole top strip: art that prints the suit away from the usual corner.
        let (wide_cut, wide) = cut_with(wide_index_box(profile.index_box))?;
        let beside_box = suit_beside_box(&wide, profile.index_box, region);
        let wide_shows = all && Matcher::new(&wide).shows_suits();
        // Where the usual corners show only the first rows of a pip under where the rank should
        // be, the art may print its rank away from them too (KDE's oxygen-white prints it at
        // the top right, a pip at the top left): the top strip is tried last, its own corners
        // checked for cut-off pips, after the usual corner (whose refusal, if this fails too,
        // says what the usual corner lacks).
        let (wide_first, wide_last) = match (wide_shows, &cut_off) {
            (false, _) => (None, None),
            (true, None) => (Some((wide, None)), None),
            (true, Some(_)) => {
                let own = label_check::suits_cut_off(&wide_cut, cards);
                (None, Some((wide, own)))
            }
        };
        choices.extend(wide_first);
        if let Some(beside_box) = beside_box {
            let strip = cut_at(beside_box)?;
            if Matcher::new(&strip).shows_suits() {
                choices.push((beside(corner.clone(), strip), None));
            }
        }
        if let Some(wide) = wide_last {
            if choices.is_empty() {
                choices.push((corner.clone(), cut_off.clone()));
            }
            choices.push(wide);
        }
    }
    if choices.is_empty() {
        if !all {
            return Err(NotMade::from("no suit found beside the rank".to_string()));
        }
        choices.push((corner, cut_off.clone()));
    }
    let gap = match gap_box(frames, cut, cards, profile) {
        Some(gap) => Some((gap, part_templates(frames, cut, cards, profile, gap)?)),
        None => None,
    };
    let glyphs = suit_glyphs(frames, cut, cards);
    let mut refused = None;
    for (mut templates, cut_off) in choices {
        // The middle of the card a covered card shows between the two cards over it.
        if let Some((gap, images)) = &gap {
            templates.manifest.gap = Some(part_manifest(*gap, "gap"));
            templates.gap_images = Some(images.clone());
        }
        if let Some((images, suit_box)) = &glyphs {
            templates.manifest.suit_box = Some(*suit_box);
            templates.manifest.suits = Some(
                Suit::ALL
                    .iter()
                    .map(|s| (s.char().to_string(), format!("suit-{}.png", s.char())))
                    .collect(),
            );
            templates.suit_images = Some(images.clone());
        }
        let found = read_back::read_back(frames, cards, cut.stock_seen, profile, &templates);
        if let Some(why) = read_back::refusal_of(&found, frames.len()) {
            keep(&mut refused, why.into());
            continue;
        }
        // Read back right, but on the first rows of a pip the next deal's cards may not be,
        // unless the suit shows beside the rank too.
        match cut_off {
            Some(refusal) => keep(&mut refused, refusal.into()),
            None => return Ok(templates),
        }
    }
    Err(refused.expect("a refusal for every choice refused"))
}

/// `corner` with `strip` as its top strip templates (see `PartManifest`), cut beside the rank
/// where the suit is printed (see `Manifest::suit_beside`).
fn beside(corner: Templates, strip: Templates) -> Templates {
    let mut templates = with_strip(corner, strip);
    templates.manifest.suit_beside = true;
    templates
}

/// `corner` with `strip` as its top strip templates (see `PartManifest`).
fn with_strip(mut corner: Templates, strip: Templates) -> Templates {
    corner.manifest.strip = Some(part_manifest(strip.manifest.index_box, "strip"));
    corner.strip_images = Some(strip.images);
    corner
}

/// A part's manifest: its box, and each card's file `PREFIX-CARD.png`.
fn part_manifest(index_box: [f32; 4], prefix: &str) -> PartManifest {
    PartManifest {
        index_box,
        cards: Card::all()
            .map(|c| (c.to_string(), format!("{prefix}-{c}.png")))
            .collect(),
    }
}

/// The box of the top strip templates (see `PartManifest`): as tall as `index_box`, from the
/// card's left edge past its middle, where the first pips of a number card lie (and a good part
/// of a face card's picture).
fn strip_box(index_box: [f32; 4]) -> [f32; 4] {
    let [_, by, _, bh] = index_box;
    [0.03, by, 0.55, bh]
}
