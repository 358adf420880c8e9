//! mq-deadline's sort list (`per_prio->sort_list[dir]`, block/mq-deadline.c, Linux 6.1): the
//! kernel's rb-tree of requests by start sector (`deadline_add_rq_rb` -> `elv_rb_add`,
//! `deadline_del_rq_rb` -> `elv_rb_del`, `deadline_latter_request`), here a sorted `Vec`.

use crate::sim::ReqIdx;

/// Requests sorted by key, (start in bytes, insertion number), as the rb-tree keeps them: a
/// sorted `Vec`, which for the few dozen requests a scheduler holds is cheaper to search,
/// insert into and remove from than a tree. Keys are unique, and kept as one 128-bit number
/// (start in the high half): a comparison is one compare, with no branch between the halves.
#[derive(Debug, Default)]
pub(super) struct Sorted(pub(super) Vec<(u128, ReqIdx)>);

/// `key` as the 128-bit number the list keeps.
#[inline]
pub(super) fn wide((start, seq): (u64, u64)) -> u128 {
    (u128::from(start) << 64) | u128::from(seq)
}

/// The start (bytes) of a kept key.
#[inline]
pub(super) fn start(key: u128) -> u64 {
    (key >> 64) as u64
}

impl Sorted {
    /// The index of the first entry not below `key` (a binary search written out, so that it
    /// inlines).
    #[inline]
    pub(super) fn lower(&self, key: (u64, u64)) -> usize {
        let key = wide(key);
        let v = &self.0;
        let (mut lo, mut len) = (0, v.len());
        while len > 0 {
            let half = len / 2;
            if v[lo + half].0 < key {
                lo += half + 1;
                len -= half + 1;
            } else {
                len = half;
            }
        }
        lo
    }
    /// Where `key` is (`Ok`), or would go (`Err`).
    #[inline]
    pub(super) fn find(&self, key: (u64, u64)) -> Result<usize, usize> {
        let i = self.lower(key);
        match self.0.get(i) {
            Some(&(k, _)) if k == wide(key) => Ok(i),
            _ => Err(i),
        }
    }
    #[inline]
    pub(super) fn insert(&mut self, key: (u64, u64), req: ReqIdx) {
        // A request past every other (a sequential stream) goes at the end: look there first.
        let i = match self.0.last() {
            Some(&(k, _)) if k >= wide(key) => self.lower(key),
            _ => self.0.len(),
        };
        self.0.insert(i, (wide(key), req));
    }
    /// [`insert`](Self::insert) of a key whose start is known to sit at `at` (the first entry
    /// not below (start, 0)): past the entries of the same start, which are older.
    #[inline]
    pub(super) fn insert_from(&mut self, at: usize, key: (u64, u64), req: ReqIdx) {
        let mut i = at.min(self.0.len());
        while self.0.get(i).is_some_and(|&(k, _)| k < wide(key)) {
            i += 1;
        }
        debug_assert_eq!(i, self.lower(key), "the looked-up place is the key's");
        self.0.insert(i, (wide(key), req));
    }
    #[inline]
    pub(super) fn remove(&mut self, key: (u64, u64)) {
        if let Ok(i) = self.find(key) {
            self.0.remove(i);
        }
    }
    /// [`find`](Self::find), looking first at `hint` (where `key` stood when last seen).
    #[inline]
    pub(super) fn find_near(&self, hint: usize, key: (u64, u64)) -> Result<usize, usize> {
        match self.0.get(hint) {
            Some(&(k, _)) if k == wide(key) => Ok(hint),
            _ => self.find(key),
        }
    }
    /// The first request with a key above `key`.
    #[inline]
    pub(super) fn after(&self, key: (u64, u64)) -> Option<ReqIdx> {
        let i = self.find(key).map_or_else(|i| i, |i| i + 1);
        self.0.get(i).map(|&(_, r)| r)
    }
    /// The last request with a key below `key`.
    pub(super) fn before(&self, key: (u64, u64)) -> Option<ReqIdx> {
        let i = self.lower(key);
        i.checked_sub(1).map(|i| self.0[i].1)
    }
}
