//! Where each OS keeps an application's data for the user: `%APPDATA%` on Windows,
//! `~/Library/Application Support` on macOS, `$XDG_DATA_HOME` (else `~/.local/share`) elsewhere.
//! `SOLITAIRE_AGENT_DATA` overrides it (a portable install, or tests that must not touch the
//! user's own folder).

use std::path::PathBuf;

/// The variable that, when set and not empty, names the data folder itself.
pub const OVERRIDE: &str = "SOLITAIRE_AGENT_DATA";

/// The folder's name under the OS's data folder.
const APP: &str = "solitaire-agent";

/// The application's data folder (not created here), or why there is none.
pub fn data_dir() -> Result<PathBuf, String> {
    if let Some(dir) = std::env::var_os(OVERRIDE).filter(|v| !v.is_empty()) {
        return Ok(PathBuf::from(dir));
    }
    base().map(|b| b.join(APP))
}

#[cfg(windows)]
fn base() -> Result<PathBuf, String> {
    std::env::var_os("APPDATA")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .ok_or_else(|| format!("%APPDATA% is not set: set {OVERRIDE} to a folder for the data"))
}

#[cfg(target_os = "macos")]
fn base() -> Result<PathBuf, String> {
    home().map(|h| h.join("Library").join("Application Support"))
}

#[cfg(not(any(windows, target_os = "macos")))]
fn base() -> Result<PathBuf, String> {
    match std::env::var_os("XDG_DATA_HOME").filter(|v| !v.is_empty()) {
        Some(dir) if PathBuf::from(&dir).is_absolute() => Ok(PathBuf::from(dir)),
        _ => home().map(|h| h.join(".local").join("share")),
    }
}

#[cfg(not(windows))]
fn home() -> Result<PathBuf, String> {
    std::env::var_os("HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .ok_or_else(|| format!("$HOME is not set: set {OVERRIDE} to a folder for the data"))
}
