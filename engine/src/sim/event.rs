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
    /// The submitting thread's dispatch context (`blk_mq_try_issue_directly`, a plug's
    /// `blk_mq_plug_issue_direct`) goes on: `issued`'s `queue_rq` just finished.
    Dispatch { issued: Option<ReqIdx> },
    /// The same step in kblockd's run (a variant of its own: an event stays 8 bytes).
    KblockdDispatch { issued: ReqIdx },
    /// kblockd runs the hardware queue (`hctx->run_work`); `gen` tells a moved timer's stale
    /// event from the pending one.
    Rerun { gen: u32 },
    /// The I/O scheduler's timer (bfq's idle slice) may have run out.
    ElvTimer,
    /// A CQE task finished on the card (its CQHCI_TCN bit is set).
    CqeTaskDone { req: ReqIdx },
    /// `cqhci_irq` reads CQHCI_TCN: every task finished by then completes.
    CqeIrq,
    /// The host starts the next transfer (IRQ-to-command gap over, or chain built).
    HostStart,
    /// The bus transfer (or ADMA3 chain) that started at generation `gen` raised its interrupt.
    TransferIrq { gen: u32 },
    /// The block softirq has completed a request (`mmc_blk_cqe_complete_rq`: post_req, the
    /// request ended, in_flight--).
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
    ev: Event,
}

/// Pending events sorted latest first, so the next event is the last element: a pop is one load
/// and a length decrement with no branch on times. A push walks in from the end past the events
/// due at or before the new one (few: most new events are due soon), moving each one slot up,
/// and drops the new event in front of them. Events due at the same time thus pop in insertion
/// order without an insertion number: an entry is 16 bytes (time and event), so a queue of tens of
/// events is a few cache lines, and the walk is a handful of compares and 16-byte moves (no
/// binary search, no call to `memmove`). The order is exactly (time, insertion order), as a
/// binary heap of (time, insertion number) gives (tested against a `BinaryHeap` below).
// Two entries per 32 bytes: the walk of a push touches as little memory as possible.
const _: () = assert!(std::mem::size_of::<Entry>() == 16);

#[derive(Debug, Default)]
pub struct EventQueue {
    sorted: Vec<Entry>,
}

impl EventQueue {
    #[inline]
    pub fn push(&mut self, t: u64, ev: Event) {
        let entry = Entry { t, ev };
        self.sorted.push(entry);
        // Every entry due at or before `t` (ties included: they were pushed earlier and pop
        // first) moves one slot towards the end; the new one goes in front of them. (On a
        // slice: its start and length stay in registers through the walk.)
        let v = self.sorted.as_mut_slice();
        let mut i = v.len() - 1;
        while let Some(prev) = i.checked_sub(1) {
            let e = v[prev];
            if e.t > t {
                break;
            }
            v[i] = e;
            i = prev;
        }
        v[i] = entry;
    }
    /// Pushes `evs`, all due at `t`, as that many [`push`](Self::push)es in their order would:
    /// one walk and one move of the entries due at or before `t`, so the requests of an I/O
    /// split into thousands cost their number, not its square (each `push` walks past the
    /// ties pushed before it).
    pub fn push_all(&mut self, t: u64, evs: &[Event]) {
        let v = &mut self.sorted;
        let mut i = v.len();
        while i > 0 && v[i - 1].t <= t {
            i -= 1;
        }
        v.splice(i..i, evs.iter().rev().map(|&ev| Entry { t, ev }));
    }
    #[inline]
    pub fn pop(&mut self) -> Option<(u64, Event)> {
        self.sorted.pop().map(|e| (e.t, e.ev))
    }
    pub fn peek_time(&self) -> Option<u64> {
        self.sorted.last().map(|e| e.t)
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

    #[test]
    fn pushing_all_at_once_is_pushing_each_in_turn() {
        use rand::RngExt as _;
        let mut rng = crate::rng::stream(12, 12);
        let (mut one, mut all) = (EventQueue::default(), EventQueue::default());
        let mut job = 0u32;
        for _ in 0..2_000 {
            let t = rng.random_range(0..50u64);
            let n = rng.random_range(0..6usize);
            let evs: Vec<Event> = (0..n)
                .map(|_| {
                    job += 1;
                    Event::JobIssue { job }
                })
                .collect();
            for &ev in &evs {
                one.push(t, ev);
            }
            all.push_all(t, &evs);
            if rng.random_range(0..3u32) == 0 {
                assert_eq!(one.pop(), all.pop());
            }
        }
        while let Some(e) = one.pop() {
            assert_eq!(all.pop(), Some(e));
        }
        assert!(all.is_empty());
    }
}
