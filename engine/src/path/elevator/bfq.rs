//! BFQ (block/bfq-iosched.c, Linux 6.1): one queue per process (here per fio job clone), served
//! one at a time by budget. The queue in service dispatches, nearest sector first from where it
//! left off, until its budget (`bfq_default_max_budget`: 16384 sectors) is spent, its time is
//! up (`timeout_sync`: 125 ms) or it has nothing left; the next queue is the backlogged one with
//! the earliest virtual finish time (B-WF2Q+, all weights equal). A synchronous queue that
//! empties while its requests are in flight keeps the device, idle, for `slice_idle` (8 ms) when
//! idling pays (`bfq_better_to_idle`): on a non-rotational device only if the device does not
//! queue commands (`hw_tag`: at most 3 requests seen in the driver, `bfq_update_hw_tag`) and
//! the queue is sequential (`BFQQ_SEEKY`: more than 4 of its last 32 requests were small and
//! far from the one before) with a short think time.
//!
//! Simplifications: equal weights and no weight raising (`low_latency`'s boost of interactive
//! and soft real-time queues), a fixed budget per turn (the kernel tunes it per queue and the
//! maximum from the peak rate), the think time as the last gap only, no groups.

use std::collections::{BTreeMap, HashMap};

use super::{try_merge, Bio, Merge, Tunables};
use crate::sim::request::Slab;
use crate::sim::ReqIdx;

/// `bfq_default_max_budget`: 16 * 1024 sectors, bytes.
const MAX_BUDGET: u64 = 16 * 1024 * 512;
/// `bfq_timeout` (HZ / 8).
const TIMEOUT_NS: u64 = 125_000_000;
/// `BFQ_HW_QUEUE_THRESHOLD`, `BFQ_HW_QUEUE_SAMPLES`.
const HW_QUEUE_THRESHOLD: u32 = 3;
const HW_QUEUE_SAMPLES: u32 = 32;
/// `BFQQ_SEEK_THR` (800 sectors) and `BFQQ_SECT_THR_NONROT` (32 sectors), bytes.
const SEEK_THR: u64 = 800 * 512;
const SECT_THR_NONROT: u64 = 32 * 512;

#[derive(Debug, Default)]
struct Queue {
    /// `bfqq->sort_list`: (sector, insertion number) -> request.
    sorted: BTreeMap<(u64, u64), ReqIdx>,
    dispatched: u32,
    budget_left: u64,
    vfinish: u64,
    /// Where its last dispatched request ended (`bfqq->last_request_pos`).
    last_pos: u64,
    /// `bfqq->seek_history`: one bit per request, set when it was seeky.
    seek_history: u32,
    /// When its last request completed, and the gap to the next arrival (think time).
    last_done: Option<u64>,
    ttime_ns: u64,
}

impl Queue {
    fn seeky(&self) -> bool {
        self.seek_history.count_ones() > 32 / 8
    }
}

#[derive(Debug)]
pub struct Bfq {
    queues: BTreeMap<u32, Queue>,
    of: HashMap<ReqIdx, (u32, (u64, u64))>,
    in_service: Option<u32>,
    service_start: u64,
    /// The idle slice's end while the queue in service idles (`bfq_arm_slice_timer`).
    idle_until: Option<u64>,
    vtime: u64,
    seq: u64,
    slice_idle_ns: u64,
    rq_in_driver: u32,
    max_rq_in_driver: u32,
    hw_tag_samples: u32,
    /// `bfqd->hw_tag`: None until detected.
    hw_tag: Option<bool>,
}

impl Bfq {
    pub fn new(t: Tunables) -> Bfq {
        Bfq {
            queues: BTreeMap::new(),
            of: HashMap::new(),
            in_service: None,
            service_start: 0,
            idle_until: None,
            vtime: 0,
            seq: 0,
            slice_idle_ns: t.slice_idle_ns,
            rq_in_driver: 0,
            max_rq_in_driver: 0,
            hw_tag_samples: 0,
            hw_tag: None,
        }
    }

    /// `bfq_insert_request` -> `bfq_add_request`: into its process's queue; a queue that was
    /// empty and not in service becomes backlogged with a new virtual finish time.
    pub fn insert(&mut self, req: ReqIdx, reqs: &Slab, now: u64) {
        let r = reqs.get(req);
        self.seq += 1;
        let key = (r.offset, self.seq);
        let in_service = self.in_service == Some(r.job);
        let vtime = self.vtime;
        let q = self.queues.entry(r.job).or_default();
        if q.sorted.is_empty() && !in_service {
            q.vfinish = q.vfinish.max(vtime) + MAX_BUDGET;
        }
        if let Some(t) = q.last_done.take() {
            q.ttime_ns = now.saturating_sub(t);
        }
        q.sorted.insert(key, req);
        self.of.insert(req, (r.job, key));
        if in_service {
            // `bfq_rq_enqueued`: the queue it idled for has a request: stop idling.
            self.idle_until = None;
        }
    }

    pub fn has_work(&self) -> bool {
        !self.of.is_empty()
    }

    /// `bfq_better_to_idle` for the queue of `job`, as it holds on a non-rotational device.
    fn better_to_idle(&self, job: u32) -> bool {
        let Some(q) = self.queues.get(&job) else {
            return false;
        };
        self.slice_idle_ns > 0
            && self.hw_tag == Some(false)
            && !q.seeky()
            && q.ttime_ns < self.slice_idle_ns
    }

    /// `bfq_bfqq_expire`: the queue in service leaves; the virtual time moves to its finish.
    fn expire(&mut self) {
        if let Some(job) = self.in_service.take() {
            if let Some(q) = self.queues.get_mut(&job) {
                let served = MAX_BUDGET - q.budget_left;
                q.vfinish = q.vfinish.saturating_sub(MAX_BUDGET) + served.max(1);
                self.vtime = self.vtime.max(q.vfinish);
                if !q.sorted.is_empty() {
                    q.vfinish = q.vfinish.max(self.vtime) + MAX_BUDGET;
                }
            }
        }
        self.idle_until = None;
    }

    /// `bfq_select_queue` + `bfq_dispatch_rq_from_bfqq`.
    pub fn dispatch(&mut self, reqs: &Slab, now: u64) -> Option<ReqIdx> {
        if let Some(job) = self.in_service {
            let q = &self.queues[&job];
            let next = Self::next_rq(q);
            let timed_out = now > self.service_start + TIMEOUT_NS;
            match next {
                Some((_, r)) if !timed_out && reqs.get(r).len <= q.budget_left => {
                    return Some(self.take(job, r, reqs));
                }
                None if self.idle_until.is_some_and(|t| now < t)
                    || (q.dispatched > 0 && self.better_to_idle(job)) =>
                {
                    return None;
                }
                _ => self.expire(),
            }
        }
        let job = self
            .queues
            .iter()
            .filter(|(_, q)| !q.sorted.is_empty())
            .min_by_key(|(&j, q)| (q.vfinish, j))
            .map(|(&j, _)| j)?;
        self.in_service = Some(job);
        self.service_start = now;
        self.queues.get_mut(&job)?.budget_left = MAX_BUDGET;
        let (_, r) = Self::next_rq(&self.queues[&job])?;
        Some(self.take(job, r, reqs))
    }

    /// `bfq_choose_req` (simplified): the first request at or after the last position, else
    /// the lowest sector.
    fn next_rq(q: &Queue) -> Option<((u64, u64), ReqIdx)> {
        q.sorted
            .range((q.last_pos, 0)..)
            .next()
            .or_else(|| q.sorted.iter().next())
            .map(|(&k, &r)| (k, r))
    }

    fn take(&mut self, job: u32, req: ReqIdx, reqs: &Slab) -> ReqIdx {
        let r = reqs.get(req);
        let (_, key) = self.of.remove(&req).expect("queued in bfq");
        let q = self.queues.get_mut(&job).expect("its queue");
        q.sorted.remove(&key);
        let dist = r.offset.abs_diff(q.last_pos);
        let seeky = dist > SEEK_THR && r.len < SECT_THR_NONROT;
        q.seek_history = (q.seek_history << 1) | u32::from(seeky);
        q.last_pos = r.offset + r.len;
        q.budget_left = q.budget_left.saturating_sub(r.len);
        q.dispatched += 1;
        self.rq_in_driver += 1;
        req
    }

    /// `bfq_bio_merge`: into the bio's process queue only; with one queue per job the job is
    /// not in the bio, so any queue's request adjacent to it (the kernel finds the same one:
    /// fio's jobs write their own regions).
    pub fn bio_merge(&self, bio: &Bio, reqs: &Slab, max: u64) -> Option<(ReqIdx, Merge)> {
        self.queues.values().find_map(|q| {
            q.sorted
                .range(..(bio.end(), u64::MAX))
                .rev()
                .take(2)
                .find_map(|(_, &r)| try_merge(reqs.get(r), bio, max).map(|m| (r, m)))
        })
    }

    pub fn remove(&mut self, req: ReqIdx, _reqs: &Slab) {
        if let Some((job, key)) = self.of.remove(&req) {
            if let Some(q) = self.queues.get_mut(&job) {
                q.sorted.remove(&key);
            }
        }
    }

    /// `bfq_completed_request`: the driver count, `bfq_update_hw_tag`, and the idle slice when
    /// the queue in service has emptied and idling pays.
    pub fn completed(&mut self, job: u32, now: u64) {
        self.max_rq_in_driver = self.max_rq_in_driver.max(self.rq_in_driver);
        let queued = self.of.len() as u32;
        if self.hw_tag != Some(true) && self.rq_in_driver + queued > HW_QUEUE_THRESHOLD {
            self.hw_tag_samples += 1;
            if self.hw_tag_samples >= HW_QUEUE_SAMPLES {
                self.hw_tag = Some(self.max_rq_in_driver > HW_QUEUE_THRESHOLD);
                self.max_rq_in_driver = 0;
                self.hw_tag_samples = 0;
            }
        }
        self.rq_in_driver = self.rq_in_driver.saturating_sub(1);
        let Some(q) = self.queues.get_mut(&job) else {
            return;
        };
        q.dispatched = q.dispatched.saturating_sub(1);
        q.last_done = Some(now);
        let empty = q.sorted.is_empty() && q.dispatched == 0;
        if self.in_service == Some(job) && empty {
            if self.better_to_idle(job) {
                self.idle_until = Some(now + self.slice_idle_ns);
            } else {
                self.expire();
            }
        }
    }

    /// The idle slice's end, while idling.
    pub fn timer_at(&self) -> Option<u64> {
        self.idle_until
    }

    pub fn waiting(&self) -> Vec<ReqIdx> {
        self.queues
            .values()
            .flat_map(|q| q.sorted.values().copied())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::request::tests::request;
    use crate::vocab::Op;

    #[test]
    fn one_process_is_served_for_its_budget_before_the_next() {
        let mut reqs = Slab::default();
        let mut b = Bfq::new(Tunables::of(&Default::default()));
        let mut add = |job, off| {
            let mut r = request(Op::Write, off, 4096);
            r.job = job;
            reqs.insert(r)
        };
        let a: Vec<ReqIdx> = (0..3).map(|k| add(1, k * 4096)).collect();
        let c: Vec<ReqIdx> = (0..3).map(|k| add(2, (1 << 30) + k * 4096)).collect();
        for &i in a.iter().chain(&c) {
            b.insert(i, &reqs, 0);
        }
        let order: Vec<ReqIdx> = std::iter::from_fn(|| b.dispatch(&reqs, 0)).collect();
        assert_eq!(
            order,
            [a.clone(), c.clone()].concat(),
            "job 1's queue, then job 2's"
        );
    }

    #[test]
    fn a_sequential_reader_keeps_a_non_queueing_device_idle() {
        let mut reqs = Slab::default();
        let mut b = Bfq::new(Tunables::of(&Default::default()));
        b.hw_tag = Some(false);
        let mut r = request(Op::Read, 0, 4096);
        r.job = 1;
        let first = reqs.insert(r);
        let mut w = request(Op::Write, 1 << 30, 4096);
        w.job = 2;
        let write = reqs.insert(w);
        b.insert(first, &reqs, 0);
        b.insert(write, &reqs, 0);
        assert_eq!(b.dispatch(&reqs, 0), Some(first));
        assert_eq!(
            b.dispatch(&reqs, 10),
            None,
            "the reader's request is in flight: idle"
        );
        b.completed(1, 100);
        assert_eq!(b.timer_at(), Some(100 + 8_000_000));
        assert_eq!(b.dispatch(&reqs, 200), None, "still idling for the reader");
        assert_eq!(
            b.dispatch(&reqs, 100 + 8_000_000),
            Some(write),
            "the slice ran out"
        );
    }
}
