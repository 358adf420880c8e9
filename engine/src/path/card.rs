//! The card: read access (read-ahead buffer vs NAND read), the volatile write cache drained to
//! NAND in the background, reliable writes (CMD23 bit 31, what REQ_FUA becomes in
//! `mmc_blk_rw_rq_prep`) and CMD6 FLUSH_CACHE (`mmc_flush_cache`).
//!
//! The card is passive: the host asks it, at a given time, how long an operation holds the bus
//! and the busy line, and the card updates its state (cache contents, read-ahead windows).

use std::collections::VecDeque;

use crate::board::CardTiming;
use crate::rng::Rng;
use crate::variation::{CardVariation, VariationTiming};
use crate::vocab::{xfer_ns, Cause};

/// A write acknowledged from the volatile cache, not yet programmed to NAND.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CachedExtent {
    pub offset: u64,
    pub len: u64,
    /// Bytes of it still only in the cache.
    pub remaining: u64,
    /// Id of the request that wrote it.
    pub req: u64,
}

/// Read-ahead windows the card keeps (LRU).
const READ_WINDOWS: usize = 4;

/// The card's state: cache contents, read-ahead windows, NAND dies.
#[derive(Debug)]
pub struct Card {
    t: CardTiming,
    /// Cache in use (the host's `cache=` and the card's own capacity).
    cache_enabled: bool,
    /// Dirty extents in program order.
    cache: VecDeque<CachedExtent>,
    dirty: u64,
    /// Time up to which background programming has been accounted.
    drained_to: u64,
    /// Sub-byte remainder of the drain (in byte-ns units), so the drain never drifts: under
    /// 1e9, plus under 512 bytes' worth while a partial sector waits (so always far below 2^64).
    drain_carry: u64,
    /// Read-ahead windows [start, end), most recent first.
    windows: [(u64, u64); READ_WINDOWS],
    rng: Rng,
    /// NAND read and program times, housekeeping pauses (their own random stream).
    var: CardVariation,
    /// When each NAND die is free again (command-queued reads only).
    die_free: Vec<u64>,
    /// Bytes programmed to NAND (cache drains, direct writes, reliable writes).
    programmed_bytes: u64,
    /// Where recent writes ended (one per write stream), to tell sequential writes: a ring,
    /// most recent first from `write_head`.
    write_ends: [u64; WRITE_STREAMS],
    write_head: usize,
    /// How many of `write_ends` fall in each of 256 hash slots: a write whose slot is empty
    /// continues no stream, known without a scan (most random writes).
    write_end_slots: [u8; 256],
    /// The card answers CMD13 "ready" only from this time (random-write commit)...
    commit_until: u64,
    /// ...plus the varying commit time of the last random write, of this mean, while it is not
    /// drawn yet: only a CMD13 or a discard looks at it, so it is drawn then (once), and runs
    /// that never look (hsq, CQE) spend no draw on it.
    commit_undrawn: Option<u64>,
    /// Bytes at the front of the cache a flush in progress still has to program: the card
    /// programs them at NAND speed as time passes, hold size or not, and has programmed all of
    /// them by `flush_done`. A power cut before then loses what is left.
    flush_owed: u64,
    /// When the flush in progress has programmed everything it owes.
    flush_done: u64,
    /// What the last read or write drew that lengthens it (see [`Card::take_cause`]).
    cause: Cause,
}

/// Write streams the card recognises as sequential at once.
const WRITE_STREAMS: usize = 32;

/// The hash slot of a write end (Fibonacci hashing of its 512-byte sector).
#[inline(always)]
fn end_slot(end: u64) -> usize {
    ((end >> 9).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56) as usize
}

impl Card {
    pub fn new(
        t: CardTiming,
        v: VariationTiming,
        cache_enabled: bool,
        rng: Rng,
        var_rng: Rng,
    ) -> Card {
        Card {
            t,
            cache_enabled: cache_enabled && t.cache_bytes > 0,
            cache: VecDeque::new(),
            dirty: 0,
            drained_to: 0,
            drain_carry: 0,
            windows: [(u64::MAX, u64::MAX); READ_WINDOWS],
            rng,
            var: CardVariation::new(v, var_rng),
            die_free: vec![0; t.nand_dies.max(1) as usize],
            programmed_bytes: 0,
            write_ends: [u64::MAX; WRITE_STREAMS],
            write_head: 0,
            write_end_slots: {
                let mut slots = [0u8; 256];
                slots[end_slot(u64::MAX)] = WRITE_STREAMS as u8;
                slots
            },
            commit_until: 0,
            commit_undrawn: None,
            flush_owed: 0,
            flush_done: 0,
            cause: Cause::None,
        }
    }

    pub fn timing(&self) -> &CardTiming {
        &self.t
    }
    pub fn cache_capacity(&self) -> u64 {
        if self.cache_enabled {
            self.t.cache_bytes
        } else {
            0
        }
    }

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
    fn drain_to(&mut self, now: u64) {
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
            if bytes >= front.remaining {
                bytes -= front.remaining;
                drained += front.remaining;
                front.remaining = 0;
                self.cache.pop_front();
                continue;
            }
            // NAND is programmed in whole 512-byte sectors; a partial sector waits for more
            // time (what is left of `bytes` after the whole sectors is under one sector, and
            // the extent keeps more than that).
            let take = bytes - bytes % 512;
            front.remaining -= take;
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
    fn hold(&self) -> u64 {
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
            if bytes >= e.remaining {
                // The whole extent is programmed.
                bytes -= e.remaining;
                dirty -= e.remaining;
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

    /// Read access time for a read of `len` bytes at `offset` whose command ends at `now`:
    /// a hit in a read-ahead window (or a sequential continuation) costs the buffer latency,
    /// anything else a NAND page read (unless it hits the card's buffer by chance).
    pub fn read_access(&mut self, offset: u64, len: u64) -> u64 {
        self.cause = Cause::None;
        let end = offset.saturating_add(len);
        let hit = self
            .windows
            .iter()
            .position(|&(s, e)| offset >= s && offset < e.max(s + 1) || offset == e);
        let new_window = (offset, end.saturating_add(self.t.read_ahead_bytes));
        let latency = match hit {
            Some(i) => {
                self.windows[..=i].rotate_right(1);
                self.t.read_latency_seq_ns
            }
            None => {
                self.windows.rotate_right(1);
                if crate::rng::chance_ppm(&mut self.rng, self.t.random_read_hit_ppm) {
                    self.t.read_latency_seq_ns
                } else {
                    let t = self.var.nand_read(self.t.read_latency_random_ns);
                    let (tr_pct, retries) = self.var.last_read;
                    self.cause = Cause::NandRead { tr_pct, retries };
                    t
                }
            }
        };
        let w = &mut self.windows[0];
        if hit.is_some() {
            w.1 = w.1.max(new_window.1);
        } else {
            *w = new_window;
        }
        latency
    }

    /// A command-queued read known to the card at `t`: when its data is ready. NAND reads run
    /// on the first free die; buffer hits need none.
    pub fn queued_read_ready(&mut self, t: u64, offset: u64, len: u64) -> u64 {
        let lat = self.read_access(offset, len);
        if lat <= self.t.read_latency_seq_ns {
            return t + lat;
        }
        let die = (0..self.die_free.len())
            .min_by_key(|&i| self.die_free[i])
            .unwrap_or(0);
        let start = t.max(self.die_free[die]);
        self.die_free[die] = start + lat;
        start + lat
    }

    /// A write whose data phase may start at `data_start`, carrying `len` bytes over a bus of
    /// `bus_bps`. Returns (data start after any cache stall, data end, busy end).
    /// `req` is the id of the writing request (to tell, at a power cut, whose data is lost).
    pub fn write(
        &mut self,
        data_start: u64,
        offset: u64,
        len: u64,
        reliable: bool,
        bus_bps: u64,
        req: u64,
    ) -> (u64, u64, u64) {
        self.cause = Cause::None;
        let rate = bus_bps.min(self.t.write_accept_bytes_per_sec.max(1));
        if reliable {
            // Reliable write: programmed as it arrives; the card answers once it is in NAND.
            let data_end = data_start + xfer_ns(len, rate);
            let programmed = data_start + xfer_ns(len, self.t.reliable_write_bytes_per_sec);
            self.programmed_bytes += len;
            let commit = self.var.program(self.t.reliable_write_fixed_ns) + self.housekeeping(len);
            return (data_start, data_end, data_end.max(programmed) + commit);
        }
        if !self.cache_enabled {
            // No volatile cache: the data lands in the card's page buffer and is programmed
            // before the card releases the busy line.
            let data_end = data_start + xfer_ns(len, rate);
            let program = self
                .var
                .program(xfer_ns(len, self.t.nand_program_bytes_per_sec) + self.t.write_busy_ns);
            self.programmed_bytes += len;
            let busy = program + self.housekeeping(len);
            return (data_start, data_end, data_end + busy);
        }
        // Into the cache: wait for room (the card holds the bus until NAND programming frees it).
        self.drain_to(data_start);
        let cap = self.t.cache_bytes;
        let mut start = data_start;
        let need = (self.dirty + len.min(cap)).saturating_sub(cap);
        if need > 0 {
            start += xfer_ns(need, self.t.nand_program_bytes_per_sec);
            self.drain_to(start);
        }
        let data_end = start + xfer_ns(len, rate);
        self.drain_to(data_end);
        self.cache.push_back(CachedExtent {
            offset,
            len,
            remaining: len,
            req,
        });
        self.dirty += len;
        // The busy time of a write into the cache: the firmware's own work, and now and then a
        // housekeeping pause (garbage collection, cache eviction) the card takes before it
        // answers.
        let busy = self.var.program(self.t.write_busy_ns) + self.housekeeping(len);
        if !self.sequential_write(offset, len) {
            self.commit_until = data_end + busy;
            self.commit_undrawn = Some(self.t.random_write_commit_ns);
        }
        (start, data_end, data_end + busy)
    }

    /// The housekeeping pause a write of `len` bytes carries (remembered as its cause).
    fn housekeeping(&mut self, len: u64) -> u64 {
        let ns = self.var.housekeeping(len);
        if ns > 0 {
            self.cause = Cause::Housekeeping { ns };
        }
        ns
    }

    /// What the last [`Card::read_access`] or [`Card::write`] drew that made it longer than
    /// usual (a NAND read's page type and retries, a housekeeping pause), and forgets it.
    pub fn take_cause(&mut self) -> Cause {
        std::mem::take(&mut self.cause)
    }

    /// Whether a write continues one of the recent write streams; records where it ends (the
    /// stream becomes the most recent; a new stream replaces the least recent).
    fn sequential_write(&mut self, offset: u64, len: u64) -> bool {
        const N: usize = WRITE_STREAMS;
        let end = offset + len;
        let hit = self.write_end_slots[end_slot(offset)] > 0 && self.write_ends.contains(&offset);
        if !hit {
            // The least recent stream's slot (the one before the head) becomes the most recent.
            self.write_head = (self.write_head + N - 1) % N;
            let old = std::mem::replace(&mut self.write_ends[self.write_head], end);
            self.write_end_slots[end_slot(old)] -= 1;
            self.write_end_slots[end_slot(end)] += 1;
            return false;
        }
        // The stream's place from the most recent, then the more recent ones move down one.
        let h = self.write_head;
        let i = (0..N)
            .position(|k| self.write_ends[(h + k) % N] == offset)
            .expect("a hit is in the ring");
        for k in (0..i).rev() {
            self.write_ends[(h + k + 1) % N] = self.write_ends[(h + k) % N];
        }
        self.write_ends[h] = end;
        self.write_end_slots[end_slot(offset)] -= 1;
        self.write_end_slots[end_slot(end)] += 1;
        true
    }

    /// When a CMD13 sent at `t` is answered "ready for data" (`mmc_blk_card_busy`).
    pub fn status_ready(&mut self, t: u64) -> u64 {
        t.max(self.commit_until())
    }

    /// When the last random write's commit is over (its varying time drawn on the first look).
    fn commit_until(&mut self) -> u64 {
        if let Some(mean) = self.commit_undrawn.take() {
            self.commit_until += self.var.program(mean);
        }
        self.commit_until
    }

    /// The power fails at `now`: whatever is only in the volatile cache is gone. Returns the
    /// extents lost, in program order.
    pub fn power_cut(&mut self, now: u64) -> Vec<CachedExtent> {
        self.drain_to(now);
        self.dirty = 0;
        self.drain_carry = 0;
        self.flush_owed = 0;
        self.windows = [(u64::MAX, u64::MAX); READ_WINDOWS];
        self.cache.drain(..).filter(|e| e.remaining > 0).collect()
    }

    /// CMD38 DISCARD at `now` for [offset, offset + len): the card unmaps the range (its
    /// read-ahead of the range is dropped: the data is gone) and is busy for its trim time.
    /// Data still in the volatile cache is programmed as before: the model keeps no mapping
    /// table, so later reads and writes of the range cost what they did.
    pub fn discard(&mut self, now: u64, offset: u64, len: u64) -> u64 {
        self.drain_to(now);
        let end = offset.saturating_add(len);
        for w in self.windows.iter_mut() {
            if w.0 < end && offset < w.1 {
                *w = (u64::MAX, u64::MAX);
            }
        }
        now.max(self.commit_until()) + self.t.trim_ns
    }

    /// CMD6 FLUSH_CACHE at `now`: busy until everything dirty is programmed. The card programs
    /// the dirty bytes as time passes (in program order, at NAND speed), so a power cut during
    /// the flush loses exactly what it had not programmed yet.
    pub fn flush(&mut self, now: u64) -> u64 {
        self.drain_to(now);
        let drain = xfer_ns(self.dirty, self.t.nand_program_bytes_per_sec);
        self.flush_owed = self.dirty;
        self.flush_done = now + drain;
        now + drain + self.t.flush_fixed_ns
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::SPRD_HS400ES_2020;

    #[test]
    fn write_streams_are_recognised_as_a_most_recent_first_list_would() {
        // The former list: most recent first, a hit moves to the front, a miss drops the last.
        use rand::RngExt as _;
        let mut list = [u64::MAX; WRITE_STREAMS];
        let mut seq = |offset: u64, end: u64| match list.iter().position(|&e| e == offset) {
            Some(i) => {
                list[..=i].rotate_right(1);
                list[0] = end;
                true
            }
            None => {
                list.rotate_right(1);
                list[0] = end;
                false
            }
        };
        let mut c = card();
        let mut rng = crate::rng::stream(8, 8);
        // 40 streams (more than the card tracks) writing 4 KiB at a time, and random writes.
        let mut heads: Vec<u64> = (0..40u64).map(|s| s << 30).collect();
        let mut hits = 0;
        for n in 0..100_000 {
            let offset = if rng.random_range(0..4u32) == 0 {
                rng.random_range(0..1u64 << 20) * 4096 + 1
            } else {
                let active = rng.random_range(1..=40usize);
                let s = rng.random_range(0..active);
                let o = heads[s];
                heads[s] += 4096;
                o
            };
            let want = seq(offset, offset + 4096);
            assert_eq!(c.sequential_write(offset, 4096), want, "write {n}");
            hits += u32::from(want);
        }
        assert!(hits > 10_000, "{hits}");
    }

    fn card() -> Card {
        Card::new(
            SPRD_HS400ES_2020.card,
            VariationTiming::FIXED,
            true,
            crate::rng::stream(1, 1),
            crate::rng::stream(1, 2),
        )
    }

    #[test]
    fn xfer_ns_is_the_exact_ceiling_at_any_size() {
        use rand::RngExt as _;
        let exact = |b: u64, r: u64| ((b as u128 * 1_000_000_000).div_ceil(r as u128)) as u64;
        let mut rng = crate::rng::stream(4, 4);
        for _ in 0..100_000 {
            let bits = rng.random_range(0..64u32);
            let b = rng.random_range(0..=u64::MAX >> bits);
            let shift = rng.random_range(0..64u32);
            let r = rng.random_range(1..=u64::MAX >> shift);
            assert_eq!(xfer_ns(b, r), exact(b, r), "{b} bytes at {r} B/s");
        }
        assert_eq!(xfer_ns(u64::MAX, 1 << 40), exact(u64::MAX, 1 << 40));
        assert_eq!(xfer_ns(4096, 0), 0);
    }

    #[test]
    fn sequential_reads_hit_read_ahead() {
        let mut c = card();
        let first = c.read_access(1 << 30, 4096);
        let second = c.read_access((1 << 30) + 4096, 4096);
        assert_eq!(first, c.t.read_latency_random_ns);
        assert_eq!(second, c.t.read_latency_seq_ns);
    }

    #[test]
    fn a_discard_is_busy_for_the_trim_time_and_unmaps_the_read_ahead() {
        let mut c = card();
        c.read_access(1 << 30, 4096);
        let end = c.discard(1_000_000, 1 << 30, 1 << 20);
        assert_eq!(end, 1_000_000 + c.t.trim_ns);
        // The data read ahead was discarded: the next read goes to NAND again.
        let next = c.read_access((1 << 30) + 4096, 4096);
        assert_eq!(next, c.t.read_latency_random_ns);
    }

    #[test]
    fn cache_fills_then_stalls_at_nand_speed() {
        let mut c = card();
        let cap = c.t.cache_bytes;
        let mut t = 0;
        // Fill far past capacity in one go: later writes stall.
        let mut stalled = false;
        for i in 0..(8 * cap / 65536) {
            let (s, _e, busy) = c.write(t, i * 65536, 65536, false, 400_000_000, i);
            if s > t {
                stalled = true;
            }
            t = busy;
        }
        assert!(stalled);
        assert!(c.dirty_at(t) <= cap);
    }

    #[test]
    fn looking_at_the_dirty_bytes_agrees_with_draining() {
        use rand::RngExt as _;
        let mut c = card();
        let mut rng = crate::rng::stream(7, 7);
        let (mut t, mut written) = (0, 0);
        for i in 0..2000u64 {
            let len = 512 * (1 + rng.random_range(0..256u64));
            let (_, _, busy) = c.write(t, i * (1 << 20), len, false, 400_000_000, i);
            written += len;
            t = busy + rng.random_range(0..200_000u64);
            let seen = c.dirty_at(t);
            assert_eq!(c.dirty_at(t), seen, "looking twice gives the same answer");
            assert_eq!(c.programmed_at(t) + seen, written);
            c.drain_to(t);
            assert_eq!(seen, c.dirty, "at {t} after write {i}");
        }
        let end = c.flush(t);
        assert_eq!(c.programmed_at(end), written);
    }

    #[test]
    fn flush_empties_the_cache() {
        let mut c = card();
        let (_, _, busy) = c.write(0, 0, 1 << 20, false, 400_000_000, 1);
        let end = c.flush(busy);
        assert!(end >= busy + xfer_ns(1 << 20, c.t.nand_program_bytes_per_sec) / 2);
        assert_eq!(c.dirty_at(end), 0);
        c.drain_to(end);
        assert_eq!(c.cached_extents().count(), 0);
    }

    #[test]
    fn a_cut_during_a_flush_loses_what_it_had_not_programmed() {
        let mut c = card();
        let mut t = 0;
        for i in 0..8u64 {
            let (_, _, busy) = c.write(t, i * 4096, 4096, false, 400_000_000, i);
            t = busy;
        }
        let dirty = c.dirty_at(t);
        assert!(dirty > 0);
        let end = c.flush(t);
        let drain_end = t + xfer_ns(dirty, c.t.nand_program_bytes_per_sec);
        assert!(end >= drain_end);
        // Halfway through, about half is programmed, in program order.
        let mid = t + (drain_end - t) / 2;
        let left = c.dirty_at(mid);
        assert!(
            left > 0 && left < dirty,
            "{left} of {dirty} left at mid-flush"
        );
        let mut cut = card();
        let mut t2 = 0;
        for i in 0..8u64 {
            let (_, _, busy) = cut.write(t2, i * 4096, 4096, false, 400_000_000, i);
            t2 = busy;
        }
        cut.flush(t2);
        let lost = cut.power_cut(mid);
        assert_eq!(lost.iter().map(|e| e.remaining).sum::<u64>(), left);
        assert_eq!(lost.last().map(|e| e.req), Some(7));
        // Once the flush has programmed everything, nothing is left to lose.
        assert_eq!(c.dirty_at(drain_end), 0);
        assert!(c.power_cut(drain_end).is_empty());
    }

    #[test]
    fn power_cut_loses_the_held_cache_only() {
        let mut c = card();
        let hold = c.hold();
        let mut t = 0;
        for i in 0..64u64 {
            let (_, _, busy) = c.write(t, i * 4096, 4096, false, 400_000_000, i);
            t = busy + 1_000_000;
        }
        let lost = c.power_cut(t);
        let bytes: u64 = lost.iter().map(|e| e.remaining).sum();
        assert!(bytes > 0 && bytes <= hold, "lost {bytes} of hold {hold}");
        assert_eq!(
            lost.last().map(|e| e.req),
            Some(63),
            "the newest writes are the ones lost"
        );
    }

    #[test]
    fn reliable_write_waits_for_nand() {
        let mut c = card();
        let (_, _, normal) = c.write(0, 0, 4096, false, 400_000_000, 1);
        let (_, _, reliable) = c.write(1_000_000, 8192, 4096, true, 400_000_000, 2);
        assert!(reliable - 1_000_000 > normal + 200_000);
    }
}
