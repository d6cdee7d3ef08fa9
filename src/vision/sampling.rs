//! Sampling a frame for matching: a region cut out at template size (each output pixel the mean of
//! the frame pixels under it, by area), and the softening that takes a template or a view down to
//! the detail a smaller card can show.

use image::RgbaImage;

/// A patch of RGB values, `w`×`h`, sampled from a frame.
pub struct Patch {
    pub w: usize,
    pub h: usize,
    pub rgb: Vec<f32>,
}

/// Samples the frame region (x, y, width, height) into `out_w`×`out_h` pixels: each the mean of the
/// frame pixels under it, or bilinear between frame pixels when it is smaller than one.
pub fn sample(
    frame: &RgbaImage,
    x: f32,
    y: f32,
    width: f32,
    height: f32,
    out_w: usize,
    out_h: usize,
) -> Patch {
    let mut patches = sample_grid(frame, &[x], &[y], (width, height), (out_w, out_h));
    patches.pop().expect("one patch")
}

/// `sample` of the regions `size` large at each x of `xs` and y of `ys`, row by row (every x at
/// the first y, then at the next): the sums across each frame row are shared by the regions at
/// one x.
pub fn sample_grid(
    frame: &RgbaImage,
    xs: &[f32],
    ys: &[f32],
    (width, height): (f32, f32),
    (out_w, out_h): (usize, usize),
) -> Vec<Patch> {
    let (fw, fh) = (frame.width() as i32, frame.height() as i32);
    let (sx, sy) = (width / out_w as f32, height / out_h as f32);
    if sx < 1.0 || sy < 1.0 {
        return ys
            .iter()
            .flat_map(|&y| xs.iter().map(move |&x| (x, y)))
            .map(|(x, y)| bilinear(frame, x, y, (sx, sy), (out_w, out_h)))
            .collect();
    }
    // Each output pixel is the mean of the frame over its span across and its span down, each
    // frame pixel weighted by how much of it the span covers (those outside the frame taken from
    // its edge).
    let spans = |from: f32, step: f32, n: usize, limit: i32| -> Vec<Vec<(usize, f32)>> {
        (0..n)
            .map(|i| {
                let (a, b) = (from + i as f32 * step, from + (i + 1) as f32 * step);
                let mut out = Vec::new();
                let mut p = a.floor();
                while p < b {
                    let part = (b.min(p + 1.0) - a.max(p)) / (b - a);
                    if part > 0.0 {
                        out.push(((p as i32).clamp(0, limit - 1) as usize, part));
                    }
                    p += 1.0;
                }
                out
            })
            .collect()
    };
    let rows: Vec<Vec<Vec<(usize, f32)>>> = ys.iter().map(|&y| spans(y, sy, out_h, fh)).collect();
    let raw = frame.as_raw();
    let stride = fw as usize * 4;
    // Across first: each frame row under any of the patches summed over each output pixel's span
    // across; then those down, over each output pixel's span down.
    let under = rows.iter().flatten().flatten().map(|&(yy, _)| yy);
    let (first, last) = (under.clone().min().unwrap_or(0), under.max().unwrap_or(0));
    let across: Vec<Vec<[f32; 3]>> = xs
        .iter()
        .map(|&x| {
            let columns = spans(x, sx, out_w, fw);
            let mut across = vec![[0.0f32; 3]; (last + 1 - first) * out_w];
            for (yy, sums) in (first..=last).zip(across.chunks_exact_mut(out_w)) {
                let line = &raw[yy * stride..(yy + 1) * stride];
                for (sum, column) in sums.iter_mut().zip(&columns) {
                    let mut acc = [0.0f32; 3];
                    for &(xx, wx) in column {
                        let p = &line[xx * 4..xx * 4 + 3];
                        acc[0] += wx * p[0] as f32;
                        acc[1] += wx * p[1] as f32;
                        acc[2] += wx * p[2] as f32;
                    }
                    *sum = acc;
                }
            }
            across
        })
        .collect();
    let mut patches = Vec::with_capacity(xs.len() * ys.len());
    for rows in &rows {
        for across in &across {
            // (Row by row, each frame row's sums added in at once: the same additions per value.)
            let mut rgb = vec![0.0f32; out_w * out_h * 3];
            for (row, out) in rows.iter().zip(rgb.chunks_exact_mut(out_w * 3)) {
                for &(yy, wy) in row {
                    let sums =
                        across[(yy - first) * out_w..(yy - first + 1) * out_w].as_flattened();
                    for (o, &sum) in out.iter_mut().zip(sums) {
                        *o += wy * sum;
                    }
                }
            }
            patches.push(Patch {
                w: out_w,
                h: out_h,
                rgb,
            });
        }
    }
    patches
}

/// `sample` where a sample is smaller than a frame pixel (across or down, `step`): bilinear
/// between the frame pixels around each sample's centre.
pub(crate) fn bilinear(
    frame: &RgbaImage,
    x: f32,
    y: f32,
    (sx, sy): (f32, f32),
    (out_w, out_h): (usize, usize),
) -> Patch {
    let px = |xx: i32, yy: i32| pixel_at(frame, xx, yy);
    let mut rgb = Vec::with_capacity(out_w * out_h * 3);
    for j in 0..out_h {
        let cy = y + (j as f32 + 0.5) * sy - 0.5;
        let (y0, fy) = (cy.floor() as i32, cy - cy.floor());
        for i in 0..out_w {
            let cx = x + (i as f32 + 0.5) * sx - 0.5;
            let (x0, fx) = (cx.floor() as i32, cx - cx.floor());
            let (a, b, c, d) = (
                px(x0, y0),
                px(x0 + 1, y0),
                px(x0, y0 + 1),
                px(x0 + 1, y0 + 1),
            );
            for ch in 0..3 {
                let top = a[ch] as f32 * (1.0 - fx) + b[ch] as f32 * fx;
                let bottom = c[ch] as f32 * (1.0 - fx) + d[ch] as f32 * fx;
                rgb.push(top * (1.0 - fy) + bottom * fy);
            }
        }
    }
    Patch {
        w: out_w,
        h: out_h,
        rgb,
    }
}

/// The `w`×`h` window at (ox, oy) of an RGB float image `stride` pixels wide, row by row.
pub fn window_of(
    values: &[f32],
    stride: usize,
    (ox, oy): (usize, usize),
    (w, h): (usize, usize),
) -> Vec<f32> {
    let mut out = Vec::with_capacity(w * h * 3);
    for j in 0..h {
        let start = ((j + oy) * stride + ox) * 3;
        out.extend_from_slice(&values[start..start + w * 3]);
    }
    out
}

/// The pixel of `frame` at (x, y), or at the frame's edge nearest to it.
pub(crate) fn pixel_at(frame: &RgbaImage, x: i32, y: i32) -> [u8; 4] {
    let (w, h) = (frame.width() as i32, frame.height() as i32);
    frame
        .get_pixel(x.clamp(0, w - 1) as u32, y.clamp(0, h - 1) as u32)
        .0
}

/// An RGB image of floats blurred to what a card `fx` times smaller across (and `fy` down) would
/// show: shrunk by those factors (block means) and enlarged back (bilinear).
pub(crate) fn degrade(values: &[f32], w: usize, h: usize, (fx, fy): (f32, f32)) -> Vec<f32> {
    let (sw, sh) = (
        ((w as f32 / fx).round() as usize).clamp(2, w),
        ((h as f32 / fy).round() as usize).clamp(2, h),
    );
    let at = |x: usize, y: usize, c: usize| values[(y.min(h - 1) * w + x.min(w - 1)) * 3 + c];
    let mut small = vec![0.0f32; sw * sh * 3];
    for j in 0..sh {
        let (y0, y1) = (j * h / sh, ((j + 1) * h / sh).max(j * h / sh + 1));
        for i in 0..sw {
            let (x0, x1) = (i * w / sw, ((i + 1) * w / sw).max(i * w / sw + 1));
            for c in 0..3 {
                let mut acc = 0.0;
                for y in y0..y1 {
                    for x in x0..x1 {
                        acc += at(x, y, c);
                    }
                }
                small[(j * sw + i) * 3 + c] = acc / ((y1 - y0) * (x1 - x0)) as f32;
            }
        }
    }
    let sat = |x: i32, y: i32, c: usize| {
        small[((y.clamp(0, sh as i32 - 1) as usize) * sw + x.clamp(0, sw as i32 - 1) as usize) * 3
            + c]
    };
    let mut out = Vec::with_capacity(values.len());
    for j in 0..h {
        let cy = (j as f32 + 0.5) * sh as f32 / h as f32 - 0.5;
        let (y0, fy) = (cy.floor() as i32, cy - cy.floor());
        for i in 0..w {
            let cx = (i as f32 + 0.5) * sw as f32 / w as f32 - 0.5;
            let (x0, fx) = (cx.floor() as i32, cx - cx.floor());
            for c in 0..3 {
                let top = sat(x0, y0, c) * (1.0 - fx) + sat(x0 + 1, y0, c) * fx;
                let bottom = sat(x0, y0 + 1, c) * (1.0 - fx) + sat(x0 + 1, y0 + 1, c) * fx;
                out.push(top * (1.0 - fy) + bottom * fy);
            }
        }
    }
    out
}

/// A [1 2 1]×[1 2 1] blur of an RGB float image, so that matching forgives sub-pixel shifts.
pub(crate) fn soften(values: &[f32], w: usize, h: usize) -> Vec<f32> {
    soften_across(&across(values, w, h), w, h)
}

/// The first pass of `soften`: [1 2 1] along each row, edges repeated (not yet divided).
pub(crate) fn across(values: &[f32], w: usize, h: usize) -> Vec<f32> {
    let mut across = vec![0.0f32; values.len()];
    for y in 0..h {
        let row = &values[y * w * 3..(y + 1) * w * 3];
        let out = &mut across[y * w * 3..(y + 1) * w * 3];
        for x in 0..w {
            let (l, r) = (x.saturating_sub(1), (x + 1).min(w - 1));
            for c in 0..3 {
                out[x * 3 + c] = row[l * 3 + c] + 2.0 * row[x * 3 + c] + row[r * 3 + c];
            }
        }
    }
    across
}

/// The second pass of `soften`: [1 2 1] down each column of `across`, edges repeated, over 16.
pub(crate) fn soften_across(across: &[f32], w: usize, h: usize) -> Vec<f32> {
    let mut out = vec![0.0f32; across.len()];
    let stride = w * 3;
    for y in 0..h {
        let (u, d) = (y.saturating_sub(1), (y + 1).min(h - 1));
        for i in 0..stride {
            out[y * stride + i] =
                (across[u * stride + i] + 2.0 * across[y * stride + i] + across[d * stride + i])
                    / 16.0;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sampled down by a step that is not a whole number of pixels, each frame pixel counts by
    /// how much of it a sample covers: a one-pixel line falls into the samples it crosses by
    /// its share of each, wherever the steps fall.
    #[test]
    fn a_sample_weighs_each_pixel_by_how_much_of_it_it_covers() {
        // White, with a black column at x = 2.
        let frame = RgbaImage::from_fn(6, 3, |x, _| {
            let v = if x == 2 { 0 } else { 255 };
            image::Rgba([v, v, v, 255])
        });
        // Four samples across six pixels: [0, 1.5), [1.5, 3), [3, 4.5), [4.5, 6).
        let patch = sample(&frame, 0.0, 0.0, 6.0, 3.0, 4, 1);
        let row: Vec<f32> = patch.rgb.chunks(3).map(|px| px[0]).collect();
        // The second covers half of pixel 1 and all of the black pixel 2: a third white.
        let expected = [255.0, 85.0, 255.0, 255.0];
        for (got, want) in row.iter().zip(expected) {
            assert!((got - want).abs() < 1e-3, "{row:?}");
        }
        // Shifted by three quarters of a pixel, the line is split between two samples, by how
        // much of it each covers (a quarter and three quarters of a pixel).
        let patch = sample(&frame, 0.75, 0.0, 4.5, 3.0, 3, 1);
        let row: Vec<f32> = patch.rgb.chunks(3).map(|px| px[0]).collect();
        let expected = [
            255.0 * (1.0 - 0.25 / 1.5),
            255.0 * (1.0 - 0.75 / 1.5),
            255.0,
        ];
        for (got, want) in row.iter().zip(expected) {
            assert!((got - want).abs() < 1e-3, "{row:?}");
        }
    }
}
