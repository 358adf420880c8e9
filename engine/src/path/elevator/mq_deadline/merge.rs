//! mq-deadline's merges (block/mq-deadline.c, Linux 6.1): a bio into a waiting request of its
//! priority (`dd_bio_merge` -> `elv_merge`: the priority's sort list, `dd_request_merge`), a
//! request's move after a front merge (`dd_request_merged`), and two waiting requests folded
//! into one (`dd_merged_requests`).

use super::{dir_of, list_of, node_of, prio_of, Deadline, Node};
use crate::path::elevator::{try_merge, Bio, Merge};
use crate::sim::request::Slab;
use crate::sim::ReqIdx;

impl Deadline {
    /// `dd_bio_merge` -> `elv_merge`: a request ending where the bio starts (back), else with
    /// `front_merges` one starting where it ends (front). Only a request of the bio's own
    /// priority may take it (`blk_rq_merge_ok`: `rq->ioprio != bio_prio(bio)`), so the search
    /// is in the sort list of its priority (`dd_request_merge` looks in `per_prio->sort_list`).
    pub fn bio_merge(&self, bio: &Bio, reqs: &Slab, max: u64) -> Option<(ReqIdx, Merge)> {
        let prio = prio_of(bio.ioprio.class);
        let dir = dir_of(bio.op);
        let sort = &self.per_prio[prio].sort[dir];
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
            .set(found.is_none().then_some((prio * 2 + dir, bio.offset, at)));
        found
    }

    /// `dd_request_merged`: after a front merge the request's sector changed; it moves in the
    /// sort list (`elv_rb_del` + `deadline_add_rq_rb`: past the requests of its new start).
    pub fn merged(&mut self, req: ReqIdx, kind: Merge, old_offset: u64, reqs: &Slab) {
        if kind != Merge::Front || !self.is_waiting(req) {
            return;
        }
        self.looked_up.set(None);
        let l = list_of(reqs.get(req));
        let sort = &mut self.per_prio[l / 2].sort[l % 2];
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
        let l = list_of(r);
        let sort = &self.per_prio[l / 2].sort[l % 2];
        let i = sort.find(0, r.offset, req);
        match kind {
            Merge::Back => sort.req(i + 1),
            Merge::Front => i.checked_sub(1).and_then(|i| sort.req(i)),
        }
    }

    /// `dd_merged_requests`: `gone` was folded into `into`. If `gone` expires first, `into`
    /// takes its deadline and its place in the FIFO (`list_move` next to it); then `gone`
    /// leaves both lists, and is freed (`dd_finish_request` counts it completed). (The kernel
    /// keeps the request in front on the device, which after a front merge is `gone` here:
    /// either way the one left holds the earlier place.)
    pub fn requests_merged(&mut self, into: ReqIdx, gone: ReqIdx, reqs: &Slab) {
        if !self.is_waiting(gone) {
            self.finish(gone);
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
        self.finish(gone);
    }
}
