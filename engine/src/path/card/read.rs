//! The card's read path (the card's side of CMD18 READ_MULTIPLE_BLOCK, `mmc_blk_rw_rq_prep`):
//! how eMMC/SD firmware reads NAND. A read of N bytes is split into page reads: the first page
//! is sensed (tR) and crosses the internal channel before the card sends anything; the later
//! pages are sensed in parallel across planes and dies and stream behind it at the internal
//! rate, while the bus sends what is already in the buffer. A read that continues a stream
//! (starts in what the card buffered for it) finds the pages its read-ahead fetched meanwhile,
//! and the read-ahead goes on at the internal rate, never faster.

use super::Card;
use crate::vocab::{xfer_ns, Cause};

/// One read stream the card follows: what its buffer holds and how its read-ahead advances.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Stream {
    /// First byte the buffer still holds for this stream.
    lo: u64,
    /// Bytes below this were in the buffer before the stream's last restart (the read-ahead
    /// that had stopped at its limit).
    ready: u64,
    /// The read-ahead frontier: bytes below `x0` are in the buffer by `t0`; the bytes after it
    /// arrive at the internal rate from `t0` on, up to `limit`.
    x0: u64,
    t0: u64,
    /// The card reads ahead up to here (the last requested byte plus the read-ahead depth, once
    /// the stream is seen to be sequential: a second read that continues it).
    limit: u64,
    /// Where the stream's last read ended: a read starting here continues it.
    next: u64,
}

impl Stream {
    pub(super) const NONE: Stream = Stream {
        lo: u64::MAX,
        ready: 0,
        x0: u64::MAX,
        t0: 0,
        limit: 0,
        next: u64::MAX,
    };
    /// Whether a read at `offset` at time `t` belongs to this stream: it starts in what the
    /// buffer already holds, or where the stream's last read ended. A read further into the
    /// read-ahead range than the card has read is a new stream (the firmware starts a new
    /// read there rather than wait for the read-ahead to get there).
    fn holds(&self, offset: u64, t: u64, rate: u64) -> bool {
        self.lo <= offset
            && offset <= self.limit
            && (offset == self.next || offset <= self.x0 || Card::avail(self, offset, rate) <= t)
    }
    pub(super) fn overlaps(&self, offset: u64, end: u64) -> bool {
        self.lo < end && offset < self.limit
    }
}

impl Card {
    /// The rate a read streams at once its first page is in: the internal channel, or the
    /// dies and planes' page reads (pages x planes x dies per tR), whichever is slower.
    pub fn internal_bytes_per_sec(&self) -> u64 {
        self.internal_bps
    }

    /// [`Card::internal_bytes_per_sec`] from the card's timing (computed once, in `Card::new`).
    pub(super) fn internal_rate(t: &crate::board::CardTiming) -> u64 {
        let units = u64::from(t.nand_dies.max(1)) * u64::from(t.nand_planes.max(1));
        let sense = (units * t.nand_page_bytes.max(512))
            .saturating_mul(1_000_000_000)
            .checked_div(t.read_latency_random_ns)
            .unwrap_or(u64::MAX);
        t.nand_channel_bytes_per_sec.max(1).min(sense)
    }

    /// One tR (its page type and retries drawn, and remembered as the read's cause).
    fn nand_read(&mut self) -> u64 {
        let tr = self.var.nand_read(self.t.read_latency_random_ns);
        let (tr_pct, retries) = self.var.last_read;
        self.cause = Cause::NandRead { tr_pct, retries };
        tr
    }

    /// When byte `y` of the stream is in the buffer.
    #[inline]
    fn avail(s: &Stream, y: u64, rate: u64) -> u64 {
        if y <= s.ready {
            0
        } else if y <= s.x0 {
            s.t0
        } else {
            s.t0 + xfer_ns(y - s.x0, rate)
        }
    }

    /// A read of `len` bytes at `offset` whose command ends at `t`, sent over a bus of
    /// `bus_bps`: (data start, data end). The card starts sending once the first page's bytes
    /// are in its buffer; the bus then streams behind the later pages.
    pub fn read(&mut self, t: u64, offset: u64, len: u64, bus_bps: u64) -> (u64, u64) {
        self.cause = Cause::None;
        let end = offset.saturating_add(len);
        let rate = self.internal_bytes_per_sec();
        let page = self.t.nand_page_bytes.max(512);
        let depth = self.t.read_ahead_bytes;
        let lat = self.t.read_latency_seq_ns;
        let hit = self.streams.iter().position(|s| s.holds(offset, t, rate));
        let mut s = match hit {
            Some(i) => {
                self.streams[..=i].rotate_right(1);
                let mut s = self.streams[0];
                // The read-ahead stopped at its limit before this read came: the card starts
                // reading again from there (a new tR for the first page past it), for this
                // read's bytes past the limit and the read-ahead beyond them.
                let stopped_at = Self::avail(&s, s.limit, rate);
                if stopped_at < t && end.saturating_add(depth) > s.limit {
                    let first = (s.limit / page + 1) * page - s.limit;
                    let tr = self.nand_read();
                    let channel = self.t.nand_channel_bytes_per_sec.max(1);
                    s.ready = s.limit;
                    s.t0 = t + tr + xfer_ns(first, channel);
                    s.x0 = s.limit + first;
                }
                s
            }
            None => {
                self.streams.rotate_right(1);
                if crate::rng::chance_ppm(&mut self.rng, self.t.random_read_hit_ppm) {
                    Stream {
                        lo: offset,
                        ready: offset,
                        x0: end,
                        t0: t + lat,
                        limit: end,
                        next: end,
                    }
                } else {
                    let tr = self.nand_read();
                    // The first page: sensed, then its requested bytes cross the channel.
                    let first = ((offset / page + 1) * page).min(end) - offset;
                    Stream {
                        lo: offset,
                        ready: offset,
                        x0: offset + first,
                        t0: t + tr + xfer_ns(first, self.t.nand_channel_bytes_per_sec.max(1)),
                        limit: end,
                        next: end,
                    }
                }
            }
        };
        // The bus sends the first page once it is in, then streams behind the later pages:
        // it ends when the last page's bytes are sent or when all bytes are sent at bus
        // rate from the start, whichever is later.
        let first_end = ((offset / page + 1) * page).min(end);
        let start = (t + lat).max(Self::avail(&s, first_end, rate));
        let mut data_end = start + xfer_ns(len, bus_bps);
        let last_in = Self::avail(&s, end, rate);
        if last_in > start {
            // Some pages come in after the bus starts. The bytes past what the buffer held wait
            // for the restart's first page; the last page is sent once it is in.
            let held = s.ready.max(offset);
            if held > offset && held < end {
                data_end = data_end.max(s.t0 + xfer_ns(end - held, bus_bps));
            }
            if s.x0 > offset && s.x0 < end {
                data_end = data_end.max(s.t0 + xfer_ns(end - s.x0, bus_bps));
            }
            let last = end - ((end - 1) / page * page).max(offset);
            data_end = data_end.max(last_in + xfer_ns(last, bus_bps));
        }
        // A read that continues a stream makes the card read ahead: up to `depth` past this
        // read, keeping `depth` behind it. A read that starts a stream reads only itself.
        if hit.is_some() {
            s.limit = s.limit.max(end.saturating_add(depth));
        }
        s.lo = s.lo.max(end.saturating_sub(depth)).min(offset);
        s.next = end;
        self.streams[0] = s;
        (start, data_end)
    }

    /// A command-queued read known to the card at `t`: when it can start sending its data at
    /// bus rate. NAND reads run on the first free die; buffer hits need none.
    pub fn queued_read_ready(&mut self, t: u64, offset: u64, len: u64, bus_bps: u64) -> u64 {
        let (start, end) = self.read(t, offset, len, bus_bps);
        let ready = start.max(end - xfer_ns(len, bus_bps));
        if !matches!(self.cause, Cause::NandRead { .. }) {
            return ready;
        }
        let die = (0..self.die_free.len())
            .min_by_key(|&i| self.die_free[i])
            .unwrap_or(0);
        let begin = t.max(self.die_free[die]);
        self.die_free[die] = begin + (start - t);
        ready + (begin - t)
    }
}
