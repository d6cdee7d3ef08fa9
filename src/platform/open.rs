//! Opening a file with the program the OS shows it in (a game log in the text viewer): `explorer`
//! on Windows, `open` on macOS, `xdg-open` elsewhere.

use std::path::Path;

/// Shows `path` in the user's viewer for its kind; Err says why not.
pub fn open(path: &Path) -> Result<(), String> {
    let program = if cfg!(windows) {
        "explorer"
    } else if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    std::process::Command::new(program)
        .arg(path)
        .spawn()
        .map(|_| ())
        .map_err(|e| format!("cannot open {} with {program}: {e}", path.display()))
}
