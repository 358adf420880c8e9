//! An SD card in command-queueing mode posts its writes (SD Physical Layer 6.0: command
//! queueing needs the cache function on; the Raspberry Pi kernel's `mmc_sd_cmdq_enable`, 6.6,
//! PR #6046): a write task is done once its data is in the card's cache, and the card commits
//! each random write afterwards, one after another, while it takes the next tasks; writes
//! smaller than a NAND page share its commit (`Card::posted_commit_ns`). Jonathan
//! Bell's note on PR #6235 (June 2024) says what that means: the card "can do unsafe things
//! with pending write data - including reordering what gets committed to nonvolatile storage
//! at what time". Off command queueing the same card holds busy after each random write until
//! it is committed (the legacy path's `write_busy_ns`). A write waits for room only when
//! uncommitted writes fill the cache; `sd_flush_cache` (a flush) waits for every commit.

use std::collections::VecDeque;

/// The commits a card in command-queueing mode still owes for writes it has acknowledged.
#[derive(Debug, Default)]
pub(super) struct PostedWrites {
    /// (commit end, bytes) of each acknowledged random write not committed yet, in order.
    commits: VecDeque<(u64, u64)>,
    /// Bytes of `commits`.
    uncommitted: u64,
    /// When the last commit ends.
    committing_until: u64,
}

impl PostedWrites {
    /// A write of `len` bytes whose data is in the cache at `data_end`: when the task is done
    /// (its data end, or later when uncommitted writes fill `cache_bytes` and it waits for
    /// room), and, for a random write, its commit of `commit_ns` queued behind the others.
    pub(super) fn post(
        &mut self,
        data_end: u64,
        len: u64,
        cache_bytes: u64,
        commit_ns: Option<u64>,
    ) -> u64 {
        self.retire(data_end);
        let mut done = data_end;
        while self.uncommitted + len > cache_bytes {
            let Some((end, bytes)) = self.commits.pop_front() else {
                break;
            };
            self.uncommitted -= bytes;
            done = done.max(end);
        }
        if let Some(ns) = commit_ns {
            self.committing_until = self.committing_until.max(done) + ns;
            self.commits.push_back((self.committing_until, len));
            self.uncommitted += len;
        }
        done
    }

    /// Forgets the commits over by `now`.
    fn retire(&mut self, now: u64) {
        while let Some(&(end, bytes)) = self.commits.front() {
            if end > now {
                break;
            }
            self.uncommitted -= bytes;
            self.commits.pop_front();
        }
    }

    /// A cache flush at `now`: when every posted write is committed (`now` if all are), and
    /// the queue is then empty.
    pub(super) fn flush(&mut self, now: u64) -> u64 {
        let done = now.max(self.committing_until);
        self.commits.clear();
        self.uncommitted = 0;
        done
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_are_done_with_their_data_until_uncommitted_ones_fill_the_cache() {
        let mut p = PostedWrites::default();
        // A cache of three 4 KiB writes, a commit of 500 us each.
        let cap = 3 * 4096;
        assert_eq!(p.post(100, 4096, cap, Some(500)), 100);
        assert_eq!(p.post(200, 4096, cap, Some(500)), 200);
        assert_eq!(p.post(300, 4096, cap, Some(500)), 300);
        // The fourth waits for the first commit (100 + 500), and commits after the third.
        assert_eq!(p.post(400, 4096, cap, Some(500)), 600);
        assert_eq!(p.committing_until, 2100);
        // A sequential write queues no commit, but still needs room.
        assert_eq!(p.post(700, 4096, cap, None), 1100);
        // A flush waits for every commit.
        assert_eq!(p.flush(1200), 2100);
        assert_eq!(p.post(2200, 4096, cap, Some(500)), 2200);
    }
}
