//! The block layer's flush machine (block/blk-flush.c, Linux 6.1: `blk_flush_policy`,
//! `blk_insert_flush`, `blk_flush_complete_seq`, `blk_kick_flush`, `flush_end_io`).
//!
//! The mmc block driver says what the queue supports in `mmc_blk_alloc_req`
//! (drivers/mmc/core/block.c): a volatile write cache when the card's cache is on, and on an
//! eMMC with reliable write (CMD23, `rel_sectors`) the write-cache flag and FUA whatever the
//! cache (`blk_queue_write_cache(q, cache_enabled, fua_enabled)`); the host may turn FUA off
//! (`fua=0`, the 2022 patch). Then, for a request with REQ_PREFLUSH or REQ_FUA:
//! - no write cache: the flags are dropped; an empty flush (fsync's) completes at once and
//!   never becomes a request the driver sees;
//! - a REQ_FUA write with FUA on the queue: a plain data request (a reliable write), which
//!   goes around the scheduler to `hctx->dispatch` (`blk_mq_request_bypass_insert`);
//! - a REQ_FUA write without FUA: the data first (at the head of `hctx->dispatch`), then a
//!   post-flush; an empty flush: the flush only;
//! - a write with REQ_PREFLUSH (f2fs's node write of an atomic commit: REQ_PREFLUSH |
//!   REQ_FUA): it waits for a flush first (REQ_FSEQ_PREFLUSH), then its data goes at the head
//!   of `hctx->dispatch` (a reliable write if it has REQ_FUA and the queue FUA), then a
//!   post-flush if it has REQ_FUA and the queue has no FUA.
//!
//! Requests waiting for a flush (fsync's empty flushes, writes waiting for their post-flush)
//! share it: one flush request is in flight at a time (C1), it carries every request pending
//! when it is kicked, and requests arriving meanwhile wait for the next one. A flush is held
//! back while data requests of flush sequences are in flight, for at most
//! `FLUSH_PENDING_TIMEOUT` (5 s), so their post-flushes can share it (C2, C3). The flush
//! request borrows its first waiter's tag (the model gives it none: it goes to the mmc
//! queue's direct path); the queue runs by kblockd (the requeue list, `blk_flush_queue_rq`).
//!
//! On an eMMC with reliable write and its cache off the flush request exists but sends no
//! CMD6 (`mmc_flush_cache` finds the cache off): it only drains the mmc queue.

use crate::sim::request::Request;
use crate::sim::{Event, ReqIdx, Simulator};
use crate::vocab::{Op, Stage};

/// `FLUSH_PENDING_TIMEOUT` (5 * HZ).
pub const FLUSH_PENDING_TIMEOUT_NS: u64 = 5_000_000_000;

/// `struct blk_flush_queue`.
#[derive(Debug, Default)]
pub struct FlushQueue {
    /// Requests waiting for the next flush (`flush_queue[flush_pending_idx]`), and since when.
    pending: Vec<ReqIdx>,
    pending_since: u64,
    /// The flush in flight and the requests sharing it (`flush_queue[flush_running_idx]`).
    flush_rq: Option<ReqIdx>,
    running: Vec<ReqIdx>,
    /// Data requests of flush sequences in flight (`flush_data_in_flight`).
    data_in_flight: u32,
    /// Data requests whose post-flush is still to come (their REQ_FSEQ_DATA is running).
    post: std::collections::HashSet<ReqIdx>,
    /// REQ_PREFLUSH writes waiting for their pre-flush, and those whose data then ends the
    /// sequence (no post-flush) while it runs.
    pre: std::collections::HashSet<ReqIdx>,
    last_data: std::collections::HashSet<ReqIdx>,
}

impl FlushQueue {
    /// The flush request in flight, if `req` is it.
    pub fn is_flush_rq(&self, req: ReqIdx) -> bool {
        self.flush_rq == Some(req)
    }
}

impl Simulator {
    /// Whether the queue has a volatile write cache (`QUEUE_FLAG_WC`): the card's cache is on,
    /// or the card is an eMMC with reliable write (the driver sets the flag for it).
    pub(crate) fn queue_write_cache(&self) -> bool {
        self.cfg.cache || self.card.timing().reliable_write
    }

    /// Whether the queue advertises FUA (`blk_queue_write_cache(q, true, fua_enabled)`): the
    /// host leaves it on (`fua=1`) and the card has reliable write.
    pub(crate) fn queue_has_fua(&self) -> bool {
        self.cfg.fua && self.card.timing().reliable_write
    }

    /// `blk_insert_flush` for a request with REQ_PREFLUSH (an empty flush) or REQ_FUA, after
    /// it got its tag. False: a plain request after all (the caller queues it as one).
    pub(crate) fn blk_insert_flush(&mut self, req: ReqIdx) -> bool {
        let (op, fua, preflush) = {
            let r = self.reqs.get(req);
            (r.op, r.fua, r.preflush)
        };
        let wc = self.queue_write_cache();
        if op == Op::Flush {
            if !wc {
                // No write cache: nothing to flush; the bio completes at once.
                self.blk_flush_complete(req);
            } else {
                self.blk_flush_pend(req);
            }
            return true;
        }
        if !wc || !(fua || preflush) {
            // REQ_FUA and REQ_PREFLUSH dropped without a write cache: a plain write.
            let r = self.reqs.get_mut(req);
            (r.fua, r.preflush) = (false, false);
            return false;
        }
        if preflush {
            // PREFLUSH first: the data waits for the next flush (`blk_flush_complete_seq`).
            self.fq.pre.insert(req);
            self.blk_flush_pend(req);
            return true;
        }
        // Simplification: under bfq the model keeps 6.1's path. There the data held in bfq
        // (counted in flight from its insert) holds the flush back while bfq waits for the
        // sequence's earlier request, which waits for that flush: the kernel's way out
        // (bfq's idle expiry, `FLUSH_PENDING_TIMEOUT`) has no event in the model, whose run
        // would stall (invariants' proptest, rpi5-sd-2024 with bfq and sync=1).
        if self.rules.flush_data_normal && self.cfg.iosched != crate::vocab::IoSched::Bfq {
            // From Linux 6.5 (615939a2ae73, `blk_insert_flush` returns false): the data takes
            // the normal path (plug, scheduler or direct issue, by the submitting task), with
            // a post-flush to come when the queue has no FUA (counted in flight, so a flush
            // waits for it); only that post-flush goes through this machine, run by kblockd
            // from the requeue list (`blk_kick_flush` -> `blk_mq_kick_requeue_list`).
            if !self.queue_has_fua() {
                self.stats.post_flushes += 1;
                self.fq.data_in_flight += 1;
                self.fq.post.insert(req);
            }
            return false;
        }
        if self.queue_has_fua() {
            // DATA only: around the scheduler, to the tail of hctx->dispatch.
            self.blk.bypass_insert(req, false);
        } else {
            // DATA, then POSTFLUSH: the data first, at the head of hctx->dispatch.
            self.stats.post_flushes += 1;
            self.fq.data_in_flight += 1;
            self.fq.post.insert(req);
            self.blk.bypass_insert(req, true);
        }
        self.blk_mq_kick();
        true
    }

    /// The pre-flush of REQ_PREFLUSH write `req` is done: its data goes, at the head of
    /// `hctx->dispatch` (the requeue list), then a post-flush if REQ_FUA has no FUA to use.
    fn blk_flush_data(&mut self, req: ReqIdx) {
        self.fq.data_in_flight += 1;
        if self.reqs.get(req).fua && !self.queue_has_fua() {
            self.stats.post_flushes += 1;
            self.fq.post.insert(req);
        } else {
            self.fq.last_data.insert(req);
        }
        self.blk.bypass_insert(req, true);
        self.blk_mq_kick();
    }

    /// `req` waits for the next flush.
    fn blk_flush_pend(&mut self, req: ReqIdx) {
        if self.fq.pending.is_empty() {
            self.fq.pending_since = self.now;
        }
        self.fq.pending.push(req);
        self.blk_kick_flush();
    }

    /// `blk_kick_flush`: a flush request for every request pending, unless one is in flight
    /// (C1), or data of flush sequences is in flight and the pending ones have not waited 5 s.
    fn blk_kick_flush(&mut self) {
        let fq = &self.fq;
        if fq.flush_rq.is_some() || fq.pending.is_empty() {
            return;
        }
        if fq.data_in_flight > 0 && self.now < fq.pending_since + FLUSH_PENDING_TIMEOUT_NS {
            return;
        }
        let first = self.reqs.get(self.fq.pending[0]);
        let (job, io, cpu) = (first.job, first.io(), first.cpu);
        let flush = self.new_flush_request(job, io, cpu);
        self.fq.running = std::mem::take(&mut self.fq.pending);
        self.fq.flush_rq = Some(flush);
        self.set_stage(flush, Stage::BlkMq);
        self.blk.bypass_insert(flush, true);
        self.blk_mq_kick();
    }

    /// A request of the flush machine finished in the driver (`mmc_complete`, after
    /// in_flight--): the flush request (`flush_end_io`: every request sharing it is done), or
    /// the data of a sequence with a post-flush to come (`mq_flush_data_end_io`). False: not
    /// the flush machine's.
    pub(crate) fn blk_flush_end_io(&mut self, req: ReqIdx) -> bool {
        if self.fq.is_flush_rq(req) {
            self.stats.flushes += 1;
            self.fq.flush_rq = None;
            let failed = self.reqs.get(req).failed;
            self.stage_at(req, Stage::Done, self.now);
            self.reqs.remove(req);
            for w in std::mem::take(&mut self.fq.running) {
                self.reqs.get_mut(w).failed |= failed;
                if self.fq.pre.remove(&w) && !failed {
                    self.blk_flush_data(w);
                } else {
                    self.blk_flush_complete(w);
                }
            }
            self.blk_kick_flush();
            self.blk_mq_kick();
            return true;
        }
        // (Most completions are of no flush sequence: the emptiness check spares them hashing.)
        if !self.fq.last_data.is_empty() && self.fq.last_data.remove(&req) {
            // The data of a PREFLUSH sequence with nothing after it: the sequence is done.
            self.fq.data_in_flight -= 1;
            self.blk_flush_complete(req);
            self.blk_kick_flush();
            self.blk_mq_sched_restart();
            return true;
        }
        if !self.fq.post.is_empty() && self.fq.post.remove(&req) {
            self.fq.data_in_flight -= 1;
            if self.reqs.get(req).failed {
                self.blk_flush_complete(req);
            } else {
                // With a scheduler the driver tag goes back now; the scheduler tag (or, without
                // one, the driver tag) stays with the sequence.
                self.blk_mq_put_driver_tag_of(req);
                self.blk_flush_pend(req);
            }
            self.blk_kick_flush();
            // `mq_flush_data_end_io` -> `blk_mq_sched_restart`: a request refused meanwhile
            // may go now (without it a refused write of another sequence would wait forever,
            // holding the flush back as data in flight).
            self.blk_mq_sched_restart();
            return true;
        }
        false
    }

    /// The sequence of `req` is done: it ends (its tags are freed) and its submitter wakes.
    fn blk_flush_complete(&mut self, req: ReqIdx) {
        self.blk_mq_end_request(req);
        self.mmc_reap_later(req);
    }

    /// A flush request of I/O `io`: `generic_write_sync`'s, or fio's `fsync`, reaching blk-mq
    /// `delay` from now.
    pub(crate) fn insert_flush(&mut self, job: u32, io: u64, cpu: u16, delay: u64) -> ReqIdx {
        let req = self.new_flush_request(job, io, cpu);
        self.q.push(self.now + delay, Event::BlkMqInsert { req });
        req
    }

    /// A flush request (REQ_OP_FLUSH) in the slab, traced from now.
    fn new_flush_request(&mut self, job: u32, io: u64, cpu: u16) -> ReqIdx {
        let now = self.now;
        let flush = Request::new(self.next_req_id, io, job, Op::Flush, 0, 0, false, cpu, now);
        self.next_req_id += 1;
        let req = self.reqs.insert(flush);
        self.trace_stage(req, Stage::Submit, now);
        req
    }
}
