//! The panel's choices remembered between runs, as JSON in the data folder: the game, the window,
//! how the cards are learned, the template set, the layout, the challenge. A missing or damaged
//! file gives the defaults; saving writes a new file beside the old and renames it over.

use serde::{Deserialize, Serialize};
use std::path::Path;

/// What the panel remembers. Every field has a default, so a file from another version loads.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    pub game: String,
    /// The game's variant (Klondike's "Draw 3"); empty for a game with one.
    pub variant: String,
    /// The game window's title last played in.
    pub window: String,
    /// How the cards are learned: `guided`, `deck-file` or `template-set`.
    pub learn: String,
    pub deck_file: String,
    pub template_set: String,
    /// The name calibration saves a new set under.
    pub save_as: String,
    pub profile: String,
    pub goal: String,
    pub deals: u32,
    /// The practice table's deal.
    pub table_seed: u64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            game: "pyramid".into(),
            variant: String::new(),
            window: String::new(),
            learn: "guided".into(),
            deck_file: String::new(),
            template_set: String::new(),
            save_as: String::new(),
            profile: "auto".into(),
            goal: "board".into(),
            deals: 1,
            table_seed: 1,
        }
    }
}

impl Settings {
    /// The settings in `file`; the defaults when there are none or they cannot be read (with why,
    /// for the panel's message).
    pub fn load(file: &Path) -> (Settings, Option<String>) {
        match std::fs::read_to_string(file) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => (Settings::default(), None),
            Err(e) => (
                Settings::default(),
                Some(format!("cannot read {}: {e}", file.display())),
            ),
            Ok(text) => match serde_json::from_str(&text) {
                Ok(s) => (s, None),
                Err(e) => (
                    Settings::default(),
                    Some(format!(
                        "{} is damaged ({e}); starting from the defaults",
                        file.display()
                    )),
                ),
            },
        }
    }

    /// Writes the settings to `file` (whole or not at all).
    pub fn save(&self, file: &Path) -> Result<(), String> {
        if let Some(dir) = file.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        let tmp = file.with_extension(format!("json.tmp{}", std::process::id()));
        let text = serde_json::to_string_pretty(self).expect("settings") + "\n";
        std::fs::write(&tmp, text).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
        std::fs::rename(&tmp, file).map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            format!("cannot write {}: {e}", file.display())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_round_trip_and_survive_damage() {
        let dir = std::env::temp_dir().join(format!("sa-settings-{}", std::process::id()));
        let file = dir.join("settings.json");
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(Settings::load(&file), (Settings::default(), None));
        let s = Settings {
            window: "Solitaire & Casual Games".into(),
            learn: "template-set".into(),
            template_set: "mine".into(),
            goal: "score:500".into(),
            deals: 3,
            ..Settings::default()
        };
        s.save(&file).unwrap();
        assert_eq!(Settings::load(&file), (s, None));
        // Fields a file lacks take their defaults.
        std::fs::write(&file, r#"{"goal":"clear:A:4"}"#).unwrap();
        let (partial, why) = Settings::load(&file);
        assert_eq!(
            (partial.goal.as_str(), partial.deals, why),
            ("clear:A:4", 1, None)
        );
        std::fs::write(&file, "{not json").unwrap();
        let (damaged, why) = Settings::load(&file);
        assert_eq!(damaged, Settings::default());
        assert!(why.unwrap().contains("damaged"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
