//! The practice table in-process as the agent's world: the renderer is the screen, the table model
//! takes the clicks, and time is simulated (a wait costs nothing), so whole games run in tests.
//! Any game's table, through the window's `TableView`.

use crate::agent::io::{Clock, Pointer, Screen};
use crate::table::harness::Event;
use crate::table::window::TableView;
use image::RgbaImage;
use std::sync::Arc;

/// Any game's practice table in-process as the agent's world, through the window's `TableView`:
/// its pictures are the screen, it takes the clicks, and time is simulated.
pub struct SimView {
    view: Box<dyn TableView>,
    width: u32,
    height: u32,
    now: u64,
    last: Option<Arc<RgbaImage>>,
    /// Every event the table logged, with its time.
    pub events: Vec<(u64, Event)>,
}

impl SimView {
    pub fn new(view: Box<dyn TableView>, width: u32, height: u32) -> SimView {
        SimView {
            view,
            width,
            height,
            now: 0,
            last: None,
            events: Vec::new(),
        }
    }
}

impl Screen for SimView {
    fn capture(&mut self) -> Result<Arc<RgbaImage>, String> {
        if let Some(image) = self.view.picture(self.width, self.height, self.now) {
            self.last = Some(Arc::new(image));
        }
        self.last
            .clone()
            .ok_or_else(|| "the table shows no picture".to_string())
    }
}

impl Pointer for SimView {
    fn click(&mut self, x: i32, y: i32) -> Result<(), String> {
        if x < 0 || y < 0 || x >= self.width as i32 || y >= self.height as i32 {
            return Err(format!("refused a click at {x},{y}: outside the window"));
        }
        self.view.click(self.width, self.height, x, y, self.now);
        self.events.extend(self.view.take_events());
        Ok(())
    }
}

impl Clock for SimView {
    fn now_ms(&self) -> u64 {
        self.now
    }
    fn sleep_ms(&mut self, ms: u64) {
        self.now += ms;
    }
}
