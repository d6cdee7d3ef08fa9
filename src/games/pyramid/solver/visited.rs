//! The set of states the search has reached, with the fewest steps found to each and the step that
//! got there, packed into one u64 per state in an open-addressing table.
//!
//! Entry layout: bits 0..42 the state's key, 42..49 its step count `g`, 49..63 the move that reached
//! it (see `search::Move`). An empty slot is all ones.

use super::problem::{Key, KEY_BITS, KEY_MASK};

const EMPTY: u64 = u64::MAX;
const G_SHIFT: u32 = KEY_BITS;
const MOVE_SHIFT: u32 = KEY_BITS + 7;
pub const MAX_G: u32 = 127;
/// How many states the searches expand together, their slots prefetched (see `prefetch`).
pub const BATCH: usize = 16;

pub struct Visited {
    slots: Vec<u64>,
    len: usize,
    shift: u32,
}

impl Visited {
    pub fn new() -> Visited {
        Visited::with_capacity_log2(16)
    }

    fn with_capacity_log2(bits: u32) -> Visited {
        Visited {
            slots: vec![EMPTY; 1 << bits],
            len: 0,
            shift: 64 - bits,
        }
    }

    #[inline]
    fn home(&self, key: Key) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    /// Asks the processor to start loading the slot where `key` would be, so that a later `get`
    /// or `improve` finds it in cache: the table is far larger than the caches, and overlapping
    /// those loads is what keeps the search fast. No effect on other processors.
    #[inline]
    pub fn prefetch(&self, key: Key) {
        crate::games::packed_set::prefetch(&self.slots[self.home(key)]);
    }

    /// The step count and move recorded for a state.
    #[inline]
    pub fn get(&self, key: Key) -> Option<(u32, u32)> {
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            let e = self.slots[i];
            if e == EMPTY {
                return None;
            }
            if e & KEY_MASK == key {
                return Some(((e >> G_SHIFT) as u32 & MAX_G, (e >> MOVE_SHIFT) as u32));
            }
            i = (i + 1) & mask;
        }
    }

    /// Records reaching `key` in `g` steps by `mv`, unless it was already reached in `g` or fewer.
    /// True when this is new or better.
    #[inline]
    pub fn improve(&mut self, key: Key, g: u32, mv: u32) -> bool {
        debug_assert!(g <= MAX_G && mv < 1 << (64 - MOVE_SHIFT - 1));
        if (self.len + 1) * 4 > self.slots.len() * 3 {
            self.grow();
        }
        let entry = key | (g as u64) << G_SHIFT | (mv as u64) << MOVE_SHIFT;
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            let e = self.slots[i];
            if e == EMPTY {
                self.slots[i] = entry;
                self.len += 1;
                return true;
            }
            if e & KEY_MASK == key {
                if (e >> G_SHIFT) as u32 & MAX_G <= g {
                    return false;
                }
                self.slots[i] = entry;
                return true;
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let bits = 64 - self.shift + 1;
        let old = std::mem::replace(self, Visited::with_capacity_log2(bits));
        let mask = self.slots.len() - 1;
        for e in old.slots.into_iter().filter(|&e| e != EMPTY) {
            let mut i = self.home(e & KEY_MASK);
            while self.slots[i] != EMPTY {
                i = (i + 1) & mask;
            }
            self.slots[i] = e;
        }
        self.len = old.len;
    }

    pub fn len(&self) -> usize {
        self.len
    }

    /// Bytes held by the table.
    pub fn bytes(&self) -> usize {
        self.slots.len() * 8
    }
}

impl Default for Visited {
    fn default() -> Self {
        Visited::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_fewest_steps_and_grows() {
        let mut v = Visited::new();
        for k in 0..200_000u64 {
            assert!(v.improve(k * 7919, 50, 3));
        }
        assert_eq!(v.len(), 200_000);
        assert!(!v.improve(7919, 60, 1));
        assert!(v.improve(7919, 40, 2));
        assert_eq!(v.get(7919), Some((40, 2)));
        assert_eq!(v.get(7919 * 7919 * 7919), None);
    }
}
