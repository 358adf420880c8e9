//! No elevator (`none`): blk-mq's software queues (`ctx->rq_lists`, block/blk-mq.c, Linux 6.1).
//! Requests wait here only when they could not be issued directly: the hardware context was
//! busy (`hctx->dispatch_busy`) or a plug's direct issue was refused part way; a dispatch run
//! takes them in order (`blk_mq_flush_busy_ctxs`, or one at a time by
//! `blk_mq_do_dispatch_ctx` while the context is busy). A bio merges into the last eight
//! requests of its own CPU's queue (`blk_bio_list_merge`).
//!
//! Simplification: one list for all CPUs in insertion order (the kernel keeps one per CPU and
//! walks them in CPU order); the merge lookup keeps to the bio's CPU as the kernel does.

use std::collections::VecDeque;

use super::{try_merge, Bio, Merge};
use crate::sim::request::Slab;
use crate::sim::ReqIdx;

/// `blk_bio_list_merge` looks at most this many requests back.
const LIST_MERGE_DEPTH: usize = 8;

#[derive(Debug, Default)]
pub struct SwQueues {
    list: VecDeque<ReqIdx>,
}

impl SwQueues {
    pub fn insert(&mut self, req: ReqIdx) {
        self.list.push_back(req);
    }

    pub fn has_work(&self) -> bool {
        !self.list.is_empty()
    }

    pub fn dispatch(&mut self) -> Option<ReqIdx> {
        self.list.pop_front()
    }

    pub fn bio_merge(&self, bio: &Bio, reqs: &Slab, max: u64) -> Option<(ReqIdx, Merge)> {
        self.list
            .iter()
            .rev()
            .filter(|&&r| reqs.get(r).cpu == bio.cpu)
            .take(LIST_MERGE_DEPTH)
            .filter(|&&r| bio.job.is_none_or(|j| reqs.get(r).job == j))
            .find_map(|&r| try_merge(reqs.get(r), bio, max).map(|m| (r, m)))
    }

    pub fn remove(&mut self, req: ReqIdx) {
        self.list.retain(|&r| r != req);
    }

    pub fn waiting(&self) -> Vec<ReqIdx> {
        self.list.iter().copied().collect()
    }
}
