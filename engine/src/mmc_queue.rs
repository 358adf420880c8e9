//! The mmc block queue (drivers/mmc/core/queue.c and block.c): `mmc_mq_queue_rq` decides the
//! issue type, keeps `in_flight` per type and refuses with BLK_STS_RESOURCE when the host's
//! window is full; `mmc_blk_mq_issue_rq` builds the request (CMD23 + CMD18/CMD25, REQ_FUA ->
//! reliable write) and runs pre_req (`dma_map_sg`); the completion side (`mmc_blk_hsq_req_done`,
//! `mmc_blk_mq_post_req`, `mmc_blk_mq_dec_in_flight`) ends the request.

use crate::scenario::{HsqDepth, MmcPath};
use crate::sim::request::Op;
use crate::sim::{Event, ReqIdx, Simulator};
use crate::trace::Stage;

/// `HSQ_PACKED_QUEUE_DEPTH` (packed-request RFC, mmc_hsq.c): with packing, hsq takes up to 64.
pub const HSQ_PACKED_QUEUE_DEPTH: u32 = 64;
/// cqhci task slots (32, one of them for DCMD: 31 for data).
pub const CQE_TASKS: u32 = 31;
/// `HSQ_NORMAL_DEPTH` / `HSQ_PERFORMANCE_DEPTH` (mmc_hsq.h, 2023).
pub const HSQ_NORMAL_DEPTH: u32 = 2;
pub const HSQ_PERFORMANCE_DEPTH: u32 = 5;

#[derive(Debug)]
pub struct MmcQueue {
    /// `mq->in_flight[MMC_ISSUE_ASYNC]`: reads and writes past queue_rq, not yet completed.
    pub in_flight_async: u32,
    /// `mq->in_flight[MMC_ISSUE_SYNC]`: flushes.
    pub in_flight_sync: u32,
    /// `mq->busy`: a queue_rq is running ("parallel dispatch is not supported").
    pub busy: bool,
    /// `host->hsq_depth`: the hsq window is depth + 1.
    pub hsq_depth: u32,
}

impl MmcQueue {
    pub fn new(depth: HsqDepth) -> MmcQueue {
        let hsq_depth = match depth {
            HsqDepth::Fixed(n) => n,
            HsqDepth::Dynamic => HSQ_NORMAL_DEPTH,
        };
        MmcQueue {
            in_flight_async: 0,
            in_flight_sync: 0,
            busy: false,
            hsq_depth,
        }
    }
    pub fn total_in_flight(&self) -> u32 {
        self.in_flight_async + self.in_flight_sync
    }
}

impl Simulator {
    /// Requests the mmc queue accepts at once on this host (what the UI draws as the window).
    pub fn mmc_window(&self) -> u32 {
        match self.cfg.mmc_path {
            MmcPath::Hsq if self.cfg.packed > 0 => HSQ_PACKED_QUEUE_DEPTH,
            MmcPath::Hsq => self.mq.hsq_depth + 1,
            MmcPath::Legacy => {
                if self.cfg.nonblocking {
                    2
                } else {
                    1
                }
            }
            MmcPath::Cqe => CQE_TASKS,
        }
    }

    /// `mmc_mq_queue_rq`: Ok(cost of the synchronous issue path) or Err = BLK_STS_RESOURCE.
    pub(crate) fn mmc_queue_rq(&mut self, req: ReqIdx) -> Result<u64, ()> {
        let r = self.reqs.get(req);
        let h = &self.platform.host;
        if r.op == Op::Flush {
            // MMC_ISSUE_SYNC: wait for everything in flight (`mq->waiting`).
            if self.mq.total_in_flight() > 0 {
                return Err(());
            }
            self.mq.in_flight_sync += 1;
        } else {
            if self.mq.in_flight_sync > 0 || self.mq.in_flight_async >= self.mmc_window() {
                return Err(());
            }
            self.mq.in_flight_async += 1;
        }
        self.mq.busy = true;
        let r = self.reqs.get_mut(req);
        r.in_mmc = true;
        let cost = h.issue_ns + self.dma_map_cost(req);
        self.series
            .set_inflight(self.now, self.mq.total_in_flight() as u64);
        Ok(cost)
    }

    /// pre_req (`mmc_pre_req` -> `dma_map_sg`) of one request.
    pub(crate) fn dma_map_cost(&self, req: ReqIdx) -> u64 {
        let r = self.reqs.get(req);
        let h = &self.platform.host;
        match r.op {
            Op::Flush => 0,
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
            Op::Flush => return 0,
        };
        fixed + h.dma_per_kib_ns * r.len / 2048
    }

    /// End of `mmc_blk_mq_issue_rq`: the request goes to the host's queue.
    pub(crate) fn mmc_issue_done(&mut self, req: ReqIdx, last: bool) {
        self.set_stage(req, Stage::HostQueue);
        if self.reqs.get(req).op == Op::Flush {
            // `mmc_blk_issue_flush` -> `mmc_wait_for_req`: straight to the controller, which is
            // idle because nothing else is in flight.
            self.legacy_request(req);
            return;
        }
        match self.cfg.mmc_path {
            MmcPath::Hsq => self.hsq_request(req, last),
            MmcPath::Legacy => self.legacy_request(req),
            MmcPath::Cqe => self.cqe_request(req),
        }
    }

    /// `mmc_mq_commit_rqs` -> `mmc_hsq_commit_rqs`: the dispatch round is over.
    pub(crate) fn mmc_commit_rqs(&mut self) {
        if self.cfg.mmc_path == MmcPath::Hsq {
            self.hsq_commit_rqs();
        }
    }

    /// `Event::Completed`: post_req and `blk_mq_complete_request` are done; in_flight--.
    pub(crate) fn mmc_complete(&mut self, req: ReqIdx) {
        let r = self.reqs.get(req);
        if r.op == Op::Flush {
            self.mq.in_flight_sync -= 1;
        } else {
            self.mq.in_flight_async -= 1;
        }
        self.series
            .set_inflight(self.now, self.mq.total_in_flight() as u64);
        self.set_stage(req, Stage::Complete);
        self.blk_mq_end_request(req);
        let reap = self.platform.host.reap_ns;
        self.q.push(self.now + reap, Event::Reaped { req });
    }
}
