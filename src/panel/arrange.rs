//! Where the panel and the practice table it opens go on the screen: side by side, so that the
//! panel never lies over the cards the agent clicks (it would refuse to click there). The table
//! takes the left part, as large as leaves the panel its least width, the panel the rest.

/// The panel's least width beside the table, in screen points: the controls and a small capture.
/// (On a 1280-point screen this leaves the table about 800 points, the least size it is read well at.)
pub const PANEL_MIN_W: f32 = 460.0;
/// Room left between the windows and for the window manager's frames.
const GAP: f32 = 12.0;
/// Room kept for title bars and the desktop's own bars.
const TOP_ROOM: f32 = 60.0;

/// A window's place: top-left corner and inner size, in screen points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Place {
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
}

impl Place {
    fn overlaps(&self, o: &Place) -> bool {
        self.x < o.x + o.w && o.x < self.x + self.w && self.y < o.y + o.h && o.y < self.y + self.h
    }
}

/// The table and the panel side by side on a screen `w`×`h`: the table at most 1200×760 (its
/// usual size), keeping its proportions, never under 320×240.
pub fn side_by_side(w: f32, h: f32) -> (Place, Place) {
    let table_w = (w - PANEL_MIN_W - GAP).clamp(320.0, 1200.0);
    let table_h = (table_w * 760.0 / 1200.0).clamp(240.0, (h - TOP_ROOM).max(240.0));
    let table = Place {
        x: 0.0,
        y: 0.0,
        w: table_w,
        h: table_h,
    };
    let panel_x = table_w + GAP;
    let panel = Place {
        x: panel_x,
        y: 0.0,
        w: (w - panel_x - GAP / 2.0).max(320.0),
        h: (h - TOP_ROOM).clamp(420.0, 1000.0),
    };
    debug_assert!(!table.overlaps(&panel));
    (table, panel)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_and_panel_never_overlap_and_fit_the_screen() {
        for (w, h) in [
            (1280.0, 800.0),
            (1600.0, 1000.0),
            (1920.0, 1080.0),
            (3840.0, 2160.0),
        ] {
            let (t, p) = side_by_side(w, h);
            assert!(!t.overlaps(&p), "{w}x{h}: {t:?} {p:?}");
            assert!(p.x + p.w <= w && t.y + t.h <= h, "{w}x{h}: {t:?} {p:?}");
            assert!(p.w >= PANEL_MIN_W - 10.0, "{w}x{h}: {p:?}");
            assert!((t.w / t.h - 1200.0 / 760.0).abs() < 0.01);
        }
        let (t, _) = side_by_side(1920.0, 1080.0);
        assert_eq!((t.w, t.h), (1200.0, 760.0));
    }
}
