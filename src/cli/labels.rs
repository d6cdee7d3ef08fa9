//! Guided calibration in the terminal: shows the grouped corners (a picture saved beside, and the
//! places each corner was seen at), then takes `swap`, `ranks` and `suits` lines until every
//! group is labelled — 13 ranks and 4 suits instead of 52 cards.

use crate::cards::{Card, Rank, Suit};
use crate::vision::calibrate::Corners;
use crate::vision::groups::{sheet, Groups};
use crate::vision::labels::{parse, Said};
use crate::vision::proposals::{known_faces, propose};
use std::io::{BufRead, Write};
use std::path::Path;

/// Short name of where corner `i` was seen: `p1`…`p28` (pyramid, top row first), `s1`…`s24`
/// (stock, from its top).
pub fn short_place(i: usize) -> String {
    if i < 28 {
        format!("p{}", i + 1)
    } else {
        format!("s{}", i - 27)
    }
}

const HELP: &str = "\
Each row should hold the four cards of one rank, each column the 13 cards of one suit.
  swap 3B 5B                         exchange two cards put in the wrong place (row 3 column B, row 5 column B)
  ranks 7 K 2 A 9 10 J Q 3 4 5 6 8   the rank of every row, top row first
  suits h d s c                      the suit of every column, A to D (c d h s)
  quit                               stop; nothing is saved";

fn show(out: &mut dyn Write, groups: &Groups, picture: &Path) -> std::io::Result<()> {
    writeln!(out, "The 52 cards, grouped: see {}", picture.display())?;
    writeln!(out, "        A    B    C    D")?;
    for (r, g) in groups.ranks.iter().enumerate() {
        let cells: Vec<String> = g
            .iter()
            .map(|&i| format!("{:<4}", short_place(i)))
            .collect();
        writeln!(out, "row {:>2}: {}", r + 1, cells.join(" "))?;
    }
    writeln!(
        out,
        "(p1-p28: pyramid cards, top row first; s1-s24: stock cards from the top)"
    )
}

/// Asks for the labels until they are complete; every card's identity in corner order. The
/// picture of the groups is written to `picture` (again after each swap). Labels proposed from
/// the card faces the program knows are shown as lines to check and type (or paste) back.
pub fn label_in_terminal(
    corners: &Corners,
    mut groups: Groups,
    picture: &Path,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<Vec<Card>, String> {
    let proposed = propose(corners, &groups, known_faces());
    let io = |e: std::io::Error| format!("terminal: {e}");
    let save = |g: &Groups| {
        sheet(corners, g)
            .save(picture)
            .map_err(|e| format!("cannot write {}: {e}", picture.display()))
    };
    save(&groups)?;
    show(out, &groups, picture).map_err(io)?;
    writeln!(out, "{HELP}").map_err(io)?;
    if let Some(p) = &proposed {
        let ranks: Vec<String> = p
            .ranks
            .iter()
            .map(|r| match r.char() {
                'T' => "10".to_string(),
                c => c.to_string(),
            })
            .collect();
        let suits: Vec<String> = p.suits.iter().map(|s| s.char().to_string()).collect();
        writeln!(
            out,
            "Proposed from the card faces this program knows (check them against the picture):\n  \
             ranks {}\n  suits {}",
            ranks.join(" "),
            suits.join(" ")
        )
        .map_err(io)?;
    }
    let mut ranks: Option<Vec<Rank>> = None;
    let mut suits: Option<Vec<Suit>> = None;
    loop {
        if let (Some(r), Some(s)) = (&ranks, &suits) {
            return groups.cards(r, s);
        }
        let wanted = match (&ranks, &suits) {
            (None, None) => "ranks and suits",
            (None, _) => "ranks",
            _ => "suits",
        };
        write!(out, "{wanted}> ").map_err(io)?;
        out.flush().map_err(io)?;
        let mut line = String::new();
        if input.read_line(&mut line).map_err(io)? == 0 {
            return Err(format!(
                "the input ended before the {wanted} were given; nothing was saved"
            ));
        }
        match parse(&line) {
            Ok(Said::Ranks(r)) => ranks = Some(r),
            Ok(Said::Suits(s)) => suits = Some(s),
            Ok(Said::Swap(a, b)) => {
                groups.swap(a, b);
                save(&groups)?;
                show(out, &groups, picture).map_err(io)?;
            }
            Ok(Said::Help) => writeln!(out, "{HELP}").map_err(io)?,
            Ok(Said::Quit) => return Err("calibration given up; nothing was saved".into()),
            Err(e) => writeln!(out, "{e}").map_err(io)?,
        }
    }
}
