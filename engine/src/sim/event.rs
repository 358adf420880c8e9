//! The event queue: pending events ordered by simulated time, ties broken by insertion order,
//! so a run is deterministic.

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
    /// Time in the high 64 bits, insertion number in the low ones: one number whose order is
    /// (time, insertion order).
    key: u128,
    ev: Event,
}

/// Pending events sorted latest first, so the next event is the last element: a pop is one load
/// and a length decrement with no branch on times, and a push moves only the events due before
/// the new one (few: most new events are due soon). A run has tens of events pending, where this
/// beats a binary heap's sift-down, whose comparisons of varying times mispredict. The order is
/// exactly (time, insertion order), as before (tested against a `BinaryHeap` below).
#[derive(Debug, Default)]
pub struct EventQueue {
    sorted: Vec<Entry>,
    seq: u64,
}

impl EventQueue {
    #[inline]
    pub fn push(&mut self, t: u64, ev: Event) {
        self.seq += 1;
        let key = (t as u128) << 64 | self.seq as u128;
        // Every key is unique; the entries due after this one stay in front of it.
        let at = self.sorted.partition_point(|e| e.key > key);
        self.sorted.insert(at, Entry { key, ev });
    }
    #[inline]
    pub fn pop(&mut self) -> Option<(u64, Event)> {
        self.sorted.pop().map(|e| ((e.key >> 64) as u64, e.ev))
    }
    pub fn peek_time(&self) -> Option<u64> {
        self.sorted.last().map(|e| (e.key >> 64) as u64)
    }
    pub fn is_empty(&self) -> bool {
        self.sorted.is_empty()
    }
    pub fn clear(&mut self) {
        self.sorted.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    #[test]
    fn pops_in_time_then_insertion_order_as_a_heap_does() {
        use rand::RngExt as _;
        let mut rng = crate::rng::stream(11, 11);
        let mut q = EventQueue::default();
        // The former queue: a max-heap of reversed (time, insertion number).
        let mut heap = BinaryHeap::new();
        let mut seq = 0u64;
        let mut now = 0u64;
        for i in 0..200_000u32 {
            // Bursts of pushes (many at the same time: ties) and pops, 0 to ~60 pending.
            if heap.len() < 60 && (heap.is_empty() || rng.random_range(0..100u32) < 52) {
                let dt = match rng.random_range(0..4u32) {
                    0 => 0,
                    1 => rng.random_range(0..10u64),
                    _ => rng.random_range(0..1_000_000u64),
                };
                seq += 1;
                heap.push(Reverse((now + dt, seq, i)));
                q.push(now + dt, Event::JobIssue { job: i });
            } else {
                let Reverse((t, _, job)) = heap.pop().expect("not empty");
                assert_eq!(q.peek_time(), Some(t));
                assert_eq!(q.pop(), Some((t, Event::JobIssue { job })), "pop {i}");
                now = t;
            }
        }
        while let Some(Reverse((t, _, job))) = heap.pop() {
            assert_eq!(q.pop(), Some((t, Event::JobIssue { job })));
        }
        assert!(q.is_empty() && q.pop().is_none() && q.peek_time().is_none());
    }
}
