//! A set of packed keys (`u64`, never `u64::MAX`) in one open-addressing table with linear
//! probing, whose slots can be prefetched before they are read: a depth-first search that
//! remembers millions of positions spends most of its time waiting for the slot of each new one,
//! and asking for the slots of a position's children together overlaps those waits.

const EMPTY: u64 = u64::MAX;

/// Asks the processor to start loading the cache line that holds `slot`, so that a later read
/// finds it there: tables far larger than the caches are read fast when those loads overlap. Only
/// a hint, with no effect on memory; nothing on processors other than x86-64.
#[inline]
pub fn prefetch<T>(slot: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: prefetching is only a hint; it never faults, and the address is a reference's.
        #[allow(unused_unsafe)]
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>(slot as *const T as *const i8)
        };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = slot;
}

/// The table grows when it is this many eighths full.
const MAX_LOAD_EIGHTHS: usize = 5;

pub struct PackedSet {
    slots: Vec<u64>,
    len: usize,
    shift: u32,
}

impl Default for PackedSet {
    fn default() -> PackedSet {
        PackedSet::with_capacity_log2(16)
    }
}

impl PackedSet {
    fn with_capacity_log2(bits: u32) -> PackedSet {
        PackedSet {
            slots: vec![EMPTY; 1 << bits],
            len: 0,
            shift: 64 - bits,
        }
    }

    /// How many keys are in the set.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes of the table.
    pub fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<u64>()
    }

    #[inline]
    fn home(&self, key: u64) -> usize {
        let x = (key ^ key >> 31).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (x >> self.shift) as usize
    }

    /// Asks the processor to start loading the slot where `key` would be, so that a later
    /// `insert` finds it in cache. Only a hint: no effect on what the set holds.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        prefetch(&self.slots[self.home(key)]);
    }

    /// Adds `key`; true when it was not in the set.
    #[inline]
    pub fn insert(&mut self, key: u64) -> bool {
        debug_assert_ne!(key, EMPTY, "u64::MAX marks an empty slot");
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            let e = self.slots[i];
            if e == key {
                return false;
            }
            if e == EMPTY {
                break;
            }
            i = (i + 1) & mask;
        }
        self.slots[i] = key;
        self.len += 1;
        if self.len * 8 > self.slots.len() * MAX_LOAD_EIGHTHS {
            self.grow();
        }
        true
    }

    /// Whether `key` is in the set.
    pub fn contains(&self, key: u64) -> bool {
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            match self.slots[i] {
                e if e == key => return true,
                EMPTY => return false,
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// Takes `key` out of the set (if there), moving back the keys after it in its run of
    /// filled slots that would no longer be found past the hole.
    pub fn remove(&mut self, key: u64) {
        let mask = self.slots.len() - 1;
        let mut hole = self.home(key);
        loop {
            match self.slots[hole] {
                e if e == key => break,
                EMPTY => return,
                _ => hole = (hole + 1) & mask,
            }
        }
        self.len -= 1;
        let mut j = hole;
        loop {
            j = (j + 1) & mask;
            let e = self.slots[j];
            if e == EMPTY {
                break;
            }
            // The key at `j` may fill the hole unless its home lies after the hole, up to `j`
            // (cyclically): then it would be found before reaching the hole anyway.
            let home = self.home(e);
            let stays = if hole <= j {
                hole < home && home <= j
            } else {
                hole < home || home <= j
            };
            if !stays {
                self.slots[hole] = e;
                hole = j;
            }
        }
        self.slots[hole] = EMPTY;
    }

    fn grow(&mut self) {
        let bits = 64 - self.shift + 1;
        let old = std::mem::replace(self, PackedSet::with_capacity_log2(bits));
        for key in old.slots.into_iter().filter(|&k| k != EMPTY) {
            let mask = self.slots.len() - 1;
            let mut i = self.home(key);
            while self.slots[i] != EMPTY {
                i = (i + 1) & mask;
            }
            self.slots[i] = key;
        }
        self.len = old.len;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn holds_what_a_hash_set_holds_through_inserts_and_removals() {
        let mut set = PackedSet::with_capacity_log2(4);
        let mut reference = HashSet::new();
        let mut x = 0x1234_5678u64;
        for step in 0..200_000u64 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            // Few distinct keys, so that inserts meet keys already there and removals find them.
            let key = (x >> 40) % 5_000;
            if step % 3 == 0 {
                set.remove(key);
                reference.remove(&key);
            } else {
                assert_eq!(set.insert(key), reference.insert(key), "insert {key}");
            }
            assert_eq!(set.len(), reference.len());
        }
        for key in 0..5_000 {
            assert_eq!(set.contains(key), reference.contains(&key), "key {key}");
        }
    }
}
