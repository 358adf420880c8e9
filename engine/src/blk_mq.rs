//! blk-mq with one hardware queue (block/blk-mq.c), as the mmc driver sets it up: 64 tags
//! (`MMC_QUEUE_DEPTH`), no I/O scheduler merging, `hctx->dispatch` for requests the driver
//! refused with BLK_STS_RESOURCE, and re-runs of the queue when a request completes.
//!
//! A dispatch "context" is one run of `blk_mq_run_hw_queue` -> `blk_mq_dispatch_rq_list` on some
//! CPU (the submitting fio thread, or kblockd for re-runs). It calls `->queue_rq(bd)` for one
//! request at a time; `queue_rq` runs synchronously (its cost is the mmc issue path), then the
//! context takes the next request, until the queue is empty or the driver says RESOURCE.

use std::collections::VecDeque;

use crate::sim::{Event, ReqIdx, Simulator};
use crate::trace::Stage;

/// `MMC_QUEUE_DEPTH` (drivers/mmc/core/queue.h): tags of the mmc blk-mq tag set.
pub const MMC_QUEUE_DEPTH: u16 = 64;
/// `BLK_MQ_RESOURCE_DELAY`: re-run delay when the driver refused with nothing in flight (3 ms).
pub const BLK_MQ_RESOURCE_DELAY_NS: u64 = 3_000_000;

#[derive(Debug)]
pub struct BlkMq {
    free_tags: Vec<u16>,
    /// Requests sleeping in `blk_mq_get_tag` for a free tag.
    pub tag_waiters: VecDeque<ReqIdx>,
    /// Inserted requests not yet dispatched (the software queue).
    pub sw_queue: VecDeque<ReqIdx>,
    /// `hctx->dispatch`: requests the driver refused, dispatched first on the next run.
    pub dispatch: VecDeque<ReqIdx>,
    /// A re-run is scheduled (avoid stacking kblockd work).
    rerun_pending: bool,
    /// Ming Lei's change for packed requests: bd.last is always false and `commit_rqs` is
    /// called at the end of every dispatch round.
    pub force_commit: bool,
}

impl BlkMq {
    pub fn new(force_commit: bool) -> BlkMq {
        BlkMq {
            free_tags: (0..MMC_QUEUE_DEPTH).rev().collect(),
            tag_waiters: VecDeque::new(),
            sw_queue: VecDeque::new(),
            dispatch: VecDeque::new(),
            rerun_pending: false,
            force_commit,
        }
    }
    pub fn tags_in_use(&self) -> u16 {
        MMC_QUEUE_DEPTH - self.free_tags.len() as u16
    }
    fn has_work(&self) -> bool {
        !self.dispatch.is_empty() || !self.sw_queue.is_empty()
    }
}

impl Simulator {
    /// `Event::BlkMqInsert` (`blk_mq_submit_bio`): get a tag (or sleep for one), insert, and run
    /// the hardware queue from the submitting context.
    pub(crate) fn blk_mq_submit(&mut self, req: ReqIdx) {
        self.set_stage(req, Stage::BlkMq);
        match self.blk.free_tags.pop() {
            Some(tag) => {
                self.reqs.get_mut(req).tag = Some(tag);
                self.blk.sw_queue.push_back(req);
                // blk_mq_run_hw_queue from the submitting context, synchronously.
                self.blk_mq_dispatch(None);
            }
            None => self.blk.tag_waiters.push_back(req),
        }
    }

    /// `Event::Dispatch`: one step of a dispatch context. `issued` finished its `queue_rq`.
    pub(crate) fn blk_mq_dispatch(&mut self, issued: Option<ReqIdx>) {
        if let Some(req) = issued {
            let last = !self.blk.force_commit && !self.blk.has_work();
            self.mq.busy = false;
            self.mmc_issue_done(req, last);
        } else if self.mq.busy {
            // Another context is inside queue_rq (mq->busy): it will take this request when it
            // loops, as `blk_mq_dispatch_rq_list` does after a BLK_STS_RESOURCE for busy.
            return;
        }
        let Some(req) = self
            .blk
            .dispatch
            .pop_front()
            .or_else(|| self.blk.sw_queue.pop_front())
        else {
            // Dispatch round over.
            if self.blk.force_commit && issued.is_some() {
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
                self.blk.dispatch.push_front(req);
                self.stats.requeues += 1;
                self.trace_stage(req, Stage::BlkMq, self.now);
                if self.blk.force_commit && issued.is_some() {
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
        if let Some(tag) = self.reqs.get_mut(req).tag.take() {
            self.blk.free_tags.push(tag);
        }
        if let Some(w) = self.blk.tag_waiters.pop_front() {
            let tag = self.blk.free_tags.pop().expect("a tag was just freed");
            self.reqs.get_mut(w).tag = Some(tag);
            self.blk.sw_queue.push_back(w);
        }
        if self.blk.has_work() {
            self.blk_mq_run_hw_queue_async(self.platform.host.rerun_ns);
        }
    }

    /// Schedules a queue run from kblockd after `delay`.
    pub(crate) fn blk_mq_run_hw_queue_async(&mut self, delay: u64) {
        if !self.blk.rerun_pending {
            self.blk.rerun_pending = true;
            self.q.push(self.now + delay, Event::Rerun);
        }
    }

    /// `Event::Rerun`: kblockd runs the hardware queue.
    pub(crate) fn blk_mq_rerun(&mut self) {
        self.blk.rerun_pending = false;
        self.blk_mq_dispatch(None);
    }
}
