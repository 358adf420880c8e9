//! The figures a finished run gives (per request, per side) and the words the texts say about
//! them: every comparison word is chosen from the two numbers printed beside it
//! (`claims.rs` checks that they agree).

use mmcsim_engine::calibration::Case;
use mmcsim_engine::scenario::units::format_latency_ns;
use mmcsim_engine::{Report, Scenario};

use crate::run::session::{RunError, Session};

/// What a finished run says about batching, per side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Figures {
    /// The case's figure in the series' unit (MiB/s or KiB/s).
    pub figure: f64,
    /// Requests per interrupt (0 before the first; `SimStats::avg_batch`, the one definition).
    pub per_irq: f64,
    pub bus_busy_pct: f64,
    /// Per request: bus and card, and host software (issue, interrupt, completion), µs.
    pub bus_us: f64,
    pub software_us: f64,
    /// Bus idle time per request, µs.
    pub idle_us: f64,
    /// Requests `mmc_mq_queue_rq` refused (BLK_STS_RESOURCE).
    pub requeues: u64,
    /// Interrupts so far.
    pub interrupts: u64,
    /// The longest a request has waited in the host queue for the bus so far, µs.
    pub longest_wait_us: f64,
    /// Time per request in a host queue slot waiting for the bus, µs.
    pub host_queue_us: f64,
    /// Completion latency p50 of reads and writes together, ns (the A/B table's "clat p50").
    pub clat_p50_ns: u64,
    /// Requests finished so far: what the per-request figures are over.
    pub requests: u64,
    /// Reads completed so far (fio's read `total_ios`, every job), and bytes written.
    pub reads: u64,
    pub write_bytes: u64,
    /// Requests handed to the driver so far by the submitting tasks and by kblockd (the
    /// kernel's rules: `board/kernel_rules.rs`), and flush requests completed.
    pub by_task: u64,
    pub by_kblockd: u64,
    pub flushes: u64,
}

impl Figures {
    /// The figures of a report (`figure` from the case when given, else total MiB/s), read
    /// off the engine's [`mmcsim_engine::Figures`].
    pub fn of(report: &Report, figure: Option<f64>) -> Figures {
        let f = mmcsim_engine::Figures::of(report);
        Figures {
            figure: figure.unwrap_or(f.fio_mib_s),
            // Requests handed to the controller per interrupt (the engine's batch histogram):
            // right from the first interrupt, where completed requests lag behind.
            per_irq: f.per_irq,
            bus_busy_pct: f.bus_busy_pct,
            bus_us: f.bus_us,
            software_us: f.software_us,
            idle_us: f.idle_us,
            requeues: f.requeues,
            interrupts: f.interrupts,
            longest_wait_us: f.longest_wait_us,
            host_queue_us: f.host_queue_us,
            clat_p50_ns: f.clat.percentile(50.0),
            requests: f.requests,
            reads: report.merged().read.total_ios,
            write_bytes: report.merged().write.io_bytes,
            by_task: f.issued_by_task,
            by_kblockd: f.issued_by_kblockd,
            flushes: f.flushes,
        }
    }
}

/// Fewest requests a per-request figure of a moment is over: a tour's moment comes no earlier
/// than each side's this many finished requests (an average of three says little).
pub const MIN_REQUESTS: u64 = 16;

/// At or above this share of busy time the bus strip reads as solid: the bus and card are the
/// bottleneck, and a text may not call the bus idle.
pub const BUS_BOUND_PCT: f64 = 80.0;

/// How the bus spends a run, in words that follow its busy share: "idle ... between transfers"
/// only when it is, "busy" with the figure otherwise.
pub fn bus_state(f: &Figures) -> String {
    if f.bus_busy_pct >= BUS_BOUND_PCT {
        format!(
            "the bus is busy {:.0} % of the time (idle {:.1} µs per request): the bus and card are the bottleneck",
            f.bus_busy_pct, f.idle_us
        )
    } else {
        format!(
            "the bus is idle {:.1} µs per request between transfers (busy {:.0} % of the time)",
            f.idle_us, f.bus_busy_pct
        )
    }
}

/// A figure in `unit` as the page's tables print it: MiB/s with two decimals (the A/B table's
/// and the results' rounding, issue 50: a text's 86.1 beside the table's 85.76), else one.
pub fn fig(v: f64, unit: &str) -> String {
    if unit == "MiB/s" {
        format!("{v:.2}")
    } else {
        format!("{v:.1}")
    }
}

/// "B 1.05x faster (A 82.90 vs B 87.10 MiB/s)": the word from the two figures (within 1 %:
/// "about as fast").
pub fn speed_words(fa: f64, fb: f64, unit: &str) -> String {
    let r = fb / fa.max(1e-9);
    let word = if r >= 1.01 {
        format!("B {r:.2}x faster")
    } else if r <= 0.99 {
        format!("B {:.2}x slower", 1.0 / r.max(1e-9))
    } else {
        "B about as fast".to_string()
    };
    format!("{word} (A {} vs B {} {unit})", fig(fa, unit), fig(fb, unit))
}

/// Refusals of B against A, the word from the counts: "B had about as many refusals as A
/// (A 16372 vs B 16369)" ("refused" is the page's one name for BLK_STS_RESOURCE).
pub fn refusal_words(fa: &Figures, fb: &Figures) -> String {
    let w = mmcsim_engine::explain::more_fewer(fb.requeues, fa.requeues);
    let (w, than) = if w == "about as many" {
        (w, "as")
    } else {
        (w, "than")
    };
    format!(
        "B had {w} refusals {than} A (A {} vs B {})",
        fa.requeues, fb.requeues
    )
}

/// What a finished run of a reader beside writers gives each side (the scheduler and the
/// kernel lessons): the reader's mean completion latency (µs) and reads per second, the
/// writers' MiB/s and mean completion latency (µs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Jobs {
    pub read_clat_us: f64,
    pub read_iops: f64,
    pub write_mib_s: f64,
    pub write_clat_us: f64,
}

impl Jobs {
    pub fn of(r: &Report) -> Jobs {
        let m = r.merged();
        Jobs {
            read_clat_us: m.read.clat.mean() / 1e3,
            read_iops: m.read.iops(),
            write_mib_s: m.write.mib_s(),
            write_clat_us: m.write.clat.mean() / 1e3,
        }
    }
}

/// Runs a scenario to its end (unwatched: no trace) and gives its report.
pub fn run_report(scn: &Scenario) -> Result<Report, RunError> {
    let mut s = Session::start(scn)?;
    while !s.run_events(1 << 20) {}
    Ok(s.report())
}

/// Runs a scenario to its end (unwatched: no trace) and reads its figures.
pub fn run_figures(case: &Case, scn: &Scenario) -> Result<Figures, RunError> {
    let r = run_report(scn)?;
    Ok(Figures::of(&r, case.figure(scn, &r)))
}

/// "shorter than" / "longer than" / "about as long as" for `b` against `a` (within 5 %).
pub fn shorter_longer(b: f64, a: f64) -> &'static str {
    mmcsim_engine::explain::relation(b, a)
}

/// "less" / "more" / "about as long" for a wait `b` against `a` (within 5 %).
pub fn less_more(b: f64, a: f64) -> &'static str {
    match mmcsim_engine::explain::relation(b, a) {
        "longer than" => "longer",
        "shorter than" => "less",
        _ => "about as long",
    }
}

/// "A 1778 µs vs B 3293 µs (+85.3 %)": the completion latency's median (clat p50) of both sides
/// and B's change against A, as the A/B table shows them at the end of the run.
pub fn p50_words(fa: &Figures, fb: &Figures) -> String {
    let (a, b) = (fa.clat_p50_ns as f64, fb.clat_p50_ns as f64);
    let change = (b - a) / a.max(1.0) * 100.0;
    format!(
        "A {} vs B {} ({change:+.1} %)",
        format_latency_ns(fa.clat_p50_ns),
        format_latency_ns(fb.clat_p50_ns)
    )
}

/// Milliseconds from 10 ms up, else microseconds (as the results table writes latencies).
pub fn lat(us: f64) -> String {
    if us >= 10_000.0 {
        format!("{:.1} ms", us / 1e3)
    } else {
        format!("{us:.0} µs")
    }
}
