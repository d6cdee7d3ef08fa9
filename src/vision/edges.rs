//! Grey levels and edge strengths of a frame, with running sums so that the edge strength along any
//! horizontal or vertical segment costs O(1). `locate` scores candidate layouts with them.

use image::RgbaImage;

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
        let grey: Vec<u8> = frame.pixels().map(luma).collect();
        let mut h_rows = vec![0u32; (w + 1) * h];
        let mut v_rows = vec![0u32; w * (h + 1)];
        for y in 0..h {
            let row = &grey[y * w..(y + 1) * w];
            if y > 0 {
                let above = &grey[(y - 1) * w..y * w];
                let out = &mut h_rows[y * (w + 1)..(y + 1) * (w + 1)];
                let mut acc = 0u32;
                for x in 0..w {
                    acc += row[x].abs_diff(above[x]) as u32;
                    out[x + 1] = acc;
                }
            }
            // Row y+1 of the column sums is row y plus this row's steps across.
            let (done, next) = v_rows.split_at_mut((y + 1) * w);
            let (prev, out) = (&done[y * w..], &mut next[..w]);
            out[0] = prev[0];
            for x in 1..w {
                out[x] = prev[x] + row[x].abs_diff(row[x - 1]) as u32;
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

    /// The strongest horizontal edge among rows y−1..=y+1, over [x0, x1).
    pub fn h_band(&self, y: i32, x0: i32, x1: i32) -> u32 {
        (y - 1..=y + 1)
            .map(|yy| self.h_segment(yy, x0, x1))
            .max()
            .unwrap_or(0)
    }

    /// The strongest vertical edge among columns x−1..=x+1, over [y0, y1).
    pub fn v_band(&self, x: i32, y0: i32, y1: i32) -> u32 {
        (x - 1..=x + 1)
            .map(|xx| self.v_segment(xx, y0, y1))
            .max()
            .unwrap_or(0)
    }

    pub fn grey_at(&self, x: i32, y: i32) -> u8 {
        self.grey[(y.clamp(0, self.height as i32 - 1) as usize) * self.width
            + x.clamp(0, self.width as i32 - 1) as usize]
    }
}
