//! Variants of a theme's card art, for reading cards nobody tuned on (`--theme anglo+borderless`):
//! faces whose border is gone (paper runs to the edge), four-colour suits (diamonds blue, clubs
//! green), cream paper, and the felt blue or red instead of green (MSC's backgrounds are not all
//! green). Each is a change of the rendered faces' or felt's pixels, so that any installed theme
//! can be seen in a way the reader was never tuned on; the held-out themes (`accuracy
//! --held-out`) are made of them.

use crate::cards::{Card, Suit};
use resvg::tiny_skia::Pixmap;

/// The held-out themes, read apart from the themes the reader was tuned on (`accuracy
/// --held-out`); nothing is tuned on them. Installed themes changed in ways the reader was never
/// tuned on, and KDE's card decks (Debian's kdegames-card-data-kf5, which `scripts/setup`
/// installs) but for those that are installed aisleriot themes too (paris, ornamental, dondorf),
/// that lack cards (tigullio-international, xskat-german) or whose sheet is not cut right yet
/// (future).
pub const HELD_OUT: [&str; 18] = [
    "builtin+borderless",
    "anglo+borderless",
    "builtin+four-colour",
    "ornamental+four-colour",
    "paris+cream",
    "tango+cream",
    "ornamental+blue-felt",
    "paris+red-felt",
    "/usr/share/carddecks/svg-ancient-egyptians/Ancient_Egyptians.svgz",
    "/usr/share/carddecks/svg-jolly-royal/jolly-royal.svgz",
    "/usr/share/carddecks/svg-konqi-modern/konqi.svgz",
    "/usr/share/carddecks/svg-nicu-white/white.svgz",
    "/usr/share/carddecks/svg-oxygen/oxygen.svgz",
    "/usr/share/carddecks/svg-oxygen-air/oxygen-air.svgz",
    "/usr/share/carddecks/svg-oxygen-white/oxygen-white.svgz",
    "/usr/share/carddecks/svg-penguins/penguins.svgz",
    "/usr/share/carddecks/svg-standard/standard.svgz",
    "/usr/share/carddecks/svg-xskat-french/french.svgz",
];

/// The name a held-out theme goes by in `accuracy`'s table (and in `--held-out --themes`): a
/// variant as written (`anglo+borderless`), a KDE deck by its folder (`kde-jolly-royal`), as the
/// theme loader names it.
pub fn held_out_name(spec: &str) -> String {
    super::theme::kde_deck_name(std::path::Path::new(spec)).unwrap_or_else(|| spec.to_string())
}

/// The held-out themes named in `wanted` (by `held_out_name`, or as listed in `HELD_OUT`), in
/// `HELD_OUT`'s order; all of them when `wanted` is empty. A name that is no held-out theme is
/// an error naming the held-out themes there are.
pub fn held_out_named(wanted: &[String]) -> Result<Vec<String>, String> {
    if wanted.is_empty() {
        return Ok(HELD_OUT.iter().map(|t| t.to_string()).collect());
    }
    let is = |spec: &str, name: &str| held_out_name(spec) == name || spec == name;
    if let Some(unknown) = wanted.iter().find(|w| !HELD_OUT.iter().any(|t| is(t, w))) {
        let names: Vec<String> = HELD_OUT.iter().map(|t| held_out_name(t)).collect();
        return Err(format!(
            "'{unknown}' is not a held-out theme; they are: {}",
            names.join(", ")
        ));
    }
    Ok(HELD_OUT
        .iter()
        .filter(|t| wanted.iter().any(|w| is(t, w)))
        .map(|t| t.to_string())
        .collect())
}

/// One change of a theme's faces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// The card's outline painted over with its paper, to the edge.
    Borderless,
    /// Diamonds' red ink blue, clubs' black ink green.
    FourColour,
    /// White paper turned cream.
    Cream,
    /// The felt blue instead of green (the faces as they are).
    BlueFelt,
    /// The felt red (a wine colour) instead of green.
    RedFelt,
}

impl Variant {
    pub const ALL: [Variant; 5] = [
        Variant::Borderless,
        Variant::FourColour,
        Variant::Cream,
        Variant::BlueFelt,
        Variant::RedFelt,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Variant::Borderless => "borderless",
            Variant::FourColour => "four-colour",
            Variant::Cream => "cream",
            Variant::BlueFelt => "blue-felt",
            Variant::RedFelt => "red-felt",
        }
    }

    pub fn parse(text: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.name() == text)
    }

    /// Changes the face of `card` (none: the back, which stays as it is).
    pub fn apply(self, card: Option<Card>, face: &mut Pixmap) {
        let Some(card) = card else {
            return;
        };
        let (w, h) = (face.width() as usize, face.height() as usize);
        let px = face.data_mut();
        match self {
            Variant::Borderless => {
                let paper = paper_of(px, w, h);
                // The outline lies within 4 % of the card's width from its edge.
                let band = ((w as f32 * 0.04).ceil() as usize).max(2);
                for y in 0..h {
                    for x in 0..w {
                        let edge = x.min(w - 1 - x).min(y).min(h - 1 - y);
                        let i = (y * w + x) * 4;
                        if edge < band && px[i + 3] > 0 {
                            let a = u32::from(px[i + 3]);
                            for c in 0..3 {
                                px[i + c] = (u32::from(paper[c]) * a / 255) as u8;
                            }
                        }
                    }
                }
            }
            Variant::FourColour => {
                for p in px.chunks_exact_mut(4) {
                    let (r, g, b) = (i32::from(p[0]), i32::from(p[1]), i32::from(p[2]));
                    match card.suit {
                        Suit::Diamonds if r > g + 60 && r > b + 60 => p.swap(0, 2),
                        Suit::Clubs if r.max(g).max(b) < 110 && (r - b).abs() < 40 => {
                            // Black ink to a dark green of the same darkness.
                            let dark = 110 - r.max(g).max(b);
                            p[0] = 0;
                            p[1] = (40 + dark).min(i32::from(p[3])) as u8;
                            p[2] = 0;
                        }
                        _ => {}
                    }
                }
            }
            Variant::Cream => {
                for p in px.chunks_exact_mut(4) {
                    if p[0] > 225 && p[1] > 225 && p[2] > 225 {
                        p[1] = (u32::from(p[1]) * 240 / 255) as u8;
                        p[2] = (u32::from(p[2]) * 205 / 255) as u8;
                    }
                }
            }
            Variant::BlueFelt | Variant::RedFelt => {}
        }
    }

    /// Changes the felt the table is drawn on (the faces' variants leave it as it is).
    pub fn apply_to_felt(self, felt: &mut Pixmap) {
        // The green felt's channels exchanged: green for blue, or for red.
        let swap = match self {
            Variant::BlueFelt => (1, 2),
            Variant::RedFelt => (0, 1),
            _ => return,
        };
        for p in felt.data_mut().chunks_exact_mut(4) {
            p.swap(swap.0, swap.1);
        }
    }
}

/// The face's paper: the median colour of a ring 6–10 % of the width inside its edge.
fn paper_of(px: &[u8], w: usize, h: usize) -> [u8; 3] {
    let (lo, hi) = ((w as f32 * 0.06) as usize, (w as f32 * 0.10) as usize + 1);
    let mut channels: [Vec<u8>; 3] = [Vec::new(), Vec::new(), Vec::new()];
    for y in 0..h {
        for x in 0..w {
            let edge = x.min(w - 1 - x).min(y).min(h - 1 - y);
            let i = (y * w + x) * 4;
            if (lo..hi).contains(&edge) && px[i + 3] == 255 {
                for c in 0..3 {
                    channels[c].push(px[i + c]);
                }
            }
        }
    }
    channels.map(|mut v| {
        v.sort_unstable();
        v.get(v.len() / 2).copied().unwrap_or(255)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::theme::Theme;

    #[test]
    fn held_out_themes_are_named_as_the_table_names_them() {
        assert_eq!(held_out_name("anglo+borderless"), "anglo+borderless");
        assert_eq!(
            held_out_name("/usr/share/carddecks/svg-jolly-royal/jolly-royal.svgz"),
            "kde-jolly-royal"
        );
        let picked =
            held_out_named(&["kde-oxygen".to_string(), "paris+cream".to_string()]).unwrap();
        assert_eq!(
            picked,
            ["paris+cream", "/usr/share/carddecks/svg-oxygen/oxygen.svgz"]
        );
        assert_eq!(held_out_named(&[]).unwrap().len(), HELD_OUT.len());
        let err = held_out_named(&["kde-oxygen-black".to_string()]).unwrap_err();
        assert!(err.contains("kde-oxygen-air"), "{err}");
    }

    fn pixel(face: &Pixmap, x: u32, y: u32) -> [i32; 3] {
        let i = ((y * face.width() + x) * 4) as usize;
        let d = face.data();
        [d[i], d[i + 1], d[i + 2]].map(i32::from)
    }

    #[test]
    fn variants_change_the_faces_as_named() {
        let card = |t: &str, c: &str| {
            let faces = Theme::load(t).unwrap().faces(120, 174);
            faces.card(c.parse().unwrap()).clone()
        };
        // Borderless: the edge is paper where the plain face has its outline.
        let (plain, bare) = (card("builtin", "9s"), card("builtin+borderless", "9s"));
        let y = 87;
        let x = (0..4)
            .min_by_key(|&x| pixel(&plain, x, y).iter().sum::<i32>())
            .unwrap();
        assert!(
            pixel(&plain, x, y)[0] < 200,
            "the plain face has an outline"
        );
        assert_eq!(pixel(&bare, x, y), pixel(&bare, 12, y));
        // Four colours: a diamond has blue ink and no red, a club green ink.
        let blue = card("builtin+four-colour", "8d");
        let inks: Vec<[i32; 3]> = (0..174)
            .flat_map(|y| (0..120).map(move |x| (x, y)))
            .map(|(x, y)| pixel(&blue, x, y))
            .collect();
        assert!(inks.iter().any(|p| p[2] > p[0] + 60));
        let red: Vec<&[i32; 3]> = inks
            .iter()
            .filter(|p| p[0] > p[2] + 60 && p[0] > p[1] + 60)
            .collect();
        assert!(red.is_empty(), "{red:?}");
        let green = card("builtin+four-colour", "8c");
        assert!((0..174).any(|y| (0..120).any(|x| {
            let p = pixel(&green, x, y);
            p[1] > p[0] + 30 && p[1] > p[2] + 30
        })));
        // Cream: the paper is no longer white.
        let p = pixel(&card("builtin+cream", "9s"), 60, 10);
        assert!(p[0] > 225 && p[2] < 215, "{p:?}");
        // A variant the program does not have is named.
        let err = Theme::load("builtin+sepia").err().unwrap().0;
        assert!(err.contains("'sepia' is not a variant"), "{err}");
    }
}
