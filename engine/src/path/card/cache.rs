//! The card's cache and NAND (`mmc_flush_cache`, drivers/mmc/core/mmc_ops.c): the volatile
//! cache drained to NAND in the background, flushed by CMD6 FLUSH_CACHE, lost on a power cut.

use std::collections::VecDeque;

use super::{CachedExtent, Card, READ_WINDOWS};
use crate::vocab::xfer_ns;

impl Card {
    /// Bytes programmed to NAND by `now` (cache drains, direct writes, reliable writes),
    /// computed without draining.
    pub fn programmed_at(&self, now: u64) -> u64 {
        self.programmed_bytes + (self.dirty - self.dirty_at(now))
    }

    /// Background NAND programming: the cache drains in FIFO order at the program bandwidth.
    /// The card drains lazily, when an operation needs its state at a time; [`dirty_at`]
    /// computes the same figure without draining.
    ///
    /// [`dirty_at`]: Card::dirty_at
    pub(super) fn drain_to(&mut self, now: u64) {
        if now <= self.drained_to {
            return;
        }
        if self.dirty == 0 {
            self.drained_to = now;
            self.drain_carry = 0;
            return;
        }
        let (mut bytes, carry) = self.drain_budget(now);
        self.drain_carry = carry;
        self.drained_to = now;
        // Whole extents first, then whole sectors of the next one.
        let mut drained = 0;
        while bytes > 0 {
            let Some(front) = self.cache.front_mut() else {
                break;
            };
            let remaining = front.remaining();
            if bytes >= remaining {
                bytes -= remaining;
                drained += remaining;
                self.cache.pop_front();
                continue;
            }
            // NAND is programmed in whole 512-byte sectors; a partial sector waits for more
            // time (what is left of `bytes` after the whole sectors is under one sector, and
            // the extent keeps more than that).
            let take = bytes - bytes % 512;
            front.programmed(take);
            drained += take;
            bytes -= take;
            if bytes > 0 {
                self.drain_carry += bytes * 1_000_000_000;
            }
            break;
        }
        self.dirty -= drained;
        self.flush_owed = self.flush_owed.saturating_sub(drained);
        self.programmed_bytes += drained;
        if self.dirty == 0 {
            self.drain_carry = 0;
            self.flush_owed = 0;
        }
    }

    /// Bytes the card keeps cached without programming them (never more than half the cache).
    pub(super) fn hold(&self) -> u64 {
        self.t.cache_hold_bytes.min(self.t.cache_bytes / 2)
    }

    /// Bytes the background drain may program between the last drain and `now` (before the
    /// sector rounding of [`drain_to`](Card::drain_to)), and the sub-byte remainder carried on.
    /// The card programs only what exceeds its hold size (a full program unit stays cached),
    /// except what a flush in progress owes: that is programmed whatever the hold size, all of
    /// it by the flush's end (a sector left over by rounding included).
    fn drain_budget(&self, now: u64) -> (u64, u64) {
        const NS: u64 = 1_000_000_000;
        let rate = self.t.nand_program_bytes_per_sec;
        // In 64 bits whenever it fits (the gaps between a card's operations), else in 128: the
        // same quotient and remainder either way.
        let small = (now - self.drained_to)
            .checked_mul(rate)
            .and_then(|p| p.checked_add(self.drain_carry));
        let (mut bytes, rem) = match small {
            Some(total) => (total / NS, total % NS),
            None => {
                let total =
                    (now - self.drained_to) as u128 * rate as u128 + u128::from(self.drain_carry);
                (
                    (total / NS as u128).min(u64::MAX as u128) as u64,
                    (total % NS as u128) as u64,
                )
            }
        };
        if now >= self.flush_done {
            bytes = bytes.max(self.flush_owed);
        }
        let allowed = self.dirty.saturating_sub(self.hold()).max(self.flush_owed);
        (bytes.min(allowed), rem)
    }

    /// Dirty bytes at `now`: what draining to `now` would leave, computed without draining, so
    /// looking at the card never changes what it does next.
    pub fn dirty_at(&self, now: u64) -> u64 {
        if now <= self.drained_to || self.dirty == 0 {
            return self.dirty;
        }
        let (mut bytes, _) = self.drain_budget(now);
        let mut dirty = self.dirty;
        for e in &self.cache {
            if bytes == 0 {
                break;
            }
            if bytes >= e.remaining() {
                // The whole extent is programmed.
                bytes -= e.remaining();
                dirty -= e.remaining();
            } else {
                // Whole sectors of it; the partial sector waits for more time.
                dirty -= bytes - bytes % 512;
                break;
            }
        }
        dirty
    }

    /// Dirty extents.
    #[cfg(test)]
    pub fn cached_extents(&self) -> impl Iterator<Item = &CachedExtent> {
        self.cache.iter()
    }

    /// When the last random write's commit is over (its varying time drawn on the first look).
    pub(super) fn commit_until(&mut self) -> u64 {
        if let Some(mean) = self.commit_undrawn.take() {
            self.commit_until += self.var.program(mean);
        }
        self.commit_until
    }

    /// The power fails at `now`: whatever is only in the volatile cache is gone. Returns the
    /// extents lost, in program order (the cache's own ring, not a copy of it).
    pub fn power_cut(&mut self, now: u64) -> VecDeque<CachedExtent> {
        self.drain_to(now);
        self.dirty = 0;
        self.drain_carry = 0;
        self.flush_owed = 0;
        self.streams = [super::Stream::NONE; READ_WINDOWS];
        let mut lost = std::mem::take(&mut self.cache);
        lost.retain(|e| e.remaining() > 0);
        lost
    }

    /// CMD6 FLUSH_CACHE at `now`: busy until everything dirty is programmed. The card programs
    /// the dirty bytes as time passes (in program order, at NAND speed), so a power cut during
    /// the flush loses exactly what it had not programmed yet.
    /// An SD card in command-queueing mode (`sd_flush_cache`) also finishes the commits of the
    /// writes it posted.
    pub fn flush(&mut self, now: u64) -> u64 {
        self.drain_to(now);
        let drain = xfer_ns(self.dirty, self.t.nand_program_bytes_per_sec);
        self.flush_owed = self.dirty;
        self.flush_done = now + drain;
        let committed = self.posted.as_mut().map_or(now, |p| p.flush(now));
        (now + drain).max(committed) + self.t.flush_fixed_ns
    }
}
