//! A sweep's output document (`mmcsim --sweep=`'s `--output-format=json` and `csv`), shared by
//! the CLI and the page's Sweep panel, so a sweep exported from the page is byte for byte what
//! the CLI prints for the same sweep.

use crate::scenario::sweep::{Dim, Row};
use serde::{Deserialize, Serialize};
use std::fmt::Write;

/// A sweep's output: its dimensions, the base scenario's options, and the rows run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepDoc {
    pub dims: Vec<Dim>,
    /// The base scenario as command-line options.
    pub base: Vec<String>,
    /// Points in the whole sweep (all shards).
    pub points: usize,
    /// `I/N` when this is one shard.
    pub shard: Option<String>,
    pub rows: Vec<Row>,
    /// `--sensitivity`'s summary of an A/B sweep (`tools::sensitivity::Sensitivity`); absent
    /// unless asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sensitivity: Option<serde_json::Value>,
}

/// The sweep as JSON (pretty, one trailing newline): `--sweep=... --output-format=json`.
pub fn sweep_json(doc: &SweepDoc) -> String {
    let mut out = serde_json::to_string_pretty(doc).unwrap_or_default();
    out.push('\n');
    out
}

/// The sweep as CSV, one row per point: `--sweep=... --output-format=csv`.
pub fn sweep_csv(doc: &SweepDoc) -> String {
    let mut out = String::new();
    let keys: Vec<&str> = doc.dims.iter().map(|d| d.key.as_str()).collect();
    let _ = writeln!(
        out,
        "index,{},mib_s,iops,p50_us,p99_us,p999_us,interrupts_per_s,requeues",
        keys.join(",")
    );
    for r in &doc.rows {
        let _ = writeln!(
            out,
            "{},{},{:.3},{:.1},{:.2},{:.2},{:.2},{:.1},{}",
            r.index,
            r.values.join(","),
            r.mib_s,
            r.iops,
            r.p50_us,
            r.p99_us,
            r.p999_us,
            r.interrupts_per_s,
            r.requeues
        );
    }
    out
}
