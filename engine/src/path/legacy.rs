//! The legacy mmc path (drivers/mmc/core/block.c, `mmc_blk_mq_issue_rw_rq`; no hsq, no CQE):
//! one request on the bus at a time.
//! Blocking (before the 2011 series): map, transfer, wait, unmap, then the next request.
//! Non-blocking (Per Forlin's series, `mmc_start_req` with pre_req/post_req): the next request
//! is prepared (`dma_map_sg`) while the current one is on the bus and started from the
//! completion, so only the preparation time is hidden. The window in `mmc_queue` is 1 request
//! when blocking and 2 when non-blocking; this queue holds the prepared one.
//! The 2020 legacy path (`legacy_wakeup_ns` > 0): the next request waits for the dispatching
//! thread to wake from `mmc_blk_rw_wait` (`legacy_wait_done`), which after a write polls the
//! card with CMD13 as the board's kernel version does (`legacy_card_busy`).
//! The queue is also the mmc core's direct queue on every path: flushes, discards and retries
//! (`mmc_wait_for_req`) wait here for the controller.

use std::collections::VecDeque;

use crate::path::bus::SegmentKind;
use crate::sim::{ReqIdx, Simulator};
use crate::vocab::Op;

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

    /// Starts the next prepared request if the controller is free (on the CQE, once
    /// `cqhci_off` has halted it: `ctl_direct_halt`).
    pub(crate) fn legacy_pump(&mut self) {
        if self.host_busy() || self.recovery.active() || self.legacy.queue.is_empty() {
            return;
        }
        let halt = self.ctl_direct_halt();
        if halt > 0 {
            self.bus
                .record(SegmentKind::HostGap, self.now, self.now + halt, None);
            self.host.hold_until(self.now + halt);
            self.host_schedule_start(self.now + halt);
            return;
        }
        if let Some(req) = self.legacy.pop() {
            self.host_start(vec![req], false);
        }
    }

    /// `mmc_blk_mq_req_done` -> `wake_up(&mq->wait)`: the thread sleeping in `mmc_blk_rw_wait`
    /// wakes; after a write it polls the card until it is ready for data
    /// ([`Simulator::legacy_card_busy`]). Returns how long after the interrupt the thread can
    /// start the next request; the controller is held until then.
    pub(crate) fn legacy_wait_done(&mut self, done: &[ReqIdx]) -> u64 {
        let wake = self.platform.host.legacy_wakeup_ns;
        let mut t = self.now + self.jitter.wakeup(wake);
        if done.iter().any(|&r| self.reqs.get(r).op == Op::Write) {
            t = self.legacy_card_busy(done[0], t);
        }
        self.host.hold_until(t);
        t - self.now
    }

    /// `mmc_blk_card_busy` (drivers/mmc/core/block.c) from `t`, as the board's kernel runs it
    /// ([`crate::board::BusyPoll`]); returns when the thread runs again with the card ready. Each CMD13
    /// (SEND_STATUS) is an mmc request of its own (`mmc_send_status` -> `mmc_wait_for_cmd`):
    /// the command on the bus (recorded on the timeline under the write's id), its interrupt,
    /// and the thread woken from `mmc_wait_for_req_done`. The card answers at once: busy
    /// while it still commits the last random write (`Card::ready_for_data`).
    /// - Linux up to 5.14 (`card_busy_detect`): the next CMD13 goes as soon as the thread runs,
    ///   back to back.
    /// - Linux 5.15 and later (`__mmc_poll_for_busy` with `mmc_blk_busy_cb`): after a busy
    ///   answer the thread sleeps (`usleep_range`: 32-64 us, doubling to 32-64 ms) and is woken
    ///   by its timer before the next CMD13.
    ///
    /// Simplified: building and starting each CMD13 (`mmc_wait_for_cmd` -> `sdhci_request`) is
    /// not charged apart from the wake-up; a CMD13 takes the bus time of the command phase
    /// ([`crate::board::BusTiming::cmd_ns`]).
    fn legacy_card_busy(&mut self, req: ReqIdx, mut t: u64) -> u64 {
        let wake = self.platform.host.legacy_wakeup_ns;
        let poll = self.platform.kernel.busy_poll();
        let cmd = self.bus.cmd_ns();
        let id = self.reqs.get(req).id;
        for n in 0.. {
            self.bus.record(SegmentKind::Command, t, t + cmd, Some(id));
            self.stats.bus_commands += 1;
            self.stats.busy_polls += 1;
            self.stats.interrupts += 1;
            let ready = self.card.ready_for_data(t + cmd);
            t += cmd + self.jitter.wakeup(wake);
            if ready {
                break;
            }
            if let Some(sleep) = poll.sleep_ns(n) {
                t += sleep + self.jitter.wakeup(wake);
            }
        }
        t
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
