//! The figures of a report, derived in one place: throughput and IOPS (as fio prints them, and
//! over the simulated time so far), the completion latency of reads and writes together,
//! requests per interrupt, bus busy, the bus, software and idle time per request, interrupts
//! per second and refusals. The sweep's rows, the explanations, the tours' words, the A/B
//! table and the readouts read them from here, so two panels never disagree on a figure's
//! definition (as fio's `stat.c` shares `calc_lat` across its printers).

use crate::metrics::histogram::LatencyHistogram;
use crate::report::Report;
use crate::vocab::Stage;

/// What a report (final, or of a run so far) says, every job and both directions together.
#[derive(Clone, Debug, PartialEq)]
pub struct Figures {
    /// Completed reads and writes.
    pub ios: u64,
    /// Requests that finished (`SimStats::requests`: a split I/O is several), the divisor of
    /// the per-request figures below.
    pub requests: u64,
    /// MiB/s as fio prints it: each direction's bytes over its own runtime, summed.
    pub fio_mib_s: f64,
    /// IOPS as fio prints it: each direction's I/Os over its own runtime, summed.
    pub fio_iops: f64,
    /// MiB/s over the simulated time so far (0 before any): what a run in progress shows.
    pub mib_s: f64,
    /// I/Os per second of simulated time so far.
    pub iops: f64,
    /// Completion latency of reads and writes together.
    pub clat: LatencyHistogram,
    /// Requests per interrupt (`SimStats::avg_batch`, the one definition; 0 before the first).
    pub per_irq: f64,
    /// Percent of the simulated time the bus was busy.
    pub bus_busy_pct: f64,
    /// Per request (of at least one): bus and card (command, access, data, busy), µs.
    pub bus_us: f64,
    /// Per request: host software (issue, interrupt, completion), µs.
    pub software_us: f64,
    /// Per request: time the bus was idle, µs.
    pub idle_us: f64,
    /// Per request: time in a host queue slot waiting for the bus, µs.
    pub host_queue_us: f64,
    /// Interrupts, and per second of simulated time (0 before any time).
    pub interrupts: u64,
    pub interrupts_per_s: f64,
    /// Requests `mmc_mq_queue_rq` refused (BLK_STS_RESOURCE).
    pub requeues: u64,
    /// The longest a request has waited in the host queue for the bus, µs.
    pub longest_wait_us: f64,
    /// Requests handed to the driver by the submitting task and by kblockd (who ran
    /// `->queue_rq`: the kernel's rules, `board/kernel_rules.rs`).
    pub issued_by_task: u64,
    pub issued_by_kblockd: u64,
    /// Flush requests completed (REQ_OP_FLUSH).
    pub flushes: u64,
}

/// Completion latency of every job and both directions in one histogram.
pub fn clat_of(report: &Report) -> LatencyHistogram {
    let m = report.merged();
    let mut clat = m.read.clat;
    clat.merge(&m.write.clat);
    clat
}

impl Figures {
    /// The figures of `report`.
    pub fn of(report: &Report) -> Figures {
        let m = report.merged();
        let s = &report.sim;
        let ios = m.read.total_ios + m.write.total_ios;
        let per_request = s.requests.max(1) as f64;
        let per = |st: Stage| s.stage_per_request(st) / 1000.0;
        let secs = s.simulated_ns as f64 / 1e9;
        let per_sec = |n: f64| if secs > 0.0 { n / secs } else { 0.0 };
        let bus_busy_pct = s.bus_busy_pct();
        Figures {
            ios,
            requests: s.requests,
            fio_mib_s: m.read.mib_s() + m.write.mib_s(),
            fio_iops: m.read.iops() + m.write.iops(),
            mib_s: per_sec((m.read.io_bytes + m.write.io_bytes) as f64) / 1_048_576.0,
            iops: per_sec(ios as f64),
            clat: clat_of(report),
            per_irq: s.avg_batch(),
            bus_busy_pct,
            bus_us: per(Stage::Command)
                + per(Stage::CardAccess)
                + per(Stage::Data)
                + per(Stage::CardBusy),
            software_us: per(Stage::Issue)
                + per(Stage::Irq)
                + per(Stage::Softirq)
                + per(Stage::Complete),
            idle_us: s.simulated_ns as f64 * (1.0 - bus_busy_pct / 100.0) / per_request / 1000.0,
            host_queue_us: per(Stage::HostQueue),
            interrupts: s.interrupts,
            interrupts_per_s: per_sec(s.interrupts as f64),
            requeues: s.requeues,
            longest_wait_us: s.longest_host_wait.0 as f64 / 1e3,
            issued_by_task: s.issued_direct,
            issued_by_kblockd: s.issued_by_kblockd,
            flushes: s.flushes,
        }
    }

    /// Completion latency at percentile `p` of reads and writes together, µs.
    pub fn clat_us(&self, p: f64) -> f64 {
        self.clat.percentile(p) as f64 / 1e3
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A mixed run: the latency of all I/O holds every read and every write, the per-request
    /// figures add up to no more than the run, and a report with nothing done reads as zeros
    /// rather than as NaN or infinity.
    #[test]
    fn the_figures_of_a_mixed_run_cover_reads_and_writes_and_an_empty_one_is_zero() {
        let mut scn = crate::Scenario::default();
        scn.jobs[0].rw = crate::Rw::RandRw;
        scn.jobs[0].size = 1 << 20;
        let rep = crate::run(&scn).unwrap();
        let f = Figures::of(&rep);
        let m = rep.merged();
        assert!(m.read.total_ios > 0 && m.write.total_ios > 0);
        assert_eq!(f.ios, m.read.total_ios + m.write.total_ios);
        assert_eq!(f.clat.count(), f.ios, "latency of all I/O");
        assert!(f.clat_us(50.0) <= f.clat_us(99.0));
        assert!(f.mib_s > 0.0 && f.iops > 0.0 && f.per_irq >= 1.0);
        let ns = rep.sim.simulated_ns as f64 / 1e3;
        assert!(
            (f.bus_us + f.idle_us) * f.requests as f64 <= ns * 1.0001,
            "{f:?}"
        );

        let empty = Figures::of(&Report::default());
        assert_eq!((empty.ios, empty.requeues, empty.interrupts), (0, 0, 0));
        for v in [
            empty.mib_s,
            empty.iops,
            empty.interrupts_per_s,
            empty.idle_us,
            empty.per_irq,
        ] {
            assert_eq!(v, 0.0);
        }
    }
}
