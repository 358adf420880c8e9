//! The simulator: owns every layer's state and the event queue, and runs events in time order.
//! Each layer's behaviour lives in `crate::path`, in the module named after it (`workload`,
//! `blk_mq`, `mmc_queue`, `hsq`, `legacy`, `cqe`, `host`, `bus`, `card`, `recovery`, `power`,
//! `mmc_test`), as methods on the layer's own struct plus the wiring (`impl Simulator`) that
//! calls them, the host paths behind one seam (`controller`); `build.rs` builds the layers from a scenario and this module dispatches events to
//! them. The public API (step, run until, snapshot, report, trace, timeline) is all in `api.rs`.

mod api;
mod build;
pub(crate) mod event;
pub(crate) mod observe;
pub(crate) mod request;
mod trace_buf;

pub use api::run;

use crate::board::Platform;
use crate::metrics::TimeSeries;
use crate::path::blk_mq::{BlkMq, Ctx};
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
use crate::vocab::HostConfig;
use crate::vocab::{Cause, Stage, TraceEvent};

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
    /// The block-layer rules of the board's kernel (`board/kernel_rules.rs`).
    pub(crate) rules: crate::board::BlockRules,
    pub(crate) jobs: Vec<Job>,
    pub(crate) blk: BlkMq,
    pub(crate) mq: MmcQueue,
    pub(crate) hsq: Hsq,
    pub(crate) legacy: Legacy,
    pub(crate) cqe: Cqe,
    pub(crate) host: HostCtl,
    pub(crate) bus: Bus,
    pub(crate) card: Card,
    /// Interrupt latency, completion and wake-up times as they vary (`variation/`).
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
    /// The flush machine (`blk-flush.c`): the flush in flight and the requests waiting for one.
    pub(crate) fq: crate::path::blk_flush::FlushQueue,
    /// O_SYNC psync writes waiting for `generic_write_sync`'s flush, by I/O id.
    pub(crate) syncing: std::collections::HashMap<u64, crate::path::workload::SyncingWrite>,
    /// `fs=f2fs`: where the next node block goes.
    pub(crate) node_log: crate::path::workload::NodeLog,
    /// Data requests completed by size, reads then writes, as (bytes, count): a run has a few
    /// sizes, so a short list (the last one found first) is cheaper per request than the
    /// report's map, which `report()` fills from it.
    pub(crate) req_sizes: [Vec<(u64, u64)>; 2],
    /// Requests accounted for the disk stats (`blk_account_io_start`) and not yet ended.
    pub(crate) acct: crate::path::blk_stat::IoAccounting,
    /// Requests that carry merged bios (block/blk-merge.c), with those bios.
    pub(crate) merged: std::collections::HashMap<ReqIdx, crate::path::blk_merge::MergeGroup>,
    /// Split I/Os in flight, by I/O id.
    pub(crate) split: std::collections::HashMap<u64, crate::path::workload::SplitIo>,
    /// `zonemode=zbd`: fio's emulated zones, shared by the jobs on the device.
    pub(crate) zbd: Option<Box<crate::path::workload::zbd::Zones>>,
    /// The latest stonewall phase begun.
    pub(crate) phase_started: u32,
}

impl Simulator {
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
            Event::Dispatch { issued } => self.blk_mq_dispatch(issued, Ctx::Direct),
            Event::KblockdDispatch { issued } => self.blk_mq_dispatch(Some(issued), Ctx::Kblockd),
            Event::Rerun { gen } => self.blk_mq_rerun(gen),
            Event::ElvTimer => self.blk_mq_elv_timer(),
            Event::HostStart => self.host_start_event(),
            Event::TransferIrq { gen } => self.host_irq(gen),
            Event::CqeTaskDone { req } => self.cqe_task_done(req),
            Event::CqeIrq => self.cqe_irq(),
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
        if stage == Stage::Done && !matches!(cause, Cause::MergedInto { .. }) {
            self.stats.requests += 1;
        }
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
