//! Grey levels and edge strengths of a frame, with running sums so that the edge strength along any
//! horizontal or vertical segment costs O(1). `locate` scores candidate layouts with them.

use crate::vision::scratch;
use image::RgbaImage;
use rayon::prelude::*;

/// Luminance (0..255) of an RGB pixel.
pub fn luma(p: &image::Rgba<u8>) -> u8 {
    ((p.0[0] as u32 * 77 + p.0[1] as u32 * 150 + p.0[2] as u32 * 29) >> 8) as u8
}

/// Edge maps of one frame.
pub struct Edges {
    pub width: usize,
    pub height: usize,
    pub grey: Vec<u8>,
    /// Row-wise running sums of |grey(x,y) − grey(x,y−1)|: `h_rows[y*(w+1) + x]` sums x' < x.
    h_rows: Vec<u32>,
    /// Column-wise running sums of |grey(x,y) − grey(x−1,y)|, stored row by row:
    /// `v_rows[y*w + x]` sums y' < y (row h holds the full columns).
    v_rows: Vec<u32>,
}

impl Edges {
    pub fn new(frame: &RgbaImage) -> Edges {
        let (w, h) = (frame.width() as usize, frame.height() as usize);
        // Rows are independent until the column sums: those in parallel, then the sums down.
        let mut grey = scratch::BYTES.take(w * h);
        grey.par_chunks_mut(w.max(1))
            .zip(frame.as_raw().par_chunks(4 * w.max(1)))
            .for_each(|(out, pixels)| {
                for (g, p) in out.iter_mut().zip(pixels.chunks_exact(4)) {
                    *g = ((p[0] as u32 * 77 + p[1] as u32 * 150 + p[2] as u32 * 29) >> 8) as u8;
                }
            });
        // (Every value is written: the buffers may hold the last frame's.)
        let mut h_rows = scratch::SUMS.take((w + 1) * h);
        h_rows
            .par_chunks_mut(w + 1)
            .enumerate()
            .for_each(|(y, out)| {
                if y == 0 {
                    out.fill(0);
                    return;
                }
                out[0] = 0;
                let (row, above) = (&grey[y * w..(y + 1) * w], &grey[(y - 1) * w..y * w]);
                let mut acc = 0u32;
                for ((o, &a), &b) in out[1..].iter_mut().zip(row).zip(above) {
                    acc += a.abs_diff(b) as u32;
                    *o = acc;
                }
            });
        // Row y+1 of the column sums is row y plus row y's steps across: the steps first, then
        // the sums down the rows.
        let mut v_rows = scratch::SUMS.take(w * (h + 1));
        v_rows
            .par_chunks_mut(w.max(1))
            .enumerate()
            .for_each(|(y, out)| {
                if y == 0 {
                    out.fill(0);
                    return;
                }
                out[0] = 0;
                let row = &grey[(y - 1) * w..y * w];
                for ((s, &a), &b) in out[1..].iter_mut().zip(&row[1..]).zip(row) {
                    *s = a.abs_diff(b) as u32;
                }
            });
        for y in 1..=h {
            let (done, next) = v_rows.split_at_mut(y * w);
            let (prev, out) = (&done[(y - 1) * w..], &mut next[..w]);
            for (o, &p) in out.iter_mut().zip(prev) {
                *o += p;
            }
        }
        Edges {
            width: w,
            height: h,
            grey,
            h_rows,
            v_rows,
        }
    }

    /// Sum of horizontal-edge strength on row `y` over x in [x0, x1) (clipped to the frame).
    pub fn h_segment(&self, y: i32, x0: i32, x1: i32) -> u32 {
        if y < 1 || y >= self.height as i32 {
            return 0;
        }
        let x0 = x0.clamp(0, self.width as i32) as usize;
        let x1 = x1.clamp(0, self.width as i32) as usize;
        if x1 <= x0 {
            return 0;
        }
        let row = &self.h_rows[y as usize * (self.width + 1)..];
        row[x1] - row[x0]
    }

    /// Sum of vertical-edge strength on column `x` over y in [y0, y1) (clipped to the frame).
    pub fn v_segment(&self, x: i32, y0: i32, y1: i32) -> u32 {
        if x < 1 || x >= self.width as i32 {
            return 0;
        }
        let y0 = y0.clamp(0, self.height as i32) as usize;
        let y1 = y1.clamp(0, self.height as i32) as usize;
        if y1 <= y0 {
            return 0;
        }
        let x = x as usize;
        self.v_rows[y1 * self.width + x] - self.v_rows[y0 * self.width + x]
    }

    /// `v_segment(x, y0, y1)` for every column x of the frame.
    pub fn v_segments(&self, y0: i32, y1: i32) -> Vec<u32> {
        let w = self.width;
        let y0 = y0.clamp(0, self.height as i32) as usize;
        let y1 = y1.clamp(0, self.height as i32) as usize;
        let mut out = vec![0u32; w];
        if y1 > y0 && w > 1 {
            let (top, bottom) = (
                &self.v_rows[y0 * w..y0 * w + w],
                &self.v_rows[y1 * w..y1 * w + w],
            );
            for ((o, &b), &t) in out[1..].iter_mut().zip(&bottom[1..]).zip(&top[1..]) {
                *o = b - t;
            }
        }
        out
    }

    /// The strongest horizontal edge among rows y−1..=y+1, over [x0, x1): the largest of their
    /// `h_segment`s (the span clipped once for all three).
    pub fn h_band(&self, y: i32, x0: i32, x1: i32) -> u32 {
        let (w, h) = (self.width as i32, self.height as i32);
        let (x0, x1) = (x0.clamp(0, w) as usize, x1.clamp(0, w) as usize);
        if x1 <= x0 {
            return 0;
        }
        let mut best = 0;
        for yy in (y - 1).max(1)..=(y + 1).min(h - 1) {
            let row = &self.h_rows[yy as usize * (self.width + 1)..];
            best = best.max(row[x1] - row[x0]);
        }
        best
    }

    /// The strongest vertical edge among columns x−1..=x+1, over [y0, y1): the largest of their
    /// `v_segment`s (the span clipped once for all three).
    pub fn v_band(&self, x: i32, y0: i32, y1: i32) -> u32 {
        let (w, h) = (self.width as i32, self.height as i32);
        let (y0, y1) = (y0.clamp(0, h) as usize, y1.clamp(0, h) as usize);
        if y1 <= y0 {
            return 0;
        }
        let (top, bottom) = (y0 * self.width, y1 * self.width);
        let mut best = 0;
        for xx in (x - 1).max(1)..=(x + 1).min(w - 1) {
            let xx = xx as usize;
            best = best.max(self.v_rows[bottom + xx] - self.v_rows[top + xx]);
        }
        best
    }

    /// The strongest horizontal edge among rows y−reach..=y+reach over [x0, x1), each weighed
    /// down the farther it is from y (by d/(reach+1) at distance d): a fit nearer the edge scores
    /// more, all the way in.
    pub fn h_band_peaked(&self, y: i32, reach: i32, x0: i32, x1: i32) -> f32 {
        let w = self.width as i32;
        let (x0, x1) = (x0.clamp(0, w) as usize, x1.clamp(0, w) as usize);
        if x1 <= x0 {
            return 0.0;
        }
        peaked(y, reach, self.height as i32, |yy| {
            let row = &self.h_rows[yy as usize * (self.width + 1)..];
            row[x1] - row[x0]
        })
    }

    /// `h_band_peaked` for vertical edges: columns x−reach..=x+reach over [y0, y1).
    pub fn v_band_peaked(&self, x: i32, reach: i32, y0: i32, y1: i32) -> f32 {
        let h = self.height as i32;
        let (y0, y1) = (y0.clamp(0, h) as usize, y1.clamp(0, h) as usize);
        if y1 <= y0 {
            return 0.0;
        }
        let (top, bottom) = (y0 * self.width, y1 * self.width);
        peaked(x, reach, self.width as i32, |xx| {
            self.v_rows[bottom + xx as usize] - self.v_rows[top + xx as usize]
        })
    }

    pub fn grey_at(&self, x: i32, y: i32) -> u8 {
        self.grey[(y.clamp(0, self.height as i32 - 1) as usize) * self.width
            + x.clamp(0, self.width as i32 - 1) as usize]
    }
}

/// The maps go back to the pool for the next frame's (see `scratch`).
impl Drop for Edges {
    fn drop(&mut self) {
        scratch::BYTES.give(std::mem::take(&mut self.grey));
        scratch::SUMS.give(std::mem::take(&mut self.h_rows));
        scratch::SUMS.give(std::mem::take(&mut self.v_rows));
    }
}

/// The largest of `strength` at the lines from `at` − `reach` to `at` + `reach` (those from 1 to
/// `size` − 1), each weighed down by d/(reach+1) at distance d from `at`.
fn peaked(at: i32, reach: i32, size: i32, strength: impl Fn(i32) -> u32) -> f32 {
    ((at - reach).max(1)..=(at + reach).min(size - 1))
        .map(|line| {
            let weight = (reach + 1 - (line - at).abs()) as f32 / (reach + 1) as f32;
            strength(line) as f32 * weight
        })
        .fold(0.0, f32::max)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The running sums give the same edge strengths as adding up the steps one by one.
    #[test]
    fn segments_sum_the_steps() {
        let frame = RgbaImage::from_fn(53, 37, |x, y| {
            let v = (x * x * 13 + y * 71 + x * y) as u8;
            image::Rgba([v, v / 2, v / 3, 255])
        });
        let e = Edges::new(&frame);
        let g = |x: i32, y: i32| e.grey[y as usize * 53 + x as usize];
        for y in 1..37 {
            for (x0, x1) in [(0, 53), (5, 17), (20, 21)] {
                let sum: u32 = (x0..x1).map(|x| g(x, y).abs_diff(g(x, y - 1)) as u32).sum();
                assert_eq!(e.h_segment(y, x0, x1), sum);
            }
        }
        for x in 1..53 {
            for (y0, y1) in [(0, 37), (3, 30), (36, 37)] {
                let sum: u32 = (y0..y1).map(|y| g(x, y).abs_diff(g(x - 1, y)) as u32).sum();
                assert_eq!(e.v_segment(x, y0, y1), sum);
            }
        }
        for (y0, y1) in [(0, 37), (3, 30), (36, 37), (-4, 50), (20, 20)] {
            let all = e.v_segments(y0, y1);
            assert_eq!(all.len(), 53);
            for (x, &v) in all.iter().enumerate() {
                assert_eq!(v, e.v_segment(x as i32, y0, y1));
            }
        }
        assert_eq!(g(10, 10), luma(frame.get_pixel(10, 10)));
        // The bands are the largest of the three segments around, wherever they lie.
        for at in [-3, 0, 1, 5, 35, 36, 37, 52, 53, 60] {
            for (from, to) in [(-4, 60), (3, 30), (20, 20), (10, 11)] {
                let h = (at - 1..=at + 1).map(|y| e.h_segment(y, from, to)).max();
                assert_eq!(e.h_band(at, from, to), h.unwrap());
                let v = (at - 1..=at + 1).map(|x| e.v_segment(x, from, to)).max();
                assert_eq!(e.v_band(at, from, to), v.unwrap());
            }
        }
    }
}
