//! The event queue: pending events ordered by simulated time, ties broken by insertion order,
//! so a run is deterministic.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// Index of a request in the request slab.
pub type ReqIdx = u32;

/// Something that happens at a point of simulated time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// fio job `job` issues its next I/O (the system call starts).
    JobIssue { job: u32 },
    /// The I/O's bio reaches blk-mq (`blk_mq_submit_bio`): take a tag, insert, run the queue.
    BlkMqInsert { req: ReqIdx },
    /// A dispatch context runs `blk_mq_dispatch_rq_list`; `issued` is the request whose
    /// `queue_rq` just finished in this context.
    Dispatch { issued: Option<ReqIdx> },
    /// kblockd re-runs the hardware queue (`blk_mq_run_hw_queues(q, true)`).
    Rerun,
    /// A CQE task's completion interrupt.
    CqeTaskDone { req: ReqIdx },
    /// The host starts the next transfer (IRQ-to-command gap over, or chain built).
    HostStart,
    /// The bus transfer (or ADMA3 chain) that started at generation `gen` raised its interrupt.
    TransferIrq { gen: u32 },
    /// The completion pass of a request is over (`blk_mq_complete_request`, in_flight--).
    Completed { req: ReqIdx },
    /// fio reaps the completion of `req` in its job thread.
    Reaped { req: ReqIdx },
    /// The mmc_test thread wakes (see `mmc_test.rs`).
    MmcTestStep,
    /// The simulated power supply is cut.
    PowerCut,
    /// The recovery work (`mmc_blk_mq_recovery`) for a failed request takes its next step.
    RecoveryStep { req: ReqIdx },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    t: u64,
    seq: u64,
    ev: Event,
}

impl Entry {
    #[inline(always)]
    fn key(&self) -> u128 {
        (self.t as u128) << 64 | self.seq as u128
    }
}

impl Ord for Entry {
    fn cmp(&self, o: &Self) -> Ordering {
        // BinaryHeap is a max-heap: reverse for earliest first. (t, seq) compared as one
        // 128-bit number: the same order, without a branch between the two halves.
        o.key().cmp(&self.key())
    }
}
impl PartialOrd for Entry {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

#[derive(Debug, Default)]
pub struct EventQueue {
    heap: BinaryHeap<Entry>,
    seq: u64,
}

impl EventQueue {
    pub fn push(&mut self, t: u64, ev: Event) {
        self.seq += 1;
        self.heap.push(Entry {
            t,
            seq: self.seq,
            ev,
        });
    }
    pub fn pop(&mut self) -> Option<(u64, Event)> {
        self.heap.pop().map(|e| (e.t, e.ev))
    }
    pub fn peek_time(&self) -> Option<u64> {
        self.heap.peek().map(|e| e.t)
    }
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }
    pub fn clear(&mut self) {
        self.heap.clear();
    }
}
