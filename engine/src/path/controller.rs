//! The controller seam: which host path sits under the mmc queue (`mq->use_cqe`,
//! `host->hsq_enabled`, or mmc_test's own `mmc_start_req`), and the one place that dispatches on
//! it. The mmc queue, the host's interrupt, the recovery work and the snapshot call the methods
//! here; none of them asks which path is in use.
//!
//! Static dispatch: [`HostPath`] is a `Copy` tag with the path's static configuration, built
//! once from the resolved host switches, and every method is one `match` on it, inlined into
//! the event loop. The paths' state stays on `Simulator` (`hsq`, `legacy`, `cqe`), each in its
//! own file: a path's methods are `impl Simulator` blocks that reach the host, bus and card, so
//! an object owning the state (or a `Box<dyn ...>`) would be borrowed from the simulator it
//! needs, and would put an indirect call on every request's way.
//!
//! The direct queue is not a path: flushes and discards (`mmc_blk_issue_flush`,
//! `mmc_blk_issue_discard_rq` -> `mmc_wait_for_req`) and retries of them go to the legacy
//! queue on every path (`mmc_issue_done`, `recovery_step`), and `host_start_event` pumps it
//! before the path's own queue.
//!
//! Besides this file, only the mmc queue (`mmc_queue.rs`) matches on [`HostPath`]
//! (`mmc_issue_type`, `mmc_mq_queue_rq`): a flush as a DCMD on the CQE, the CQE's posted-write
//! limit, and a full window refusing a request (hsq, CQE) or sleeping in `queue_rq` (legacy). Adding a host path: docs/ARCHITECTURE.md, "Add a host path".

use super::cqe::cqhci_qdepth;
use crate::board::CardTiming;
use crate::sim::{Event, ReqIdx, Simulator};
use crate::vocab::{Cause, HostConfig, MmcPath, Op, Stage};
use crate::vocab::{CQHCI_NUM_SLOTS, HSQ_NUM_SLOTS, HSQ_PACKED_QUEUE_DEPTH, MMC_QUEUE_DEPTH};

/// The host path under the mmc queue, with what of its configuration the dispatch needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HostPath {
    /// The host software queue (`mmc_hsq.c`); `packed`: the packed-request RFC (ADMA3 chains).
    Hsq { packed: bool },
    /// The legacy path (`core/block.c`, `mmc_blk_mq_issue_rw_rq`); `nonblocking`: the next
    /// request is prepared during the transfer (`mmc_start_req` with pre_req/post_req).
    Legacy { nonblocking: bool },
    /// Command queueing through the CQE (`cqhci-core.c`, a what-if): `tags`, the tag set's
    /// depth (`mmc_init_queue`); `dcmd`, flushes as direct commands (`MMC_CAP2_CQE_DCMD`);
    /// `max_posted_writes`, writes queued on the card at once (`card->max_posted_writes`).
    Cqe {
        tags: u16,
        dcmd: bool,
        max_posted_writes: u16,
    },
    /// The kernel's mmc_test module: the legacy queue, driven by the test thread (its own
    /// `mrq->done`); the even cases are the non-blocking ones.
    MmcTest { nonblocking: bool },
}

impl HostPath {
    /// The path of a run: mmc_test's when it runs a test case (its switches are the legacy
    /// path's, see `sim/build.rs`), else the one `mmc_path=` names; the CQE's from the card.
    pub fn of(cfg: &HostConfig, card: &CardTiming, mmc_test: bool) -> HostPath {
        let nonblocking = cfg.nonblocking;
        if mmc_test {
            return HostPath::MmcTest { nonblocking };
        }
        match cfg.mmc_path {
            MmcPath::Hsq => HostPath::Hsq {
                packed: cfg.packed > 0,
            },
            MmcPath::Legacy => HostPath::Legacy { nonblocking },
            MmcPath::Cqe => HostPath::Cqe {
                // `mmc_init_queue`: "the queue depth for CQE must match the hardware".
                tags: card.cmdq_depth.clamp(1, cqhci_qdepth(card.cqe_dcmd)) as u16,
                dcmd: card.cqe_dcmd,
                max_posted_writes: card.max_posted_writes.clamp(1, u16::MAX as u32) as u16,
            },
        }
    }

    /// The blk-mq tag set's depth (`mmc_init_queue`, Linux 6.1): `MMC_QUEUE_DEPTH`, or with
    /// the CQE min(the card's queue depth, `host->cqe_qdepth`), so the tags bound the queue.
    pub fn tag_set_depth(self) -> u16 {
        match self {
            HostPath::Cqe { tags, .. } => tags,
            HostPath::Hsq { .. } | HostPath::Legacy { .. } | HostPath::MmcTest { .. } => {
                MMC_QUEUE_DEPTH
            }
        }
    }

    /// Requests the mmc queue accepts at once: `host->hsq_depth + 1` for hsq
    /// (`mmc_mq_queue_rq` refuses once `in_flight > hsq_depth`), `HSQ_PACKED_QUEUE_DEPTH`
    /// packed, the CQE's tag set (the tags bound it: `mmc_mq_queue_rq` refuses none of its
    /// data requests for depth), 1 or 2 on the legacy path.
    #[inline]
    pub fn window(self, hsq_depth: u32) -> u32 {
        match self {
            HostPath::Hsq { packed: true } => HSQ_PACKED_QUEUE_DEPTH,
            HostPath::Hsq { packed: false } => hsq_depth + 1,
            HostPath::Legacy { nonblocking } | HostPath::MmcTest { nonblocking } => {
                if nonblocking {
                    2
                } else {
                    1
                }
            }
            HostPath::Cqe { tags, .. } => u32::from(tags),
        }
    }

    /// The slots the snapshot draws for the path's queue: hsq's and the CQE's slot arrays, the
    /// window on the legacy path.
    pub fn slots_total(self, window: u32) -> u16 {
        match self {
            HostPath::Hsq { .. } => HSQ_NUM_SLOTS,
            HostPath::Cqe { .. } => CQHCI_NUM_SLOTS,
            HostPath::Legacy { .. } | HostPath::MmcTest { .. } => window as u16,
        }
    }
}

impl Simulator {
    #[inline(always)]
    fn host_path(&self) -> HostPath {
        self.mq.host_path()
    }

    /// A read or write leaves `mmc_blk_mq_issue_rq` for the path's queue (`last`: the last of
    /// the dispatch round).
    #[inline]
    pub(crate) fn ctl_request(&mut self, req: ReqIdx, last: bool) {
        match self.host_path() {
            HostPath::Hsq { .. } => self.hsq_request(req, last),
            HostPath::Legacy { .. } | HostPath::MmcTest { .. } => self.legacy_request(req),
            HostPath::Cqe { .. } => self.cqe_request(req),
        }
    }

    /// `mmc_mq_commit_rqs`: the dispatch round is over (`mmc_hsq_commit_rqs`; no hook on the
    /// other paths).
    #[inline]
    pub(crate) fn ctl_commit_rqs(&mut self) {
        match self.host_path() {
            HostPath::Hsq { .. } => self.hsq_commit_rqs(),
            HostPath::Legacy { .. } | HostPath::MmcTest { .. } | HostPath::Cqe { .. } => {}
        }
    }

    /// A request of the direct queue (a discard, a flush without DCMD, a retry) is about to
    /// start on the controller: on the CQE `__mmc_start_request` first runs `cqhci_off`
    /// (Linux 6.1) if the CQE is on. Returns the time the halt takes (0: nothing to halt).
    #[inline]
    pub(crate) fn ctl_direct_halt(&mut self) -> u64 {
        match self.host_path() {
            HostPath::Cqe { .. } if self.cqe.off() => {
                self.stats.cqe_halts += 1;
                self.platform.host.cqhci_halt_ns
            }
            HostPath::Cqe { .. }
            | HostPath::Hsq { .. }
            | HostPath::Legacy { .. }
            | HostPath::MmcTest { .. } => 0,
        }
    }

    /// The controller is free: the path's queue starts what it can (after the direct queue).
    #[inline]
    pub(crate) fn ctl_pump(&mut self) {
        match self.host_path() {
            HostPath::Hsq { .. } => self.hsq_pump(),
            // The legacy queue is the direct queue, pumped already.
            HostPath::Legacy { .. } | HostPath::MmcTest { .. } => {}
            HostPath::Cqe { .. } => self.cqe_pump(),
        }
    }

    /// What a request entering the path's queue finds ahead of it, for the trace: in hsq the
    /// slots waiting and those on the bus.
    #[inline]
    pub(crate) fn ctl_queued_behind(&self) -> Cause {
        match self.host_path() {
            HostPath::Hsq { .. } if self.trace.enabled() => Cause::QueuedBehind {
                ahead: (self.hsq.queued().count() + self.host.active().len()) as u32,
            },
            HostPath::Hsq { .. }
            | HostPath::Legacy { .. }
            | HostPath::Cqe { .. }
            | HostPath::MmcTest { .. } => Cause::None,
        }
    }

    /// The 2020 legacy path: the next request waits for the dispatching thread
    /// (`legacy_wakeup_ns` > 0; not mmc_test's thread, which has its own `mrq->done`).
    #[inline]
    fn legacy_thread(&self) -> bool {
        match self.host_path() {
            HostPath::Legacy { .. } => self.platform.host.legacy_wakeup_ns > 0,
            HostPath::Hsq { .. } | HostPath::Cqe { .. } | HostPath::MmcTest { .. } => false,
        }
    }

    /// The transfer interrupt finished `done`: how long after it the controller can start the
    /// next request (`gap`, or the legacy thread's wake-up and busy poll).
    #[inline]
    pub(crate) fn ctl_irq_gap(&mut self, done: &[ReqIdx], gap: u64) -> u64 {
        if self.legacy_thread() {
            self.legacy_wait_done(done)
        } else {
            gap
        }
    }

    /// The host driver's own part of `queue_rq` for a request it takes: on the CQE
    /// `cqhci_request` for each task it queues (a read, a write, a DCMD flush;
    /// `cqhci_request_ns`); 0 on the other paths, whose host hooks are inside `issue_ns`, and
    /// for the direct queue's requests (a discard, a flush without DCMD).
    #[inline(always)]
    pub(crate) fn ctl_request_cost(&self, op: Op) -> u64 {
        match self.host_path() {
            HostPath::Cqe { dcmd, .. }
                if matches!(op, Op::Read | Op::Write) || (dcmd && op == Op::Flush) =>
            {
                self.platform.host.cqhci_request_ns
            }
            HostPath::Cqe { .. }
            | HostPath::Hsq { .. }
            | HostPath::Legacy { .. }
            | HostPath::MmcTest { .. } => 0,
        }
    }

    /// `mrq->done` for a request the transfer interrupt finished without error: mmc_test's
    /// `mmc_wait_done`, else the completion ([`Simulator::ctl_complete`]) `gap` after the
    /// interrupt; on the 2020 legacy path the issuing thread's `mmc_blk_mq_post_req`
    /// (`legacy_completion_ns`, counted as the softirq's part).
    /// Returns the CPU time it took (hard IRQ and softirq), which the next request of the
    /// same interrupt waits for: one CPU completes them one after another. post_req's unmap is
    /// left out of that time (a simplification: the 2020 board's fitted 34 us read unmap could
    /// not be CPU time on one CPU at the packed read's 17 us per request).
    #[inline(always)]
    pub(crate) fn ctl_req_done(&mut self, req: ReqIdx, gap: u64) -> u64 {
        let h = &self.platform.host;
        let (hard, soft) = match self.host_path() {
            HostPath::MmcTest { .. } => {
                self.mmc_test_transfer_done(req);
                return 0;
            }
            HostPath::Legacy { .. } if self.legacy_thread() => (0, h.legacy_completion_ns),
            HostPath::Legacy { .. } | HostPath::Hsq { .. } | HostPath::Cqe { .. } => {
                let ipi = if h.completion_ipi_ns > 0 && self.reqs.get(req).cpu != 0 {
                    h.completion_ipi_ns
                } else {
                    0
                };
                (h.irq_done_ns, ipi + h.completion_ns)
            }
        };
        if let HostPath::Hsq { .. } = self.host_path() {
            // `mmc_hsq_finalize_request`: out of hsq (`hsq->mrq = NULL`) before its completion.
            self.reqs.get_mut(req).host_finished = true;
            self.mq.host_finished();
        }
        // One draw for the two parts, which run back to back on one CPU: the hard IRQ's part
        // at its mean, the softirq's with the variation.
        let total = self.jitter.software(hard + soft);
        self.ctl_complete(
            req,
            self.now + gap,
            hard.min(total),
            total - hard.min(total),
        );
        total
    }

    /// The completion of `req` from `t` on, as the kernel runs it with nothing in between on
    /// the CPU that took the interrupt: the hard IRQ's part (`hard`: `mmc_blk_hsq_req_done` /
    /// `mmc_blk_cqe_req_done` -> `blk_mq_complete_request`, raising BLOCK_SOFTIRQ), then the
    /// softirq's (`soft`, with the IPI to the submitting CPU if any: `mmc_blk_mq_complete` ->
    /// `mmc_blk_cqe_complete_rq`) and its post_req (`dma_unmap_sg`), up to in_flight--
    /// (`Event::Completed`). One event: the softirq stage opens at its time without one.
    #[inline(always)]
    pub(crate) fn ctl_complete(&mut self, req: ReqIdx, t: u64, hard: u64, soft: u64) {
        let t_soft = t + hard;
        // `stage_at(req, Stage::Softirq, t_soft)` without its call: this is on every
        // request's way.
        let r = self.reqs.get_mut(req);
        self.stage_ns[r.stage.index()] += t_soft.saturating_sub(r.t_stage);
        r.stage = Stage::Softirq;
        r.t_stage = t_soft;
        self.trace_cause(req, Stage::Softirq, t_soft, Cause::None);
        let t_done = t_soft + soft + self.dma_unmap_cost(req);
        self.q.push(t_done, Event::Completed { req });
    }

    /// `Event::Completed` of a request (in_flight--): the CQE and hsq forget it was finished.
    #[inline(always)]
    pub(crate) fn ctl_completed(&mut self, req: ReqIdx) {
        match self.host_path() {
            HostPath::Cqe { .. } | HostPath::Hsq { .. } => self.host_finished_completed(req),
            HostPath::Legacy { .. } | HostPath::MmcTest { .. } => {}
        }
    }

    /// A transfer interrupt finished its requests: on hsq, `mmc_hsq_post_request` of the last
    /// one wakes `mmc_hsq_wait_for_idle` once nothing is queued or running (`!hsq->mrq &&
    /// !hsq->qcnt`): a flush or discard asleep in `->queue_rq` (`mmc_blk_wait_for_idle`) goes
    /// on now, not after the completions (as on the CQE, the wake-up is not charged).
    #[inline]
    pub(crate) fn ctl_irq_done(&mut self) {
        match self.host_path() {
            HostPath::Hsq { .. } => self.blk_mq_wake_parked(),
            HostPath::Cqe { .. } | HostPath::Legacy { .. } | HostPath::MmcTest { .. } => {}
        }
    }

    /// `mrq->done` for a request whose retries are used up (it ends with an I/O error).
    pub(crate) fn ctl_req_failed(&mut self, req: ReqIdx) {
        match self.host_path() {
            HostPath::MmcTest { .. } => self.mmc_test_transfer_done(req),
            HostPath::Hsq { .. } | HostPath::Legacy { .. } | HostPath::Cqe { .. } => {
                let h = &self.platform.host;
                let (hard, soft) = (h.irq_done_ns, h.completion_ns);
                self.ctl_complete(req, self.now, hard, soft);
            }
        }
    }

    /// The recovery work retries a read or write: it goes back to the front of the path's
    /// queue (hsq's slot; the legacy queue on the others, the CQE's too).
    pub(crate) fn ctl_requeue_front(&mut self, req: ReqIdx) {
        match self.host_path() {
            HostPath::Hsq { .. } => {
                let r = self.reqs.get(req);
                let (tag, w4k) = (r.tag.unwrap_or(0), r.op == Op::Write && r.len == 4096);
                self.hsq.requeue_front(req, tag, w4k);
            }
            HostPath::Legacy { .. } | HostPath::MmcTest { .. } | HostPath::Cqe { .. } => {
                self.legacy.push_front(req);
            }
        }
    }

    /// The requests waiting in the path's queue, by id (the snapshot's `host_queue`).
    pub(crate) fn ctl_queued(&self) -> Vec<u64> {
        let ids = |v: &mut dyn Iterator<Item = &ReqIdx>| {
            v.map(|&i| self.reqs.get(i).id).collect::<Vec<_>>()
        };
        match self.host_path() {
            HostPath::Hsq { .. } => ids(&mut self.hsq.queued()),
            HostPath::Legacy { .. } | HostPath::MmcTest { .. } => ids(&mut self.legacy.queued()),
            HostPath::Cqe { .. } => ids(&mut self.cqe.queued()),
        }
    }
}

#[cfg(test)]
mod tests;
