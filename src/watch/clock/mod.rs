//! The clock of "Watch the pipeline": one simulated clock for A and, in an A/B comparison, B,
//! which advance in lockstep (same simulated time on both sides at every frame), the speed
//! control mapping real milliseconds to simulated nanoseconds, the "as fast as possible" budget
//! per frame, single steps, and seeking to a simulated time or the end.
//!
//! Plain logic, no browser code: the page hands it each animation frame's timestamp and a wall
//! clock (`performance.now()`), and the native tests hand it fake ones.

use crate::run::session::Session;
use crate::run::slicer::{Slicer, FRAME_BUDGET_MS};
use crate::run::speed::{DEFAULT_SPEED, FOLLOW, SPEEDS};

/// Longest real time one frame may account for, ms: after a hidden tab or a long pause the
/// clock resumes instead of jumping ahead.
pub const MAX_FRAME_DT_MS: f64 = 100.0;
/// Real time the first frame after (re)starting accounts for: one 60 Hz frame, ms.
const FIRST_FRAME_MS: f64 = 1000.0 / 60.0;
/// Engine + drawing time aimed at per frame at the "as fast as possible" speed, ms: half a
/// 60 Hz frame, the rest left to the browser's style, layout and paint.
pub const FRAME_TARGET_MS: f64 = 8.0;
/// The engine's least share of a frame at that speed, ms.
pub const MIN_ENGINE_MS: f64 = 2.0;
/// The engine's share of a frame while seeking (Run, a moment link, the scrubber), ms, both
/// sides together: nobody watches the frames on the way (the view draws the picture and the
/// charts again only now and then, [`crate::watch::frames::SEEK_SHOW_EVERY_MS`]), so the engine
/// takes most of each frame; a frame still ends, and paints, about every 60 ms, and input is
/// handled between two (the long-task bar is 100 ms, `tests/e2e/responsive.test.mjs`).
pub const SEEK_SLICE_MS: f64 = 48.0;
/// Engine + drawing time aimed at per frame while seeking, ms: a frame that draws the picture
/// again (and the charts, the page's results) gives the engine less.
pub const SEEK_FRAME_MS: f64 = 60.0;
/// Most events one timed frame runs per side (a fast speed on a slow machine lags instead of
/// freezing).
pub const MAX_EVENTS_PER_FRAME: u64 = 200_000;

/// Simulated time the bus strip shows at a speed (simulated ns per second, None: as fast as
/// possible): about three seconds of watching, at least a few requests' worth and at most 5 ms.
pub fn strip_window_ns(sim_ns_per_s: Option<u64>) -> u64 {
    match sim_ns_per_s {
        Some(r) => (r * 3).clamp(200_000, 5_000_000),
        None => 2_000_000,
    }
}

/// The engine's share of a frame at the "as fast as possible" speed: what is left of
/// [`FRAME_TARGET_MS`] after the last frame's drawing, at least [`MIN_ENGINE_MS`], at most
/// [`FRAME_BUDGET_MS`], so engine and drawing together stay near [`FRAME_TARGET_MS`].
pub fn engine_budget_ms(last_draw_ms: f64) -> f64 {
    (FRAME_TARGET_MS - last_draw_ms).clamp(MIN_ENGINE_MS, FRAME_BUDGET_MS)
}

/// The engine's share of a frame while seeking: what is left of [`SEEK_FRAME_MS`] after the
/// last such frame's drawing, at least [`MIN_ENGINE_MS`], at most [`SEEK_SLICE_MS`].
pub fn seek_budget_ms(last_draw_ms: f64) -> f64 {
    (SEEK_FRAME_MS - last_draw_ms).clamp(MIN_ENGINE_MS, SEEK_SLICE_MS)
}

/// Seeking to the end of the run rather than to a time.
const END: u64 = u64::MAX;

/// The shared clock of the watched sessions.
#[derive(Clone, Debug)]
pub struct Clock {
    /// Index into [`SPEEDS`], or [`FOLLOW`].
    speed: usize,
    /// The derived speed to follow one request, simulated ns per second.
    follow: Option<u64>,
    /// The shared simulated time at timed speeds, ns.
    now_ns: u64,
    /// The last frame's timestamp, ms (None: the next frame is the first after a start).
    last_ts: Option<f64>,
    slicers: [Slicer; 2],
    /// Where a seek is going (ns, or [`END`]).
    seek_to: Option<u64>,
    /// Where playing at a timed speed stops (a tour's Play: [`Clock::stop_at`]).
    stop_at: Option<u64>,
}

impl Default for Clock {
    fn default() -> Self {
        Clock {
            speed: DEFAULT_SPEED,
            follow: None,
            now_ns: 0,
            last_ts: None,
            slicers: Default::default(),
            seek_to: None,
            stop_at: None,
        }
    }
}

/// The sessions' times: the earliest and the latest.
fn span(a: &Session, b: Option<&Session>) -> (u64, u64) {
    let bn = b.map(Session::now);
    (
        a.now().min(bn.unwrap_or(u64::MAX)),
        a.now().max(bn.unwrap_or(0)),
    )
}

impl Clock {
    /// The speed's index in [`SPEEDS`], or [`FOLLOW`].
    pub fn speed(&self) -> usize {
        self.speed
    }
    /// Simulated ns per real second; None: as fast as possible.
    pub fn rate_ns(&self) -> Option<u64> {
        match (self.speed, self.follow) {
            (FOLLOW, Some(ns)) => Some(ns),
            (i, _) => SPEEDS[i.min(SPEEDS.len() - 1)].sim_ns_per_s,
        }
    }
    /// The derived speed, when the clock plays at it.
    pub fn following(&self) -> Option<u64> {
        self.follow.filter(|_| self.speed == FOLLOW)
    }
    /// The derived speed, whether the clock plays at it or at a preset (the speed control
    /// lists it).
    pub fn following_set(&self) -> Option<u64> {
        self.follow
    }
    /// Plays at the derived speed `sim_ns_per_s` ([`crate::watch::follow`]).
    pub fn set_follow(&mut self, sim_ns_per_s: u64) {
        self.follow = Some(sim_ns_per_s);
        self.speed = FOLLOW;
    }
    /// Back to the default speed, the derived one forgotten (a new scenario).
    pub fn clear_follow(&mut self) {
        if self.speed == FOLLOW {
            self.speed = DEFAULT_SPEED;
        }
        self.follow = None;
    }
    /// The shared simulated time, ns.
    pub fn now(&self) -> u64 {
        self.now_ns
    }
    /// Where a seek in progress is going: Some(Some(ns)), Some(None) for the end.
    pub fn seeking(&self) -> Option<Option<u64>> {
        self.seek_to.map(|t| (t != END).then_some(t))
    }

    /// Back to time zero for new sessions; the speed stays.
    pub fn reset(&mut self) {
        *self = Clock {
            speed: self.speed,
            follow: self.follow,
            ..Clock::default()
        };
    }

    /// Playing (re)starts at the speed: the next frame accounts for one 60 Hz frame, whatever
    /// time passed; a seek left unfinished by a pause is dropped.
    pub fn resume(&mut self) {
        self.last_ts = None;
        self.seek_to = None;
    }

    /// A new speed (an index of [`SPEEDS`]; past the last, the last; [`FOLLOW`] once a
    /// derived speed is set).
    pub fn set_speed(&mut self, i: usize) {
        self.speed = if i == FOLLOW && self.follow.is_some() {
            FOLLOW
        } else {
            i.min(SPEEDS.len() - 1)
        };
    }

    /// The shared time goes to where the sides are (the earlier one), so timed speeds continue
    /// from there after stepping or running as fast as possible.
    pub fn follow(&mut self, a: &Session, b: Option<&Session>) {
        self.now_ns = span(a, b).0;
    }

    /// Runs the sides to simulated time `t` ns (None: to the end) over the next frames, as fast
    /// as the frame budget allows; [`Clock::frame`] says when they are there. Sides past `t`
    /// stay where they are (the simulator cannot go back: the page restarts them first).
    pub fn seek(&mut self, t: Option<u64>) {
        self.seek_to = Some(t.unwrap_or(END));
        self.last_ts = None;
        self.stop_at = None;
    }

    /// Playing at a timed speed stops at simulated time `t` ns: the frame that reaches it
    /// arrives there as a seek does ([`Clock::frame`] says so). A seek forgets it.
    pub fn stop_at(&mut self, t: u64) {
        self.stop_at = Some(t);
    }

    /// Real time the frame at `ts` (ms) accounts for.
    fn frame_dt(&mut self, ts: f64) -> f64 {
        let dt = self
            .last_ts
            .map_or(FIRST_FRAME_MS, |l| (ts - l).clamp(0.0, MAX_FRAME_DT_MS));
        self.last_ts = Some(ts);
        dt
    }

    /// One animation frame at timestamp `ts` (ms): the sides advance by the simulated time the
    /// speed maps the frame's real time to, for the engine's share of the frame at "as fast as
    /// possible" and while seeking (`last_draw_ms`: what drawing the last frame of its kind
    /// took; [`engine_budget_ms`], [`seek_budget_ms`]; `wall`: a wall clock in ms). True when a
    /// seek arrived in this frame, or playing reached where it stops ([`Clock::stop_at`]).
    pub fn frame(
        &mut self,
        ts: f64,
        last_draw_ms: f64,
        a: &mut Session,
        mut b: Option<&mut Session>,
        wall: impl Fn() -> f64,
    ) -> bool {
        let dt = self.frame_dt(ts);
        let budget = match self.seek_to {
            Some(_) => seek_budget_ms(last_draw_ms),
            None => engine_budget_ms(last_draw_ms),
        };
        let share = if b.is_some() { budget / 2.0 } else { budget };
        if let Some(goal) = self.seek_to {
            let run = |s: &mut Session, n: u64| match goal {
                END => s.run_events(n),
                t => s.advance_to(t, n),
            };
            let ra = self.slicers[0].run_slice(|n| run(a, n), &wall, share);
            let rb = match b.as_deref_mut() {
                Some(b) => self.slicers[1].run_slice(|n| run(b, n), &wall, share),
                None => true,
            };
            let arrived = ra && rb;
            self.now_ns = match goal {
                END => span(a, b.as_deref()).1,
                t if arrived => t,
                _ => span(a, b.as_deref()).0,
            };
            if arrived {
                self.seek_to = None;
            }
            return arrived;
        }
        match self.rate_ns() {
            Some(rate) => {
                let mut target = self.now_ns + (rate as f64 * dt / 1e3) as u64;
                let stop = self.stop_at.filter(|&s| target >= s);
                if let Some(s) = stop {
                    target = s;
                }
                let ra = a.advance_to(target, MAX_EVENTS_PER_FRAME);
                let rb = b
                    .as_deref_mut()
                    .is_none_or(|b| b.advance_to(target, MAX_EVENTS_PER_FRAME));
                // A side that could not keep up holds the clock back: both stay in step.
                self.now_ns = if ra && rb {
                    target
                } else {
                    span(a, b.as_deref()).0
                };
                if stop.is_some() && ra && rb {
                    self.stop_at = None;
                    return true;
                }
            }
            None => {
                self.slicers[0].run_slice(|n| a.run_events(n), &wall, share);
                if let Some(b) = b.as_deref_mut() {
                    self.slicers[1].run_slice(|n| b.run_events(n), &wall, share);
                }
                self.now_ns = span(a, b.as_deref()).1;
            }
        }
        false
    }

    /// One step: the side whose next event (or bus phase boundary) comes first takes it; the
    /// other side's clock follows to that time. False when both sides are finished.
    pub fn step(&mut self, a: &mut Session, mut b: Option<&mut Session>) -> bool {
        let na = a.next_change().unwrap_or(u64::MAX);
        let nb = b
            .as_deref()
            .and_then(Session::next_change)
            .unwrap_or(u64::MAX);
        if na == u64::MAX && nb == u64::MAX {
            return false;
        }
        let t = na.min(nb);
        if na <= nb {
            a.step_event();
            if let Some(b) = b.as_deref_mut() {
                b.advance_to(t, 0);
            }
        } else if let Some(b) = b {
            b.step_event();
            a.advance_to(t, 0);
        }
        self.now_ns = t;
        true
    }
}

/// Most single steps [`previous_step`] re-simulates before it gives up.
pub const MAX_STEPS_BACK: u32 = 50_000;

/// The time of the single step before `now` (what Step would have stopped at last), found by
/// stepping fresh sessions of the same scenarios from time zero (the engine is deterministic).
/// None when there is none before `now`, or more than [`MAX_STEPS_BACK`] steps lie before it.
pub fn previous_step(
    a: &mmcsim_engine::Scenario,
    b: Option<&mmcsim_engine::Scenario>,
    now: u64,
) -> Option<u64> {
    let mut sa = Session::watched(a).ok()?;
    let mut sb = match b {
        Some(b) => Some(Session::watched(b).ok()?),
        None => None,
    };
    let mut c = Clock::default();
    let mut last = None;
    for _ in 0..MAX_STEPS_BACK {
        if !c.step(&mut sa, sb.as_mut()) || c.now() >= now {
            return last;
        }
        last = Some(c.now());
    }
    None
}

#[cfg(test)]
mod tests;
