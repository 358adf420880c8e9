//! blk-mq with one hardware queue (block/blk-mq.c), as the mmc driver sets it up: 64 tags
//! (`MMC_QUEUE_DEPTH`), no I/O scheduler merging, `hctx->dispatch` for requests the driver
//! refused with BLK_STS_RESOURCE, and re-runs of the queue when a request completes.
//!
//! A dispatch "context" is one run of `blk_mq_run_hw_queue` -> `blk_mq_dispatch_rq_list` on some
//! CPU (the submitting fio thread, or kblockd for re-runs). It calls `->queue_rq(bd)` for one
//! request at a time; `queue_rq` runs synchronously (its cost is the mmc issue path), then the
//! context takes the next request, until the queue is empty or the driver says RESOURCE.

use std::collections::VecDeque;

use crate::sim::{Event, ReqIdx, Simulator};
use crate::vocab::{Stage, MMC_QUEUE_DEPTH};

/// `BLK_MQ_RESOURCE_DELAY`: re-run delay when the driver refused with nothing in flight (3 ms).
pub const BLK_MQ_RESOURCE_DELAY_NS: u64 = 3_000_000;

/// CPUs the jobs' threads run on (the phone SoCs have 8; fio's threads spread over them).
pub const NR_CPUS: u16 = 8;

/// The CPU job clone `job` runs on: the scheduler spreads fio's threads, one per CPU.
pub fn job_cpu(job: u32) -> u16 {
    (job % NR_CPUS as u32) as u16
}

/// `struct sbitmap_queue` as blk-mq's tag allocator uses it (lib/sbitmap.c): the tags in
/// words of 16 bits (`sbitmap_calculate_shift` for a depth of 64), and a per-CPU allocation
/// hint. A CPU allocates from its hint onwards (wrapping within the word, then the next
/// words); a freed tag becomes the hint of the CPU its request was allocated on
/// (`sbitmap_queue_clear` -> `sbitmap_update_cpu_hint`). So each job thread tends to get
/// the same tag back, and which hsq slots fill depends on which CPUs submit.
#[derive(Clone, Debug)]
pub struct Sbitmap {
    /// Bit i set = tag i in use.
    map: u64,
    depth: u16,
    hint: [u16; NR_CPUS as usize],
}

/// Bits per sbitmap word for a depth of 64 (`sbitmap_calculate_shift`: 4 << shift <= depth).
const SB_WORD_BITS: u16 = 16;

impl Sbitmap {
    /// `sbitmap_init_node`: each CPU's hint starts at a random tag (`get_random_u32_below`),
    /// drawn here from the run's seed.
    pub fn new(depth: u16, rng: &mut crate::rng::Rng) -> Sbitmap {
        use rand::RngExt;
        let mut hint = [0; NR_CPUS as usize];
        for h in &mut hint {
            *h = rng.random_range(0..depth);
        }
        Sbitmap {
            map: 0,
            depth,
            hint,
        }
    }

    pub fn in_use(&self) -> u16 {
        self.map.count_ones() as u16
    }

    /// `__sbitmap_get_word` from `hint` in one word, wrapping to its start.
    /// The first free bit at or after `hint`, else the first free bit of the word: found with a
    /// mask and `trailing_zeros` rather than bit by bit.
    #[inline]
    fn get_word(&mut self, word: u16, hint: u16) -> Option<u16> {
        let base = word * SB_WORD_BITS;
        let bits = SB_WORD_BITS.min(self.depth.saturating_sub(base));
        let mask = (1u32 << bits) - 1;
        let free = !((self.map >> base) as u32) & mask;
        let after = free & (u32::MAX << hint);
        let pick = if after != 0 { after } else { free };
        if pick == 0 {
            return None;
        }
        let nr = base + pick.trailing_zeros() as u16;
        self.map |= 1 << nr;
        Some(nr)
    }

    /// `sbitmap_queue_get` on `cpu`: a free tag, or None when all are in use.
    pub fn get(&mut self, cpu: u16) -> Option<u16> {
        let hint = self.hint[cpu as usize];
        let words = self.depth.div_ceil(SB_WORD_BITS);
        let mut index = hint / SB_WORD_BITS;
        let mut bit = hint % SB_WORD_BITS;
        let mut got = None;
        for _ in 0..words {
            got = self.get_word(index, bit);
            if got.is_some() {
                break;
            }
            bit = 0;
            index = (index + 1) % words;
        }
        // `update_alloc_hint_after_get`: only a used hint moves on.
        match got {
            None => self.hint[cpu as usize] = 0,
            Some(nr) if nr == hint => {
                let next = nr + 1;
                self.hint[cpu as usize] = if next >= self.depth - 1 { 0 } else { next };
            }
            Some(_) => {}
        }
        got
    }

    /// `sbitmap_queue_clear(tag, cpu)`.
    pub fn clear(&mut self, tag: u16, cpu: u16) {
        self.map &= !(1 << tag);
        self.hint[cpu as usize] = tag;
    }
}

/// One hardware context (`struct blk_mq_hw_ctx`) with its tag set and software queue.
#[derive(Debug)]
pub struct BlkMq {
    tags: Sbitmap,
    /// Requests sleeping in `blk_mq_get_tag` for a free tag, with their CPU.
    tag_waiters: VecDeque<(ReqIdx, u16)>,
    /// Inserted requests not yet dispatched (the software queue).
    sw_queue: VecDeque<ReqIdx>,
    /// `hctx->dispatch`: requests the driver refused, dispatched first on the next run.
    dispatch: VecDeque<ReqIdx>,
    /// A re-run is scheduled (avoid stacking kblockd work).
    rerun_pending: bool,
    /// Ming Lei's change for packed requests: bd.last is always false and `commit_rqs` is
    /// called at the end of every dispatch round.
    force_commit: bool,
}

impl BlkMq {
    pub fn new(force_commit: bool, rng: &mut crate::rng::Rng) -> BlkMq {
        BlkMq {
            tags: Sbitmap::new(MMC_QUEUE_DEPTH, rng),
            tag_waiters: VecDeque::new(),
            sw_queue: VecDeque::new(),
            dispatch: VecDeque::new(),
            rerun_pending: false,
            force_commit,
        }
    }

    pub fn tags_in_use(&self) -> u16 {
        self.tags.in_use()
    }

    /// Requests wait in `hctx->dispatch` or the software queue.
    pub fn has_work(&self) -> bool {
        !self.dispatch.is_empty() || !self.sw_queue.is_empty()
    }

    /// `commit_rqs` ends every dispatch round (packed requests).
    pub fn force_commit(&self) -> bool {
        self.force_commit
    }

    /// `blk_mq_get_tag` + insert: Some(tag) when a tag was free (the request joins the software
    /// queue), None when the request sleeps for one.
    pub fn submit(&mut self, req: ReqIdx, cpu: u16) -> Option<u16> {
        match self.tags.get(cpu) {
            Some(tag) => {
                self.sw_queue.push_back(req);
                Some(tag)
            }
            None => {
                self.tag_waiters.push_back((req, cpu));
                None
            }
        }
    }

    /// The next request a dispatch run hands to `queue_rq`: `hctx->dispatch` first.
    pub fn next_to_dispatch(&mut self) -> Option<ReqIdx> {
        self.dispatch
            .pop_front()
            .or_else(|| self.sw_queue.pop_front())
    }

    /// The driver said BLK_STS_RESOURCE: back to the head of `hctx->dispatch`.
    pub fn requeue(&mut self, req: ReqIdx) {
        self.dispatch.push_front(req);
    }

    /// `blk_mq_put_tag`: frees `tag` (if the request had one) and wakes the first tag waiter,
    /// which takes a tag and joins the software queue. Returns the woken request and its tag.
    pub fn put_tag(&mut self, tag: Option<u16>, cpu: u16) -> Option<(ReqIdx, u16)> {
        if let Some(tag) = tag {
            self.tags.clear(tag, cpu);
        }
        let &(w, wcpu) = self.tag_waiters.front()?;
        let tag = self.tags.get(wcpu)?;
        self.tag_waiters.pop_front();
        self.sw_queue.push_back(w);
        Some((w, tag))
    }

    /// Whether a kblockd re-run must be scheduled (none is pending yet); marks one pending.
    pub fn want_rerun(&mut self) -> bool {
        !std::mem::replace(&mut self.rerun_pending, true)
    }

    /// The scheduled re-run starts.
    pub fn rerun_started(&mut self) {
        self.rerun_pending = false;
    }

    /// `hctx->dispatch`, in order.
    pub fn dispatch_list(&self) -> impl Iterator<Item = &ReqIdx> {
        self.dispatch.iter()
    }

    /// The software queue, then the requests sleeping for a tag.
    pub fn waiting(&self) -> impl Iterator<Item = &ReqIdx> {
        self.sw_queue
            .iter()
            .chain(self.tag_waiters.iter().map(|(r, _)| r))
    }
}

impl Simulator {
    /// `Event::BlkMqInsert` (`blk_mq_submit_bio`): get a tag (or sleep for one), insert, and run
    /// the hardware queue from the submitting context.
    pub(crate) fn blk_mq_submit(&mut self, req: ReqIdx) {
        self.set_stage(req, Stage::BlkMq);
        let cpu = self.reqs.get(req).cpu;
        if let Some(tag) = self.blk.submit(req, cpu) {
            self.reqs.get_mut(req).tag = Some(tag);
            // blk_mq_run_hw_queue from the submitting context, synchronously.
            self.blk_mq_dispatch(None);
        }
    }

    /// `Event::Dispatch`: one step of a dispatch context. `issued` finished its `queue_rq`.
    pub(crate) fn blk_mq_dispatch(&mut self, issued: Option<ReqIdx>) {
        let force_commit = self.blk.force_commit();
        if let Some(req) = issued {
            let last = !force_commit && !self.blk.has_work();
            self.mq.issue_done();
            self.mmc_issue_done(req, last);
        } else if self.mq.busy() {
            // Another context is inside queue_rq (mq->busy): it will take this request when it
            // loops, as `blk_mq_dispatch_rq_list` does after a BLK_STS_RESOURCE for busy.
            return;
        }
        let Some(req) = self.blk.next_to_dispatch() else {
            // Dispatch round over.
            if force_commit && issued.is_some() {
                self.mmc_commit_rqs();
            }
            return;
        };
        match self.mmc_queue_rq(req) {
            Ok(cost) => {
                self.set_stage(req, Stage::Issue);
                self.q
                    .push(self.now + cost, Event::Dispatch { issued: Some(req) });
            }
            Err(()) => {
                // BLK_STS_RESOURCE: back to the head of hctx->dispatch; SCHED_RESTART re-runs
                // the queue when something completes (or after 3 ms if nothing is in flight).
                self.blk.requeue(req);
                self.stats.requeues += 1;
                self.trace_stage(req, Stage::BlkMq, self.now);
                if force_commit && issued.is_some() {
                    self.mmc_commit_rqs();
                }
                if self.mq.total_in_flight() == 0 {
                    self.blk_mq_run_hw_queue_async(BLK_MQ_RESOURCE_DELAY_NS);
                }
            }
        }
    }

    /// A request finished (`blk_mq_end_request`): free its tag, wake a tag waiter, and re-run
    /// the queue if requests wait (`blk_mq_run_hw_queues(q, true)` from
    /// `mmc_blk_mq_dec_in_flight`).
    pub(crate) fn blk_mq_end_request(&mut self, req: ReqIdx) {
        let cpu = self.reqs.get(req).cpu;
        let tag = self.reqs.get_mut(req).tag.take();
        if let Some((w, tag)) = self.blk.put_tag(tag, cpu) {
            self.reqs.get_mut(w).tag = Some(tag);
        }
        if self.blk.has_work() {
            self.blk_mq_run_hw_queue_async(self.platform.host.rerun_ns);
        }
    }

    /// Schedules a queue run from kblockd after `delay`.
    pub(crate) fn blk_mq_run_hw_queue_async(&mut self, delay: u64) {
        if self.blk.want_rerun() {
            self.q.push(self.now + delay, Event::Rerun);
        }
    }

    /// `Event::Rerun`: kblockd runs the hardware queue.
    pub(crate) fn blk_mq_rerun(&mut self) {
        self.blk.rerun_started();
        self.blk_mq_dispatch(None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_run_out_then_waiters_get_the_freed_tag_in_order() {
        let mut b = BlkMq::new(false, &mut crate::rng::stream(1, 1));
        let mut tags: Vec<u16> = (0..MMC_QUEUE_DEPTH as ReqIdx)
            .map(|r| b.submit(r, 0).expect("a free tag"))
            .collect();
        tags.sort_unstable();
        assert_eq!(
            tags,
            (0..MMC_QUEUE_DEPTH).collect::<Vec<_>>(),
            "every tag once"
        );
        assert_eq!(b.tags_in_use(), MMC_QUEUE_DEPTH);
        assert_eq!(b.submit(100, 1), None);
        assert_eq!(b.submit(101, 2), None);
        assert_eq!(b.put_tag(Some(17), 3), Some((100, 17)));
        assert_eq!(b.tags_in_use(), MMC_QUEUE_DEPTH);
        assert_eq!(b.waiting().last(), Some(&101));
    }

    #[test]
    fn refused_requests_are_dispatched_first() {
        let mut b = BlkMq::new(false, &mut crate::rng::stream(1, 1));
        b.submit(1, 0);
        b.submit(2, 0);
        let first = b.next_to_dispatch().expect("queued");
        assert_eq!(first, 1);
        b.requeue(first);
        assert_eq!(b.dispatch_list().copied().collect::<Vec<_>>(), vec![1]);
        assert_eq!(b.next_to_dispatch(), Some(1));
        assert_eq!(b.next_to_dispatch(), Some(2));
        assert!(!b.has_work());
    }

    /// `__sbitmap_get_word` bit by bit, as lib/sbitmap.c walks it: the reference for the mask.
    fn get_word_bit_by_bit(sb: &Sbitmap, word: u16, hint: u16) -> Option<u16> {
        let base = word * SB_WORD_BITS;
        let bits = SB_WORD_BITS.min(sb.depth.saturating_sub(base));
        (hint..bits)
            .chain(0..bits)
            .find(|&b| sb.map & (1 << (base + b)) == 0)
            .map(|b| base + b)
    }

    #[test]
    fn sbitmap_word_search_agrees_with_the_bit_walk() {
        use rand::RngExt as _;
        let mut rng = crate::rng::stream(2, 2);
        for depth in [4u16, 20, 64] {
            let mut sb = Sbitmap::new(depth, &mut rng);
            for _ in 0..20_000 {
                sb.map = rng.random::<u64>() & (u64::MAX >> (64 - depth));
                let word = rng.random_range(0..depth.div_ceil(SB_WORD_BITS));
                let hint = rng.random_range(0..SB_WORD_BITS);
                let want = get_word_bit_by_bit(&sb, word, hint);
                let before = sb.map;
                assert_eq!(
                    sb.get_word(word, hint),
                    want,
                    "map {before:#x} word {word} hint {hint}"
                );
                assert_eq!(sb.map, want.map_or(before, |nr| before | 1 << nr));
            }
        }
    }

    #[test]
    fn sbitmap_hands_a_cpu_its_freed_tag_back() {
        let mut sb = Sbitmap::new(MMC_QUEUE_DEPTH, &mut crate::rng::stream(1, 1));
        sb.hint = [0; NR_CPUS as usize];
        // CPU 0 walks on from its hint; CPU 1 starts at its own hint (0) and finds 2.
        assert_eq!(sb.get(0), Some(0));
        assert_eq!(sb.get(0), Some(1));
        assert_eq!(sb.get(1), Some(2));
        // A freed tag becomes the hint of the CPU its request came from.
        sb.clear(1, 1);
        assert_eq!(sb.get(1), Some(1));
        assert_eq!(
            sb.get(0),
            Some(3),
            "CPU 0's hint moved on to 2, taken: next free"
        );
        // Full: no tag.
        let mut full = Sbitmap::new(4, &mut crate::rng::stream(1, 1));
        assert_eq!((0..4).filter_map(|_| full.get(0)).count(), 4);
        assert_eq!(full.get(0), None);
        assert_eq!(full.in_use(), 4);
    }

    #[test]
    fn one_rerun_at_a_time() {
        let mut b = BlkMq::new(true, &mut crate::rng::stream(1, 1));
        assert!(b.want_rerun());
        assert!(!b.want_rerun());
        b.rerun_started();
        assert!(b.want_rerun());
        assert!(b.force_commit());
    }
}
