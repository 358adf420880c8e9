//! blk-mq with one hardware queue (block/blk-mq.c, blk-mq-sched.c, blk-mq-tag.c, Linux 6.1), as
//! the mmc driver sets it up (`mmc_init_queue`): 64 tags (`MMC_QUEUE_DEPTH`; with command
//! queueing the CQE's depth, `HostPath::tag_set_depth`), `BLK_MQ_F_BLOCKING` (its
//! `->queue_rq` may sleep, so every asynchronous queue run is kblockd's work), an I/O scheduler
//! in front of the driver (`path/elevator/`), `hctx->dispatch` for requests the driver refused.
//!
//! - [`submit`]: `blk_mq_submit_bio`: a bio merges into a waiting request (the plug's last, then
//!   the scheduler's; `blk_mq_attempt_bio_merge`, block/blk-merge.c in `path/blk_merge.rs`), or
//!   takes a tag and is plugged, inserted into the scheduler and left to kblockd, or issued
//!   directly from the submitting thread (`blk_mq_try_issue_directly`: no scheduler, the hardware
//!   context not busy).
//! - [`dispatch`]: a dispatch context (the submitting thread or kblockd) hands requests to
//!   `->queue_rq` one at a time (`blk_mq_dispatch_rq_list`); a refusal (BLK_STS_RESOURCE) puts
//!   the request back on `hctx->dispatch` (a requeue, as `block_rq_requeue` counts it), makes the
//!   context busy (`dispatch_busy`) and re-runs the queue by kblockd: at once, or after 3 ms once
//!   SCHED_RESTART is set (then a completion restarts it first). kblockd's run is one delayed work
//!   item (`hctx->run_work`): asking again moves its timer (`kblockd_mod_delayed_work_on`).
//!
//! Tags (`blk_mq_get_tag`): without a scheduler the tag taken at submission is the driver tag
//! (`mrq->tag`, and hsq's slot) from [`SbitmapQueue`] on the submitting thread's CPU; with one, a
//! request takes one of `nr_requests` scheduler tags at submission and the driver tag at dispatch
//! (`blk_mq_get_driver_tag`), dropped again when the driver refuses it
//! (`__blk_mq_requeue_request` -> `blk_mq_put_driver_tag`). `blk_mq_put_tag` frees a tag with
//! the CPU the request was allocated on (`rq->mq_ctx->cpu`).

mod dispatch;
mod submit;

use std::collections::VecDeque;

use super::elevator::Elevator;
use super::sbitmap::SbitmapQueue;
use crate::sim::{Event, ReqIdx, Simulator};

/// `BLK_MQ_RESOURCE_DELAY` (and `BLK_MQ_BUDGET_DELAY`): the delayed re-run, 3 ms.
pub const BLK_MQ_RESOURCE_DELAY_NS: u64 = 3_000_000;

/// The CPU job clone `job` submits from: the scheduler spreads fio's threads over the board's
/// `cpus` (`HostTiming::cpus`), one per CPU while there are enough.
pub fn job_cpu(job: u32, cpus: u32) -> u16 {
    (job % cpus.max(1)) as u16
}

/// Who runs a dispatch: the submitting thread (direct issue, a plug's flush) or kblockd.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ctx {
    Direct,
    Kblockd,
}

/// Where a request stands in its submitter's plug (`struct blk_plug`, held across one
/// `io_submit` of more than two I/Os, or one `pwrite` on the block device).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Plug {
    #[default]
    None,
    /// Plugged; more bios of the same submission follow.
    Open,
    /// The submission's last bio: the plug is flushed after it (`blk_finish_plug`).
    Last,
    /// The last bio of a synchronous write (`blkdev_write_iter` plugs the block device's
    /// writes): its thread sleeps for it inside the plug, which is flushed as it sleeps
    /// (`sched_submit_work` -> `blk_flush_plug(plug, true)`): kblockd issues what it holds.
    Sleeps,
}

/// `hctx->run_work` on kblockd.
#[derive(Debug, Default)]
struct Kblockd {
    /// When the pending run starts, and its generation (an `Event::Rerun` of another one is
    /// stale: the timer was moved).
    at: Option<u64>,
    gen: u32,
    running: bool,
    /// Asked again while running: the time it may start again.
    again: Option<u64>,
}

/// One hardware context (`struct blk_mq_hw_ctx`) with its tag sets and scheduler.
#[derive(Debug)]
pub struct BlkMq {
    tags: SbitmapQueue,
    /// Free scheduler tags (`nr_requests`), when a scheduler is attached.
    sched_free: Option<u32>,
    /// Requests sleeping in `blk_mq_get_tag` for a free tag, with their CPU.
    tag_waiters: VecDeque<(ReqIdx, u16)>,
    /// `hctx->dispatch`: requests the driver refused, dispatched first on the next run.
    dispatch: VecDeque<ReqIdx>,
    pub(crate) elv: Elevator,
    /// `hctx->dispatch_busy`: an EWMA of refusals; while non-zero, new requests are inserted
    /// and left to kblockd, one per dispatch.
    dispatch_busy: u32,
    kblockd: Kblockd,
    /// The running dispatch context and what it still holds (a plug's requests, or the batch
    /// kblockd took from the scheduler), with whether it queued anything yet.
    ctx: Option<Ctx>,
    ctx_list: VecDeque<ReqIdx>,
    ctx_queued: bool,
    /// A context asleep in the legacy path's `->queue_rq` (`mmc_blk_rw_wait`) with this request.
    pub(crate) parked: Option<(ReqIdx, Ctx)>,
    /// The job whose thread runs the direct context, and whether it wanted to issue its next
    /// I/O while asleep in it (it does once the context returns).
    pub(crate) ctx_job: Option<u32>,
    pub(crate) deferred_issue: bool,
    /// Its plug was flushed for its sleep while it was still inside `->queue_rq`: kblockd is
    /// woken when it returns.
    pub(crate) kick_on_return: bool,
    /// The direct context runs the queue (`blk_mq_run_hw_queue(hctx, false)` in the caller's
    /// context, from Linux 6.6): once its own list is done it takes `hctx->dispatch` and the
    /// scheduler's requests as kblockd's run does.
    ctx_runs: bool,
    /// One CPU, taken by the running context (6.6+ rule sets): tasks that want to run the
    /// queue (an empty list) or issue their plug's requests directly, in order; each goes when
    /// the context returns (`Simulator::blk_mq_cpu_taken`).
    deferred: VecDeque<(u32, Vec<ReqIdx>)>,
    /// BLK_MQ_S_SCHED_RESTART: re-run the queue when a request completes.
    restart: bool,
    /// The fitted dispatch: a request the driver refused with BLK_STS_RESOURCE waits on
    /// `hctx->dispatch` (not one the legacy path's sleeping dispatcher holds back): new
    /// submissions leave it to kblockd's run, as `hctx->dispatch_busy` makes the kernel do.
    resource_wait: bool,
    /// Ming Lei's change for packed requests: bd.last is always false and `commit_rqs` is
    /// called at the end of every dispatch round.
    force_commit: bool,
    /// Open plugs, by job, and the lists of flushed ones kept for the next (no allocation per
    /// plug).
    plugs: Vec<(u32, Vec<ReqIdx>)>,
    spare_plugs: Vec<Vec<ReqIdx>>,
    /// `queue/nomerges` (0, 1, 2) and `q->last_merge` (the one-hit cache).
    pub(crate) nomerges: u8,
    pub(crate) last_merge: Option<ReqIdx>,
    /// `queue/nr_requests`.
    nr_requests: u32,
}

/// The EWMA of `blk_mq_update_dispatch_busy`: weight 8, a refusal adds 16.
fn ewma(busy: u32, refused: bool) -> u32 {
    if busy == 0 && !refused {
        return 0;
    }
    (busy * 7 + if refused { 16 } else { 0 }) / 8
}

impl BlkMq {
    /// The tag set of `depth` tags for `cpus` CPUs (each has its own allocation hint), with
    /// `elv` in front and `nr_requests` scheduler tags (unused under `none`).
    pub fn new(
        depth: u16,
        force_commit: bool,
        cpus: u32,
        elv: Elevator,
        nr_requests: u32,
        rng: &mut crate::rng::Rng,
    ) -> BlkMq {
        let sched_free = elv.is_elevator().then_some(nr_requests);
        BlkMq {
            tags: SbitmapQueue::new(depth, cpus.clamp(1, u16::MAX as u32) as u16, rng),
            sched_free,
            tag_waiters: VecDeque::new(),
            dispatch: VecDeque::new(),
            elv,
            dispatch_busy: 0,
            kblockd: Kblockd::default(),
            ctx: None,
            ctx_list: VecDeque::new(),
            ctx_queued: false,
            parked: None,
            ctx_job: None,
            deferred_issue: false,
            kick_on_return: false,
            ctx_runs: false,
            deferred: VecDeque::new(),
            restart: false,
            resource_wait: false,
            force_commit,
            plugs: Vec::new(),
            spare_plugs: Vec::new(),
            nomerges: 0,
            last_merge: None,
            nr_requests,
        }
    }

    pub fn tags_in_use(&self) -> u16 {
        self.tags.in_use()
    }

    /// `tag_set.queue_depth`.
    pub fn tags_total(&self) -> u16 {
        self.tags.depth()
    }

    /// `blk_mq_hctx_has_pending`: requests wait on `hctx->dispatch` or in the scheduler.
    pub fn has_work(&self) -> bool {
        !self.dispatch.is_empty() || self.elv.has_work()
    }

    /// Whether requests take a scheduler tag at submission (a scheduler is attached).
    pub fn has_sched_tags(&self) -> bool {
        self.sched_free.is_some()
    }

    /// `blk_mq_get_tag` at submission: a scheduler tag (Some(None)) or the driver tag
    /// (Some(Some(tag))); None when the request sleeps for one.
    fn get_tag(&mut self, req: ReqIdx, cpu: u16) -> Option<Option<u16>> {
        let got = match &mut self.sched_free {
            Some(free) if *free > 0 && self.tag_waiters.is_empty() => {
                *free -= 1;
                Some(None)
            }
            Some(_) => None,
            None => self.tags.get(cpu).map(Some),
        };
        if got.is_none() {
            self.tag_waiters.push_back((req, cpu));
        }
        got
    }

    /// `blk_mq_get_driver_tag` at dispatch (with a scheduler).
    fn get_driver_tag(&mut self, cpu: u16) -> Option<u16> {
        self.tags.get(cpu)
    }

    /// `blk_mq_put_driver_tag` / `blk_mq_put_tag`: frees `tag` on `cpu`.
    fn put_driver_tag(&mut self, tag: u16, cpu: u16) {
        self.tags.clear(tag, cpu);
    }

    /// The request leaves the queue: its driver tag (if it has one) and its scheduler tag (if
    /// `sched`) are freed, and the first tag waiter takes one: returned with its tag.
    pub fn put_tags(
        &mut self,
        tag: Option<u16>,
        sched: bool,
        cpu: u16,
    ) -> Option<(ReqIdx, Option<u16>)> {
        if let Some(tag) = tag {
            self.tags.clear(tag, cpu);
        }
        if sched {
            if let Some(free) = &mut self.sched_free {
                *free += 1;
            }
        }
        let &(w, wcpu) = self.tag_waiters.front()?;
        let got = match &mut self.sched_free {
            Some(free) if *free > 0 => {
                *free -= 1;
                Some(None)
            }
            Some(_) => None,
            None => self.tags.get(wcpu).map(Some),
        }?;
        self.tag_waiters.pop_front();
        Some((w, got))
    }

    /// `hctx->dispatch`, in order.
    pub fn dispatch_list(&self) -> impl Iterator<Item = &ReqIdx> {
        self.dispatch.iter()
    }

    /// The scheduler's (or the software queues') requests, the open plugs, then the requests
    /// sleeping for a tag.
    pub fn waiting(&self) -> Vec<ReqIdx> {
        let mut v = self.elv.waiting();
        v.extend(self.plugs.iter().flat_map(|(_, p)| p.iter().copied()));
        v.extend(self.ctx_list.iter().copied());
        v.extend(self.tag_waiters.iter().map(|&(r, _)| r));
        v
    }

    /// `blk_mq_request_bypass_insert`: around the scheduler onto `hctx->dispatch` (the flush
    /// machine's requests; `at_head` for a flush sequence's).
    pub fn bypass_insert(&mut self, req: ReqIdx, at_head: bool) {
        if at_head {
            self.dispatch.push_front(req);
        } else {
            self.dispatch.push_back(req);
        }
    }

    /// `queue/nr_requests`.
    pub fn nr_requests(&self) -> u32 {
        self.nr_requests
    }
}

impl Simulator {
    /// A request finished (`blk_mq_end_request` -> `blk_mq_free_request`): its tags are freed, a
    /// tag waiter woken, the scheduler told, SCHED_RESTART honoured; then the mmc driver's
    /// `mmc_blk_mq_dec_in_flight` re-runs the queue (`blk_mq_run_hw_queues(q, true)`).
    pub(crate) fn blk_mq_end_request(&mut self, req: ReqIdx) {
        self.blk_account_io_done(req);
        let r = self.reqs.get_mut(req);
        let (cpu, sched) = (r.cpu, std::mem::take(&mut r.sched_tag));
        let tag = r.tag.take();
        let (op, job, t_alloc, t_dispatch) = (r.op, r.job, r.t_alloc, r.t_dispatch);
        let woken = self.blk.put_tags(tag, sched, cpu);
        self.blk.elv.finish(req);
        if !self.cfg.kernel_dispatch() {
            // The fitted dispatch: the woken request joins the software queue; the queue is
            // re-run from the completion if requests wait.
            if let Some((w, tag)) = woken {
                self.reqs.get_mut(w).tag = tag;
                self.blk.elv.insert(w, &self.reqs, self.now);
            }
            return self.blk_mq_sched_restart();
        }
        if let Some((w, tag)) = woken {
            self.blk_mq_got_tag(w, tag);
        }
        if self.blk.elv.is_elevator() && op != crate::vocab::Op::Flush {
            self.blk
                .elv
                .completed(op, job, t_alloc, t_dispatch, self.now);
        }
        self.blk_mq_sched_restart();
        self.blk_mq_run_hw_queue_async(0);
    }

    /// `blk_mq_sched_restart` (block/blk-mq-sched.c), from a completion: the queue runs again
    /// if SCHED_RESTART is set (the fitted dispatch: if requests wait).
    pub(crate) fn blk_mq_sched_restart(&mut self) {
        if !self.cfg.kernel_dispatch() {
            if self.blk.has_work() {
                self.blk_mq_fitted_rerun(self.platform.host.rerun_ns);
            }
            return;
        }
        if std::mem::take(&mut self.blk.restart) {
            self.blk_mq_run_hw_queue_async(0);
        }
    }

    /// `blk_mq_put_driver_tag`: with a scheduler tag held, the driver tag goes back now.
    pub(crate) fn blk_mq_put_driver_tag_of(&mut self, req: ReqIdx) {
        let r = self.reqs.get_mut(req);
        if r.sched_tag {
            if let Some(tag) = r.tag.take() {
                let cpu = r.cpu;
                self.blk.put_driver_tag(tag, cpu);
            }
        }
    }

    /// `blk_mq_run_hw_queue(hctx, true)` (or a delayed run): kblockd's run work starts `delay`
    /// from now plus its wake-up (`rerun_ns`), if requests wait; a run asked for while one runs
    /// follows it. A pending run goes through `kblockd_mod_delayed_work_on` (6.1's
    /// `__blk_mq_delay_run_hw_queue` -> `mod_delayed_work_on`): with a delay its timer is moved
    /// to the new expiry, later or earlier; with none the work is queued at once, so a run
    /// already due by then keeps its time (re-queued on kblockd's worklist, whose worker is
    /// already waking), and one due later (a delayed timer) is brought forward.
    #[inline]
    pub(crate) fn blk_mq_run_hw_queue_async(&mut self, delay: u64) {
        if !self.blk.has_work() {
            return;
        }
        let k = &mut self.blk.kblockd;
        if k.running {
            let t = self.now + delay;
            k.again = Some(k.again.map_or(t, |a| a.min(t)));
            return;
        }
        let t = self.now + delay + self.platform.host.rerun_ns;
        if delay == 0 && k.at.is_some_and(|p| p <= t) {
            return;
        }
        self.blk_mq_arm_rerun(t);
    }

    /// [`blk_mq_run_hw_queue_async`](Self::blk_mq_run_hw_queue_async)'s timer (re)armed for
    /// `t`: apart, so that the checks before it, which end most calls, inline where it is called.
    #[inline(never)]
    fn blk_mq_arm_rerun(&mut self, t: u64) {
        let k = &mut self.blk.kblockd;
        k.gen = k.gen.wrapping_add(1);
        k.at = Some(t);
        let gen = k.gen;
        self.q.push(t, Event::Rerun { gen });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::path::elevator::{Elevator, Tunables};
    use crate::vocab::{IoSched, MMC_QUEUE_DEPTH};

    fn blk(s: IoSched, nr: u32) -> BlkMq {
        let elv = Elevator::new(s, Tunables::of(&Default::default()));
        BlkMq::new(
            MMC_QUEUE_DEPTH,
            false,
            8,
            elv,
            nr,
            &mut crate::rng::stream(1, 1),
        )
    }

    #[test]
    fn without_a_scheduler_the_submission_tag_is_the_driver_tag() {
        let mut b = blk(IoSched::None, 64);
        let mut tags: Vec<u16> = (0..MMC_QUEUE_DEPTH as ReqIdx)
            .map(|r| b.get_tag(r, 0).expect("a free tag").expect("a driver tag"))
            .collect();
        tags.sort_unstable();
        assert_eq!(
            tags,
            (0..MMC_QUEUE_DEPTH).collect::<Vec<_>>(),
            "every tag once"
        );
        assert_eq!(b.get_tag(100, 1), None);
        assert_eq!(b.get_tag(101, 2), None);
        assert_eq!(b.put_tags(Some(17), false, 3), Some((100, Some(17))));
        assert_eq!(b.waiting().last(), Some(&101));
    }

    #[test]
    fn with_a_scheduler_nr_requests_bound_the_queue_and_driver_tags_wait_for_dispatch() {
        let mut b = blk(IoSched::MqDeadline, 128);
        for r in 0..128 {
            assert_eq!(
                b.get_tag(r, 0),
                Some(None),
                "a scheduler tag, no driver tag yet"
            );
        }
        assert_eq!(b.tags_in_use(), 0);
        assert_eq!(b.get_tag(200, 0), None, "nr_requests reached");
        assert_eq!(b.put_tags(None, true, 0), Some((200, None)));
        assert!(b.get_driver_tag(0).is_some());
        assert_eq!(b.tags_in_use(), 1);
    }

    #[test]
    fn dispatch_busy_decays_as_the_kernel_s_ewma() {
        let mut e = ewma(0, true);
        assert_eq!(e, 2);
        e = ewma(e, true);
        assert_eq!(e, 3);
        assert_eq!(ewma(ewma(e, false), false), 1);
        assert_eq!(ewma(1, false), 0);
        assert_eq!(ewma(0, false), 0);
    }
}
