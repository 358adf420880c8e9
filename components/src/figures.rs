//! The latency charts' figures of a run's report (so far): the CDF and fio's percentiles of
//! the completion latency of reads and writes together, the histogram the engine's
//! [`mmcsim_engine::Figures`] holds (the A/B table's p50/p99 read the same one).

use mmcsim_engine::figures::clat_of;
use mmcsim_engine::metrics::histogram::FIO_PERCENTILES;
use mmcsim_engine::Report;

/// The completion latency CDF, (latency ns, fraction of completions at or below it), with
/// p50 and p99 in ns.
pub fn latency_cdf(r: &Report) -> (Vec<(u64, f64)>, u64, u64) {
    let clat = clat_of(r);
    let total = clat.count().max(1) as f64;
    let mut sum = 0u64;
    let cdf = clat
        .buckets()
        .map(|(v, c)| {
            sum += c;
            (v, sum as f64 / total)
        })
        .collect();
    (cdf, clat.percentile(50.0), clat.percentile(99.0))
}

/// Completion latency at fio's default percentiles (p1 ... p99.99), (percentile, ns), from the
/// engine's streamed histogram (fio's buckets); empty before the first completion.
pub fn latency_percentiles(r: &Report) -> Vec<(f64, u64)> {
    let clat = clat_of(r);
    if clat.count() == 0 {
        return Vec::new();
    }
    FIO_PERCENTILES
        .iter()
        .map(|&p| (p, clat.percentile(p)))
        .collect()
}
