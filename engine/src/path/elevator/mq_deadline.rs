//! mq-deadline (block/mq-deadline.c, Linux 6.1): per direction, a list sorted by sector and a
//! FIFO by deadline (`read_expire` 500 ms, `write_expire` 5 s). `__dd_dispatch_request` goes on
//! in sector order within a batch of `fifo_batch` (16) requests of one direction; a new batch
//! serves reads first unless writes have waited through `writes_starved` (2) read batches, and
//! starts from the oldest request when its deadline has passed or the sector order ran out.
//! Bios merge at the back of a request ending where they start (`elv_rqhash_find`) or, with
//! `front_merges`, at the front of one starting where they end (`dd_request_merge`).
//!
//! Simplifications: one priority level (fio's default best-effort class; the kernel keeps three
//! and ages the lower ones), no `async_depth` limit (fio's direct I/O is synchronous), a
//! discard is a write (as `rq_data_dir` makes it), and no `per_prio->dispatch` list: only
//! requests inserted at the head fill it (a driver's `blk_mq_requeue_request`, passthrough
//! commands), and a refused request goes back on `hctx->dispatch` instead (BLK_STS_RESOURCE
//! in `blk_mq_dispatch_rq_list`), in the model as in the kernel.

use std::cell::Cell;

mod sort_list;

use super::{try_merge, Bio, Merge, Tunables};
use crate::sim::request::Slab;
use crate::sim::ReqIdx;
use crate::vocab::Op;
use sort_list::Sorted;

const DD_READ: usize = 0;
const DD_WRITE: usize = 1;

/// No request (`next_rq` when sector order ran out).
const NIL: ReqIdx = ReqIdx::MAX;

fn dir_of(op: Op) -> usize {
    usize::from(op != Op::Read)
}

/// A place in a FIFO (`rq->queuelist`, `rq->fifo_time`): node `dir` is the head of FIFO
/// `dir` (`per_prio->fifo_list[dir]`, a ring through it, as a kernel `list_head`), node
/// [`node_of`] `req` is request `req`'s. Deadlines never go down within a direction (the
/// clock and `*_expire` do not), so the order of insertion is the order of deadlines, as
/// `list_add_tail` keeps it.
#[derive(Clone, Copy, Debug)]
struct Node {
    /// `rq->fifo_time`: the deadline (ns).
    deadline: u64,
    /// The nodes before (older) and after (newer) it in the ring.
    prev: u32,
    next: u32,
    /// The FIFO it is in; [`GONE`]'s when the request is not waiting.
    dir: u8,
}

const GONE: Node = Node {
    deadline: 0,
    prev: 0,
    next: 0,
    dir: u8::MAX,
};

/// The node of request `req` (past the two heads).
#[inline]
fn node_of(req: ReqIdx) -> usize {
    req as usize + 2
}

/// The request of node `n` (not a head).
#[inline]
fn req_of(n: u32) -> ReqIdx {
    n - 2
}

#[derive(Debug)]
pub struct Deadline {
    t: Tunables,
    /// `per_prio->sort_list[dir]`.
    sort: [Sorted; 2],
    /// The FIFOs' heads, then each request's place, by [`node_of`].
    node: Vec<Node>,
    /// `per_prio->next_rq[dir]` ([`NIL`]: none): the request after the last dispatched one
    /// in sector order.
    next_rq: [ReqIdx; 2],
    /// Where `next_rq` stood in its sort list when it was set: a hint, checked before use
    /// (an insert or merge since may have moved it), that spares the dispatch a search.
    next_at: [usize; 2],
    /// The last merge lookup that found nothing: (direction, the bio's start, the place of the
    /// first request starting at or after it), while the lists are unchanged since. The request
    /// made of that bio is inserted next, from there, without a second search (the kernel
    /// keeps a one-hit cache of its own, `q->last_merge`, for the other way round).
    looked_up: Cell<Option<(usize, u64, usize)>>,
    /// `per_prio->latest_pos[dir]`: the start of the request dispatched last (Linux 6.5+,
    /// `Tunables::dd_from_pos`).
    latest_pos: [u64; 2],
    /// `dd->last_dir`, `dd->batching`, `dd->starved`.
    last_dir: usize,
    batching: u32,
    starved: u32,
}

impl Deadline {
    pub fn new(t: Tunables) -> Deadline {
        Deadline {
            t,
            sort: Default::default(),
            node: (0..2)
                .map(|d| Node {
                    prev: d,
                    next: d,
                    ..GONE
                })
                .collect(),
            next_rq: [NIL; 2],
            next_at: [0; 2],
            latest_pos: [0; 2],
            looked_up: Cell::new(None),
            last_dir: DD_READ,
            batching: 0,
            starved: 0,
        }
    }

    /// `dd_insert_request`: into the sort list, and at the FIFO's tail with its deadline.
    pub fn insert(&mut self, req: ReqIdx, reqs: &Slab, now: u64) {
        let r = reqs.get(req);
        let (dir, at) = (dir_of(r.op), r.offset);
        let from = match self.looked_up.take() {
            Some((d, start, i)) if d == dir && start == at => Some(i),
            _ => None,
        };
        self.sort[dir].add(at, req, from);
        let k = node_of(req);
        if self.node.len() <= k {
            self.node.resize(k + 1, GONE);
        }
        debug_assert!(!self.is_waiting(req), "a request is inserted once");
        // `list_add_tail`: between the last and the head.
        let tail = self.node[dir].prev;
        self.node[k] = Node {
            deadline: now + self.t.expire_ns[dir],
            prev: tail,
            next: dir as u32,
            dir: dir as u8,
        };
        self.node[tail as usize].next = k as u32;
        self.node[dir].prev = k as u32;
    }

    fn is_waiting(&self, req: ReqIdx) -> bool {
        self.node
            .get(node_of(req))
            .is_some_and(|n| n.dir != GONE.dir)
    }

    /// Whether FIFO `dir` holds a request.
    #[inline]
    fn any(&self, dir: usize) -> bool {
        self.node[dir].next != dir as u32
    }

    pub fn has_work(&self) -> bool {
        self.any(DD_READ) || self.any(DD_WRITE)
    }

    /// `deadline_remove_request`: out of both lists (`moving`: `deadline_move_request`, which
    /// first makes the request after it `next_rq`; else `next_rq` moves past it if it was that).
    #[inline]
    fn take(&mut self, req: ReqIdx, at: u64, moving: bool) {
        self.looked_up.set(None);
        let n = std::mem::replace(&mut self.node[node_of(req)], GONE);
        let dir = usize::from(n.dir);
        let sort = &mut self.sort[dir];
        let i = sort.find(self.next_at[dir], at, req);
        if moving || self.next_rq[dir] == req {
            // Once `req` is out, the request after it stands where `req` stood.
            self.next_rq[dir] = sort.req(i + 1).unwrap_or(NIL);
            self.next_at[dir] = i;
        }
        sort.remove_at(i);
        // `list_del_init(&rq->queuelist)`.
        self.node[n.prev as usize].next = n.next;
        self.node[n.next as usize].prev = n.prev;
    }

    /// The next request in sector order of `dir`: 6.1's `next_rq`, or from 6.5
    /// `deadline_next_request` -> `deadline_from_pos`: the first at or after `latest_pos`.
    fn next_request(&self, dir: usize) -> ReqIdx {
        if !self.t.dd_from_pos {
            return self.next_rq[dir];
        }
        let sort = &self.sort[dir];
        sort.req(sort.lower(self.latest_pos[dir])).unwrap_or(NIL)
    }

    /// `__dd_dispatch_request`.
    pub fn dispatch(&mut self, reqs: &Slab, now: u64) -> Option<ReqIdx> {
        let r = self.dispatch_one(reqs, now)?;
        if self.t.dd_from_pos {
            // `dd_start_request`: `latest_pos[data_dir] = blk_rq_pos(rq)`.
            let rq = reqs.get(r);
            self.latest_pos[dir_of(rq.op)] = rq.offset;
        }
        Some(r)
    }

    fn dispatch_one(&mut self, reqs: &Slab, now: u64) -> Option<ReqIdx> {
        // Still entitled to batch: the next request in sector order, same direction.
        let r = self.next_request(self.last_dir);
        if r != NIL && self.batching < self.t.fifo_batch {
            self.batching += 1;
            self.take(r, reqs.get(r).offset, true);
            return Some(r);
        }
        // A new batch: reads first, unless writes have starved long enough.
        let (reads, writes) = (self.any(DD_READ), self.any(DD_WRITE));
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
        // The oldest request if its deadline passed or sector order ran out, else on in order.
        let first = self.node[dir].next;
        let next = self.next_request(dir);
        let r = if next != NIL && self.node[first as usize].deadline > now {
            next
        } else {
            req_of(first)
        };
        self.last_dir = dir;
        self.batching = 1;
        self.take(r, reqs.get(r).offset, true);
        Some(r)
    }

    /// `dd_bio_merge` -> `elv_merge`: a request ending where the bio starts (back), else with
    /// `front_merges` one starting where it ends (front).
    pub fn bio_merge(&self, bio: &Bio, reqs: &Slab, max: u64) -> Option<(ReqIdx, Merge)> {
        let dir = dir_of(bio.op);
        let sort = &self.sort[dir];
        let at = sort.lower(bio.offset);
        let v = &sort.0;
        let back = v[..at]
            .iter()
            .rev()
            .take_while(|&&(s, _)| s + max > bio.offset)
            .find(|&&(_, r)| try_merge(reqs.get(r), bio, max) == Some(Merge::Back))
            .map(|&(_, r)| (r, Merge::Back));
        // The requests starting where the bio ends: past those starting within it.
        let found = back.or_else(|| {
            if !self.t.front_merges {
                return None;
            }
            v[at..]
                .iter()
                .skip_while(|&&(s, _)| s < bio.end())
                .take_while(|&&(s, _)| s == bio.end())
                .find(|&&(_, r)| try_merge(reqs.get(r), bio, max) == Some(Merge::Front))
                .map(|&(_, r)| (r, Merge::Front))
        });
        self.looked_up
            .set(found.is_none().then_some((dir, bio.offset, at)));
        found
    }

    /// `dd_request_merged`: after a front merge the request's sector changed; it moves in the
    /// sort list (`elv_rb_del` + `deadline_add_rq_rb`: past the requests of its new start).
    pub fn merged(&mut self, req: ReqIdx, kind: Merge, old_offset: u64, reqs: &Slab) {
        if kind != Merge::Front || !self.is_waiting(req) {
            return;
        }
        self.looked_up.set(None);
        let sort = &mut self.sort[dir_of(reqs.get(req).op)];
        let i = sort.find(0, old_offset, req);
        sort.remove_at(i);
        sort.add(reqs.get(req).offset, req, None);
    }

    /// The waiting request right after (back merge) or before (front merge) `req` in sector
    /// order, which `attempt_back_merge` / `attempt_front_merge` try to fold into it.
    pub fn neighbour(&self, req: ReqIdx, kind: Merge, reqs: &Slab) -> Option<ReqIdx> {
        if !self.is_waiting(req) {
            return None;
        }
        let r = reqs.get(req);
        let sort = &self.sort[dir_of(r.op)];
        let i = sort.find(0, r.offset, req);
        match kind {
            Merge::Back => sort.req(i + 1),
            Merge::Front => i.checked_sub(1).and_then(|i| sort.req(i)),
        }
    }

    /// `dd_merged_requests`: `gone` was folded into `into`. If `gone` expires first, `into`
    /// takes its deadline and its place in the FIFO (`list_move` next to it); then `gone`
    /// leaves both lists. (The kernel keeps the request in front on the device, which after a
    /// front merge is `gone` here: either way the one left holds the earlier place.)
    pub fn requests_merged(&mut self, into: ReqIdx, gone: ReqIdx, reqs: &Slab) {
        if !self.is_waiting(gone) {
            return;
        }
        let (a, b) = (node_of(into), node_of(gone));
        if self.is_waiting(into) && self.node[b].deadline < self.node[a].deadline {
            let n = self.node[a];
            self.node[n.prev as usize].next = n.next;
            self.node[n.next as usize].prev = n.prev;
            let after = self.node[b].next;
            self.node[a] = Node {
                deadline: self.node[b].deadline,
                prev: b as u32,
                next: after,
                ..n
            };
            self.node[after as usize].prev = a as u32;
            self.node[b].next = a as u32;
        }
        self.take(gone, reqs.get(gone).offset, false);
    }

    pub fn waiting(&self) -> Vec<ReqIdx> {
        let mut v = Vec::new();
        for dir in [DD_READ, DD_WRITE] {
            let mut at = self.node[dir].next;
            while at != dir as u32 {
                v.push(req_of(at));
                at = self.node[at as usize].next;
            }
        }
        v
    }
}

#[cfg(test)]
mod tests;
