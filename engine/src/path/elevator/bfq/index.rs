//! BFQ's queues kept in order as the kernel keeps its entities (block/bfq-wf2q.c, Linux 6.1), so
//! that no step of a request's path walks every queue: per class, the service tree's weight sum
//! (`st->wsum`, updated in `bfq_weights_tree_add` / `__bfq_entity_update_weight_prio` and on
//! the idle tree's changes), its active entities ordered by finish time among the eligible
//! (`st->active`, an rb-tree augmented with `min_start`, `bfq_first_active_entity`), its idle
//! tree ordered by finish (`st->idle`, `st->first_idle`, `bfq_forget_idle`), the busy queues and
//! the raised ones among them (`bfqd->busy_queues`, `wr_busy_queues`), and every queued
//! request by sector (the elevator's `elv_rb` / `elv_rqhash` of each queue, here one map over
//! the queues). Each step is logarithmic in the queues: a 1,024-queue run took 61 s of CPU for
//! 2 M I/Os when these were scans.
//!
//! The virtual time only grows, so a busy queue whose start it has passed stays eligible until
//! its timestamps change: the queues not yet eligible wait by start, and move over when the
//! virtual time reaches them (the kernel's `min_start` descent finds the same queue).

use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Bound::Excluded;

use super::prio::{CL_IDLE_TIMEOUT_NS, IDLE_CLASS};
use super::{try_merge, Bfq, Bio, Merge, Queue};
use crate::sim::request::Slab;
use crate::sim::ReqIdx;

/// `struct bfq_service_tree`: one per I/O priority class (`sd->service_tree[]`: realtime,
/// best effort, idle), each with its own virtual time and weight sum.
#[derive(Debug, Default)]
pub(super) struct ServiceTree {
    /// `st->wsum`: the weights of the busy queues and of those on the idle tree.
    pub(super) wsum: u64,
    /// `st->vtime`.
    pub(super) vtime: u64,
    /// Busy queues whose start the virtual time has passed, by (finish, job).
    eligible: BTreeSet<(u64, u32)>,
    /// Busy queues whose start is still ahead of the virtual time, by (start, job).
    ahead: BTreeSet<(u64, u32)>,
    /// The idle tree, by (finish, job).
    idle: BTreeSet<(u64, u32)>,
}

#[derive(Debug, Default)]
pub(super) struct Index {
    /// The service trees, by class (`Queue::class`).
    pub(super) st: [ServiceTree; 3],
    /// The busy queues, by job (`bfqd->active_list` order for injection).
    pub(super) busy: BTreeSet<u32>,
    /// `bfqd->busy_queues[class]`.
    pub(super) busy_class: [usize; 3],
    /// `bfqd->wr_busy_queues`.
    pub(super) wr_busy: usize,
    /// Every queued request's key in its queue's `sorted`, with its job.
    pub(super) requests: BTreeMap<(u64, u64), u32>,
    /// The longest any queued request has been: as queued, or grown by a bio that
    /// [`Bfq::bio_merge`] gave it (the only way one grows while bfq holds it).
    pub(super) longest: Cell<u64>,
}

impl Bfq {
    /// Takes `job`'s queue out of the index before its timestamps, weight or state change.
    pub(super) fn unindex(&mut self, job: u32) {
        let q = &self.queues[&job];
        let ix = &mut self.ix;
        let st = &mut ix.st[usize::from(q.class)];
        if q.busy || q.idle_tree {
            st.wsum -= q.weight();
        }
        if q.busy {
            ix.busy.remove(&job);
            ix.busy_class[usize::from(q.class)] -= 1;
            ix.wr_busy -= usize::from(q.wr_coeff > 1);
            if !st.eligible.remove(&(q.finish, job)) {
                st.ahead.remove(&(q.start, job));
            }
        }
        if q.idle_tree {
            st.idle.remove(&(q.finish, job));
        }
    }

    /// Puts `job`'s queue back into the index after a change.
    pub(super) fn index(&mut self, job: u32) {
        let q = &self.queues[&job];
        let ix = &mut self.ix;
        let st = &mut ix.st[usize::from(q.class)];
        if q.busy || q.idle_tree {
            st.wsum += q.weight();
        }
        if q.busy {
            ix.busy.insert(job);
            ix.busy_class[usize::from(q.class)] += 1;
            ix.wr_busy += usize::from(q.wr_coeff > 1);
            if q.start <= st.vtime {
                st.eligible.insert((q.finish, job));
            } else {
                st.ahead.insert((q.start, job));
            }
        }
        if q.idle_tree {
            st.idle.insert((q.finish, job));
        }
    }

    /// Changes `job`'s queue by `f`, keeping the index.
    pub(super) fn with_queue<R>(&mut self, job: u32, f: impl FnOnce(&mut Queue) -> R) -> R {
        self.unindex(job);
        let r = f(self.qm(job));
        self.index(job);
        r
    }

    /// `bfq_forget_idle`: queues whose finish the virtual time of class `c` has passed leave
    /// its idle tree.
    pub(super) fn forget_idle(&mut self, c: usize) {
        while let Some(&(finish, job)) = self.ix.st[c].idle.first() {
            if finish > self.ix.st[c].vtime {
                break;
            }
            self.with_queue(job, |q| q.idle_tree = false);
        }
    }

    /// `bfq_get_next_queue` -> `bfq_lookup_next_entity`: the first class with a busy queue,
    /// realtime before best effort before idle, except that the idle class goes first once
    /// `BFQ_CL_IDLE_TIMEOUT` has passed since it last could (`bfq_class_idle_last_service`);
    /// in the class, `__bfq_lookup_next_entity`: the eligible busy queue with the smallest
    /// finish, after the virtual time's jump to the earliest start (`bfq_calc_vtime_jump`)
    /// when none is eligible.
    pub(super) fn next_queue(&mut self, now: u64) -> Option<u32> {
        let mut first = 0;
        if now >= self.class_idle_last_service + CL_IDLE_TIMEOUT_NS {
            if self.ix.busy_class[IDLE_CLASS] > 0 {
                first = IDLE_CLASS;
            }
            self.class_idle_last_service = now;
        }
        (first..3).find_map(|c| self.next_in_class(c))
    }

    /// `__bfq_lookup_next_entity` on the service tree of class `c`.
    fn next_in_class(&mut self, c: usize) -> Option<u32> {
        self.make_eligible(c);
        if self.ix.st[c].eligible.is_empty() {
            let &(first, _) = self.ix.st[c].ahead.first()?;
            if first > self.ix.st[c].vtime {
                self.ix.st[c].vtime = first;
                self.forget_idle(c);
            }
            self.make_eligible(c);
        }
        self.ix.st[c].eligible.first().map(|&(_, j)| j)
    }

    /// The busy queues of class `c` whose start the virtual time has reached become eligible.
    fn make_eligible(&mut self, c: usize) {
        let st = &mut self.ix.st[c];
        while let Some(&(start, job)) = st.ahead.first() {
            if start > st.vtime {
                break;
            }
            st.ahead.pop_first();
            st.eligible.insert((self.queues[&job].finish, job));
        }
    }

    /// `bfq_bio_merge`: into the bio's process queue only; with one queue per job the job is
    /// not in the bio, so any queue's request adjacent to it among that queue's two nearest
    /// below the bio's end (fio's jobs write their own regions), the lowest job's first.
    /// A request's key is where it started when queued, within its extent (a front merge moves
    /// its start down, a back merge its end up): the requests to look at have keys from the
    /// longest request below the bio to its end.
    pub fn bio_merge(&self, bio: &Bio, reqs: &Slab, max: u64) -> Option<(ReqIdx, Merge)> {
        let hi = (bio.end(), u64::MAX);
        let lo = (bio.offset.saturating_sub(self.ix.longest.get()), 0);
        let mut best: Option<(u32, ReqIdx, Merge)> = None;
        for (&k, &job) in self.ix.requests.range(lo..hi).rev() {
            if best.is_some_and(|b| b.0 <= job) {
                continue;
            }
            let q = &self.queues[&job];
            let r = q.sorted[&k];
            let Some(m) = try_merge(reqs.get(r), bio, max) else {
                continue;
            };
            if q.sorted.range((Excluded(k), Excluded(hi))).nth(1).is_some() {
                continue;
            }
            best = Some((job, r, m));
        }
        let (_, r, m) = best?;
        let grown = reqs.get(r).len + bio.len;
        self.ix.longest.set(self.ix.longest.get().max(grown));
        Some((r, m))
    }

    pub fn remove(&mut self, req: ReqIdx, _reqs: &Slab) {
        if let Some((job, key)) = self.of.remove(&req) {
            self.qm(job).sorted.remove(&key);
            self.ix.requests.remove(&key);
            self.emptied(job);
        }
    }

    pub fn waiting(&self) -> Vec<ReqIdx> {
        self.queues
            .values()
            .flat_map(|q| q.sorted.values().copied())
            .collect()
    }
}

#[cfg(test)]
impl Bfq {
    /// The index is what a scan of the queues finds.
    pub(super) fn assert_index(&self) {
        let qs = || self.queues.iter();
        for c in 0..3u8 {
            let st = &self.ix.st[usize::from(c)];
            let wsum: u64 = qs()
                .filter(|(_, q)| q.class == c && (q.busy || q.idle_tree))
                .map(|(_, q)| q.weight())
                .sum();
            assert_eq!(st.wsum, wsum);
            let idle: BTreeSet<(u64, u32)> = qs()
                .filter(|(_, q)| q.class == c && q.idle_tree)
                .map(|(j, q)| (q.finish, j))
                .collect();
            assert_eq!(st.idle, idle);
            let busy = qs().filter(|(_, q)| q.class == c && q.busy).count();
            assert_eq!(st.eligible.len() + st.ahead.len(), busy);
            assert_eq!(self.ix.busy_class[usize::from(c)], busy);
        }
        let busy: BTreeSet<u32> = qs().filter(|(_, q)| q.busy).map(|(j, _)| j).collect();
        assert_eq!(self.ix.busy, busy);
        let wr = qs().filter(|(_, q)| q.busy && q.wr_coeff > 1).count();
        assert_eq!(self.ix.wr_busy, wr);
        let n: usize = qs().map(|(_, q)| q.sorted.len()).sum();
        assert_eq!(self.ix.requests.len(), n);
    }
}

/// The queues by job (`bfq_get_queue` finds a process's through its `bfq_io_cq`): a job's
/// clones are numbered from 0, so a table, in job order.
#[derive(Debug, Default)]
pub(super) struct Queues {
    by_job: Vec<Option<Queue>>,
    count: usize,
}

impl Queues {
    pub(super) fn get(&self, job: &u32) -> Option<&Queue> {
        self.by_job.get(*job as usize).and_then(Option::as_ref)
    }

    pub(super) fn get_mut(&mut self, job: &u32) -> Option<&mut Queue> {
        self.by_job.get_mut(*job as usize).and_then(Option::as_mut)
    }

    pub(super) fn contains_key(&self, job: &u32) -> bool {
        self.get(job).is_some()
    }

    /// `job`'s queue, made on its first request.
    pub(super) fn or_default(&mut self, job: u32) -> &mut Queue {
        let j = job as usize;
        if self.by_job.len() <= j {
            self.by_job.resize_with(j + 1, || None);
        }
        let slot = &mut self.by_job[j];
        if slot.is_none() {
            self.count += 1;
        }
        slot.get_or_insert_with(Queue::default)
    }

    pub(super) fn len(&self) -> usize {
        self.count
    }

    pub(super) fn iter(&self) -> impl Iterator<Item = (u32, &Queue)> {
        self.by_job
            .iter()
            .enumerate()
            .filter_map(|(j, q)| q.as_ref().map(|q| (j as u32, q)))
    }

    pub(super) fn values(&self) -> impl Iterator<Item = &Queue> {
        self.by_job.iter().flatten()
    }
}

impl std::ops::Index<&u32> for Queues {
    type Output = Queue;

    fn index(&self, job: &u32) -> &Queue {
        self.get(job).expect("a bfq queue")
    }
}
