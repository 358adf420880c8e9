//! Frame bookkeeping of "Watch the pipeline": the frame-time statistics (`#frame-stats`, read
//! by `make bench-web` and the end-to-end test) and the charts' refresh cadence (fresh data
//! about twice a second, handed to one chart per frame, as plotters redraws whole canvases).
//!
//! Plain logic, no browser code: the page passes `performance.now()` readings in, the native
//! tests pass made-up ones.

use std::collections::VecDeque;
use std::rc::Rc;

/// Frame times kept for the figures.
pub const FRAMES_KEPT: usize = 600;
/// Real time between two refreshes of the charts, the summary and the A/B table, ms.
pub const CHART_EVERY_MS: f64 = 400.0;
/// Real time between two refreshes of the picture (pipeline, bus strip), the charts and the
/// page's results while seeking (Run to the end, a moment, the scrubber), ms: nobody watches
/// the frames on the way, the time controls show how far it got every frame, and the engine
/// has the rest of each frame ([`crate::watch::clock::SEEK_SLICE_MS`]).
pub const SEEK_SHOW_EVERY_MS: f64 = 500.0;

/// Where the time of the frames went.
#[derive(Clone, Debug, Default)]
pub struct FrameStats {
    /// Total time of the last [`FRAMES_KEPT`] frames (engine + reading + drawing), ms.
    frame_ms: VecDeque<f64>,
    /// Of the frames timed: total ms in the engine (advancing the simulators) and in reading
    /// what to draw (snapshots, strips, chart data), the rest being Yew's render and drawing.
    engine_ms: f64,
    read_ms: f64,
    timed: u64,
    /// The frame being handled: its start and the engine's time in it, ms.
    t0: Option<f64>,
    frame_engine_ms: f64,
    /// The last timed frame's time after the engine (reading + drawing), ms, of a frame
    /// without and with a chart to draw (and the page's results to refresh).
    draw_ms: [f64; 2],
    /// Whether the frame being handled draws a chart.
    chart: bool,
}

impl FrameStats {
    /// A frame starts at `t0` (ms); `chart`: it will draw a chart.
    pub fn begin(&mut self, t0: f64, chart: bool) {
        self.t0 = Some(t0);
        self.chart = chart;
    }
    /// The engine's part of the frame ended at `t1`, the reading of what to draw at `t2`.
    pub fn advanced(&mut self, t1: f64, t2: f64) {
        let t0 = self.t0.unwrap_or(t1);
        self.frame_engine_ms = t1 - t0;
        self.engine_ms += t1 - t0;
        self.read_ms += t2 - t1;
        self.timed += 1;
    }
    /// The page was drawn at `t` (ms): the frame begun last is complete.
    pub fn rendered(&mut self, t: f64) {
        if let Some(t0) = self.t0.take() {
            if self.frame_ms.len() == FRAMES_KEPT {
                self.frame_ms.pop_front();
            }
            let total = t - t0;
            self.frame_ms.push_back(total);
            self.draw_ms[self.chart as usize] = total - self.frame_engine_ms;
        }
    }
    /// What the last frame of the kind (drawing a chart or not) spent after the engine
    /// (reading and drawing), ms: what the next frame of that kind will likely spend.
    pub fn last_draw_ms(&self, chart: bool) -> f64 {
        self.draw_ms[chart as usize]
    }

    /// `frames=N avg_ms=.. p50_ms=.. p95_ms=.. max_ms=.. engine_avg_ms=.. read_avg_ms=..`.
    pub fn summary(&self) -> String {
        let mut v: Vec<f64> = self.frame_ms.iter().copied().collect();
        v.sort_by(|x, y| x.total_cmp(y));
        let avg = if v.is_empty() {
            0.0
        } else {
            v.iter().sum::<f64>() / v.len() as f64
        };
        let pct = |q: f64| {
            v.get(((v.len() as f64 - 1.0) * q).round() as usize)
                .copied()
                .unwrap_or(0.0)
        };
        let per = |ms: f64| ms / self.timed.max(1) as f64;
        format!(
            "frames={} avg_ms={avg:.2} p50_ms={:.2} p95_ms={:.2} max_ms={:.2} engine_avg_ms={:.2} read_avg_ms={:.2}",
            v.len(),
            pct(0.5),
            pct(0.95),
            pct(1.0),
            per(self.engine_ms),
            per(self.read_ms)
        )
    }
}

/// Data for `N` charts that is refreshed now and then and handed to the charts either all at
/// once or one chart per frame.
#[derive(Clone, Debug)]
pub struct Staggered<T, const N: usize> {
    data: [Rc<T>; N],
    /// Fresh data still to hand to charts `k..N`.
    next: Option<(Rc<T>, usize)>,
    /// When the data was last refreshed, ms.
    last_ms: f64,
}

impl<T: Default, const N: usize> Default for Staggered<T, N> {
    fn default() -> Self {
        Staggered {
            data: std::array::from_fn(|_| Rc::default()),
            next: None,
            last_ms: 0.0,
        }
    }
}

impl<T, const N: usize> Staggered<T, N> {
    /// The data each chart shows.
    pub fn data(&self) -> &[Rc<T>; N] {
        &self.data
    }
    /// Fresh data at `now_ms`: to every chart at once, or (`stagger`) to the first chart now
    /// and to the next ones one per [`Staggered::feed`].
    pub fn refresh(&mut self, fresh: T, now_ms: f64, stagger: bool) {
        let fresh = Rc::new(fresh);
        self.last_ms = now_ms;
        if stagger {
            self.data[0] = fresh.clone();
            self.next = (N > 1).then_some((fresh, 1));
        } else {
            self.data = std::array::from_fn(|_| fresh.clone());
            self.next = None;
        }
    }
    /// While playing, once per frame: hands pending data to the next chart. True when it did
    /// (the frame has its chart to draw), false when nothing was pending.
    pub fn feed(&mut self) -> bool {
        let Some((fresh, k)) = self.next.take() else {
            return false;
        };
        self.data[k] = fresh.clone();
        if k + 1 < N {
            self.next = Some((fresh, k + 1));
        }
        true
    }
    /// Whether fresh data waits to be handed to a chart.
    pub fn pending(&self) -> bool {
        self.next.is_some()
    }
    /// Whether fresh data is due at `now_ms` ([`CHART_EVERY_MS`] since the last refresh).
    pub fn due(&self, now_ms: f64) -> bool {
        self.due_after(now_ms, CHART_EVERY_MS)
    }
    /// Whether `every_ms` passed at `now_ms` since the last refresh.
    pub fn due_after(&self, now_ms: f64, every_ms: f64) -> bool {
        now_ms - self.last_ms >= every_ms
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_stats_split_engine_reading_and_drawing() {
        let mut s = FrameStats::default();
        assert!(s.summary().starts_with("frames=0 avg_ms=0.00"));
        for i in 0..10 {
            let t0 = i as f64 * 20.0;
            s.begin(t0, i == 4);
            s.advanced(t0 + 3.0, t0 + 4.0);
            s.rendered(t0 + 10.0 + i as f64);
        }
        assert_eq!(s.last_draw_ms(false), 7.0 + 9.0);
        assert_eq!(
            s.last_draw_ms(true),
            7.0 + 4.0,
            "the last frame that drew a chart"
        );
        let text = s.summary();
        assert!(
            text.starts_with("frames=10 avg_ms=14.50 p50_ms=15.00 p95_ms=19.00 max_ms=19.00"),
            "{text}"
        );
        assert!(
            text.ends_with("engine_avg_ms=3.00 read_avg_ms=1.00"),
            "{text}"
        );
        // A render with no frame begun (a click while paused) is no frame.
        s.rendered(1000.0);
        assert!(s.summary().starts_with("frames=10 "));
    }

    #[test]
    fn frame_stats_keep_the_last_frames_only() {
        let mut s = FrameStats::default();
        for i in 0..FRAMES_KEPT + 5 {
            s.begin(0.0, false);
            s.advanced(0.0, 0.0);
            s.rendered(if i < 5 { 100.0 } else { 1.0 });
        }
        assert!(
            s.summary()
                .contains(&format!("frames={FRAMES_KEPT} avg_ms=1.00")),
            "{}",
            s.summary()
        );
    }

    #[test]
    fn staggered_data_reaches_one_chart_per_frame() {
        let mut c: Staggered<u32, 4> = Staggered::default();
        assert!(c.due(CHART_EVERY_MS));
        c.refresh(1, 1000.0, false);
        assert!(c.data().iter().all(|d| **d == 1));
        assert!(!c.feed());
        assert!(!c.due(1000.0 + CHART_EVERY_MS - 1.0));
        assert!(c.due(1000.0 + CHART_EVERY_MS));
        c.refresh(2, 2000.0, true);
        let shown = |c: &Staggered<u32, 4>| c.data().iter().map(|d| **d).collect::<Vec<_>>();
        assert_eq!(shown(&c), [2, 1, 1, 1]);
        assert!(c.feed());
        assert_eq!(shown(&c), [2, 2, 1, 1]);
        assert!(c.feed() && c.feed());
        assert_eq!(shown(&c), [2, 2, 2, 2]);
        assert!(!c.feed(), "nothing left to hand out");
    }
}
