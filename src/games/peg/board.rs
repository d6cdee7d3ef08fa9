//! The boards of peg solitaire: which holes there are, their names, the jumps between them, and
//! the board's symmetries. A position is a `u64` with bit i set when hole i holds a peg.
//!
//! - `english`: the 33-hole cross, 7 by 7 without its corners. Holes are named by column a–g
//!   (left to right) and row 1–7 (top to bottom): the centre is `d4`.
//! - `french`: the 37-hole board, the cross with one more hole inside each corner (`b2`, `f2`,
//!   `b6`, `f6`); named as the English board.
//! - `triangle`: 15 holes in five rows, numbered 1 (the top) to 15 row by row, left to right.
//!
//! Pegs jump along rows and columns on the square boards, and along the three directions of the
//! rows and sides on the triangle.

/// One board.
#[derive(Clone, Debug)]
pub struct Board {
    pub kind: Kind,
    /// Each hole's place on the board's lattice (square boards: column, row; triangle: row,
    /// place in the row), in hole order.
    pub cells: Vec<(i32, i32)>,
    /// Every jump: (from, over, to) as hole numbers.
    pub jumps: Vec<[u8; 3]>,
    /// Every symmetry of the board, each a permutation of the holes (the identity first).
    pub symmetries: Vec<Vec<u8>>,
    /// Per symmetry, per byte of a position, the image of that byte's pegs (for fast mapping).
    tables: Vec<[[u64; 256]; 5]>,
}

/// Which board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    English,
    French,
    Triangle,
}

impl Kind {
    pub const ALL: [Kind; 3] = [Kind::English, Kind::French, Kind::Triangle];

    pub fn name(self) -> &'static str {
        match self {
            Kind::English => "english",
            Kind::French => "french",
            Kind::Triangle => "triangle",
        }
    }

    /// The board named `name` (as `--board` takes it), or a message listing the names.
    pub fn parse(name: &str) -> Result<Kind, String> {
        Kind::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(name))
            .ok_or_else(|| format!("unknown board `{name}`: english, french or triangle"))
    }
}

/// Symmetry `k` of a board's lattice: on the square boards the eight turns and mirrors about the
/// centre; on the triangle the three turns by a third, each also mirrored.
fn symmetry(kind: Kind, k: usize, (a, b): (i32, i32)) -> (i32, i32) {
    match kind {
        Kind::English | Kind::French => {
            let (dx, dy) = (a - 3, b - 3);
            let (dx, dy) = if k & 1 == 1 { (dy, dx) } else { (dx, dy) };
            let dx = if k & 2 == 2 { -dx } else { dx };
            let dy = if k & 4 == 4 { -dy } else { dy };
            (dx + 3, dy + 3)
        }
        Kind::Triangle => {
            // Row r, place c in the row: mirrored, (r, r - c); turned, the top corner goes to
            // the bottom left, (4 - c, r - c).
            let mut p = if k >= 3 { (a, a - b) } else { (a, b) };
            for _ in 0..k % 3 {
                p = (4 - p.1, p.0 - p.1);
            }
            p
        }
    }
}

impl Board {
    pub fn new(kind: Kind) -> Board {
        let cells: Vec<(i32, i32)> = match kind {
            Kind::English | Kind::French => {
                let mut cells = Vec::new();
                for y in 0..7 {
                    for x in 0..7 {
                        let arm = (2..=4).contains(&x) || (2..=4).contains(&y);
                        let inner =
                            kind == Kind::French && (1..=5).contains(&x) && (1..=5).contains(&y);
                        if arm || inner {
                            cells.push((x, y));
                        }
                    }
                }
                cells
            }
            Kind::Triangle => (0..5).flat_map(|r| (0..=r).map(move |c| (r, c))).collect(),
        };
        let directions: &[(i32, i32)] = match kind {
            Kind::English | Kind::French => &[(1, 0), (-1, 0), (0, 1), (0, -1)],
            Kind::Triangle => &[(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1)],
        };
        let index = |p: (i32, i32)| cells.iter().position(|&c| c == p).map(|i| i as u8);
        let mut jumps = Vec::new();
        for (i, &(a, b)) in cells.iter().enumerate() {
            for &(dx, dy) in directions {
                if let (Some(over), Some(to)) =
                    (index((a + dx, b + dy)), index((a + 2 * dx, b + 2 * dy)))
                {
                    jumps.push([i as u8, over, to]);
                }
            }
        }
        // The symmetries: maps of the lattice that take the board onto itself.
        let count = match kind {
            Kind::English | Kind::French => 8,
            Kind::Triangle => 6,
        };
        let symmetries: Vec<Vec<u8>> = (0..count)
            .map(|k| {
                cells
                    .iter()
                    .map(|&c| index(symmetry(kind, k, c)).expect("a symmetry keeps the board"))
                    .collect()
            })
            .collect();
        let tables = symmetries
            .iter()
            .map(|perm| {
                let mut t = [[0u64; 256]; 5];
                for (byte, table) in t.iter_mut().enumerate() {
                    for (v, image) in table.iter_mut().enumerate() {
                        for bit in 0..8 {
                            let hole = byte * 8 + bit;
                            if v >> bit & 1 == 1 && hole < perm.len() {
                                *image |= 1 << perm[hole];
                            }
                        }
                    }
                }
                t
            })
            .collect();
        Board {
            kind,
            cells,
            jumps,
            symmetries,
            tables,
        }
    }

    pub fn holes(&self) -> usize {
        self.cells.len()
    }

    /// Every hole filled.
    pub fn full(&self) -> u64 {
        (1u64 << self.holes()) - 1
    }

    /// The board's centre, the usual start (the triangle's: its top).
    pub fn centre(&self) -> u8 {
        match self.kind {
            Kind::English | Kind::French => self.hole_at((3, 3)).expect("the centre"),
            Kind::Triangle => 0,
        }
    }

    fn hole_at(&self, p: (i32, i32)) -> Option<u8> {
        self.cells.iter().position(|&c| c == p).map(|i| i as u8)
    }

    /// A hole's name: `d4` on the square boards, `1` to `15` on the triangle.
    pub fn name(&self, hole: u8) -> String {
        let (a, b) = self.cells[hole as usize];
        match self.kind {
            Kind::English | Kind::French => format!("{}{}", (b'a' + a as u8) as char, b + 1),
            Kind::Triangle => (hole + 1).to_string(),
        }
    }

    /// The hole named `name`, or a message saying which names the board has.
    pub fn parse_hole(&self, name: &str) -> Result<u8, String> {
        let name = name.trim();
        (0..self.holes() as u8)
            .find(|&h| self.name(h).eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                let names = match self.kind {
                    Kind::English | Kind::French => "column a-g and row 1-7, like d4",
                    Kind::Triangle => "1 (the top) to 15",
                };
                format!(
                    "the {} board has no hole `{name}` (holes: {names})",
                    self.kind.name()
                )
            })
    }

    /// A jump written as its holes: `d2-d4` (from, to).
    pub fn jump_name(&self, jump: [u8; 3]) -> String {
        format!("{}-{}", self.name(jump[0]), self.name(jump[2]))
    }

    /// The image of `pegs` under symmetry `k`.
    pub fn map(&self, k: usize, pegs: u64) -> u64 {
        let t = &self.tables[k];
        t[0][(pegs & 0xff) as usize]
            | t[1][(pegs >> 8 & 0xff) as usize]
            | t[2][(pegs >> 16 & 0xff) as usize]
            | t[3][(pegs >> 24 & 0xff) as usize]
            | t[4][(pegs >> 32 & 0xff) as usize]
    }

    /// The smallest image of `pegs` under the given symmetries (by number): one name for a whole
    /// class of mirror images.
    pub fn smallest_image(&self, symmetries: &[usize], pegs: u64) -> u64 {
        symmetries
            .iter()
            .map(|&k| self.map(k, pegs))
            .min()
            .unwrap_or(pegs)
    }

    /// The symmetries (by number) that keep every hole of `fixed` where it is.
    pub fn fixing(&self, fixed: &[u8]) -> Vec<usize> {
        (0..self.symmetries.len())
            .filter(|&k| fixed.iter().all(|&h| self.symmetries[k][h as usize] == h))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// Each board has its holes and jumps (the English board's 76, as seed 001 counts them), and
    /// every symmetry takes holes to holes and jumps to jumps.
    #[test]
    fn boards_have_their_holes_jumps_and_symmetries() {
        for (kind, holes, jumps, symmetries) in [
            (Kind::English, 33, 76, 8),
            (Kind::French, 37, 92, 8),
            (Kind::Triangle, 15, 36, 6),
        ] {
            let board = Board::new(kind);
            assert_eq!(board.holes(), holes, "{kind:?}");
            assert_eq!(board.jumps.len(), jumps, "{kind:?}");
            assert_eq!(board.symmetries.len(), symmetries, "{kind:?}");
            let all: HashSet<[u8; 3]> = board.jumps.iter().copied().collect();
            let mut images = HashSet::new();
            for (k, perm) in board.symmetries.iter().enumerate() {
                let mut seen: Vec<u8> = perm.clone();
                seen.sort_unstable();
                assert_eq!(seen, (0..holes as u8).collect::<Vec<_>>(), "{kind:?} {k}");
                for j in &board.jumps {
                    assert!(all.contains(&j.map(|h| perm[h as usize])), "{kind:?} {k}");
                }
                // The fast mapping agrees with the permutation.
                let pegs = 0x1_2345_6789u64 & board.full();
                let slow = (0..holes)
                    .filter(|&h| pegs >> h & 1 == 1)
                    .fold(0u64, |m, h| m | 1 << perm[h]);
                assert_eq!(board.map(k, pegs), slow);
                images.insert(perm.clone());
            }
            assert_eq!(
                images.len(),
                symmetries,
                "{kind:?}: symmetries are distinct"
            );
        }
    }

    #[test]
    fn holes_are_named_and_parsed() {
        let english = Board::new(Kind::English);
        assert_eq!(english.name(english.centre()), "d4");
        assert_eq!(
            english.parse_hole("C1"),
            Ok(english.parse_hole("c1").unwrap())
        );
        assert!(english
            .parse_hole("a1")
            .unwrap_err()
            .contains("no hole `a1`"));
        let french = Board::new(Kind::French);
        assert!(french.parse_hole("b2").is_ok());
        let triangle = Board::new(Kind::Triangle);
        assert_eq!(triangle.name(triangle.centre()), "1");
        assert_eq!(triangle.parse_hole("15"), Ok(14));
        assert!(triangle.parse_hole("16").is_err());
    }
}
