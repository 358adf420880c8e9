//! One simulation as the web app drives it: the single wrapper around the engine's
//! `Simulator`, for the Run button (budgeted slices, the plug), for "Watch the pipeline" (run to
//! a simulated time, single steps, the snapshot, the bus strip, each request's life from the
//! trace) and for the gallery's table.
//!
//! Plain logic, no browser code: it builds natively and the native tests drive it (the page
//! owns the frames and the wall clock). It calls only the engine's public API: `run_events`,
//! `run_until`, `step`, `snapshot`, `drain_trace`, `timeline`, `series`, `report`,
//! `power_cut_now`.

use std::collections::BTreeMap;
use std::fmt;

use mmcsim_engine::metrics::SeriesPoint;
use mmcsim_engine::Segment;
use mmcsim_engine::Snapshot;
use mmcsim_engine::{HostConfig, Report, Scenario, Simulator, TraceEvent};

/// Why a run could not start: the engine's message, and the option it names if any.
#[derive(Clone, Debug, PartialEq)]
pub struct RunError {
    pub option: Option<String>,
    pub message: String,
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// Trace events kept by the engine between two frames of a watched session.
const TRACE_CAPACITY: usize = 16_384;
/// Bus/host timeline segments kept (a few ms of a busy 4 KiB run).
const TIMELINE_CAPACITY: usize = 3_000;
/// Requests whose life (stage entries) is remembered for the request panel.
const LIVES_KEPT: usize = 2_048;

/// A simulation being run.
pub struct Session {
    sim: Simulator,
    /// Per request, its trace events: the stages it entered (watched sessions only).
    lives: BTreeMap<u64, Vec<TraceEvent>>,
    /// A session to watch ([`Session::watched`]).
    watched: bool,
    /// The trace is on: a watched session not running to its end unwatched.
    traced: bool,
    /// Requests with a lower id began while the trace was off: their lives are not kept.
    traced_from: u64,
}

impl Session {
    /// Builds the simulator for a scenario, or the engine's refusal (a combination the option
    /// parser accepts one value at a time, such as a chain longer than the platform's ADMA3).
    pub fn start(scn: &Scenario) -> Result<Session, RunError> {
        let sim = Simulator::new(scn).map_err(|e| RunError {
            option: e.option.clone(),
            message: e.to_string(),
        })?;
        Ok(Session {
            sim,
            lives: BTreeMap::new(),
            watched: false,
            traced: false,
            traced_from: 0,
        })
    }

    /// A session to watch: as [`Session::start`], with the trace and the bus timeline on.
    pub fn watched(scn: &Scenario) -> Result<Session, RunError> {
        let mut s = Session::start(scn)?;
        s.sim.set_trace_capacity(TRACE_CAPACITY);
        s.sim.set_timeline_capacity(TIMELINE_CAPACITY);
        (s.watched, s.traced) = (true, true);
        Ok(s)
    }

    /// Turns a watched session's trace off (a run to its end that nobody watches on the way:
    /// every request's stages recorded and kept costs the engine more than the run itself) or
    /// on again. The lives of the requests begun while it was off are not kept, so a life
    /// shown is always whole: [`Session::trace_of`] has none for them. An unwatched session
    /// stays untraced.
    pub fn set_traced(&mut self, on: bool) {
        if on == self.traced || !self.watched {
            return;
        }
        self.traced = on;
        if on {
            // Request ids only grow: those in flight now are the last begun untraced.
            let snap = self.sim.snapshot();
            self.traced_from = snap.requests.iter().map(|r| r.id + 1).max().unwrap_or(0);
            self.sim.set_trace_capacity(TRACE_CAPACITY);
        } else {
            self.sim.set_trace_capacity(0);
            self.lives.clear();
        }
    }

    /// Simulated time, ns.
    pub fn now(&self) -> u64 {
        self.sim.now()
    }
    pub fn is_finished(&self) -> bool {
        self.sim.is_finished()
    }
    /// 0..=1.
    pub fn progress(&self) -> f64 {
        self.sim.progress()
    }
    pub fn host_config(&self) -> HostConfig {
        self.sim.host_config()
    }
    /// The side's kernel, as its label says it ("Linux 6.12"; a version the model does not
    /// carry names the block layer it runs).
    pub fn kernel_label(&self) -> String {
        self.sim.platform().kernel.label()
    }
    /// Events processed so far.
    pub fn events(&self) -> u64 {
        self.sim.events()
    }

    /// Runs at most `max_events` events (a budgeted slice); true once the run is over.
    pub fn run_events(&mut self, max_events: u64) -> bool {
        let done = self.sim.run_events(max_events);
        self.absorb_trace();
        done
    }

    /// Runs the events due up to `target_ns` (at most `max_events` of them) and stands at
    /// `target_ns` when all were run. True when the target (or the end) was reached.
    pub fn advance_to(&mut self, target_ns: u64, max_events: u64) -> bool {
        let mut n = 0;
        while n < max_events && self.sim.next_event_time().is_some_and(|t| t <= target_ns) {
            self.sim.step();
            n += 1;
        }
        let reached = self.sim.next_event_time().is_none_or(|t| t > target_ns);
        if reached {
            self.sim.run_until(target_ns);
        }
        self.absorb_trace();
        reached
    }

    /// When the picture next changes: the next event, or the next phase boundary on the bus
    /// (a transfer's command, access, data and busy phases are booked when it starts, so they
    /// are no events of their own; single steps stop at them too). None once finished.
    pub fn next_change(&self) -> Option<u64> {
        if self.sim.is_finished() {
            return None;
        }
        let now = self.sim.now();
        let boundary = self
            .sim
            .timeline()
            .iter()
            .flat_map(|s| [s.start, s.end])
            .filter(|&t| t > now)
            .min();
        match (self.sim.next_event_time(), boundary) {
            (Some(e), Some(b)) => Some(e.min(b)),
            (e, b) => e.or(b),
        }
    }

    /// A single step: runs the next event, or moves to the next bus phase boundary if that
    /// comes first. False when nothing is left.
    pub fn step_event(&mut self) -> bool {
        let Some(t) = self.next_change() else {
            return false;
        };
        let stepped = if self.sim.next_event_time() == Some(t) {
            self.sim.step()
        } else {
            self.sim.run_until(t);
            true
        };
        self.absorb_trace();
        stepped
    }

    /// Pulls the plug now: the power fails at the current simulated time, the run ends, and
    /// the report carries what the cut lost ([`Simulator::power_cut_now`]).
    pub fn power_cut_now(&mut self) {
        self.sim.power_cut_now();
    }

    /// When the power was cut (by the plug or `power_cut=`), ns; None while it is on.
    pub fn power_cut_at(&self) -> Option<u64> {
        self.sim.power_cut_report().map(|p| p.at_ns)
    }

    /// Takes the engine's new trace events into the per-request lives.
    fn absorb_trace(&mut self) {
        for ev in self.sim.drain_trace() {
            if ev.req >= self.traced_from {
                self.lives.entry(ev.req).or_default().push(ev);
            }
        }
        while self.lives.len() > LIVES_KEPT {
            self.lives.pop_first();
        }
    }

    /// Requests the run has made so far (ids 0 to this, less one).
    pub fn requests_made(&self) -> u64 {
        self.sim.requests_made()
    }

    /// The trace events of request `id`: the stages it entered. None when it is older than
    /// the requests remembered (or the session is not watched). The request panel folds them
    /// into its rows (`LifeView::from_trace`).
    pub fn trace_of(&self, id: u64) -> Option<&[TraceEvent]> {
        self.lives.get(&id).map(Vec::as_slice)
    }

    pub fn snapshot(&mut self) -> Snapshot {
        self.sim.snapshot()
    }
    /// The bus strip's segments (watched sessions).
    pub fn timeline(&self) -> Vec<Segment> {
        self.sim.timeline()
    }
    pub fn series(&self) -> Vec<SeriesPoint> {
        self.sim.series()
    }
    pub fn report(&self) -> Report {
        self.sim.report()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::test_support::scenario;
    use mmcsim_engine::{Op, Stage};

    #[test]
    fn a_refused_combination_names_its_option() {
        let e = Session::start(&scenario(&[("mmc_path", "legacy"), ("packed", "8")]))
            .err()
            .expect("legacy has no ADMA3 chains");
        assert!(!e.message.is_empty());
        assert_eq!(e.to_string(), e.message);
    }

    #[test]
    fn slices_run_to_the_end_and_the_plug_ends_a_run() {
        let mut s = Session::start(&scenario(&[("size", "256k")])).unwrap();
        while !s.run_events(1000) {}
        assert!(s.is_finished() && s.progress() >= 1.0);
        assert!(s.report().total_mib_s() > 0.0);
        let mut s = Session::start(&scenario(&[("size", "64m")])).unwrap();
        s.run_events(5000);
        s.power_cut_now();
        assert!(s.is_finished());
        assert!(s.report().power_cut.is_some());
    }

    #[test]
    fn a_watched_session_stands_at_a_time_and_keeps_each_request_trace() {
        let mut s = Session::watched(&scenario(&[("size", "64k")])).unwrap();
        assert!(s.advance_to(50_000, u64::MAX));
        assert_eq!(s.now(), 50_000, "stands at the target between events");
        let trace = s.trace_of(0).expect("the first request's trace");
        assert!(trace.iter().all(|e| e.req == 0 && e.op == Op::Read));
        assert_eq!(trace.first().map(|e| e.stage), Some(Stage::Submit));
        assert!(trace.iter().all(|e| e.t_ns <= 50_000));
        // One step at a time: simulated time never goes back, and the run ends.
        let mut t = s.now();
        while s.step_event() {
            assert!(s.now() >= t);
            t = s.now();
        }
        assert!(s.is_finished());
        assert_eq!(s.next_change(), None);
    }

    /// A run to the end nobody watches runs untraced; the trace on again keeps whole lives
    /// only: none for the requests begun while it was off.
    #[test]
    fn a_life_is_kept_only_whole_across_an_untraced_stretch() {
        let scn = scenario(&[("size", "4m"), ("iodepth", "8"), ("ioengine", "libaio")]);
        let mut s = Session::watched(&scn).unwrap();
        s.run_events(300);
        assert!(s.trace_of(0).is_some());
        s.set_traced(false);
        assert!(s.trace_of(0).is_none(), "the lives kept are dropped");
        s.run_events(1000);
        let in_flight: Vec<u64> = s.snapshot().requests.iter().map(|r| r.id).collect();
        assert!(!in_flight.is_empty());
        s.set_traced(true);
        while !s.run_events(1000) {}
        for id in &in_flight {
            assert!(s.trace_of(*id).is_none(), "request {id} began untraced");
        }
        let next = in_flight.iter().max().unwrap() + 1;
        let life = s
            .trace_of(next)
            .expect("a request begun once the trace is on again");
        assert_eq!(life.first().map(|e| e.stage), Some(Stage::Submit));
        assert_eq!(life.last().map(|e| e.stage), Some(Stage::Done));
        // The same run with the trace on throughout: the same life, and the same report.
        let mut w = Session::watched(&scn).unwrap();
        while !w.run_events(1000) {}
        assert_eq!(w.trace_of(next), Some(life));
        assert_eq!(w.report(), s.report());
        // An unwatched session stays untraced.
        let mut u = Session::start(&scn).unwrap();
        u.set_traced(true);
        u.run_events(100);
        assert!(u.trace_of(0).is_none());
    }

    #[test]
    fn an_unwatched_session_keeps_no_trace() {
        let mut s = Session::start(&scenario(&[("size", "64k")])).unwrap();
        s.run_events(100);
        assert!(s.trace_of(0).is_none());
    }

    /// Issue 12: the plug pulled during a slow play cuts at the moment on screen, and the
    /// page's link, which then carries `power_cut=` at that moment, gives the same report.
    #[test]
    fn the_plug_cuts_at_the_time_shown_and_the_link_gives_the_same_cut() {
        let scn = scenario(&[
            // Plain writes (no O_SYNC) on a card whose cache holds them: some are lost.
            ("platform", "sprd-hs400es-2020"),
            ("rw", "randwrite"),
            ("size", "16m"),
        ]);
        let shown = 3_333_337;
        let mut s = Session::watched(&scn).unwrap();
        assert!(s.advance_to(shown, u64::MAX));
        s.power_cut_now();
        assert_eq!(s.power_cut_at(), Some(shown));
        let cut = s.report().power_cut.expect("a power-cut report");
        assert!(cut.acked_writes > 0 && cut.lost_acked_writes > 0, "{cut:?}");
        let mut linked = scn.clone();
        linked.power_cut_ns = Some(shown);
        let mut l = Session::start(&linked).unwrap();
        while !l.run_events(1 << 16) {}
        assert_eq!(l.report().power_cut, Some(cut));
    }
}
