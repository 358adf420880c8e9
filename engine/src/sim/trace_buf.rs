//! The trace stream: a bounded ring of trace events in time order. Bus phases are known when a
//! transfer starts but lie in the future; they wait in `pending` until simulated time reaches
//! them, so the stream a caller drains is always in time order.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use crate::vocab::TraceEvent;

#[derive(Debug, Default)]
pub struct TraceBuf {
    cap: usize,
    ring: VecDeque<TraceEvent>,
    pending: BinaryHeap<Reverse<(u64, u64, TraceEvent)>>,
    seq: u64,
    /// Events dropped because the caller did not drain in time.
    pub dropped: u64,
}

impl TraceBuf {
    pub fn enabled(&self) -> bool {
        self.cap > 0
    }
    pub fn set_capacity(&mut self, n: usize) {
        self.cap = n;
        while self.ring.len() > n {
            self.ring.pop_front();
        }
        if n == 0 {
            self.pending.clear();
        }
    }
    fn append(&mut self, e: TraceEvent) {
        if self.ring.len() >= self.cap {
            self.ring.pop_front();
            self.dropped += 1;
        }
        self.ring.push_back(e);
    }
    pub fn push(&mut self, now: u64, e: TraceEvent) {
        if e.t_ns <= now && self.pending.is_empty() {
            self.append(e);
        } else {
            self.seq += 1;
            self.pending.push(Reverse((e.t_ns, self.seq, e)));
            self.release(now);
        }
    }
    /// Moves pending events with time <= now into the ring.
    pub fn release(&mut self, now: u64) {
        while let Some(Reverse((t, _, e))) = self.pending.peek().copied() {
            if t > now {
                break;
            }
            self.pending.pop();
            self.append(e);
        }
    }
    pub fn drain(&mut self) -> Vec<TraceEvent> {
        self.ring.drain(..).collect()
    }
}
