//! Frame-sized buffers kept from one frame for the next. Every read works out maps as large as the
//! frame (grey levels, edge sums, where the felt is); memory fresh from the system costs a page
//! fault per page on first touch (a tenth of a 1440×900 read's time went to them), so the buffers
//! of the last frames are handed out again instead.

use std::sync::Mutex;

/// Buffers smaller than this many elements are not worth keeping.
const SMALLEST_KEPT: usize = 1 << 16;
/// How many buffers a pool keeps at most (a frame at most four of each: the edges of the frame
/// and of its shrunk copy, the shrunk copy, the felt map).
const MOST_KEPT: usize = 8;

/// A pool of spare buffers of one element type.
pub struct Pool<T> {
    spare: Mutex<Vec<Vec<T>>>,
}

impl<T: Copy + Default> Pool<T> {
    pub const fn new() -> Pool<T> {
        Pool {
            spare: Mutex::new(Vec::new()),
        }
    }

    /// A buffer of `len` values, left as the last frame wrote them (new ones are zero): the
    /// smallest spare buffer that holds them, or a new one. For callers that write every value, so
    /// that the memory is not cleared for nothing.
    pub fn take(&self, len: usize) -> Vec<T> {
        let reused = {
            let mut spare = self.spare.lock().unwrap_or_else(|e| e.into_inner());
            let fit = (0..spare.len())
                .filter(|&i| spare[i].capacity() >= len)
                .min_by_key(|&i| spare[i].capacity());
            fit.map(|i| spare.swap_remove(i))
        };
        match reused {
            Some(mut v) => {
                v.resize(len, T::default());
                v
            }
            None => vec![T::default(); len],
        }
    }

    /// Gives a buffer back for a later `take` (small ones are dropped, and the smallest spare
    /// one when the pool is full).
    pub fn give(&self, v: Vec<T>) {
        if v.capacity() < SMALLEST_KEPT {
            return;
        }
        let mut spare = self.spare.lock().unwrap_or_else(|e| e.into_inner());
        spare.push(v);
        if spare.len() > MOST_KEPT {
            let smallest = (0..spare.len())
                .min_by_key(|&i| spare[i].capacity())
                .expect("a full pool");
            spare.swap_remove(smallest);
        }
    }
}

impl<T: Copy + Default> Default for Pool<T> {
    fn default() -> Self {
        Pool::new()
    }
}

/// Spare byte buffers (grey levels, felt maps).
pub static BYTES: Pool<u8> = Pool::new();
/// Spare buffers of running sums.
pub static SUMS: Pool<u32> = Pool::new();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_buffer_given_back_is_handed_out_again_as_it_was_left() {
        let pool: Pool<u32> = Pool::new();
        let mut v = pool.take(100_000);
        assert!(v.iter().all(|&x| x == 0), "a new buffer is zeroed");
        v[5] = 9;
        let at = v.as_ptr();
        pool.give(v);
        let again = pool.take(90_000);
        assert_eq!((again.as_ptr(), again.len(), again[5]), (at, 90_000, 9));
        // Lengthened again: the values past the last length are zero.
        pool.give(again);
        let longer = pool.take(100_000);
        assert_eq!(longer.as_ptr(), at);
        assert!(longer[90_000..].iter().all(|&x| x == 0));
        // Too big for the spare one: a new buffer.
        pool.give(longer);
        let bigger = pool.take(200_000);
        assert_ne!(bigger.as_ptr(), at);
    }

    #[test]
    fn a_full_pool_drops_its_smallest_buffer() {
        let pool: Pool<u8> = Pool::new();
        for i in 0..=MOST_KEPT {
            pool.give(vec![0; SMALLEST_KEPT * (i + 1)]);
        }
        let spare = pool.spare.lock().unwrap();
        assert_eq!(spare.len(), MOST_KEPT);
        assert!(spare.iter().all(|v| v.capacity() > SMALLEST_KEPT));
    }
}
