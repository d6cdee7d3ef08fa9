//! Dot products of views and templates, the inner loop of matching: eight running sums, one per
//! lane, added up in order, so that the AVX path (eight lanes in one register, on processors that
//! have it) and the portable one give the same sums; several vectors at a time, each read once for
//! all its products. And normalising a vector for correlation.

/// The dot product of two equally long vectors: eight running sums (lane l takes the products of
/// elements l, l + 8, …), added up in order. On processors with AVX the eight lanes are one
/// register: the same operations in the same order, so the same result.
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    dots([a], [b])[0][0]
}

/// `dot` of each of `a` with each of `b` (each exactly as `dot` would give it), for the few
/// vectors that fit in the processor's registers at once: each vector is read once for all its
/// products, which is what limits the speed (the vectors do not fit in the fastest cache).
pub fn dots<const A: usize, const B: usize>(a: [&[f32]; A], b: [&[f32]; B]) -> [[f32; B]; A] {
    let n = b.iter().chain(&a).map(|v| v.len()).min().unwrap_or(0);
    let rows = Rows {
        count: 1,
        len: n / 8 * 8,
        a_stride: 0,
        b_stride: 0,
    };
    let lanes = lane_sums(a, b, rows);
    std::array::from_fn(|i| {
        std::array::from_fn(|j| {
            let tail: f32 = a[i][rows.len..n]
                .iter()
                .zip(&b[j][rows.len..n])
                .map(|(x, y)| x * y)
                .sum();
            lanes[i][j].iter().sum::<f32>() + tail
        })
    })
}

/// `dots` of windows that are rows of wider images with templates laid out as `rows` says: row
/// r of each of `a` starts at r · `a_stride`, of each of `b` at r · `b_stride`. Each window is
/// read where it lies, not copied out.
pub(crate) fn row_dots<const A: usize, const B: usize>(
    a: [&[f32]; A],
    b: [&[f32]; B],
    rows: Rows,
) -> [[f32; B]; A] {
    let lanes = lane_sums(a, b, rows);
    std::array::from_fn(|i| std::array::from_fn(|j| lanes[i][j].iter().sum::<f32>()))
}

/// How `lane_sums` reads its vectors: `count` rows of `len` values (a multiple of eight), row r
/// of each `a` at r · `a_stride`, of each `b` at r · `b_stride`.
#[derive(Clone, Copy)]
pub(crate) struct Rows {
    pub(crate) count: usize,
    pub(crate) len: usize,
    pub(crate) a_stride: usize,
    pub(crate) b_stride: usize,
}

impl Rows {
    /// Whether every row lies within vectors of these lengths.
    fn fit(&self, a: usize, b: usize) -> bool {
        self.len.is_multiple_of(8)
            && (self.count == 0
                || ((self.count - 1) * self.a_stride + self.len <= a
                    && (self.count - 1) * self.b_stride + self.len <= b))
    }
}

/// Per pair of `a` and `b`, eight running sums over their rows: lane l takes the products of
/// elements l, l + 8, … of each row in turn.
pub(crate) fn lane_sums<const A: usize, const B: usize>(
    a: [&[f32]; A],
    b: [&[f32]; B],
    rows: Rows,
) -> [[[f32; 8]; B]; A] {
    let shortest = |v: &[&[f32]]| v.iter().map(|v| v.len()).min().unwrap_or(usize::MAX);
    assert!(
        rows.fit(shortest(&a), shortest(&b)),
        "rows beyond the vectors"
    );
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx") {
        // SAFETY: the processor has AVX, checked just above; every row lies within the vectors,
        // checked above that.
        return unsafe { lane_sums_avx(a, b, rows) };
    }
    lane_sums_portable(a, b, rows)
}

/// `lane_sums_portable` with the eight lanes in one AVX register: the same multiplications and
/// additions in the same order. The rows must lie within the vectors (`Rows::fit`).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
pub(crate) unsafe fn lane_sums_avx<const A: usize, const B: usize>(
    a: [&[f32]; A],
    b: [&[f32]; B],
    rows: Rows,
) -> [[[f32; 8]; B]; A] {
    use std::arch::x86_64::*;
    let mut acc = [[_mm256_setzero_ps(); B]; A];
    for r in 0..rows.count {
        let (ra, rb) = (r * rows.a_stride, r * rows.b_stride);
        let mut at = 0;
        while at < rows.len {
            // SAFETY: at + 8 <= len, and each row lies within its vector. (Each of `a` read just
            // before its products, so that the sums and few values at a time take the registers.)
            let ys: [__m256; B] = std::array::from_fn(|j| load_avx(b[j].as_ptr().add(rb + at)));
            for i in 0..A {
                let x = load_avx(a[i].as_ptr().add(ra + at));
                for j in 0..B {
                    acc[i][j] = _mm256_add_ps(acc[i][j], _mm256_mul_ps(x, ys[j]));
                }
            }
            at += 8;
        }
    }
    std::array::from_fn(|i| {
        std::array::from_fn(|j| {
            let mut lanes = [0.0f32; 8];
            _mm256_storeu_ps(lanes.as_mut_ptr(), acc[i][j]);
            lanes
        })
    })
}

/// Eight values from `p` on, in one load: for a processor tuned for generally (as this
/// program is built), the compiler splits an unaligned load of eight into two of four, which
/// doubles the loads that limit `lane_sums_avx`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
#[inline]
pub(crate) unsafe fn load_avx(p: *const f32) -> std::arch::x86_64::__m256 {
    let x;
    // SAFETY: the caller's: eight values from p on lie within one vector.
    std::arch::asm!(
        "vmovups {x}, ymmword ptr [{p}]",
        x = out(ymm_reg) x,
        p = in(reg) p,
        options(pure, readonly, nostack, preserves_flags)
    );
    x
}

/// The portable form of `lane_sums`.
#[inline(always)]
pub(crate) fn lane_sums_portable<const A: usize, const B: usize>(
    a: [&[f32]; A],
    b: [&[f32]; B],
    rows: Rows,
) -> [[[f32; 8]; B]; A] {
    let mut acc = [[[0.0f32; 8]; B]; A];
    for r in 0..rows.count {
        let (ra, rb) = (r * rows.a_stride, r * rows.b_stride);
        for at in (0..rows.len).step_by(8) {
            for i in 0..A {
                let x: &[f32; 8] = a[i][ra + at..ra + at + 8].try_into().expect("eight values");
                for j in 0..B {
                    let y: &[f32; 8] = b[j][rb + at..rb + at + 8].try_into().expect("eight values");
                    for l in 0..8 {
                        acc[i][j][l] += x[l] * y[l];
                    }
                }
            }
        }
    }
    acc
}

/// Zero mean per channel, unit length overall; None for a flat patch.
pub(crate) fn normalised(values: &[f32]) -> Option<Vec<f32>> {
    let n = values.len() / 3;
    let mut mean = [0.0f32; 3];
    for px in values.chunks_exact(3) {
        for c in 0..3 {
            mean[c] += px[c];
        }
    }
    for m in &mut mean {
        *m /= n as f32;
    }
    let mut out = values.to_vec();
    for px in out.chunks_exact_mut(3) {
        for c in 0..3 {
            px[c] -= mean[c];
        }
    }
    let norm = dot(&out, &out).sqrt();
    if norm < 1e-3 * (n as f32).sqrt() * 4.0 {
        return None;
    }
    let scale = 1.0 / norm;
    for v in &mut out {
        *v *= scale;
    }
    Some(out)
}

/// Made-up values from -1 to 1, the same for the same length and seed (for tests).
#[cfg(test)]
pub(crate) fn test_vector(n: usize, seed: u32) -> Vec<f32> {
    (0..n as u32)
        .map(|i| {
            ((i.wrapping_mul(2_654_435_761) ^ seed.wrapping_mul(40_503)) % 2001) as f32 / 1000.0
                - 1.0
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `dots` gives, bit for bit, what the portable lanes give and what `dot` gives pair by pair,
    /// at the template's length and at lengths with a tail.
    #[test]
    fn dots_are_the_same_sums_everywhere() {
        for n in [4860, 16, 13, 7, 0] {
            let a: Vec<Vec<f32>> = (0..4).map(|s| test_vector(n, s)).collect();
            let b: Vec<Vec<f32>> = (4..6).map(|s| test_vector(n, s)).collect();
            let (a, b): ([&[f32]; 4], [&[f32]; 2]) = (
                std::array::from_fn(|i| &a[i][..]),
                std::array::from_fn(|j| &b[j][..]),
            );
            let fast = dots(a, b);
            let rows = Rows {
                count: 1,
                len: n / 8 * 8,
                a_stride: 0,
                b_stride: 0,
            };
            assert_eq!(
                lane_sums(a, b, rows),
                lane_sums_portable(a, b, rows),
                "length {n}"
            );
            for i in 0..4 {
                for j in 0..2 {
                    assert_eq!(fast[i][j].to_bits(), dot(a[i], b[j]).to_bits());
                    let plain: f64 = a[i].iter().zip(b[j]).map(|(x, y)| (x * y) as f64).sum();
                    assert!((fast[i][j] as f64 - plain).abs() < 1e-3, "length {n}");
                }
            }
        }
    }
}
