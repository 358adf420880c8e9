//! The workload: fio jobs (`backend.c` `do_io` for the synchronous engines, `io_u` queueing
//! for libaio/io_uring). Each clone of a job section is one [`Job`]: it issues I/Os in its own
//! thread, keeps `outstanding()` of them in flight, and records completion latency the way fio's
//! clat does (from the system call to the reaped completion).
//!
//! What fio's job options change is decided here, per I/O: the block size, the offset, the
//! direction, the priority (`ioprio`), when the next I/O may start (`rate`, `thinktime`, a
//! replayed trace's timestamps), the flushes (`fsync`, `end_fsync`) and when the job stops
//! (`size`, `loops`, `io_size`, `number_ios`, `runtime`); `stonewall` (`job_finished`).

use crate::report::DirStats;
use crate::rng::{Permutation, Rng};
use crate::scenario::{JobSpec, RandomDistribution, Rw};
use crate::sim::observe::JobView;
use crate::vocab::Op;

mod dist;
mod f2fs;
pub(crate) use f2fs::NodeLog;
mod ioprio;
mod issue;
mod offsets;
mod pace;
mod reap;
mod setup;
mod steadystate;
pub(crate) mod zbd;

/// One I/O as the job saw it, for `write_iolog` and fio's bw/lat/iops logs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IoRecord {
    pub t_issue: u64,
    pub t_done: u64,
    pub op: Op,
    pub offset: u64,
    pub len: u64,
    /// Completed inside the statistics window (after `ramp_time`).
    pub counted: bool,
}

/// One I/O as fio queued it (`log_io_u` at `td_io_queue`), for `write_iolog`: in queue order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueuedIo {
    pub op: Op,
    pub offset: u64,
    pub len: u64,
}

/// Most records one job keeps for its logs between two takes (the CLI takes them as the run
/// goes, so a run's logs cost memory per stretch of events, not per I/O).
pub const MAX_IO_RECORDS: usize = 4_000_000;

/// How the block size of each I/O is chosen.
#[derive(Clone, Debug)]
enum BsGen {
    Fixed(u64),
    /// A multiple of `lo` in lo..=hi.
    Range(u64, u64),
    /// (size, cumulative percent) for reads and for writes.
    Split(Vec<(u64, u32)>, Vec<(u64, u32)>),
}

/// What the job does next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// Issue an I/O now.
    Issue,
    /// Wake up at this time (rate, thinktime, a trace's timestamp).
    At(u64),
    /// Wait for a completion.
    Wait,
    /// Nothing left to do and nothing in flight.
    Done,
}

/// The end-of-job flush (`end_fsync`, `fsync_on_close`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum EndFlush {
    None,
    Pending,
    Issued,
}

/// A trace being replayed (`read_iolog`).
#[derive(Clone, Debug)]
struct Replay {
    log: usize,
    pos: usize,
    loops_left: u32,
    no_stall: bool,
    /// Start of the current pass over the trace.
    pass_t0: u64,
}

/// One running job clone (a fio `thread_data`).
#[derive(Debug)]
pub struct Job {
    /// Job name and clone index (also read by the trace export).
    pub name: String,
    pub index: u32,
    /// fio's `groupid`: reporting group (a new one at each `stonewall` / `new_group`).
    pub group: u32,
    /// The job starts once every job of an earlier phase is done (`stonewall`).
    pub phase: u32,
    /// Its job section, and the section it waits for (`wait_for`).
    section: u32,
    waits_for: Option<u32>,
    rw: Rw,
    rwmixread: u32,
    bs: BsGen,
    min_bs: u64,
    /// `rw=read:N`: bytes skipped after each sequential I/O.
    skip: i64,
    /// `zonemode=strided`: (zonesize, zoneskip).
    stride: Option<(u64, u64)>,
    /// `min_bs` blocks in the region (random offsets are drawn among them).
    blocks: u64,
    /// Region start on the device and its size.
    base: u64,
    region: u64,
    nrfiles: u64,
    file_bytes: u64,
    /// Sequential position in each file.
    seq_pos: Vec<u64>,
    /// Relative to the end of the ramp.
    runtime_ns: Option<u64>,
    ramp_ns: u64,
    pub(crate) startdelay_ns: u64,
    /// When the job started (None: its phase has not begun).
    t_start: Option<u64>,
    outstanding_max: u32,
    inflight: u32,
    /// `iodepth_batch_submit` (async engines; 1 otherwise) and the I/Os queued in the engine
    /// for the next `io_submit` (op, offset, length, FUA).
    batch: u32,
    queued: Vec<(crate::vocab::Op, u64, u64, bool)>,
    /// `iodepth_batch_complete_min`, and the completions still awaited before the job queues
    /// again (`wait_for_completions`).
    complete_min: u32,
    reap_wait: u32,
    /// A JobIssue event is pending (the job thread is in a system call or asleep).
    issuing: bool,
    /// Data I/Os issued so far.
    issued: u64,
    issued_bytes: u64,
    /// Data I/Os completed since the last thinktime pause.
    since_think: u32,
    think_until: u64,
    think_ns: u64,
    think_blocks: u32,
    rate: u64,
    rate_iops: u64,
    perm: Option<Permutation>,
    dist: RandomDistribution,
    /// The next draw's place in the current pass of the permutation (uniform random offsets
    /// walk it; wraps at `blocks`).
    rand_draws: u64,
    rng: Rng,
    fua_writes: bool,
    /// The engine's write is a synchronous system call (psync): an O_SYNC write returns only
    /// after `generic_write_sync`'s flush. libaio / io_uring complete it from the bio (FUA).
    sync_syscall: bool,
    /// `fs=f2fs*`: its O_SYNC writes (`f2fs_sync`) and fsyncs go through `f2fs_do_sync_file`.
    fs: crate::scenario::SyncModel,
    f2fs_sync: bool,
    fsync_every: u32,
    writes_since_flush: u32,
    flush_pending: bool,
    end_flush: EndFlush,
    replay: Option<Replay>,
    /// The I/O budget of the run is spent: issue nothing more.
    pub(crate) stopped: bool,
    /// `exitall`: its end stops the other jobs of its group.
    exitall: bool,
    /// `zonemode=zbd` (with `read_beyond_wp`): offsets go through the emulated zones.
    zbd: bool,
    read_beyond_wp: bool,
    /// `runtime`'s end (absolute ns), `number_ios`, the bytes to transfer: u64::MAX when unset.
    deadline_at: u64,
    ios_cap: u64,
    bytes_cap: u64,
    /// `rate`, `rate_iops`, `thinktime` or a timed replay may hold the next I/O back.
    paced: bool,
    pub(crate) finished: bool,
    records: Option<Vec<IoRecord>>,
    queued_log: Option<Vec<QueuedIo>>,
    read: DirStats,
    write: DirStats,
    /// `rw=trim|randtrim|trimwrite` only (boxed: most jobs never trim).
    trim: Option<Box<TrimState>>,
    /// `steadystate_duration`: fio's steady-state detector (boxed: most jobs have none).
    ss: Option<Box<steadystate::SteadyState>>,
    flushes: u64,
    errors: u64,
    /// I/Os completed during `ramp_time` (not in the statistics).
    ramp_ios: u64,
    last_done: u64,
    /// The priority of its I/Os (`prioclass=`, `prio=`, `cmdprio_*=`).
    prio: ioprio::JobIoPrio,
}

impl Job {
    /// A synchronous engine (psync, sync, ...): one system call per I/O.
    pub(crate) fn sync_engine(&self) -> bool {
        self.sync_syscall
    }

    /// I/Os of the job in flight besides the one it is submitting.
    pub(crate) fn others_in_flight(&self) -> bool {
        self.inflight > 1
    }

    /// Clone `k` of its section: `offset_increment` moves its region.
    pub fn clone_no(mut self, k: u32, spec: &JobSpec) -> Job {
        self.base += u64::from(k) * spec.offset_increment;
        self
    }

    /// Reporting group and stonewall phase.
    pub fn in_group(mut self, group: u32, phase: u32) -> Job {
        self.group = group;
        self.phase = phase;
        self
    }

    /// Its job section, and the section whose clones must finish before it starts.
    pub fn in_section(mut self, section: u32, waits_for: Option<u32>) -> Job {
        self.section = section;
        self.waits_for = waits_for;
        self
    }

    /// Replays trace `log` (an index into the simulator's traces) `loops` times.
    pub fn replaying(mut self, log: usize, loops: u32, no_stall: bool) -> Job {
        self.replay = Some(Replay {
            log,
            pos: 0,
            loops_left: loops.max(1) - 1,
            no_stall,
            pass_t0: 0,
        });
        self.bytes_cap = u64::MAX;
        self.paced |= !no_stall;
        self
    }

    /// Keeps an [`IoRecord`] of every I/O (for the CLI's logs).
    pub fn recording(mut self) -> Job {
        self.records = Some(Vec::new());
        self
    }

    /// The records kept (empty unless [`Job::recording`]).
    pub fn records(&self) -> &[IoRecord] {
        self.records.as_deref().unwrap_or(&[])
    }

    /// The records kept since the last take, handed over.
    pub fn take_records(&mut self) -> Vec<IoRecord> {
        self.records
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    }

    /// Keeps each I/O as it is queued (`write_iolog`).
    pub fn logging_queued(mut self) -> Job {
        self.queued_log = Some(Vec::new());
        self
    }

    /// An I/O queued now, for `write_iolog`.
    pub(super) fn log_queued(&mut self, op: Op, offset: u64, len: u64) {
        if let Some(log) = self
            .queued_log
            .as_mut()
            .filter(|l| l.len() < MAX_IO_RECORDS)
        {
            log.push(QueuedIo { op, offset, len });
        }
    }

    /// The I/Os queued since the last take, handed over.
    pub fn take_queued(&mut self) -> Vec<QueuedIo> {
        self.queued_log
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    }

    /// When statistics start: the job's start plus `ramp_time`.
    pub fn stats_start(&self) -> u64 {
        self.stats_t0()
    }

    /// What the UI shows of the job.
    pub fn view(&self) -> JobView {
        JobView {
            name: self.name.clone(),
            index: self.index,
            inflight: self.inflight,
            outstanding_max: self.outstanding_max,
            issued: self.issued,
        }
    }

    /// Writes completed and reaped (acknowledged to fio).
    pub fn acked_writes(&self) -> u64 {
        self.write.total_ios
    }

    /// An I/O of this job failed without being reaped (power cut): fio counts the error.
    pub fn count_error(&mut self) {
        self.errors += 1;
    }
}

/// What `zonemode=zbd` makes of an I/O.
enum ZbdIo {
    /// Issue it to the device at this offset and length.
    Device(u64, u64),
    /// A zone reset: done without reaching the device.
    Reset(u64, u64),
    /// No zone left: the job ends.
    Eof,
}

/// A trimming job's discard statistics (fio's `trim` object) and, for `rw=trimwrite`, the
/// block to write next.
#[derive(Debug, Default)]
struct TrimState {
    stats: DirStats,
    write_next: Option<(u64, u64)>,
}

/// An O_SYNC write whose data is done, waiting in `generic_write_sync` for its flush (or, with
/// `fs=f2fs`, for its node write and flush; an fsync too, as `op` Flush).
#[derive(Clone, Copy, Debug)]
pub(crate) struct SyncingWrite {
    pub t_issue: u64,
    pub op: Op,
    pub offset: u64,
    pub len: u64,
    pub fua: bool,
    pub failed: bool,
}

/// A split I/O in flight: requests not yet reaped, its whole length, whether any part failed.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SplitIo {
    pub left: u32,
    pub offset: u64,
    pub len: u64,
    pub failed: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(rw: Rw, fsync: u32, iodepth: u32) -> Job {
        let spec = JobSpec {
            name: "j".into(),
            rw,
            bs: 4096,
            size: 16 * 4096,
            fsync,
            iodepth,
            ioengine: crate::scenario::IoEngine::Libaio,
            ..JobSpec::default()
        };
        let mut j = Job::new(&spec, 0, 1, 0);
        j.t_start = Some(0);
        j
    }

    #[test]
    fn sequential_job_covers_its_region_then_stops() {
        let mut j = job(Rw::Write, 0, 1);
        let mut offsets = Vec::new();
        while j.can_issue(0) {
            let (op, off, len, fua) = j.next_io(0, &[]);
            assert_eq!((op, len, fua), (Op::Write, 4096, false));
            offsets.push(off);
        }
        assert_eq!(offsets, (0..16).map(|b| b * 4096).collect::<Vec<_>>());
    }

    #[test]
    fn fsync_issues_a_lone_flush_after_every_n_writes() {
        let mut j = job(Rw::RandWrite, 2, 4);
        assert_eq!(j.next_io(0, &[]).0, Op::Write);
        assert_eq!(j.next_io(0, &[]).0, Op::Write);
        j.inflight = 2;
        assert!(!j.can_issue(0), "the flush waits for the writes");
        j.inflight = 0;
        assert!(j.can_issue(0));
        assert_eq!(j.next_io(0, &[]).0, Op::Flush);
        assert_eq!(j.flushes, 1);
        assert_eq!(j.next_io(0, &[]).0, Op::Write);
    }

    #[test]
    fn the_queue_depth_bounds_what_is_in_flight() {
        let mut j = job(Rw::RandRead, 0, 4);
        j.inflight = j.outstanding_max;
        assert!(!j.can_issue(0));
        j.inflight -= 1;
        assert!(j.can_issue(0));
        j.count_error();
        assert_eq!(j.report().errors, 1);
    }

    #[test]
    fn files_are_served_round_robin_and_bssplit_mixes_sizes() {
        let spec = JobSpec {
            rw: Rw::Write,
            size: 64 << 10,
            nrfiles: 4,
            bssplit: vec![(4096, 50), (8192, 50)],
            ..JobSpec::default()
        };
        let mut j = Job::new(&spec, 0, 1, 0);
        j.t_start = Some(0);
        let mut ios = Vec::new();
        while j.can_issue(0) {
            ios.push(j.next_io(0, &[]));
        }
        assert_eq!(ios.iter().map(|i| i.2).sum::<u64>(), 64 << 10);
        assert!(ios.iter().any(|i| i.2 == 4096) && ios.iter().any(|i| i.2 == 8192));
        assert_eq!(ios[1].1, 16 << 10, "the second I/O goes to the second file");
    }
}
