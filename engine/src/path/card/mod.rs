//! The eMMC card (the other end of drivers/mmc/core/mmc_ops.c and block.c), as its firmware
//! works: reads split into NAND page reads (tR) across planes and dies, moved over the internal
//! channel and streamed to the bus behind the first page, with sequential stream detection and
//! a read-ahead that runs at the internal rate; the volatile write cache drained to NAND in the
//! background; reliable writes (CMD23 bit 31, what REQ_FUA becomes in `mmc_blk_rw_rq_prep`)
//! programmed in SLC program units (tPROG each) before their commit; and CMD6 FLUSH_CACHE
//! (`mmc_flush_cache`).
//!
//! The card is passive: the host asks it, at a given time, how long an operation holds the bus
//! and the busy line, and the card updates its state (cache contents, read streams).
//!
//! `read.rs` is the read path, `write.rs` cached and reliable writes, `cache.rs` the cache and
//! NAND (drain, flush, power cut).

mod cache;
mod posted;
mod read;
mod write;

use read::Stream;
use write::{end_slot, WRITE_STREAMS};

use std::collections::VecDeque;

use crate::board::CardTiming;
use crate::rng::Rng;
use crate::variation::{CardVariation, VariationTiming};
use crate::vocab::Cause;

/// A write acknowledged from the volatile cache, not yet programmed to NAND. 32 bytes: a card
/// cache of 1 GiB holding 512 MiB of 512-byte writes keeps 1,048,576 of them (the ring's
/// doubling makes that 64 MiB; 128 MiB when each took 64 bytes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CachedExtent {
    pub offset: u64,
    /// Id of the I/O that wrote it (its first request's id: the requests of a split I/O
    /// share it).
    pub req: u64,
    /// Bytes (a request is at most `max_req_kib`, 64 MiB).
    len: u32,
    /// Bytes of it still only in the cache (whole sectors).
    remaining: u32,
    /// What later trims unmapped of it; None (the common case) when none touched it.
    trimmed: Option<Box<Trimmed>>,
}

/// The parts of a cached extent later trims (CMD38) unmapped.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Trimmed {
    /// The byte range [start, end) of it that still holds data: a trim that covers its start
    /// or its end unmaps that part (the card still programs it, so timing is unchanged, but
    /// nothing is lost there).
    live: (u64, u64),
    /// A range a trim unmapped strictly inside `live` (empty: start >= end). One is kept: two
    /// overlapping inside trims merge, of two apart the longer stays, so what a cut reports
    /// lost may still include trimmed bytes but never leaves out data.
    hole: (u64, u64),
}

impl CachedExtent {
    fn new(offset: u64, len: u64, req: u64) -> CachedExtent {
        let len = u32::try_from(len).expect("a request is at most 64 MiB");
        CachedExtent {
            offset,
            req,
            len,
            remaining: len,
            trimmed: None,
        }
    }

    pub fn len(&self) -> u64 {
        u64::from(self.len)
    }

    /// Bytes of it still only in the cache.
    pub fn remaining(&self) -> u64 {
        u64::from(self.remaining)
    }

    /// `take` bytes of it programmed (at most what remains).
    fn programmed(&mut self, take: u64) {
        self.remaining -= u32::try_from(take).expect("at most what remains");
    }

    fn live_hole(&self) -> ((u64, u64), (u64, u64)) {
        match &self.trimmed {
            Some(t) => (t.live, t.hole),
            None => ((self.offset, self.offset + self.len()), (0, 0)),
        }
    }

    /// The ranges (offset, length) of it that a power cut now loses: the part not yet
    /// programmed that still holds data, on either side of the trimmed hole; none, one or two.
    pub fn lost_ranges(&self) -> impl Iterator<Item = (u64, u64)> {
        let (live, hole) = self.live_hole();
        let end = self.offset + self.len();
        let start = (end - self.remaining()).max(live.0);
        let end = end.min(live.1);
        let (h0, h1) = hole;
        let parts = if h0 < h1 && h0 < end && h1 > start {
            [(start, h0), (h1, end)]
        } else {
            [(start, end), (end, end)]
        };
        parts
            .into_iter()
            .filter(|(a, b)| a < b)
            .map(|(a, b)| (a, b - a))
    }

    /// A trim of [start, end) unmaps the part of the live range it covers at either end, or
    /// makes (or widens) the hole when it falls strictly inside.
    fn trim(&mut self, start: u64, end: u64) {
        let (live, hole) = self.live_hole();
        let (a, b) = live;
        if start >= b || end <= a {
            // Nothing of what is live: no change (and no room taken for one).
            return;
        }
        let t = self
            .trimmed
            .get_or_insert_with(|| Box::new(Trimmed { live, hole }));
        if start <= a && end > a {
            t.live.0 = end.min(b);
        } else if start < b && end >= b {
            t.live.1 = start.max(a);
        } else if start > a && end < b {
            let (h0, h1) = t.hole;
            if h0 >= h1 || (start <= h1 && end >= h0) {
                t.hole = if h0 >= h1 {
                    (start, end)
                } else {
                    (h0.min(start), h1.max(end))
                };
            } else if end - start > h1 - h0 {
                t.hole = (start, end);
            }
        }
        // The hole lies inside what is still live.
        t.hole = (t.hole.0.max(t.live.0), t.hole.1.min(t.live.1));
    }
}

/// Read streams the card follows at once (LRU).
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
    /// Read streams (buffer contents and read-ahead), most recent first.
    streams: [Stream; READ_WINDOWS],
    /// The rate a read streams at behind its first page ([`Card::internal_bytes_per_sec`]).
    internal_bps: u64,
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
    /// An SD card in command-queueing mode: the commits of its posted writes (`posted.rs`).
    posted: Option<posted::PostedWrites>,
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
            streams: [Stream::NONE; READ_WINDOWS],
            internal_bps: Card::internal_rate(&t),
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
            posted: None,
        }
    }

    /// `mmc_sd_cmdq_enable` (Raspberry Pi kernel 6.6): an SD card with its cache on enters
    /// command-queueing mode and posts its writes from now on (`posted.rs`). An eMMC, or an
    /// SD card without its cache, is left as it is.
    pub fn sd_cmdq_enable(&mut self) {
        if self.t.sd && self.cache_enabled {
            self.posted = Some(posted::PostedWrites::default());
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

    /// A CMD13 answered at `t` says "ready for data" (`mmc_ready_for_data`): the card is done
    /// committing its last random write.
    pub fn ready_for_data(&mut self, t: u64) -> bool {
        self.commit_until() <= t
    }

    /// CMD38 DISCARD at `now` for [offset, offset + len): the card unmaps the range (its
    /// read-ahead of the range is dropped: the data is gone) and is busy for its trim time.
    /// Data still in the volatile cache is programmed as before: the model keeps no mapping
    /// table, so later reads and writes of the range cost what they did; but what the trim
    /// covers is no longer data a power cut can lose.
    pub fn discard(&mut self, now: u64, offset: u64, len: u64) -> u64 {
        self.drain_to(now);
        let end = offset.saturating_add(len);
        for e in self.cache.iter_mut() {
            e.trim(offset, end);
        }
        for w in self.streams.iter_mut() {
            if w.overlaps(offset, end) {
                *w = Stream::NONE;
            }
        }
        now.max(self.commit_until()) + self.t.trim_ns
    }
}

#[cfg(test)]
mod tests;
