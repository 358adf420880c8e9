//! `blk_mq_submit_bio` (block/blk-mq.c, Linux 6.1): a bio merges into a waiting request, or
//! becomes a request with a tag that is plugged, handed to the scheduler, or issued directly.

use super::{BlkMq, Ctx, Plug};

/// `BLK_PLUG_FLUSH_SIZE` (128 KiB) and `BLK_MAX_REQUEST_COUNT` (32).
const BLK_PLUG_FLUSH_SIZE: u64 = 128 * 1024;
const BLK_MAX_REQUEST_COUNT: usize = 32;
use crate::sim::{ReqIdx, Simulator};
use crate::vocab::Stage;

impl Simulator {
    /// `Event::BlkMqInsert`: the I/O's bio reaches blk-mq.
    pub(crate) fn blk_mq_submit(&mut self, req: ReqIdx) {
        self.set_stage(req, Stage::BlkMq);
        if self.blk_mq_attempt_bio_merge(req) {
            return;
        }
        let cpu = self.reqs.get(req).cpu;
        match self.blk.get_tag(req, cpu) {
            Some(tag) => self.blk_mq_got_tag(req, tag),
            None => {
                // The task sleeps in `blk_mq_get_tag`: `sched_submit_work` flushes its plug
                // first; once woken it goes on unplugged.
                let r = self.reqs.get_mut(req);
                let (job, plugged) = (r.job, r.plug != Plug::None);
                r.plug = Plug::None;
                if plugged {
                    self.blk_mq_flush_plug(job);
                }
            }
        }
    }

    /// The request has its tag (a driver tag without a scheduler): plugged, inserted, or
    /// issued directly.
    pub(crate) fn blk_mq_got_tag(&mut self, req: ReqIdx, tag: Option<u16>) {
        let now = self.now;
        let sched = self.blk.has_sched_tags();
        let r = self.reqs.get_mut(req);
        r.tag = tag;
        r.sched_tag = sched;
        let (job, plug, flushy) = (
            r.job,
            r.plug,
            r.op == crate::vocab::Op::Flush || r.fua || r.preflush,
        );
        self.blk_account_io_start(req);
        if flushy && self.blk_insert_flush(req) {
            return;
        }
        if plug != Plug::None {
            // `blk_add_rq_to_plug`: a plug whose last request is 128 KiB or more
            // (`BLK_PLUG_FLUSH_SIZE`), or that holds 32 (`BLK_MAX_REQUEST_COUNT`), is flushed
            // first, from the submitting thread.
            let last = self.blk.plug_last(job);
            if last.is_none() && plug == Plug::Sleeps {
                // A plug of this one request (a synchronous write's) flushed as its thread
                // sleeps: what adding it to the plug and flushing that does, without the list.
                self.reqs.get_mut(req).plug = Plug::None;
                self.blk.elv.insert(req, &self.reqs, now);
                return self.blk_mq_plug_inserted(job, true);
            }
            if let Some(last) = last {
                let big = self.reqs.get(last).len >= BLK_PLUG_FLUSH_SIZE && self.blk.nomerges == 0;
                if big || self.blk.plug_len(job) >= BLK_MAX_REQUEST_COUNT {
                    self.blk_mq_flush_plug_from(job, false);
                }
            }
            self.blk.plug_add(job, req);
            match plug {
                Plug::Last => self.blk_mq_flush_plug(job),
                Plug::Sleeps => self.blk_mq_flush_plug_from(job, true),
                _ => {}
            }
            return;
        }
        if !self.cfg.kernel_dispatch() {
            // The presets' fitted dispatch: into the software queue, then run from here unless
            // a context is inside `->queue_rq` (it takes the request when it loops).
            if self.blk.ctx.is_none() && !self.blk.has_work() && self.blk.ctx_list.is_empty() {
                // Nothing waits and no context runs: the thread's context takes this request
                // at once (what inserting it and running the queue would do, without the
                // round trip through the software queue).
                self.blk.ctx = Some(Ctx::Direct);
                self.blk.ctx_queued = false;
                return self.blk_mq_queue_rq(req, Ctx::Direct);
            }
            self.blk.elv.insert(req, &self.reqs, now);
            if self.blk.resource_wait {
                // A request the driver refused (BLK_STS_RESOURCE) waits on hctx->dispatch:
                // the submission leaves it and itself to kblockd's run, which the next
                // completion asks for (the kernel's `hctx->dispatch_busy` rule: 5.7's
                // `blk_mq_make_request`, 6.1's `blk_mq_submit_bio`).
                return;
            }
            return self.blk_mq_kick();
        }
        if sched || self.blk.dispatch_busy > 0 {
            // `blk_mq_insert_request` + `blk_mq_run_hw_queue(hctx, true)`.
            self.blk.elv.insert(req, &self.reqs, now);
            self.blk_mq_run_hw_queue_async(0);
        } else {
            self.blk_mq_issue_direct(vec![req]);
        }
    }

    /// `blk_finish_plug` -> `blk_mq_flush_plug_list`: with a scheduler the plug's requests are
    /// inserted and left to kblockd (`blk_mq_sched_insert_requests`); without one they are
    /// issued from the submitting thread (`blk_mq_plug_issue_direct`).
    pub(crate) fn blk_mq_flush_plug(&mut self, job: u32) {
        self.blk_mq_flush_plug_from(job, false);
    }

    /// The plug's flush; `from_schedule`: its thread is going to sleep (`sched_submit_work`),
    /// so the requests are inserted and kblockd issues them, with a scheduler or without.
    pub(crate) fn blk_mq_flush_plug_from(&mut self, job: u32, from_schedule: bool) {
        let list = self.blk.take_plug(job);
        if list.is_empty() {
            return;
        }
        for &r in &list {
            self.reqs.get_mut(r).plug = Plug::None;
        }
        if self.blk.has_sched_tags() || !self.cfg.kernel_dispatch() || from_schedule {
            for &r in &list {
                self.blk.elv.insert(r, &self.reqs, self.now);
            }
            self.blk.spare_plug(list);
            self.blk_mq_plug_inserted(job, from_schedule);
        } else {
            self.blk_mq_issue_direct(list);
        }
    }

    /// A plug's requests are in the scheduler (or the software queues): the queue is run
    /// (`blk_mq_dispatch_plug_list` -> `blk_mq_run_hw_queue(hctx, from_schedule)`): by kblockd,
    /// or from 6.6 in the submitting task unless it is going to sleep.
    fn blk_mq_plug_inserted(&mut self, job: u32, from_schedule: bool) {
        if !from_schedule && self.rules.run_inline && self.cfg.kernel_dispatch() {
            return self.blk_mq_run_hw_queue_sync(job);
        }
        if from_schedule && self.blk.ctx == Some(Ctx::Direct) && self.blk.ctx_job == Some(job) {
            // The thread sleeps only once its own `->queue_rq` has returned: kblockd is
            // woken then.
            self.blk.kick_on_return = true;
        } else {
            self.blk_mq_kick();
        }
    }

    /// Something waits to be dispatched: kblockd is asked to run the queue (the kernel's
    /// rules), or, with the fitted dispatch, the current thread runs it unless a context is
    /// inside `->queue_rq`.
    pub(crate) fn blk_mq_kick(&mut self) {
        if self.cfg.kernel_dispatch() {
            return self.blk_mq_run_hw_queue_async(0);
        }
        if self.blk.ctx.is_none() {
            self.blk.ctx = Some(Ctx::Direct);
            self.blk.ctx_queued = false;
            self.blk_mq_dispatch_next(Ctx::Direct);
        }
    }

    /// The submitting thread issues `list` itself. If another context is inside `->queue_rq`
    /// the first is refused at once (`mq->busy`), as the next step of a context would be.
    pub(super) fn blk_mq_issue_direct(&mut self, list: Vec<ReqIdx>) {
        let job = list.first().map(|&r| self.reqs.get(r).job);
        if self.blk.ctx == Some(Ctx::Direct) && self.blk.ctx_job == job {
            // The same thread (the next part of its split I/O): it submits it once its
            // `->queue_rq` returns, in the same context.
            self.blk.ctx_list.extend(list);
            return;
        }
        if self.blk_mq_cpu_taken() {
            // The board's one CPU runs the context: this task runs once it returns.
            if let Some(j) = job {
                self.blk.deferred.push_back((j, list));
            }
            return;
        }
        if self.blk.ctx.is_some() {
            let mut list = list.into_iter();
            if let Some(first) = list.next() {
                self.blk_mq_refused(first, Ctx::Direct, list.collect(), false);
            }
            return;
        }
        self.blk.ctx = Some(Ctx::Direct);
        self.blk.ctx_job = list.first().map(|&r| self.reqs.get(r).job);
        self.blk.ctx_list = list.into();
        self.blk.ctx_queued = false;
        self.blk_mq_dispatch_next(Ctx::Direct);
    }
}

/// The plugs (`struct blk_plug`'s `mq_list`), one per job that holds one open.
impl BlkMq {
    /// The last request of `job`'s open plug.
    pub fn plug_last(&self, job: u32) -> Option<ReqIdx> {
        self.plugs
            .iter()
            .find(|(j, _)| *j == job)
            .and_then(|(_, p)| p.last().copied())
    }

    fn plug_add(&mut self, job: u32, req: ReqIdx) {
        match self.plugs.iter_mut().find(|(j, _)| *j == job) {
            Some((_, p)) => p.push(req),
            None => {
                let mut p = self.spare_plugs.pop().unwrap_or_default();
                p.push(req);
                self.plugs.push((job, p));
            }
        }
    }

    fn plug_len(&self, job: u32) -> usize {
        self.plugs
            .iter()
            .find(|(j, _)| *j == job)
            .map_or(0, |(_, p)| p.len())
    }

    fn take_plug(&mut self, job: u32) -> Vec<ReqIdx> {
        match self.plugs.iter().position(|(j, _)| *j == job) {
            Some(i) => self.plugs.swap_remove(i).1,
            None => Vec::new(),
        }
    }

    /// A flushed plug's list, kept for the next plug.
    fn spare_plug(&mut self, mut list: Vec<ReqIdx>) {
        list.clear();
        self.spare_plugs.push(list);
    }
}
