//! The workload: fio jobs (`backend.c` `do_io` for the synchronous engines, `io_u` queueing
//! for libaio/io_uring). Each clone of a job section is one [`Job`]: it issues I/Os in its own
//! thread, keeps `outstanding()` of them in flight, and records completion latency the way fio's
//! clat does (from the system call to the reaped completion).

use crate::report::{DirStats, JobReport};
use rand::RngExt;

use crate::rng::{Permutation, Rng};
use crate::scenario::{JobSpec, Rw};
use crate::sim::observe::JobView;
use crate::sim::request::{Op, Request};
use crate::sim::{Event, ReqIdx, Simulator};
use crate::trace::Stage;

/// One running job clone (a fio `thread_data`).
#[derive(Debug)]
pub struct Job {
    /// Job name and clone index (also read by the trace export).
    pub name: String,
    pub index: u32,
    rw: Rw,
    rwmixread: u32,
    bs: u64,
    /// Blocks in the job's region.
    blocks: u64,
    /// Region start on the device.
    base: u64,
    /// I/Os to do before stopping (None: time-based).
    ios_limit: Option<u64>,
    runtime_ns: Option<u64>,
    outstanding_max: u32,
    inflight: u32,
    /// A JobIssue event is pending (the job thread is in a system call).
    issuing: bool,
    /// Data I/Os issued so far.
    issued: u64,
    perm: Option<Permutation>,
    rng: Rng,
    fua_writes: bool,
    fsync_every: u32,
    writes_since_flush: u32,
    flush_pending: bool,
    read: DirStats,
    write: DirStats,
    flushes: u64,
    errors: u64,
    last_done: u64,
}

impl Job {
    pub fn new(spec: &JobSpec, index: u32, seed: u64, stream: u64) -> Job {
        let bs = spec.bs.max(512);
        let blocks = (spec.size / bs).max(1);
        let mut rng = crate::rng::stream(seed, stream);
        let perm = spec
            .rw
            .is_random()
            .then(|| Permutation::new(blocks, &mut rng));
        let ios_limit = if spec.time_based && spec.runtime_ns.is_some() {
            None
        } else {
            Some(blocks)
        };
        Job {
            name: spec.name.clone(),
            index,
            rw: spec.rw,
            rwmixread: spec.rwmixread,
            bs,
            blocks,
            base: spec.offset,
            ios_limit,
            runtime_ns: spec.runtime_ns,
            outstanding_max: spec.outstanding(),
            inflight: 0,
            issuing: false,
            issued: 0,
            perm,
            rng,
            fua_writes: spec.sync,
            fsync_every: spec.fsync,
            writes_since_flush: 0,
            flush_pending: false,
            read: DirStats::default(),
            write: DirStats::default(),
            flushes: 0,
            errors: 0,
            last_done: 0,
        }
    }

    /// Whether the job may start another I/O at `now`.
    pub fn can_issue(&self, now: u64) -> bool {
        if self.inflight >= self.outstanding_max {
            return false;
        }
        if let Some(rt) = self.runtime_ns {
            if now >= rt {
                return false;
            }
        }
        if self.flush_pending {
            // fio waits for the writes before the fsync (the flush is issued alone).
            return self.inflight == 0;
        }
        match self.ios_limit {
            Some(n) => self.issued < n,
            None => true,
        }
    }

    /// The next I/O: (op, offset, len, fua).
    fn next_io(&mut self) -> (Op, u64, u64, bool) {
        if self.flush_pending {
            self.flush_pending = false;
            self.writes_since_flush = 0;
            self.flushes += 1;
            return (Op::Flush, 0, 0, false);
        }
        let i = self.issued;
        self.issued += 1;
        let block = match &self.perm {
            Some(p) => p.get(i % self.blocks),
            None => i % self.blocks,
        };
        let op = match self.rw {
            Rw::Read | Rw::RandRead => Op::Read,
            Rw::Write | Rw::RandWrite => Op::Write,
            Rw::RandRw => {
                if self.rng.random_range(0..100u32) < self.rwmixread {
                    Op::Read
                } else {
                    Op::Write
                }
            }
        };
        if op == Op::Write && self.fsync_every > 0 {
            self.writes_since_flush += 1;
            if self.writes_since_flush >= self.fsync_every {
                self.flush_pending = true;
            }
        }
        (
            op,
            self.base + block * self.bs,
            self.bs,
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
            read: self.read.clone(),
            write: self.write.clone(),
            flushes: self.flushes,
            errors: self.errors,
            runtime_ns: self.last_done,
        }
    }
}

impl Simulator {
    /// Every job thread enters its first system call at time 0 (with the first step, so a
    /// caller can turn tracing on before).
    pub(crate) fn workload_start(&mut self) {
        for j in 0..self.jobs.len() as u32 {
            self.jobs[j as usize].issuing = true;
            self.q.push(0, Event::JobIssue { job: j });
        }
    }

    /// `Event::JobIssue`: the job thread enters pread/pwrite (or fsync) for its next I/O; the
    /// bio reaches blk-mq `submit_ns` later.
    pub(crate) fn job_issue(&mut self, j: u32) {
        let now = self.now;
        let job = &mut self.jobs[j as usize];
        job.issuing = false;
        if !job.can_issue(now) {
            return;
        }
        let (op, offset, len, fua) = job.next_io();
        job.inflight += 1;
        let id = self.next_req_id;
        self.next_req_id += 1;
        let req = self.reqs.insert(Request {
            id,
            job: j,
            op,
            offset,
            len,
            fua,
            t_issue: now,
            stage: Stage::Submit,
            t_stage: now,
            tag: None,
            cpu: crate::blk_mq::job_cpu(j),
            in_mmc: false,
            chain: None,
            phases: Default::default(),
            failed: false,
            crc_error: false,
            retries: 0,
            from_mmc_test: false,
        });
        self.trace_stage(req, Stage::Submit, now);
        let submit = self.platform.host.submit_ns;
        self.q.push(now + submit, Event::BlkMqInsert { req });
        // Async engines queue the next I/O right after this one's submission.
        if self.jobs[j as usize].can_issue(now) {
            self.jobs[j as usize].issuing = true;
            self.q.push(now + submit, Event::JobIssue { job: j });
        }
    }

    /// `Event::Reaped`: fio's thread sees the completion; account clat, then issue again.
    pub(crate) fn job_reaped(&mut self, req: ReqIdx) {
        let now = self.now;
        self.set_stage(req, Stage::Done);
        let r = self.reqs.remove(req);
        let job = &mut self.jobs[r.job as usize];
        job.inflight -= 1;
        job.last_done = now;
        let clat = now - r.t_issue;
        if r.failed {
            job.errors += 1;
        } else {
            match r.op {
                Op::Read => {
                    job.read.io_bytes += r.len;
                    job.read.total_ios += 1;
                    job.read.runtime_ns = now;
                    job.read.clat.record(clat);
                }
                Op::Write => {
                    if r.fua && self.cfg.fua && self.card.timing().reliable_write {
                        self.acked_reliable_writes += 1;
                    }
                    job.write.io_bytes += r.len;
                    job.write.total_ios += 1;
                    job.write.runtime_ns = now;
                    job.write.clat.record(clat);
                }
                Op::Flush => {}
            }
        }
        if r.op != Op::Flush {
            self.series.record_completion(now, r.len, r.op == Op::Write);
            self.bytes_done += r.len;
        }
        self.job_kick(r.job);
    }

    /// Starts the job's next system call if it may issue and none is pending.
    pub(crate) fn job_kick(&mut self, j: u32) {
        let now = self.now;
        let job = &self.jobs[j as usize];
        if !job.issuing && job.can_issue(now) {
            // The thread is running: it enters its next system call right away.
            self.job_issue(j);
        }
    }
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
        Job::new(&spec, 0, 1, 0)
    }

    #[test]
    fn sequential_job_covers_its_region_then_stops() {
        let mut j = job(Rw::Write, 0, 1);
        let mut offsets = Vec::new();
        while j.can_issue(0) {
            let (op, off, len, fua) = j.next_io();
            assert_eq!((op, len, fua), (Op::Write, 4096, false));
            offsets.push(off);
        }
        assert_eq!(offsets, (0..16).map(|b| b * 4096).collect::<Vec<_>>());
    }

    #[test]
    fn fsync_issues_a_lone_flush_after_every_n_writes() {
        let mut j = job(Rw::RandWrite, 2, 4);
        assert_eq!(j.next_io().0, Op::Write);
        assert_eq!(j.next_io().0, Op::Write);
        j.inflight = 2;
        assert!(!j.can_issue(0), "the flush waits for the writes");
        j.inflight = 0;
        assert!(j.can_issue(0));
        assert_eq!(j.next_io().0, Op::Flush);
        assert_eq!(j.flushes, 1);
        assert_eq!(j.next_io().0, Op::Write);
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
}
