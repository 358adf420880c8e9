//! Running the simulation in slices that fit in an animation frame.
//!
//! The engine has no clock; the app measures wall time (`performance.now()`) and hands the
//! engine event budgets. Chunks adapt to about a millisecond each, so a slice stops close to its
//! budget however fast or slow events are on this machine and scenario.

/// Wall-clock budget of one frame's slice, ms: leaves the rest of a 60 Hz frame (16.7 ms) for
/// drawing the chart and the page.
pub const FRAME_BUDGET_MS: f64 = 8.0;

const MIN_CHUNK: u64 = 64;
const MAX_CHUNK: u64 = 1 << 20;
/// Target wall time of one chunk, ms.
const CHUNK_MS: f64 = 1.0;

#[derive(Clone, Debug)]
pub struct Slicer {
    /// Events per `step` call.
    pub chunk: u64,
}

impl Default for Slicer {
    fn default() -> Self {
        Slicer { chunk: 1024 }
    }
}

impl Slicer {
    /// Calls `step(chunk)` until it reports the end (returns true) or another chunk would likely
    /// overrun `budget_ms` since the first call (returns false). `now` is a wall clock in ms.
    pub fn run_slice(
        &mut self,
        mut step: impl FnMut(u64) -> bool,
        now: impl Fn() -> f64,
        budget_ms: f64,
    ) -> bool {
        let start = now();
        loop {
            let t0 = now();
            if step(self.chunk) {
                return true;
            }
            let t1 = now();
            let dt = t1 - t0;
            if dt < CHUNK_MS / 2.0 {
                self.chunk = (self.chunk * 2).min(MAX_CHUNK);
            } else if dt > CHUNK_MS * 2.0 {
                self.chunk = (self.chunk / 2).max(MIN_CHUNK);
            }
            // The next chunk costs about what this one did (scaled to its new size).
            if t1 - start + dt.max(CHUNK_MS) > budget_ms {
                return false;
            }
        }
    }
}

/// The page's wall clock, ms (`performance.now()`; 0 where there is none). The one clock the
/// app's budgets and frame figures read; the engine itself has none.
#[cfg(target_arch = "wasm32")]
pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or(0.0)
}
