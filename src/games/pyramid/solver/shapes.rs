//! The 1430 shapes a pyramid can have during play, numbered, with what is uncovered in each and
//! which shape removing a card leads to. The same for every deck, built once.
//!
//! A shape is the set of positions still holding a card (28 bit flags). A card can only be removed
//! after the two cards covering it, so only 1430 of the 2^28 sets occur.

use crate::games::pyramid::{Position, PYRAMID_SIZE};
use std::collections::HashMap;
use std::sync::OnceLock;

/// A shape's number, 0..1430. Shape 0 is the empty pyramid.
pub type ShapeId = u16;

/// The table of all shapes.
pub struct Shapes {
    /// Position flags of each shape, sorted ascending (so the empty pyramid is shape 0).
    pub flags: Vec<u32>,
    /// Uncovered positions of each shape, as flags.
    pub uncovered: Vec<u32>,
    /// `after_removing[shape][pos]`: the shape once the card at `pos` is removed
    /// (only meaningful where `pos` is uncovered).
    pub after_removing: Vec<[ShapeId; PYRAMID_SIZE]>,
    /// Per position, the positions it can never be removed together with: those covering it
    /// (its cone below) and those it covers.
    pub related: [u32; PYRAMID_SIZE],
    id_of: HashMap<u32, ShapeId>,
}

pub const FULL: u32 = (1 << PYRAMID_SIZE) - 1;
pub const EMPTY_SHAPE: ShapeId = 0;

impl Shapes {
    /// The shared table.
    pub fn get() -> &'static Shapes {
        static SHAPES: OnceLock<Shapes> = OnceLock::new();
        SHAPES.get_or_init(Shapes::build)
    }

    /// The shape with these flags, if it can occur.
    pub fn id(&self, flags: u32) -> Option<ShapeId> {
        self.id_of.get(&flags).copied()
    }

    /// The shape after removing the uncovered cards at positions `a` and `b`.
    pub fn without_pair(&self, shape: ShapeId, a: u32, b: u32) -> ShapeId {
        let once = self.after_removing[shape as usize][a as usize];
        self.after_removing[once as usize][b as usize]
    }

    pub fn len(&self) -> usize {
        self.flags.len()
    }

    pub fn is_empty(&self) -> bool {
        self.flags.is_empty()
    }

    fn build() -> Shapes {
        let cones: Vec<u32> = Position::all().map(|p| p.cone_below()).collect();
        let uncovered_in = |flags: u32| -> u32 {
            (0..PYRAMID_SIZE)
                .filter(|&p| flags >> p & 1 == 1 && flags & cones[p] == 0)
                .fold(0, |m, p| m | 1 << p)
        };
        // Every shape reachable from the full pyramid by removing uncovered cards.
        let mut all = vec![FULL];
        let mut seen: std::collections::HashSet<u32> = all.iter().copied().collect();
        let mut i = 0;
        while i < all.len() {
            let f = all[i];
            let open = uncovered_in(f);
            for p in 0..PYRAMID_SIZE {
                if open >> p & 1 == 1 && seen.insert(f & !(1 << p)) {
                    all.push(f & !(1 << p));
                }
            }
            i += 1;
        }
        all.sort_unstable();
        let id_of: HashMap<u32, ShapeId> = all
            .iter()
            .enumerate()
            .map(|(i, &f)| (f, i as ShapeId))
            .collect();
        let uncovered: Vec<u32> = all.iter().map(|&f| uncovered_in(f)).collect();
        let after_removing = all
            .iter()
            .zip(&uncovered)
            .map(|(&f, &open)| {
                let mut row = [ShapeId::MAX; PYRAMID_SIZE];
                for (p, next) in row.iter_mut().enumerate() {
                    if open >> p & 1 == 1 {
                        *next = id_of[&(f & !(1 << p))];
                    }
                }
                row
            })
            .collect();
        let mut related = [0u32; PYRAMID_SIZE];
        for p in 0..PYRAMID_SIZE {
            related[p] |= cones[p];
            for (q, cone) in cones.iter().enumerate() {
                if cone >> p & 1 == 1 {
                    related[p] |= 1 << q;
                }
            }
        }
        Shapes {
            flags: all,
            uncovered,
            after_removing,
            related,
            id_of,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn there_are_1430_shapes() {
        let s = Shapes::get();
        assert_eq!(s.len(), 1430);
        assert_eq!(s.flags[EMPTY_SHAPE as usize], 0);
        let full = s.id(FULL).unwrap();
        assert_eq!(s.uncovered[full as usize], 0b1111111 << 21);
        // Position 12 is related to its cone (17 18 23 24 25) and to what it covers (0 1 2 3 4 5 7 8).
        let rel: Vec<usize> = (0..28).filter(|q| s.related[12] >> q & 1 == 1).collect();
        assert_eq!(rel, vec![0, 1, 2, 3, 4, 5, 7, 8, 17, 18, 23, 24, 25]);
    }
}
