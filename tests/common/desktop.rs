//! A private X desktop for tests: Xvfb on a free display number plus the openbox window manager,
//! torn down when the guard is dropped. `scripts/test` installs both; a missing one fails the test
//! with a message saying so (it is never skipped).

#![allow(dead_code)]

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct Desktop {
    pub display: String,
    children: Vec<Child>,
    // Tests in one process share DISPLAY (xcap reads it): one desktop at a time.
    _turn: std::sync::MutexGuard<'static, ()>,
}

static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn need(program: &str) {
    let found = std::env::var_os("PATH")
        .map(|paths| std::env::split_paths(&paths).any(|d| d.join(program).is_file()))
        .unwrap_or(false);
    assert!(
        found,
        "{program} is not installed: run scripts/test (it installs xvfb, openbox and xdotool)"
    );
}

impl Desktop {
    /// Starts Xvfb (1280×800 by default) and openbox on a display nobody uses.
    pub fn start(width: u32, height: u32) -> Desktop {
        need("Xvfb");
        need("openbox");
        let turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
        let mut why = String::new();
        let (xvfb, n) = (0..3)
            .find_map(|_| match start_xvfb(width, height) {
                Ok(started) => Some(started),
                Err(e) => {
                    why = e;
                    None
                }
            })
            .unwrap_or_else(|| panic!("Xvfb did not start, three times: {why}"));
        let display = format!(":{n}");
        let mut desktop = Desktop {
            display: display.clone(),
            children: vec![xvfb],
            _turn: turn,
        };
        let wm = desktop
            .command("openbox")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start openbox");
        desktop.children.push(wm);
        std::thread::sleep(Duration::from_millis(500));
        desktop
    }

    /// A command that runs on this desktop (DISPLAY set, Wayland variables removed).
    pub fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut c = Command::new(program);
        c.env("DISPLAY", &self.display)
            .env_remove("WAYLAND_DISPLAY")
            .env_remove("XDG_SESSION_TYPE");
        c
    }

    /// Makes this process use the desktop too (for xcap calls made from the test itself).
    pub fn enter(&self) {
        std::env::set_var("DISPLAY", &self.display);
        std::env::remove_var("WAYLAND_DISPLAY");
        std::env::remove_var("XDG_SESSION_TYPE");
    }

    /// Starts a program on the desktop, killed with the desktop.
    pub fn spawn(&mut self, mut command: Command) -> &mut Child {
        let child = command
            .spawn()
            .expect("start a program on the test desktop");
        self.children.insert(1, child);
        &mut self.children[1]
    }

    /// Starts a table (`command`, its other arguments given) writing its event log to `log` and
    /// what it prints to `log` with the extension `stderr`; killed with the desktop.
    pub fn spawn_table(&mut self, mut command: Command, log: &Path) -> &mut Child {
        command
            .arg("--log")
            .arg(log)
            .stdout(Stdio::null())
            .stderr(Stdio::from(
                std::fs::File::create(log.with_extension("stderr")).unwrap(),
            ));
        self.spawn(command)
    }

    /// Runs xdotool with these arguments; its output.
    pub fn xdotool(&self, args: &[&str]) -> String {
        need("xdotool");
        let out = self
            .command("xdotool")
            .args(args)
            .output()
            .expect("run xdotool");
        assert!(out.status.success(), "xdotool {args:?} failed");
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// Clicks at screen point (x, y) with xdotool.
    pub fn click(&self, x: i32, y: i32) {
        need("xdotool");
        let ok = self
            .command("xdotool")
            .args(["mousemove", &x.to_string(), &y.to_string(), "click", "1"])
            .status()
            .expect("run xdotool")
            .success();
        assert!(ok, "xdotool click at {x},{y} failed");
    }
}

impl Drop for Desktop {
    fn drop(&mut self) {
        // Programs first, the X server last.
        for child in self.children.iter_mut().rev() {
            let _ = child.kill();
            let _ = child.wait();
        }
        // A killed X server leaves its lock and socket behind: they would use up display numbers.
        if let Some(n) = self.display.strip_prefix(':') {
            let _ = std::fs::remove_file(format!("/tmp/.X{n}-lock"));
            let _ = std::fs::remove_file(format!("/tmp/.X11-unix/X{n}"));
        }
    }
}

/// Starts Xvfb on a display number it picks itself (`-displayfd`: it takes the first free one
/// under its own lock, so two desktops never race for a number); the server and its number,
/// once it accepts connections. Err names what went wrong, with what Xvfb printed.
fn start_xvfb(width: u32, height: u32) -> Result<(Child, u32), String> {
    let log = std::env::temp_dir().join(format!("xvfb-{}.stderr", std::process::id()));
    let mut xvfb = Command::new("Xvfb")
        .args([
            "-displayfd",
            "1",
            "-screen",
            "0",
            &format!("{width}x{height}x24"),
            "-nolisten",
            "tcp",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::from(
            std::fs::File::create(&log).map_err(|e| format!("{}: {e}", log.display()))?,
        ))
        .spawn()
        .map_err(|e| format!("start Xvfb: {e}"))?;
    let stdout = xvfb.stdout.take().expect("Xvfb's stdout is piped");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut line);
        let _ = tx.send(line);
    });
    let number = rx
        .recv_timeout(Duration::from_secs(30))
        .ok()
        .and_then(|line| line.trim().parse::<u32>().ok());
    match number {
        Some(n) => Ok((xvfb, n)),
        None => {
            let _ = xvfb.kill();
            let _ = xvfb.wait();
            let printed = std::fs::read_to_string(&log).unwrap_or_default();
            Err(format!(
                "no display number within 30 s; it printed: {}",
                printed.trim()
            ))
        }
    }
}

/// The table's event log (`table --log FILE`), one JSON object per line; lines not yet complete
/// are left out.
pub fn log_events(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

/// What every game's table log must show, whatever the game's outcome: no illegal move, no click
/// off a target, and every click the agent reports (`report["clicks"]`) reached the table.
/// Returns the log's events.
pub fn assert_clean_log(
    log: &Path,
    report: &serde_json::Value,
    what: &str,
) -> Vec<serde_json::Value> {
    let events = log_events(log);
    let count = |kind: &str| events.iter().filter(|e| e["event"] == kind).count();
    assert_eq!(count("illegal"), 0, "{what}: {events:?}");
    assert!(
        events
            .iter()
            .all(|e| e["event"] != "click" || e["target"] != "none"),
        "{what}: a click off every target: {events:?}"
    );
    assert_eq!(
        count("click") as u64,
        report["clicks"].as_u64().unwrap(),
        "{what}: every click reached the table"
    );
    events
}

/// Polls `f` every 50 ms until it returns Some, or panics after `secs` seconds naming `what`.
pub fn wait_for<T>(secs: u64, what: &str, mut f: impl FnMut() -> Option<T>) -> T {
    let start = Instant::now();
    loop {
        if let Some(v) = f() {
            return v;
        }
        assert!(
            start.elapsed() < Duration::from_secs(secs),
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}
