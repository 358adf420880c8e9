//! Dispatch (block/blk-mq.c `blk_mq_dispatch_rq_list`, blk-mq-sched.c
//! `__blk_mq_sched_dispatch_requests`, Linux 6.1): a context hands its requests to `->queue_rq`
//! one at a time; each accepted request costs the mmc issue path (and the scheduler's pick),
//! then the context goes on. kblockd's run takes `hctx->dispatch` first (and sets
//! SCHED_RESTART), then the scheduler's requests: all of them in one batch, or one per batch
//! while the context is busy (`max_dispatch`).
//!
//! On the legacy mmc path `->queue_rq` does not refuse a full window: the context sleeps in it
//! (`mmc_blk_mq_issue_rw_rq` -> `mmc_blk_rw_wait`) until the request before has completed, and
//! only another context that enters meanwhile is refused (`mq->busy`). hsq and the CQE refuse.

use super::{ewma, Ctx, BLK_MQ_RESOURCE_DELAY_NS};
use crate::path::mmc_queue::QueueRq;
use crate::sim::{Event, ReqIdx, Simulator};
use crate::vocab::Stage;
use std::collections::VecDeque;

impl Simulator {
    /// `Event::Dispatch`: `issued`'s `->queue_rq` returned in context `ctx`; it takes the next.
    pub(crate) fn blk_mq_dispatch(&mut self, issued: Option<ReqIdx>, ctx: Ctx) {
        if let Some(req) = issued {
            let last = !self.blk.force_commit && self.blk.ctx_list.is_empty();
            self.mq.issue_done();
            self.mmc_issue_done(req, last);
        }
        self.blk_mq_dispatch_next(ctx);
    }

    /// The context's next request, if it has one (kblockd refills from `hctx->dispatch`, then
    /// the scheduler).
    fn blk_mq_next(&mut self, ctx: Ctx) -> Option<ReqIdx> {
        if let Some(r) = self.blk.ctx_list.pop_front() {
            return Some(r);
        }
        if !self.cfg.kernel_dispatch() {
            // The fitted dispatch: any context takes hctx->dispatch, then the software queue.
            let r = self.blk.dispatch.pop_front();
            self.blk.resource_wait &= !self.blk.dispatch.is_empty();
            return r.or_else(|| self.blk.elv.dispatch(&self.reqs, self.now));
        }
        if ctx == Ctx::Direct && !self.blk.ctx_runs {
            return None;
        }
        if !self.blk.dispatch.is_empty() {
            self.blk.restart = true;
            self.blk.ctx_list = std::mem::take(&mut self.blk.dispatch);
            return self.blk.ctx_list.pop_front();
        }
        let max = if self.blk.dispatch_busy > 0 {
            1
        } else {
            self.blk.nr_requests()
        };
        for _ in 0..max {
            let Some(r) = self.blk.elv.dispatch(&self.reqs, self.now) else {
                break;
            };
            if self.blk.last_merge == Some(r) {
                self.blk.last_merge = None;
            }
            self.blk.ctx_list.push_back(r);
        }
        self.blk.ctx_list.pop_front()
    }

    /// One step of context `ctx`: `->queue_rq` of its next request, or the end of its run.
    pub(crate) fn blk_mq_dispatch_next(&mut self, ctx: Ctx) {
        let Some(req) = self.blk_mq_next(ctx) else {
            return self.blk_mq_ctx_end(ctx, false);
        };
        self.blk_mq_queue_rq(req, ctx);
    }

    /// `->queue_rq` of `req` in context `ctx`, with its driver tag taken first.
    pub(super) fn blk_mq_queue_rq(&mut self, req: ReqIdx, ctx: Ctx) {
        if self.reqs.get(req).tag.is_none() && self.reqs.get(req).op.has_data() {
            let cpu = self.reqs.get(req).cpu;
            match self.blk.get_driver_tag(cpu) {
                Some(tag) => self.reqs.get_mut(req).tag = Some(tag),
                None => {
                    // No driver tag: the request waits on hctx->dispatch for a completion
                    // (`blk_mq_mark_tag_wait`), without a requeue.
                    let rest: Vec<ReqIdx> = self.blk.ctx_list.drain(..).collect();
                    self.blk.dispatch.push_back(req);
                    self.blk.dispatch.extend(rest);
                    self.blk.restart = true;
                    return self.blk_mq_ctx_end(ctx, true);
                }
            }
        }
        let got = self.mmc_queue_rq(req);
        match got {
            QueueRq::Issued(cost) => {
                self.blk.ctx_queued = true;
                match ctx {
                    Ctx::Kblockd => self.stats.issued_by_kblockd += 1,
                    Ctx::Direct => self.stats.issued_direct += 1,
                }
                let r = self.reqs.get_mut(req);
                r.t_dispatch = self.now;
                self.set_stage(req, Stage::Issue);
                let elv = crate::path::elevator::cpu_ns(
                    self.cfg.iosched,
                    self.platform.host.sched_cpu_pct,
                );
                let cost = cost + elv;
                let ev = match ctx {
                    Ctx::Direct => Event::Dispatch { issued: Some(req) },
                    Ctx::Kblockd => Event::KblockdDispatch { issued: req },
                };
                self.q.push(self.now + cost, ev);
            }
            QueueRq::Sleeps if self.cfg.kernel_dispatch() => {
                // Packed requests (force_commit): what this round queued waits for commit_rqs,
                // and the sleep waits for it to finish, so it goes first. The model's choice:
                // the 2020 packed series' wait-for-idle is not in the sources the model reads,
                // and a kernel that kept them back would never wake.
                if self.blk.force_commit && std::mem::take(&mut self.blk.ctx_queued) {
                    self.mmc_commit_rqs();
                }
                self.blk.parked = Some((req, ctx));
            }
            QueueRq::Sleeps | QueueRq::Resource => {
                self.blk.resource_wait |= got == QueueRq::Resource && !self.cfg.kernel_dispatch();
                let rest: Vec<ReqIdx> = self.blk.ctx_list.drain(..).collect();
                self.blk_mq_refused(req, ctx, rest, true);
            }
        }
    }

    /// BLK_STS_RESOURCE for `req` (`rest`: what the context still held): back on
    /// `hctx->dispatch` with a requeue (`__blk_mq_requeue_request`, which drops a driver tag
    /// taken at dispatch); the context is busy and kblockd re-runs the queue: at once, or after
    /// 3 ms once SCHED_RESTART is set. A direct issuer's remaining requests go to the software
    /// queue instead (`blk_mq_dispatch_plug_list`).
    /// `own`: the refused context is the running one (else it was refused on entering, for
    /// `mq->busy`, while another context is inside `->queue_rq`).
    pub(crate) fn blk_mq_refused(&mut self, req: ReqIdx, ctx: Ctx, rest: Vec<ReqIdx>, own: bool) {
        self.stats.requeues += 1;
        self.trace_stage(req, Stage::BlkMq, self.now);
        if !self.cfg.kernel_dispatch() {
            // The fitted dispatch: back to the head of hctx->dispatch; a completion re-runs the
            // queue, or kblockd after 3 ms when nothing is in flight.
            self.blk.dispatch.push_front(req);
            if self.blk.force_commit && self.blk.ctx_queued {
                self.mmc_commit_rqs();
            }
            self.blk.ctx = None;
            self.blk.ctx_queued = false;
            if self.mq.total_in_flight() == 0 {
                self.blk_mq_fitted_rerun(BLK_MQ_RESOURCE_DELAY_NS);
            }
            return;
        }
        self.blk_mq_put_driver_tag_of(req);
        if self.blk.last_merge == Some(req) {
            self.blk.last_merge = None;
        }
        self.blk.dispatch.push_back(req);
        let job = self.reqs.get(req).job;
        match ctx {
            Ctx::Direct if !(own && self.blk.ctx_runs) => {
                for r in rest {
                    self.blk.elv.insert(r, &self.reqs, self.now);
                }
            }
            _ => self.blk.dispatch.extend(rest),
        }
        self.blk.dispatch_busy = ewma(self.blk.dispatch_busy, true);
        if own {
            self.blk_mq_ctx_end(ctx, true);
        } else if ctx == Ctx::Kblockd {
            // A kblockd run refused at its first request (another context was inside).
            self.blk_mq_rerun_after_refusal();
            self.blk_mq_kblockd_done();
        } else {
            // A direct issue refused on entering: `blk_mq_request_bypass_insert` and
            // `blk_mq_run_hw_queue(hctx, false)`.
            self.blk_mq_run_hw_queue_sync(job);
        }
    }

    /// What a refused kblockd run asks for: at once without SCHED_RESTART, else 3 ms later.
    fn blk_mq_rerun_after_refusal(&mut self) {
        let delay = if self.blk.restart {
            BLK_MQ_RESOURCE_DELAY_NS
        } else {
            0
        };
        self.blk_mq_run_hw_queue_async(delay);
    }

    /// The context's run is over (`refused`: by a BLK_STS_RESOURCE or for want of a tag).
    fn blk_mq_ctx_end(&mut self, ctx: Ctx, refused: bool) {
        if self.blk.force_commit && self.blk.ctx_queued {
            self.mmc_commit_rqs();
        }
        self.blk.ctx = None;
        self.blk.ctx_queued = false;
        // A task's run of the queue ends as kblockd's does.
        let runs = std::mem::take(&mut self.blk.ctx_runs);
        let mut ran_by = None;
        if ctx == Ctx::Direct {
            // The submitting thread returns from its system call: a next I/O it could not
            // issue while asleep in `->queue_rq` goes now.
            let job = self.blk.ctx_job.take();
            ran_by = job;
            if let Some(j) = job.filter(|_| std::mem::take(&mut self.blk.deferred_issue)) {
                self.q.push(self.now, Event::JobIssue { job: j });
            }
            if std::mem::take(&mut self.blk.kick_on_return) {
                self.blk_mq_run_hw_queue_async(0);
            }
        }
        if !refused {
            self.blk.dispatch_busy = ewma(self.blk.dispatch_busy, false);
        }
        match (ctx, refused, ran_by) {
            (Ctx::Direct, true, Some(job)) if !runs => self.blk_mq_run_hw_queue_sync(job),
            (Ctx::Direct, true, _) if !runs => self.blk_mq_run_hw_queue_async(0),
            (Ctx::Direct, false, _) if !runs => {}
            (_, true, _) => self.blk_mq_rerun_after_refusal(),
            (_, false, _) => {
                // The scheduler holds requests back (kyber's tokens, bfq's idling): a run in
                // 3 ms (`BLK_MQ_BUDGET_DELAY`), and bfq's idle timer.
                if self.blk.elv.has_work() {
                    if let Some(t) = self.blk.elv.timer_at() {
                        self.q.push(t.max(self.now), Event::ElvTimer);
                    }
                    self.blk_mq_run_hw_queue_async(BLK_MQ_RESOURCE_DELAY_NS);
                }
            }
        }
        if ctx == Ctx::Kblockd {
            self.blk_mq_kblockd_done();
        }
        self.blk_mq_run_deferred();
    }

    /// Whether the request being issued now goes from kblockd's run (a kworker), not from its
    /// submitting task: the context inside `->queue_rq` (none: the flush machine's request,
    /// which kblockd's requeue work sends).
    pub(crate) fn issuing_on_kblockd(&self) -> bool {
        self.blk.ctx != Some(Ctx::Direct)
    }

    /// Whether the board's one CPU is taken by the context inside `->queue_rq` (running, not
    /// asleep in it), so no other task can be submitting now: with one CPU (`cpus=1`, the
    /// oracle's QEMU machine) a task woken meanwhile runs once the context returns (the
    /// kernel's tasks are not preempted there). Applied under the 6.6+ rule sets, where
    /// tasks dispatch themselves; Linux 6.1's runs keep their calibration (and the oracle's
    /// known gap for several writers: its KNOWN list).
    pub(super) fn blk_mq_cpu_taken(&self) -> bool {
        self.rules.run_inline
            && self.platform.host.cpus == 1
            && self.blk.ctx.is_some()
            && self.blk.parked.is_none()
    }

    /// The tasks that waited for the CPU, in order, while no context runs.
    fn blk_mq_run_deferred(&mut self) {
        while self.blk.ctx.is_none() {
            let Some((job, list)) = self.blk.deferred.pop_front() else {
                return;
            };
            if list.is_empty() {
                self.blk_mq_run_hw_queue_sync(job);
            } else {
                self.blk_mq_issue_direct(list);
            }
        }
    }

    /// `blk_mq_run_hw_queue(hctx, false)` from job `job`'s task (a plug's flush, a direct
    /// issue refused): up to 6.5 kblockd's run (`__blk_mq_delay_run_hw_queue` sent every run
    /// of a `BLK_MQ_F_BLOCKING` queue there); from 6.6 (65a558f66c30) the task dispatches
    /// itself: `hctx->dispatch`, then the scheduler's requests, as kblockd's run would. Another
    /// context inside `->queue_rq` refuses its first request (`mmc_mq_queue_rq` while
    /// `mq->busy`: a requeue), and the queue is run again as after kblockd's refusal.
    /// Simplification: one context dispatches at a time; a task whose run is refused takes
    /// only its first request (the kernel's takes its whole batch first, and gives the rest
    /// back to `hctx->dispatch` alike).
    pub(crate) fn blk_mq_run_hw_queue_sync(&mut self, job: u32) {
        if !self.rules.run_inline || !self.cfg.kernel_dispatch() {
            return self.blk_mq_run_hw_queue_async(0);
        }
        if !self.blk.has_work() {
            return;
        }
        if self.blk_mq_cpu_taken() && self.blk.ctx_job != Some(job) {
            if !self
                .blk
                .deferred
                .iter()
                .any(|d| d.0 == job && d.1.is_empty())
            {
                self.blk.deferred.push_back((job, Vec::new()));
            }
            return;
        }
        match self.blk.ctx {
            Some(Ctx::Direct) if self.blk.ctx_job == Some(job) => {
                // Its own context is still inside (a refusal's re-run, its split I/O): it
                // goes on to the queue's requests once its list is done.
                self.blk.ctx_runs = true;
            }
            Some(_) => {
                let first = if self.blk.dispatch.is_empty() {
                    self.blk
                        .elv
                        .dispatch(&self.reqs, self.now)
                        .map(|r| (r, VecDeque::new()))
                } else {
                    self.blk.restart = true;
                    let mut all = std::mem::take(&mut self.blk.dispatch);
                    all.pop_front().map(|r| (r, all))
                };
                let Some((req, rest)) = first else {
                    return;
                };
                self.stats.requeues += 1;
                self.trace_stage(req, Stage::BlkMq, self.now);
                self.blk_mq_put_driver_tag_of(req);
                if self.blk.last_merge == Some(req) {
                    self.blk.last_merge = None;
                }
                self.blk.dispatch.push_back(req);
                self.blk.dispatch.extend(rest);
                self.blk.dispatch_busy = ewma(self.blk.dispatch_busy, true);
                self.blk_mq_rerun_after_refusal();
            }
            None => {
                self.blk.ctx = Some(Ctx::Direct);
                self.blk.ctx_job = Some(job);
                self.blk.ctx_runs = true;
                self.blk.ctx_queued = false;
                self.blk_mq_dispatch_next(Ctx::Direct);
            }
        }
    }

    /// kblockd's run work has returned; a run asked for meanwhile starts now (or when due).
    fn blk_mq_kblockd_done(&mut self) {
        let k = &mut self.blk.kblockd;
        k.running = false;
        if let Some(t) = k.again.take() {
            k.gen = k.gen.wrapping_add(1);
            let t = t.max(self.now);
            k.at = Some(t);
            let gen = k.gen;
            self.q.push(t, Event::Rerun { gen });
        }
    }

    /// `Event::Rerun`: kblockd runs the hardware queue (`blk_mq_run_work_fn`), unless the timer
    /// was moved since.
    pub(crate) fn blk_mq_rerun(&mut self, gen: u32) {
        if gen != self.blk.kblockd.gen || self.blk.kblockd.at.is_none() {
            return;
        }
        self.blk.kblockd.at = None;
        if !self.cfg.kernel_dispatch() {
            // The fitted dispatch: a context runs unless one is inside `->queue_rq`.
            return self.blk_mq_kick();
        }
        self.blk.kblockd.running = true;
        if self.blk.ctx.is_some() {
            // Another context is inside `->queue_rq`: kblockd's first request is refused (its
            // list goes back whole; the running context's own list is not kblockd's).
            let first = if self.blk.dispatch.is_empty() {
                self.blk
                    .elv
                    .dispatch(&self.reqs, self.now)
                    .map(|r| (r, Vec::new()))
            } else {
                self.blk.restart = true;
                let mut all = std::mem::take(&mut self.blk.dispatch);
                all.pop_front().map(|r| (r, all.into_iter().collect()))
            };
            match first {
                Some((req, rest)) => self.blk_mq_refused(req, Ctx::Kblockd, rest, false),
                None => self.blk_mq_kblockd_done(),
            }
            return;
        }
        self.blk.ctx = Some(Ctx::Kblockd);
        self.blk.ctx_queued = false;
        self.blk_mq_dispatch_next(Ctx::Kblockd);
    }

    /// The fitted dispatch's re-run: one pending at a time, `delay` from now.
    pub(crate) fn blk_mq_fitted_rerun(&mut self, delay: u64) {
        let k = &mut self.blk.kblockd;
        if k.at.is_some() {
            return;
        }
        k.gen = k.gen.wrapping_add(1);
        k.at = Some(self.now + delay);
        let gen = k.gen;
        self.q.push(self.now + delay, Event::Rerun { gen });
    }

    /// Whether job `j`'s thread is asleep inside `->queue_rq` (a direct issue on the legacy
    /// path): it cannot enter its next system call; it is marked to, once it returns.
    pub(crate) fn blk_mq_thread_asleep(&mut self, j: u32) -> bool {
        let asleep = self.blk.ctx == Some(Ctx::Direct)
            && self.blk.ctx_job == Some(j)
            && self.blk.parked.is_some();
        if asleep {
            self.blk.deferred_issue = true;
        }
        asleep
    }

    /// `Event::ElvTimer`: the scheduler's timer (bfq's idle slice) ran out: run the queue.
    pub(crate) fn blk_mq_elv_timer(&mut self) {
        if self.blk.elv.timer_at().is_some_and(|t| t <= self.now) || self.blk.elv.has_work() {
            self.blk_mq_run_hw_queue_async(0);
        }
    }

    /// The mmc queue has room again: a context asleep in `->queue_rq` goes on with its
    /// request: on the legacy path in `mmc_blk_rw_wait`, on any path a flush or discard in
    /// `mmc_blk_wait_for_idle` (hsq: `mmc_hsq_wait_for_idle`, cqhci: `cqhci_wait_for_idle`)
    /// and a read or write behind one (a simplification: the model's flush leaves `->queue_rq`
    /// before it ends, where the kernel's holds `mq->busy` until `mmc_blk_issue_flush`
    /// returns, so another context is refused instead). It retries, and sleeps again if the
    /// queue is still not idle enough.
    pub(crate) fn blk_mq_wake_parked(&mut self) {
        if let Some((req, ctx)) = self.blk.parked.take() {
            self.blk_mq_queue_rq(req, ctx);
        }
    }
}
