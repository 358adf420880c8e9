//! mq-deadline (block/mq-deadline.c, Linux 6.1; the same priority rules through 6.12): per I/O
//! priority (`struct dd_per_prio`, three of them: `ioprio_class_to_prio` files realtime
//! requests under `DD_RT_PRIO`, best effort and the class-less under `DD_BE_PRIO`, idle under
//! `DD_IDLE_PRIO`) and per direction, a list sorted by sector and a FIFO by deadline
//! (`read_expire` 500 ms, `write_expire` 5 s). `__dd_dispatch_request` goes on in sector order
//! within a batch of `fifo_batch` (16) requests of one direction; a new batch serves reads
//! first unless writes have waited through `writes_starved` (2) read batches, and starts from
//! the oldest request when its deadline has passed or the sector order ran out. The batch and
//! the starvation count are the scheduler's, shared by the priorities (`dd->last_dir`,
//! `dd->batching`, `dd->starved`); the sector position is each priority's.
//!
//! `dd_dispatch_request` serves the priorities in order, realtime first, and goes down a level
//! only while the one above has nothing queued (`dd_queued`: inserted and not yet completed,
//! so requests in flight count); before that, `dd_dispatch_prio_aged_requests` lets a best
//! effort or idle request go that was inserted `prio_aging_expire` (10 s) ago, when at least
//! two priorities have requests queued (since 5.14, Bart Van Assche's "Prioritize
//! high-priority requests"; unchanged in 6.6 and 6.12, where only the sector position moved:
//! [`Tunables::dd_from_pos`]).
//!
//! Bios merge at the back of a request ending where they start (`elv_rqhash_find`) or, with
//! `front_merges`, at the front of one starting where they end (`dd_request_merge`),
//! within their priority's sort list ([`merge`]).
//!
//! Simplifications: no `async_depth` limit (fio's direct I/O is synchronous), a discard is a
//! write (as `rq_data_dir` makes it), and no `dd->dispatch` list: only requests inserted at
//! the head fill it (a driver's `blk_mq_requeue_request`, passthrough commands), and a refused
//! request goes back on `hctx->dispatch` instead (BLK_STS_RESOURCE in
//! `blk_mq_dispatch_rq_list`), in the model as in the kernel.

use std::cell::Cell;

mod merge;
mod sort_list;

use super::Tunables;
#[cfg(test)]
use super::{Bio, Merge};
use crate::sim::request::Slab;
use crate::sim::ReqIdx;
use crate::vocab::{IoClass, Op};
use sort_list::Sorted;

const DD_READ: usize = 0;
const DD_WRITE: usize = 1;
/// `enum dd_prio`: `DD_RT_PRIO`, `DD_BE_PRIO`, `DD_IDLE_PRIO`.
const DD_RT_PRIO: usize = 0;
const DD_BE_PRIO: usize = 1;
const DD_PRIO_COUNT: usize = 3;
/// The FIFOs: one per priority and direction, `prio * 2 + dir`.
const LISTS: usize = DD_PRIO_COUNT * 2;

/// No request (`next_rq` when sector order ran out).
const NIL: ReqIdx = ReqIdx::MAX;
/// A request the scheduler does not own (`rq->elv.priv[0]` unset).
const NOT_OWNED: u8 = u8::MAX;

fn dir_of(op: Op) -> usize {
    usize::from(op != Op::Read)
}

/// `ioprio_class_to_prio`: the class-less are best effort.
pub fn prio_of(class: IoClass) -> usize {
    match class {
        IoClass::Rt => DD_RT_PRIO,
        IoClass::None | IoClass::Be => DD_BE_PRIO,
        IoClass::Idle => 2,
    }
}

/// The FIFO of request `r`: its priority's, its direction's.
fn list_of(r: &crate::sim::request::Request) -> usize {
    prio_of(r.ioprio.class) * 2 + dir_of(r.op)
}

/// A place in a FIFO (`rq->queuelist`, `rq->fifo_time`): node `l` is the head of FIFO `l`
/// (`per_prio->fifo_list[dir]`, a ring through it, as a kernel `list_head`), node
/// [`node_of`] `req` is request `req`'s. Deadlines never go down within a FIFO (the clock and
/// `*_expire` do not), so the order of insertion is the order of deadlines, as
/// `list_add_tail` keeps it.
#[derive(Clone, Copy, Debug)]
struct Node {
    /// `rq->fifo_time`: the deadline (ns).
    deadline: u64,
    /// The nodes before (older) and after (newer) it in the ring.
    prev: u32,
    next: u32,
    /// The FIFO it is in; [`GONE`]'s when the request is not waiting.
    list: u8,
}

const GONE: Node = Node {
    deadline: 0,
    prev: 0,
    next: 0,
    list: u8::MAX,
};

/// The node of request `req` (past the heads).
#[inline]
fn node_of(req: ReqIdx) -> usize {
    req as usize + LISTS
}

/// The request of node `n` (not a head).
#[inline]
fn req_of(n: u32) -> ReqIdx {
    n - LISTS as u32
}

/// `struct dd_per_prio`: one priority's sort lists and position, and `dd_queued`'s count.
#[derive(Debug, Default)]
struct PerPrio {
    /// `per_prio->sort_list[dir]`.
    sort: [Sorted; 2],
    /// `per_prio->next_rq[dir]` ([`NIL`]: none): the request after the last dispatched one
    /// in sector order.
    next_rq: [ReqIdx; 2],
    /// Where `next_rq` stood in its sort list when it was set: a hint, checked before use
    /// (an insert or merge since may have moved it), that spares the dispatch a search.
    next_at: [usize; 2],
    /// `per_prio->latest_pos[dir]`: the start of the request dispatched last (Linux 6.5+,
    /// `Tunables::dd_from_pos`).
    latest_pos: [u64; 2],
    /// `dd_queued`: `stats.inserted - stats.completed`.
    queued: u32,
}

#[derive(Debug)]
pub struct Deadline {
    t: Tunables,
    per_prio: [PerPrio; DD_PRIO_COUNT],
    /// The FIFOs' heads, then each request's place, by [`node_of`].
    node: Vec<Node>,
    /// The priority of each request the scheduler owns (inserted, not completed or merged
    /// away), by request: what `dd_finish_request` counts as completed.
    owned: Vec<u8>,
    /// The last merge lookup that found nothing: (FIFO, the bio's start, the place of the
    /// first request starting at or after it), while the lists are unchanged since. The request
    /// made of that bio is inserted next, from there, without a second search (the kernel
    /// keeps a one-hit cache of its own, `q->last_merge`, for the other way round).
    looked_up: Cell<Option<(usize, u64, usize)>>,
    /// `dd->last_dir`, `dd->batching`, `dd->starved`.
    last_dir: usize,
    batching: u32,
    starved: u32,
    /// Requests in the FIFOs (`dd_has_work` without a walk over them).
    waiting: u32,
}

impl Deadline {
    pub fn new(t: Tunables) -> Deadline {
        let mut per_prio: [PerPrio; DD_PRIO_COUNT] = Default::default();
        for p in &mut per_prio {
            p.next_rq = [NIL; 2];
        }
        Deadline {
            t,
            per_prio,
            node: (0..LISTS as u32)
                .map(|l| Node {
                    prev: l,
                    next: l,
                    ..GONE
                })
                .collect(),
            owned: Vec::new(),
            looked_up: Cell::new(None),
            last_dir: DD_READ,
            batching: 0,
            starved: 0,
            waiting: 0,
        }
    }

    /// `dd_insert_request`: counted in its priority's `inserted` once, into the sort list, and
    /// at the FIFO's tail with its deadline.
    pub fn insert(&mut self, req: ReqIdx, reqs: &Slab, now: u64) {
        let r = reqs.get(req);
        let (list, at) = (list_of(r), r.offset);
        let (prio, dir) = (list / 2, list % 2);
        let i = req as usize;
        if self.owned.len() <= i {
            self.owned.resize(i + 1, NOT_OWNED);
        }
        if self.owned[i] == NOT_OWNED {
            self.owned[i] = prio as u8;
            self.per_prio[prio].queued += 1;
        }
        let from = match self.looked_up.take() {
            Some((l, start, i)) if l == list && start == at => Some(i),
            _ => None,
        };
        self.per_prio[prio].sort[dir].add(at, req, from);
        let k = node_of(req);
        if self.node.len() <= k {
            self.node.resize(k + 1, GONE);
        }
        debug_assert!(!self.is_waiting(req), "a request is inserted once");
        // `list_add_tail`: between the last and the head.
        let tail = self.node[list].prev;
        self.node[k] = Node {
            deadline: now + self.t.expire_ns[dir],
            prev: tail,
            next: list as u32,
            list: list as u8,
        };
        self.node[tail as usize].next = k as u32;
        self.node[list].prev = k as u32;
        self.waiting += 1;
    }

    /// `dd_finish_request`: a request the scheduler owned completed (or was freed): its
    /// priority's `completed` count.
    pub fn finish(&mut self, req: ReqIdx) {
        let Some(p) = self.owned.get_mut(req as usize) else {
            return;
        };
        let prio = std::mem::replace(p, NOT_OWNED);
        if prio != NOT_OWNED {
            let q = &mut self.per_prio[usize::from(prio)].queued;
            *q = q.saturating_sub(1);
        }
    }

    fn is_waiting(&self, req: ReqIdx) -> bool {
        self.node
            .get(node_of(req))
            .is_some_and(|n| n.list != GONE.list)
    }

    /// Whether FIFO `list` holds a request.
    #[inline]
    fn any(&self, list: usize) -> bool {
        self.node[list].next != list as u32
    }

    pub fn has_work(&self) -> bool {
        self.waiting > 0
    }

    /// `deadline_remove_request`: out of both lists (`moving`: `deadline_move_request`, which
    /// first makes the request after it `next_rq`; else `next_rq` moves past it if it was that).
    #[inline]
    fn take(&mut self, req: ReqIdx, at: u64, moving: bool) {
        self.looked_up.set(None);
        let n = std::mem::replace(&mut self.node[node_of(req)], GONE);
        let (prio, dir) = (usize::from(n.list) / 2, usize::from(n.list) % 2);
        let pp = &mut self.per_prio[prio];
        let sort = &mut pp.sort[dir];
        let i = sort.find(pp.next_at[dir], at, req);
        if moving || pp.next_rq[dir] == req {
            // Once `req` is out, the request after it stands where `req` stood.
            pp.next_rq[dir] = sort.req(i + 1).unwrap_or(NIL);
            pp.next_at[dir] = i;
        }
        sort.remove_at(i);
        // `list_del_init(&rq->queuelist)`.
        self.node[n.prev as usize].next = n.next;
        self.node[n.next as usize].prev = n.prev;
        self.waiting -= 1;
    }

    /// The next request in sector order of priority `prio`, direction `dir`: 6.1's `next_rq`,
    /// or from 6.5 `deadline_next_request` -> `deadline_from_pos`: the first at or after
    /// `latest_pos`.
    fn next_request(&self, prio: usize, dir: usize) -> ReqIdx {
        let pp = &self.per_prio[prio];
        if !self.t.dd_from_pos {
            return pp.next_rq[dir];
        }
        let sort = &pp.sort[dir];
        sort.req(sort.lower(pp.latest_pos[dir])).unwrap_or(NIL)
    }

    /// `dd_dispatch_request`: an aged lower-priority request first
    /// (`dd_dispatch_prio_aged_requests`), else the priorities in order, each only while none
    /// above it has requests queued.
    pub fn dispatch(&mut self, reqs: &Slab, now: u64) -> Option<ReqIdx> {
        if self.per_prio[DD_RT_PRIO].queued == 0 && self.per_prio[2].queued == 0 {
            // Best effort alone (a run without priorities): no aging, no class above it.
            return self.dispatch_prio(DD_BE_PRIO, reqs, now, None);
        }
        let queued = |p: &PerPrio| u32::from(p.queued > 0);
        // No request is older than the run: before `prio_aging_expire` none has aged.
        let aged = now.checked_sub(self.t.prio_aging_expire_ns);
        if let Some(latest_start) =
            aged.filter(|_| self.per_prio.iter().map(queued).sum::<u32>() >= 2)
        {
            for prio in DD_BE_PRIO..DD_PRIO_COUNT {
                if let Some(r) = self.dispatch_prio(prio, reqs, now, Some(latest_start)) {
                    return Some(r);
                }
            }
        }
        for prio in DD_RT_PRIO..DD_PRIO_COUNT {
            let r = self.dispatch_prio(prio, reqs, now, None);
            if r.is_some() || self.per_prio[prio].queued > 0 {
                return r;
            }
        }
        None
    }

    /// `__dd_dispatch_request` for priority `prio`, then `dd_start_request`; a request
    /// inserted after `latest_start` (the aging pass's bound) stays (`started_after`), after
    /// the batch and direction were chosen, as in the kernel.
    fn dispatch_prio(
        &mut self,
        prio: usize,
        reqs: &Slab,
        now: u64,
        latest_start: Option<u64>,
    ) -> Option<ReqIdx> {
        let base = prio * 2;
        // Still entitled to batch: the next request in sector order, same direction.
        let mut r = self.next_request(prio, self.last_dir);
        let dir = if r != NIL && self.batching < self.t.fifo_batch {
            self.last_dir
        } else {
            // A new batch: reads first, unless writes have starved long enough.
            let (reads, writes) = (self.any(base + DD_READ), self.any(base + DD_WRITE));
            let dir = if reads {
                if writes && self.starved >= self.t.writes_starved {
                    self.starved = 0;
                    DD_WRITE
                } else {
                    self.starved += u32::from(writes);
                    DD_READ
                }
            } else if writes {
                self.starved = 0;
                DD_WRITE
            } else {
                return None;
            };
            // The oldest request if its deadline passed or sector order ran out, else on.
            let first = self.node[base + dir].next;
            let next = self.next_request(prio, dir);
            r = if next != NIL && self.node[first as usize].deadline > now {
                next
            } else {
                req_of(first)
            };
            self.last_dir = dir;
            self.batching = 0;
            dir
        };
        if let Some(bound) = latest_start {
            // `started_after`: its insertion is its deadline less the direction's expiry.
            if self.node[node_of(r)].deadline - self.t.expire_ns[dir] > bound {
                return None;
            }
        }
        self.batching += 1;
        let rq = reqs.get(r);
        self.take(r, rq.offset, true);
        if self.t.dd_from_pos {
            // `dd_start_request`: `latest_pos[data_dir] = blk_rq_pos(rq)`.
            self.per_prio[prio].latest_pos[dir] = rq.offset;
        }
        Some(r)
    }

    pub fn waiting(&self) -> Vec<ReqIdx> {
        let mut v = Vec::new();
        for l in 0..LISTS {
            let mut at = self.node[l].next;
            while at != l as u32 {
                v.push(req_of(at));
                at = self.node[at as usize].next;
            }
        }
        v
    }

    /// Requests queued (`dd_queued`) per priority: realtime, best effort, idle.
    #[cfg(test)]
    pub(crate) fn queued(&self) -> [u32; DD_PRIO_COUNT] {
        [0, 1, 2].map(|p| self.per_prio[p].queued)
    }
}

#[cfg(test)]
mod tests;
