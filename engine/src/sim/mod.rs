//! The simulator: owns every layer's state and the event queue, and runs events in time order.
//! Each layer's behaviour lives in the module named after it (`workload`, `blk_mq`, `mmc_queue`,
//! `hsq`, `legacy`, `cqe`, `host`, `bus`, `card`, `recovery`, `power`, `mmc_test`), as methods
//! on the layer's own struct plus the wiring (`impl Simulator`) that calls them; this module
//! builds the layers and dispatches events to them. The public API (step, run until, snapshot,
//! report, trace, timeline) is all in `api.rs`.

mod api;
pub(crate) mod event;
pub(crate) mod observe;
pub(crate) mod request;
mod trace_buf;

pub use api::run;

use crate::board::Platform;
use crate::metrics::TimeSeries;
use crate::path::blk_mq::BlkMq;
use crate::path::bus::Bus;
use crate::path::card::Card;
use crate::path::cqe::Cqe;
use crate::path::host::HostCtl;
use crate::path::hsq::Hsq;
use crate::path::legacy::Legacy;
use crate::path::mmc_queue::MmcQueue;
use crate::path::mmc_test::MmcTest;
use crate::path::workload::Job;
use crate::report::SimStats;
use crate::scenario::{Scenario, ScenarioError};
use crate::vocab::MMC_TEST_BYTES;
use crate::vocab::{Cause, Stage, TraceEvent};
use crate::vocab::{HostConfig, MmcPath};

pub(crate) use event::{Event, EventQueue, ReqIdx};
use request::Slab;
use trace_buf::TraceBuf;

/// Largest batch the batch-size histogram counts separately (SDHCI: 16 descriptor pairs).
pub const MAX_BATCH: usize = 16;

/// Random streams derived from `randseed` (one per job clone, one for the card).
const CARD_STREAM: u64 = u64::MAX;

pub struct Simulator {
    pub(crate) now: u64,
    pub(crate) q: EventQueue,
    pub(crate) reqs: Slab,
    pub(crate) next_req_id: u64,
    pub(crate) platform: Box<Platform>,
    pub(crate) cfg: HostConfig,
    pub(crate) jobs: Vec<Job>,
    pub(crate) blk: BlkMq,
    pub(crate) mq: MmcQueue,
    pub(crate) hsq: Hsq,
    pub(crate) legacy: Legacy,
    pub(crate) cqe: Cqe,
    pub(crate) host: HostCtl,
    pub(crate) bus: Bus,
    pub(crate) card: Card,
    /// Interrupt latency, completion and wake-up times as they vary (`variation.rs`).
    pub(crate) jitter: crate::variation::HostJitter,
    pub(crate) mmc_test: Option<MmcTest>,
    pub(crate) stats: SimStats,
    /// Time spent in each stage, by [`Stage::index`] (a fixed array on the per-request path;
    /// the report's `stage_ns` is filled from it).
    pub(crate) stage_ns: [u64; Stage::ALL.len()],
    pub(crate) series: TimeSeries,
    pub(crate) bytes_done: u64,
    bytes_total: u64,
    /// Longest `runtime=` of the time-based jobs: they run until then whatever they transfer.
    runtime_ns: Option<u64>,
    /// Longest `runtime=` when every job has one (the run ends by then at the latest).
    all_timed_ns: Option<u64>,
    pub(crate) trace: TraceBuf,
    events: u64,
    pub(crate) power_cut: Option<crate::report::PowerCutReport>,
    /// Reliable writes (FUA) acknowledged to the jobs.
    pub(crate) acked_reliable_writes: u64,
    pub(crate) recovery: crate::path::recovery::Recovery,
    /// Traces the jobs replay (`read_iolog`).
    pub(crate) iologs: Vec<crate::scenario::iolog::IoLog>,
    /// Data I/Os issued by all jobs (bounded by `MAX_TOTAL_IOS`).
    pub(crate) data_ios: u64,
    /// Split I/Os in flight, by I/O id.
    pub(crate) split: std::collections::HashMap<u64, crate::path::workload::SplitIo>,
    /// `zonemode=zbd`: fio's emulated zones, shared by the jobs on the device.
    pub(crate) zbd: Option<Box<crate::path::workload::zbd::Zones>>,
    /// The latest stonewall phase begun.
    pub(crate) phase_started: u32,
}

impl Simulator {
    /// Builds the layers for `scn` (see [`Simulator::new`]).
    pub(crate) fn build(scn: &Scenario) -> Result<Simulator, ScenarioError> {
        let platform = scn.effective_platform()?;
        let mut cfg = scn.host_config()?;
        crate::scenario::check(scn)?;
        if let Some(case) = scn.mmc_test {
            // mmc_test drives the legacy path; the case number says blocking or not.
            cfg.mmc_path = MmcPath::Legacy;
            cfg.nonblocking = case % 2 == 0;
            cfg.packed = 0;
        }
        let mut jobs = Vec::new();
        let mut bytes_total = 0u64;
        let mut runtime_ns = None;
        let mut iologs: Vec<crate::scenario::iolog::IoLog> = Vec::new();
        let all_timed_ns = scn
            .jobs
            .iter()
            .map(|j| j.runtime_ns)
            .try_fold(0u64, |m, r| r.map(|r| m.max(r)))
            .filter(|_| scn.mmc_test.is_none() && !scn.jobs.is_empty());
        if scn.mmc_test.is_none() {
            let (mut group, mut phase) = (0u32, 0u32);
            for (s, spec) in scn.jobs.iter().enumerate() {
                if s > 0 && (spec.stonewall || spec.new_group) {
                    group += 1;
                }
                if s > 0 && spec.stonewall {
                    phase += 1;
                }
                let replay = match &spec.read_iolog {
                    Some(name) => {
                        let log = scn.iolog(name).ok_or_else(|| {
                            ScenarioError::new(
                                "read_iolog",
                                format!("'{name}': the trace is not loaded (give the file on the command line, or drop it on the page)"),
                            )
                        })?;
                        let i = match iologs.iter().position(|l| l.name == *name) {
                            Some(i) => i,
                            None => {
                                iologs.push(log.clone());
                                iologs.len() - 1
                            }
                        };
                        Some((i, log.ops.iter().map(|o| o.len).sum::<u64>()))
                    }
                    None => None,
                };
                let record = spec.write_iolog.is_some()
                    || spec.write_bw_log.is_some()
                    || spec.write_lat_log.is_some()
                    || spec.write_iops_log.is_some();
                // `wait_for=NAME`: the last section of that name before this one (a name that
                // no earlier section has waits for nothing).
                let waits = spec
                    .wait_for
                    .as_ref()
                    .and_then(|w| scn.jobs[..s].iter().rposition(|e| e.name == *w))
                    .map(|i| i as u32);
                for k in 0..spec.numjobs {
                    let index = jobs.len() as u32;
                    let mut job = Job::new(spec, index, scn.randseed, index as u64)
                        .clone_no(k, spec)
                        .in_group(group, phase)
                        .in_section(s as u32, waits);
                    match replay {
                        Some((i, bytes)) => {
                            job = job.replaying(i, spec.loops, spec.replay_no_stall);
                            bytes_total += bytes * u64::from(spec.loops.max(1));
                        }
                        None => {
                            let min = spec.min_bs().max(1);
                            bytes_total += (spec.io_bytes() / min).max(1) * min;
                        }
                    }
                    if record {
                        job = job.recording();
                    }
                    jobs.push(job);
                }
                if spec.time_based {
                    runtime_ns = runtime_ns.max(spec.runtime_ns);
                }
            }
        }
        let mmc_test = scn.mmc_test.map(|case| {
            let per_size = scn
                .jobs
                .first()
                .map(|j| j.size)
                .filter(|&s| s != crate::scenario::JobSpec::default().size)
                .unwrap_or(MMC_TEST_BYTES);
            MmcTest::new(case, platform.host.max_req_bytes, per_size)
        });
        if let Some(t) = &mmc_test {
            bytes_total = t.total_bytes();
        }
        let mut stats = SimStats {
            batch_hist: vec![0; MAX_BATCH + 1],
            ..Default::default()
        };
        stats.simulated_ns = 0;
        let mut sim = Simulator {
            now: 0,
            q: EventQueue::default(),
            reqs: Slab::default(),
            next_req_id: 0,
            platform: Box::new(platform),
            cfg,
            jobs,
            blk: BlkMq::new(
                cfg.packed > 0,
                &mut crate::rng::stream(scn.randseed, CARD_STREAM - 4),
            ),
            mq: MmcQueue::new(&cfg),
            hsq: Hsq::new(cfg.packed, cfg.hsq_dispatch),
            legacy: Legacy::default(),
            cqe: Cqe::default(),
            host: HostCtl::default(),
            bus: Bus::new(platform.bus),
            card: Card::new(
                platform.card,
                platform.variation,
                cfg.cache,
                crate::rng::stream(scn.randseed, CARD_STREAM),
                crate::rng::stream(scn.randseed, CARD_STREAM - 2),
            ),
            jitter: crate::variation::HostJitter::new(
                platform.variation,
                crate::rng::stream(scn.randseed, CARD_STREAM - 3),
            ),
            mmc_test,
            stats,
            stage_ns: [0; Stage::ALL.len()],
            // At most 128 buckets: wide enough that a bucket holds several completions (no
            // aliasing between the request period and the bucket width), fine enough for a chart.
            series: TimeSeries::new(100_000, 128),
            bytes_done: 0,
            bytes_total: bytes_total.max(1),
            runtime_ns,
            all_timed_ns,
            trace: TraceBuf::default(),
            events: 0,
            power_cut: None,
            acked_reliable_writes: 0,
            recovery: crate::path::recovery::Recovery::new(
                scn.inject_error,
                crate::rng::stream(scn.randseed, CARD_STREAM - 1),
            ),
            iologs,
            data_ios: 0,
            split: std::collections::HashMap::new(),
            zbd: scn.jobs.iter().find(|j| j.zone_zbd).map(|j| {
                Box::new(crate::path::workload::zbd::Zones::new(
                    j.zonesize.unwrap_or(0),
                    j.max_open_zones,
                    j.zone_reset_threshold_ppm,
                    j.zone_reset_frequency_ppm,
                ))
            }),
            phase_started: 0,
        };
        if let Some(t) = scn.power_cut_ns {
            sim.q.push(t, Event::PowerCut);
        }
        if sim.mmc_test.is_some() {
            sim.mmc_test_begin();
        } else {
            sim.workload_start();
        }
        Ok(sim)
    }

    /// The event loop's one turn: takes the earliest event, advances the clock to it and hands
    /// it to the layer that handles it. Returns false when nothing is left.
    #[inline(always)]
    pub(crate) fn next_event(&mut self) -> bool {
        let Some((t, ev)) = self.q.pop() else {
            return false;
        };
        self.now = t;
        self.events += 1;
        match ev {
            Event::JobIssue { job } => self.job_issue(job),
            Event::BlkMqInsert { req } => self.blk_mq_submit(req),
            Event::Dispatch { issued } => self.blk_mq_dispatch(issued),
            Event::Rerun => self.blk_mq_rerun(),
            Event::HostStart => self.host_start_event(),
            Event::TransferIrq { gen } => self.host_irq(gen),
            Event::CqeTaskDone { req } => self.cqe_task_done(req),
            Event::Completed { req } => self.mmc_complete(req),
            Event::Reaped { req } => self.job_reaped(req),
            Event::MmcTestStep => self.mmc_test_step(),
            Event::PowerCut => self.power_fail(),
            Event::RecoveryStep { req } => self.recovery_step(req),
        }
        if self.trace.enabled() {
            self.trace.release(self.now);
        }
        true
    }

    /// Moves a request to `stage` now, accounting the time spent in the previous stage.
    pub(crate) fn set_stage(&mut self, req: ReqIdx, stage: Stage) {
        self.stage_at(req, stage, self.now);
    }

    /// Moves a request to `stage` at time `t` (>= its current stage's start).
    pub(crate) fn stage_at(&mut self, req: ReqIdx, stage: Stage, t: u64) {
        self.stage_cause(req, stage, t, Cause::None);
    }

    /// [`Simulator::stage_at`] with what made the stage long (for the trace).
    pub(crate) fn stage_cause(&mut self, req: ReqIdx, stage: Stage, t: u64, cause: Cause) {
        let r = self.reqs.get_mut(req);
        self.stage_ns[r.stage.index()] += t.saturating_sub(r.t_stage);
        r.stage = stage;
        r.t_stage = t;
        self.trace_cause(req, stage, t, cause);
    }

    /// Records a trace event (when tracing is on); `t` may lie in the future.
    pub(crate) fn trace_stage(&mut self, req: ReqIdx, stage: Stage, t: u64) {
        self.trace_cause(req, stage, t, Cause::None);
    }

    /// [`Simulator::trace_stage`] with what made the stage long. Inlined into every stage
    /// change as one test of a flag; the recording itself is out of line (tracing is off in
    /// the runs that must be fast).
    #[inline(always)]
    pub(crate) fn trace_cause(&mut self, req: ReqIdx, stage: Stage, t: u64, cause: Cause) {
        if self.trace.enabled() {
            self.trace_record(req, stage, t, cause);
        }
    }

    #[cold]
    #[inline(never)]
    fn trace_record(&mut self, req: ReqIdx, stage: Stage, t: u64, cause: Cause) {
        let r = self.reqs.get(req);
        self.trace.push(
            self.now,
            TraceEvent {
                t_ns: t,
                req: r.id,
                io: r.io(),
                job: r.job,
                op: r.op,
                stage,
                cause,
            },
        );
    }
}
