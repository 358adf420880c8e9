//! When a fio job issues its next I/O (fio's `rate_ddir`, `handle_thinktime`,
//! `runtime_exceeded`): `rate`, `rate_iops`, `thinktime`, a replayed trace's timestamps, the
//! queue depth, and when the job is done (`size`, `number_ios`, `runtime`).

use super::{EndFlush, Job, Step};
use crate::scenario::iolog::LogOp;

impl Job {
    pub(super) fn stats_t0(&self) -> u64 {
        self.t_start.unwrap_or(0) + self.ramp_ns
    }

    /// When `runtime` ends, if it is set.
    pub(super) fn deadline(&self) -> Option<u64> {
        self.runtime_ns.map(|rt| self.stats_t0() + rt)
    }

    /// No more data I/O will be issued.
    #[inline]
    pub(super) fn data_done(&self, now: u64, log: &[LogOp]) -> bool {
        // The caps are u64::MAX when unset (one compare each on the per-I/O path).
        if self.stopped || now >= self.deadline_at || self.issued >= self.ios_cap {
            return true;
        }
        if let Some(r) = &self.replay {
            return r.pos >= log.len();
        }
        self.issued_bytes >= self.bytes_cap
    }

    /// What the job does next at `now` (`log`: the trace it replays, if any).
    #[inline]
    pub(super) fn step(&self, now: u64, log: &[LogOp]) -> Step {
        if self.inflight >= self.outstanding_max
            || self.reap_wait > 0
            || self.t_start.is_none_or(|t| now < t)
        {
            return Step::Wait;
        }
        // fio carries the `fsync=N` flush in the io_u after the N-th write: after a job's last
        // write there is none, so no flush (255 for 256 writes with fsync=1, as the kernel saw).
        if self.flush_pending && !self.data_done(now, log) {
            // fio waits for the writes before the fsync (the flush is issued alone).
            return if self.inflight == 0 {
                Step::Issue
            } else {
                Step::Wait
            };
        }
        if self.data_done(now, log) {
            return match (self.end_flush, self.inflight) {
                (EndFlush::Pending, 0) if !self.stopped => Step::Issue,
                (_, 0) => Step::Done,
                _ => Step::Wait,
            };
        }
        if !self.paced {
            return Step::Issue;
        }
        let t0 = self.t_start.unwrap_or(0);
        let mut at = self.think_until;
        if self.rate > 0 {
            let t =
                t0 + (u128::from(self.issued_bytes) * 1_000_000_000 / u128::from(self.rate)) as u64;
            at = at.max(t);
        }
        if self.rate_iops > 0 {
            let t =
                t0 + (u128::from(self.issued) * 1_000_000_000 / u128::from(self.rate_iops)) as u64;
            at = at.max(t);
        }
        if let Some(r) = self.replay.as_ref().filter(|r| !r.no_stall) {
            at = at.max(r.pass_t0 + log[r.pos].t_ns);
        }
        if at > now {
            let at = self.deadline().map_or(at, |d| at.min(d));
            return Step::At(at.max(now + 1));
        }
        Step::Issue
    }

    /// Whether the job may start another I/O at `now`.
    #[cfg(test)]
    pub fn can_issue(&self, now: u64) -> bool {
        self.step(now, &[]) == Step::Issue
    }
}
