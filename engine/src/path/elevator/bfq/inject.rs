//! BFQ's I/O injection (block/bfq-iosched.c, Linux 6.1): while the queue in service idles
//! (empty, waiting for its process's next request), other queues' requests may go to the drive,
//! as many as the queue's `inject_limit` counts in the driver. The limit adapts to what
//! injection does to the queue's own service time (`bfq_update_inject_limit`): the time from
//! its request's arrival in an empty drive (or one holding injected requests) to its
//! completion is sampled; a limit that makes it half as long again goes down, one that keeps it
//! short goes up. A queue with a short think time starts at 0 (`bfq_reset_inject_limit`, every
//! second), and large requests (`BFQQ_SECT_THR_NONROT`) are injected only into an empty drive.

use super::{sectors, Bfq, SECT_THR_NONROT};
use crate::sim::request::Slab;

/// `bfq_reset_inject_limit`'s period (1000 ms) and the sampling's minimum gap after a decrease
/// (10 ms).
const RESET_NS: u64 = 1_000_000_000;
const SAMPLE_GAP_NS: u64 = 10_000_000;

impl Bfq {
    /// `bfq_add_request`, for a request of a process with no other: the periodic
    /// `bfq_reset_inject_limit`, and a new sample of the service time when the queue is in
    /// service and the drive empty (or holding injected requests).
    pub(super) fn inject_sampling(&mut self, job: u32, now: u64) {
        let short = self.has_short_ttime(self.q(job));
        let q = self.qm(job);
        if q.decrease_time.is_none_or(|t| now >= t + RESET_NS) {
            // `bfq_reset_inject_limit`.
            q.last_serv_time_ns = 0;
            q.inject_limit = u32::from(!short);
            q.decrease_time = Some(now);
            self.waited_rq = None;
        }
        let q = self.q(job);
        let sample = self.in_service == Some(job)
            && (self.rq_in_driver == 0
                || (q.last_serv_time_ns > 0 && self.rqs_injected && self.rq_in_driver > 0))
            && q.decrease_time.is_some_and(|t| now >= t + SAMPLE_GAP_NS);
        if sample {
            self.last_empty_occupied_ns = now;
            self.wait_dispatch = true;
            if self.rq_in_driver == 0 {
                self.rqs_injected = false;
            }
        }
    }

    /// `bfq_select_queue`'s idling branch: the queue to inject from while `job`'s queue idles,
    /// if injection pays (`!idling_boosts_thr_without_issues`, and the queue is not raised with
    /// a short think time beside no other raised queue) and `bfq_choose_bfqq_for_injection`
    /// finds one.
    pub(super) fn injection_candidate(&mut self, job: u32, reqs: &Slab) -> Option<u32> {
        let s = self.q(job);
        let short = self.has_short_ttime(s);
        let wr_busy = self.wr_busy_queues();
        if self.idling_boosts_thr_without_issues(job) || (s.wr_coeff > 1 && wr_busy <= 1 && short) {
            return None;
        }
        self.choose_for_injection(job, reqs)
    }

    /// `bfq_choose_bfqq_for_injection`: a busy queue with a request its budget covers, raised
    /// unless the queue in service is not raised or thinks long; within the limit. (The
    /// kernel's temporary limit of 1 after a slice of idling compares jiffies with the slice in
    /// ns, so never holds, and is left out.)
    fn choose_for_injection(&mut self, job: u32, reqs: &Slab) -> Option<u32> {
        let s = self.q(job);
        let always = s.wr_coeff == 1 || !self.has_short_ttime(s);
        if self.rq_in_driver >= s.inject_limit {
            return None;
        }
        let in_driver = self.rq_in_driver;
        let found = self.ix.busy.iter().find_map(|&j| {
            let q = &self.queues[&j];
            if j == job || !(always || q.wr_coeff > 1) {
                return None;
            }
            let (_, r) = Self::next_rq(q)?;
            let len = reqs.get(r).len;
            if sectors(len) > q.budget_left() || (len >= SECT_THR_NONROT && in_driver >= 1) {
                return None;
            }
            Some(j)
        });
        if found.is_some() {
            self.rqs_injected = true;
        }
        found
    }

    /// `bfq_update_inject_limit`, at the completion of the request sampled (before the driver
    /// count drops): lower the limit if injection made its total service time 1.5 times the
    /// base one, raise it if not; the base is the time with the drive to itself.
    pub(super) fn update_inject_limit(&mut self, job: u32, now: u64) {
        let tot = now.saturating_sub(self.last_empty_occupied_ns);
        let (injected, in_driver, max) =
            (self.rqs_injected, self.rq_in_driver, self.max_rq_in_driver);
        let q = self.qm(job);
        let old = q.inject_limit;
        if q.last_serv_time_ns > 0 && injected {
            let threshold = (q.last_serv_time_ns * 3) >> 1;
            if tot >= threshold && old > 0 {
                q.inject_limit -= 1;
                q.decrease_time = Some(now);
            } else if tot < threshold && old <= max {
                q.inject_limit += 1;
            }
        }
        if (q.last_serv_time_ns == 0 && in_driver == 1) || tot < q.last_serv_time_ns {
            if q.last_serv_time_ns == 0 {
                q.inject_limit = old.max(1);
            }
            q.last_serv_time_ns = tot;
        } else if !injected && in_driver == 1 {
            q.last_serv_time_ns = tot;
        }
        self.waited_rq = None;
        self.rqs_injected = false;
    }
}
