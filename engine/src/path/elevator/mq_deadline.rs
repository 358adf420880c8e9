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
//! discard is a write (as `rq_data_dir` makes it).

use std::cell::Cell;
use std::collections::VecDeque;

mod sort_list;

use super::{try_merge, Bio, Merge, Tunables};
use crate::sim::request::Slab;
use crate::sim::ReqIdx;
use crate::vocab::Op;
use sort_list::{start, Sorted};

const DD_READ: usize = 0;
const DD_WRITE: usize = 1;

fn dir_of(op: Op) -> usize {
    if op == Op::Read {
        DD_READ
    } else {
        DD_WRITE
    }
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    dir: usize,
    /// The sort key: (start sector in bytes, insertion number).
    key: (u64, u64),
    /// `rq->fifo_time`: the deadline.
    deadline: u64,
    /// Its neighbours in the FIFO (`rq->queuelist`), older and newer.
    prev: Option<ReqIdx>,
    next: Option<ReqIdx>,
}

/// `per_prio->fifo_list[dir]`: a list through the requests' entries, oldest first. Deadlines
/// never go down (the clock and `*_expire` do not), so the order of insertion is the order of
/// deadlines, as `list_add_tail` keeps it.
#[derive(Clone, Copy, Debug, Default)]
struct Fifo {
    head: Option<ReqIdx>,
    tail: Option<ReqIdx>,
}

#[derive(Debug)]
pub struct Deadline {
    t: Tunables,
    /// `per_prio->sort_list[dir]`.
    sort: [Sorted; 2],
    /// `per_prio->fifo_list[dir]`.
    fifo: [Fifo; 2],
    /// `per_prio->dispatch`: requests inserted at the head (requeued), served first.
    head: VecDeque<ReqIdx>,
    /// Each waiting request's keys, by its slab index (a request's `rq->rb_node` and
    /// `rq->queuelist`): a table, not a hash map, looked up on every insert, merge and dispatch.
    info: Vec<Option<Entry>>,
    /// Requests in the lists.
    waiting: usize,
    /// `per_prio->next_rq[dir]`: the request after the last dispatched one in sector order.
    next_rq: [Option<ReqIdx>; 2],
    /// Where `next_rq` stood in its sort list when it was set: a hint, checked before use
    /// (an insert or merge since may have moved it), that spares the dispatch a search.
    next_at: [usize; 2],
    /// The last merge lookup that found nothing: (direction, the bio's start, where that start
    /// sits in the sort list), while the lists are unchanged since. The request made of that
    /// bio is inserted next, from there, without a second search (the kernel keeps a one-hit
    /// cache of its own, `q->last_merge`, for the other way round).
    looked_up: Cell<Option<(usize, u64, usize)>>,
    /// `dd->last_dir`, `dd->batching`, `dd->starved`.
    last_dir: usize,
    batching: u32,
    starved: u32,
    seq: u64,
}

impl Deadline {
    pub fn new(t: Tunables) -> Deadline {
        Deadline {
            t,
            sort: Default::default(),
            fifo: Default::default(),
            head: VecDeque::new(),
            info: Vec::new(),
            waiting: 0,
            next_rq: [None; 2],
            next_at: [0; 2],
            looked_up: Cell::new(None),
            last_dir: DD_READ,
            batching: 0,
            starved: 0,
            seq: 0,
        }
    }

    /// `dd_insert_request`: into the sort list and the FIFO with its deadline.
    pub fn insert(&mut self, req: ReqIdx, reqs: &Slab, now: u64) {
        let r = reqs.get(req);
        let dir = dir_of(r.op);
        self.seq += 1;
        let e = Entry {
            dir,
            key: (r.offset, self.seq),
            deadline: now + self.t.expire_ns[dir],
            prev: self.fifo[dir].tail,
            next: None,
        };
        match self.looked_up.take() {
            Some((d, start, at)) if d == dir && start == r.offset => {
                self.sort[dir].insert_from(at, e.key, req)
            }
            _ => self.sort[dir].insert(e.key, req),
        }
        let i = req as usize;
        if self.info.len() <= i {
            self.info.resize(i + 1, None);
        }
        debug_assert!(self.info[i].is_none(), "a request is inserted once");
        match e.prev {
            Some(p) => self.linked(p).next = Some(req),
            None => self.fifo[dir].head = Some(req),
        }
        self.fifo[dir].tail = Some(req);
        self.info[i] = Some(e);
        self.waiting += 1;
    }

    /// The entry of `req`, which is in the lists.
    #[inline]
    fn linked(&mut self, req: ReqIdx) -> &mut Entry {
        self.info[req as usize]
            .as_mut()
            .expect("a request in the FIFO waits")
    }

    /// `list_del_init(&rq->queuelist)`: `e` (of the request that left) out of its FIFO.
    #[inline]
    fn unlink(&mut self, e: &Entry) {
        match e.prev {
            Some(p) => self.linked(p).next = e.next,
            None => self.fifo[e.dir].head = e.next,
        }
        match e.next {
            Some(n) => self.linked(n).prev = e.prev,
            None => self.fifo[e.dir].tail = e.prev,
        }
    }

    pub fn has_work(&self) -> bool {
        !self.head.is_empty() || self.waiting > 0
    }

    /// `deadline_latter_request`: the next request in sector order after `key`.
    fn latter(&self, dir: usize, key: (u64, u64)) -> Option<ReqIdx> {
        self.sort[dir].after(key)
    }

    /// `deadline_remove_request`: out of both lists; `next_rq` moves past it.
    fn take(&mut self, req: ReqIdx) {
        self.take_moving(req, false);
    }

    /// `deadline_move_request`: `next_rq` becomes the request after it, and it leaves.
    fn move_request(&mut self, req: ReqIdx) {
        self.take_moving(req, true);
    }

    /// [`take`](Self::take), and first (`moving`) `next_rq` set to the request after it: one
    /// search of the sort list for both.
    #[inline]
    fn take_moving(&mut self, req: ReqIdx, moving: bool) {
        self.looked_up.set(None);
        let Some(e) = self.info.get_mut(req as usize).and_then(Option::take) else {
            if !moving {
                self.head.retain(|&r| r != req);
            }
            return;
        };
        let sort = &mut self.sort[e.dir];
        let at = sort.find_near(self.next_at[e.dir], e.key);
        if moving || self.next_rq[e.dir] == Some(req) {
            let after = at.map_or_else(|i| i, |i| i + 1);
            self.next_rq[e.dir] = sort.0.get(after).map(|&(_, r)| r);
            // Once `req` is out, the request after it stands where `req` stood.
            self.next_at[e.dir] = after - usize::from(at.is_ok());
        }
        self.waiting -= 1;
        if let Ok(i) = at {
            sort.0.remove(i);
        }
        self.unlink(&e);
    }

    fn entry(&self, req: ReqIdx) -> Option<Entry> {
        self.info.get(req as usize).copied().flatten()
    }

    fn fifo_first(&self, dir: usize) -> Option<(u64, ReqIdx)> {
        let r = self.fifo[dir].head?;
        self.entry(r).map(|e| (e.deadline, r))
    }

    /// `__dd_dispatch_request`.
    pub fn dispatch(&mut self, _reqs: &Slab, now: u64) -> Option<ReqIdx> {
        if let Some(r) = self.head.pop_front() {
            return Some(r);
        }
        // Still entitled to batch: the next request in sector order, same direction.
        if let Some(r) = self.next_rq[self.last_dir] {
            if self.batching < self.t.fifo_batch {
                self.batching += 1;
                self.move_request(r);
                return Some(r);
            }
        }
        // A new batch: reads first, unless writes have starved long enough.
        let dir = if self.fifo[DD_READ].head.is_some() {
            let starved = self.starved;
            if self.fifo[DD_WRITE].head.is_some() && starved >= self.t.writes_starved {
                self.starved = 0;
                DD_WRITE
            } else {
                if self.fifo[DD_WRITE].head.is_some() {
                    self.starved += 1;
                }
                DD_READ
            }
        } else if self.fifo[DD_WRITE].head.is_some() {
            self.starved = 0;
            DD_WRITE
        } else {
            return None;
        };
        // The oldest request if its deadline passed or sector order ran out, else on in order.
        let expired = self.fifo_first(dir).is_some_and(|(t, _)| t <= now);
        let r = match self.next_rq[dir] {
            Some(r) if !expired => r,
            _ => self.fifo_first(dir)?.1,
        };
        self.last_dir = dir;
        self.batching = 1;
        self.move_request(r);
        Some(r)
    }

    /// `dd_bio_merge` -> `elv_merge`: a request ending where the bio starts (back), else with
    /// `front_merges` one starting where it ends (front).
    pub fn bio_merge(&self, bio: &Bio, reqs: &Slab, max: u64) -> Option<(ReqIdx, Merge)> {
        let dir = dir_of(bio.op);
        let sort = &self.sort[dir];
        let at = sort.lower((bio.offset, 0));
        let back = sort.0[..at]
            .iter()
            .rev()
            .take_while(|&&(k, _)| start(k) + max > bio.offset)
            .find(|&&(_, r)| try_merge(reqs.get(r), bio, max) == Some(Merge::Back))
            .map(|&(_, r)| (r, Merge::Back));
        // The requests starting where the bio ends: past those starting within it.
        let found = back.or_else(|| {
            if !self.t.front_merges {
                return None;
            }
            sort.0[at..]
                .iter()
                .skip_while(|&&(k, _)| start(k) < bio.end())
                .take_while(|&&(k, _)| start(k) == bio.end())
                .find(|&&(_, r)| try_merge(reqs.get(r), bio, max) == Some(Merge::Front))
                .map(|&(_, r)| (r, Merge::Front))
        });
        self.looked_up
            .set(found.is_none().then_some((dir, bio.offset, at)));
        found
    }

    /// `dd_request_merged`: after a front merge the request's sector changed; it moves in the
    /// sort list (`elv_rb_del` + `deadline_add_rq_rb`).
    pub fn merged(&mut self, req: ReqIdx, kind: Merge, _old_offset: u64, reqs: &Slab) {
        if kind != Merge::Front {
            return;
        }
        let Some(e) = self.info.get_mut(req as usize).and_then(Option::as_mut) else {
            return;
        };
        let old = e.key;
        e.key = (reqs.get(req).offset, old.1);
        self.looked_up.set(None);
        let (dir, key) = (e.dir, e.key);
        self.sort[dir].remove(old);
        self.sort[dir].insert(key, req);
    }

    /// The waiting request right after (back merge) or before (front merge) `req` in sector
    /// order, which `attempt_back_merge` / `attempt_front_merge` try to fold into it.
    pub fn neighbour(&self, req: ReqIdx, kind: Merge, _reqs: &Slab) -> Option<ReqIdx> {
        let e = self.entry(req)?;
        match kind {
            Merge::Back => self.latter(e.dir, e.key),
            Merge::Front => self.sort[e.dir].before(e.key),
        }
    }

    /// `dd_merged_requests`: the request folded into another leaves both lists.
    pub fn remove(&mut self, req: ReqIdx, _reqs: &Slab) {
        self.take(req);
    }

    pub fn waiting(&self) -> Vec<ReqIdx> {
        let mut v: Vec<ReqIdx> = self.head.iter().copied().collect();
        for dir in [DD_READ, DD_WRITE] {
            let mut at = self.fifo[dir].head;
            while let Some(r) = at {
                v.push(r);
                at = self.entry(r).and_then(|e| e.next);
            }
        }
        v
    }
}

#[cfg(test)]
mod tests;
