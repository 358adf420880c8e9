//! blk-mq with one hardware queue (block/blk-mq.c), as the mmc driver sets it up: 64 tags
//! (`MMC_QUEUE_DEPTH`), no I/O scheduler merging, `hctx->dispatch` for requests the driver
//! refused with BLK_STS_RESOURCE, and re-runs of the queue when a request completes.
//!
//! A dispatch "context" is one run of `blk_mq_run_hw_queue` -> `blk_mq_dispatch_rq_list` on some
//! CPU (the submitting fio thread, or kblockd for re-runs). It calls `->queue_rq(bd)` for one
//! request at a time; `queue_rq` runs synchronously (its cost is the mmc issue path), then the
//! context takes the next request, until the queue is empty or the driver says RESOURCE.
//!
//! Tags (`blk_mq_get_tag` in block/blk-mq-tag.c, no I/O scheduler: the tag taken at submission
//! is the driver tag, `mrq->tag`, and hsq's slot) come from [`SbitmapQueue`] on the submitting
//! thread's CPU; `blk_mq_put_tag` frees them with that same CPU (`rq->mq_ctx->cpu`). A request
//! the driver refuses keeps its tag in `hctx->dispatch` (`blk_mq_put_driver_tag` only drops a
//! driver tag when a scheduler tag exists).

use std::collections::VecDeque;

use super::sbitmap::SbitmapQueue;
use crate::sim::{Event, ReqIdx, Simulator};
use crate::vocab::{Stage, MMC_QUEUE_DEPTH};

/// `BLK_MQ_RESOURCE_DELAY`: re-run delay when the driver refused with nothing in flight (3 ms).
pub const BLK_MQ_RESOURCE_DELAY_NS: u64 = 3_000_000;

/// The CPU job clone `job` submits from: the scheduler spreads fio's threads over the board's
/// `cpus` (`HostTiming::cpus`), one per CPU while there are enough.
pub fn job_cpu(job: u32, cpus: u32) -> u16 {
    (job % cpus.max(1)) as u16
}

/// One hardware context (`struct blk_mq_hw_ctx`) with its tag set and software queue.
#[derive(Debug)]
pub struct BlkMq {
    tags: SbitmapQueue,
    /// Requests sleeping in `blk_mq_get_tag` for a free tag, with their CPU.
    tag_waiters: VecDeque<(ReqIdx, u16)>,
    /// Inserted requests not yet dispatched (the software queue).
    sw_queue: VecDeque<ReqIdx>,
    /// `hctx->dispatch`: requests the driver refused, dispatched first on the next run.
    dispatch: VecDeque<ReqIdx>,
    /// A re-run is scheduled (avoid stacking kblockd work).
    rerun_pending: bool,
    /// Ming Lei's change for packed requests: bd.last is always false and `commit_rqs` is
    /// called at the end of every dispatch round.
    force_commit: bool,
}

impl BlkMq {
    /// The tag set for `cpus` CPUs (each has its own allocation hint).
    pub fn new(force_commit: bool, cpus: u32, rng: &mut crate::rng::Rng) -> BlkMq {
        BlkMq {
            tags: SbitmapQueue::new(MMC_QUEUE_DEPTH, cpus.clamp(1, u16::MAX as u32) as u16, rng),
            tag_waiters: VecDeque::new(),
            sw_queue: VecDeque::new(),
            dispatch: VecDeque::new(),
            rerun_pending: false,
            force_commit,
        }
    }

    pub fn tags_in_use(&self) -> u16 {
        self.tags.in_use()
    }

    /// Requests wait in `hctx->dispatch` or the software queue.
    pub fn has_work(&self) -> bool {
        !self.dispatch.is_empty() || !self.sw_queue.is_empty()
    }

    /// `commit_rqs` ends every dispatch round (packed requests).
    pub fn force_commit(&self) -> bool {
        self.force_commit
    }

    /// `blk_mq_get_tag` + insert: Some(tag) when a tag was free (the request joins the software
    /// queue), None when the request sleeps for one.
    pub fn submit(&mut self, req: ReqIdx, cpu: u16) -> Option<u16> {
        match self.tags.get(cpu) {
            Some(tag) => {
                self.sw_queue.push_back(req);
                Some(tag)
            }
            None => {
                self.tag_waiters.push_back((req, cpu));
                None
            }
        }
    }

    /// The next request a dispatch run hands to `queue_rq`: `hctx->dispatch` first.
    pub fn next_to_dispatch(&mut self) -> Option<ReqIdx> {
        self.dispatch
            .pop_front()
            .or_else(|| self.sw_queue.pop_front())
    }

    /// The driver said BLK_STS_RESOURCE: back to the head of `hctx->dispatch`.
    pub fn requeue(&mut self, req: ReqIdx) {
        self.dispatch.push_front(req);
    }

    /// `blk_mq_put_tag(tags, rq->mq_ctx, tag)`: frees `tag` (if the request had one) on the
    /// CPU the request was allocated on (`cpu`), and wakes the first tag waiter,
    /// which takes a tag and joins the software queue. Returns the woken request and its tag.
    pub fn put_tag(&mut self, tag: Option<u16>, cpu: u16) -> Option<(ReqIdx, u16)> {
        if let Some(tag) = tag {
            self.tags.clear(tag, cpu);
        }
        let &(w, wcpu) = self.tag_waiters.front()?;
        let tag = self.tags.get(wcpu)?;
        self.tag_waiters.pop_front();
        self.sw_queue.push_back(w);
        Some((w, tag))
    }

    /// Whether a kblockd re-run must be scheduled (none is pending yet); marks one pending.
    pub fn want_rerun(&mut self) -> bool {
        !std::mem::replace(&mut self.rerun_pending, true)
    }

    /// The scheduled re-run starts.
    pub fn rerun_started(&mut self) {
        self.rerun_pending = false;
    }

    /// `hctx->dispatch`, in order.
    pub fn dispatch_list(&self) -> impl Iterator<Item = &ReqIdx> {
        self.dispatch.iter()
    }

    /// The software queue, then the requests sleeping for a tag.
    pub fn waiting(&self) -> impl Iterator<Item = &ReqIdx> {
        self.sw_queue
            .iter()
            .chain(self.tag_waiters.iter().map(|(r, _)| r))
    }
}

impl Simulator {
    /// `Event::BlkMqInsert` (`blk_mq_submit_bio`): get a tag (or sleep for one), insert, and run
    /// the hardware queue from the submitting context.
    pub(crate) fn blk_mq_submit(&mut self, req: ReqIdx) {
        self.set_stage(req, Stage::BlkMq);
        let cpu = self.reqs.get(req).cpu;
        if let Some(tag) = self.blk.submit(req, cpu) {
            self.reqs.get_mut(req).tag = Some(tag);
            // blk_mq_run_hw_queue from the submitting context, synchronously.
            self.blk_mq_dispatch(None);
        }
    }

    /// `Event::Dispatch`: one step of a dispatch context. `issued` finished its `queue_rq`.
    pub(crate) fn blk_mq_dispatch(&mut self, issued: Option<ReqIdx>) {
        let force_commit = self.blk.force_commit();
        if let Some(req) = issued {
            let last = !force_commit && !self.blk.has_work();
            self.mq.issue_done();
            self.mmc_issue_done(req, last);
        } else if self.mq.busy() {
            // Another context is inside queue_rq (mq->busy): it will take this request when it
            // loops, as `blk_mq_dispatch_rq_list` does after a BLK_STS_RESOURCE for busy.
            return;
        }
        let Some(req) = self.blk.next_to_dispatch() else {
            // Dispatch round over.
            if force_commit && issued.is_some() {
                self.mmc_commit_rqs();
            }
            return;
        };
        match self.mmc_queue_rq(req) {
            Ok(cost) => {
                self.set_stage(req, Stage::Issue);
                self.q
                    .push(self.now + cost, Event::Dispatch { issued: Some(req) });
            }
            Err(()) => {
                // BLK_STS_RESOURCE: back to the head of hctx->dispatch; SCHED_RESTART re-runs
                // the queue when something completes (or after 3 ms if nothing is in flight).
                self.blk.requeue(req);
                self.stats.requeues += 1;
                self.trace_stage(req, Stage::BlkMq, self.now);
                if force_commit && issued.is_some() {
                    self.mmc_commit_rqs();
                }
                if self.mq.total_in_flight() == 0 {
                    self.blk_mq_run_hw_queue_async(BLK_MQ_RESOURCE_DELAY_NS);
                }
            }
        }
    }

    /// A request finished (`blk_mq_end_request`): free its tag, wake a tag waiter, and re-run
    /// the queue if requests wait (`blk_mq_run_hw_queues(q, true)` from
    /// `mmc_blk_mq_dec_in_flight`).
    pub(crate) fn blk_mq_end_request(&mut self, req: ReqIdx) {
        let cpu = self.reqs.get(req).cpu;
        let tag = self.reqs.get_mut(req).tag.take();
        if let Some((w, tag)) = self.blk.put_tag(tag, cpu) {
            self.reqs.get_mut(w).tag = Some(tag);
        }
        if self.blk.has_work() {
            self.blk_mq_run_hw_queue_async(self.platform.host.rerun_ns);
        }
    }

    /// Schedules a queue run from kblockd after `delay`.
    pub(crate) fn blk_mq_run_hw_queue_async(&mut self, delay: u64) {
        if self.blk.want_rerun() {
            self.q.push(self.now + delay, Event::Rerun);
        }
    }

    /// `Event::Rerun`: kblockd runs the hardware queue.
    pub(crate) fn blk_mq_rerun(&mut self) {
        self.blk.rerun_started();
        self.blk_mq_dispatch(None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_run_out_then_waiters_get_the_freed_tag_in_order() {
        let mut b = BlkMq::new(false, 8, &mut crate::rng::stream(1, 1));
        let mut tags: Vec<u16> = (0..MMC_QUEUE_DEPTH as ReqIdx)
            .map(|r| b.submit(r, 0).expect("a free tag"))
            .collect();
        tags.sort_unstable();
        assert_eq!(
            tags,
            (0..MMC_QUEUE_DEPTH).collect::<Vec<_>>(),
            "every tag once"
        );
        assert_eq!(b.tags_in_use(), MMC_QUEUE_DEPTH);
        assert_eq!(b.submit(100, 1), None);
        assert_eq!(b.submit(101, 2), None);
        assert_eq!(b.put_tag(Some(17), 3), Some((100, 17)));
        assert_eq!(b.tags_in_use(), MMC_QUEUE_DEPTH);
        assert_eq!(b.waiting().last(), Some(&101));
    }

    #[test]
    fn refused_requests_are_dispatched_first() {
        let mut b = BlkMq::new(false, 8, &mut crate::rng::stream(1, 1));
        b.submit(1, 0);
        b.submit(2, 0);
        let first = b.next_to_dispatch().expect("queued");
        assert_eq!(first, 1);
        b.requeue(first);
        assert_eq!(b.dispatch_list().copied().collect::<Vec<_>>(), vec![1]);
        assert_eq!(b.next_to_dispatch(), Some(1));
        assert_eq!(b.next_to_dispatch(), Some(2));
        assert!(!b.has_work());
    }

    #[test]
    fn one_rerun_at_a_time() {
        let mut b = BlkMq::new(true, 8, &mut crate::rng::stream(1, 1));
        assert!(b.want_rerun());
        assert!(!b.want_rerun());
        b.rerun_started();
        assert!(b.want_rerun());
        assert!(b.force_commit());
    }
}
