//! The time series ([`Simulator::series`]) as CSV: RFC 4180 fields (plain numbers, no quoting
//! needed), a header row, one row per bucket, `\n` line ends. Columns: bucket start in ms, total
//! MiB/s, IOPS, read and write MiB/s, and the average number of requests in flight (past blk-mq,
//! not yet completed) over the bucket.

use crate::metrics::SeriesPoint;
use crate::{Scenario, ScenarioError, Simulator};
use std::fmt::Write;

/// The header row.
pub const CSV_HEADER: &str = "t_ms,mib_s,iops,read_mib_s,write_mib_s,avg_inflight";

fn mib_s(bytes: u64, width_ns: u64) -> f64 {
    if width_ns == 0 {
        0.0
    } else {
        bytes as f64 * 1e9 / width_ns as f64 / 1_048_576.0
    }
}

/// The CSV of `points`: the header and one row per point.
pub fn series_csv_of(points: &[SeriesPoint]) -> String {
    let mut out = String::with_capacity(64 * (points.len() + 1));
    out.push_str(CSV_HEADER);
    out.push('\n');
    for p in points {
        let w = p.width_ns;
        let per_s = |v: f64| if w == 0 { 0.0 } else { v * 1e9 / w as f64 };
        let _ = writeln!(
            out,
            "{:.3},{:.3},{:.1},{:.3},{:.3},{:.3}",
            p.t_ns as f64 / 1e6,
            mib_s(p.read_bytes + p.write_bytes, w),
            per_s(p.ios as f64),
            mib_s(p.read_bytes, w),
            mib_s(p.write_bytes, w),
            per_s(p.inflight_ns as f64 / 1e9),
        );
    }
    out
}

/// Runs `scn` to the end and returns its time series as CSV.
pub fn series_csv(scn: &Scenario) -> Result<String, ScenarioError> {
    let mut sim = Simulator::new(scn)?;
    sim.run_to_end();
    Ok(series_csv_of(&sim.series()))
}
