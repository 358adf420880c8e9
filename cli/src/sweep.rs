//! `--sweep=KEY=VALUES`: run a scenario at every point of one or two option ranges, in parallel
//! on every core (rayon; `RAYON_NUM_THREADS=1` for one), and print one row per point.
//!
//! Values: a list (`packed=0,2,4,8`, `hsq_depth=2,dynamic`) or an inclusive range with an
//! optional step (`hsq_depth=1..16`, `nand_read_us=50..200:25`, decimals allowed). Each point is
//! the base scenario with the sweep's options applied through the engine's one option parser,
//! then checked, so a point runs exactly as the same options given on their own would (same
//! seed, same numbers). `--shard=I/N` runs every N-th point starting at the I-th, and its JSON
//! output can be joined with `--merge`.

use crate::args::Format;
use mmcsim_engine::scenario::options::{apply_option, lookup, OptionScope};
use mmcsim_engine::{Report, Scenario, Simulator};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::fmt::Write;

/// Most points one sweep may have.
pub const MAX_POINTS: usize = 10_000;

/// One sweep dimension: an option and its values, as option text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dim {
    pub key: String,
    pub values: Vec<String>,
}

/// A decimal as an integer count of 10^-`dec` units.
fn fixed(text: &str, dec: usize) -> Option<i128> {
    let (int, frac) = text.split_once('.').unwrap_or((text, ""));
    if frac.len() > dec || int.is_empty() && frac.is_empty() {
        return None;
    }
    let digits = format!("{int}{frac:0<dec$}");
    digits.parse().ok()
}

fn decimals(text: &str) -> usize {
    text.split_once('.').map_or(0, |(_, f)| f.len())
}

fn format_fixed(v: i128, dec: usize) -> String {
    if dec == 0 {
        return v.to_string();
    }
    let scale = 10i128.pow(dec as u32);
    let frac = format!("{:0dec$}", (v % scale).abs());
    let frac = frac.trim_end_matches('0');
    if frac.is_empty() {
        (v / scale).to_string()
    } else {
        format!("{}.{}", v / scale, frac)
    }
}

/// `A..B` or `A..B:STEP`, inclusive, as value texts.
fn range(spec: &str) -> Option<Result<Vec<String>, String>> {
    let (a, rest) = spec.split_once("..")?;
    let (b, step) = rest.split_once(':').unwrap_or((rest, "1"));
    let dec = decimals(a).max(decimals(b)).max(decimals(step));
    let bad =
        || format!("'{spec}' is not a range; accepted: A..B or A..B:STEP, e.g. 1..16, 50..200:25");
    let (Some(a), Some(b), Some(s)) = (fixed(a, dec), fixed(b, dec), fixed(step, dec)) else {
        return Some(Err(bad()));
    };
    if s <= 0 || b < a {
        return Some(Err(bad()));
    }
    let n = (b - a) / s + 1;
    if n > MAX_POINTS as i128 {
        return Some(Err(format!(
            "'{spec}' has {n} points; at most {MAX_POINTS}"
        )));
    }
    Some(Ok((0..n).map(|i| format_fixed(a + i * s, dec)).collect()))
}

/// Parses one `--sweep=` value.
pub fn parse_dim(spec: &str) -> Result<Dim, String> {
    let (key, values) = spec.split_once('=').ok_or_else(|| {
        format!("sweep: '{spec}' is not KEY=VALUES; accepted: e.g. hsq_depth=1..16, packed=0,2,4,8")
    })?;
    let row = lookup(key).ok_or_else(|| format!("sweep: '{key}' is not an option; see --help"))?;
    if row.name == "name" {
        return Err("sweep: name cannot be swept".to_string());
    }
    let values = match range(values) {
        Some(r) => r.map_err(|e| format!("sweep: {key}: {e}"))?,
        None => values.split(',').map(|v| v.trim().to_string()).collect(),
    };
    if values.iter().any(|v| v.is_empty()) {
        return Err(format!("sweep: {key}: an empty value in '{spec}'"));
    }
    Ok(Dim {
        key: row.name.to_string(),
        values,
    })
}

/// Every point's values, the first dimension outermost.
pub fn points(dims: &[Dim]) -> Vec<Vec<String>> {
    let mut out = vec![Vec::new()];
    for d in dims {
        out = out
            .into_iter()
            .flat_map(|p| {
                d.values.iter().map(move |v| {
                    let mut q = p.clone();
                    q.push(v.clone());
                    q
                })
            })
            .collect();
    }
    out
}

/// The scenario of one point: `base` with the point's options applied and checked.
pub fn point_scenario(
    base: &Scenario,
    dims: &[Dim],
    values: &[String],
) -> Result<Scenario, String> {
    let mut s = base.clone();
    let at = || {
        let kv: Vec<String> = dims
            .iter()
            .zip(values)
            .map(|(d, v)| format!("{}={}", d.key, v))
            .collect();
        format!("sweep point {}", kv.join(" "))
    };
    for (d, v) in dims.iter().zip(values) {
        apply_option(&mut s, OptionScope::Global, &d.key, Some(v))
            .map_err(|e| format!("{}: {}", at(), e))?;
    }
    mmcsim_engine::scenario::check(&s).map_err(|e| format!("{}: {}", at(), e))?;
    Ok(s)
}

/// The figures of one point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// Position in the whole sweep (0-based), so shards merge in order.
    pub index: usize,
    pub values: Vec<String>,
    pub mib_s: f64,
    pub iops: f64,
    /// Completion latency percentiles (reads and writes together), microseconds.
    pub p50_us: f64,
    pub p99_us: f64,
    pub p999_us: f64,
    pub interrupts_per_s: f64,
    pub requeues: u64,
}

impl Row {
    pub fn of(index: usize, values: Vec<String>, r: &Report) -> Row {
        let m = r.merged();
        let mut clat = m.read.clat.clone();
        clat.merge(&m.write.clat);
        let secs = r.sim.simulated_ns.max(1) as f64 / 1e9;
        Row {
            index,
            values,
            mib_s: m.read.mib_s() + m.write.mib_s(),
            iops: m.read.iops() + m.write.iops(),
            p50_us: clat.percentile(50.0) as f64 / 1e3,
            p99_us: clat.percentile(99.0) as f64 / 1e3,
            p999_us: clat.percentile(99.9) as f64 / 1e3,
            interrupts_per_s: r.sim.interrupts as f64 / secs,
            requeues: r.sim.requeues,
        }
    }
}

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
}

/// Runs the sweep's points (the shard's, if any) in parallel.
pub fn run(
    base: &Scenario,
    dims: Vec<Dim>,
    shard: Option<(usize, usize)>,
) -> Result<SweepDoc, String> {
    let all = points(&dims);
    if all.len() > MAX_POINTS {
        return Err(format!("sweep: {} points; at most {MAX_POINTS}", all.len()));
    }
    let mine: Vec<(usize, Vec<String>)> = all
        .iter()
        .cloned()
        .enumerate()
        .filter(|(i, _)| shard.is_none_or(|(k, n)| i % n == k - 1))
        .collect();
    // Every point is checked before any runs: a bad one stops the sweep with its message.
    let scns = mine
        .iter()
        .map(|(_, v)| point_scenario(base, &dims, v))
        .collect::<Result<Vec<_>, _>>()?;
    let rows = mine
        .into_par_iter()
        .zip(scns.into_par_iter())
        .map(|((i, values), s)| {
            let mut sim = Simulator::new(&s).map_err(|e| e.to_string())?;
            sim.run_to_end();
            Ok(Row::of(i, values, &sim.report()))
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(SweepDoc {
        dims,
        base: base.to_args(),
        points: all.len(),
        shard: shard.map(|(i, n)| format!("{i}/{n}")),
        rows,
    })
}

/// Joins shards' JSON outputs (texts with their file names) into one sweep.
pub fn merge(files: &[(String, String)]) -> Result<SweepDoc, String> {
    let mut out: Option<SweepDoc> = None;
    for (name, text) in files {
        let doc: SweepDoc = serde_json::from_str(text)
            .map_err(|e| format!("merge: '{name}' is not a sweep JSON output: {e}"))?;
        match &mut out {
            None => out = Some(SweepDoc { shard: None, ..doc }),
            Some(o) => {
                if o.dims != doc.dims || o.base != doc.base || o.points != doc.points {
                    return Err(format!("merge: '{name}' is a different sweep"));
                }
                o.rows.extend(doc.rows);
            }
        }
    }
    let mut doc = out.ok_or("merge: no sweep JSON files given")?;
    doc.rows.sort_by_key(|r| r.index);
    doc.rows.dedup_by_key(|r| r.index);
    let missing: Vec<String> = (0..doc.points)
        .filter(|i| doc.rows.binary_search_by_key(i, |r| r.index).is_err())
        .map(|i| i.to_string())
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "merge: {} of {} points missing (indices {}); run their shards",
            missing.len(),
            doc.points,
            missing
                .iter()
                .take(10)
                .cloned()
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    Ok(doc)
}

/// The sweep as a table, CSV or JSON.
pub fn render(doc: &SweepDoc, format: Format) -> String {
    let mut out = String::new();
    match format {
        Format::Json => {
            out = serde_json::to_string_pretty(doc).unwrap_or_default();
            out.push('\n');
        }
        Format::Csv => {
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
        }
        Format::Normal => {
            let _ = writeln!(
                out,
                "sweep of {} point(s){}: {}",
                doc.points,
                doc.shard
                    .as_ref()
                    .map(|s| format!(", shard {s}"))
                    .unwrap_or_default(),
                if doc.base.is_empty() {
                    "defaults".to_string()
                } else {
                    doc.base.join(" ")
                }
            );
            for d in &doc.dims {
                let _ = write!(out, "{:>12} ", d.key);
            }
            let _ = writeln!(
                out,
                "{:>9} {:>9} {:>9} {:>9} {:>9} {:>10} {:>9}",
                "MiB/s", "IOPS", "p50 us", "p99 us", "p99.9 us", "irq/s", "requeues"
            );
            for r in &doc.rows {
                for v in &r.values {
                    let _ = write!(out, "{:>12} ", v);
                }
                let _ = writeln!(
                    out,
                    "{:>9.2} {:>9.0} {:>9.1} {:>9.1} {:>9.1} {:>10.0} {:>9}",
                    r.mib_s, r.iops, r.p50_us, r.p99_us, r.p999_us, r.interrupts_per_s, r.requeues
                );
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_lists_and_products() {
        assert_eq!(
            parse_dim("hsq_depth=1..4").unwrap().values,
            ["1", "2", "3", "4"]
        );
        assert_eq!(
            parse_dim("packed=0,2,4,8").unwrap().values,
            ["0", "2", "4", "8"]
        );
        assert_eq!(
            parse_dim("nand_read_us=50..100:25").unwrap().values,
            ["50", "75", "100"]
        );
        assert_eq!(
            parse_dim("bus_cmd_us=0.5..1.5:0.25").unwrap().values,
            ["0.5", "0.75", "1", "1.25", "1.5"]
        );
        assert_eq!(
            parse_dim("hsq_depth=2,dynamic").unwrap().values,
            ["2", "dynamic"]
        );
        assert_eq!(parse_dim("blocksize=4k,8k").unwrap().key, "bs");
        assert!(parse_dim("hsq_depth=4..1")
            .unwrap_err()
            .contains("not a range"));
        assert!(parse_dim("hsq_depth=1..4:0").is_err());
        assert!(parse_dim("nope=1,2").unwrap_err().contains("not an option"));
        assert!(parse_dim("hsq_depth").is_err());
        let dims = [
            parse_dim("packed=0,8").unwrap(),
            parse_dim("bs=4k,8k,16k").unwrap(),
        ];
        let p = points(&dims);
        assert_eq!(p.len(), 6);
        assert_eq!(p[1], ["0", "8k"]);
    }

    #[test]
    fn a_bad_point_names_itself() {
        let dims = [parse_dim("packed=0,16").unwrap()];
        let e = run(&Scenario::default(), dims.to_vec(), None).unwrap_err();
        assert!(e.starts_with("sweep point packed=16: packed:"), "{e}");
    }

    #[test]
    fn shards_merge_into_the_whole_sweep() {
        let base = mmcsim_engine::scenario::options::parse_args(
            &["--rw=randwrite", "--size=256k", "--numjobs=4"],
            Scenario::default(),
        )
        .unwrap();
        let dims = vec![parse_dim("hsq_depth=1..5").unwrap()];
        let whole = run(&base, dims.clone(), None).unwrap();
        let shards: Vec<(String, String)> = (1..=3)
            .map(|i| {
                let d = run(&base, dims.clone(), Some((i, 3))).unwrap();
                (format!("s{i}"), render(&d, Format::Json))
            })
            .collect();
        assert_eq!(merge(&shards).unwrap(), whole);
        assert!(merge(&shards[..2])
            .unwrap_err()
            .contains("1 of 5 points missing"));
    }

    #[test]
    fn a_sweep_over_hsq_depth_reproduces_the_calibrated_points_as_single_runs_do() {
        use mmcsim_engine::calibration::{run_case, CASES};
        use mmcsim_engine::Rw;
        // unisoc-hsq-2023, 8 psync jobs of 4 KiB random writes: depth 2 (A) and dynamic (B).
        let case = CASES
            .iter()
            .find(|c| c.platform == "unisoc-hsq-2023" && c.rw == Rw::RandWrite)
            .unwrap();
        let size = 16 << 20;
        let mut base = case.scenario(false, size);
        base.host.hsq_depth = None;
        let doc = run(&base, vec![parse_dim("hsq_depth=2,dynamic").unwrap()], None).unwrap();
        let single = |b: bool| {
            let s = case.scenario(b, size);
            let mut sim = Simulator::new(&s).unwrap();
            sim.run_to_end();
            Row::of(0, Vec::new(), &sim.report())
        };
        for (row, b) in doc.rows.iter().zip([false, true]) {
            let one = single(b);
            assert_eq!(
                (row.mib_s, row.iops, row.p99_us, row.requeues),
                (one.mib_s, one.iops, one.p99_us, one.requeues),
                "hsq_depth={}",
                row.values[0]
            );
        }
        // And they are the calibration's figures, within its tolerance of the measurement.
        let cal = run_case(case, Some(size)).unwrap();
        assert_eq!((doc.rows[0].mib_s, doc.rows[1].mib_s), cal.simulated);
        let (ea, eb) = cal.error_pct();
        assert!(
            ea.abs() <= 15.0 && eb.abs() <= 15.0,
            "{:?}",
            cal.error_pct()
        );
    }
}
