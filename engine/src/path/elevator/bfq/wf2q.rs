//! B-WF2Q+ (block/bfq-wf2q.c, Linux 6.1), one service tree per I/O priority class (no groups:
//! a cgroup's weight is carried by its queues, [`super::prio`]): each busy
//! queue has a virtual start and finish, finish = start + budget / weight; the virtual time of
//! its class's tree advances by the service dispatched over the sum of the weights in it
//! (`bfq_bfqq_served`); the next
//! queue is the eligible one (start not past the virtual time) with the smallest finish
//! (`bfq_first_active_entity`), the virtual time jumping to the earliest start when none is
//! (`bfq_calc_vtime_jump`). A queue that leaves the busy ones stays on the idle tree, its weight
//! still in the sum, until the virtual time passes its finish (`bfq_forget_idle`).

use super::{Bfq, Queue, MAX_BUDGET};

/// `WFQ_SERVICE_SHIFT`: fixed point of the virtual time.
const WFQ_SERVICE_SHIFT: u32 = 22;
/// `bfq_ioprio_to_weight(IOPRIO_BE_NORM)`: the weight of a queue without a priority.
pub(super) const ORIG_WEIGHT: u64 = 40;

/// `bfq_delta`: `service` sectors in virtual time at `weight`.
fn delta(service: u64, weight: u64) -> u64 {
    (service << WFQ_SERVICE_SHIFT) / weight.max(1)
}

impl Queue {
    /// `entity->weight`: the original weight times the raising coefficient
    /// (`__bfq_entity_update_weight_prio`).
    pub(super) fn weight(&self) -> u64 {
        self.orig_weight * self.wr_coeff
    }
}

impl Bfq {
    /// `bfq_bfqq_served`: `sectors` dispatched from `job`'s queue; its class's virtual time
    /// advances over its class's weight sum (`st->wsum`).
    pub(super) fn served(&mut self, job: u32, sectors: u64) {
        let q = self.qm(job);
        q.service += sectors;
        if q.wr_coeff > 1 {
            q.service_from_wr += sectors;
        }
        let c = usize::from(q.class);
        let st = &mut self.ix.st[c];
        st.vtime += delta(sectors, st.wsum);
        self.forget_idle(c);
    }

    /// The virtual time of `job`'s class.
    fn vtime_of(&self, job: u32) -> u64 {
        self.ix.st[usize::from(self.q(job).class)].vtime
    }

    /// `bfq_add_bfqq_busy` -> `__bfq_activate_entity` + `bfq_update_fin_time_enqueue`: a queue
    /// becomes busy; one that emptied without being idled for (`non_blocking_wait_rq`) keeps
    /// its old timestamps if the virtual time passed them (backshifted, then pushed up by the
    /// lag over its raising coefficient), one on the idle tree starts at its finish, any other
    /// at the virtual time.
    pub(super) fn activate(&mut self, job: u32) {
        let vtime = self.vtime_of(job);
        self.with_queue(job, |q| q.activate(vtime));
    }

    /// `__bfq_requeue_entity` of the queue in service: its start moves past the service it got,
    /// its next budget follows (`__bfq_bfqq_recalc_budget`, here fixed: `bfq_default_max_budget`
    /// is more than any request, 1024 sectors at most).
    pub(super) fn requeue(&mut self, job: u32) {
        self.with_queue(job, |q| {
            q.start += delta(q.service, q.weight());
            q.budget = MAX_BUDGET;
            q.finish = q.start + delta(q.budget, q.weight());
        });
    }

    /// `__bfq_deactivate_entity`: the queue leaves the busy ones, charged for the service it
    /// got, onto the idle tree if `idle_tree` and its finish is still ahead.
    pub(super) fn deactivate(&mut self, job: u32, idle_tree: bool) {
        let vtime = self.vtime_of(job);
        let in_service = self.in_service == Some(job);
        self.with_queue(job, |q| {
            if in_service {
                q.finish = q.start + delta(q.service, q.weight());
            }
            q.busy = false;
            q.idle_tree = idle_tree && q.finish > vtime;
        });
    }
}

impl Queue {
    /// [`Bfq::activate`] of this queue at the virtual time `vtime`.
    fn activate(&mut self, vtime: u64) {
        let q = self;
        let backshifted = q.non_blocking_wait_rq && vtime > q.finish;
        q.start = if backshifted || q.idle_tree {
            q.finish
        } else {
            vtime
        };
        q.idle_tree = false;
        q.busy = true;
        q.finish = q.start + delta(q.budget, q.weight());
        if backshifted && vtime > q.finish {
            let d = (vtime - q.finish) / q.wr_coeff;
            q.start += d;
            q.finish += d;
        }
        q.non_blocking_wait_rq = false;
    }
}
