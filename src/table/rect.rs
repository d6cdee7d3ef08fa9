//! An axis-aligned rectangle in window pixels: slots, piles, buttons and regions of a frame.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rect {
    pub x: i32,
    pub y: i32,
    pub w: i32,
    pub h: i32,
}

impl Rect {
    pub fn new(x: i32, y: i32, w: i32, h: i32) -> Rect {
        Rect { x, y, w, h }
    }

    pub fn contains(&self, x: i32, y: i32) -> bool {
        x >= self.x && y >= self.y && x < self.x + self.w && y < self.y + self.h
    }

    /// The centre point.
    pub fn centre(&self) -> (i32, i32) {
        (self.x + self.w / 2, self.y + self.h / 2)
    }

    pub fn right(&self) -> i32 {
        self.x + self.w
    }

    pub fn bottom(&self) -> i32 {
        self.y + self.h
    }

    /// The smallest rectangle holding all of `rects` (empty at the origin when there are none).
    pub fn around(rects: impl IntoIterator<Item = Rect>) -> Rect {
        let mut it = rects.into_iter();
        let Some(first) = it.next() else {
            return Rect::new(0, 0, 0, 0);
        };
        let (mut x0, mut y0, mut x1, mut y1) = (first.x, first.y, first.right(), first.bottom());
        for r in it {
            (x0, y0) = (x0.min(r.x), y0.min(r.y));
            (x1, y1) = (x1.max(r.right()), y1.max(r.bottom()));
        }
        Rect::new(x0, y0, x1 - x0, y1 - y0)
    }
}
