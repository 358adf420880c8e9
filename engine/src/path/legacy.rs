//! The legacy mmc path (drivers/mmc/core/block.c, `mmc_blk_mq_issue_rw_rq`; no hsq, no CQE):
//! one request on the bus at a time.
//! Blocking (before the 2011 series): map, transfer, wait, unmap, then the next request.
//! Non-blocking (Per Forlin's series, `mmc_start_req` with pre_req/post_req): the next request
//! is prepared (`dma_map_sg`) while the current one is on the bus and started from the
//! completion, so only the preparation time is hidden. The window in `mmc_queue` is 1 request
//! when blocking and 2 when non-blocking; this queue holds the prepared one.

use std::collections::VecDeque;

use crate::sim::{ReqIdx, Simulator};

/// Requests prepared for the controller (`mmc_start_request` callers waiting their turn).
#[derive(Debug, Default)]
pub struct Legacy {
    /// Prepared requests waiting for the controller (also flushes on every path).
    queue: VecDeque<ReqIdx>,
}

impl Legacy {
    /// A prepared request waits for the controller.
    pub fn push(&mut self, req: ReqIdx) {
        self.queue.push_back(req);
    }

    /// A retry from the recovery work goes first.
    pub fn push_front(&mut self, req: ReqIdx) {
        self.queue.push_front(req);
    }

    /// The next request to start when the controller is free.
    pub fn pop(&mut self) -> Option<ReqIdx> {
        self.queue.pop_front()
    }

    /// Prepared requests, in start order.
    pub fn queued(&self) -> impl Iterator<Item = &ReqIdx> {
        self.queue.iter()
    }
}

impl Simulator {
    /// `mmc_start_request` for a prepared request.
    pub(crate) fn legacy_request(&mut self, req: ReqIdx) {
        self.legacy.push(req);
        self.legacy_pump();
    }

    /// Starts the next prepared request if the controller is free.
    pub(crate) fn legacy_pump(&mut self) {
        if self.host_busy() || self.recovery.active() {
            return;
        }
        if let Some(req) = self.legacy.pop() {
            self.host_start(vec![req], false);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prepared_requests_start_in_order_and_retries_go_first() {
        let mut l = Legacy::default();
        l.push(1);
        l.push(2);
        l.push_front(9);
        assert_eq!(l.queued().copied().collect::<Vec<_>>(), vec![9, 1, 2]);
        assert_eq!(l.pop(), Some(9));
        assert_eq!(l.pop(), Some(1));
        assert_eq!(l.pop(), Some(2));
        assert_eq!(l.pop(), None);
    }
}
