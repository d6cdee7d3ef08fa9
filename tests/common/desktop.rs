//! A private X desktop for tests: Xvfb on a free display number plus the openbox window manager,
//! torn down when the guard is dropped. `scripts/test` installs both; a missing one fails the test
//! with a message saying so (it is never skipped).

#![allow(dead_code)]

use std::path::{Path, PathBuf};
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
        let base = 40 + (std::process::id() % 200);
        let n = (base..base + 200)
            .find(|&n| display_free(n))
            .expect("a free X display number");
        let display = format!(":{n}");
        let xvfb = Command::new("Xvfb")
            .args([
                &display,
                "-screen",
                "0",
                &format!("{width}x{height}x24"),
                "-nolisten",
                "tcp",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start Xvfb");
        let socket = PathBuf::from(format!("/tmp/.X11-unix/X{n}"));
        let start = Instant::now();
        while !socket.exists() {
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "Xvfb did not start on {display}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
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

/// Whether display `n` is free: no lock, or a lock left by an X server that is gone (Xvfb takes
/// over a stale lock and socket by itself).
fn display_free(n: u32) -> bool {
    let Ok(lock) = std::fs::read_to_string(format!("/tmp/.X{n}-lock")) else {
        return !Path::new(&format!("/tmp/.X11-unix/X{n}")).exists();
    };
    match lock.trim().parse::<u32>() {
        Ok(pid) => !Path::new(&format!("/proc/{pid}")).exists(),
        Err(_) => false,
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
