//! mq-deadline's sort list (`per_prio->sort_list[dir]`, block/mq-deadline.c, Linux 6.1): the
//! kernel's rb-tree of requests by start sector (`deadline_add_rq_rb` -> `elv_rb_add`,
//! `deadline_del_rq_rb` -> `elv_rb_del`, `deadline_latter_request`), here a sorted `Vec`.

use crate::sim::ReqIdx;

/// Lists up to this long are searched and shifted by a walk from the end, longer ones by a
/// binary search and a block move: on the few requests a scheduler mostly holds, a walk is a
/// handful of instructions where a search and a call to `memmove` are dozens.
const SHORT: usize = 16;

/// Requests sorted by start (bytes), as the rb-tree keeps them; equal starts in the order they
/// were added (`elv_rb_add` puts an equal key to the right).
#[derive(Debug, Default)]
pub(super) struct Sorted(pub(super) Vec<(u64, ReqIdx)>);

impl Sorted {
    /// The place of the first request starting at or after `at`.
    #[inline]
    pub(super) fn lower(&self, at: u64) -> usize {
        let v = &self.0;
        if v.len() <= SHORT {
            let mut i = v.len();
            while i > 0 && v[i - 1].0 >= at {
                i -= 1;
            }
            return i;
        }
        v.partition_point(|&(s, _)| s < at)
    }

    /// Adds `req`, starting at `at`, past the requests starting at or before it; `from` is
    /// [`lower`](Self::lower) of `at` if known (a long list is not searched again).
    #[inline]
    pub(super) fn add(&mut self, at: u64, req: ReqIdx, from: Option<usize>) {
        let v = &mut self.0;
        let n = v.len();
        if n < SHORT {
            // Insertion by a walk from the end: most requests go near it.
            v.push((at, req));
            let s = v.as_mut_slice();
            let mut i = n;
            while i > 0 && s[i - 1].0 > at {
                s[i] = s[i - 1];
                i -= 1;
            }
            s[i] = (at, req);
            return;
        }
        let mut i = from.unwrap_or_else(|| self.lower(at));
        let v = &mut self.0;
        while i < v.len() && v[i].0 == at {
            i += 1;
        }
        v.insert(i, (at, req));
    }

    /// The place of `req` (starting at `at`), looking first at `hint`.
    #[inline]
    pub(super) fn find(&self, hint: usize, at: u64, req: ReqIdx) -> usize {
        if self.0.get(hint).is_some_and(|&(_, r)| r == req) {
            return hint;
        }
        let mut i = self.lower(at);
        while self.0[i].1 != req {
            i += 1;
        }
        i
    }

    /// Removes place `i`.
    #[inline]
    pub(super) fn remove_at(&mut self, i: usize) {
        let v = &mut self.0;
        if v.len() <= SHORT {
            // The entries after `i` one place back, through a register (a plain copy loop
            // would become a call to `memmove`).
            let Some(mut carry) = v.pop() else {
                return;
            };
            for e in v[i..].iter_mut().rev() {
                carry = std::mem::replace(e, carry);
            }
        } else {
            v.remove(i);
        }
    }

    /// The request at place `i`, if any.
    #[inline]
    pub(super) fn req(&self, i: usize) -> Option<ReqIdx> {
        self.0.get(i).map(|&(_, r)| r)
    }
}
