//! The public API of [`Simulator`]: build, step, run, observe (snapshot, report, series, trace,
//! timeline) and cut the power. Every public method lives here; the layers' modules hold the
//! crate-private machinery these call.

use super::observe::Snapshot;
use super::Simulator;
use crate::board::Platform;
use crate::metrics::SeriesPoint;
use crate::path::bus::Segment;
use crate::report::{PowerCutReport, Report};
use crate::scenario::{Scenario, ScenarioError};
use crate::vocab::HostConfig;
use crate::vocab::TraceEvent;

impl Simulator {
    /// Builds a simulator for `scn`, checking everything the option parser cannot check alone
    /// (platform limits, combinations, bounds).
    pub fn new(scn: &Scenario) -> Result<Simulator, ScenarioError> {
        Simulator::build(scn)
    }

    /// Simulated time now, ns.
    pub fn now(&self) -> u64 {
        self.now
    }

    /// The platform in use: the preset with the scenario's board parameters applied.
    pub fn platform(&self) -> &Platform {
        &self.platform
    }

    /// The host switches in effect (platform defaults filled in).
    pub fn host_config(&self) -> HostConfig {
        self.cfg
    }

    /// No event is left: every job finished.
    pub fn is_finished(&self) -> bool {
        self.q.is_empty()
    }

    /// Requests the run has made so far (their ids are 0 to this, less one).
    pub fn requests_made(&self) -> u64 {
        self.next_req_id
    }

    /// Requests the run left unfinished: once it is over (no event left, no power cut), every
    /// request has ended and this is 0; more is a defect of the model (a request waiting for
    /// something that never comes), which the CLI reports instead of figures.
    pub fn stranded_requests(&self) -> usize {
        if !self.is_finished() || self.power_cut.is_some() {
            return 0;
        }
        self.reqs.iter().count()
    }

    /// Events processed so far.
    pub fn events(&self) -> u64 {
        self.events
    }

    /// Time of the next event, if any.
    pub fn next_event_time(&self) -> Option<u64> {
        self.q.peek_time()
    }

    /// Fraction done, 0..=1 (1 only once finished): bytes for size-bound runs, simulated time
    /// for time-based ones (a time-based job runs until its runtime, whatever it transferred),
    /// the larger of both when every job is bounded by `runtime=`.
    pub fn progress(&self) -> f64 {
        if self.is_finished() {
            return 1.0;
        }
        let p = if let Some(t) = &self.mmc_test {
            t.progress()
        } else {
            let by_bytes = self.bytes_done as f64 / self.bytes_total as f64;
            let by_time = |r: u64| self.now as f64 / r.max(1) as f64;
            match (self.runtime_ns, self.all_timed_ns) {
                (Some(r), _) => by_time(r),
                (None, Some(r)) => by_bytes.max(by_time(r)),
                (None, None) => by_bytes,
            }
        };
        // Not finished: never shown as done.
        p.clamp(0.0, 0.999)
    }

    /// Processes one event. Returns false when nothing is left.
    pub fn step(&mut self) -> bool {
        self.run_loop(1, u64::MAX) == 1
    }

    /// Processes at most `max_events` events, none later than `until`; returns how many. Every
    /// way of running goes through this one loop, with the event handlers inlined into it once
    /// (not a call per event).
    fn run_loop(&mut self, max_events: u64, until: u64) -> u64 {
        let mut n = 0;
        while n < max_events && self.q.peek_time().is_some_and(|t| t <= until) {
            self.next_event();
            n += 1;
        }
        n
    }

    /// Runs every event up to and including time `t`, then stands at `t`.
    pub fn run_until(&mut self, t: u64) {
        self.run_loop(u64::MAX, t);
        if t > self.now && !self.is_finished() {
            self.now = t;
            if self.trace.enabled() {
                self.trace.release(self.now);
            }
        }
    }

    /// Runs at most `max_events` events (a budgeted slice for the UI). Returns true when the
    /// run is finished.
    pub fn run_events(&mut self, max_events: u64) -> bool {
        self.run_loop(max_events, u64::MAX);
        self.is_finished()
    }

    /// Runs to the end.
    pub fn run_to_end(&mut self) {
        self.run_loop(u64::MAX, u64::MAX);
    }

    /// Requests the mmc queue accepts at once on this host (what the UI draws as the window).
    pub fn mmc_window(&self) -> u32 {
        self.mq.window()
    }

    /// Throughput, IOPS and in-flight count over simulated time so far.
    pub fn series(&self) -> Vec<SeriesPoint> {
        self.series.points(self.now)
    }

    /// Keep the last `n` trace events (0 = tracing off, the default).
    pub fn set_trace_capacity(&mut self, n: usize) {
        self.trace.set_capacity(n);
    }

    /// Takes the trace events recorded since the last call, in time order.
    pub fn drain_trace(&mut self) -> Vec<TraceEvent> {
        self.trace.drain()
    }

    /// Keep the last `n` bus timeline segments (0 = off, the default).
    pub fn set_timeline_capacity(&mut self, n: usize) {
        self.bus.keep_segments(n);
    }

    /// Takes the timeline segments recorded since the last call, oldest first.
    pub fn drain_timeline(&mut self) -> Vec<Segment> {
        self.bus.drain()
    }

    /// Bus and host timeline segments kept, oldest first.
    pub fn timeline(&self) -> Vec<Segment> {
        self.bus.timeline().copied().collect()
    }

    /// Results so far (complete once [`is_finished`](Self::is_finished)).
    pub fn report(&self) -> Report {
        let mut sim = self.stats.clone();
        sim.stage_ns = self.stage_ns.to_vec();
        for (map, list) in sim.request_sizes.iter_mut().zip(&self.req_sizes) {
            map.extend(list.iter().copied());
        }
        sim.simulated_ns = self.now;
        sim.events = self.events;
        sim.bus_busy_ns = self.bus_busy_ns_now();
        sim.io_ticks_ns = self.io_ticks_ns_now();
        let jobs = match &self.mmc_test {
            Some(t) => t.reports().to_vec(),
            None => self.jobs.iter().map(|j| j.report()).collect(),
        };
        Report {
            platform: self.platform.name.to_string(),
            jobs,
            sim,
            power_cut: self.power_cut.clone(),
            stranded_requests: self.stranded_requests() as u64,
        }
    }

    /// Job clones in the run.
    pub fn job_count(&self) -> usize {
        self.jobs.len()
    }

    /// What job clone `i` logged since the last take, handed over (a run's logs are written
    /// as it goes, `mmcsim`'s `write_*_log` and `write_iolog`): its statistics start (ns: the
    /// job's start plus `ramp_time`), the I/Os completed in completion order (kept only with a
    /// `write_*_log`) and the I/Os queued in queue order (only with `write_iolog`).
    pub fn take_job_logs(
        &mut self,
        i: usize,
    ) -> Option<(
        u64,
        Vec<crate::path::workload::IoRecord>,
        Vec<crate::path::workload::QueuedIo>,
    )> {
        self.jobs
            .get_mut(i)
            .map(|j| (j.stats_start(), j.take_records(), j.take_queued()))
    }

    /// Name, clone index, statistics start (ns: the job's start plus `ramp_time`) and the I/O
    /// records of job clone `i` (kept only for jobs with a `write_*_log`) since the last
    /// [`Simulator::take_job_logs`], in completion order.
    pub fn job_records(
        &self,
        i: usize,
    ) -> Option<(&str, u32, u64, &[crate::path::workload::IoRecord])> {
        self.jobs
            .get(i)
            .map(|j| (j.name.as_str(), j.index, j.stats_start(), j.records()))
    }

    /// Where every request is at the current simulated time. Looking changes nothing: a run
    /// gives the same results however often it is looked at.
    pub fn snapshot(&self) -> Snapshot {
        self.observe()
    }

    /// Cuts the power now: ends the run and reports the acknowledged writes lost.
    pub fn power_cut_now(&mut self) {
        self.power_fail();
    }

    /// The power-cut report, once the power was cut.
    pub fn power_cut_report(&self) -> Option<&PowerCutReport> {
        self.power_cut.as_ref()
    }
}

/// Runs a whole scenario and returns its report.
pub fn run(scn: &Scenario) -> Result<Report, ScenarioError> {
    let mut sim = Simulator::new(scn)?;
    sim.run_to_end();
    Ok(sim.report())
}
