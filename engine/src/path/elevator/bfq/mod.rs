//! BFQ (block/bfq-iosched.c, block/bfq-wf2q.c, Linux 6.1): one queue per process (here per
//! fio job clone), served one at a time by budget. The queue in service dispatches, nearest
//! sector first from where it left off, until its budget is spent, its time is up (`bfq_timeout`
//! 125 ms, times the weight-raising coefficient while raised) or it has nothing left; the next
//! queue is the eligible one with the earliest virtual finish time (B-WF2Q+, [`wf2q`]), finish =
//! start + budget / weight. A synchronous queue that empties while its requests are in flight
//! keeps the device when idling pays or is needed for its guarantees (`bfq_better_to_idle`), and
//! other queues' requests may then be injected into the idle slot ([`inject`]).
//!
//! `low_latency` (on by default) raises the weight of interactive queues 30 times for
//! `bfq_wr_duration` ([`wr`]): a queue that becomes busy after 2 s without I/O (or is new), and
//! a queue that becomes busy preempts the one in service when it is raised at least as much and
//! comes back within its budget, weighs more, or the one in service gains nothing from idling
//! (`bfq_bfqq_handle_idle_busy_switch`).
//!
//! Priorities ([`prio`]): one service tree per I/O priority class, served realtime first, and
//! a queue's weight from its process's priority level and cgroup weight.
//!
//! Simplifications: no soft real-time raising (`bfq_wr_max_softrt_rate`: a random reader is never
//! soft real-time, `BFQQ_TOTALLY_SEEKY`), no large-burst detection, no waker/woken or async
//! queues (fio's jobs issue sync I/O, one queue each), no queue merging (`bfq_setup_cooperator`),
//! no group entities (a group's weight is carried by its queues, [`prio`]), the peak rate is not estimated (the weight
//! raising lasts what `bfq_wr_duration` gives for the initial estimate, 3.75 s), a fixed budget
//! per turn (the kernel tunes it per queue, `__bfq_bfqq_recalc_budget`) charged in service, never
//! in time (`bfq_bfqq_charge_time`), all queues I/O-bound, the think time as the last gap only.

mod completion;
mod index;
mod inject;
mod prio;
#[cfg(test)]
mod tests;
mod view;
mod wf2q;
mod wr;

use std::collections::{BTreeMap, HashMap};

use super::{try_merge, Bio, Merge, Tunables};
use crate::sim::request::Slab;
use crate::sim::ReqIdx;
use index::{Index, Queues};
use prio::JobPrios;

/// `bfq_default_max_budget`: 16 * 1024 sectors, the budget of a turn.
const MAX_BUDGET: u64 = 16 * 1024;
/// `bfq_timeout` (HZ / 8).
const TIMEOUT_NS: u64 = 125_000_000;
/// `BFQ_HW_QUEUE_THRESHOLD`, `BFQ_HW_QUEUE_SAMPLES`.
const HW_QUEUE_THRESHOLD: u32 = 3;
const HW_QUEUE_SAMPLES: u32 = 32;
/// `BFQQ_SEEK_THR` (800 sectors) and `BFQQ_SECT_THR_NONROT` (2 * 32 sectors), bytes.
const SEEK_THR: u64 = 800 * 512;
const SECT_THR_NONROT: u64 = 2 * 32 * 512;
/// `BFQ_MIN_TT`: the idle slice of a seeky queue that is not raised.
const MIN_TT_NS: u64 = 2_000_000;

/// `enum bfqq_expiration`: why the queue in service leaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Reason {
    TooIdle,
    BudgetTimeout,
    BudgetExhausted,
    NoMoreRequests,
    Preempted,
}

#[derive(Debug)]
struct Queue {
    /// `bfqq->sort_list`: (sector, insertion number) -> request.
    sorted: BTreeMap<(u64, u64), ReqIdx>,
    dispatched: u32,
    /// `bfq_bfqq_busy`: on the active tree or in service.
    busy: bool,
    /// `entity->start`, `finish` (virtual time), `budget`, `service` (sectors).
    start: u64,
    finish: u64,
    budget: u64,
    service: u64,
    /// On the idle tree: not busy, its finish still ahead of the virtual time.
    idle_tree: bool,
    /// `BFQQF_non_blocking_wait_rq`: it emptied without being idled for.
    non_blocking_wait_rq: bool,
    /// Where its last dispatched request ended (`bfqq->last_request_pos`).
    last_pos: u64,
    /// `bfqq->seek_history`: one bit per request, set when it was seeky.
    seek_history: u32,
    /// `bfqq->ttime.last_end_request`, and the gap to the next arrival (think time).
    last_done: Option<u64>,
    ttime_ns: u64,
    /// `bfqq->budget_timeout` (None: `bfq_smallest_from_now`); overloaded, as in the kernel,
    /// with the time the queue went without backlog and in-flight requests.
    budget_timeout: Option<u64>,
    /// Weight raising: `wr_coeff`, `wr_cur_max_time`, `last_wr_start_finish`, `service_from_wr`.
    wr_coeff: u64,
    wr_cur_max_time: u64,
    last_wr_start_finish: Option<u64>,
    service_from_wr: u64,
    /// Injection: `inject_limit`, `last_serv_time_ns`, `decrease_time_jif`.
    inject_limit: u32,
    last_serv_time_ns: u64,
    decrease_time: Option<u64>,
    /// Its service tree (`ioprio_class - 1`: 0 realtime, 1 best effort, 2 idle), its weight
    /// before raising (`entity->orig_weight`), its cgroup (0: the root).
    class: u8,
    orig_weight: u64,
    group: u32,
}

impl Default for Queue {
    /// `bfq_init_bfqq`: the first request is almost certainly seeky.
    fn default() -> Queue {
        Queue {
            sorted: BTreeMap::new(),
            dispatched: 0,
            busy: false,
            start: 0,
            finish: 0,
            budget: MAX_BUDGET,
            service: 0,
            idle_tree: false,
            non_blocking_wait_rq: false,
            last_pos: 0,
            seek_history: 1,
            last_done: None,
            ttime_ns: 0,
            budget_timeout: None,
            wr_coeff: 1,
            wr_cur_max_time: 0,
            last_wr_start_finish: None,
            service_from_wr: 0,
            inject_limit: 0,
            last_serv_time_ns: 0,
            decrease_time: None,
            class: 1,
            orig_weight: wf2q::ORIG_WEIGHT,
            group: 0,
        }
    }
}

impl Queue {
    /// `BFQQ_SEEKY`: more than 19 of its last 32 requests were seeky.
    fn seeky(&self) -> bool {
        self.seek_history.count_ones() > 19
    }

    fn budget_left(&self) -> u64 {
        self.budget.saturating_sub(self.service)
    }

    /// `bfq_bfqq_budget_timeout`.
    fn budget_timed_out(&self, now: u64) -> bool {
        self.budget_timeout.is_some_and(|t| now >= t)
    }
}

/// A request's size in sectors (`bfq_serv_to_charge` of a sync request).
fn sectors(len: u64) -> u64 {
    len.div_ceil(512)
}

#[derive(Debug)]
pub struct Bfq {
    queues: Queues,
    of: HashMap<ReqIdx, (u32, (u64, u64))>,
    /// The queues and requests in the kernel's orders ([`index`]).
    ix: Index,
    in_service: Option<u32>,
    /// The idle slice's end while the queue in service idles (`BFQQF_wait_request`,
    /// `bfq_arm_slice_timer`).
    idle_until: Option<u64>,
    /// The jobs' classes, weights and groups ([`prio`]).
    prios: JobPrios,
    /// `sd->bfq_class_idle_last_service`.
    class_idle_last_service: u64,
    seq: u64,
    slice_idle_ns: u64,
    low_latency: bool,
    rq_in_driver: u32,
    max_rq_in_driver: u32,
    hw_tag_samples: u32,
    /// `bfqd->hw_tag`: None until detected.
    hw_tag: Option<bool>,
    /// Injection's sampling: `wait_dispatch`, `waited_rq` (its job and allocation time),
    /// `rqs_injected`, `last_empty_occupied_ns`.
    wait_dispatch: bool,
    waited_rq: Option<(u32, u64)>,
    rqs_injected: bool,
    last_empty_occupied_ns: u64,
}

impl Bfq {
    pub fn new(t: Tunables) -> Bfq {
        Bfq {
            queues: Queues::default(),
            of: HashMap::new(),
            ix: Index::default(),
            in_service: None,
            idle_until: None,
            prios: JobPrios::new(),
            class_idle_last_service: 0,
            seq: 0,
            slice_idle_ns: t.slice_idle_ns,
            low_latency: t.low_latency,
            rq_in_driver: 0,
            max_rq_in_driver: 0,
            hw_tag_samples: 0,
            hw_tag: None,
            wait_dispatch: false,
            waited_rq: None,
            rqs_injected: false,
            last_empty_occupied_ns: 0,
        }
    }

    fn q(&self, job: u32) -> &Queue {
        &self.queues[&job]
    }

    fn qm(&mut self, job: u32) -> &mut Queue {
        self.queues.get_mut(&job).expect("a bfq queue")
    }

    /// `bfq_insert_request` -> `bfq_add_request` + `bfq_rq_enqueued`: into its process's queue;
    /// a queue that was not busy becomes busy (`bfq_bfqq_handle_idle_busy_switch`: weight
    /// raising, timestamps, maybe preempting the queue in service).
    pub fn insert(&mut self, req: ReqIdx, reqs: &Slab, now: u64) {
        self.idle_timer(now);
        let r = reqs.get(req);
        self.seq += 1;
        let key = (r.offset, self.seq);
        let job = r.job;
        let new = !self.queues.contains_key(&job);
        self.queues.or_default(job);
        if new {
            self.init_prio(job);
        }
        let q = self.qm(job);
        if let Some(t) = q.last_done {
            q.ttime_ns = now.saturating_sub(t);
        }
        let old_wr_coeff = q.wr_coeff;
        let alone = q.sorted.is_empty() && q.dispatched == 0;
        if alone {
            // `RQ_BIC(rq)->requests <= 1`: the process has no other request.
            self.inject_sampling(job, now);
        }
        let q = self.qm(job);
        q.sorted.insert(key, req);
        self.of.insert(req, (job, key));
        self.ix.requests.insert(key, job);
        self.ix.longest.set(self.ix.longest.get().max(r.len));
        let mut interactive = false;
        if !self.q(job).busy {
            interactive = self.handle_idle_busy_switch(job, old_wr_coeff, now);
        }
        let low_latency = self.low_latency;
        let q = self.qm(job);
        if low_latency && (old_wr_coeff == 1 || q.wr_coeff == 1 || interactive) {
            q.last_wr_start_finish = Some(now);
        }
        self.rq_enqueued(job, r.len, now);
    }

    /// `bfq_rq_enqueued`: the queue idled for has a request: idling stops (unless it is small
    /// and idling is only for throughput), and a queue out of time expires.
    fn rq_enqueued(&mut self, job: u32, len: u64, now: u64) {
        if self.in_service != Some(job) || self.idle_until.is_none() {
            return;
        }
        let q = self.q(job);
        let small = q.sorted.len() == 1 && sectors(len) < 32;
        let timed_out = q.budget_timed_out(now);
        if small && self.idling_boosts_thr_without_issues(job) && !timed_out {
            return;
        }
        self.idle_until = None;
        if timed_out {
            self.expire(Reason::BudgetTimeout, now);
        }
    }

    pub fn has_work(&self) -> bool {
        !self.of.is_empty()
    }

    /// `bfq_may_expire_for_budg_timeout`.
    pub(super) fn may_expire_for_budg_timeout(&self, job: u32, now: u64) -> bool {
        let q = self.q(job);
        (self.idle_until.is_some() || q.budget_left() >= q.budget / 3) && q.budget_timed_out(now)
    }

    /// `bfq_bfqq_must_idle`.
    pub(super) fn must_idle(&self, job: u32) -> bool {
        self.q(job).sorted.is_empty() && self.better_to_idle(job)
    }

    /// `bfq_dispatch_request` -> `__bfq_dispatch_request`: `bfq_select_queue`, then
    /// `bfq_dispatch_rq_from_bfqq` from the queue chosen (the one in service, or one whose
    /// request is injected while it idles).
    pub fn dispatch(&mut self, reqs: &Slab, now: u64) -> Option<ReqIdx> {
        self.idle_timer(now);
        if self.of.is_empty() {
            return None;
        }
        let job = self.select_queue(reqs, now)?;
        let (_, r) = Self::next_rq(self.q(job))?;
        Some(self.take(job, r, reqs, now))
    }

    /// `bfq_select_queue`: keep the queue in service while it has budget, time and requests (or
    /// idles for it), else expire it and set the next one in service.
    fn select_queue(&mut self, reqs: &Slab, now: u64) -> Option<u32> {
        let mut job = match self.in_service {
            Some(j) if self.may_expire_for_budg_timeout(j, now) && !self.must_idle(j) => {
                self.expire(Reason::BudgetTimeout, now);
                None
            }
            j => j,
        };
        for _ in 0..=2 * self.queues.len() {
            let j = match job {
                Some(j) => j,
                None => {
                    let j = self.next_queue(now)?;
                    self.set_in_service(j, now);
                    j
                }
            };
            let q = self.q(j);
            if let Some((_, r)) = Self::next_rq(q) {
                if sectors(reqs.get(r).len) > q.budget_left() {
                    self.expire(Reason::BudgetExhausted, now);
                    job = None;
                    continue;
                }
                self.idle_until = None;
                return Some(j);
            }
            if self.idle_until.is_some() || (q.dispatched != 0 && self.better_to_idle(j)) {
                return self.injection_candidate(j, reqs);
            }
            self.expire(Reason::NoMoreRequests, now);
            job = None;
        }
        None
    }

    /// `__bfq_set_in_service_queue` + `bfq_set_budget_timeout`: a raised queue's time is its
    /// coefficient times `bfq_timeout`.
    fn set_in_service(&mut self, job: u32, now: u64) {
        self.in_service = Some(job);
        let q = self.qm(job);
        q.budget_timeout = Some(now + TIMEOUT_NS * q.wr_coeff);
    }

    /// `bfq_bfqq_expire` + `__bfq_bfqq_expire`: the queue in service leaves; an empty one
    /// leaves the busy queues (onto the idle tree) unless it was preempted and needs idling,
    /// one with requests is requeued behind the service it got.
    pub(super) fn expire(&mut self, reason: Reason, now: u64) {
        let Some(job) = self.in_service else { return };
        let low_latency = self.low_latency;
        let keep = reason == Reason::Preempted && self.idling_needed_for_service_guarantees(job);
        let q = self.qm(job);
        if low_latency && q.wr_coeff == 1 {
            q.last_wr_start_finish = Some(now);
        }
        if q.sorted.is_empty() && !keep {
            if q.dispatched == 0 {
                q.budget_timeout = Some(now);
            }
            self.deactivate(job, true);
        } else {
            self.requeue(job);
        }
        self.in_service = None;
        self.idle_until = None;
        let q = self.qm(job);
        if !q.busy && reason != Reason::BudgetTimeout && reason != Reason::BudgetExhausted {
            // The service stays: the queue may go on with this budget if its next request
            // comes in time (`bfq_bfqq_update_budg_for_activation`).
            q.non_blocking_wait_rq = true;
        } else {
            q.service = 0;
        }
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

    /// `bfq_dispatch_rq_from_bfqq`: charge the queue (`bfq_bfqq_served`), start the injection
    /// sample on the request waited for, `bfq_update_wr_data` for the queue in service.
    fn take(&mut self, job: u32, req: ReqIdx, reqs: &Slab, now: u64) -> ReqIdx {
        let r = reqs.get(req);
        self.served(job, sectors(r.len));
        if self.in_service == Some(job) && std::mem::take(&mut self.wait_dispatch) {
            self.waited_rq = Some((job, r.t_alloc));
        }
        let (_, key) = self.of.remove(&req).expect("queued in bfq");
        self.ix.requests.remove(&key);
        let q = self.qm(job);
        q.sorted.remove(&key);
        let dist = r.offset.abs_diff(q.last_pos);
        let seeky = dist > SEEK_THR && r.len < SECT_THR_NONROT;
        q.seek_history = (q.seek_history << 1) | u32::from(seeky);
        q.last_pos = r.offset + r.len;
        q.dispatched += 1;
        self.rq_in_driver += 1;
        self.emptied(job);
        if self.in_service == Some(job) {
            self.update_wr_data(job, now);
            // An idle-class queue leaves the device after each request while others wait.
            if self.ix.busy.len() > 1 && self.class_idle(job) {
                self.expire(Reason::BudgetExhausted, now);
            }
        }
        req
    }

    /// `bfq_remove_request`: a busy queue not in service that empties (its last request
    /// injected or merged away) leaves the busy queues, its budget and service cleared.
    pub(super) fn emptied(&mut self, job: u32) {
        let q = self.q(job);
        if q.sorted.is_empty() && q.busy && self.in_service != Some(job) {
            self.deactivate(job, false);
            let q = self.qm(job);
            q.budget = 0;
            q.service = 0;
        }
    }

    /// The idle slice's end, while idling.
    pub fn timer_at(&self) -> Option<u64> {
        self.idle_until
    }
}
