//! The template sets a user has: those saved in the data folder by calibration, then those shipped
//! with the project (`templates/`), as `solitaire-agent templates` and the panel list them; and
//! removing a saved one.

use crate::vision::templates::{Manifest, MANIFEST, PICTURE};
use std::path::{Path, PathBuf};

/// One template set as listed.
#[derive(Clone, Debug, PartialEq)]
pub struct SetInfo {
    pub name: String,
    pub dir: PathBuf,
    /// Shipped with the project rather than saved in the data folder.
    pub shipped: bool,
    /// Card width and height in the calibration frames, in pixels.
    pub card: Option<(u32, u32)>,
    /// When the set was made (the manifest's `made`, else when its manifest was written).
    pub made: Option<String>,
    /// The theme's picture (a few of its corners), when the set has one.
    pub picture: Option<PathBuf>,
    /// Why the set cannot be used (its manifest is damaged), if it cannot.
    pub problem: Option<String>,
}

/// Every set: the data folder's first, then the shipped ones not hidden by a saved set of the
/// same name; each group by name.
pub fn list() -> Vec<SetInfo> {
    let mut out = Vec::new();
    if let Ok(dir) = super::templates_dir() {
        out.extend(in_folder(&dir, false));
    }
    for dir in super::shipped_templates_dirs() {
        for set in in_folder(&dir, true) {
            if !out.iter().any(|s: &SetInfo| s.name == set.name) {
                out.push(set);
            }
        }
    }
    out
}

/// The sets in one folder, by name.
fn in_folder(dir: &Path, shipped: bool) -> Vec<SetInfo> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<SetInfo> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join(MANIFEST).is_file())
        .filter_map(|p| {
            let name = p.file_name()?.to_string_lossy().into_owned();
            (!name.starts_with('.')).then(|| describe(name, p, shipped))
        })
        .collect();
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

fn describe(name: String, dir: PathBuf, shipped: bool) -> SetInfo {
    let manifest_path = dir.join(MANIFEST);
    let written = std::fs::metadata(&manifest_path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map(|d| super::stamp::text(d.as_secs()));
    let picture = Some(dir.join(PICTURE)).filter(|p| p.is_file());
    let parsed = std::fs::read_to_string(&manifest_path)
        .map_err(|e| e.to_string())
        .and_then(|t| serde_json::from_str::<Manifest>(&t).map_err(|e| e.to_string()));
    match parsed {
        Ok(m) => SetInfo {
            name,
            card: Some((
                m.card_width.round() as u32,
                (m.card_width * m.aspect).round() as u32,
            )),
            made: m.made.or(written),
            picture,
            problem: None,
            dir,
            shipped,
        },
        Err(e) => SetInfo {
            name,
            card: None,
            made: written,
            picture,
            problem: Some(format!("{MANIFEST} is damaged: {e}")),
            dir,
            shipped,
        },
    }
}

/// Removes the set saved in the data folder under `name`; its folder on success. Shipped sets and
/// folders given as paths are left alone.
pub fn remove(name: &str) -> Result<PathBuf, String> {
    let sets = list();
    let names = || {
        let saved: Vec<&str> = sets
            .iter()
            .filter(|s| !s.shipped)
            .map(|s| s.name.as_str())
            .collect();
        if saved.is_empty() {
            "there are no saved sets".to_string()
        } else {
            format!("saved sets: {}", saved.join(", "))
        }
    };
    match sets.iter().find(|s| s.name == name) {
        Some(set) if !set.shipped => {
            std::fs::remove_dir_all(&set.dir)
                .map_err(|e| format!("cannot remove {}: {e}", set.dir.display()))?;
            Ok(set.dir.clone())
        }
        Some(set) => Err(format!(
            "template set '{name}' is shipped with the project ({}), not saved in the data \
folder: it is not removed",
            set.dir.display()
        )),
        None => Err(format!("no template set named '{name}'; {}", names())),
    }
}
