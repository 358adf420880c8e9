//! The clock of "Watch the pipeline": one simulated clock for A and, in an A/B comparison, B,
//! which advance in lockstep (same simulated time on both sides at every frame), the speed
//! control mapping real milliseconds to simulated nanoseconds, the "as fast as possible" budget
//! per frame, single steps, and seeking to a simulated time or the end.
//!
//! Plain logic, no browser code: the page hands it each animation frame's timestamp and a wall
//! clock (`performance.now()`), and the native tests hand it fake ones.

use crate::shell::session::Session;
use crate::shell::slicer::{Slicer, FRAME_BUDGET_MS};

/// One step of the speed control: simulated time per second of real time, or `None` for "as
/// fast as the frame budget allows".
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Speed {
    pub label: &'static str,
    pub sim_ns_per_s: Option<u64>,
}

const fn speed(label: &'static str, sim_ns_per_s: Option<u64>) -> Speed {
    Speed {
        label,
        sim_ns_per_s,
    }
}

/// The speed control, slowest first. The slowest steps show one request crossing the bus in
/// slow motion (a 4 KiB transfer on HS400 takes about 10 µs); the default lets a reader follow
/// each request of a non-packed 4 KiB run (about 170 µs apart) without losing track.
pub const SPEEDS: [Speed; 9] = [
    speed("2 µs/s", Some(2_000)),
    speed("10 µs/s", Some(10_000)),
    speed("50 µs/s", Some(50_000)),
    speed("200 µs/s", Some(200_000)),
    speed("1 ms/s", Some(1_000_000)),
    speed("5 ms/s", Some(5_000_000)),
    speed("25 ms/s", Some(25_000_000)),
    speed("100 ms/s", Some(100_000_000)),
    speed("as fast as possible", None),
];

/// "Normal" speed: 1 ms of simulated time per second.
pub const DEFAULT_SPEED: usize = 4;

/// The speed index past [`SPEEDS`] meaning "the speed derived to follow one request"
/// ([`crate::watch::follow`]), set by [`Clock::set_follow`].
pub const FOLLOW: usize = SPEEDS.len();

/// The index in [`SPEEDS`] of the speed labelled `label`.
pub fn speed_index(label: &str) -> Option<usize> {
    SPEEDS.iter().position(|s| s.label == label)
}

/// The speed control's labels: [`SPEEDS`], with the derived speed (if any) in its place
/// among them, "200 µs/s · follow one request".
pub fn shown_speeds(follow: Option<u64>) -> Vec<String> {
    let mut v: Vec<String> = SPEEDS.iter().map(|s| s.label.to_string()).collect();
    if let Some(ns) = follow {
        let label = format!(
            "{}/s · follow one request",
            crate::watch::follow::round_time(ns)
        );
        v.insert(follow_place(ns), label);
    }
    v
}

/// Where the derived speed stands among [`SPEEDS`] (the presets slower than it come first).
fn follow_place(ns: u64) -> usize {
    SPEEDS
        .iter()
        .take_while(|s| s.sim_ns_per_s.is_some_and(|r| r <= ns))
        .count()
}

/// The clock's speed index ([`SPEEDS`] or [`FOLLOW`]) of entry `i` of [`shown_speeds`].
pub fn from_shown(i: usize, follow: Option<u64>) -> usize {
    match follow.map(follow_place) {
        Some(k) if i == k => FOLLOW,
        Some(k) if i > k => i - 1,
        _ => i,
    }
}

/// The entry of [`shown_speeds`] of the clock's speed index.
pub fn to_shown(speed: usize, follow: Option<u64>) -> usize {
    match follow.map(follow_place) {
        Some(k) if speed == FOLLOW => k,
        Some(k) if speed >= k => speed + 1,
        _ => speed.min(SPEEDS.len() - 1),
    }
}

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
    /// speed maps the frame's real time to, or for the engine's share of the frame at "as fast
    /// as possible" and while seeking (`last_draw_ms`: what drawing the previous frame took;
    /// `wall`: a wall clock in ms). True when a seek arrived in this frame.
    pub fn frame(
        &mut self,
        ts: f64,
        last_draw_ms: f64,
        a: &mut Session,
        mut b: Option<&mut Session>,
        wall: impl Fn() -> f64,
    ) -> bool {
        let dt = self.frame_dt(ts);
        let budget = engine_budget_ms(last_draw_ms);
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
                let target = self.now_ns + (rate as f64 * dt / 1e3) as u64;
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
mod tests {
    use std::cell::Cell;

    use super::*;
    use mmcsim_engine::scenario::{apply_option, OptionScope};
    use mmcsim_engine::Scenario;

    fn session(opts: &[(&str, &str)]) -> Session {
        let mut s = Scenario::default();
        for (k, v) in opts {
            apply_option(&mut s, OptionScope::Global, k, Some(v)).unwrap();
        }
        Session::watched(&s).unwrap()
    }

    #[test]
    fn every_speed_label_is_found_and_the_default_is_one_ms_per_second() {
        for (i, s) in SPEEDS.iter().enumerate() {
            assert_eq!(speed_index(s.label), Some(i));
        }
        assert_eq!(speed_index("1 ms/s"), Some(DEFAULT_SPEED));
        assert_eq!(speed_index("3 ms/s"), None);
        assert_eq!(Clock::default().rate_ns(), Some(1_000_000));
    }

    #[test]
    fn a_timed_speed_maps_real_ms_to_simulated_ns_on_both_sides() {
        let (mut a, mut b) = (session(&[("size", "4m")]), session(&[("size", "4m")]));
        let mut c = Clock::default();
        c.set_speed(speed_index("1 ms/s").unwrap());
        c.follow(&a, Some(&b));
        // First frame: one 60 Hz frame, 16.7 µs of simulated time at 1 ms/s.
        c.frame(1000.0, 0.0, &mut a, Some(&mut b), || 0.0);
        assert_eq!(c.now(), 16_666);
        // 50 ms later: 50 µs more; A and B stand at the same time.
        c.frame(1050.0, 0.0, &mut a, Some(&mut b), || 0.0);
        assert_eq!(c.now(), 66_666);
        assert_eq!((a.now(), b.now()), (66_666, 66_666));
        // A hidden tab's 10 s gap counts as MAX_FRAME_DT_MS at most.
        c.frame(11_050.0, 0.0, &mut a, Some(&mut b), || 0.0);
        assert_eq!(c.now(), 66_666 + 100_000);
        // After a pause the first frame counts as one frame again, not the pause.
        c.resume();
        c.frame(99_000.0, 0.0, &mut a, Some(&mut b), || 0.0);
        assert_eq!(c.now(), 166_666 + 16_666);
    }

    #[test]
    fn as_fast_as_possible_stays_within_the_frame_budget() {
        assert_eq!(engine_budget_ms(0.0), FRAME_BUDGET_MS);
        assert_eq!(engine_budget_ms(3.0), 5.0);
        assert_eq!(engine_budget_ms(30.0), MIN_ENGINE_MS);
        let mut a = session(&[("size", "64m")]);
        let mut c = Clock::default();
        c.set_speed(SPEEDS.len() + 3);
        assert_eq!(c.rate_ns(), None, "past the last: as fast as possible");
        // A wall clock that moves 1 ms each time it is read: every chunk of events "takes" 1 ms.
        let t = Cell::new(0.0);
        let wall = || {
            t.set(t.get() + 1.0);
            t.get()
        };
        c.frame(0.0, 0.0, &mut a, None, wall);
        assert!(a.events() > 0 && !a.is_finished());
        assert!(
            t.get() <= FRAME_BUDGET_MS + 2.0,
            "the slice took {} ms",
            t.get()
        );
        assert_eq!(c.now(), a.now());
    }

    #[test]
    fn seek_runs_both_sides_to_a_time_then_to_the_end() {
        let (mut a, mut b) = (session(&[("size", "1m")]), session(&[("size", "512k")]));
        let mut c = Clock::default();
        c.seek(Some(2_000_000));
        assert_eq!(c.seeking(), Some(Some(2_000_000)));
        let mut frames = 0;
        while !c.frame(frames as f64 * 16.0, 0.0, &mut a, Some(&mut b), || 0.0) {
            frames += 1;
            assert!(frames < 1000);
        }
        assert_eq!(
            (a.now(), b.now(), c.now()),
            (2_000_000, 2_000_000, 2_000_000)
        );
        assert_eq!(c.seeking(), None);
        c.seek(None);
        assert_eq!(c.seeking(), Some(None));
        while !c.frame(0.0, 0.0, &mut a, Some(&mut b), || 0.0) {}
        assert!(a.is_finished() && b.is_finished());
        assert_eq!(c.now(), a.now().max(b.now()));
    }

    #[test]
    fn a_step_moves_the_side_whose_change_comes_first_and_the_other_follows() {
        let (mut a, mut b) = (
            session(&[("size", "64k")]),
            session(&[("size", "64k"), ("packed", "0")]),
        );
        let mut c = Clock::default();
        let mut t = 0;
        for _ in 0..200 {
            assert!(c.step(&mut a, Some(&mut b)));
            assert!(c.now() >= t, "time never goes back");
            t = c.now();
            // The side that stepped stands at t; the other follows unless it has an event
            // due at t itself (it takes that one next).
            assert!(a.now() <= t && b.now() <= t, "{} {} {t}", a.now(), b.now());
            assert!(a.now() == t || b.now() == t);
        }
        while c.step(&mut a, Some(&mut b)) {}
        assert!(a.is_finished() && b.is_finished());
    }

    #[test]
    fn the_previous_step_is_the_one_a_forward_step_stopped_at() {
        let scn = |opts: &[(&str, &str)]| {
            let mut s = Scenario::default();
            for (k, v) in opts {
                apply_option(&mut s, OptionScope::Global, k, Some(v)).unwrap();
            }
            s
        };
        let (a, b) = (
            scn(&[("size", "64k")]),
            scn(&[("size", "64k"), ("packed", "0")]),
        );
        let (mut sa, mut sb) = (Session::watched(&a).unwrap(), Session::watched(&b).unwrap());
        let mut c = Clock::default();
        let mut times = Vec::new();
        for _ in 0..30 {
            c.step(&mut sa, Some(&mut sb));
            times.push(c.now());
        }
        // Two sides can step at the same time: the previous step is the last earlier time.
        let before = times.iter().copied().filter(|&t| t < times[29]).max();
        assert!(before.is_some());
        assert_eq!(previous_step(&a, Some(&b), times[29]), before);
        assert_eq!(previous_step(&a, Some(&b), times[0]), None);
    }

    #[test]
    fn reset_keeps_the_speed_and_the_strip_follows_the_speed() {
        let mut c = Clock::default();
        c.set_speed(1);
        c.seek(None);
        c.reset();
        assert_eq!((c.speed(), c.now(), c.seeking()), (1, 0, None));
        c.seek(Some(5));
        c.resume();
        assert_eq!(c.seeking(), None, "playing again drops a paused seek");
        assert_eq!(strip_window_ns(SPEEDS[0].sim_ns_per_s), 200_000);
        assert_eq!(
            strip_window_ns(SPEEDS[DEFAULT_SPEED].sim_ns_per_s),
            3_000_000
        );
        assert_eq!(strip_window_ns(SPEEDS[8].sim_ns_per_s), 2_000_000);
    }

    #[test]
    fn a_derived_speed_plays_until_a_preset_is_chosen_and_survives_a_restart() {
        let mut c = Clock::default();
        c.set_speed(FOLLOW);
        assert_eq!(
            c.speed(),
            SPEEDS.len() - 1,
            "no derived speed yet: the last preset"
        );
        c.set_follow(20_000);
        assert_eq!(
            (c.speed(), c.rate_ns(), c.following()),
            (FOLLOW, Some(20_000), Some(20_000))
        );
        c.reset();
        assert_eq!(c.rate_ns(), Some(20_000));
        let mut a = session(&[("size", "1m")]);
        c.frame(0.0, 0.0, &mut a, None, || 0.0);
        c.frame(50.0, 0.0, &mut a, None, || 0.0);
        assert_eq!(
            c.now(),
            333 + 1_000,
            "one 60 Hz frame, then 50 ms at 20 µs/s"
        );
        c.set_speed(2);
        assert_eq!((c.rate_ns(), c.following()), (Some(50_000), None));
        c.set_speed(FOLLOW);
        assert_eq!(c.following(), Some(20_000));
        c.clear_follow();
        assert_eq!((c.speed(), c.following()), (DEFAULT_SPEED, None));
    }

    #[test]
    fn the_derived_speed_is_listed_among_the_presets() {
        let f = Some(20_000);
        let shown = shown_speeds(f);
        assert_eq!(shown.len(), SPEEDS.len() + 1);
        assert_eq!(shown[2], "20 µs/s · follow one request");
        assert_eq!(
            (shown[1].as_str(), shown[3].as_str()),
            ("10 µs/s", "50 µs/s")
        );
        for i in 0..shown.len() {
            assert_eq!(to_shown(from_shown(i, f), f), i);
        }
        assert_eq!(from_shown(2, f), FOLLOW);
        assert_eq!(from_shown(3, f), 2);
        assert_eq!(shown_speeds(None).len(), SPEEDS.len());
        assert_eq!(from_shown(3, None), 3);
    }
}
