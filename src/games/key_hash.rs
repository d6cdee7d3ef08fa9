//! Hash maps keyed by packed positions (a `u64`), with a multiply-shift hash: std's SipHash is
//! needlessly slow for keys nobody chooses against us. The solvers' visited sets and layers use them.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// A multiply-shift hash for packed keys.
#[derive(Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
    }
    fn write_u64(&mut self, n: u64) {
        let x = (n ^ (n >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        self.0 = x ^ (x >> 32);
    }
    fn write_u128(&mut self, n: u128) {
        self.write_u64(n as u64 ^ ((n >> 64) as u64).rotate_left(32));
    }
}

/// A map from packed keys.
pub type KeyMap<V> = HashMap<u64, V, BuildHasherDefault<KeyHasher>>;
/// A set of packed keys.
pub type KeySet = HashSet<u64, BuildHasherDefault<KeyHasher>>;
/// A map from wide packed keys (`u128`).
pub type WideKeyMap<V> = HashMap<u128, V, BuildHasherDefault<KeyHasher>>;
