//! Finding a window by title and capturing it with xcap. On Linux (X11) xcap needs a window manager
//! for its window list; the client area's position plus a pixel's position in the capture is the
//! pixel's position on the screen.

use image::RgbaImage;

/// Titles of the windows the agent plays in, most wanted first.
pub const GAME_TITLES: [&str; 3] = [
    "Microsoft Solitaire Collection",
    "Solitaire & Casual Games",
    "Pyramid Practice Table",
];

/// A window found on the desktop, and where its client area is on the screen.
pub struct FoundWindow {
    pub title: String,
    pub x: i32,
    pub y: i32,
    pub width: u32,
    pub height: u32,
    window: xcap::Window,
}

impl FoundWindow {
    /// Captures the window's client area.
    pub fn capture(&self) -> Result<RgbaImage, String> {
        self.window
            .capture_image()
            .map_err(|e| format!("cannot capture the window '{}': {e}", self.title))
    }

    /// The window system's id for the window (X11 window, Windows HWND).
    pub fn id(&self) -> Result<u32, String> {
        self.window
            .id()
            .map_err(|e| format!("the window '{}' is gone: {e}", self.title))
    }

    /// Reads the window's position and size again (it may have moved).
    pub fn refresh(&mut self) -> Result<(), String> {
        let err = |e: xcap::XCapError| format!("the window '{}' is gone: {e}", self.title);
        self.x = self.window.x().map_err(err)?;
        self.y = self.window.y().map_err(err)?;
        self.width = self.window.width().map_err(err)?;
        self.height = self.window.height().map_err(err)?;
        Ok(())
    }
}

/// The titles of all windows on the desktop.
pub fn titles() -> Result<Vec<String>, String> {
    let windows = xcap::Window::all().map_err(|e| format!("cannot list windows: {e}"))?;
    Ok(windows.iter().filter_map(|w| w.title().ok()).collect())
}

/// The first window whose title is exactly `title`, else one that contains it.
pub fn find(title: &str) -> Result<FoundWindow, String> {
    let windows = xcap::Window::all().map_err(|e| format!("cannot list windows: {e}"))?;
    let titled: Vec<(String, xcap::Window)> = windows
        .into_iter()
        .filter_map(|w| w.title().ok().map(|t| (t, w)))
        .collect();
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
    let (title, window) = titled.into_iter().nth(i).expect("picked");
    let mut found = FoundWindow {
        title,
        x: 0,
        y: 0,
        width: 0,
        height: 0,
        window,
    };
    found.refresh()?;
    Ok(found)
}
