//! Reading decks for the commands: whole files (one deck each, any layout) or batch files (one deck
//! per line, extra tab-separated columns ignored), with errors that name the file and line.

use super::Failure;
use crate::cards::Deck;
use std::io::Read;

/// A deck and where it came from.
pub struct NamedDeck {
    pub source: String,
    pub deck: Deck,
    /// The batch line's second column, when there is one (the expected length in the corpus).
    pub extra: Option<String>,
}

/// Reads a file's text; `-` is standard input.
pub fn read_text(path: &str) -> Result<String, Failure> {
    if path == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| Failure::input(format!("cannot read standard input: {e}")))?;
        return Ok(text);
    }
    std::fs::read_to_string(path).map_err(|e| Failure::input(format!("cannot read {path}: {e}")))
}

/// Reads whole files, each one deck. Every file is checked before any is used.
pub fn read_deck_files(paths: &[String]) -> Result<Vec<NamedDeck>, Failure> {
    let mut decks = Vec::new();
    let mut errors = Vec::new();
    for path in paths {
        match read_text(path)
            .and_then(|t| parse_known(&t).map_err(|e| Failure::input(format!("{path}: {e}"))))
        {
            Ok(deck) => decks.push(NamedDeck {
                source: path.clone(),
                deck,
                extra: None,
            }),
            Err(e) => errors.push(e.message),
        }
    }
    if errors.is_empty() {
        Ok(decks)
    } else {
        Err(Failure::input(errors.join("\n")))
    }
}

/// Reads a batch file: one deck per line (blank lines and `#` lines skipped), first column only.
pub fn read_batch(path: &str) -> Result<Vec<NamedDeck>, Failure> {
    let text = read_text(path)?;
    let mut decks = Vec::new();
    let mut errors = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let mut columns = line.split('\t');
        let first = columns.next().unwrap_or("");
        match parse_known(first) {
            Ok(deck) => decks.push(NamedDeck {
                source: format!("{path}:{}", n + 1),
                deck,
                extra: columns.next().map(|s| s.trim().to_string()),
            }),
            Err(e) => errors.push(format!("{path}: line {}: {e}", n + 1)),
        }
    }
    if !errors.is_empty() {
        let more = if errors.len() > 10 {
            format!("\n... and {} more bad lines", errors.len() - 10)
        } else {
            String::new()
        };
        errors.truncate(10);
        return Err(Failure::input(errors.join("\n") + &more));
    }
    if decks.is_empty() {
        return Err(Failure::input(format!("{path}: no decks in the file")));
    }
    Ok(decks)
}

/// Parses a deck whose every card is known. A card written `??` (face down, not yet seen) gets its
/// own message: solving needs every card, and the agent learns face-down cards by play.
pub fn parse_known(text: &str) -> Result<Deck, String> {
    let unknown = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or(""))
        .flat_map(|l| l.split(|c: char| c.is_whitespace() || ",;|".contains(c)))
        .filter(|w| *w == "??")
        .count();
    if unknown > 0 {
        return Err(format!(
            "{unknown} cards are unknown (`??`): solving needs every card of the deal; the agent \
learns face-down cards by uncovering them, then pressing Undo board"
        ));
    }
    Deck::parse(text).map_err(|e| e.to_string())
}
