//! The user's data folder (where the OS keeps it, see `platform::data_dir`) and what lives there:
//! template sets made by calibration (`templates/NAME/`), one log per game played (`logs/`), and
//! the panel's remembered choices (`settings.json`). Found the same from any working folder.

pub mod sets;
pub mod settings;
pub mod stamp;

use std::path::PathBuf;

/// The data folder (not created here).
pub fn folder() -> Result<PathBuf, String> {
    crate::platform::data_dir::data_dir()
}

/// Where template sets saved by name go, and are found first.
pub fn templates_dir() -> Result<PathBuf, String> {
    folder().map(|f| f.join("templates"))
}

/// Where the game logs go.
pub fn logs_dir() -> Result<PathBuf, String> {
    folder().map(|f| f.join("logs"))
}

/// The panel's remembered choices.
pub fn settings_file() -> Result<PathBuf, String> {
    folder().map(|f| f.join("settings.json"))
}

/// Folders of template sets shipped with the project, searched after the data folder: `templates/`
/// in the working folder and beside the program.
pub fn shipped_templates_dirs() -> Vec<PathBuf> {
    let mut dirs = vec![PathBuf::from("templates")];
    if let Some(beside) = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|p| p.join("templates")))
    {
        if std::fs::canonicalize(&beside).ok() != std::fs::canonicalize(&dirs[0]).ok() {
            dirs.push(beside);
        }
    }
    dirs
}
