//! The block layer's flush sequence (block/blk-flush.c: `blk_flush_policy`, `blk_insert_flush`,
//! `blk_flush_complete_seq`): a REQ_FUA write to a queue with a volatile write cache that does
//! not advertise FUA is sent as a plain write followed by a flush (REQ_FSEQ_POSTFLUSH), and is
//! completed to its submitter only once that flush has completed.
//!
//! The mmc block driver says what the queue supports in `mmc_blk_alloc_req`
//! (drivers/mmc/core/block.c): `blk_queue_write_cache(q, cache_enabled, fua_enabled)`, FUA only
//! when the card has reliable write (and, since the 2022 patch, the host does not turn it off:
//! `fua=0` here). So with `fua=0`, or `fua=1` on a card without reliable write, a synchronous
//! write (O_SYNC / O_DSYNC direct I/O: REQ_FUA, `dio_bio_write_op` in block/fops.c) costs a
//! write into the cache plus a cache flush (CMD6 FLUSH_CACHE), never a write acknowledged from
//! the cache. With the cache off (`cache=0`) the block layer strips REQ_FUA: nothing to flush.
//!
//! While the flush runs the data request stays in its Complete stage; the trace shows the flush
//! as a request of the same I/O (`io`), the CLI counts them (`post_flushes=`).
//!
//! Simplification: the flush is one request per data request (the kernel may fold the
//! post-flushes of requests completing together into one flush: `blk_kick_flush`), and it
//! takes its own blk-mq tag (the kernel's flush request borrows the data request's).

use crate::sim::request::Request;
use crate::sim::{Event, ReqIdx, Simulator};
use crate::vocab::{Op, Stage};

impl Simulator {
    /// Whether the queue advertises FUA (`blk_queue_write_cache(q, true, fua_enabled)`): the
    /// host leaves it on (`fua=1`) and the card has reliable write.
    pub(crate) fn queue_has_fua(&self) -> bool {
        self.cfg.fua && self.card.timing().reliable_write
    }

    /// `blk_flush_policy`: whether the data request, now done, still needs
    /// REQ_FSEQ_POSTFLUSH (a REQ_FUA write, a volatile write cache, no FUA on the queue).
    fn needs_post_flush(&self, req: ReqIdx) -> bool {
        let r = self.reqs.get(req);
        r.op == Op::Write && r.fua && !r.failed && self.cfg.cache && !self.queue_has_fua()
    }

    /// `blk_flush_complete_seq` at the end of a request (after `blk_mq_end_request`): the
    /// request whose completion its submitter now sees. `None` while a data request waits for
    /// its post-flush (sent now); the data request when `req` is that post-flush (the flush
    /// request itself leaves); `req` otherwise.
    pub(crate) fn blk_flush_end_request(&mut self, req: ReqIdx) -> Option<ReqIdx> {
        // (Most runs send no post-flush: no hashing on their hot path.)
        if let Some(data) = (!self.post_flush.is_empty())
            .then(|| self.post_flush.remove(&req))
            .flatten()
        {
            self.stage_at(req, Stage::Done, self.now);
            let flush = self.reqs.remove(req);
            self.reqs.get_mut(data).failed |= flush.failed;
            return Some(data);
        }
        if !self.needs_post_flush(req) {
            return Some(req);
        }
        let flush = self.blk_insert_post_flush(req);
        self.post_flush.insert(flush, req);
        None
    }

    /// `blk_kick_flush`: the flush request of data request `data`'s sequence, queued now (from
    /// the completion, no system call: it reaches blk-mq at once).
    fn blk_insert_post_flush(&mut self, data: ReqIdx) -> ReqIdx {
        let d = self.reqs.get(data);
        let (job, io, cpu) = (d.job, d.io(), d.cpu);
        self.stats.post_flushes += 1;
        self.insert_flush(job, io, cpu, 0)
    }

    /// A flush request of I/O `io` (a post-flush, or `generic_write_sync`'s), reaching blk-mq
    /// `delay` from now.
    pub(crate) fn insert_flush(&mut self, job: u32, io: u64, cpu: u16, delay: u64) -> ReqIdx {
        let now = self.now;
        let flush = Request {
            id: self.next_req_id,
            io,
            job,
            op: Op::Flush,
            offset: 0,
            len: 0,
            fua: false,
            t_issue: now,
            stage: Stage::Submit,
            t_stage: now,
            tag: None,
            cpu,
            in_mmc: false,
            chain: None,
            phases: Default::default(),
            failed: false,
            crc_error: false,
            retries: 0,
            from_mmc_test: false,
            passed_over: 0,
            preempted_ns: 0,
        };
        self.next_req_id += 1;
        let req = self.reqs.insert(flush);
        self.trace_stage(req, Stage::Submit, now);
        self.q.push(now + delay, Event::BlkMqInsert { req });
        req
    }
}
