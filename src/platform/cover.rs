//! Is the game window the one on top at a screen point? A click must land on the game, never on a
//! window dragged over it. X11: the root's child containing the point (the topmost one) must be
//! the game window's top-level frame. Windows: the root window under the point must be the game's.

/// Asks the window system which window is on top at screen points.
pub struct Stacking {
    inner: imp::Stacking,
}

impl Stacking {
    pub fn open() -> Result<Stacking, String> {
        Ok(Stacking {
            inner: imp::Stacking::open()?,
        })
    }

    /// Whether the window with this id (xcap's id) is the one on top at screen point (x, y).
    pub fn on_top(&mut self, window_id: u32, x: i32, y: i32) -> Result<bool, String> {
        self.inner.on_top(window_id, x, y)
    }
}

#[cfg(target_os = "linux")]
mod imp {
    use x11rb::connection::Connection;
    use x11rb::protocol::xproto::{ConnectionExt, Window};
    use x11rb::rust_connection::RustConnection;

    pub struct Stacking {
        conn: RustConnection,
        root: Window,
    }

    fn fail(e: impl std::fmt::Display) -> String {
        format!("cannot ask X which window is on top: {e}")
    }

    impl Stacking {
        pub fn open() -> Result<Stacking, String> {
            let (conn, screen) = x11rb::connect(None).map_err(fail)?;
            let root = conn.setup().roots[screen].root;
            Ok(Stacking { conn, root })
        }

        /// The window's ancestor that is a child of the root (the window manager's frame).
        fn top_level(&self, mut window: Window) -> Result<Window, String> {
            loop {
                let tree = self
                    .conn
                    .query_tree(window)
                    .map_err(fail)?
                    .reply()
                    .map_err(fail)?;
                if tree.parent == self.root || tree.parent == x11rb::NONE {
                    return Ok(window);
                }
                window = tree.parent;
            }
        }

        pub fn on_top(&mut self, window_id: u32, x: i32, y: i32) -> Result<bool, String> {
            let frame = self.top_level(window_id)?;
            let at = self
                .conn
                .translate_coordinates(self.root, self.root, x as i16, y as i16)
                .map_err(fail)?
                .reply()
                .map_err(fail)?;
            Ok(at.child == frame)
        }
    }
}

#[cfg(windows)]
mod imp {
    use windows::Win32::Foundation::POINT;
    use windows::Win32::UI::WindowsAndMessaging::{GetAncestor, WindowFromPoint, GA_ROOT};

    pub struct Stacking;

    impl Stacking {
        pub fn open() -> Result<Stacking, String> {
            Ok(Stacking)
        }

        pub fn on_top(&mut self, window_id: u32, x: i32, y: i32) -> Result<bool, String> {
            let under = unsafe { GetAncestor(WindowFromPoint(POINT { x, y }), GA_ROOT) };
            Ok(under.0 as usize as u32 == window_id)
        }
    }
}

#[cfg(not(any(target_os = "linux", windows)))]
mod imp {
    pub struct Stacking;

    impl Stacking {
        pub fn open() -> Result<Stacking, String> {
            Ok(Stacking)
        }

        /// Not known here: the mouse and Esc checks remain.
        pub fn on_top(&mut self, _window_id: u32, _x: i32, _y: i32) -> Result<bool, String> {
            Ok(true)
        }
    }
}
