//! fio's next I/O (`get_io_u`: `get_next_offset`, `get_next_buflen`, `read_iolog_get`): a
//! flush (`fsync`, `end_fsync`), the next op of a replayed trace (`read_iolog`), or a
//! read/write/trim with its block size (`bs`, `bsrange`, `bssplit`) and offset (sequential per
//! file with `rw=read:N` skips, random by `random_distribution`, `zonemode=strided`).

use rand::RngExt;

use super::{dist, BsGen, EndFlush, Job};
use crate::scenario::iolog::{LogOp, LogOpKind};
use crate::scenario::{RandomDistribution, Rw};
use crate::vocab::Op;

impl Job {
    pub(super) fn pick_bs(&mut self, op: Op) -> u64 {
        match &self.bs {
            BsGen::Fixed(b) => *b,
            BsGen::Range(lo, hi) => lo * (1 + self.rng.random_range(0..(hi / lo).max(1))),
            BsGen::Split(r, w) => {
                let v = if op == Op::Write { w } else { r };
                let r = self.rng.random_range(0..100u32);
                v.iter()
                    .find(|&&(_, cum)| r < cum)
                    .or(v.last())
                    .map_or(self.min_bs, |&(b, _)| b)
            }
        }
    }

    /// The next I/O: (op, offset, len, fua).
    pub(super) fn next_io(&mut self, now: u64, log: &[LogOp]) -> (Op, u64, u64, bool) {
        let done = self.data_done(now, log);
        if done {
            // No `fsync=N` flush after the last write (see `step`).
            self.flush_pending = false;
        }
        if self.flush_pending || done {
            // The `fsync=N` flush; or, the data done, the end-of-job flush.
            if !self.flush_pending && self.end_flush == EndFlush::Pending {
                self.end_flush = EndFlush::Issued;
            }
            self.flush_pending = false;
            self.writes_since_flush = 0;
            self.flushes += 1;
            return (Op::Flush, 0, 0, false);
        }
        // `rw=trimwrite`: the block just discarded is written next (fio counts the writes'
        // bytes against size, not the trims').
        if let Some((offset, len)) = self.trim.as_mut().and_then(|t| t.write_next.take()) {
            self.issued += 1;
            self.issued_bytes += len;
            return (Op::Write, offset, len, self.fua_writes);
        }
        if self.replay.is_some() {
            return self.replay_next(now, log);
        }
        // The direction first: bssplit may differ for reads and writes.
        let op = match self.rw {
            Rw::Read | Rw::RandRead => Op::Read,
            Rw::Write | Rw::RandWrite => Op::Write,
            Rw::RandRw | Rw::ReadWrite => {
                if self.rng.random_range(0..100u32) < self.rwmixread {
                    Op::Read
                } else {
                    Op::Write
                }
            }
            Rw::Trim | Rw::RandTrim | Rw::TrimWrite => Op::Discard,
        };
        let len = self.pick_bs(op).min(self.region);
        // As fio (get_next_buflen), a variable block size that would run past the bytes left
        // falls back to a size that fits.
        let left = self.bytes_cap.saturating_sub(self.issued_bytes);
        let len = if len > left && left >= self.min_bs {
            left / self.min_bs * self.min_bs
        } else {
            len
        };
        let n = self.issued;
        self.issued += 1;
        self.issued_bytes += len;
        let offset = self.offset_of(n, len);
        if self.rw == Rw::TrimWrite {
            self.issued_bytes -= len;
            if let Some(t) = self.trim.as_mut() {
                t.write_next = Some((self.base + offset, len));
            }
        }
        if op == Op::Write && self.fsync_every > 0 {
            self.writes_since_flush += 1;
            if self.writes_since_flush >= self.fsync_every {
                self.flush_pending = true;
            }
        }
        (
            op,
            self.base + offset,
            len,
            op == Op::Write && self.fua_writes,
        )
    }

    /// The next op of the replayed trace (`read_iolog`): (op, offset, len, fua).
    #[inline]
    pub(super) fn replay_next(&mut self, now: u64, log: &[LogOp]) -> (Op, u64, u64, bool) {
        let Some(r) = &mut self.replay else {
            unreachable!("only a replaying job replays")
        };
        let o = log[r.pos];
        r.pos += 1;
        if r.pos == log.len() && r.loops_left > 0 {
            r.pos = 0;
            r.loops_left -= 1;
            r.pass_t0 = now;
        }
        let op = match o.kind {
            LogOpKind::Read => Op::Read,
            LogOpKind::Write => Op::Write,
            LogOpKind::Discard => Op::Discard,
            LogOpKind::Flush => {
                self.flushes += 1;
                return (Op::Flush, 0, 0, false);
            }
        };
        self.issued += 1;
        self.issued_bytes += o.len;
        (
            op,
            o.offset,
            o.len,
            o.fua || (op == Op::Write && self.fua_writes),
        )
    }

    /// The offset in the job's region of its `n`-th I/O, `len` bytes: a random block or the next
    /// sequential one of its file, then `zonemode=strided`'s zones.
    #[inline]
    fn offset_of(&mut self, n: u64, len: u64) -> u64 {
        let offset = match &self.perm {
            Some(p) => {
                // The draw's place in the current pass of the permutation.
                let draw = self.rand_draws;
                self.rand_draws = if draw + 1 >= self.blocks { 0 } else { draw + 1 };
                let block = match &self.dist {
                    RandomDistribution::Random => p.get(draw),
                    d @ (RandomDistribution::Zoned(_) | RandomDistribution::ZonedAbs(_)) => {
                        dist::zoned(d, &mut self.rng, self.blocks, self.min_bs)
                    }
                    d => p.get(dist::rank(d, &mut self.rng, self.blocks)),
                };
                let off = block * self.min_bs;
                if off + len > self.region {
                    (self.region - len) / self.min_bs * self.min_bs
                } else {
                    off
                }
            }
            None => {
                let f = n % self.nrfiles;
                let pos = &mut self.seq_pos[f as usize];
                if *pos + len > self.file_bytes {
                    *pos = 0;
                }
                let off = f * self.file_bytes + *pos;
                // `rw=read:N` skips N bytes after each I/O (a negative N steps backwards,
                // wrapping to the end of the file).
                let next = *pos as i64 + len as i64 + self.skip;
                *pos = if next < 0 {
                    (self.file_bytes - len) / self.min_bs * self.min_bs
                } else {
                    next as u64
                };
                off
            }
        };
        // `zonemode=strided`: the region's bytes lie in zones, zoneskip bytes apart.
        match self.stride {
            Some((zs, skip)) => offset / zs * (zs + skip) + offset % zs,
            None => offset,
        }
    }
}
