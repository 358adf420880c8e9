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
//! or a second (`calculate_percentile`); the second is per domain, shared by its two
//! histograms, and starts at the first percentile asked that finds samples: a domain with fewer
//! than 500 completions a second has its I/O p90 taken each second, and that resets the second
//! its total p99 waits for, so it never gets one. The timer fires 100 ms after the first
//! completion since it last fired (`timer_reduce`).
//!
//! Kyber throttles only on the device's latency: a read that waits in the scheduler, behind a
//! write batch (up to 8 writes dispatched in a row while writes keep arriving) or behind
//! `hctx->dispatch`, counts in its total latency but not in the I/O latency that marks
//! congestion, so beside a writer on a device that keeps reads fast the depths stay whole.
//!
//! Simplifications: one list per domain for all CPUs (the kernel keeps them per CPU; merges
//! keep to the bio's CPU as there), flushes never enter (they bypass every elevator).

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

/// `kqd->latency_buckets[domain][type]`: 8 buckets of a quarter target each.
type Buckets = [u64; BUCKETS];

/// `add_latency_sample`: the bucket of `latency` against `target`.
fn add_sample(b: &mut Buckets, latency: u64, target: u64) {
    let divisor = (target >> 2).max(1);
    let i = (latency.saturating_sub(1) / divisor).min(BUCKETS as u64 - 1) as usize;
    b[i] += 1;
}

#[derive(Debug)]
pub struct Kyber {
    lists: [VecDeque<ReqIdx>; DOMAINS],
    depth: [u32; DOMAINS],
    in_flight: [u32; DOMAINS],
    cur: usize,
    batching: u32,
    target: [u64; 3],
    io_lat: [Buckets; 3],
    total_lat: [Buckets; 3],
    /// `kqd->latency_timeout[]`: per domain, shared by its two histograms, set by the first
    /// `calculate_percentile` that finds samples.
    latency_timeout: [Option<u64>; 3],
    /// `kqd->domain_p99[]`: a p99 kept for the next congestion.
    p99: [Option<usize>; 3],
    /// When `kqd->timer` fires, if pending.
    timer: Option<u64>,
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
            latency_timeout: [None; 3],
            p99: [None; 3],
            timer: None,
        }
    }

    /// The domains' current token depths.
    #[cfg(test)]
    pub fn depths(&self) -> [u32; DOMAINS] {
        self.depth
    }

    pub fn insert(&mut self, req: ReqIdx, reqs: &Slab, now: u64) {
        self.run_timer(now);
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
    pub fn dispatch(&mut self, _reqs: &Slab, now: u64) -> Option<ReqIdx> {
        self.run_timer(now);
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

    /// `kyber_finish_request` (the token back) + `kyber_completed_request` (the samples, and
    /// `timer_reduce`: the timer fires 100 ms after the first completion since it last fired).
    pub fn completed(&mut self, op: Op, t_alloc: u64, t_dispatch: u64, now: u64) {
        self.run_timer(now);
        let d = domain_of(op);
        self.in_flight[d] = self.in_flight[d].saturating_sub(1);
        if d < 3 {
            add_sample(&mut self.total_lat[d], now - t_alloc, self.target[d]);
            add_sample(&mut self.io_lat[d], now - t_dispatch, self.target[d]);
            self.timer = Some(self.timer.map_or(now + TIMER_NS, |t| t.min(now + TIMER_NS)));
        }
    }

    /// The timer fires on its own (`kyber_timer_fn` runs at its time): each call first runs it
    /// if it is due, before its own samples or dispatch.
    fn run_timer(&mut self, now: u64) {
        if let Some(t) = self.timer.filter(|&t| now >= t) {
            self.timer = None;
            self.timer_fn(t);
        }
    }

    /// `calculate_percentile`: the bucket holding the `p`th percentile of domain `d`'s
    /// histogram, once it has 500 samples or the domain's second has passed (the histogram is
    /// then cleared and the timeout reset); None before.
    fn percentile(&mut self, d: usize, total: bool, p: u64, now: u64) -> Option<usize> {
        let b = if total {
            &mut self.total_lat[d]
        } else {
            &mut self.io_lat[d]
        };
        let n: u64 = b.iter().sum();
        if n == 0 {
            return None;
        }
        let timeout = *self.latency_timeout[d].get_or_insert(now + PATIENCE_NS);
        if n < MIN_SAMPLES && timeout > now {
            return None;
        }
        self.latency_timeout[d] = None;
        let mut want = (n * p).div_ceil(100);
        let mut bucket = BUCKETS - 1;
        for (i, &c) in b.iter().enumerate().take(BUCKETS - 1) {
            if c >= want {
                bucket = i;
                break;
            }
            want -= c;
        }
        *b = [0; BUCKETS];
        Some(bucket)
    }

    /// `kyber_timer_fn`.
    fn timer_fn(&mut self, now: u64) {
        let mut bad = false;
        for d in 0..3 {
            if self
                .percentile(d, false, 90, now)
                .is_some_and(|b| b >= GOOD_BUCKETS)
            {
                bad = true;
            }
        }
        for (d, max) in KYBER_DEPTH.into_iter().enumerate().take(3) {
            let mut p99 = self.percentile(d, true, 99, now);
            if bad {
                p99 = p99.or(self.p99[d]);
                self.p99[d] = None;
            } else if p99.is_some() {
                self.p99[d] = p99;
            }
            let Some(p) = p99 else { continue };
            if bad || p >= GOOD_BUCKETS {
                self.depth[d] = ((self.depth[d] * (p as u32 + 1)) >> 2).clamp(1, max);
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
            k.insert(i, &reqs, 0);
        }
        assert_eq!(k.dispatch(&reqs, 0), Some(r), "reads first");
        assert_eq!(k.dispatch(&reqs, 0), Some(w[0]));
        assert_eq!(k.dispatch(&reqs, 0), None, "one write token");
        k.completed(Op::Write, 0, 0, 1000);
        assert_eq!(k.dispatch(&reqs, 0), Some(w[1]));
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
        k.timer = Some(0);
        k.in_flight = [1, 0, 0, 0];
        k.completed(Op::Read, 0, 0, 5_000_000);
        assert_eq!(k.depths()[0], 256, "bad reads ease (capped at 256)");
        assert_eq!(
            k.depths()[1],
            32,
            "writes at 1/10 of the target: bucket 0, a quarter of 128"
        );
    }

    #[test]
    fn a_domain_short_of_500_samples_a_second_never_gets_its_total_p99() {
        let mut k = Kyber::new(Tunables::of(&Default::default()));
        // Writes at 100 a second, their total latency 30 ms (past the 10 ms target: bucket 7);
        // reads at 5 ms of I/O latency mark congestion once a second.
        let mut t: u64 = 0;
        while t < 5_000_000_000 {
            k.in_flight = [1, 1, 0, 0];
            k.completed(Op::Write, t.saturating_sub(30_000_000), t, t);
            k.completed(Op::Read, t, t.saturating_sub(5_000_000), t + 1);
            t += 10_000_000;
        }
        assert_eq!(
            k.depths()[1],
            128,
            "the write p99 is never computed, so writes are not eased or throttled"
        );
        assert_eq!(k.depths()[0], 256, "the read p99 neither");
    }
}
