//! Card template sets on disk (`NAME/` in the user's data folder's `templates/`, or a folder given as
//! a path; sets shipped with the project in `templates/`): one small PNG per card of its index corner, scaled
//! to a fixed size so that it matches at every window size and display scale, and a JSON manifest.
//! A set may also hold the four suits' glyphs as cards seen whole show them under the rank
//! (`suits`), and templates of two more parts of the card a covered card shows: its top strip
//! (`strip`) and the gap between the two cards over it (`gap`). Loading checks everything and
//! names what is missing or damaged.

use crate::cards::{Card, Suit};
use crate::vision::suits::{SUIT_H, SUIT_W};
use image::RgbImage;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Width and height of every template, in pixels.
pub const TEMPLATE_W: u32 = 36;
pub const TEMPLATE_H: u32 = 45;

/// The manifest file's name inside a template set's folder.
pub const MANIFEST: &str = "manifest.json";

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Manifest {
    pub name: String,
    pub format: u32,
    /// Template size in pixels.
    pub size: [u32; 2],
    /// The layout profile the set was made with.
    pub profile: String,
    /// Height over width of the cards.
    pub aspect: f32,
    /// Card width in pixels in the calibration frames.
    pub card_width: f32,
    /// The index corner, in card widths from the top-left: x, y, width, height.
    pub index_box: [f32; 4],
    /// Card (like "Th") → PNG file name.
    pub cards: BTreeMap<String, String>,
    /// The suit glyphs under the rank as cards seen whole show them (see `suits`): suit (like
    /// "c") → PNG file name, `SUIT_W`×`SUIT_H`. Absent for a theme with no suit glyph there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suits: Option<BTreeMap<String, String>>,
    /// Where the suit glyph lies, in card widths from the card's top-left (x, y, width, height),
    /// as calibration found it (see `suits::learn_box`). Absent in sets made before: then
    /// `suits::SUIT_BOX`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suit_box: Option<[f32; 4]>,
    /// Templates of the top strip that a covered card shows (see `PartManifest`). Absent in sets
    /// made before, or when the index box already runs across the strip.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strip: Option<PartManifest>,
    /// Templates of the middle of the card that a covered card shows between the two cards over
    /// it, down to the row below them (see `PartManifest`). Absent in sets made before, or for a
    /// layout whose cards lie too close side by side.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gap: Option<PartManifest>,
    /// Card (like "Th") → where its template lies on the card: template pixels across and down
    /// from the index box at the card's top-left corner as its edges put it, as calibration lined
    /// it up (a face card showing only a picture can lie a few pixels off the rest). A card read
    /// at rest lies the same way on its place; one in flight does not (see `recognize`). Absent in
    /// sets made before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placed: Option<BTreeMap<String, [f32; 2]>>,
    /// The cards whose index corner holds no index, only their picture (see `calibrate`): they
    /// are left out of what the corners share. Absent in sets made before, or when none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_index: Option<Vec<String>>,
    /// The cards whose template was cut from a covered pyramid card, where the outline of the
    /// card over it can show along the bottom of the index box (see `Matcher::outline_rows`).
    /// Absent in sets made before: their duels weigh every row.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub covered: Option<Vec<String>>,
    /// Whether the cards' faces have no border, so that a card's top edge shows only where felt
    /// or ink lies above it (see `calibrate::cards_show_edges`). Absent when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub borderless: bool,
    /// Whether the suit is read where the art prints it beside the rank (`strip`: see
    /// `suit_beside`), the index corners showing no more of it than the first rows of a pip
    /// under the rank (`label_check::suits_cut_off`) or nothing: their duels between the suits
    /// of one colour then weigh nothing. Absent when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub suit_beside: bool,
    /// When the set was saved (`2026-11-26 09:41:07 UTC`). Absent in sets made before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub made: Option<String>,
}

/// The picture of a set's theme saved beside its manifest: a few of its index corners.
pub const PICTURE: &str = "picture.png";

/// The cards whose corners make up `PICTURE`: one of each suit, and court cards that show a font.
const PICTURE_CARDS: [&str; 5] = ["As", "Kh", "Qd", "Jc", "Ts"];

/// How far a template can have been lined up from where the card's edges put its index box, in
/// template pixels (calibration's reach and its second line-up), with room to spare: a `placed`
/// entry further off is damaged.
const MOST_PLACED: f32 = 12.0;

/// Another set of templates, `TEMPLATE_W`×`TEMPLATE_H` like the first, cut from another part of
/// the card (`index_box`, in card widths from its top-left) that a covered card still shows: the
/// top strip past the index corner (its suit there, its first pips or its picture are more than
/// the top of the suit glyph under its rank), or the gap between the two cards over it (the middle
/// of its face: the ace's pip, the court card's face).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PartManifest {
    pub index_box: [f32; 4],
    /// Card (like "Th") → PNG file name.
    pub cards: BTreeMap<String, String>,
}

/// A loaded template set.
#[derive(Clone, Debug)]
pub struct Templates {
    pub manifest: Manifest,
    /// The 52 templates by `Card::index`: RGB values, row by row.
    pub images: Vec<RgbImage>,
    /// The four suit prototypes by `Suit::index`, when the set has them.
    pub suit_images: Option<Vec<RgbImage>>,
    /// The 52 top strip templates by `Card::index`, when the set has them.
    pub strip_images: Option<Vec<RgbImage>>,
    /// The 52 gap templates by `Card::index`, when the set has them.
    pub gap_images: Option<Vec<RgbImage>>,
}

impl Templates {
    /// Where `NAME` or a path points for reading: a folder given as a path (or holding a set)
    /// as it is; a name in the data folder's `templates/`, else in a shipped `templates/`; a name
    /// found nowhere, where it would be saved.
    pub fn resolve(spec: &str) -> PathBuf {
        let direct = PathBuf::from(spec);
        if direct.join(MANIFEST).is_file() || is_path(spec) {
            return direct;
        }
        let saved = Templates::save_path(spec);
        let found = std::iter::once(saved.clone())
            .chain(
                crate::data::shipped_templates_dirs()
                    .into_iter()
                    .map(|d| d.join(spec)),
            )
            .find(|d| d.join(MANIFEST).is_file());
        found.unwrap_or(saved)
    }

    /// Where a set named `NAME` (or given as a path) is saved: a path as it is, a name in the
    /// data folder's `templates/` (the working folder's `templates/` when there is no data
    /// folder).
    pub fn save_path(spec: &str) -> PathBuf {
        if is_path(spec) {
            return PathBuf::from(spec);
        }
        crate::data::templates_dir()
            .unwrap_or_else(|_| PathBuf::from("templates"))
            .join(spec)
    }

    /// Loads and checks a template set.
    pub fn load(spec: &str) -> Result<Templates, String> {
        let dir = Templates::resolve(spec);
        let shown = dir.display();
        let text = std::fs::read_to_string(dir.join(MANIFEST)).map_err(|e| {
            format!("template set '{spec}': cannot read {shown}/{MANIFEST}: {e} (make one with `solitaire-agent calibrate`)")
        })?;
        let manifest: Manifest = serde_json::from_str(&text)
            .map_err(|e| format!("template set {shown}: {MANIFEST} is damaged: {e}"))?;
        if manifest.format != 1 || manifest.size != [TEMPLATE_W, TEMPLATE_H] {
            return Err(format!(
                "template set {shown}: format {} size {:?} is not the one this program reads (1, [{TEMPLATE_W}, {TEMPLATE_H}])",
                manifest.format, manifest.size
            ));
        }
        if !(0.8..=2.5).contains(&manifest.aspect) {
            return Err(format!(
                "template set {shown}: card aspect {} is not plausible",
                manifest.aspect
            ));
        }
        let mut missing = Vec::new();
        let mut damaged = Vec::new();
        let images = load_cards(&dir, &manifest.cards, "", &mut missing, &mut damaged);
        let strip_images = manifest
            .strip
            .as_ref()
            .map(|strip| load_cards(&dir, &strip.cards, "strip ", &mut missing, &mut damaged));
        let gap_images = manifest
            .gap
            .as_ref()
            .map(|gap| load_cards(&dir, &gap.cards, "gap ", &mut missing, &mut damaged));
        if let Some(placed) = &manifest.placed {
            for card in Card::all() {
                let key = card.to_string();
                match placed.get(&key) {
                    None => missing.push(format!("placed {key}")),
                    Some(v) if !v.iter().all(|x| x.is_finite() && x.abs() <= MOST_PLACED) => {
                        damaged.push(format!("placed {key} is {v:?}"))
                    }
                    Some(_) => {}
                }
            }
        }
        if manifest.suit_beside && manifest.strip.is_none() {
            damaged.push("suit_beside is set, and there are no strip templates to read it".into());
        }
        let mut suit_images = None;
        if let Some(suits) = &manifest.suits {
            let mut loaded = Vec::with_capacity(4);
            for suit in Suit::ALL {
                let key = suit.char().to_string();
                let Some(file) = suits.get(&key) else {
                    missing.push(format!("suit {key}"));
                    continue;
                };
                match image::open(dir.join(file)) {
                    Ok(img) if img.width() == SUIT_W && img.height() == SUIT_H => {
                        loaded.push(img.to_rgb8())
                    }
                    Ok(img) => damaged.push(format!("{file} is {}x{}", img.width(), img.height())),
                    Err(e) => damaged.push(format!("{file}: {e}")),
                }
            }
            suit_images = Some(loaded);
        }
        if !missing.is_empty() || !damaged.is_empty() {
            let mut parts = Vec::new();
            if !missing.is_empty() {
                parts.push(format!("no template for {}", missing.join(" ")));
            }
            if !damaged.is_empty() {
                parts.push(format!("damaged: {}", damaged.join("; ")));
            }
            return Err(format!(
                "template set {shown} is incomplete: {} (calibrate again)",
                parts.join("; ")
            ));
        }
        Ok(Templates {
            manifest,
            images,
            suit_images,
            strip_images,
            gap_images,
        })
    }

    /// Writes the set to `dir` (a new folder next to it first, then renamed, so a failure leaves
    /// any older set as it was).
    pub fn save(&self, dir: &Path) -> Result<(), String> {
        let parent = dir.parent().unwrap_or(Path::new("."));
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        let tmp = parent.join(format!(
            ".{}.tmp{}",
            dir.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&tmp);
        let write = || -> Result<(), String> {
            std::fs::create_dir_all(&tmp)
                .map_err(|e| format!("cannot create {}: {e}", tmp.display()))?;
            for card in Card::all() {
                let file = &self.manifest.cards[&card.to_string()];
                self.images[card.index()]
                    .save_with_format(tmp.join(file), image::ImageFormat::Png)
                    .map_err(|e| format!("cannot write {file}: {e}"))?;
            }
            let parts = [
                (&self.manifest.strip, &self.strip_images),
                (&self.manifest.gap, &self.gap_images),
            ];
            for (part, images) in parts {
                let (Some(part), Some(images)) = (part, images) else {
                    continue;
                };
                for card in Card::all() {
                    let file = &part.cards[&card.to_string()];
                    images[card.index()]
                        .save_with_format(tmp.join(file), image::ImageFormat::Png)
                        .map_err(|e| format!("cannot write {file}: {e}"))?;
                }
            }
            if let (Some(files), Some(images)) = (&self.manifest.suits, &self.suit_images) {
                for (suit, image) in Suit::ALL.iter().zip(images) {
                    let file = &files[&suit.char().to_string()];
                    image
                        .save_with_format(tmp.join(file), image::ImageFormat::Png)
                        .map_err(|e| format!("cannot write {file}: {e}"))?;
                }
            }
            self.picture()
                .save_with_format(tmp.join(PICTURE), image::ImageFormat::Png)
                .map_err(|e| format!("cannot write {PICTURE}: {e}"))?;
            let mut manifest = self.manifest.clone();
            if manifest.made.is_none() {
                let now = crate::data::stamp::now_secs();
                manifest.made = Some(crate::data::stamp::text(now));
            }
            let text = serde_json::to_string_pretty(&manifest).expect("manifest");
            std::fs::write(tmp.join(MANIFEST), text + "\n")
                .map_err(|e| format!("cannot write {MANIFEST}: {e}"))?;
            if dir.exists() {
                std::fs::remove_dir_all(dir)
                    .map_err(|e| format!("cannot replace {}: {e}", dir.display()))?;
            }
            std::fs::rename(&tmp, dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))
        };
        let result = write();
        if result.is_err() {
            let _ = std::fs::remove_dir_all(&tmp);
        }
        result
    }
}

impl Templates {
    /// `PICTURE`: the corners of `PICTURE_CARDS` side by side, twice their template size.
    pub fn picture(&self) -> RgbImage {
        let (w, h) = (TEMPLATE_W * 2, TEMPLATE_H * 2);
        let gap = 4;
        let n = PICTURE_CARDS.len() as u32;
        let mut out =
            RgbImage::from_pixel(n * (w + gap) + gap, h + 2 * gap, image::Rgb([60, 60, 60]));
        for (i, name) in PICTURE_CARDS.iter().enumerate() {
            let card: Card = name.parse().expect("a card");
            let big = image::imageops::resize(
                &self.images[card.index()],
                w,
                h,
                image::imageops::FilterType::Nearest,
            );
            image::imageops::replace(
                &mut out,
                &big,
                i64::from(gap + i as u32 * (w + gap)),
                i64::from(gap),
            );
        }
        out
    }
}

/// Whether a template set's name is a path (a folder named as it is).
fn is_path(spec: &str) -> bool {
    spec.contains('/') || spec.contains('\\') || spec.starts_with('.')
}

/// The 52 card images `files` names in `dir` (by `Card::index`; a blank one for each missing or
/// damaged, which is named in `missing` or `damaged`, after `what`).
fn load_cards(
    dir: &Path,
    files: &BTreeMap<String, String>,
    what: &str,
    missing: &mut Vec<String>,
    damaged: &mut Vec<String>,
) -> Vec<RgbImage> {
    let mut images = Vec::with_capacity(52);
    for card in Card::all() {
        let key = card.to_string();
        let blank = RgbImage::new(TEMPLATE_W, TEMPLATE_H);
        let Some(file) = files.get(&key) else {
            missing.push(format!("{what}{key}"));
            images.push(blank);
            continue;
        };
        match image::open(dir.join(file)) {
            Ok(img) if img.width() == TEMPLATE_W && img.height() == TEMPLATE_H => {
                images.push(img.to_rgb8())
            }
            Ok(img) => {
                damaged.push(format!("{file} is {}x{}", img.width(), img.height()));
                images.push(blank);
            }
            Err(e) => {
                damaged.push(format!("{file}: {e}"));
                images.push(blank);
            }
        }
    }
    images
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A set of plain templates (each card its own grey) with the four suit glyphs.
    pub(crate) fn set() -> Templates {
        let images: Vec<RgbImage> = (0..52)
            .map(|i| RgbImage::from_pixel(TEMPLATE_W, TEMPLATE_H, image::Rgb([i * 4, 0, 0])))
            .collect();
        let suit_images: Vec<RgbImage> = (0..4)
            .map(|i| RgbImage::from_pixel(SUIT_W, SUIT_H, image::Rgb([0, i * 60, 0])))
            .collect();
        Templates {
            manifest: Manifest {
                name: "t".into(),
                format: 1,
                size: [TEMPLATE_W, TEMPLATE_H],
                profile: "practice-table".into(),
                aspect: 1.4,
                card_width: 100.0,
                index_box: [0.03, 0.02, 0.34, 0.38],
                no_index: None,
                covered: None,
                cards: Card::all()
                    .map(|c| (c.to_string(), format!("{c}.png")))
                    .collect(),
                suits: Some(
                    Suit::ALL
                        .iter()
                        .map(|s| (s.char().to_string(), format!("suit-{}.png", s.char())))
                        .collect(),
                ),
                suit_box: Some([0.03, 0.3, 0.3, 0.36]),
                strip: Some(PartManifest {
                    index_box: [0.03, 0.02, 0.55, 0.38],
                    cards: Card::all()
                        .map(|c| (c.to_string(), format!("strip-{c}.png")))
                        .collect(),
                }),
                gap: Some(PartManifest {
                    index_box: [0.455, 0.44, 0.09, 0.38],
                    cards: Card::all()
                        .map(|c| (c.to_string(), format!("gap-{c}.png")))
                        .collect(),
                }),
                placed: Some(
                    Card::all()
                        .map(|c| (c.to_string(), [c.index() as f32 / 10.0 - 2.0, -0.5]))
                        .collect(),
                ),
                borderless: false,
                suit_beside: false,
                made: None,
            },
            strip_images: Some(
                (0..52)
                    .map(|i| {
                        RgbImage::from_pixel(TEMPLATE_W, TEMPLATE_H, image::Rgb([0, 0, i * 4]))
                    })
                    .collect(),
            ),
            gap_images: Some(
                (0..52)
                    .map(|i| {
                        RgbImage::from_pixel(TEMPLATE_W, TEMPLATE_H, image::Rgb([0, i * 4, 9]))
                    })
                    .collect(),
            ),
            images,
            suit_images: Some(suit_images),
        }
    }

    fn scratch(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("sa-templates-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn a_saved_set_loads_back_with_its_suit_glyphs() {
        let dir = scratch("roundtrip");
        let saved = set();
        saved.save(&dir).unwrap();
        let mut loaded = Templates::load(dir.to_str().unwrap()).unwrap();
        let made = loaded.manifest.made.take().expect("when the set was made");
        assert!(made.starts_with("20") && made.ends_with(" UTC"), "{made}");
        assert_eq!(loaded.manifest, saved.manifest);
        let picture = image::open(dir.join(PICTURE)).unwrap().to_rgb8();
        assert_eq!(picture, saved.picture());
        assert_eq!(loaded.images, saved.images);
        assert_eq!(loaded.suit_images, saved.suit_images);
        assert_eq!(loaded.strip_images, saved.strip_images);
        assert_eq!(loaded.gap_images, saved.gap_images);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_set_without_strip_or_gap_templates_loads_without_them() {
        let dir = scratch("nostrip");
        let mut saved = set();
        saved.manifest.strip = None;
        saved.strip_images = None;
        saved.manifest.gap = None;
        saved.gap_images = None;
        saved.save(&dir).unwrap();
        let text = std::fs::read_to_string(dir.join(MANIFEST)).unwrap();
        assert!(!text.contains("strip") && !text.contains("gap"), "{text}");
        let loaded = Templates::load(dir.to_str().unwrap()).unwrap();
        assert!(loaded.strip_images.is_none());
        assert!(loaded.gap_images.is_none());
        assert_eq!(loaded.images, saved.images);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_missing_or_damaged_strip_or_gap_template_is_named() {
        for (part, gone, bad) in [("strip", "Qs", "4d"), ("gap", "Ac", "Ks")] {
            let dir = scratch(&format!("damaged{part}"));
            set().save(&dir).unwrap();
            let (gone, bad) = (format!("{part}-{gone}.png"), format!("{part}-{bad}.png"));
            std::fs::remove_file(dir.join(&gone)).unwrap();
            std::fs::write(dir.join(&bad), b"not a png").unwrap();
            let err = Templates::load(dir.to_str().unwrap()).unwrap_err();
            assert!(err.contains("incomplete"), "{err}");
            assert!(err.contains(&gone), "{err}");
            assert!(err.contains(&bad), "{err}");
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }

    #[test]
    fn a_suit_read_beside_the_rank_is_kept_and_needs_its_strip() {
        let dir = scratch("beside");
        let mut saved = set();
        saved.manifest.suit_beside = true;
        saved.save(&dir).unwrap();
        assert!(
            Templates::load(dir.to_str().unwrap())
                .unwrap()
                .manifest
                .suit_beside
        );
        std::fs::remove_dir_all(&dir).unwrap();
        // A set made before it was kept loads without it.
        let dir = scratch("notbeside");
        set().save(&dir).unwrap();
        let text = std::fs::read_to_string(dir.join(MANIFEST)).unwrap();
        assert!(!text.contains("suit_beside"), "{text}");
        assert!(
            !Templates::load(dir.to_str().unwrap())
                .unwrap()
                .manifest
                .suit_beside
        );
        std::fs::remove_dir_all(&dir).unwrap();
        let dir = scratch("besidenostrip");
        let mut saved = set();
        saved.manifest.suit_beside = true;
        saved.manifest.strip = None;
        saved.strip_images = None;
        saved.save(&dir).unwrap();
        let err = Templates::load(dir.to_str().unwrap()).unwrap_err();
        assert!(err.contains("no strip templates"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn where_templates_lie_on_their_cards_is_optional_and_checked() {
        // A set made before it was kept loads without it.
        let dir = scratch("noplaced");
        let mut saved = set();
        saved.manifest.placed = None;
        saved.save(&dir).unwrap();
        let text = std::fs::read_to_string(dir.join(MANIFEST)).unwrap();
        assert!(!text.contains("placed"), "{text}");
        let loaded = Templates::load(dir.to_str().unwrap()).unwrap();
        assert!(loaded.manifest.placed.is_none());
        std::fs::remove_dir_all(&dir).unwrap();
        // A card left out, or placed far off the card, is named.
        let dir = scratch("badplaced");
        let mut saved = set();
        let placed = saved.manifest.placed.as_mut().unwrap();
        placed.remove("7h");
        placed.insert("Jc".into(), [40.0, 0.0]);
        saved.save(&dir).unwrap();
        let err = Templates::load(dir.to_str().unwrap()).unwrap_err();
        assert!(err.contains("placed 7h"), "{err}");
        assert!(err.contains("placed Jc is [40.0, 0.0]"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_set_without_suit_glyphs_loads_without_them() {
        let dir = scratch("nosuits");
        let mut saved = set();
        saved.manifest.suits = None;
        saved.manifest.suit_box = None;
        saved.suit_images = None;
        saved.save(&dir).unwrap();
        let text = std::fs::read_to_string(dir.join(MANIFEST)).unwrap();
        assert!(!text.contains("suits"), "{text}");
        assert!(Templates::load(dir.to_str().unwrap())
            .unwrap()
            .suit_images
            .is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_missing_or_damaged_suit_glyph_is_named() {
        let dir = scratch("damaged");
        set().save(&dir).unwrap();
        std::fs::remove_file(dir.join("suit-s.png")).unwrap();
        std::fs::write(dir.join("suit-h.png"), b"not a png").unwrap();
        let err = Templates::load(dir.to_str().unwrap()).unwrap_err();
        assert!(err.contains("incomplete"), "{err}");
        assert!(err.contains("suit-s.png"), "{err}");
        assert!(err.contains("suit-h.png"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
