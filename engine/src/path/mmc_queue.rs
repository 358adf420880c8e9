//! The mmc block queue (drivers/mmc/core/queue.c and block.c, Linux 6.1): `mmc_mq_queue_rq`
//! decides the issue type (`mmc_issue_type`), keeps `in_flight` per type and refuses with
//! BLK_STS_RESOURCE when the host's window is full (hsq), a DCMD is in flight (CQE), or a
//! queued write is (the Raspberry Pi kernel's `max_posted_writes`); `mmc_blk_mq_issue_rq` builds the request (CMD23 + CMD18/CMD25, REQ_FUA ->
//! reliable write) and runs pre_req (`dma_map_sg`); the completion side (`mmc_blk_hsq_req_done`,
//! `mmc_blk_mq_post_req`, `mmc_blk_mq_dec_in_flight`) ends the request.

use super::controller::HostPath;
use crate::sim::{Event, ReqIdx, Simulator};
use crate::vocab::{HsqDepth, Op, Stage, HSQ_NORMAL_DEPTH};

/// What `->queue_rq` did with a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueueRq {
    /// Accepted: the synchronous issue path takes this long.
    Issued(u64),
    /// The dispatcher sleeps inside `->queue_rq` until the mmc queue has room.
    Sleeps,
    /// BLK_STS_RESOURCE.
    Resource,
}

/// `enum mmc_issue_type` (drivers/mmc/core/queue.h).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MmcIssueType {
    /// MMC_ISSUE_SYNC: flushes and discards (flushes on the CQE without DCMD): alone on the
    /// controller, after the queue is idle (`mmc_blk_wait_for_idle`).
    Sync,
    /// MMC_ISSUE_DCMD: a flush queued in the CQE's direct-command slot beside the data tasks.
    Dcmd,
    /// MMC_ISSUE_ASYNC: reads and writes.
    Async,
}

/// `struct mmc_queue`: the in-flight counts per issue type and the window they are held to.
#[derive(Debug)]
pub struct MmcQueue {
    /// `mq->in_flight[MMC_ISSUE_ASYNC]`: reads and writes past queue_rq, not yet completed.
    in_flight_async: u32,
    /// `mq->in_flight[MMC_ISSUE_SYNC]`: flushes and discards.
    in_flight_sync: u32,
    /// `mq->in_flight[MMC_ISSUE_DCMD]`: a flush in the CQE's DCMD slot (one at a time,
    /// `mmc_cqe_dcmd_busy`).
    in_flight_dcmd: u32,
    /// `mq->pending_writes` (Raspberry Pi kernel): writes past queue_rq, not yet completed.
    pending_writes: u32,
    /// `mq->busy`: a queue_rq is running ("parallel dispatch is not supported").
    busy: bool,
    /// Requests the host finished whose completion has not run ([`host_finished`]).
    ///
    /// [`host_finished`]: MmcQueue::host_finished
    host_done: u32,
    /// `host->hsq_depth`: the hsq window is depth + 1.
    hsq_depth: u32,
    /// Which host path sits below (`mq->use_cqe`, `host->hsq_enabled`): the window depends on
    /// it, and the seam (`controller.rs`) dispatches on it.
    path: HostPath,
}

impl MmcQueue {
    pub fn new(path: HostPath, hsq_depth: HsqDepth) -> MmcQueue {
        let hsq_depth = match hsq_depth {
            HsqDepth::Fixed(n) => n,
            HsqDepth::Dynamic => HSQ_NORMAL_DEPTH,
        };
        MmcQueue {
            in_flight_async: 0,
            in_flight_sync: 0,
            in_flight_dcmd: 0,
            pending_writes: 0,
            busy: false,
            host_done: 0,
            hsq_depth,
            path,
        }
    }

    /// The host path below.
    #[inline(always)]
    pub fn host_path(&self) -> HostPath {
        self.path
    }

    /// `mmc_tot_in_flight`: `mq->in_flight` over the issue types.
    pub fn total_in_flight(&self) -> u32 {
        self.in_flight_async + self.in_flight_sync + self.in_flight_dcmd
    }

    /// `mmc_issue_type` (-> `mmc_cqe_issue_type` on the CQE): a flush is a DCMD when the CQE
    /// sends direct commands (`mmc_cqe_can_dcmd`); flushes and discards are otherwise
    /// synchronous, reads and writes asynchronous.
    pub fn issue_type(&self, op: Op) -> MmcIssueType {
        match (op, self.path) {
            (Op::Flush, HostPath::Cqe { dcmd: true, .. }) => MmcIssueType::Dcmd,
            (Op::Flush | Op::Discard, _) => MmcIssueType::Sync,
            (Op::Read | Op::Write, _) => MmcIssueType::Async,
        }
    }

    /// `host->hsq_depth`.
    pub fn hsq_depth(&self) -> u32 {
        self.hsq_depth
    }

    /// `mmc_hsq_modify_threshold` sets `host->hsq_depth`.
    pub fn set_hsq_depth(&mut self, depth: u32) {
        self.hsq_depth = depth;
    }

    /// Requests the queue accepts at once ([`HostPath::window`]).
    pub fn window(&self) -> u32 {
        self.path.window(self.hsq_depth)
    }

    /// `mq->busy`: a queue_rq is running in some dispatch context.
    #[cfg(test)]
    pub fn busy(&self) -> bool {
        self.busy
    }

    /// The rule of `mmc_mq_queue_rq` + `mmc_blk_mq_issue_rq`: a synchronous request waits,
    /// asleep in `mmc_blk_wait_for_idle`, until nothing is in flight but what the host has
    /// finished (`host_done`: on the CQE `cqhci_wait_for_idle` waits for `qcnt`, which
    /// `cqhci_finish_mrq` decrements in the interrupt, not for the completions); a read or write waits
    /// while one is in flight (its dispatcher is still inside that `->queue_rq`). A DCMD is
    /// refused while another is in flight (`mmc_cqe_dcmd_busy`). A read or write is refused
    /// (hsq: BLK_STS_RESOURCE) or its dispatcher sleeps (legacy: `mmc_blk_rw_wait`) when the
    /// window is full; on the CQE the tag set bounds the queue and only a write beyond
    /// `max_posted_writes` is refused (`mq->pending_writes`, Raspberry Pi kernel). On
    /// acceptance the request counts in flight and the queue is busy.
    pub fn try_queue(&mut self, op: Op) -> QueueRq {
        match self.issue_type(op) {
            MmcIssueType::Sync => {
                if self.total_in_flight() > self.host_done {
                    return QueueRq::Sleeps;
                }
                self.in_flight_sync += 1;
            }
            MmcIssueType::Dcmd => {
                if self.in_flight_sync > 0 {
                    return QueueRq::Sleeps;
                }
                if self.in_flight_dcmd > 0 {
                    return QueueRq::Resource;
                }
                self.in_flight_dcmd += 1;
            }
            MmcIssueType::Async => {
                if self.in_flight_sync > 0 {
                    return QueueRq::Sleeps;
                }
                let refused = match self.path {
                    HostPath::Cqe {
                        max_posted_writes, ..
                    } => op == Op::Write && self.pending_writes >= u32::from(max_posted_writes),
                    HostPath::Legacy { .. } | HostPath::MmcTest { .. } | HostPath::Hsq { .. } => {
                        self.in_flight_async >= self.window()
                    }
                };
                if refused {
                    return match self.path {
                        HostPath::Legacy { .. } | HostPath::MmcTest { .. } => QueueRq::Sleeps,
                        HostPath::Hsq { .. } | HostPath::Cqe { .. } => QueueRq::Resource,
                    };
                }
                self.in_flight_async += 1;
                self.pending_writes += u32::from(op == Op::Write);
            }
        }
        self.busy = true;
        QueueRq::Issued(0)
    }

    /// The host finished a request (out of the CQE's `qcnt`, hsq's slots); its completion
    /// has not run.
    pub fn host_finished(&mut self) {
        self.host_done += 1;
    }

    /// The completion of a request the host had finished has run.
    pub fn finished_completed(&mut self) {
        self.host_done -= 1;
    }

    /// The synchronous part of `mmc_mq_queue_rq` is over (`mq->busy = false`).
    pub fn issue_done(&mut self) {
        self.busy = false;
    }

    /// `mmc_blk_mq_dec_in_flight` (and `mq->pending_writes--`).
    pub fn complete(&mut self, op: Op) {
        match self.issue_type(op) {
            MmcIssueType::Sync => self.in_flight_sync -= 1,
            MmcIssueType::Dcmd => self.in_flight_dcmd -= 1,
            MmcIssueType::Async => {
                self.in_flight_async -= 1;
                self.pending_writes -= u32::from(op == Op::Write);
            }
        }
    }

    /// Writes queued past queue_rq and not completed (`mq->pending_writes`).
    #[cfg(test)]
    pub fn pending_writes(&self) -> u32 {
        self.pending_writes
    }
}

impl Simulator {
    /// `mmc_mq_queue_rq`: accepted with the cost of the synchronous issue path, or not.
    pub(crate) fn mmc_queue_rq(&mut self, req: ReqIdx) -> QueueRq {
        let got = self.mq.try_queue(self.reqs.get(req).op);
        if got != QueueRq::Issued(0) {
            return got;
        }
        let r = self.reqs.get_mut(req);
        r.in_mmc = true;
        let op = r.op;
        let cost = self.platform.host.issue_ns + self.dma_map_cost(req) + self.ctl_request_cost(op);
        self.series
            .set_inflight(self.now, self.mq.total_in_flight() as u64);
        QueueRq::Issued(cost)
    }

    /// pre_req (`mmc_pre_req` -> `dma_map_sg`) of one request.
    pub(crate) fn dma_map_cost(&self, req: ReqIdx) -> u64 {
        let r = self.reqs.get(req);
        let h = &self.platform.host;
        match r.op {
            Op::Flush | Op::Discard => 0,
            _ => h.dma_map_ns + h.dma_per_kib_ns * r.len / 2048,
        }
    }

    /// post_req (`mmc_post_req` -> `dma_unmap_sg`) of one request.
    pub(crate) fn dma_unmap_cost(&self, req: ReqIdx) -> u64 {
        let r = self.reqs.get(req);
        let h = &self.platform.host;
        let fixed = match r.op {
            Op::Read => h.dma_unmap_read_ns,
            Op::Write => h.dma_unmap_write_ns,
            Op::Flush | Op::Discard => return 0,
        };
        fixed + h.dma_per_kib_ns * r.len / 2048
    }

    /// End of `mmc_blk_mq_issue_rq`: the request goes to the host's queue.
    pub(crate) fn mmc_issue_done(&mut self, req: ReqIdx, last: bool) {
        let cause = self.ctl_queued_behind();
        self.stage_cause(req, Stage::HostQueue, self.now, cause);
        if self.reqs.get(req).op == Op::Flush && !self.cfg.cache {
            // `mmc_blk_issue_flush` -> `mmc_flush_cache` with the cache off (an eMMC with
            // reliable write keeps the queue's write-cache flag): no CMD6, done at once.
            self.q.push(self.now, Event::Completed { req });
            return;
        }
        if self.mq.issue_type(self.reqs.get(req).op) == MmcIssueType::Sync {
            // `mmc_blk_issue_flush` -> `mmc_wait_for_req` (and `mmc_blk_issue_discard_rq` ->
            // `mmc_erase` -> `mmc_wait_for_cmd`): straight to the controller, which is idle
            // because nothing else is in flight.
            self.legacy_request(req);
            return;
        }
        // A read or write, or a DCMD flush (`mmc_blk_cqe_issue_flush`): the path's queue.
        self.ctl_request(req, last);
    }

    /// `mmc_mq_commit_rqs` (-> `mmc_hsq_commit_rqs`): the dispatch round is over.
    pub(crate) fn mmc_commit_rqs(&mut self) {
        self.ctl_commit_rqs();
    }

    /// `Event::Completed`: post_req and `blk_mq_complete_request` are done; in_flight--. The
    /// flush machine takes its own requests (`blk_flush_end_io`); the rest end and wake their
    /// submitters; a dispatcher asleep in `->queue_rq` goes on.
    pub(crate) fn mmc_complete(&mut self, req: ReqIdx) {
        self.mq.complete(self.reqs.get(req).op);
        self.ctl_completed(req);
        self.series
            .set_inflight(self.now, self.mq.total_in_flight() as u64);
        self.set_stage(req, Stage::Complete);
        if !self.blk_flush_end_io(req) {
            self.blk_mq_end_request(req);
            self.mmc_reap_later(req);
        }
        self.blk_mq_wake_parked();
    }

    /// fio's thread wakes in its system call to reap `req` (sometimes another task holds the
    /// CPU first).
    pub(crate) fn mmc_reap_later(&mut self, req: ReqIdx) {
        let reap = self.jitter.wakeup(self.platform.host.reap_ns);
        self.reqs.get_mut(req).preempted_ns = self.jitter.last_preempt_ns;
        self.q.push(self.now + reap, Event::Reaped { req });
    }
}

#[cfg(test)]
mod tests;
