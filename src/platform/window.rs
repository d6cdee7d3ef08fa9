//! Finding a game window by title and capturing it. Windows are listed by xcap; where xcap lists
//! none (Wine, which cannot answer the window-frame query xcap needs) the project lists them
//! itself on Windows (`win32::top_level_windows`, EnumWindows). A window is captured by xcap's
//! window capture; where that comes back black (an OpenGL, DirectX or UWP window that `PrintWindow`
//! cannot draw) or cannot be made, its rectangle of the screen is captured instead (the agent
//! only clicks while the game is the window on top, so that rectangle shows the game), and the
//! window remembers which it used (`Capture`). Either way the window's position plus a pixel's
//! position in the capture is the pixel's position on the screen, in physical pixels.

use image::RgbaImage;
use std::cell::Cell;

/// Titles of Microsoft Solitaire Collection's window (the practice tables' titles are their games').
pub const MSC_TITLES: [&str; 2] = ["Microsoft Solitaire Collection", "Solitaire & Casual Games"];

/// How a window's picture is taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Capture {
    /// The window system's capture of the window itself (xcap).
    Window,
    /// The window's rectangle of the screen (its own capture came back black, or there is none).
    Screen,
}

impl Capture {
    /// The word the report uses.
    pub fn name(self) -> &'static str {
        match self {
            Capture::Window => "window",
            Capture::Screen => "screen",
        }
    }
}

/// The window system's handle of a window.
enum Handle {
    Xcap(xcap::Window),
    /// A top-level window found by the project's own EnumWindows (an HWND).
    #[cfg(windows)]
    Win32(isize),
}

/// A window found on the desktop, and where its picture is on the screen.
pub struct FoundWindow {
    pub title: String,
    pub x: i32,
    pub y: i32,
    pub width: u32,
    pub height: u32,
    handle: Handle,
    capture: Cell<Capture>,
}

impl FoundWindow {
    /// Captures the window (see the module's note on which capture is used).
    pub fn capture(&self) -> Result<RgbaImage, String> {
        let own = match (&self.handle, self.capture.get()) {
            (Handle::Xcap(w), Capture::Window) => Some(
                w.capture_image()
                    .map_err(|e| format!("cannot capture the window '{}': {e}", self.title)),
            ),
            _ => None,
        };
        let (picture, used) = pick_capture(own, || self.capture_screen());
        self.capture.set(used);
        picture
    }

    /// How the last picture was taken (`Window` until a capture has shown otherwise).
    pub fn capture_kind(&self) -> Capture {
        self.capture.get()
    }

    /// The window's rectangle of the screen, from the monitor it lies on; what lies off every
    /// monitor is black.
    fn capture_screen(&self) -> Result<RgbaImage, String> {
        let fail = |e: xcap::XCapError| {
            format!(
                "cannot capture the screen under the window '{}': {e}",
                self.title
            )
        };
        let (cx, cy) = (
            self.x + self.width as i32 / 2,
            self.y + self.height as i32 / 2,
        );
        let monitor = xcap::Monitor::from_point(cx, cy)
            .or_else(|_| xcap::Monitor::from_point(self.x.max(0), self.y.max(0)))
            .map_err(fail)?;
        let (mx, my) = (monitor.x().map_err(fail)?, monitor.y().map_err(fail)?);
        let (mw, mh) = (
            monitor.width().map_err(fail)?,
            monitor.height().map_err(fail)?,
        );
        let window = (self.x, self.y, self.width, self.height);
        let Some((x, y, w, h)) = intersect(window, (mx, my, mw, mh)) else {
            return Err(format!("the window '{}' lies off the screen", self.title));
        };
        let part = monitor
            .capture_region((x - mx) as u32, (y - my) as u32, w, h)
            .map_err(fail)?;
        if (w, h) == (self.width, self.height) {
            return Ok(part);
        }
        let mut whole = RgbaImage::from_pixel(self.width, self.height, image::Rgba([0, 0, 0, 255]));
        image::imageops::replace(&mut whole, &part, (x - self.x) as i64, (y - self.y) as i64);
        Ok(whole)
    }

    /// The window system's id for the window (X11 window, Windows HWND).
    pub fn id(&self) -> Result<u32, String> {
        match &self.handle {
            Handle::Xcap(w) => w
                .id()
                .map_err(|e| format!("the window '{}' is gone: {e}", self.title)),
            #[cfg(windows)]
            Handle::Win32(hwnd) => Ok(*hwnd as usize as u32),
        }
    }

    /// Reads the window's position and size again (it may have moved).
    pub fn refresh(&mut self) -> Result<(), String> {
        let (x, y, width, height) = match &self.handle {
            Handle::Xcap(w) => {
                let err = |e: xcap::XCapError| format!("the window '{}' is gone: {e}", self.title);
                (
                    w.x().map_err(err)?,
                    w.y().map_err(err)?,
                    w.width().map_err(err)?,
                    w.height().map_err(err)?,
                )
            }
            #[cfg(windows)]
            Handle::Win32(hwnd) => super::win32::client_rect(*hwnd)
                .map_err(|e| format!("the window '{}' is gone: {e}", self.title))?,
        };
        (self.x, self.y, self.width, self.height) = (x, y, width, height);
        Ok(())
    }
}

/// The picture to use, and how it was taken: the window's own capture (`own`, None where there
/// is none) unless it is black or failed; then the window's rectangle of the screen, kept to from
/// then on if it is not black itself. Where both are black (a minimised or covered window), the
/// window's own, for the reader to refuse with its reason.
fn pick_capture(
    own: Option<Result<RgbaImage, String>>,
    screen: impl FnOnce() -> Result<RgbaImage, String>,
) -> (Result<RgbaImage, String>, Capture) {
    let own = match own {
        Some(Ok(image)) if black_share(&image) <= BLACK_SHARE => {
            return (Ok(image), Capture::Window)
        }
        other => other,
    };
    match (own, screen()) {
        (_, Ok(image)) if black_share(&image) <= BLACK_SHARE => (Ok(image), Capture::Screen),
        (Some(Ok(image)), _) => (Ok(image), Capture::Window),
        (Some(Err(e)), Err(_)) => (Err(e), Capture::Window),
        (None, screen) => (screen, Capture::Screen),
        (Some(Err(_)), Ok(image)) => (Ok(image), Capture::Screen),
    }
}

/// A capture with more than this share of black pixels is taken for one the window system could
/// not draw (the reader refuses such a picture as black too).
const BLACK_SHARE: f64 = 0.4;

/// The share of (sampled) pixels that are black.
fn black_share(image: &RgbaImage) -> f64 {
    let raw = image.as_raw();
    let (mut black, mut all) = (0usize, 0usize);
    for p in raw.chunks_exact(4).step_by(7) {
        all += 1;
        black += usize::from(p[0] < 6 && p[1] < 6 && p[2] < 6);
    }
    if all == 0 {
        return 1.0;
    }
    black as f64 / all as f64
}

/// The part two rectangles (x, y, width, height) share, if any.
fn intersect(a: (i32, i32, u32, u32), b: (i32, i32, u32, u32)) -> Option<(i32, i32, u32, u32)> {
    let left = a.0.max(b.0);
    let top = a.1.max(b.1);
    let right = (a.0 + a.2 as i32).min(b.0 + b.2 as i32);
    let bottom = (a.1 + a.3 as i32).min(b.1 + b.3 as i32);
    (right > left && bottom > top)
        .then(|| (left, top, (right - left) as u32, (bottom - top) as u32))
}

/// Every titled window: xcap's, and on Windows the project's own list where xcap's has none.
fn all_windows() -> Result<Vec<(String, Handle)>, String> {
    let listed = xcap::Window::all().map_err(|e| format!("cannot list windows: {e}"));
    let xcap: Vec<(String, Handle)> = listed
        .as_ref()
        .map(|all| {
            all.iter()
                .filter_map(|w| w.title().ok().map(|t| (t, Handle::Xcap(w.clone()))))
                .collect()
        })
        .unwrap_or_default();
    #[cfg(windows)]
    if xcap.is_empty() {
        return Ok(super::win32::top_level_windows()?
            .into_iter()
            .map(|(hwnd, title)| (title, Handle::Win32(hwnd)))
            .collect());
    }
    listed.map(|_| xcap)
}

/// The titles of all windows on the desktop.
pub fn titles() -> Result<Vec<String>, String> {
    Ok(all_windows()?.into_iter().map(|(t, _)| t).collect())
}

/// The first window whose title is exactly `title`, else one that contains it.
pub fn find(title: &str) -> Result<FoundWindow, String> {
    let titled = all_windows()?;
    let pick = titled
        .iter()
        .position(|(t, _)| t == title)
        .or_else(|| titled.iter().position(|(t, _)| t.contains(title)));
    let Some(i) = pick else {
        let names: Vec<&str> = titled
            .iter()
            .map(|(t, _)| t.as_str())
            .filter(|t| !t.is_empty())
            .collect();
        return Err(format!(
            "no window titled '{title}' (open windows: {})",
            if names.is_empty() {
                "none".to_string()
            } else {
                names.join(", ")
            }
        ));
    };
    let (title, handle) = titled.into_iter().nth(i).expect("picked");
    let capture = match handle {
        Handle::Xcap(_) => Capture::Window,
        #[cfg(windows)]
        Handle::Win32(_) => Capture::Screen,
    };
    let mut found = FoundWindow {
        title,
        x: 0,
        y: 0,
        width: 0,
        height: 0,
        handle,
        capture: Cell::new(capture),
    };
    found.refresh()?;
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rectangles_share_their_overlap_only() {
        assert_eq!(
            intersect((10, 20, 100, 50), (0, 0, 1920, 1080)),
            Some((10, 20, 100, 50))
        );
        assert_eq!(
            intersect((-30, 1000, 100, 200), (0, 0, 1920, 1080)),
            Some((0, 1000, 70, 80))
        );
        assert_eq!(intersect((1920, 0, 100, 100), (0, 0, 1920, 1080)), None);
    }

    fn plain(r: u8, g: u8, b: u8) -> RgbaImage {
        RgbaImage::from_pixel(40, 30, image::Rgba([r, g, b, 255]))
    }

    #[test]
    fn a_black_window_capture_gives_way_to_the_screen() {
        let felt = || Ok(plain(20, 110, 40));
        let black = || Ok(plain(0, 0, 0));
        let never = || -> Result<RgbaImage, String> { panic!("the screen was not needed") };
        // The window's own picture, while it shows something.
        let (got, used) = pick_capture(Some(felt()), never);
        assert_eq!((got.unwrap(), used), (plain(20, 110, 40), Capture::Window));
        // Black (PrintWindow of an OpenGL or DirectX window): the screen's rectangle.
        let (got, used) = pick_capture(Some(black()), felt);
        assert_eq!((got.unwrap(), used), (plain(20, 110, 40), Capture::Screen));
        // Failed: the screen's rectangle too.
        let (got, used) = pick_capture(Some(Err("no".into())), felt);
        assert_eq!((got.unwrap(), used), (plain(20, 110, 40), Capture::Screen));
        // Both black (minimised, covered): the window's own, for the reader to refuse.
        let (got, used) = pick_capture(Some(black()), black);
        assert_eq!((got.unwrap(), used), (plain(0, 0, 0), Capture::Window));
        // No capture of its own (a window only the project's own list found): the screen.
        let (got, used) = pick_capture(None, black);
        assert_eq!((got.unwrap(), used), (plain(0, 0, 0), Capture::Screen));
        let (got, _) = pick_capture(Some(Err("window".into())), || Err("screen".into()));
        assert_eq!(got.unwrap_err(), "window");
    }

    #[test]
    fn a_capture_is_black_by_its_share_of_black_pixels() {
        let black = RgbaImage::from_pixel(40, 30, image::Rgba([0, 0, 0, 255]));
        assert_eq!(black_share(&black), 1.0);
        let mut felt = RgbaImage::from_pixel(40, 30, image::Rgba([20, 110, 40, 255]));
        assert_eq!(black_share(&felt), 0.0);
        for y in 0..10 {
            for x in 0..40 {
                felt.put_pixel(x, y, image::Rgba([2, 3, 1, 255]));
            }
        }
        let share = black_share(&felt);
        assert!((share - 1.0 / 3.0).abs() < 0.05, "{share}");
        assert!(share <= BLACK_SHARE);
    }
}
