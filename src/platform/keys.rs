//! Watching for the user's Esc key, anywhere on the desktop, so the agent can stop at once. A
//! background thread polls the key's state every 10 ms and latches a press (a short tap between two
//! polls of the agent's own loop is not missed). X11 on Linux, GetAsyncKeyState on Windows; where
//! neither is available the watcher reports that it cannot watch, and stopping is left to the
//! mouse and the panel's Stop button.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// A latch set when Esc has been pressed since the watcher started.
#[derive(Clone)]
pub struct EscWatch {
    pressed: Arc<AtomicBool>,
}

impl EscWatch {
    /// Starts watching. Err when this desktop offers no way to read the keyboard.
    pub fn start() -> Result<EscWatch, String> {
        let mut probe = imp::Probe::open()?;
        let pressed = Arc::new(AtomicBool::new(false));
        let latch = pressed.clone();
        std::thread::Builder::new()
            .name("esc-watch".into())
            .spawn(move || loop {
                if probe.escape_down() {
                    latch.store(true, Ordering::SeqCst);
                }
                if Arc::strong_count(&latch) == 1 {
                    return; // nobody is watching any more
                }
                std::thread::sleep(Duration::from_millis(10));
            })
            .map_err(|e| format!("cannot start the Esc watcher: {e}"))?;
        Ok(EscWatch { pressed })
    }

    /// Whether Esc was pressed since the watcher started.
    pub fn pressed(&self) -> bool {
        self.pressed.load(Ordering::SeqCst)
    }
}

#[cfg(target_os = "linux")]
mod imp {
    use x11rb::connection::Connection;
    use x11rb::protocol::xproto::ConnectionExt;
    use x11rb::rust_connection::RustConnection;

    const XK_ESCAPE: u32 = 0xff1b;

    pub struct Probe {
        conn: RustConnection,
        escape: Vec<u8>,
    }

    impl Probe {
        pub fn open() -> Result<Probe, String> {
            let (conn, _) = x11rb::connect(None)
                .map_err(|e| format!("cannot watch the keyboard (no X display): {e}"))?;
            let setup = conn.setup();
            let (min, max) = (setup.min_keycode, setup.max_keycode);
            let mapping = conn
                .get_keyboard_mapping(min, max - min + 1)
                .map_err(|e| e.to_string())?
                .reply()
                .map_err(|e| format!("cannot read the keyboard mapping: {e}"))?;
            let per = mapping.keysyms_per_keycode.max(1) as usize;
            let escape: Vec<u8> = mapping
                .keysyms
                .chunks(per)
                .enumerate()
                .filter(|(_, syms)| syms.contains(&XK_ESCAPE))
                .map(|(i, _)| min + i as u8)
                .collect();
            if escape.is_empty() {
                return Err("the keyboard has no Esc key".into());
            }
            Ok(Probe { conn, escape })
        }

        pub fn escape_down(&mut self) -> bool {
            let Ok(Ok(keys)) = self.conn.query_keymap().map(|c| c.reply()) else {
                return false;
            };
            self.escape
                .iter()
                .any(|&k| keys.keys[k as usize / 8] >> (k % 8) & 1 == 1)
        }
    }
}

#[cfg(windows)]
mod imp {
    use windows::Win32::UI::Input::KeyboardAndMouse::{GetAsyncKeyState, VK_ESCAPE};

    pub struct Probe;

    impl Probe {
        pub fn open() -> Result<Probe, String> {
            Ok(Probe)
        }

        pub fn escape_down(&mut self) -> bool {
            // The high bit: down now; the low bit: pressed since the last call.
            let state = unsafe { GetAsyncKeyState(VK_ESCAPE.0 as i32) } as u16;
            state & 0x8001 != 0
        }
    }
}

#[cfg(not(any(target_os = "linux", windows)))]
mod imp {
    pub struct Probe;

    impl Probe {
        pub fn open() -> Result<Probe, String> {
            Err("watching the Esc key is not supported on this system".into())
        }

        pub fn escape_down(&mut self) -> bool {
            false
        }
    }
}
