//! Kyber (block/kyber-iosched.c, Linux 6.1): requests wait in per-domain lists (read, write,
//! discard, other); a request is dispatched only with a token of its domain, and each domain's
//! token depth (`kyber_depth`: 256, 128, 64, 16) is tuned every 100 ms against latency targets
//! (`read_lat_nsec` 2 ms, `write_lat_nsec` 10 ms, discards 5 s). `kyber_dispatch_request`
//! serves the current domain for a batch (`kyber_batch_size`: 16 reads, 8 writes, 1, 1), then
//! goes round to the next domain with work and a token.
//!
//! `kyber_timer_fn`: a domain whose I/O latency p90 (dispatch to completion) lies past its
//! target marks congestion; then every domain's depth is scaled by its total latency p99
//! (allocation to completion) against its target, in quarters of the target (depth x (p99
//! bucket + 1) / 4, clamped to 1..=kyber_depth): throttled when latencies are good, eased when
//! they are bad. Percentiles come from 8 buckets of a quarter target each, and need 500 samples
//! or a second of them (`calculate_percentile`).
//!
//! Simplifications: one list per domain for all CPUs (the kernel keeps them per CPU; merges
//! keep to the bio's CPU as there), the timer evaluated at the first completion after its 100
//! ms (the kernel's timer fires on its own), flushes never enter (they bypass every elevator).

use std::collections::VecDeque;

use super::{try_merge, Bio, Merge, Tunables};
use crate::sim::request::Slab;
use crate::sim::ReqIdx;
use crate::vocab::Op;

const DOMAINS: usize = 4;
/// `kyber_depth[]`: the tokens per domain before any throttling.
const KYBER_DEPTH: [u32; DOMAINS] = [256, 128, 64, 16];
/// `kyber_batch_size[]`.
const KYBER_BATCH: [u32; DOMAINS] = [16, 8, 1, 1];
const BUCKETS: usize = 8;
/// `KYBER_GOOD_BUCKETS`: buckets 0..4 lie within the target.
const GOOD_BUCKETS: usize = 4;
/// The timer's period (`HZ / 10`) and the percentile's patience (`HZ`, 500 samples).
const TIMER_NS: u64 = 100_000_000;
const PATIENCE_NS: u64 = 1_000_000_000;
const MIN_SAMPLES: u64 = 500;

fn domain_of(op: Op) -> usize {
    match op {
        Op::Read => 0,
        Op::Write => 1,
        Op::Discard => 2,
        Op::Flush => 3,
    }
}

#[derive(Debug, Default, Clone, Copy)]
struct Histogram {
    buckets: [u64; BUCKETS],
    /// When the first sample of this window came (`latency_timeout` starts then).
    since: Option<u64>,
}

impl Histogram {
    fn add(&mut self, latency: u64, target: u64, now: u64) {
        let divisor = (target >> 2).max(1);
        let b = (latency.saturating_sub(1) / divisor).min(BUCKETS as u64 - 1) as usize;
        self.buckets[b] += 1;
        self.since.get_or_insert(now);
    }

    /// `calculate_percentile`: the bucket holding the `p`th percentile, once there are enough
    /// samples (the histogram is then cleared); None before.
    fn percentile(&mut self, p: u64, now: u64) -> Option<usize> {
        let n: u64 = self.buckets.iter().sum();
        let since = self.since?;
        if n == 0 || (n < MIN_SAMPLES && now < since + PATIENCE_NS) {
            return None;
        }
        let want = (n * p).div_ceil(100);
        let mut seen = 0;
        let b = self.buckets.iter().position(|&c| {
            seen += c;
            seen >= want
        });
        *self = Histogram::default();
        b
    }
}

#[derive(Debug)]
pub struct Kyber {
    lists: [VecDeque<ReqIdx>; DOMAINS],
    depth: [u32; DOMAINS],
    in_flight: [u32; DOMAINS],
    cur: usize,
    batching: u32,
    target: [u64; 3],
    io_lat: [Histogram; 3],
    total_lat: [Histogram; 3],
    /// `kqd->domain_p99[]`: a p99 kept for the next congestion.
    p99: [Option<usize>; 3],
    next_timer: u64,
}

impl Kyber {
    pub fn new(t: Tunables) -> Kyber {
        Kyber {
            lists: Default::default(),
            depth: KYBER_DEPTH,
            in_flight: [0; DOMAINS],
            cur: 0,
            batching: 0,
            target: t.kyber_target_ns,
            io_lat: Default::default(),
            total_lat: Default::default(),
            p99: [None; 3],
            next_timer: TIMER_NS,
        }
    }

    /// The domains' current token depths.
    #[cfg(test)]
    pub fn depths(&self) -> [u32; DOMAINS] {
        self.depth
    }

    pub fn insert(&mut self, req: ReqIdx, reqs: &Slab) {
        self.lists[domain_of(reqs.get(req).op)].push_back(req);
    }

    pub fn has_work(&self) -> bool {
        self.lists.iter().any(|l| !l.is_empty())
    }

    /// `kyber_dispatch_cur_domain`: a request of the current domain if it has one and a token.
    fn dispatch_cur(&mut self) -> Option<ReqIdx> {
        let d = self.cur;
        if self.in_flight[d] >= self.depth[d] {
            return None;
        }
        let r = self.lists[d].pop_front()?;
        self.in_flight[d] += 1;
        self.batching += 1;
        Some(r)
    }

    /// `kyber_dispatch_request`.
    pub fn dispatch(&mut self, _reqs: &Slab) -> Option<ReqIdx> {
        if self.batching < KYBER_BATCH[self.cur] {
            if let Some(r) = self.dispatch_cur() {
                return Some(r);
            }
        }
        self.batching = 0;
        for _ in 0..DOMAINS {
            self.cur = (self.cur + 1) % DOMAINS;
            if let Some(r) = self.dispatch_cur() {
                return Some(r);
            }
        }
        None
    }

    /// `kyber_bio_merge` -> `blk_bio_list_merge` on the domain's list (last eight of the CPU).
    pub fn bio_merge(&self, bio: &Bio, reqs: &Slab, max: u64) -> Option<(ReqIdx, Merge)> {
        self.lists[domain_of(bio.op)]
            .iter()
            .rev()
            .filter(|&&r| reqs.get(r).cpu == bio.cpu)
            .take(8)
            .find_map(|&r| try_merge(reqs.get(r), bio, max).map(|m| (r, m)))
    }

    pub fn remove(&mut self, req: ReqIdx, reqs: &Slab) {
        self.lists[domain_of(reqs.get(req).op)].retain(|&r| r != req);
    }

    /// `kyber_finish_request` (the token back) + `kyber_completed_request` (the samples), and
    /// the timer when its period is over.
    pub fn completed(&mut self, op: Op, t_alloc: u64, t_dispatch: u64, now: u64) {
        let d = domain_of(op);
        self.in_flight[d] = self.in_flight[d].saturating_sub(1);
        if d < 3 {
            self.io_lat[d].add(now - t_dispatch, self.target[d], now);
            self.total_lat[d].add(now - t_alloc, self.target[d], now);
        }
        if now >= self.next_timer {
            self.timer(now);
            self.next_timer = now + TIMER_NS;
        }
    }

    /// `kyber_timer_fn`.
    fn timer(&mut self, now: u64) {
        let mut bad = false;
        for d in 0..3 {
            if self.io_lat[d]
                .percentile(90, now)
                .is_some_and(|b| b >= GOOD_BUCKETS)
            {
                bad = true;
            }
        }
        let domains = self
            .total_lat
            .iter_mut()
            .zip(&mut self.p99)
            .zip(&mut self.depth);
        for (((h, kept), depth), max) in domains.zip(KYBER_DEPTH) {
            let mut p99 = h.percentile(99, now);
            if bad {
                p99 = p99.or(*kept);
                *kept = None;
            } else if p99.is_some() {
                *kept = p99;
            }
            let Some(p) = p99 else { continue };
            if bad || p >= GOOD_BUCKETS {
                *depth = ((*depth * (p as u32 + 1)) >> 2).clamp(1, max);
            }
        }
    }

    pub fn waiting(&self) -> Vec<ReqIdx> {
        self.lists.iter().flatten().copied().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_domain_without_a_token_waits_while_another_is_served() {
        let mut reqs = Slab::default();
        let mut k = Kyber::new(Tunables::of(&Default::default()));
        k.depth[1] = 1;
        let w: Vec<ReqIdx> = (0..2)
            .map(|i| {
                reqs.insert(crate::sim::request::tests::request(
                    Op::Write,
                    i * 4096,
                    4096,
                ))
            })
            .collect();
        let r = reqs.insert(crate::sim::request::tests::request(Op::Read, 1 << 20, 4096));
        for &i in w.iter().chain([&r]) {
            k.insert(i, &reqs);
        }
        assert_eq!(k.dispatch(&reqs), Some(r), "reads first");
        assert_eq!(k.dispatch(&reqs), Some(w[0]));
        assert_eq!(k.dispatch(&reqs), None, "one write token");
        k.completed(Op::Write, 0, 0, 1000);
        assert_eq!(k.dispatch(&reqs), Some(w[1]));
    }

    #[test]
    fn congestion_throttles_the_domains_with_good_latency() {
        let mut k = Kyber::new(Tunables::of(&Default::default()));
        // 600 reads at 5 ms (past the 2 ms target) and 600 writes at 1 ms (well within 10 ms).
        for i in 0..600u64 {
            k.in_flight = [1, 1, 0, 0];
            k.completed(Op::Read, 0, 0, 5_000_000 + i);
            k.completed(Op::Write, 1_000_000 + i, 1_000_000 + i, 2_000_000 + i);
        }
        k.next_timer = 0;
        k.in_flight = [1, 0, 0, 0];
        k.completed(Op::Read, 0, 0, 5_000_000);
        assert_eq!(k.depths()[0], 256, "bad reads ease (capped at 256)");
        assert_eq!(
            k.depths()[1],
            32,
            "writes at 1/10 of the target: bucket 0, a quarter of 128"
        );
    }
}
