//! What a user says of the grouped corners in guided calibration, parsed from text: the rank of
//! each of the 13 rows, the suit of each of the 4 columns, and swaps of two corners put in the
//! wrong group (`3B` is row 3, column B). The terminal and the tests speak this; the panel uses
//! the same checks through `Groups::cards`.

use crate::cards::{Rank, Suit};

/// One thing said.
#[derive(Clone, Debug, PartialEq)]
pub enum Said {
    /// The ranks of rows 1-13.
    Ranks(Vec<Rank>),
    /// The suits of columns A-D.
    Suits(Vec<Suit>),
    /// Exchange two corners: (row, column) each, from 0.
    Swap((usize, usize), (usize, usize)),
    Help,
    Quit,
}

fn rank(token: &str) -> Result<Rank, String> {
    let t = token.to_ascii_uppercase();
    let c = match t.as_str() {
        "10" => 'T',
        _ if t.chars().count() == 1 => t.chars().next().unwrap_or(' '),
        _ => ' ',
    };
    Rank::from_char(c)
        .ok_or_else(|| format!("'{token}' is not a rank (A 2 3 4 5 6 7 8 9 10 J Q K)"))
}

fn suit(token: &str) -> Result<Suit, String> {
    let mut chars = token.chars();
    match (chars.next().map(|c| c.to_ascii_lowercase()), chars.next()) {
        (Some(c), None) => Suit::from_char(c),
        _ => None,
    }
    .ok_or_else(|| format!("'{token}' is not a suit (c d h s)"))
}

/// A cell like `3B`: row 3 (1-13), column B (A-D).
fn cell(token: &str) -> Result<(usize, usize), String> {
    let bad = || format!("'{token}' is not a place: a row 1-13 and a column A-D, like 3B");
    let t = token.to_ascii_uppercase();
    let col = t.chars().last().ok_or_else(bad)?;
    let row: usize = t[..t.len() - col.len_utf8()].parse().map_err(|_| bad())?;
    if !(1..=13).contains(&row) || !('A'..='D').contains(&col) {
        return Err(bad());
    }
    Ok((row - 1, col as usize - 'A' as usize))
}

/// `count` labels, one per `per`, each given once: parsed by `one`, named by `name` in errors.
fn labels<L: PartialEq>(
    tokens: &[&str],
    count: usize,
    what: &str,
    per: &str,
    one: fn(&str) -> Result<L, String>,
    name: fn(&L) -> String,
) -> Result<Vec<L>, String> {
    let labels = tokens
        .iter()
        .map(|t| one(t))
        .collect::<Result<Vec<_>, _>>()?;
    if labels.len() != count {
        return Err(format!(
            "{count} {what} are needed, one per {per}; got {}",
            labels.len()
        ));
    }
    if let Some(l) = super::groups::repeated(&labels) {
        return Err(format!("{} is given twice", name(l)));
    }
    Ok(labels)
}

/// Parses one line.
pub fn parse(line: &str) -> Result<Said, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&first, rest)) = words.split_first() else {
        return Err("say `ranks …`, `suits …`, `swap 3B 5B`, `help` or `quit`".into());
    };
    match first.to_ascii_lowercase().as_str() {
        "ranks" | "rank" => {
            let ranks = labels(rest, 13, "ranks", "row", rank, |r| {
                format!("rank {}", r.char())
            })?;
            Ok(Said::Ranks(ranks))
        }
        "suits" | "suit" => {
            let suits = labels(rest, 4, "suits", "column", suit, |s| {
                format!("suit {}", s.char())
            })?;
            Ok(Said::Suits(suits))
        }
        "swap" => match rest {
            [a, b] => Ok(Said::Swap(cell(a)?, cell(b)?)),
            _ => Err("swap takes two places, like `swap 3B 5B`".into()),
        },
        "help" | "?" => Ok(Said::Help),
        "quit" | "q" => Ok(Said::Quit),
        other => Err(format!(
            "'{other}' is not understood: say `ranks …`, `suits …`, `swap 3B 5B`, `help` or `quit`"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_parse_or_say_what_is_wrong() {
        let Said::Ranks(r) = parse("ranks 7 k 2 A 9 10 J Q 3 4 5 6 8").unwrap() else {
            panic!()
        };
        assert_eq!(r[0].char(), '7');
        assert_eq!(r[5].char(), 'T');
        assert_eq!(
            parse("suits h D s c").unwrap(),
            Said::Suits(vec![
                Suit::Hearts,
                Suit::Diamonds,
                Suit::Spades,
                Suit::Clubs
            ])
        );
        assert_eq!(parse("swap 3b 13D").unwrap(), Said::Swap((2, 1), (12, 3)));
        assert!(parse("ranks 7 7 2 A 9 10 J Q 3 4 5 6 8")
            .unwrap_err()
            .contains("twice"));
        assert!(parse("ranks 7 K").unwrap_err().contains("13 ranks"));
        assert!(parse("suits h d s x").unwrap_err().contains("'x'"));
        assert!(parse("swap 14A 1A").unwrap_err().contains("'14A'"));
        assert!(parse("swap 1E 1A").unwrap_err().contains("'1E'"));
        assert!(parse("dance").unwrap_err().contains("'dance'"));
    }
}
