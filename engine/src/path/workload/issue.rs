//! fio's job threads issuing (fio's `do_io`, `td_io_queue`; the kernel's `bio_split_to_limits`):
//! phases (`stonewall`, `wait_for`), the system call that builds the
//! bio (`pread`/`pwrite`, `fsync`; libaio/io_uring queue their next I/O at once), `zonemode=zbd`
//! adjustments, and the block layer's split of an I/O into requests (`bio_split_to_limits`).

use super::{zbd, SplitIo, Step, ZbdIo};
use crate::path::blk_mq::Plug;
use crate::scenario::iolog::{LogOp, LogOpKind, LogPlug};
use crate::sim::request::Request;
use crate::sim::{Event, Simulator};
use crate::vocab::{Op, Stage};

impl Simulator {
    /// The jobs of the first phase enter their first system call at time 0 (plus `startdelay`),
    /// with the first step, so a caller can turn tracing on before.
    pub(crate) fn workload_start(&mut self) {
        self.start_phase(0);
    }

    /// Starts every job of stonewall phase `phase` now (but not those still waiting for a
    /// section with `wait_for`).
    pub(super) fn start_phase(&mut self, phase: u32) {
        self.phase_started = self.phase_started.max(phase);
        self.start_ready();
    }

    /// Whether every clone of job section `s` has finished.
    pub(super) fn section_done(&self, s: u32) -> bool {
        self.jobs
            .iter()
            .filter(|x| x.section == s)
            .all(|x| x.finished)
    }

    /// Starts the jobs whose phase has begun and whose `wait_for` section is done.
    pub(super) fn start_ready(&mut self) {
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
    pub(super) fn log_of(&self, j: usize) -> &[LogOp] {
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
        if self.blk_mq_thread_asleep(j) {
            // Its thread sleeps in the driver (it issued the last I/O itself): later.
            return;
        }
        self.jobs[ju].issuing = false;
        match self.jobs[ju].step(now, self.log_of(ju)) {
            Step::Issue => {}
            Step::At(t) => {
                self.stats.pace_waits += 1;
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
    pub(super) fn issue_now(&mut self, j: u32) {
        let now = self.now;
        let ju = j as usize;
        if self.replay_plug(j) {
            return self.job_queue_next(j, now);
        }
        let li = self.jobs[ju].replay.as_ref().map(|r| r.log);
        let log: &[LogOp] = li.map_or(&[], |i| &self.iologs[i].ops);
        let (op, offset, len, fua) = self.jobs[ju].next_io(now, log);
        self.jobs[ju].inflight += 1;
        let (offset, len) = match self.zbd_adjust_block(ju, op, offset, len) {
            ZbdIo::Device(o, l) => {
                self.jobs[ju].log_queued(op, o, l);
                (o, l)
            }
            ZbdIo::Eof => {
                // fio's io_u_eof: no zone left for this job; it ends once its I/Os are reaped.
                self.jobs[ju].inflight -= 1;
                self.jobs[ju].stopped = true;
                return self.job_kick(j);
            }
            ZbdIo::Reset(o, l) => {
                // A trim on an emulated zone resets its write pointer: nothing reaches the
                // device; the thread goes on with its next I/O.
                self.jobs[ju].log_queued(op, o, l);
                let ioprio = self.jobs[ju].prio.thread();
                let io = super::reap::DoneIo::new(now, op, o, l, false, ioprio);
                self.jobs[ju].complete(now, io);
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
        if op == Op::Flush && self.jobs[ju].f2fs() {
            // fsync on F2FS: `f2fs_do_sync_file`'s node write, then its flush.
            self.f2fs_fsync(j);
        } else if self.jobs[ju].batch > 1 && op != Op::Flush {
            // fio queues the I/O in the engine; `io_submit` takes the batch once it is full,
            // the queue depth is reached or the job has nothing more (`td_io_commit`).
            let done = self.jobs[ju].data_done(now, self.log_of(ju));
            let job = &mut self.jobs[ju];
            job.queued.push((op, offset, len, fua));
            let full = job.inflight >= job.outstanding_max;
            // An fsync waits for every write: the queued ones go first.
            if job.queued.len() as u32 >= job.batch || full || done || job.flush_pending {
                self.commit_batch(j, full);
            }
        } else {
            let plug = self.one_io_plug(op, self.jobs[ju].sync_engine());
            self.submit_io(j, op, offset, len, fua, plug);
        }
        self.job_queue_next(j, now);
    }

    /// The plug an I/O submitted on its own meets (the kernel's rules, `board/kernel_rules.rs`):
    /// a synchronous engine's trim is plugged by `blkdev_issue_discard`, and up to 6.4 its write
    /// by `blkdev_write_iter` (712c7364655f took that plug out in 6.5): the thread sleeps in the
    /// plug. From 6.10 `__submit_bio` plugs each bio (060406c61c7c): one plug and unplug per
    /// I/O, flushed before the thread sleeps. Else none (reads up to 6.9; writes in 6.5-6.9).
    /// Simplification: the parts of a split I/O share its plug (the kernel's `__submit_bio`
    /// plugs each part as it resubmits it).
    fn one_io_plug(&self, op: Op, sync: bool) -> Plug {
        if !self.cfg.kernel_dispatch() {
            return Plug::None;
        }
        let r = self.rules;
        if sync && (op == Op::Discard || (op == Op::Write && r.write_iter_plug)) {
            Plug::Sleeps
        } else if r.submit_bio_plug {
            Plug::Last
        } else {
            Plug::None
        }
    }

    /// `td_io_commit` -> `io_submit` of the queued I/Os: more than two are plugged
    /// (`AIO_PLUG_THRESHOLD`, fs/aio.c), the last one flushing the plug. With the queue full
    /// the job then waits for `iodepth_batch_complete_min` completions.
    fn commit_batch(&mut self, j: u32, full: bool) {
        let ju = j as usize;
        let queued = std::mem::take(&mut self.jobs[ju].queued);
        let n = queued.len();
        for (k, (op, offset, len, fua)) in queued.into_iter().enumerate() {
            let plug = match (n > 2, k + 1 == n) {
                (false, _) => self.one_io_plug(op, false),
                (true, false) => Plug::Open,
                (true, true) => Plug::Last,
            };
            self.submit_io(j, op, offset, len, fua, plug);
        }
        if full {
            let job = &mut self.jobs[ju];
            job.reap_wait = job.complete_min.min(job.inflight);
        }
    }

    /// A plug of the replayed trace (`replay_events=queue` on a trace with `block_plug` /
    /// `block_unplug`, marked by `scenario/iolog/check.rs`): the bios the kernel queued between
    /// `blk_start_plug` and `blk_finish_plug` are submitted now, together, plugged, the last one
    /// flushing the plug, whatever the job's `iodepth` (the trace's task held them all at once):
    /// they merge in the plug (`blk_attempt_plug_merge`) and reach the scheduler as one
    /// `blk_mq_flush_plug_list`, as the kernel's did. False when the next op is not plugged (or
    /// the plug holds a flush, or the job runs `zonemode=zbd`): it goes the usual way.
    fn replay_plug(&mut self, j: u32) -> bool {
        let ju = j as usize;
        let Some(r) = self.jobs[ju].replay.as_ref().filter(|_| !self.jobs[ju].zbd) else {
            return false;
        };
        let (li, pos) = (r.log, r.pos);
        let log = &self.iologs[li].ops;
        if log.get(pos).is_none_or(|o| o.plug == LogPlug::None) {
            return false;
        }
        let end = log[pos..]
            .iter()
            .position(|o| o.plug != LogPlug::Open)
            .map_or(log.len(), |k| {
                pos + k + usize::from(log[pos + k].plug == LogPlug::Last)
            });
        if log[pos..end].iter().any(|o| o.kind == LogOpKind::Flush) {
            return false;
        }
        for k in pos..end {
            let log = &self.iologs[li].ops;
            let (op, offset, len, fua) = self.jobs[ju].replay_next(self.now, log);
            let job = &mut self.jobs[ju];
            job.inflight += 1;
            job.log_queued(op, offset, len);
            self.data_ios += 1;
            if self.data_ios == crate::scenario::check::MAX_TOTAL_IOS {
                self.stats.io_budget_reached = true;
                self.jobs.iter_mut().for_each(|job| job.stopped = true);
            }
            let plug = if k + 1 == end { Plug::Last } else { Plug::Open };
            self.submit_io(j, op, offset, len, fua, plug);
        }
        true
    }

    /// `zonemode=zbd`: the I/O fio's `zbd_adjust_block` makes of `(offset, len)`.
    pub(super) fn zbd_adjust_block(&mut self, ju: usize, op: Op, offset: u64, len: u64) -> ZbdIo {
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
    pub(super) fn job_queue_next(&mut self, j: u32, now: u64) {
        let ju = j as usize;
        if self.jobs[ju].inflight >= self.jobs[ju].outstanding_max {
            return;
        }
        // Queueing an I/O for the next batch costs no system call; `io_submit` does.
        let submit = if self.jobs[ju].batch > 1 {
            0
        } else {
            self.platform.host.submit_ns
        };
        match self.jobs[ju].step(now, self.log_of(ju)) {
            Step::Issue => {
                self.jobs[ju].issuing = true;
                self.q.push(now + submit, Event::JobIssue { job: j });
            }
            Step::At(t) => {
                self.stats.pace_waits += 1;
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
    pub(super) fn submit_io(
        &mut self,
        j: u32,
        op: Op,
        offset: u64,
        len: u64,
        fua: bool,
        plug: Plug,
    ) {
        let now = self.now;
        // A discard is split by max_discard_sectors (`bio_split_discard`; the card's
        // `max_discard_sectors`), a read or write by max_sectors and the segments.
        let max = if op.has_data() {
            self.platform.host.max_req_bytes.max(512)
        } else {
            self.platform.card.max_discard_sectors.max(1) * 512
        };
        let parts = if len > max && (op.has_data() || op == Op::Discard) {
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
        let ioprio = self.jobs[j as usize].prio.of(op);
        // The requests of a split I/O enter the event queue together (`push_all`); a whole
        // I/O as one push allocates nothing.
        let mut inserts = Vec::new();
        for k in 0..parts {
            let id = self.next_req_id;
            self.next_req_id += 1;
            let part_off = offset + k * max;
            let part_len = if parts > 1 {
                max.min(len - k * max)
            } else {
                len
            };
            let cpu = crate::path::blk_mq::job_cpu(j, self.platform.host.cpus);
            let mut r = Request::new(id, io, j, op, part_off, part_len, fua, cpu, now);
            r.ioprio = ioprio;
            // The parts of a split I/O join the plug; the I/O's last part carries its place.
            r.plug = match plug {
                Plug::Last | Plug::Sleeps if k + 1 < parts => Plug::Open,
                p => p,
            };
            let req = self.reqs.insert(r);
            self.trace_stage(req, Stage::Submit, now);
            if parts == 1 {
                self.q.push(now + submit, Event::BlkMqInsert { req });
            } else {
                inserts.push(Event::BlkMqInsert { req });
            }
        }
        if !inserts.is_empty() {
            self.q.push_all(now + submit, &inserts);
        }
    }
}
