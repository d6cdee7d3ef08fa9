//! How a practice table looks (`--look practice|msc`): its own layout, or Microsoft Solitaire
//! Collection's proportions and chrome, so that the `msc` layout profile reads pictures before a
//! user's screen is the first it sees.
//!
//! - `practice`: the table's own layout, with room to show each covered card's full index
//!   corner, a toolbar across the top and the status line at the bottom.
//! - `msc`: cards exactly at MSC's proportions (`calibration/msc.json`: columns 1.164 card widths
//!   apart, rows 0.307, so a covered card shows only its index corner), the status across the top
//!   as MSC's score and time are, and a bar across the bottom whose Undo board and whose dialog's
//!   OK sit where the profile's fixed fractions of the window say. Pyramid only.

/// A table's look.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Look {
    #[default]
    Practice,
    Msc,
}

impl Look {
    pub const ALL: [Look; 2] = [Look::Practice, Look::Msc];

    /// The name `--look` takes: `practice` or `msc`.
    pub fn name(self) -> &'static str {
        match self {
            Look::Practice => "practice",
            Look::Msc => "msc",
        }
    }

    /// The look named `text`, or a message naming the looks.
    pub fn parse(text: &str) -> Result<Look, String> {
        Look::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| format!("unknown look `{text}`: practice or msc"))
    }
}

/// Where MSC's Undo board button is, as fractions of the window's width and height (its centre).
pub const MSC_UNDO_BOARD: [f32; 2] = [0.20, 0.96];
/// Where New deal is in the msc look (its centre): MSC's own place for a new deal is not measured
/// (the notes are silent), so the look and the profile agree on this one, at the bar's right.
pub const MSC_NEW_DEAL: [f32; 2] = [0.80, 0.96];
/// Where the Undo board dialog's OK is in MSC, as fractions of the window's width and height.
pub const MSC_OK: [f32; 2] = [0.45, 0.60];
/// The share of the window's height MSC's bottom bar takes (its buttons centred in it, at
/// `MSC_UNDO_BOARD`'s height).
pub const MSC_BAR_SHARE: f32 = 2.0 * (1.0 - MSC_UNDO_BOARD[1]);
