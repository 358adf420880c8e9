//! The MMC host software queue (drivers/mmc/host/mmc_hsq.c): 64 slots indexed by tag, served
//! in FIFO order, exactly one request on the bus; the next one is pumped straight from the
//! completion interrupt (`mmc_hsq_post_request` -> `mmc_hsq_pump_requests`).
//!
//! With the packed-request RFC (2020) hsq collects requests and hands up to N at once to the
//! controller as one ADMA3 chain: it holds them until the batch is full, a request is larger
//! than `HSQ_PACKED_FLUSH_BLOCKS`, or blk-mq's `commit_rqs` says the dispatch round is over.
//!
//! With dynamic depth (2023), `mmc_hsq_modify_threshold` runs at every pump and sets
//! `host->hsq_depth` to 5 while at least two slots hold 4 KiB writes, else 2.

use std::collections::VecDeque;

use crate::mmc_queue::{HSQ_NORMAL_DEPTH, HSQ_PERFORMANCE_DEPTH};
use crate::scenario::HsqDepth;
use crate::sim::request::Op;
use crate::sim::{ReqIdx, Simulator};

/// `HSQ_NUM_SLOTS`.
pub const HSQ_NUM_SLOTS: usize = 64;
/// `HSQ_PACKED_FLUSH_BLOCKS`: a request this large (in 512-byte blocks) is sent at once.
pub const HSQ_PACKED_FLUSH_BLOCKS: u64 = 256;

#[derive(Debug, Default)]
pub struct Hsq {
    /// Occupied slots waiting for the bus, in FIFO order (`hsq->next_tag` chain).
    pub fifo: VecDeque<ReqIdx>,
    /// Times the dynamic depth changed (for the UI).
    pub depth_changes: u64,
}

impl Simulator {
    /// `mmc_hsq_request`: put the request in its slot and pump.
    pub(crate) fn hsq_request(&mut self, req: ReqIdx, last: bool) {
        self.hsq.fifo.push_back(req);
        let packed = self.cfg.packed as usize;
        if packed == 0 {
            self.hsq_pump();
            return;
        }
        let large = self.reqs.get(req).len / 512 > HSQ_PACKED_FLUSH_BLOCKS;
        if last || large || self.hsq.fifo.len() >= packed {
            self.hsq_pump();
        }
    }

    /// `mmc_hsq_commit_rqs`: the dispatch round is over; send what is collected.
    pub(crate) fn hsq_commit_rqs(&mut self) {
        self.hsq_pump();
    }

    /// `mmc_hsq_pump_requests`: if the controller is free, start the next request (or chain).
    pub(crate) fn hsq_pump(&mut self) {
        self.hsq_modify_threshold();
        // `hsq->recovery_halt` while the recovery work runs.
        if self.host_busy() || self.recovery.active || self.hsq.fifo.is_empty() {
            return;
        }
        let packed = self.cfg.packed as usize;
        if packed == 0 {
            let req = self.hsq.fifo.pop_front().expect("non-empty");
            self.host_start(vec![req], false);
        } else {
            let n = packed.min(self.hsq.fifo.len());
            let batch: Vec<ReqIdx> = self.hsq.fifo.drain(..n).collect();
            self.host_start(batch, true);
        }
    }

    /// `mmc_hsq_modify_threshold`: count slots holding 4 KiB writes (queued or on the bus).
    fn hsq_modify_threshold(&mut self) {
        if self.cfg.hsq_depth != HsqDepth::Dynamic {
            return;
        }
        let is_4k_write = |s: &Simulator, r: ReqIdx| {
            let r = s.reqs.get(r);
            r.op == Op::Write && r.len == 4096
        };
        let count = self
            .hsq
            .fifo
            .iter()
            .chain(self.host.active.iter())
            .filter(|&&r| is_4k_write(self, r))
            .count();
        let depth = if count > 1 {
            HSQ_PERFORMANCE_DEPTH
        } else {
            HSQ_NORMAL_DEPTH
        };
        if depth != self.mq.hsq_depth {
            self.mq.hsq_depth = depth;
            self.hsq.depth_changes += 1;
        }
    }
}
