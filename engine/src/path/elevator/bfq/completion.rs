//! BFQ's side of a completion (block/bfq-iosched.c, Linux 6.1): the driver count and
//! `bfq_update_hw_tag`, the idle slice of the queue in service (`bfq_arm_slice_timer`) and its
//! end (`bfq_idle_slice_timer_body`).

use super::{Bfq, Reason, HW_QUEUE_SAMPLES, HW_QUEUE_THRESHOLD, MIN_TT_NS};

impl Bfq {
    /// `bfq_idle_slice_timer_body`, once the idle slice is over: the queue that did not get a
    /// request in time expires.
    pub(super) fn idle_timer(&mut self, now: u64) {
        if self.idle_until.is_none_or(|t| now < t) {
            return;
        }
        self.idle_until = None;
        let Some(job) = self.in_service else { return };
        let q = self.q(job);
        if q.budget_timed_out(now) {
            self.expire(Reason::BudgetTimeout, now);
        } else if q.sorted.is_empty() {
            self.expire(Reason::TooIdle, now);
        }
    }

    /// `bfq_update_hw_tag`: whether the device queues commands, from 32 samples with enough
    /// requests around (not counting those where the queue in service, short of requests and
    /// able to idle, may be what keeps the driver from filling).
    fn update_hw_tag(&mut self) {
        self.max_rq_in_driver = self.max_rq_in_driver.max(self.rq_in_driver);
        if self.hw_tag == Some(true)
            || self.rq_in_driver + self.of.len() as u32 <= HW_QUEUE_THRESHOLD
        {
            return;
        }
        if let Some(s) = self.in_service.map(|j| self.q(j)) {
            if self.has_short_ttime(s)
                && s.dispatched + (s.sorted.len() as u32) < HW_QUEUE_THRESHOLD
                && self.rq_in_driver < HW_QUEUE_THRESHOLD
            {
                return;
            }
        }
        self.hw_tag_samples += 1;
        if self.hw_tag_samples <= HW_QUEUE_SAMPLES {
            return;
        }
        self.hw_tag = Some(self.max_rq_in_driver > HW_QUEUE_THRESHOLD);
        self.max_rq_in_driver = 0;
        self.hw_tag_samples = 0;
    }

    /// `bfq_finish_requeue_request` -> `bfq_update_inject_limit` (for the request sampled) and
    /// `bfq_completed_request`: the driver count, `bfq_update_hw_tag`, and for the queue in
    /// service the idle slice, or its expiry.
    pub fn completed(&mut self, job: u32, t_alloc: u64, now: u64) {
        self.idle_timer(now);
        if !self.queues.contains_key(&job) {
            return;
        }
        if self.waited_rq == Some((job, t_alloc)) {
            self.update_inject_limit(job, now);
        }
        self.update_hw_tag();
        self.rq_in_driver = self.rq_in_driver.saturating_sub(1);
        let q = self.qm(job);
        q.dispatched = q.dispatched.saturating_sub(1);
        if q.dispatched == 0 && !q.busy {
            q.budget_timeout = Some(now);
        }
        q.last_done = Some(now);
        if self.in_service != Some(job) {
            return;
        }
        if self.must_idle(job) {
            if self.q(job).dispatched == 0 {
                self.arm_slice_timer(job, now);
            }
        } else if self.may_expire_for_budg_timeout(job, now) {
            self.expire(Reason::BudgetTimeout, now);
        } else if self.q(job).sorted.is_empty()
            && (self.q(job).dispatched == 0 || !self.better_to_idle(job))
        {
            self.expire(Reason::NoMoreRequests, now);
        }
    }

    /// `bfq_arm_slice_timer`: `slice_idle`, cut to `BFQ_MIN_TT` for a seeky queue that is not
    /// raised, at least 20 ms for a raised one.
    fn arm_slice_timer(&mut self, job: u32, now: u64) {
        let q = self.q(job);
        let mut sl = self.slice_idle_ns;
        if q.seeky() && q.wr_coeff == 1 {
            sl = sl.min(MIN_TT_NS);
        } else if q.wr_coeff > 1 {
            sl = sl.max(20_000_000);
        }
        self.idle_until = Some(now + sl);
    }
}
