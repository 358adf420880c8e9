//! fio's completions (`io_u_queued_complete`, `account_io_completion`): reaping an I/O (clat,
//! the steady-state check, `thinktime`), the next system call, and the end of a job
//! (`exitall`, the next `stonewall` phase).

use super::{steadystate, IoRecord, Job, Step, SyncingWrite, MAX_IO_RECORDS};
use crate::report::JobReport;
use crate::sim::{Event, ReqIdx, Simulator};
use crate::vocab::{Cause, IoPrio, Op, Stage};

/// A completed I/O as its job accounts it.
pub(super) struct DoneIo {
    pub t_issue: u64,
    pub op: Op,
    pub offset: u64,
    pub len: u64,
    pub failed: bool,
    /// The priority it carried (`rq->ioprio`), for fio's latency per priority.
    pub ioprio: IoPrio,
}

impl DoneIo {
    pub fn new(t_issue: u64, op: Op, offset: u64, len: u64, failed: bool, ioprio: IoPrio) -> Self {
        DoneIo {
            t_issue,
            op,
            offset,
            len,
            failed,
            ioprio,
        }
    }
}

impl Job {
    /// What the job's completions add up to: fio's per-job report.
    pub fn report(&self) -> JobReport {
        JobReport {
            name: self.name.clone(),
            index: self.index,
            groupid: self.group,
            read: self.prio.with_prios(0, &self.read),
            write: self.prio.with_prios(1, &self.write),
            trim: self
                .trim
                .as_ref()
                .map(|t| t.stats.clone())
                .unwrap_or_default(),
            flushes: self.flushes,
            errors: self.errors,
            ramp_ios: self.ramp_ios,
            ioprio: self.prio.thread(),
            runtime_ns: self.last_done.saturating_sub(self.stats_t0()),
        }
    }

    /// A whole I/O is done at `now` (all its requests, if the block layer split it).
    pub(super) fn complete(&mut self, now: u64, io: DoneIo) {
        let DoneIo {
            t_issue,
            op,
            offset,
            len,
            failed,
            ioprio,
        } = io;
        self.inflight -= 1;
        self.reap_wait = self.reap_wait.saturating_sub(1);
        self.last_done = now;
        let t0 = self.stats_t0();
        // I/Os completed during `ramp_time` are left out of the statistics.
        let counted = now >= t0;
        if failed {
            // fio's `io_completed` logs an I/O (`account_io_completion` -> the lat, bw and iops
            // logs) only when it completed without an error.
            self.errors += 1;
            return;
        }
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
        if op != Op::Flush && self.think_ns > 0 {
            self.since_think += 1;
            if self.since_think >= self.think_blocks {
                self.since_think = 0;
                self.think_until = now + self.think_ns;
            }
        }
        if !counted {
            self.ramp_ios += u64::from(op != Op::Flush);
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
        self.prio.record(op, ioprio, clat);
    }
}

impl Simulator {
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
        // `fs=f2fs`: a write of an I/O waiting in `f2fs_do_sync_file` is its node block.
        let node =
            r.op == Op::Write && !self.syncing.is_empty() && self.syncing.contains_key(&r.io());
        if r.op != Op::Flush && !node {
            self.bytes_done += r.len;
        }
        if r.op.has_data() {
            let dir = usize::from(r.op == Op::Write);
            self.stats.ios[dir] += 1;
            let sizes = &mut self.req_sizes[dir];
            match sizes.iter().rposition(|&(len, _)| len == r.len) {
                Some(i) => sizes[i].1 += 1,
                None => sizes.push((r.len, 1)),
            }
        } else if r.op == Op::Discard {
            self.stats.discards += 1;
        }
        let (mut offset, mut len, mut failed) = (r.offset, r.len, r.failed);
        // Bios merged into the request complete with it, each to its own submitter.
        if let Some(g) = (!self.merged.is_empty())
            .then(|| self.merged.remove(&req))
            .flatten()
        {
            (offset, len) = (g.own_offset, g.own_len);
            for b in g.bios {
                let io = DoneIo::new(b.t_issue, b.op, b.offset, b.len, failed, r.ioprio);
                self.jobs[b.job as usize].complete(now, io);
                self.job_kick(b.job);
            }
        }
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
        let (mut op, mut t_issue, mut fua) = (r.op, r.t_issue, r.fua);
        if r.op == Op::Flush {
            // The flush of `generic_write_sync` (or `f2fs_issue_flush`): the O_SYNC write (or
            // fsync) it follows returns now.
            if let Some(w) = self.syncing.remove(&r.io()) {
                (op, t_issue, offset, len, fua) = (w.op, w.t_issue, w.offset, w.len, w.fua);
                failed |= w.failed;
            }
        } else if node {
            return self.f2fs_node_written(r.job, r.io(), r.cpu, failed);
        } else if !failed && r.op == Op::Write {
            // A synchronous write: it returns once its sync is done (the write it stands for).
            let w = SyncingWrite {
                t_issue,
                op: Op::Write,
                offset,
                len,
                fua,
                failed,
            };
            let job = &self.jobs[r.job as usize];
            if job.f2fs_sync {
                return self.f2fs_sync_file(r.job, r.io(), r.cpu, w);
            }
            if r.fua && job.sync_syscall && self.generic_write_sync(r.job, r.io(), r.cpu, w) {
                return;
            }
        }
        if !failed && op == Op::Write && fua && self.queue_has_fua() {
            self.acked_reliable_writes += 1;
        }
        let io = DoneIo::new(t_issue, op, offset, len, failed, r.ioprio);
        self.jobs[r.job as usize].complete(now, io);
        self.job_kick(r.job);
    }

    /// `generic_write_sync` (include/linux/fs.h) after an O_SYNC write on the raw device
    /// (`blkdev_write_iter`, block/fops.c): `blkdev_fsync` -> `blkdev_issue_flush`, an empty
    /// REQ_PREFLUSH bio that reaches the card as one flush; the write returns once it is done.
    /// Without a volatile write cache the block layer completes that bio at once (false: the
    /// write returns now). Only the synchronous engines: an async write (libaio, io_uring) is
    /// completed from its bio (`-EIOCBQUEUED`), durable through REQ_FUA alone.
    fn generic_write_sync(&mut self, job: u32, io: u64, cpu: u16, w: SyncingWrite) -> bool {
        if !self.cfg.cache {
            return false;
        }
        self.syncing.insert(io, w);
        let submit = self.platform.host.submit_ns;
        self.insert_flush(job, io, cpu, submit);
        true
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
                self.stats.pace_waits += 1;
                self.jobs[ju].issuing = true;
                self.q.push(t, Event::JobIssue { job: j });
            }
            Step::Wait => {}
            Step::Done => self.job_finished(j),
        }
    }

    /// Job `j` has nothing left: once every job of its phase is done, the next phase
    /// (the jobs after a `stonewall`) starts.
    pub(super) fn job_finished(&mut self, j: u32) {
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
