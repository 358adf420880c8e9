//! Sweeps: one or two options swept over lists or ranges (`hsq_depth=1..16`, `packed=0,2,4,8`,
//! `nand_read_us=50..200:25`), each point the base scenario with the point's options applied by
//! the one option parser, so a point runs exactly as the same options given alone would. The
//! CLI runs the points in parallel (`mmcsim --sweep=`), the page in Web Workers; both read
//! the points and figures from here.
//! Running a point is the simulator's work, on the top floor: `tools::sweep` (`run_point`,
//! `PointJob::run`).

use super::options::{apply_option, lookup, OptionScope};
use super::Scenario;
use crate::figures::Figures;
use crate::report::Report;
use serde::{Deserialize, Serialize};

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

/// Most dimensions one sweep may have.
pub const MAX_DIMS: usize = 2;

/// The number of points of `dims` (the product of their value counts), checked before any point
/// is built: more than [`MAX_DIMS`] dimensions, a key swept twice, or more than [`MAX_POINTS`]
/// points is refused, whatever the product would be.
pub fn point_count(dims: &[Dim]) -> Result<usize, String> {
    if dims.len() > MAX_DIMS {
        return Err(format!(
            "sweep: {} dimensions; at most {MAX_DIMS}",
            dims.len()
        ));
    }
    for (i, d) in dims.iter().enumerate() {
        if dims[..i].iter().any(|e| e.key == d.key) {
            return Err(format!(
                "sweep: {} is swept twice; give each option one --sweep (a list or a range)",
                d.key
            ));
        }
    }
    let mut n: usize = 1;
    for d in dims {
        n = n.saturating_mul(d.values.len());
    }
    if n > MAX_POINTS {
        let axes: Vec<String> = dims.iter().map(|d| d.values.len().to_string()).collect();
        return Err(format!(
            "sweep: {} points ({}); at most {MAX_POINTS}",
            if n == usize::MAX {
                "too many".to_string()
            } else {
                n.to_string()
            },
            axes.join(" x ")
        ));
    }
    Ok(n)
}

/// The values of point `index` (0-based, the first dimension outermost), built alone: a shard
/// builds only its own points.
pub fn point_values(dims: &[Dim], index: usize) -> Vec<String> {
    let mut rest = index;
    let mut out = vec![String::new(); dims.len()];
    for (k, d) in dims.iter().enumerate().rev() {
        let n = d.values.len().max(1);
        out[k] = d.values[rest % n].clone();
        rest /= n;
    }
    out
}

/// Every point's values, the first dimension outermost. Callers check [`point_count`] first;
/// past [`MAX_POINTS`] this stops at `MAX_POINTS + 1` points, so no grid is built whole.
pub fn points(dims: &[Dim]) -> Vec<Vec<String>> {
    let n = dims
        .iter()
        .fold(1usize, |n, d| n.saturating_mul(d.values.len()))
        .min(MAX_POINTS + 1);
    (0..n).map(|i| point_values(dims, i)).collect()
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
    super::check(&s).map_err(|e| format!("{}: {}", at(), e))?;
    Ok(s)
}

/// One point as a message to a worker: the point's scenario as its link text (read back by the
/// one option parser, [`super::url::decode_query`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PointJob {
    pub index: usize,
    pub values: Vec<String>,
    /// The point's scenario as a link's query (without '?').
    pub query: String,
}

impl PointJob {
    pub fn of(index: usize, values: Vec<String>, scn: &Scenario) -> PointJob {
        PointJob {
            index,
            values,
            query: super::url::encode_query(scn, None),
        }
    }
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
    /// The figures of a point's report (fio's throughput and IOPS, as `--sweep` prints them).
    pub fn of(index: usize, values: Vec<String>, r: &Report) -> Row {
        let f = Figures::of(r);
        Row {
            index,
            values,
            mib_s: f.fio_mib_s,
            iops: f.fio_iops,
            p50_us: f.clat_us(50.0),
            p99_us: f.clat_us(99.0),
            p999_us: f.clat_us(99.9),
            interrupts_per_s: f.interrupts_per_s,
            requeues: f.requeues,
        }
    }
}
