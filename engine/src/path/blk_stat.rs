//! I/O accounting: what `/proc/diskstats` and fio's "Disk stats" line report
//! (block/blk-mq.c `blk_account_io_start` / `blk_account_io_done`, block/blk-core.c
//! `update_io_ticks`, Linux 6.1). Per direction: requests completed (`ios`), the ns they spent
//! from allocation (`rq->start_time_ns`) to their end (`ticks`); over all requests: the sum of
//! those times (`time_in_queue`), and the time at least one request was in flight (`io_ticks`,
//! from which fio computes `util`). The flush machine's own flush request is not accounted, as in
//! the kernel (RQF_FLUSH_SEQ); an fsync's flush request counts in `time_in_queue` only (its group,
//! STAT_FLUSH, has no column in fio's line). The kernel counts `io_ticks` in jiffies; the model in
//! ns, so its `util` is the exact share of the run with a request in flight.

use crate::sim::{ReqIdx, Simulator};
use crate::vocab::Op;

/// Requests accounted and not yet ended, and since when one has been.
#[derive(Clone, Copy, Debug, Default)]
pub struct IoAccounting {
    in_flight: u32,
    busy_since: u64,
}

impl Simulator {
    /// `blk_account_io_start`: the request exists (its tag is taken); `rq->start_time_ns` is now.
    pub(crate) fn blk_account_io_start(&mut self, req: ReqIdx) {
        self.reqs.get_mut(req).t_alloc = self.now;
        let a = &mut self.acct;
        if a.in_flight == 0 {
            a.busy_since = self.now;
        }
        a.in_flight += 1;
    }

    /// `blk_account_io_done`: the request ends (`__blk_mq_end_request`). While a trace is
    /// replayed, a data request's issue-to-complete (`block_rq_issue` to here) is kept too, to
    /// set beside the trace's own (`tools/replay_check.rs`).
    pub(crate) fn blk_account_io_done(&mut self, req: ReqIdx) {
        let r = self.reqs.get(req);
        if !self.iologs.is_empty() && r.op != Op::Flush {
            self.stats.d2c.record(self.now.saturating_sub(r.t_dispatch));
        }
        let ns = self.now.saturating_sub(r.t_alloc);
        match r.op {
            Op::Read => self.stats.ticks_ns[0] += ns,
            Op::Write => self.stats.ticks_ns[1] += ns,
            Op::Discard | Op::Flush => {}
        }
        self.stats.in_queue_ns += ns;
        self.blk_account_io_gone();
    }

    /// The request leaves the count without ending: merged into another
    /// (`blk_account_io_merge_request`), which keeps the older start time (`attempt_merge`).
    pub(crate) fn blk_account_io_merged(&mut self, gone: ReqIdx, into: ReqIdx) {
        let t = self.reqs.get(gone).t_alloc;
        let r = self.reqs.get_mut(into);
        r.t_alloc = r.t_alloc.min(t);
        self.blk_account_io_gone();
    }

    fn blk_account_io_gone(&mut self) {
        let a = &mut self.acct;
        a.in_flight = a.in_flight.saturating_sub(1);
        if a.in_flight == 0 {
            self.stats.io_ticks_ns += self.now - a.busy_since;
        }
    }

    /// `io_ticks` so far: the closed busy periods and the one open now.
    pub(crate) fn io_ticks_ns_now(&self) -> u64 {
        let open = match self.acct.in_flight {
            0 => 0,
            _ => self.now - self.acct.busy_since,
        };
        self.stats.io_ticks_ns + open
    }
}
