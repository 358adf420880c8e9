//! BFQ's low-latency heuristics (block/bfq-iosched.c, Linux 6.1): weight raising of interactive
//! queues, preemption of the queue in service when a queue becomes busy, and when to idle for
//! the queue in service.
//!
//! A sync queue that becomes busy after being idle for `bfq_wr_min_idle_time` (2 s since its
//! last budget timeout; a new queue always is) is interactive: its weight is raised
//! `bfq_wr_coeff` (30) times for `bfq_wr_duration`, with a first budget of `2 *
//! bfq_min_budget`; the raising ends when that time has passed since it started, or once the
//! queue got `max_service_from_wr` (120000 sectors) raised (`bfq_update_wr_data`).

use super::{Bfq, Queue, Reason, MAX_BUDGET};

/// `bfq_wr_coeff`.
pub(super) const WR_COEFF: u64 = 30;
/// `bfq_wr_min_idle_time` (2000 ms).
const WR_MIN_IDLE_TIME_NS: u64 = 2_000_000_000;
/// `max_service_from_wr`, sectors.
const MAX_SERVICE_FROM_WR: u64 = 120_000;
/// `bfq_min_budget` while fewer than `bfq_stats_min_budgets` budgets were assigned:
/// `bfq_default_max_budget / 32`.
const MIN_BUDGET: u64 = MAX_BUDGET / 32;
/// `ref_rate[1]` (non-rotational, sectors/us << `BFQ_RATE_SHIFT`) and `ref_wr_duration[1]`
/// (2500 ms).
const REF_RATE_NONROT: u64 = 33_000;
const REF_WR_DURATION_NONROT_NS: u64 = 2_500_000_000;

/// `bfq_wr_duration`: `rate_dur_prod / peak_rate` clamped to 3..=25 s, with the peak rate at its
/// initial estimate (`ref_rate * 2 / 3`, `bfq_init_queue`; the model does not estimate it).
pub(super) fn wr_duration() -> u64 {
    let peak_rate = REF_RATE_NONROT * 2 / 3;
    let dur = REF_RATE_NONROT * REF_WR_DURATION_NONROT_NS / peak_rate;
    dur.clamp(3_000_000_000, 25_000_000_000)
}

impl Bfq {
    /// `bfq_tot_busy_queues`.
    fn tot_busy_queues(&self) -> usize {
        self.ix.busy.len()
    }

    /// `bfqd->wr_busy_queues`.
    pub(super) fn wr_busy_queues(&self) -> usize {
        self.ix.wr_busy
    }

    /// `BFQQF_has_short_ttime` (`bfq_update_has_short_ttime`: a think time not above half
    /// `slice_idle`; here the last gap, not the kernel's decaying mean).
    pub(super) fn has_short_ttime(&self, q: &Queue) -> bool {
        q.ttime_ns <= self.slice_idle_ns / 2
    }

    /// `bfq_bfqq_handle_idle_busy_switch`: `job`'s queue becomes busy. Whether it deserves
    /// raising, its budget (`bfq_bfqq_update_budg_for_activation`), the raising itself
    /// (`bfq_update_bfqq_wr_on_rq_arrival`), its timestamps, and the preemption of the queue in
    /// service. Returns whether it is interactive.
    pub(super) fn handle_idle_busy_switch(
        &mut self,
        job: u32,
        old_wr_coeff: u64,
        now: u64,
    ) -> bool {
        let slice_idle = self.slice_idle_ns;
        let low_latency = self.low_latency;
        // Its weight may change while it is on the idle tree.
        self.unindex(job);
        let q = self.qm(job);
        // `bfq_bfqq_idle_for_long_time`.
        let idle_for_long_time = q.dispatched == 0
            && q.budget_timeout
                .is_none_or(|t| now > t + WR_MIN_IDLE_TIME_NS);
        let arrived_in_time = q.last_done.is_none_or(|t| now <= t + 3 * slice_idle);
        let interactive = idle_for_long_time;
        let deserves_wr = low_latency && (q.wr_coeff > 1 || interactive);
        // `bfq_bfqq_update_budg_for_activation`.
        let wants_to_preempt = if q.non_blocking_wait_rq && arrived_in_time && q.budget_left() > 0 {
            q.budget = q.budget_left().min(MAX_BUDGET);
            q.service = 0;
            true
        } else {
            q.service = 0;
            q.budget = MAX_BUDGET;
            q.non_blocking_wait_rq = false;
            false
        };
        if low_latency {
            // `bfq_update_bfqq_wr_on_rq_arrival`.
            if old_wr_coeff == 1 && deserves_wr {
                q.service_from_wr = 0;
                q.wr_coeff = WR_COEFF;
                q.wr_cur_max_time = wr_duration();
                q.budget = q.budget.min(2 * MIN_BUDGET);
            } else if old_wr_coeff > 1 && interactive {
                q.wr_coeff = WR_COEFF;
                q.wr_cur_max_time = wr_duration();
            }
        }
        self.index(job);
        self.activate(job);
        if let Some(s) = self.in_service.filter(|&s| s != job) {
            let (q, sq) = (self.q(job), self.q(s));
            // `bfq_bfqq_higher_class_or_weight`; `next_queue_may_preempt` holds: the queue in
            // service has left the active tree, so the next to serve is never it.
            if (wants_to_preempt && q.wr_coeff >= sq.wr_coeff)
                || self.higher_class_or_weight(job, s)
                || !self.better_to_idle(s)
            {
                self.expire(Reason::Preempted, now);
            }
        }
        interactive
    }

    /// `bfq_update_wr_data`, on a dispatch from the queue in service: its raising ends when
    /// `wr_cur_max_time` has passed since it started, or once it got `max_service_from_wr`.
    pub(super) fn update_wr_data(&mut self, job: u32, now: u64) {
        let q = self.qm(job);
        if q.wr_coeff == 1 {
            return;
        }
        let over = q
            .last_wr_start_finish
            .is_none_or(|t| now > t + q.wr_cur_max_time);
        if over || q.service_from_wr > MAX_SERVICE_FROM_WR {
            self.with_queue(job, |q| Self::end_wr(q, now));
        }
    }

    /// `bfq_bfqq_end_wr`.
    fn end_wr(q: &mut Queue, now: u64) {
        q.wr_coeff = 1;
        q.wr_cur_max_time = 0;
        q.last_wr_start_finish = Some(now);
    }

    /// `bfq_better_to_idle`: idle for the queue in service (never one of the idle class) when
    /// that boosts the throughput without issues, or its service guarantees need it.
    pub(super) fn better_to_idle(&self, job: u32) -> bool {
        self.slice_idle_ns > 0
            && !self.class_idle(job)
            && (self.idling_boosts_thr_without_issues(job)
                || self.idling_needed_for_service_guarantees(job))
    }

    /// `idling_boosts_thr_without_issues`, on a non-rotational device: only if it does not
    /// queue commands (`hw_tag` 0) and the queue is sequential with a short think time, and no
    /// busy queue is raised.
    pub(super) fn idling_boosts_thr_without_issues(&self, job: u32) -> bool {
        let q = self.q(job);
        self.hw_tag == Some(false)
            && !q.seeky()
            && self.has_short_ttime(q)
            && self.wr_busy_queues() == 0
    }

    /// `idling_needed_for_service_guarantees`: a raised queue beside busy ones not raised (or
    /// with many others' requests in the driver), an asymmetric scenario (weights, classes or
    /// groups that differ: [`Bfq::asymmetric_scenario`]), or the only busy queue.
    pub(super) fn idling_needed_for_service_guarantees(&self, job: u32) -> bool {
        let q = self.q(job);
        let tot = self.tot_busy_queues();
        (q.wr_coeff > 1 && (self.wr_busy_queues() < tot || self.rq_in_driver >= q.dispatched + 4))
            || self.asymmetric_scenario(job)
            || tot == 1
    }
}

/// The raised weight, for the tests.
#[cfg(test)]
pub(super) const RAISED_WEIGHT: u64 = super::wf2q::ORIG_WEIGHT * WR_COEFF;
