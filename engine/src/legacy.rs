//! The legacy mmc path (no hsq, no CQE): one request on the bus at a time.
//! Blocking (before the 2011 series): map, transfer, wait, unmap, then the next request.
//! Non-blocking (Per Forlin's series, `mmc_start_req` with pre_req/post_req): the next request
//! is prepared (`dma_map_sg`) while the current one is on the bus and started from the
//! completion, so only the preparation time is hidden. The window in `mmc_queue` is 1 request
//! when blocking and 2 when non-blocking; this queue holds the prepared one.

use std::collections::VecDeque;

use crate::sim::{ReqIdx, Simulator};

#[derive(Debug, Default)]
pub struct Legacy {
    /// Prepared requests waiting for the controller (also flushes on every path).
    pub queue: VecDeque<ReqIdx>,
}

impl Simulator {
    /// `mmc_start_request` for a prepared request.
    pub(crate) fn legacy_request(&mut self, req: ReqIdx) {
        self.legacy.queue.push_back(req);
        self.legacy_pump();
    }

    /// Starts the next prepared request if the controller is free.
    pub(crate) fn legacy_pump(&mut self) {
        if self.host_busy() || self.recovery.active {
            return;
        }
        if let Some(req) = self.legacy.queue.pop_front() {
            self.host_start(vec![req], false);
        }
    }
}
