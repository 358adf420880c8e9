//! The tracepoints a Linux kernel fires for the simulated run, from the simulator's trace: the
//! block layer's (`include/trace/events/block.h`: `block_bio_queue` in `submit_bio_noacct`,
//! `block_bio_backmerge` in `bio_attempt_back_merge`, `block_rq_insert` and `block_io_start` in
//! `blk_mq_insert_request` / `blk_account_io_start`, `block_rq_issue` in `blk_mq_start_request`,
//! `block_rq_requeue` in `blk_mq_requeue_request`, `block_rq_complete` and `block_io_done` in
//! `blk_update_request` / `blk_account_io_done`) and the mmc core's (`mmc_request_start` in
//! `mmc_start_request`, `mmc_request_done` in `mmc_request_done`), in time order, for the
//! Perfetto and ftrace text exports. `block_io_start` / `block_io_done` are Linux 6.5's; they
//! are written for every board, since Perfetto's I/O view is built from them.
//!
//! Each request's stages (the trace's [`TraceEvent`]s) place its tracepoints: the bio is queued
//! when it leaves `submit` and inserted as a request then (written once it is issued, so a bio
//! merged into a waiting request is queued and back-merged instead), issued when it enters
//! `issue`, requeued
//! when it goes back to blk-mq after that, its mmc request starts with the `command` phase and
//! is done when the transfer is (`irq` or `complete`), and the request completes with
//! `complete`.
//!
//! Errors are written where the kernel writes them: a transfer the card answered with a data
//! CRC error ends its mmc request with `data_err=-84` (`-EILSEQ`, what the host driver sets in
//! `data->error`); a request whose retries ran out (`mmc_blk_mq_rw_recovery`,
//! `BLK_STS_IOERR`) completes with `error=-5` (`-EIO`, `blk_status_to_errno`) in
//! `block_rq_complete`. At a power cut every request still open fails: its mmc request ends with
//! `cmd_err=-110` (`-ETIMEDOUT`, the card stops answering) and the request completes with -5 at
//! the cut, one not yet issued as `mmc_mq_queue_rq` refuses one once the card is gone
//! (`BLK_STS_IOERR`, inserted and completed without an issue). So the writes acknowledged are
//! the ones whose `block_rq_complete` says 0.

use crate::path::bus::Segment;
use crate::sim::Simulator;
use crate::vocab::{Cause, Op, Stage, TraceEvent};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

/// Events held back at most, waiting for a request's insert to be decided.
const HELD: usize = 1 << 18;

/// The mmcblk device: major 179, minor 0.
pub const MMCBLK_DEV: (u32, u32) = (179, 0);

/// A tracepoint of the block layer or the mmc core.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Tp {
    BioQueue,
    BioBackmerge,
    RqInsert,
    IoStart,
    RqIssue,
    RqRequeue,
    MmcStart,
    MmcDone,
    RqComplete,
    IoDone,
}

impl Tp {
    pub fn name(self) -> &'static str {
        match self {
            Tp::BioQueue => "block_bio_queue",
            Tp::BioBackmerge => "block_bio_backmerge",
            Tp::RqInsert => "block_rq_insert",
            Tp::IoStart => "block_io_start",
            Tp::RqIssue => "block_rq_issue",
            Tp::RqRequeue => "block_rq_requeue",
            Tp::MmcStart => "mmc_request_start",
            Tp::MmcDone => "mmc_request_done",
            Tp::RqComplete => "block_rq_complete",
            Tp::IoDone => "block_io_done",
        }
    }
}

/// One tracepoint hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct KEvent {
    pub t_ns: u64,
    pub tp: Tp,
    pub req: u64,
    pub cpu: u32,
    /// The fio job clone that submitted it (its thread), as an index.
    pub job: u32,
    pub op: Op,
    pub fua: bool,
    pub sector: u64,
    pub nr_sector: u32,
    /// The errno the tracepoint reports: `block_rq_complete`'s `error` (-5, `-EIO`), or
    /// `mmc_request_done`'s `data_err` (-84, `-EILSEQ`) / `cmd_err` (-110, `-ETIMEDOUT`).
    pub error: i32,
    /// The request was issued by kblockd (a kworker of the CPU's high-priority pool), not by
    /// its submitting task: `block_rq_issue` and `mmc_request_start` run there.
    pub kworker: bool,
    /// `rq->ioprio`, which `block_rq_*` print from 6.11.
    pub ioprio: crate::vocab::IoPrio,
}

/// The pid the exports give kblockd's kworker on CPU 0 (then one more per CPU).
pub const KWORKER_PID: u32 = 38;

impl KEvent {
    /// The task that fires the event, with its pid: the kworker that issued the request (for
    /// `block_rq_issue` and `mmc_request_start`), else the submitting job's thread (`comm`,
    /// pid 1000 + job). Completions are the interrupt's (the callers say so).
    pub fn issuer(&self, comm: &str) -> (String, u32) {
        if self.kworker && matches!(self.tp, Tp::RqIssue | Tp::MmcStart) {
            (format!("kworker/{}:1H", self.cpu), KWORKER_PID + self.cpu)
        } else {
            (comm.to_string(), 1000 + self.job)
        }
    }
}

/// `-EIO`: `blk_status_to_errno(BLK_STS_IOERR)`.
pub const EIO: i32 = -5;
/// `-EILSEQ`: the host's data CRC error.
pub const EILSEQ: i32 = -84;
/// `-ETIMEDOUT`: no response from the card.
pub const ETIMEDOUT: i32 = -110;

impl KEvent {
    /// RWBS as `blk_fill_rwbs` writes it: direct writes carry REQ_SYNC; fsync's bio is an empty
    /// `REQ_PREFLUSH` write, the flush machine's request `REQ_OP_FLUSH | REQ_PREFLUSH`.
    pub fn rwbs(&self) -> &'static str {
        match (self.op, self.fua) {
            (Op::Flush, _) if matches!(self.tp, Tp::BioQueue | Tp::BioBackmerge) => "FWS",
            (Op::Read, _) => "R",
            (Op::Write, false) => "WS",
            (Op::Write, true) => "WFS",
            (Op::Flush, _) => "FF",
            (Op::Discard, _) => "D",
        }
    }

    pub fn bytes(&self) -> u32 {
        self.nr_sector.saturating_mul(512)
    }

    /// The mmc command that carries it (`mmc_blk_rw_rq_prep`, `mmc_flush_cache`, `mmc_erase`).
    pub fn opcode(&self) -> u32 {
        match (self.op, self.nr_sector) {
            (Op::Read, 1) => 17,
            (Op::Read, _) => 18,
            (Op::Write, 1) => 24,
            (Op::Write, _) => 25,
            (Op::Flush, _) => 6,
            (Op::Discard, _) => 38,
        }
    }
}

/// A request seen in the trace and not yet reaped.
pub struct Open {
    pub job: u32,
    pub op: Op,
    /// (offset, len, fua, cpu) from the request slab.
    pub extent: Option<(u64, u64, bool, u32)>,
    /// (tag, since) once it holds one.
    pub tag: Option<(u16, u64)>,
    pub stages: Vec<(Stage, u64)>,
    /// The request ended in an I/O error (retries used up, or the power cut).
    pub failed: bool,
    /// The transfer under way drew a data CRC error.
    crc: bool,
    queued: bool,
    /// When the bio reached blk-mq, while it is not yet issued nor merged away.
    insert_at: Option<u64>,
    issued: bool,
    mmc: bool,
    /// `block_rq_complete` written.
    completed: bool,
    /// Issued by kblockd ([`KEvent::kworker`]).
    kworker: bool,
    /// Its I/O priority.
    ioprio: crate::vocab::IoPrio,
}

/// What the run gives a writer: tracepoints in time order, each request's stages once it is
/// reaped, the bus and host segments.
pub trait Sink {
    fn event(&mut self, sim: &Simulator, e: &KEvent);
    fn request(&mut self, sim: &Simulator, id: u64, r: &Open);
    fn segment(&mut self, sim: &Simulator, s: &Segment);
}

/// The run, step by step, turned into tracepoints.
pub struct KernelEvents {
    pub sim: Simulator,
    open: HashMap<u64, Open>,
    heap: BinaryHeap<Reverse<(KEvent, u64)>>,
    seq: u64,
    pub requests: u64,
    pub work: u64,
}

impl KernelEvents {
    pub fn new(mut sim: Simulator, ring: usize) -> KernelEvents {
        sim.set_trace_capacity(ring);
        sim.set_timeline_capacity(ring);
        KernelEvents {
            sim,
            open: HashMap::new(),
            heap: BinaryHeap::new(),
            seq: 0,
            requests: 0,
            work: 0,
        }
    }

    /// One simulator step and what it fired; false once the run is over (then [`finish`]
    /// writes what is left).
    ///
    /// [`finish`]: KernelEvents::finish
    pub fn step<S: Sink>(&mut self, sink: &mut S) -> bool {
        let more = self.sim.step();
        let trace = self.sim.drain_trace();
        for e in &trace {
            if e.stage != Stage::Done && !self.open.contains_key(&e.req) {
                let open = Open {
                    job: e.job,
                    op: e.op,
                    extent: None,
                    tag: None,
                    stages: Vec::new(),
                    failed: false,
                    crc: false,
                    queued: false,
                    insert_at: None,
                    issued: false,
                    mmc: false,
                    completed: false,
                    ioprio: Default::default(),
                    kworker: false,
                };
                self.open.insert(e.req, open);
            }
        }
        self.scan();
        for e in trace {
            self.stage(sink, e);
        }
        for s in self.sim.drain_timeline() {
            sink.segment(&self.sim, &s);
        }
        // Held back for an undecided insert, but never more than HELD events (memory stays
        // bounded when a request waits very long).
        let due = if self.heap.len() > HELD {
            self.sim.now()
        } else {
            self.horizon(self.sim.now())
        };
        // At the run's end too: after a power cut, `finish` writes the inserts of the requests
        // never issued, dated when they reached blk-mq, and everything held back after them.
        self.flush(sink, due);
        self.work += 1;
        more
    }

    /// Offsets, lengths (grown by merges), CPUs and tags of the live requests.
    fn scan(&mut self) {
        let now = self.sim.now();
        for (_, r) in self.sim.reqs.iter() {
            self.work += 1;
            if let Some(o) = self.open.get_mut(&r.id) {
                o.extent = Some((r.offset, r.len, r.fua, u32::from(r.cpu)));
                o.ioprio = r.ioprio;
                o.failed |= r.failed;
                o.crc = r.crc_error;
                if let (None, Some(t)) = (o.tag, r.tag) {
                    o.tag = Some((t, now));
                }
            }
        }
    }

    fn fire(&mut self, tp: Tp, t_ns: u64, id: u64) {
        self.fire_err(tp, t_ns, id, 0);
    }

    /// A tracepoint reporting `error` (`block_rq_complete` reports the request's own).
    fn fire_err(&mut self, tp: Tp, t_ns: u64, id: u64, error: i32) {
        let Some(o) = self.open.get(&id) else { return };
        let error = match tp {
            Tp::RqComplete if o.failed => EIO,
            Tp::MmcDone if o.crc => EILSEQ,
            _ => error,
        };
        let Some((offset, len, fua, cpu)) = o.extent else {
            return;
        };
        let data = !matches!(o.op, Op::Flush);
        let e = KEvent {
            t_ns,
            tp,
            req: id,
            cpu,
            job: o.job,
            op: o.op,
            fua,
            sector: if data { offset / 512 } else { 0 },
            nr_sector: if data { (len / 512) as u32 } else { 0 },
            error,
            kworker: o.kworker,
            ioprio: o.ioprio,
        };
        self.seq += 1;
        self.heap.push(Reverse((e, self.seq)));
    }

    fn stage<S: Sink>(&mut self, sink: &mut S, e: TraceEvent) {
        let Some(o) = self.open.get_mut(&e.req) else {
            return;
        };
        o.stages.push((e.stage, e.t_ns));
        let (queued, issued, mmc) = (o.queued, o.issued, o.mmc);
        let t = e.t_ns;
        if e.stage != Stage::Submit && !queued {
            // The bio reached blk-mq: queued now; inserted as a request once it is issued, or
            // merged into another before that.
            o.queued = true;
            o.insert_at = Some(t);
            // A flush is fsync's empty bio, written at its end if it was never issued, or the
            // flush machine's request (no bio of its own) if it was.
            if o.op != Op::Flush {
                self.fire(Tp::BioQueue, t, e.req);
            }
        }
        let o = self.open.get_mut(&e.req).expect("open above");
        match e.stage {
            Stage::Issue => {
                if let Some(at) = o.insert_at.take() {
                    self.fire(Tp::RqInsert, at, e.req);
                    self.fire(Tp::IoStart, at, e.req);
                }
                let kworker = self.sim.issuing_on_kblockd();
                let o = self.open.get_mut(&e.req).expect("open");
                (o.issued, o.kworker) = (true, kworker);
                self.fire(Tp::RqIssue, t, e.req);
            }
            Stage::BlkMq if issued => {
                o.issued = false;
                self.fire(Tp::RqRequeue, t, e.req);
            }
            Stage::Command if !mmc => {
                o.mmc = true;
                self.fire(Tp::MmcStart, t, e.req);
            }
            Stage::Irq | Stage::Complete | Stage::Recovery if mmc => {
                o.mmc = false;
                self.fire(Tp::MmcDone, t, e.req);
            }
            Stage::Done if matches!(e.cause, Cause::MergedInto { .. }) && !issued => {
                o.insert_at = None;
                self.fire(Tp::BioBackmerge, t, e.req);
            }
            Stage::Done if o.op == Op::Flush && !issued => {
                if let Some(at) = o.insert_at.take() {
                    self.fire(Tp::BioQueue, at, e.req);
                }
            }
            _ => {}
        }
        if e.stage == Stage::Complete && issued {
            self.complete(t, e.req);
        }
        if e.stage == Stage::Done {
            if let Some(r) = self.open.remove(&e.req) {
                self.requests += 1;
                sink.request(&self.sim, e.req, &r);
            }
        }
    }

    /// `block_rq_complete` and `block_io_done` (`blk_update_request`, `blk_account_io_done`).
    fn complete(&mut self, t: u64, id: u64) {
        if let Some(o) = self.open.get_mut(&id) {
            o.completed = true;
        }
        self.fire(Tp::RqComplete, t, id);
        self.fire(Tp::IoDone, t, id);
    }

    /// The earliest insert still undecided (its request may yet be merged away): nothing
    /// later is written before it is.
    fn horizon(&self, now: u64) -> u64 {
        self.open
            .values()
            .filter_map(|o| o.insert_at)
            .fold(now, u64::min)
    }

    /// Writes the tracepoints due by `now` (all of them at the run's end).
    fn flush<S: Sink>(&mut self, sink: &mut S, now: u64) {
        while self
            .heap
            .peek()
            .is_some_and(|Reverse((e, _))| e.t_ns <= now)
        {
            let Reverse((e, _)) = self.heap.pop().expect("peeked");
            sink.event(&self.sim, &e);
        }
    }

    /// The requests still open at the end of the run (a power cut), their tracepoints written:
    /// each one that reached blk-mq fails now with -EIO (see the module doc).
    pub fn finish<S: Sink>(&mut self, sink: &mut S) {
        let now = self.sim.now();
        let mut ids: Vec<u64> = self.open.keys().copied().collect();
        ids.sort_unstable();
        for &id in &ids {
            let o = &self.open[&id];
            if !o.failed || o.completed || !o.queued {
                continue;
            }
            let (insert_at, mmc) = (o.insert_at, o.mmc);
            if let Some(at) = insert_at {
                self.fire(Tp::RqInsert, at, id);
                self.fire(Tp::IoStart, at, id);
            }
            if mmc {
                self.fire_err(Tp::MmcDone, now, id, ETIMEDOUT);
            }
            self.complete(now, id);
        }
        self.flush(sink, u64::MAX);
        let mut open: Vec<(u64, Open)> = self.open.drain().collect();
        open.sort_by_key(|o| o.0);
        for (id, mut r) in open {
            r.stages.push((Stage::Done, now));
            sink.request(&self.sim, id, &r);
        }
    }
}
