//! The workload: fio jobs (`backend.c` `do_io` for the synchronous engines, `io_u` queueing
//! for libaio/io_uring). Each clone of a job section is one [`Job`]: it issues I/Os in its own
//! thread, keeps `outstanding()` of them in flight, and records completion latency the way fio's
//! clat does (from the system call to the reaped completion).
//!
//! What fio's job options change is decided here, per I/O: the block size (`bs`, `bsrange`,
//! `bssplit`), the offset (sequential per file, or random by `random_distribution`), the
//! direction (`rwmixread`), when the next I/O may start (`rate`, `rate_iops`, `thinktime`, a
//! replayed trace's timestamps), the flushes (`fsync`, `end_fsync`) and when the job stops
//! (`size`, `loops`, `io_size`, `number_ios`, `runtime`). `stonewall` jobs start when every
//! earlier job is done (`Simulator::job_finished`).

use crate::report::{DirStats, JobReport};
use rand::RngExt;

use crate::rng::{Permutation, Rng};
use crate::scenario::iolog::{LogOp, LogOpKind};
use crate::scenario::{JobSpec, RandomDistribution, Rw};
use crate::sim::observe::JobView;
use crate::sim::request::Request;
use crate::sim::{Event, ReqIdx, Simulator};
use crate::vocab::Op;
use crate::vocab::{Cause, Stage};

mod dist;
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

/// Most records one job keeps for its logs.
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
    read: DirStats,
    write: DirStats,
    /// `rw=trim|randtrim|trimwrite` only (boxed: most jobs never trim).
    trim: Option<Box<TrimState>>,
    /// `steadystate_duration`: fio's steady-state detector (boxed: most jobs have none).
    ss: Option<Box<steadystate::SteadyState>>,
    flushes: u64,
    errors: u64,
    last_done: u64,
}

impl Job {
    /// Clone `index` (over all sections) of `spec`, drawing from stream `stream` of `seed`.
    pub fn new(spec: &JobSpec, index: u32, seed: u64, stream: u64) -> Job {
        let min_bs = spec.min_bs().max(512);
        let nrfiles = u64::from(spec.nrfiles.max(1));
        let region = spec.region_bytes().max(min_bs);
        let file_bytes = (region / nrfiles).max(min_bs);
        let blocks = (region / min_bs).max(1);
        let mut rng = crate::rng::stream(seed, stream);
        let perm = spec
            .rw
            .is_random()
            .then(|| Permutation::new(blocks, &mut rng));
        let time_based = spec.time_based && spec.runtime_ns.is_some();
        let bytes_limit = (!time_based).then(|| spec.io_bytes() / min_bs * min_bs);
        let bs = if let Some((lo, hi)) = spec.bsrange {
            BsGen::Range(lo, hi)
        } else if !spec.bssplit.is_empty() {
            let cumulative = |v: &[(u64, u32)]| {
                let mut cum = 0;
                v.iter()
                    .map(|&(b, p)| {
                        cum += p;
                        (b, cum)
                    })
                    .collect::<Vec<_>>()
            };
            let reads = cumulative(&spec.bssplit);
            let writes = spec
                .bssplit_write
                .as_deref()
                .map_or_else(|| reads.clone(), cumulative);
            BsGen::Split(reads, writes)
        } else {
            BsGen::Fixed(min_bs)
        };
        Job {
            name: spec.name.clone(),
            index,
            group: 0,
            phase: 0,
            section: 0,
            waits_for: None,
            rw: spec.rw,
            rwmixread: spec.rwmixread,
            bs,
            min_bs,
            skip: spec.rw_skip,
            stride: spec
                .zonesize
                .filter(|&z| spec.zone_strided && z > 0)
                .map(|z| (z, spec.zoneskip)),
            blocks,
            base: spec.offset,
            region,
            nrfiles,
            file_bytes,
            seq_pos: vec![0; nrfiles as usize],
            runtime_ns: spec.runtime_ns,
            ramp_ns: spec.ramp_time_ns,
            startdelay_ns: spec.startdelay_ns,
            t_start: None,
            outstanding_max: spec.outstanding(),
            inflight: 0,
            issuing: false,
            issued: 0,
            issued_bytes: 0,
            since_think: 0,
            think_until: 0,
            think_ns: spec.thinktime_ns,
            think_blocks: spec.thinktime_blocks.max(1),
            rate: spec.rate,
            rate_iops: spec.rate_iops,
            perm,
            dist: spec.random_distribution.clone(),
            rand_draws: 0,
            rng,
            fua_writes: spec.sync,
            fsync_every: spec.flush_every(),
            writes_since_flush: 0,
            flush_pending: false,
            end_flush: if spec.flush_at_end() {
                EndFlush::Pending
            } else {
                EndFlush::None
            },
            replay: None,
            stopped: false,
            exitall: spec.exitall,
            zbd: spec.zone_zbd,
            read_beyond_wp: spec.read_beyond_wp,
            deadline_at: u64::MAX,
            ios_cap: spec.number_ios.unwrap_or(u64::MAX),
            bytes_cap: bytes_limit.unwrap_or(u64::MAX),
            paced: spec.rate > 0 || spec.rate_iops > 0 || spec.thinktime_ns > 0,
            finished: false,
            records: None,
            read: DirStats::default(),
            write: DirStats::default(),
            trim: matches!(spec.rw, Rw::Trim | Rw::RandTrim | Rw::TrimWrite)
                .then(|| Box::new(TrimState::default())),
            ss: (spec.ss_dur_ns > 0).then(|| {
                let text = spec
                    .steadystate
                    .as_deref()
                    .unwrap_or(crate::scenario::steadystate::DEFAULT_CRITERION);
                // The option table accepted the text; fall back to fio's default otherwise.
                let c = crate::scenario::steadystate::parse(text).unwrap_or_else(|_| {
                    crate::scenario::steadystate::parse(
                        crate::scenario::steadystate::DEFAULT_CRITERION,
                    )
                    .expect("fio's default criterion parses")
                });
                Box::new(steadystate::SteadyState::new(
                    c,
                    spec.ss_dur_ns,
                    spec.ss_ramp_ns,
                    spec.ss_interval_ns,
                ))
            }),
            flushes: 0,
            errors: 0,
            last_done: 0,
        }
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

    /// When statistics start: the job's start plus `ramp_time`.
    pub fn stats_start(&self) -> u64 {
        self.stats_t0()
    }

    fn stats_t0(&self) -> u64 {
        self.t_start.unwrap_or(0) + self.ramp_ns
    }

    /// When `runtime` ends, if it is set.
    fn deadline(&self) -> Option<u64> {
        self.runtime_ns.map(|rt| self.stats_t0() + rt)
    }

    /// No more data I/O will be issued.
    #[inline]
    fn data_done(&self, now: u64, log: &[LogOp]) -> bool {
        // The caps are u64::MAX when unset (one compare each on the per-I/O path).
        if self.stopped || now >= self.deadline_at || self.issued >= self.ios_cap {
            return true;
        }
        if let Some(r) = &self.replay {
            return r.pos >= log.len();
        }
        self.issued_bytes >= self.bytes_cap
    }

    /// What the job does next at `now` (`log`: the trace it replays, if any).
    #[inline]
    fn step(&self, now: u64, log: &[LogOp]) -> Step {
        if self.inflight >= self.outstanding_max || self.t_start.is_none_or(|t| now < t) {
            return Step::Wait;
        }
        if self.flush_pending {
            // fio waits for the writes before the fsync (the flush is issued alone).
            return if self.inflight == 0 {
                Step::Issue
            } else {
                Step::Wait
            };
        }
        if self.data_done(now, log) {
            return match (self.end_flush, self.inflight) {
                (EndFlush::Pending, 0) if !self.stopped => Step::Issue,
                (_, 0) => Step::Done,
                _ => Step::Wait,
            };
        }
        if !self.paced {
            return Step::Issue;
        }
        let t0 = self.t_start.unwrap_or(0);
        let mut at = self.think_until;
        if self.rate > 0 {
            let t =
                t0 + (u128::from(self.issued_bytes) * 1_000_000_000 / u128::from(self.rate)) as u64;
            at = at.max(t);
        }
        if self.rate_iops > 0 {
            let t =
                t0 + (u128::from(self.issued) * 1_000_000_000 / u128::from(self.rate_iops)) as u64;
            at = at.max(t);
        }
        if let Some(r) = self.replay.as_ref().filter(|r| !r.no_stall) {
            at = at.max(r.pass_t0 + log[r.pos].t_ns);
        }
        if at > now {
            let at = self.deadline().map_or(at, |d| at.min(d));
            return Step::At(at.max(now + 1));
        }
        Step::Issue
    }

    /// Whether the job may start another I/O at `now`.
    #[cfg(test)]
    pub fn can_issue(&self, now: u64) -> bool {
        self.step(now, &[]) == Step::Issue
    }

    fn pick_bs(&mut self, op: Op) -> u64 {
        match &self.bs {
            BsGen::Fixed(b) => *b,
            BsGen::Range(lo, hi) => lo * (1 + self.rng.random_range(0..(hi / lo).max(1))),
            BsGen::Split(r, w) => {
                let v = if op == Op::Write { w } else { r };
                let r = self.rng.random_range(0..100u32);
                v.iter()
                    .find(|&&(_, cum)| r < cum)
                    .or(v.last())
                    .map_or(self.min_bs, |&(b, _)| b)
            }
        }
    }

    /// The next I/O: (op, offset, len, fua).
    fn next_io(&mut self, now: u64, log: &[LogOp]) -> (Op, u64, u64, bool) {
        if self.flush_pending || self.data_done(now, log) {
            // The `fsync=N` flush first; the end-of-job flush is its own, after it.
            if !self.flush_pending && self.end_flush == EndFlush::Pending {
                self.end_flush = EndFlush::Issued;
            }
            self.flush_pending = false;
            self.writes_since_flush = 0;
            self.flushes += 1;
            return (Op::Flush, 0, 0, false);
        }
        // `rw=trimwrite`: the block just discarded is written next (fio counts the writes'
        // bytes against size, not the trims').
        if let Some((offset, len)) = self.trim.as_mut().and_then(|t| t.write_next.take()) {
            self.issued += 1;
            self.issued_bytes += len;
            return (Op::Write, offset, len, self.fua_writes);
        }
        if let Some(r) = &mut self.replay {
            let o = log[r.pos];
            r.pos += 1;
            if r.pos == log.len() && r.loops_left > 0 {
                r.pos = 0;
                r.loops_left -= 1;
                r.pass_t0 = now;
            }
            let op = match o.kind {
                LogOpKind::Read => Op::Read,
                LogOpKind::Write => Op::Write,
                LogOpKind::Flush => {
                    self.flushes += 1;
                    return (Op::Flush, 0, 0, false);
                }
            };
            self.issued += 1;
            self.issued_bytes += o.len;
            return (
                op,
                o.offset,
                o.len,
                o.fua || (op == Op::Write && self.fua_writes),
            );
        }
        // The direction first: bssplit may differ for reads and writes.
        let op = match self.rw {
            Rw::Read | Rw::RandRead => Op::Read,
            Rw::Write | Rw::RandWrite => Op::Write,
            Rw::RandRw | Rw::ReadWrite => {
                if self.rng.random_range(0..100u32) < self.rwmixread {
                    Op::Read
                } else {
                    Op::Write
                }
            }
            Rw::Trim | Rw::RandTrim | Rw::TrimWrite => Op::Discard,
        };
        let len = self.pick_bs(op).min(self.region);
        // As fio (get_next_buflen), a variable block size that would run past the bytes left
        // falls back to a size that fits.
        let left = self.bytes_cap.saturating_sub(self.issued_bytes);
        let len = if len > left && left >= self.min_bs {
            left / self.min_bs * self.min_bs
        } else {
            len
        };
        let n = self.issued;
        self.issued += 1;
        self.issued_bytes += len;
        let offset = match &self.perm {
            Some(p) => {
                // The draw's place in the current pass of the permutation.
                let draw = self.rand_draws;
                self.rand_draws = if draw + 1 >= self.blocks { 0 } else { draw + 1 };
                let block = match &self.dist {
                    RandomDistribution::Random => p.get(draw),
                    d @ (RandomDistribution::Zoned(_) | RandomDistribution::ZonedAbs(_)) => {
                        dist::zoned(d, &mut self.rng, self.blocks, self.min_bs)
                    }
                    d => p.get(dist::rank(d, &mut self.rng, self.blocks)),
                };
                let off = block * self.min_bs;
                if off + len > self.region {
                    (self.region - len) / self.min_bs * self.min_bs
                } else {
                    off
                }
            }
            None => {
                let f = n % self.nrfiles;
                let pos = &mut self.seq_pos[f as usize];
                if *pos + len > self.file_bytes {
                    *pos = 0;
                }
                let off = f * self.file_bytes + *pos;
                // `rw=read:N` skips N bytes after each I/O (a negative N steps backwards,
                // wrapping to the end of the file).
                let next = *pos as i64 + len as i64 + self.skip;
                *pos = if next < 0 {
                    (self.file_bytes - len) / self.min_bs * self.min_bs
                } else {
                    next as u64
                };
                off
            }
        };
        // `zonemode=strided`: the region's bytes lie in zones, zoneskip bytes apart.
        let offset = match self.stride {
            Some((zs, skip)) => offset / zs * (zs + skip) + offset % zs,
            None => offset,
        };
        if self.rw == Rw::TrimWrite {
            self.issued_bytes -= len;
            if let Some(t) = self.trim.as_mut() {
                t.write_next = Some((self.base + offset, len));
            }
        }
        if op == Op::Write && self.fsync_every > 0 {
            self.writes_since_flush += 1;
            if self.writes_since_flush >= self.fsync_every {
                self.flush_pending = true;
            }
        }
        (
            op,
            self.base + offset,
            len,
            op == Op::Write && self.fua_writes,
        )
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

    pub fn report(&self) -> JobReport {
        JobReport {
            name: self.name.clone(),
            index: self.index,
            groupid: self.group,
            read: self.read.clone(),
            write: self.write.clone(),
            trim: self
                .trim
                .as_ref()
                .map(|t| t.stats.clone())
                .unwrap_or_default(),
            flushes: self.flushes,
            errors: self.errors,
            runtime_ns: self.last_done.saturating_sub(self.stats_t0()),
        }
    }

    /// A whole I/O is done at `now` (all its requests, if the block layer split it).
    fn complete(&mut self, now: u64, t_issue: u64, op: Op, offset: u64, len: u64, failed: bool) {
        self.inflight -= 1;
        self.last_done = now;
        let t0 = self.stats_t0();
        // I/Os completed during `ramp_time` are left out of the statistics.
        let counted = now >= t0;
        if let Some(rec) = self.records.as_mut().filter(|r| r.len() < MAX_IO_RECORDS) {
            rec.push(IoRecord {
                t_issue,
                t_done: now,
                op,
                offset,
                len,
                counted,
            });
        }
        if failed {
            self.errors += 1;
            return;
        }
        if op != Op::Flush && self.think_ns > 0 {
            self.since_think += 1;
            if self.since_think >= self.think_blocks {
                self.since_think = 0;
                self.think_until = now + self.think_ns;
            }
        }
        if !counted {
            return;
        }
        // fio's steady-state check: the intervals that ended before this completion.
        if let (Some(ss), Some(start)) = (self.ss.as_mut(), self.t_start) {
            let dirs = [
                Some(&self.read),
                Some(&self.write),
                self.trim.as_ref().map(|t| &t.stats),
            ];
            let mut t = steadystate::Totals::default();
            for d in dirs.into_iter().flatten() {
                t.ios += d.total_ios;
                t.bytes += d.io_bytes;
                t.lat_sum_ns += d.clat.mean() * d.clat.count() as f64;
                t.lat_n += d.clat.count();
            }
            if ss.check(now.saturating_sub(start), t) {
                // fio_mark_td_terminate: the job stops issuing and ends.
                self.stopped = true;
            }
        }
        let clat = now - t_issue;
        let d = match op {
            Op::Read => &mut self.read,
            Op::Write => &mut self.write,
            Op::Discard => &mut self.trim.get_or_insert_with(Default::default).stats,
            Op::Flush => return,
        };
        d.io_bytes += len;
        d.total_ios += 1;
        d.runtime_ns = now - t0;
        d.clat.record(clat);
    }
}

impl Simulator {
    /// The jobs of the first phase enter their first system call at time 0 (plus `startdelay`),
    /// with the first step, so a caller can turn tracing on before.
    pub(crate) fn workload_start(&mut self) {
        self.start_phase(0);
    }

    /// Starts every job of stonewall phase `phase` now (but not those still waiting for a
    /// section with `wait_for`).
    fn start_phase(&mut self, phase: u32) {
        self.phase_started = self.phase_started.max(phase);
        self.start_ready();
    }

    /// Whether every clone of job section `s` has finished.
    fn section_done(&self, s: u32) -> bool {
        self.jobs
            .iter()
            .filter(|x| x.section == s)
            .all(|x| x.finished)
    }

    /// Starts the jobs whose phase has begun and whose `wait_for` section is done.
    fn start_ready(&mut self) {
        let now = self.now;
        for j in 0..self.jobs.len() {
            let waits = self.jobs[j].waits_for;
            if waits.is_some_and(|s| !self.section_done(s)) {
                continue;
            }
            let job = &mut self.jobs[j];
            if job.phase > self.phase_started || job.t_start.is_some() {
                continue;
            }
            let t = now + job.startdelay_ns;
            job.t_start = Some(t);
            job.deadline_at = job.deadline().unwrap_or(u64::MAX);
            if let Some(r) = &mut job.replay {
                r.pass_t0 = t;
            }
            job.issuing = true;
            self.q.push(t, Event::JobIssue { job: j as u32 });
        }
    }

    /// The trace job `j` replays (empty if none).
    fn log_of(&self, j: usize) -> &[LogOp] {
        match &self.jobs[j].replay {
            Some(r) => &self.iologs[r.log].ops,
            None => &[],
        }
    }

    /// `Event::JobIssue`: the job thread enters pread/pwrite (or fsync) for its next I/O; the
    /// bio reaches blk-mq `submit_ns` later.
    pub(crate) fn job_issue(&mut self, j: u32) {
        let now = self.now;
        let ju = j as usize;
        self.jobs[ju].issuing = false;
        match self.jobs[ju].step(now, self.log_of(ju)) {
            Step::Issue => {}
            Step::At(t) => {
                self.jobs[ju].issuing = true;
                self.q.push(t, Event::JobIssue { job: j });
                return;
            }
            Step::Wait => return,
            Step::Done => return self.job_finished(j),
        }
        self.issue_now(j);
    }

    /// The job's next I/O, now (its [`Job::step`] said `Issue`).
    fn issue_now(&mut self, j: u32) {
        let now = self.now;
        let ju = j as usize;
        let li = self.jobs[ju].replay.as_ref().map(|r| r.log);
        let log: &[LogOp] = li.map_or(&[], |i| &self.iologs[i].ops);
        let (op, offset, len, fua) = self.jobs[ju].next_io(now, log);
        self.jobs[ju].inflight += 1;
        let (offset, len) = match self.zbd_adjust_block(ju, op, offset, len) {
            ZbdIo::Device(o, l) => (o, l),
            ZbdIo::Eof => {
                // fio's io_u_eof: no zone left for this job; it ends once its I/Os are reaped.
                self.jobs[ju].inflight -= 1;
                self.jobs[ju].stopped = true;
                return self.job_kick(j);
            }
            ZbdIo::Reset(o, l) => {
                // A trim on an emulated zone resets its write pointer: nothing reaches the
                // device; the thread goes on with its next I/O.
                self.jobs[ju].complete(now, now, op, o, l, false);
                return self.job_queue_next(j, now);
            }
        };
        if op != Op::Flush {
            self.data_ios += 1;
            // The run's I/O budget is spent: every job stops issuing (a time-based run ends
            // early, and the report says so).
            if self.data_ios == crate::scenario::check::MAX_TOTAL_IOS {
                self.stats.io_budget_reached = true;
                self.jobs.iter_mut().for_each(|job| job.stopped = true);
            }
        }
        self.submit_io(j, op, offset, len, fua);
        self.job_queue_next(j, now);
    }

    /// `zonemode=zbd`: the I/O fio's `zbd_adjust_block` makes of `(offset, len)`.
    fn zbd_adjust_block(&mut self, ju: usize, op: Op, offset: u64, len: u64) -> ZbdIo {
        let job = &self.jobs[ju];
        let Some(zones) = self.zbd.as_mut().filter(|_| job.zbd) else {
            return ZbdIo::Device(offset, len);
        };
        let io = zbd::Io {
            base: job.base,
            region: job.region,
            offset,
            len,
            min_bs: job.min_bs,
            random: job.perm.is_some(),
        };
        match op {
            Op::Write => zones
                .write(io)
                .map_or(ZbdIo::Eof, |(o, l)| ZbdIo::Device(o, l)),
            Op::Read if !job.read_beyond_wp => zones
                .read(io)
                .map_or(ZbdIo::Eof, |(o, l)| ZbdIo::Device(o, l)),
            Op::Discard => zones.trim(io).map_or(ZbdIo::Eof, |o| ZbdIo::Reset(o, len)),
            _ => ZbdIo::Device(offset, len),
        }
    }

    /// After an I/O is submitted: an async engine queues its next one right away.
    fn job_queue_next(&mut self, j: u32, now: u64) {
        let ju = j as usize;
        if self.jobs[ju].inflight >= self.jobs[ju].outstanding_max {
            return;
        }
        let submit = self.platform.host.submit_ns;
        match self.jobs[ju].step(now, self.log_of(ju)) {
            Step::Issue => {
                self.jobs[ju].issuing = true;
                self.q.push(now + submit, Event::JobIssue { job: j });
            }
            Step::At(t) => {
                self.jobs[ju].issuing = true;
                self.q.push(t.max(now + submit), Event::JobIssue { job: j });
            }
            Step::Wait | Step::Done => {}
        }
    }

    /// Builds the request(s) of one I/O. An I/O larger than the queue's limits is split as
    /// `bio_split_to_limits` splits it: into requests of at most `max_req_bytes` (the smaller
    /// of max_sectors and max_segments x max_seg_size on the platform), all carrying the I/O's
    /// id; the I/O completes when its last request does.
    fn submit_io(&mut self, j: u32, op: Op, offset: u64, len: u64, fua: bool) {
        let now = self.now;
        let max = self.platform.host.max_req_bytes.max(512);
        // A discard is not split by max_sectors (its limit is max_discard_sectors, which the
        // kernel sizes from the card's erase timeout: one request per trim here).
        let parts = if len > max && op.has_data() {
            len.div_ceil(max)
        } else {
            1
        };
        let io = self.next_req_id;
        if parts > 1 {
            self.stats.split_ios += 1;
            self.stats.split_requests += parts;
            self.split.insert(
                io,
                SplitIo {
                    left: parts as u32,
                    offset,
                    len,
                    failed: false,
                },
            );
        }
        let submit = self.platform.host.submit_ns;
        for k in 0..parts {
            let id = self.next_req_id;
            self.next_req_id += 1;
            let part_off = offset + k * max;
            let part_len = if parts > 1 {
                max.min(len - k * max)
            } else {
                len
            };
            let req = self.reqs.insert(Request {
                id,
                part: k as u16,
                job: j,
                op,
                offset: part_off,
                len: part_len,
                fua,
                t_issue: now,
                stage: Stage::Submit,
                t_stage: now,
                tag: None,
                cpu: crate::path::blk_mq::job_cpu(j),
                in_mmc: false,
                chain: None,
                phases: Default::default(),
                failed: false,
                crc_error: false,
                retries: 0,
                from_mmc_test: false,
                passed_over: 0,
                preempted_ns: 0,
            });
            self.trace_stage(req, Stage::Submit, now);
            self.q.push(now + submit, Event::BlkMqInsert { req });
        }
    }

    /// `Event::Reaped`: fio's thread sees the completion; account clat, then issue again. A
    /// request of a split I/O only counts its bytes until the I/O's last request is reaped.
    pub(crate) fn job_reaped(&mut self, req: ReqIdx) {
        let now = self.now;
        let cause = match self.reqs.get(req).preempted_ns {
            0 => Cause::None,
            ns => Cause::Preempted { ns },
        };
        self.stage_cause(req, Stage::Done, now, cause);
        let r = self.reqs.remove(req);
        if r.op.has_data() {
            self.series.record_completion(now, r.len, r.op == Op::Write);
        }
        if r.op != Op::Flush {
            self.bytes_done += r.len;
        }
        let (mut offset, mut len, mut failed) = (r.offset, r.len, r.failed);
        if let Some(s) = (!self.split.is_empty())
            .then(|| self.split.get_mut(&r.io()))
            .flatten()
        {
            s.left -= 1;
            s.failed |= r.failed;
            if s.left > 0 {
                return;
            }
            (offset, len, failed) = (s.offset, s.len, s.failed);
            self.split.remove(&r.io());
        }
        if !failed
            && r.op == Op::Write
            && r.fua
            && self.cfg.fua
            && self.card.timing().reliable_write
        {
            self.acked_reliable_writes += 1;
        }
        self.jobs[r.job as usize].complete(now, r.t_issue, r.op, offset, len, failed);
        self.job_kick(r.job);
    }

    /// Starts the job's next system call if it may issue and none is pending.
    pub(crate) fn job_kick(&mut self, j: u32) {
        let now = self.now;
        let ju = j as usize;
        if self.jobs[ju].issuing {
            return;
        }
        match self.jobs[ju].step(now, self.log_of(ju)) {
            // The thread is running: it enters its next system call right away.
            Step::Issue => self.issue_now(j),
            Step::At(t) => {
                self.jobs[ju].issuing = true;
                self.q.push(t, Event::JobIssue { job: j });
            }
            Step::Wait => {}
            Step::Done => self.job_finished(j),
        }
    }

    /// Job `j` has nothing left: once every job of its phase is done, the next phase
    /// (the jobs after a `stonewall`) starts.
    fn job_finished(&mut self, j: u32) {
        let job = &mut self.jobs[j as usize];
        if job.finished {
            return;
        }
        job.finished = true;
        let phase = job.phase;
        if job.exitall {
            // `exitall`: fio terminates every job of the group; each stops issuing, ends when
            // its I/Os in flight are reaped, and the report covers what it did until then.
            let group = job.group;
            let stop: Vec<u32> = (0..self.jobs.len() as u32)
                .filter(|&k| {
                    let x = &self.jobs[k as usize];
                    x.group == group && !x.finished
                })
                .collect();
            for &k in &stop {
                self.jobs[k as usize].stopped = true;
            }
            for k in stop {
                self.job_kick(k);
            }
        }
        let phase_done = self
            .jobs
            .iter()
            .filter(|x| x.phase == phase)
            .all(|x| x.finished);
        if phase_done && self.jobs.iter().any(|x| x.phase == phase + 1) {
            self.start_phase(phase + 1);
        } else if self
            .jobs
            .iter()
            .any(|x| x.waits_for.is_some() && x.t_start.is_none())
        {
            self.start_ready();
        }
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
