//! `blk_mq_submit_bio` (block/blk-mq.c, Linux 6.1): a bio merges into a waiting request, or
//! becomes a request with a tag that is plugged, handed to the scheduler, or issued directly.

use super::{Ctx, Plug};
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
        r.t_alloc = now;
        let (job, plug, flushy) = (r.job, r.plug, r.op == crate::vocab::Op::Flush || r.fua);
        if flushy && self.blk_insert_flush(req) {
            return;
        }
        if plug != Plug::None {
            // `blk_add_rq_to_plug`.
            self.blk.plug_add(job, req);
            if plug == Plug::Last {
                self.blk_mq_flush_plug(job);
            }
            return;
        }
        if !self.cfg.kernel_dispatch() {
            // The presets' fitted dispatch: into the software queue, then run from here unless
            // a context is inside `->queue_rq` (it takes the request when it loops).
            self.blk.elv.insert(req, &self.reqs, now);
            return self.blk_mq_kick();
        }
        // A psync write's plug is flushed as its thread sleeps for the write
        // (`sched_submit_work` -> `blk_flush_plug(plug, true)`): inserted, kblockd issues it.
        let psync_write = r_is_psync_write(self, req);
        if sched || self.blk.dispatch_busy > 0 || psync_write {
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
        let list = self.blk.take_plug(job);
        if list.is_empty() {
            return;
        }
        for &r in &list {
            self.reqs.get_mut(r).plug = Plug::None;
        }
        if self.blk.has_sched_tags() || !self.cfg.kernel_dispatch() {
            for r in list {
                self.blk.elv.insert(r, &self.reqs, self.now);
            }
            self.blk_mq_kick();
        } else {
            self.blk_mq_issue_direct(list);
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
    fn blk_mq_issue_direct(&mut self, list: Vec<ReqIdx>) {
        if self.blk.ctx.is_some() {
            let mut list = list.into_iter();
            if let Some(first) = list.next() {
                self.blk_mq_refused(first, Ctx::Direct, list.collect(), false);
            }
            return;
        }
        self.blk.ctx = Some(Ctx::Direct);
        self.blk.ctx_list = list.into();
        self.blk.ctx_queued = false;
        self.blk_mq_dispatch_next(Ctx::Direct);
    }
}

/// A write of a synchronous engine (psync and friends): `blkdev_write_iter` plugs it, and the
/// thread sleeps in the plug.
fn r_is_psync_write(sim: &Simulator, req: ReqIdx) -> bool {
    let r = sim.reqs.get(req);
    r.op == crate::vocab::Op::Write && !r.from_mmc_test && sim.jobs[r.job as usize].sync_engine()
}
