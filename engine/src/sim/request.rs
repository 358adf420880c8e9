//! Requests in flight, kept in a slab whose size is bounded by the number of outstanding I/Os
//! (never by the number simulated).

use super::event::ReqIdx;
use crate::vocab::{Op, Stage};

/// Bus phases of a request, absolute ns (set when the host starts it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BusPhases {
    pub cmd: u64,
    pub access: u64,
    pub data: u64,
    pub busy: u64,
    pub end: u64,
}

#[derive(Clone, Debug)]
pub struct Request {
    /// Unique, increasing id (for traces and the UI).
    pub id: u64,
    /// The I/O it belongs to: the id of the I/O's first request. Requests of one split I/O
    /// share it, and so does the post-flush the block layer sends for a REQ_FUA write.
    pub io: u64,
    pub job: u32,
    pub op: Op,
    /// Byte offset on the device.
    pub offset: u64,
    pub len: u64,
    /// REQ_FUA: executed as a reliable write when the host advertises FUA.
    pub fua: bool,
    /// REQ_PREFLUSH on a write: the cache is flushed before its data goes (`blk_flush.rs`).
    pub preflush: bool,
    /// When fio issued it (start of the system call).
    pub t_issue: u64,
    pub stage: Stage,
    pub t_stage: u64,
    /// The driver tag (`rq->tag`, `mrq->tag`: also the hsq slot index): taken at submission
    /// without a scheduler, at dispatch with one.
    pub tag: Option<u16>,
    /// Holds one of the scheduler's `nr_requests` tags (`rq->internal_tag`).
    pub sched_tag: bool,
    /// When it got its tag (`rq->start_time_ns`), and when `->queue_rq` took it
    /// (`rq->io_start_time_ns`): kyber's total and I/O latencies.
    pub t_alloc: u64,
    pub t_dispatch: u64,
    /// Its place in its submitter's plug.
    pub plug: crate::path::blk_mq::Plug,
    /// The CPU the request was allocated on (`rq->mq_ctx->cpu`): its job thread's CPU.
    pub cpu: u16,
    /// Set once the request has been accepted by `mmc_mq_queue_rq`.
    pub in_mmc: bool,
    /// The host finished it (the CQE's `cqhci_finish_mrq`: qcnt--; hsq's
    /// `mmc_hsq_finalize_request`); its completion has not run yet.
    pub host_finished: bool,
    /// ADMA3 chain (batch) it travelled in, if any.
    pub chain: Option<u32>,
    pub phases: BusPhases,
    /// The I/O failed (power cut, retries exhausted).
    pub failed: bool,
    /// The card answered the last transfer with a data CRC error.
    pub crc_error: bool,
    /// Recovery retries so far (`mqrq->retries`).
    pub retries: u32,
    /// Issued by the mmc_test thread straight to the host (no blk-mq, no fio).
    pub from_mmc_test: bool,
    /// Requests that came to the host queue after it but were sent to the bus first.
    pub passed_over: u32,
    /// How long fio's thread waited for the CPU before reaping it (preempted; 0 mostly).
    pub preempted_ns: u64,
    /// `rq->ioprio`: the I/O priority its bio carried (`bio_set_ioprio`).
    pub ioprio: crate::vocab::IoPrio,
}

impl Request {
    /// A request as blk-mq receives it at `now` (stage `Submit`, no tag, not yet in the mmc
    /// queue): the one constructor of the workload, the flush machine and mmc_test.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        id: u64,
        io: u64,
        job: u32,
        op: Op,
        offset: u64,
        len: u64,
        fua: bool,
        cpu: u16,
        now: u64,
    ) -> Request {
        Request {
            id,
            io,
            job,
            op,
            offset,
            len,
            fua,
            preflush: false,
            t_issue: now,
            stage: Stage::Submit,
            t_stage: now,
            tag: None,
            sched_tag: false,
            t_alloc: 0,
            t_dispatch: 0,
            plug: Default::default(),
            cpu,
            in_mmc: false,
            host_finished: false,
            chain: None,
            phases: Default::default(),
            failed: false,
            crc_error: false,
            retries: 0,
            from_mmc_test: false,
            passed_over: 0,
            preempted_ns: 0,
            ioprio: Default::default(),
        }
    }

    /// The I/O it belongs to: the id of the I/O's first request.
    pub fn io(&self) -> u64 {
        self.io
    }
}

#[derive(Debug, Default)]
pub struct Slab {
    items: Vec<Option<Request>>,
    free: Vec<ReqIdx>,
}

impl Slab {
    #[inline]
    pub fn insert(&mut self, r: Request) -> ReqIdx {
        if let Some(i) = self.free.pop() {
            self.items[i as usize] = Some(r);
            i
        } else {
            self.items.push(Some(r));
            (self.items.len() - 1) as ReqIdx
        }
    }
    #[inline]
    pub fn remove(&mut self, i: ReqIdx) -> Request {
        let r = self.items[i as usize].take().expect("request slot in use");
        self.free.push(i);
        r
    }
    #[inline]
    pub fn get(&self, i: ReqIdx) -> &Request {
        self.items[i as usize]
            .as_ref()
            .expect("request slot in use")
    }
    #[inline]
    pub fn get_mut(&mut self, i: ReqIdx) -> &mut Request {
        self.items[i as usize]
            .as_mut()
            .expect("request slot in use")
    }
    pub fn iter(&self) -> impl Iterator<Item = (ReqIdx, &Request)> {
        self.items
            .iter()
            .enumerate()
            .filter_map(|(i, r)| r.as_ref().map(|r| (i as ReqIdx, r)))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A request of `op` at `offset` for the layers' unit tests.
    pub fn request(op: Op, offset: u64, len: u64) -> Request {
        Request::new(0, 0, 0, op, offset, len, false, 0, 0)
    }
}
