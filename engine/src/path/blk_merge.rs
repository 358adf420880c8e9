//! Merging bios into waiting requests (block/blk-merge.c, blk-mq.c `blk_mq_attempt_bio_merge`,
//! Linux 6.1): before a bio takes a tag it may join the last request of its submitter's plug
//! (`blk_attempt_plug_merge`), else a request waiting in the scheduler or the software queue
//! (`blk_mq_sched_bio_merge`); `queue/nomerges` 1 keeps only the one-hit cache
//! (`q->last_merge`), 2 turns merging off. After a merge into the scheduler's request, the
//! request may absorb its neighbour on the device (`attempt_back_merge`,
//! `attempt_front_merge`: a request merge).
//!
//! A merged bio never becomes a request: its request grows, and the bio is remembered with the
//! request ([`MergeGroup`]) so that its submitter sees it complete when the request does. Both
//! kinds of merge count in the disk statistics (`merges` in /proc/diskstats, fio's `merge=`).
//!
//! Simplifications: a bio that was split (larger than `max_req_bytes`) does not merge; discards
//! do not merge (mmc's `max_discard_segments` is 1).

use super::blk_mq::Plug;
use super::elevator::{try_merge, Bio, Merge};
use crate::sim::{ReqIdx, Simulator};
use crate::vocab::{Cause, Op, Stage};

/// A bio that joined a request: what its submitter is told when the request completes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MergedBio {
    pub job: u32,
    pub io: u64,
    pub t_issue: u64,
    pub op: Op,
    pub offset: u64,
    pub len: u64,
}

impl MergedBio {
    /// The bio of request `r` at `offset`, `len` (its own part, if it had merged others).
    fn of(r: &crate::sim::request::Request, offset: u64, len: u64) -> MergedBio {
        MergedBio {
            job: r.job,
            io: r.io,
            t_issue: r.t_issue,
            op: r.op,
            offset,
            len,
        }
    }
}

/// The bios a request carries beyond its own, and its own part.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MergeGroup {
    pub own_offset: u64,
    pub own_len: u64,
    pub bios: Vec<MergedBio>,
}

impl Simulator {
    /// `blk_mq_attempt_bio_merge` for the fresh, single-bio request `req`: true when its bio
    /// joined a waiting request (and `req` is gone).
    pub(crate) fn blk_mq_attempt_bio_merge(&mut self, req: ReqIdx) -> bool {
        let r = self.reqs.get(req);
        let (job, plug) = (r.job, r.plug);
        // The fitted dispatch of the 2020 and 2022 presets lets a bio join only its own
        // submitter's waiting requests (Linux: any request of the CPU's software queue). Its
        // measured figures are those of 20 psync jobs on one partition that did not merge
        // (sequential 4 KiB writes within 4 % of random ones), where the model's jobs, in
        // lockstep on 8 CPUs, would join each other's; one job's own queue (libaio iodepth 32)
        // merges as the kernel's does.
        let own = (!self.cfg.kernel_dispatch()).then_some(job);
        if own.is_some() && plug == Plug::None && !self.jobs[job as usize].others_in_flight() {
            // Nothing of its own waits (a psync job): the walk would find nothing.
            return false;
        }
        if self.blk.nomerges >= 2 || !r.op.has_data() || r.fua || self.no_merge(r) {
            return false;
        }
        let bio = Bio {
            op: r.op,
            offset: r.offset,
            len: r.len,
            cpu: r.cpu,
            job: own,
            ioprio: r.ioprio,
        };
        let max = self.platform.host.max_req_bytes.max(512);
        let plugged = (plug != Plug::None)
            .then(|| self.blk.plug_last(job))
            .flatten()
            .and_then(|t| try_merge(self.reqs.get(t), &bio, max).map(|m| (t, m)));
        let (target, kind, from_plug) = match plugged {
            Some((t, m)) => (t, m, true),
            None => {
                let found = if self.blk.nomerges == 1 {
                    self.blk
                        .last_merge
                        .filter(|&t| own.is_none_or(|j| self.reqs.get(t).job == j))
                        .and_then(|t| try_merge(self.reqs.get(t), &bio, max).map(|m| (t, m)))
                } else {
                    self.blk.elv.bio_merge(&bio, &self.reqs, max)
                };
                let Some((t, m)) = found else {
                    return false;
                };
                (t, m, false)
            }
        };
        self.blk_merge_into(target, kind, req);
        if !from_plug {
            self.blk.last_merge = Some(target);
            if self.blk.nomerges == 0 {
                self.blk_attempt_request_merge(target, kind);
            }
        }
        match plug {
            Plug::Last => self.blk_mq_flush_plug(job),
            Plug::Sleeps => self.blk_mq_flush_plug_from(job, true),
            Plug::None | Plug::Open => {}
        }
        true
    }

    /// A request whose bio may not join another: a part of a split I/O, or (`fs=f2fs`) a
    /// write of a job that syncs through `f2fs_do_sync_file`, which the model follows per
    /// request (Linux merges those bios too, and completes each to its own fsync).
    fn no_merge(&self, r: &crate::sim::request::Request) -> bool {
        self.split.contains_key(&r.io) || self.jobs.get(r.job as usize).is_some_and(|j| j.f2fs())
    }

    /// `bio_attempt_back_merge` / `bio_attempt_front_merge`: the bio of `bio_req` joins
    /// `target`, and `bio_req` leaves.
    fn blk_merge_into(&mut self, target: ReqIdx, kind: Merge, bio_req: ReqIdx) {
        let into = self.reqs.get(target).id;
        self.stage_cause(bio_req, Stage::Done, self.now, Cause::MergedInto { into });
        let b = self.reqs.remove(bio_req);
        self.grow(target, kind, MergedBio::of(&b, b.offset, b.len), Vec::new());
    }

    /// `target` takes `bio` (and `more`, the bios of a request folded into it).
    fn grow(&mut self, target: ReqIdx, kind: Merge, bio: MergedBio, more: Vec<MergedBio>) {
        let t = self.reqs.get_mut(target);
        let old_offset = t.offset;
        let (own_offset, own_len) = (t.offset, t.len);
        let grown = bio.len + more.iter().map(|m| m.len).sum::<u64>();
        t.len += grown;
        if kind == Merge::Front {
            t.offset -= grown;
        }
        let dir = usize::from(t.op == Op::Write);
        self.stats.merges[dir] += 1;
        let g = self.merged.entry(target).or_insert_with(|| MergeGroup {
            own_offset,
            own_len,
            bios: Vec::new(),
        });
        g.bios.push(bio);
        g.bios.extend(more);
        self.blk.elv.merged(target, kind, old_offset, &self.reqs);
    }

    /// `attempt_back_merge` / `attempt_front_merge`: after `target` grew, its neighbour on the
    /// device in the scheduler may fold into it (a request merge: `block_rq_merge`).
    fn blk_attempt_request_merge(&mut self, target: ReqIdx, kind: Merge) {
        let Some(n) = self.blk.elv.neighbour(target, kind, &self.reqs) else {
            return;
        };
        let (t, nr) = (self.reqs.get(target), self.reqs.get(n));
        let max = self.platform.host.max_req_bytes.max(512);
        // `attempt_merge`: same operation and priority (`req->ioprio != next->ioprio`).
        let fits =
            t.op == nr.op && t.ioprio == nr.ioprio && !nr.fua && !t.fua && t.len + nr.len <= max;
        let adjacent = match kind {
            Merge::Back => t.offset + t.len == nr.offset,
            Merge::Front => nr.offset + nr.len == t.offset,
        };
        if !fits || !adjacent || self.no_merge(nr) {
            return;
        }
        self.blk.elv.requests_merged(target, n, &self.reqs);
        if self.blk.last_merge == Some(n) {
            self.blk.last_merge = None;
        }
        let into = self.reqs.get(target).id;
        self.blk_account_io_merged(n, target);
        self.stage_cause(n, Stage::Done, self.now, Cause::MergedInto { into });
        let g = self.merged.remove(&n);
        let nr = self.reqs.remove(n);
        let (offset, len) = g
            .as_ref()
            .map_or((nr.offset, nr.len), |g| (g.own_offset, g.own_len));
        let own = MergedBio::of(&nr, offset, len);
        let more = g.map(|g| g.bios).unwrap_or_default();
        // The whole of `n` joins: its own part and every bio it had.
        let before = self.reqs.get(target).len;
        self.grow(target, kind, own, more);
        debug_assert_eq!(self.reqs.get(target).len, before + nr.len);
        // The folded request's tags go back (`blk_mq_free_request` of the merged one).
        if let Some((w, tag)) = self.blk.put_tags(nr.tag, nr.sched_tag, nr.cpu) {
            self.blk_mq_got_tag(w, tag);
        }
    }
}
