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
//!
//! The old next-tag order, what the model predicts for the Allwinner measurement of 2022
//! and what the kernel would need for its ~200 ms tail: docs/model-mmc.md, "The Allwinner
//! measurement".

use std::collections::VecDeque;

use crate::sim::{ReqIdx, Simulator};
use crate::vocab::{HsqDepth, HsqDispatch, Op, HSQ_NORMAL_DEPTH, HSQ_PERFORMANCE_DEPTH};

/// `HSQ_PACKED_FLUSH_BLOCKS`: a request this large (in 512-byte blocks) is sent at once.
pub const HSQ_PACKED_FLUSH_BLOCKS: u64 = 256;

/// `struct mmc_hsq`: the occupied slots in FIFO order and the packing limit.
#[derive(Debug, Default)]
pub struct Hsq {
    /// Occupied slots waiting for the bus, in arrival order, with their tags (= slot index)
    /// and whether each holds a 4 KiB write (what `mmc_hsq_modify_threshold` counts).
    fifo: VecDeque<(ReqIdx, u16, bool)>,
    /// `hsq_dispatch=next_tag`: serve by `mmc_hsq_update_next_tag` instead of arrival order.
    next_tag_order: bool,
    /// The tag of the request served last (`hsq->next_tag` when it was pumped).
    last_tag: Option<u16>,
    /// `packed->max_entries`: requests per ADMA3 chain (0 = not packed).
    packed: usize,
    /// Times the dynamic depth changed (for the UI).
    depth_changes: u64,
    /// How many earlier arrivals the last [`Hsq::next_batch`] passed over (they are the first
    /// `passed` of [`Hsq::queued`]).
    passed: usize,
    /// Slots of `fifo` holding a 4 KiB write, kept as they come and go: the count
    /// `mmc_hsq_modify_threshold` takes at every pump, without walking the slots.
    writes_4k: usize,
}

impl Hsq {
    /// `mmc_hsq_init`: `packed` requests per chain (0 = one request at a time).
    pub fn new(packed: u32, dispatch: HsqDispatch) -> Hsq {
        Hsq {
            packed: packed as usize,
            next_tag_order: dispatch == HsqDispatch::NextTag,
            ..Hsq::default()
        }
    }

    /// `mmc_hsq_request`: the request takes its slot. Returns whether to pump now: always
    /// without packing; with packing when the batch is full, the request is large
    /// (> `HSQ_PACKED_FLUSH_BLOCKS`) or it is the last of the dispatch round.
    /// `write`: the request writes.
    pub fn request(&mut self, req: ReqIdx, tag: u16, len: u64, write: bool, last: bool) -> bool {
        let write_4k = write && len == 4096;
        self.fifo.push_back((req, tag, write_4k));
        self.writes_4k += usize::from(write_4k);
        self.packed == 0
            || last
            || len / 512 > HSQ_PACKED_FLUSH_BLOCKS
            || self.fifo.len() >= self.packed
    }

    /// Recovery retries a request first (`mmc_hsq_recovery_finish` re-pumps the slot).
    pub fn requeue_front(&mut self, req: ReqIdx, tag: u16, write_4k: bool) {
        self.fifo.push_front((req, tag, write_4k));
        self.writes_4k += usize::from(write_4k);
        self.last_tag = tag.checked_sub(1);
    }

    /// `mmc_hsq_update_next_tag` as it was before the 2022 FIFO patch, run when the previous
    /// request is finalized: "increase the next tag and check if the corresponding request is
    /// available", otherwise "iterate all slots to find an available tag" from slot 0. A
    /// request in a high slot waits as long as lower slots keep being refilled.
    fn next_tag_position(&self) -> usize {
        if let Some(next) = self.last_tag.map(|t| t + 1) {
            if let Some(i) = self.fifo.iter().position(|&(_, t, _)| t == next) {
                return i;
            }
        }
        (0..self.fifo.len())
            .min_by_key(|&i| self.fifo[i].1)
            .expect("non-empty")
    }

    /// `mmc_hsq_pump_requests` with the controller free: the next request, or with packing the
    /// next chain of up to `packed` requests. Returns (requests, chained); None when empty.
    pub fn next_batch(&mut self) -> Option<(Vec<ReqIdx>, bool)> {
        if self.fifo.is_empty() {
            return None;
        }
        if self.packed == 0 {
            let i = if self.next_tag_order {
                self.next_tag_position()
            } else {
                0
            };
            let (req, tag, write_4k) = self.fifo.remove(i).expect("non-empty");
            self.writes_4k -= usize::from(write_4k);
            self.last_tag = Some(tag);
            // The requests before it in the FIFO came earlier: each was passed over once.
            self.passed = i;
            Some((vec![req], false))
        } else {
            self.passed = 0;
            let n = self.packed.min(self.fifo.len());
            let mut writes_4k = 0;
            let batch = self
                .fifo
                .drain(..n)
                .map(|(r, _, w)| {
                    writes_4k += usize::from(w);
                    r
                })
                .collect();
            self.writes_4k -= writes_4k;
            Some((batch, true))
        }
    }

    /// The requests the last [`Hsq::next_batch`] passed over: they arrived before the one it
    /// sent.
    pub fn passed_over(&self) -> impl Iterator<Item = &ReqIdx> {
        self.fifo.iter().take(self.passed).map(|(r, _, _)| r)
    }

    /// Occupied slots, FIFO order.
    pub fn queued(&self) -> impl Iterator<Item = &ReqIdx> {
        self.fifo.iter().map(|(r, _, _)| r)
    }

    /// The queued slots holding 4 KiB writes, counted up to `max`.
    pub fn queued_4k_writes(&self, max: usize) -> usize {
        debug_assert_eq!(
            self.writes_4k,
            self.fifo.iter().filter(|s| s.2).count(),
            "the kept count is the slots'"
        );
        self.writes_4k.min(max)
    }

    /// Times `mmc_hsq_modify_threshold` changed the depth.
    pub fn depth_changes(&self) -> u64 {
        self.depth_changes
    }

    /// `mmc_hsq_modify_threshold`: with `count_4k_writes` slots holding 4 KiB writes (queued or
    /// on the bus), the depth is `HSQ_PERFORMANCE_DEPTH` from two on, else `HSQ_NORMAL_DEPTH`.
    /// Returns the new depth when it differs from `depth` (and counts the change).
    pub fn modify_threshold(&mut self, count_4k_writes: usize, depth: u32) -> Option<u32> {
        let want = if count_4k_writes > 1 {
            HSQ_PERFORMANCE_DEPTH
        } else {
            HSQ_NORMAL_DEPTH
        };
        if want == depth {
            return None;
        }
        self.depth_changes += 1;
        Some(want)
    }
}

impl Simulator {
    /// `mmc_hsq_request`: put the request in its slot and pump.
    pub(crate) fn hsq_request(&mut self, req: ReqIdx, last: bool) {
        let (len, tag) = {
            let r = self.reqs.get(req);
            (r.len, r.tag.unwrap_or(0))
        };
        let write = self.reqs.get(req).op == Op::Write;
        if self.hsq.request(req, tag, len, write, last) {
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
        if self.host_busy() || self.recovery.active() {
            return;
        }
        if let Some((batch, chained)) = self.hsq.next_batch() {
            for &r in self.hsq.passed_over() {
                self.reqs.get_mut(r).passed_over += 1;
            }
            self.host_start(batch, chained);
        }
    }

    /// `mmc_hsq_modify_threshold`: count slots holding 4 KiB writes (queued or on the bus) and
    /// set `host->hsq_depth` (the mmc queue's window) from it. The kernel's loop stops at the
    /// second (`++need_change == 2`): so does the count.
    fn hsq_modify_threshold(&mut self) {
        if self.cfg.hsq_depth != HsqDepth::Dynamic {
            return;
        }
        let mut count = self.hsq.queued_4k_writes(2);
        if count < 2 {
            count += self
                .host
                .active()
                .iter()
                .filter(|&&r| {
                    let r = self.reqs.get(r);
                    r.op == Op::Write && r.len == 4096
                })
                .take(2 - count)
                .count();
        }
        if let Some(depth) = self.hsq.modify_threshold(count, self.mq.hsq_depth()) {
            self.mq.set_hsq_depth(depth);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unpacked_serves_one_request_at_a_time_in_fifo_order() {
        let mut h = Hsq::new(0, HsqDispatch::Fifo);
        assert!(h.request(3, 3, 4096, true, false));
        assert!(h.request(1, 1, 4096, true, false));
        assert_eq!(h.next_batch(), Some((vec![3], false)));
        assert_eq!(h.next_batch(), Some((vec![1], false)));
        assert_eq!(h.next_batch(), None);
    }

    #[test]
    fn packed_collects_until_full_large_or_last() {
        let mut h = Hsq::new(4, HsqDispatch::Fifo);
        assert!(!h.request(0, 0, 4096, true, false));
        assert!(!h.request(1, 1, 4096, true, false));
        assert!(
            h.request(2, 2, 4096, true, true),
            "last of the dispatch round"
        );
        assert!(
            h.request(3, 3, 4096, true, false),
            "four slots: a full chain"
        );
        assert_eq!(h.next_batch(), Some((vec![0, 1, 2, 3], true)));
        let large = (HSQ_PACKED_FLUSH_BLOCKS + 1) * 512;
        assert!(
            h.request(4, 4, large, true, false),
            "larger than HSQ_PACKED_FLUSH_BLOCKS"
        );
        assert!(!h.request(5, 5, HSQ_PACKED_FLUSH_BLOCKS * 512, true, false));
        assert_eq!(h.next_batch(), Some((vec![4, 5], true)));
    }

    #[test]
    fn next_tag_takes_the_following_slot_else_the_lowest() {
        let mut h = Hsq::new(0, HsqDispatch::NextTag);
        h.request(10, 5, 4096, true, false);
        h.request(11, 2, 4096, true, false);
        h.request(12, 3, 4096, true, false);
        // Nothing served yet: the lowest slot.
        assert_eq!(h.next_batch(), Some((vec![11], false)));
        // Tag 3 follows tag 2.
        assert_eq!(h.next_batch(), Some((vec![12], false)));
        // Slot 4 is empty: scan from slot 0; a new request in slot 0 overtakes slot 5.
        h.request(13, 0, 4096, true, false);
        assert_eq!(h.next_batch(), Some((vec![13], false)));
        h.request(14, 1, 4096, true, false);
        assert_eq!(
            h.next_batch(),
            Some((vec![14], false)),
            "slot 1 follows slot 0"
        );
        assert_eq!(h.next_batch(), Some((vec![10], false)), "slot 5 at last");
        let mut fifo = Hsq::new(0, HsqDispatch::Fifo);
        fifo.request(10, 5, 4096, true, false);
        fifo.request(11, 2, 4096, true, false);
        assert_eq!(fifo.next_batch(), Some((vec![10], false)), "arrival order");
    }

    #[test]
    fn recovery_retry_goes_first() {
        let mut h = Hsq::new(0, HsqDispatch::Fifo);
        h.request(1, 1, 4096, true, false);
        h.requeue_front(7, 7, true);
        assert_eq!(h.queued().copied().collect::<Vec<_>>(), vec![7, 1]);
    }

    #[test]
    fn threshold_rises_with_two_4k_writes_and_counts_changes() {
        let mut h = Hsq::new(0, HsqDispatch::Fifo);
        assert_eq!(h.modify_threshold(1, HSQ_NORMAL_DEPTH), None);
        assert_eq!(
            h.modify_threshold(2, HSQ_NORMAL_DEPTH),
            Some(HSQ_PERFORMANCE_DEPTH)
        );
        assert_eq!(h.modify_threshold(5, HSQ_PERFORMANCE_DEPTH), None);
        assert_eq!(
            h.modify_threshold(0, HSQ_PERFORMANCE_DEPTH),
            Some(HSQ_NORMAL_DEPTH)
        );
        assert_eq!(h.depth_changes(), 2);
    }
}
