//! The card's write path (CMD25, with CMD23 bit 31 for what REQ_FUA becomes in
//! `mmc_blk_rw_rq_prep`): a write into the volatile cache, or a reliable write programmed before the busy line drops;
//! housekeeping after enough data, and the write streams the card recognises as sequential.

use super::{CachedExtent, Card};
use crate::vocab::{xfer_ns, Cause};

/// Write streams the card recognises as sequential at once.
pub(super) const WRITE_STREAMS: usize = 32;

/// The hash slot of a write end (Fibonacci hashing of its 512-byte sector).
#[inline(always)]
pub(super) fn end_slot(end: u64) -> usize {
    ((end >> 9).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56) as usize
}

impl Card {
    /// A write whose data phase may start at `data_start`, carrying `len` bytes over a bus of
    /// `bus_bps`. Returns (data start after any cache stall, data end, busy end).
    /// `req` is the id of the writing I/O (to tell, at a power cut, whose data is lost).
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
            // Reliable write: programmed unit by unit as it arrives (one tPROG per program unit,
            // a partial unit costing a whole one); the card answers once the last unit is in
            // NAND and the commit is done.
            let data_end = data_start + xfer_ns(len, rate);
            let unit = self.t.program_unit_bytes.max(512);
            let tprog = self.t.nand_program_ns;
            let first_in = data_start + xfer_ns(len.min(unit), rate);
            let programmed = (first_in + len.div_ceil(unit) * tprog).max(data_end + tprog);
            self.programmed_bytes += len;
            let commit = self.var.program(self.t.reliable_write_fixed_ns) + self.housekeeping(len);
            return (data_start, data_end, programmed + commit);
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
        // The card programs from its cache while the data still arrives: the extent is in the
        // cache from the data start, so the background drain overlaps the transfer.
        self.cache.push_back(CachedExtent::new(offset, len, req));
        self.dirty += len;
        self.drain_to(data_end);
        let sequential = self.sequential_write(offset, len);
        if self.posted.is_some() {
            // An SD card in command-queueing mode: done with its data in the cache (or once
            // there is room), a random write's commit queued behind the others (`posted.rs`);
            // a housekeeping pause still holds the card before it answers.
            let commit = (!sequential).then(|| self.var.program(self.posted_commit_ns(len)));
            let pause = self.housekeeping(len);
            let posted = self.posted.as_mut().expect("checked");
            let done = posted.post(data_end, len, cap, commit);
            return (start, data_end, done + pause);
        }
        // The busy time of a write into the cache: the firmware's own work, and now and then a
        // housekeeping pause (garbage collection, cache eviction) the card takes before it
        // answers.
        let busy = self.var.program(self.t.write_busy_ns) + self.housekeeping(len);
        if !sequential {
            self.commit_until = data_end + busy;
            self.commit_undrawn = Some(self.t.random_write_commit_ns);
        }
        (start, data_end, data_end + busy)
    }

    /// The commit of a posted random write of `len` bytes (`posted.rs`): the card commits its
    /// cached writes a NAND page at a time, so writes smaller than a page share one page's
    /// commit. Off command queueing each random write is committed alone before the card
    /// answers (`write_busy_ns`, one page's program and mapping update even for 4 KiB);
    /// posted, a 4 KiB write costs its share of that page: a quarter of it in a 16 KiB page.
    fn posted_commit_ns(&self, len: u64) -> u64 {
        let page = self.t.nand_page_bytes.max(512);
        (u128::from(self.t.write_busy_ns) * u128::from(len.min(page)) / u128::from(page)) as u64
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
    pub(super) fn sequential_write(&mut self, offset: u64, len: u64) -> bool {
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
}
