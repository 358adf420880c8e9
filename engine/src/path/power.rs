//! Power loss (what `mmc_blk` and the card's cache lose; no kernel function: the supply fails):
//! the supply fails at a point of simulated time. The card loses whatever sits only
//! in its volatile cache; requests in flight fail. What matters to a user is which writes the
//! jobs had already been told were done (acknowledged) and are now gone: a write acknowledged
//! from the cache (no FUA, no flush since) can be lost; a reliable write (REQ_FUA with the
//! queue advertising FUA), a REQ_FUA write without FUA (acknowledged only after its
//! post-flush, `blk_flush.rs`), a write covered by a completed flush, or any write with the
//! cache off cannot. The unit is the I/O, as fio counts it: an I/O is acknowledged once its
//! whole I/O completed to the job (every request of a split I/O, and its post-flushes); data a
//! later trim unmapped (at either end, or one hole inside) is not lost data.

use std::collections::HashSet;

use crate::report::PowerCutReport;
use crate::sim::Simulator;

impl Simulator {
    /// `Event::PowerCut` (or the caller's plug): the power fails now. The run ends; the report
    /// says which acknowledged writes were lost.
    pub(crate) fn power_fail(&mut self) {
        if self.power_cut.is_some() {
            return;
        }
        let now = self.now;
        let lost = self.card.power_cut(now);
        // I/Os not completed to their job: a request of theirs is still in the slab (in
        // flight, or done and waiting for its post-flush), or a split I/O with requests left.
        let open: HashSet<u64> = self
            .reqs
            .iter()
            .map(|(_, r)| r.io())
            .chain(self.split.keys().copied())
            .collect();
        let mut report = PowerCutReport {
            at_ns: now,
            ..Default::default()
        };
        // The I/Os lost, each once: a list sorted afterwards (8 bytes an I/O; a set took
        // several times that for the million extents of a 512 MiB cache of 512-byte writes).
        let mut lost_ios = Vec::new();
        for e in lost.iter().filter(|e| !open.contains(&e.req)) {
            for range in e.lost_ranges() {
                if lost_ios.last() != Some(&e.req) {
                    lost_ios.push(e.req);
                }
                report.lost_acked_bytes += range.1;
                report.lost_ranges_total += 1;
                if report.lost_ranges.len() < PowerCutReport::MAX_RANGES {
                    report.lost_ranges.push(range);
                }
            }
        }
        drop(lost);
        lost_ios.sort_unstable();
        lost_ios.dedup();
        report.lost_acked_writes = lost_ios.len() as u64;
        report.truncated = report.lost_ranges_total > report.lost_ranges.len() as u64;
        report.lost_requests = lost_ios
            .iter()
            .take(PowerCutReport::MAX_RANGES)
            .copied()
            .collect();
        report.acked_writes = self.jobs.iter().map(|j| j.acked_writes()).sum::<u64>()
            + self.mmc_test.as_ref().map_or(0, |t| t.acked_writes());
        report.acked_reliable_writes = self.acked_reliable_writes;
        self.fail_in_flight(&mut report);
        self.q.clear();
        self.power_cut = Some(report);
    }

    /// Every request still in the slab fails; fio counts one error per I/O (a split I/O, or a
    /// write waiting for its post-flush, is one I/O).
    fn fail_in_flight(&mut self, report: &mut PowerCutReport) {
        let ids: Vec<_> = self.reqs.iter().map(|(i, _)| i).collect();
        report.failed_in_flight = ids.len() as u64;
        let mut mmc_test_failed = 0;
        let mut failed_ios = HashSet::new();
        for i in ids {
            let r = self.reqs.get_mut(i);
            r.failed = true;
            let job = r.job as usize;
            if r.from_mmc_test {
                mmc_test_failed += 1;
            } else if failed_ios.insert(r.io()) {
                if let Some(j) = self.jobs.get_mut(job) {
                    j.count_error();
                }
            }
        }
        // mmc_test: the transfer size in progress is reported like any other, cut short.
        if let Some(t) = self.mmc_test.as_mut() {
            t.cut(self.now, mmc_test_failed);
        }
    }
}
