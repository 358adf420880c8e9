//! The I/O scheduler seam (block/elevator.c, block/blk-mq-sched.c, Linux 6.1): where a request
//! waits between `blk_mq_submit_bio` and `->queue_rq`, which waiting request a new bio may join
//! (`blk_mq_sched_bio_merge`), and which request a dispatch run takes next
//! (`e->type->ops.dispatch_request`, or the software queues under `none`).
//!
//! One module per scheduler, named after the kernel file it models: [`none`] (the software
//! queues, block/blk-mq.c), [`mq_deadline`], [`kyber`], [`bfq`]. [`Elevator`] is a plain enum
//! with one `match` per call (static dispatch, as the host paths' seam in `controller.rs`):
//! every method lists the variants without a wildcard, so a new scheduler is one file, one
//! variant and its arms here, and its `IoSched` name.
//!
//! What the elevators share lives here: the bio a merge is tried for ([`Bio`]), the kind of
//! merge ([`Merge`]), the tunables with the kernel's defaults resolved ([`Tunables`]) and the
//! scheduler's CPU time per request ([`cpu_ns`]).

#[cfg(feature = "lean")]
mod absent;
#[cfg(not(feature = "lean"))]
pub(crate) mod bfq;
#[cfg(not(feature = "lean"))]
pub(crate) mod kyber;
#[cfg(feature = "lean")]
use absent as bfq;
#[cfg(feature = "lean")]
use absent as kyber;
pub(crate) mod mq_deadline;
pub(crate) mod none;

use crate::scenario::QueueTunables;
use crate::sim::request::Slab;
use crate::sim::ReqIdx;
use crate::vocab::{IoSched, Op};

/// A bio looking for a waiting request to join (`struct bio` as `blk_try_merge` sees it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bio {
    pub op: Op,
    pub offset: u64,
    pub len: u64,
    /// The submitting CPU: `none` and kyber only merge within that CPU's software queue.
    pub cpu: u16,
    /// Only this submitter's waiting requests may take the bio: the fitted dispatch of the 2020
    /// and 2022 presets (see [`crate::vocab::BlkDispatch::Fitted`]); `None` is Linux's rule.
    pub job: Option<u32>,
    /// `bio_prio(bio)`: only a request of the same priority takes it.
    pub ioprio: crate::vocab::IoPrio,
}

impl Bio {
    pub fn end(&self) -> u64 {
        self.offset + self.len
    }
}

/// `enum elv_merge`: the bio goes after the request (`ELEVATOR_BACK_MERGE`) or before it
/// (`ELEVATOR_FRONT_MERGE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Merge {
    Back,
    Front,
}

/// `blk_rq_merge_ok` + `blk_try_merge` (block/blk-merge.c): how `bio` can join the waiting
/// request `r`, if at all: same operation and I/O priority (`rq->ioprio != bio_prio(bio)`),
/// data only (discards are not merged in the model),
/// neither carries REQ_FUA (`REQ_NOMERGE_FLAGS`), adjacent on the device, and the merged
/// request within `max_bytes` (`blk_rq_get_max_sectors`; the segment limit is the same bound
/// for fio's page-sized buffers: 128 segments of 4 KiB = 512 KiB).
pub fn try_merge(r: &crate::sim::request::Request, bio: &Bio, max_bytes: u64) -> Option<Merge> {
    if r.op != bio.op || !r.op.has_data() || r.fua || r.len + bio.len > max_bytes {
        return None;
    }
    if r.ioprio != bio.ioprio {
        return None;
    }
    if r.offset + r.len == bio.offset {
        Some(Merge::Back)
    } else if bio.end() == r.offset {
        Some(Merge::Front)
    } else {
        None
    }
}

/// A job's priority as a scheduler keeps it per process (bfq: `bic->icq.ioc->ioprio` and the
/// process's cgroup): its thread's class and level, and its cgroup (an id, and the group's
/// weight) if fio put it in one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SchedPrio {
    pub class: crate::vocab::IoClass,
    pub level: u8,
    pub group: Option<(u32, u32)>,
}

/// The [`SchedPrio`] of every job clone, in the order the run numbers them (each section's
/// `numjobs` clones in turn); cgroups by name, numbered from 0 in order of appearance.
pub fn sched_prios(jobs: &[crate::scenario::JobSpec]) -> Vec<SchedPrio> {
    let mut names: Vec<&str> = Vec::new();
    let mut out = Vec::new();
    for spec in jobs {
        let p = &spec.prio;
        let thread = p.thread();
        let group = p.cgroup.as_deref().map(|name| {
            let id = names.iter().position(|n| *n == name).unwrap_or_else(|| {
                names.push(name);
                names.len() - 1
            });
            // The weight fio writes (the last job naming the group wins, as its write does),
            // else bfq's default `BFQ_DEFAULT_GRP_WEIGHT`.
            let weight = jobs
                .iter()
                .filter(|j| j.prio.cgroup.as_deref() == Some(name))
                .filter_map(|j| j.prio.cgroup_weight)
                .next_back()
                .unwrap_or(100);
            (id as u32, weight)
        });
        let sp = SchedPrio {
            class: thread.class,
            level: thread.effective_level(),
            group,
        };
        out.extend(std::iter::repeat_n(sp, spec.numjobs as usize));
    }
    out
}

/// The tunables of the queue and its scheduler, the kernel's defaults filled in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tunables {
    /// mq-deadline `fifo_batch` (16).
    pub fifo_batch: u32,
    /// mq-deadline `read_expire`, `write_expire` (HZ / 2, 5 * HZ), ns.
    pub expire_ns: [u64; 2],
    /// mq-deadline `writes_starved` (2).
    pub writes_starved: u32,
    /// mq-deadline `front_merges` (1).
    pub front_merges: bool,
    /// mq-deadline `prio_aging_expire` (10 * HZ), ns: how long a lower-priority request may
    /// wait behind higher ones before it goes anyway (`dd_dispatch_prio_aged_requests`).
    pub prio_aging_expire_ns: u64,
    /// kyber `read_lat_nsec`, `write_lat_nsec` (2 ms, 10 ms) and the discards' 5 s.
    pub kyber_target_ns: [u64; 3],
    /// bfq `slice_idle` (HZ / 125 = 8 ms), ns.
    pub slice_idle_ns: u64,
    /// bfq `low_latency` (1).
    pub low_latency: bool,
    /// mq-deadline picks the next request of a batch from the last dispatched one's position
    /// (`latest_pos`, Linux 6.5; before, the `next_rq` it noted): the board kernel's rule.
    pub dd_from_pos: bool,
}

impl Tunables {
    pub fn of(t: &QueueTunables) -> Tunables {
        const MS: u64 = 1_000_000;
        Tunables {
            fifo_batch: t.fifo_batch.unwrap_or(16),
            expire_ns: [
                u64::from(t.read_expire_ms.unwrap_or(500)) * MS,
                u64::from(t.write_expire_ms.unwrap_or(5_000)) * MS,
            ],
            writes_starved: t.writes_starved.unwrap_or(2),
            front_merges: t.front_merges.unwrap_or(true),
            prio_aging_expire_ns: u64::from(t.prio_aging_expire_ms.unwrap_or(10_000)) * MS,
            kyber_target_ns: [
                t.read_lat_nsec.unwrap_or(2_000_000),
                t.write_lat_nsec.unwrap_or(10_000_000),
                5_000 * MS,
            ],
            slice_idle_ns: u64::from(t.slice_idle_ms.unwrap_or(8)) * MS,
            low_latency: t.low_latency.unwrap_or(true),
            dd_from_pos: false,
        }
    }
}

/// `queue/nr_requests` by default: the tag set's depth without a scheduler; with one,
/// `blk_mq_init_sched` sizes the scheduler tags to 2 x min(depth, BLKDEV_DEFAULT_RQ = 128).
pub fn default_nr_requests(s: IoSched, depth: u32) -> u32 {
    match s {
        IoSched::None => depth,
        _ => 2 * depth.min(128),
    }
}

/// The scheduler's CPU time per request (insert, merge lookup, dispatch), ns, on a core as
/// fast as the 2012 laptop core of bfq-iosched.rst's figures ("about 1.9 us" per request for
/// bfq against mq-deadline's 0.7 us, Documentation/block/bfq-iosched.rst; kyber, a few token
/// counters and per-CPU lists, is taken as mq-deadline's); the board scales it by its
/// `sched_cpu_pct`. `none` costs nothing beyond blk-mq's own path (in `submit_ns`).
pub fn cpu_ns(s: IoSched, board_pct: u32) -> u64 {
    let base = match s {
        IoSched::None => 0,
        IoSched::MqDeadline | IoSched::Kyber => 700,
        IoSched::Bfq => 1_900,
    };
    base * u64::from(board_pct) / 100
}

/// The scheduler of a run, one variant per kernel file.
#[derive(Debug)]
#[cfg_attr(feature = "lean", allow(dead_code))]
pub enum Elevator {
    None(none::SwQueues),
    MqDeadline(Box<mq_deadline::Deadline>),
    Kyber(Box<kyber::Kyber>),
    Bfq(Box<bfq::Bfq>),
}

impl Elevator {
    pub fn new(s: IoSched, t: Tunables) -> Elevator {
        match s {
            IoSched::None => Elevator::None(none::SwQueues::default()),
            IoSched::MqDeadline => Elevator::MqDeadline(Box::new(mq_deadline::Deadline::new(t))),
            #[cfg(not(feature = "lean"))]
            IoSched::Kyber => Elevator::Kyber(Box::new(kyber::Kyber::new(t))),
            #[cfg(not(feature = "lean"))]
            IoSched::Bfq => Elevator::Bfq(Box::new(bfq::Bfq::new(t))),
            // A build without them: `scenario::check` refused the scenario before a run.
            #[cfg(feature = "lean")]
            IoSched::Kyber | IoSched::Bfq => Elevator::None(none::SwQueues::default()),
        }
    }

    /// The jobs' priorities by job index, for the schedulers that keep them per process (bfq),
    /// and whether the root group counts among the groups with requests pending
    /// (`BlockRules::bfq_root_group_counted`).
    pub fn set_job_prios(&mut self, jobs: &[SchedPrio], root_counted: bool) {
        match self {
            Elevator::None(_) | Elevator::MqDeadline(_) | Elevator::Kyber(_) => {}
            Elevator::Bfq(b) => b.set_job_prios(jobs, root_counted),
        }
    }

    /// Whether a scheduler is attached (`q->elevator`): requests then take a scheduler tag and
    /// are dispatched by kblockd.
    #[inline]
    pub fn is_elevator(&self) -> bool {
        !matches!(self, Elevator::None(_))
    }

    /// `e->type->ops.insert_requests` (or the software queue's tail), at `now`.
    #[inline]
    pub fn insert(&mut self, req: ReqIdx, reqs: &Slab, now: u64) {
        match self {
            Elevator::None(q) => q.insert(req),
            Elevator::MqDeadline(d) => d.insert(req, reqs, now),
            Elevator::Kyber(k) => k.insert(req, reqs, now),
            Elevator::Bfq(b) => b.insert(req, reqs, now),
        }
    }

    /// `e->type->ops.has_work`.
    #[inline]
    /// bfq's state for the snapshot (None under another scheduler).
    pub fn bfq_view(&self) -> Option<crate::sim::observe::BfqView> {
        match self {
            Elevator::Bfq(b) => Some(b.view()),
            _ => None,
        }
    }

    pub fn has_work(&self) -> bool {
        match self {
            Elevator::None(q) => q.has_work(),
            Elevator::MqDeadline(d) => d.has_work(),
            Elevator::Kyber(k) => k.has_work(),
            Elevator::Bfq(b) => b.has_work(),
        }
    }

    /// `e->type->ops.dispatch_request`: the next request to hand to the driver, if the
    /// scheduler releases one now (kyber may hold one back for want of a domain token, bfq while
    /// it idles for the queue in service).
    #[inline]
    pub fn dispatch(&mut self, reqs: &Slab, now: u64) -> Option<ReqIdx> {
        match self {
            Elevator::None(q) => q.dispatch(),
            Elevator::MqDeadline(d) => d.dispatch(reqs, now),
            Elevator::Kyber(k) => k.dispatch(reqs, now),
            Elevator::Bfq(b) => b.dispatch(reqs, now),
        }
    }

    /// `blk_mq_sched_bio_merge`: a waiting request `bio` can join, and how.
    #[inline]
    pub fn bio_merge(&self, bio: &Bio, reqs: &Slab, max: u64) -> Option<(ReqIdx, Merge)> {
        match self {
            Elevator::None(q) => q.bio_merge(bio, reqs, max),
            Elevator::MqDeadline(d) => d.bio_merge(bio, reqs, max),
            Elevator::Kyber(k) => k.bio_merge(bio, reqs, max),
            Elevator::Bfq(b) => b.bio_merge(bio, reqs, max),
        }
    }

    /// `e->type->ops.request_merged`: `req` grew (its offset moved if `Front`; `old_offset` was
    /// its start before).
    #[inline]
    pub fn merged(&mut self, req: ReqIdx, kind: Merge, old_offset: u64, reqs: &Slab) {
        match self {
            Elevator::None(_) | Elevator::Kyber(_) | Elevator::Bfq(_) => {}
            Elevator::MqDeadline(d) => d.merged(req, kind, old_offset, reqs),
        }
    }

    /// `elv_latter_request` (after a back merge) or `elv_former_request` (after a front
    /// merge): the waiting request next to `req` on the device that `attempt_merge` may fold
    /// into it (mq-deadline keeps the sector order; the others have none).
    #[inline]
    pub fn neighbour(&self, req: ReqIdx, kind: Merge, reqs: &Slab) -> Option<ReqIdx> {
        match self {
            Elevator::None(_) | Elevator::Kyber(_) | Elevator::Bfq(_) => None,
            Elevator::MqDeadline(d) => d.neighbour(req, kind, reqs),
        }
    }

    /// `gone` leaves the scheduler without being dispatched: `attempt_merge` folded it into
    /// `into` (`e->type->ops.requests_merged`).
    #[inline]
    pub fn requests_merged(&mut self, into: ReqIdx, gone: ReqIdx, reqs: &Slab) {
        match self {
            Elevator::None(q) => q.remove(gone),
            Elevator::MqDeadline(d) => d.requests_merged(into, gone, reqs),
            Elevator::Kyber(k) => k.remove(gone, reqs),
            Elevator::Bfq(b) => b.remove(gone, reqs),
        }
    }

    /// `e->type->ops.finish_request` of `req` (completed, or freed): mq-deadline counts it
    /// out of its priority's queued requests (`dd_finish_request`).
    #[inline]
    pub fn finish(&mut self, req: ReqIdx) {
        match self {
            Elevator::None(_) | Elevator::Kyber(_) | Elevator::Bfq(_) => {}
            Elevator::MqDeadline(d) => d.finish(req),
        }
    }

    /// `e->type->ops.completed_request` / `finish_request`: `req` (of `op`, dispatched at
    /// `t_dispatch`, allocated at `t_alloc`) completed at `now`.
    #[inline]
    pub fn completed(&mut self, op: Op, job: u32, t_alloc: u64, t_dispatch: u64, now: u64) {
        match self {
            Elevator::None(_) | Elevator::MqDeadline(_) => {}
            Elevator::Kyber(k) => k.completed(op, t_alloc, t_dispatch, now),
            Elevator::Bfq(b) => b.completed(job, t_alloc, now),
        }
    }

    /// When the scheduler wants the queue run again although nothing completes (bfq's idle
    /// slice ends): the time, if any.
    #[inline]
    pub fn timer_at(&self) -> Option<u64> {
        match self {
            Elevator::None(_) | Elevator::MqDeadline(_) | Elevator::Kyber(_) => None,
            Elevator::Bfq(b) => b.timer_at(),
        }
    }

    /// The waiting requests, in the scheduler's order of lists (for the snapshot).
    pub fn waiting(&self) -> Vec<ReqIdx> {
        match self {
            Elevator::None(q) => q.waiting(),
            Elevator::MqDeadline(d) => d.waiting(),
            Elevator::Kyber(k) => k.waiting(),
            Elevator::Bfq(b) => b.waiting(),
        }
    }
}
