//! BFQ's I/O priority classes and weights (block/bfq-iosched.c, block/bfq-wf2q.c,
//! block/bfq-cgroup.c, Linux 6.1). A queue takes its process's priority
//! (`bfq_check_ioprio_change` reads the task's `bic->icq.ioc->ioprio`, so a command's own
//! priority, fio's `cmdprio_*`, changes nothing here): its class picks its service tree,
//! realtime served before best effort before idle (`bfq_lookup_next_entity`), the idle class
//! still served once per `BFQ_CL_IDLE_TIMEOUT` (200 ms); its level its weight,
//! `bfq_ioprio_to_weight`: (8 - level) x 10, an idle queue at level 7
//! (`bfq_set_next_ioprio_data`). An idle-class queue is never idled for (`bfq_better_to_idle`)
//! and leaves the device after each request while others wait (`bfq_dispatch_rq_from_bfqq`);
//! a queue of a higher class, or of more weight, preempts the one in service
//! (`bfq_bfqq_higher_class_or_weight`).
//!
//! Weights or classes that differ make the scenario asymmetric (`bfq_asymmetric_scenario`:
//! varied weights among the queues not raised, busy queues of two classes, or groups with
//! requests pending), and bfq then idles for every sync queue in service to keep its share
//! (`idling_needed_for_service_guarantees`). Groups count from Linux 6.1 whenever a group
//! besides the root has requests pending (`num_groups_with_pending_reqs > 0`); in 6.6 and 6.12
//! the root group counts too and it takes two (Yu Kuai's "block, bfq: do not idle if only one
//! group is activated", after 6.1): [`crate::board::BlockRules::bfq_root_group_counted`].
//!
//! Simplification: cgroups (fio's `cgroup=`, `cgroup_weight=`, the group's `io.bfq.weight`,
//! 100 by default) have no entity of their own: a group's weight is shared among its jobs'
//! queues in proportion to their priority weights, exact for one job per group and for a
//! group whose queues are all busy (the kernel serves the group's entity at its weight,
//! `bfqg->entity.weight`, and its queues within it); a group's queues keep their own class.

use super::{Bfq, Queue};
use crate::path::elevator::SchedPrio;
use crate::vocab::IoClass;

/// `BFQ_CL_IDLE_TIMEOUT` (HZ / 5).
pub(super) const CL_IDLE_TIMEOUT_NS: u64 = 200_000_000;
/// The idle class's service tree (`BFQ_IOPRIO_CLASSES - 1`).
pub(super) const IDLE_CLASS: usize = 2;
/// `BFQ_WEIGHT_CONVERSION_COEFF`.
const WEIGHT_CONVERSION_COEFF: u64 = 10;

/// `bfq_ioprio_to_weight`: `(IOPRIO_NR_LEVELS - ioprio) * BFQ_WEIGHT_CONVERSION_COEFF`.
pub(super) fn ioprio_to_weight(level: u8) -> u64 {
    u64::from(crate::vocab::ioprio::IOPRIO_NR_LEVELS - level.min(7)) * WEIGHT_CONVERSION_COEFF
}

/// The service tree of a class (`ioprio_class - 1`): the class-less are best effort.
fn class_index(c: IoClass) -> u8 {
    match c {
        IoClass::Rt => 0,
        IoClass::None | IoClass::Be => 1,
        IoClass::Idle => IDLE_CLASS as u8,
    }
}

/// What each job's queue is made with: (class, weight, group; 0 the root).
#[derive(Debug, Default)]
pub(super) struct JobPrios {
    by_job: Vec<(u8, u64, u32)>,
    /// Every queue best effort at one weight, in the root group: nothing is asymmetric.
    pub(super) uniform: bool,
    /// `BlockRules::bfq_root_group_counted`.
    root_counted: bool,
}

impl JobPrios {
    pub(super) fn new() -> JobPrios {
        JobPrios {
            uniform: true,
            ..Default::default()
        }
    }
}

impl Bfq {
    /// The jobs' priorities and groups (by job index), and the kernel's rule for groups.
    pub fn set_job_prios(&mut self, jobs: &[SchedPrio], root_counted: bool) {
        let level = |p: &SchedPrio| match p.class {
            IoClass::Idle => 7,
            _ => p.level,
        };
        let by_job = jobs
            .iter()
            .map(|p| {
                let w = ioprio_to_weight(level(p));
                let (group, weight) = match p.group {
                    None => (0, w),
                    Some((g, gw)) => {
                        // The group's weight, shared among its jobs by their own weights.
                        let sum: u64 = jobs
                            .iter()
                            .filter(|o| o.group.is_some_and(|(og, _)| og == g))
                            .map(|o| ioprio_to_weight(level(o)))
                            .sum();
                        (g + 1, (u64::from(gw) * w / sum.max(1)).max(1))
                    }
                };
                (class_index(p.class), weight, group)
            })
            .collect::<Vec<_>>();
        let uniform = by_job
            .iter()
            .all(|&(c, w, g)| (c, w, g) == (1, super::wf2q::ORIG_WEIGHT, 0));
        self.prios = JobPrios {
            by_job,
            uniform,
            root_counted,
        };
    }

    /// `bfq_init_bfqq` -> `bfq_set_next_ioprio_data`: a new queue's class and weight.
    pub(super) fn init_prio(&mut self, job: u32) {
        if let Some(&(class, weight, group)) = self.prios.by_job.get(job as usize) {
            let q = self.qm(job);
            (q.class, q.orig_weight, q.group) = (class, weight, group);
        }
    }

    /// `bfq_class_idle`.
    pub(super) fn class_idle(&self, job: u32) -> bool {
        usize::from(self.q(job).class) == IDLE_CLASS
    }

    /// `bfq_bfqq_higher_class_or_weight`: `job`'s queue is of a higher class than `other`'s,
    /// or weighs more.
    pub(super) fn higher_class_or_weight(&self, job: u32, other: u32) -> bool {
        let (q, o) = (self.q(job), self.q(other));
        q.class < o.class || q.weight() > o.weight()
    }

    /// `bfq_asymmetric_scenario`: queues not raised with weights that differ (unless `job`'s
    /// is the smallest), busy queues of more than one class, or groups with requests pending.
    pub(super) fn asymmetric_scenario(&self, job: u32) -> bool {
        if self.prios.uniform {
            return false;
        }
        // `queue_weights_tree`: the weights of the queues not raised that are busy or have
        // requests in the driver; `num_groups_with_pending_reqs`.
        let pending = |q: &Queue| q.busy || q.dispatched > 0;
        let mut weights = std::collections::BTreeSet::new();
        let mut groups = std::collections::BTreeSet::new();
        for q in self.queues.values().filter(|q| pending(q)) {
            if q.wr_coeff == 1 {
                weights.insert(q.weight());
            }
            groups.insert(q.group);
        }
        let q = self.q(job);
        let in_tree = q.wr_coeff == 1 && pending(q);
        let smallest = in_tree && weights.first() == Some(&q.weight());
        let varied = !smallest && weights.len() > 1;
        let classes = self.ix.busy_class.iter().filter(|&&n| n > 0).count() > 1;
        let grouped = if self.prios.root_counted {
            groups.len() > 1
        } else {
            groups.iter().any(|&g| g != 0)
        };
        varied || classes || grouped
    }
}
