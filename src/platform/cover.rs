//! Is the game window the one on top at a screen point? A click must land on the game, never on a
//! window dragged over it. X11: the root's child containing the point (the topmost one) must be
//! the game window's top-level frame, and the check and the click are one step for the X server.
//! Windows: the root window under the point must be the game's.

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

    /// Clicks the left button at screen point (x, y), where the cursor already is, only if the
    /// window with this id is on top there, still has its top-left corner at `origin` (where
    /// the point was worked out from) and the cursor has not moved off the point; true when it
    /// clicked. X11: the checks and the click are made while the server serves no other client,
    /// so a window moved or raised over the point at that moment cannot take the click, nor the
    /// game window moved from under it (`press` is not used). Elsewhere `press` clicks right
    /// after the check of what is on top.
    pub fn click_if_on_top(
        &mut self,
        window_id: u32,
        origin: (i32, i32),
        (x, y): (i32, i32),
        press: &mut dyn FnMut() -> Result<(), String>,
    ) -> Result<bool, String> {
        #[cfg(target_os = "linux")]
        {
            let _ = press;
            self.inner.click_if_on_top(window_id, origin, (x, y))
        }
        #[cfg(not(target_os = "linux"))]
        {
            let _ = origin;
            if !self.inner.on_top(window_id, x, y)? {
                return Ok(false);
            }
            press()?;
            Ok(true)
        }
    }
}

#[cfg(target_os = "linux")]
mod imp {
    use x11rb::connection::Connection;
    use x11rb::protocol::xproto::{
        ConnectionExt, Window, BUTTON_PRESS_EVENT, BUTTON_RELEASE_EVENT,
    };
    use x11rb::protocol::xtest::ConnectionExt as _;
    use x11rb::rust_connection::RustConnection;
    use x11rb::CURRENT_TIME;

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

        /// The root's child (a top-level frame) on top at screen point (x, y).
        fn top_level_at(&self, x: i32, y: i32) -> Result<Window, String> {
            let at = self
                .conn
                .translate_coordinates(self.root, self.root, x as i16, y as i16)
                .map_err(fail)?
                .reply()
                .map_err(fail)?;
            Ok(at.child)
        }

        pub fn on_top(&mut self, window_id: u32, x: i32, y: i32) -> Result<bool, String> {
            Ok(self.top_level_at(x, y)? == self.top_level(window_id)?)
        }

        pub fn click_if_on_top(
            &mut self,
            window_id: u32,
            origin: (i32, i32),
            (x, y): (i32, i32),
        ) -> Result<bool, String> {
            let frame = self.top_level(window_id)?;
            self.conn.grab_server().map_err(fail)?;
            let clicked = self.click_while_grabbed((window_id, frame), origin, (x, y));
            let released = self.conn.ungrab_server().map_err(fail);
            // Waits for the server to have done it all.
            let synced = released.and_then(|_| {
                self.conn
                    .get_input_focus()
                    .map_err(fail)?
                    .reply()
                    .map_err(fail)
            });
            let clicked = clicked?;
            synced?;
            Ok(clicked)
        }

        /// The check and the click, with the server grabbed: a button press and release made
        /// through XTest on this connection, which the server handles before any other client's
        /// requests (a window move, a raise).
        fn click_while_grabbed(
            &self,
            (window, frame): (Window, Window),
            origin: (i32, i32),
            (x, y): (i32, i32),
        ) -> Result<bool, String> {
            let pointer = self
                .conn
                .query_pointer(self.root)
                .map_err(fail)?
                .reply()
                .map_err(fail)?;
            if (pointer.root_x as i32, pointer.root_y as i32) != (x, y) {
                return Ok(false);
            }
            if self.top_level_at(x, y)? != frame {
                return Ok(false);
            }
            let corner = self
                .conn
                .translate_coordinates(window, self.root, 0, 0)
                .map_err(fail)?
                .reply()
                .map_err(fail)?;
            if (corner.dst_x as i32, corner.dst_y as i32) != origin {
                return Ok(false);
            }
            for kind in [BUTTON_PRESS_EVENT, BUTTON_RELEASE_EVENT] {
                self.conn
                    .xtest_fake_input(kind, 1, CURRENT_TIME, self.root, 0, 0, 0)
                    .map_err(|e| format!("cannot click: {e}"))?;
            }
            Ok(true)
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
