//! The value parsers the rows share: each returns one clear message naming the value and what is
//! accepted (`'x' is not ...; accepted: ...`).

use crate::scenario::units::{format_size, parse_bool, parse_size, parse_time_ns, parse_uint};
use crate::scenario::{error::ScenarioError, job::JobSpec};

pub(super) fn bad(key: &str, value: &str, what: &str, accepted: &str) -> ScenarioError {
    ScenarioError::new(
        key,
        format!("'{}' is {}; accepted: {}", value, what, accepted),
    )
}

pub(super) fn flag(key: &str, value: Option<&str>) -> Result<bool, ScenarioError> {
    value.map_or(Ok(true), |v| {
        parse_bool(v).map_err(|m| ScenarioError::new(key, m))
    })
}

pub(super) fn uint(key: &str, value: &str, min: u64, max: u64) -> Result<u64, ScenarioError> {
    parse_uint(value, min, max).map_err(|m| ScenarioError::new(key, m))
}

pub(super) fn uint32(key: &str, value: &str, min: u32, max: u32) -> Result<u32, ScenarioError> {
    uint(key, value, min.into(), max.into()).map(|v| v as u32)
}

/// fio's zone units: `size=8z` is 8 zones of `zonesize` (set before it, as fio's examples do).
pub(super) fn zones(j: &JobSpec, key: &str, value: &str) -> Result<Option<u64>, ScenarioError> {
    let Some(n) = value.trim().strip_suffix('z') else {
        return Ok(None);
    };
    let n: u64 = n
        .parse()
        .map_err(|_| bad(key, value, "not a zone count", "N z, such as 8z"))?;
    match j.zonesize {
        Some(zs) => Ok(Some(n.saturating_mul(zs))),
        None => Err(bad(
            key,
            value,
            "counts zones, and zonesize is not set before it",
            "a size such as 4k, or set zonesize= first",
        )),
    }
}

pub(super) fn size(
    key: &str,
    value: &str,
    min: u64,
    max: u64,
    align: u64,
) -> Result<u64, ScenarioError> {
    if value.contains('%') {
        return Err(bad(
            key,
            value,
            "not modelled (percentages of the device)",
            "a size such as 4k, 512m",
        ));
    }
    if value.contains(',') || value.contains(':') {
        return Err(bad(
            key,
            value,
            "not modelled (separate read/write values)",
            "one size such as 4k",
        ));
    }
    let v = parse_size(value).map_err(|m| ScenarioError::new(key, m))?;
    if v < min || v > max || v % align != 0 {
        let what = format!("out of range ({} bytes)", v);
        let range = format!("{}..={}", format_size(min), format_size(max));
        let accepted = if align > 1 {
            format!("{}, a multiple of {}", range, align)
        } else {
            range
        };
        return Err(bad(key, value, &what, &accepted));
    }
    Ok(v)
}

pub(super) fn time(key: &str, value: &str, max: u64, accepted: &str) -> Result<u64, ScenarioError> {
    let ns = parse_time_ns(value).map_err(|m| ScenarioError::new(key, m))?;
    if ns > max {
        return Err(bad(key, value, "too long", accepted));
    }
    Ok(ns)
}

pub(super) fn one_of<T: Copy>(
    key: &str,
    v: &str,
    all: &[T],
    name: fn(T) -> &'static str,
    what: &str,
) -> Result<T, ScenarioError> {
    all.iter().copied().find(|x| name(*x) == v).ok_or_else(|| {
        let names: Vec<&str> = all.iter().map(|x| name(*x)).collect();
        bad(key, v, what, &names.join(", "))
    })
}

pub(super) fn b(v: bool) -> String {
    if v { "1" } else { "0" }.to_string()
}

/// Longest job name: fio names the files a job creates after it (`NAME.0.0`), and a Linux file
/// name is at most 255 bytes (NAME_MAX).
pub const MAX_JOB_NAME_BYTES: usize = 255;

/// A file name or prefix (`read_iolog`, `write_iolog`, a log prefix): as a job name, but the
/// message says a file is wanted.
pub(super) fn file_name(key: &str, v: &str) -> Result<String, ScenarioError> {
    if v.trim().is_empty() {
        return Err(ScenarioError::new(
            key,
            "needs a file name; accepted: a file name without ']' or control characters",
        ));
    }
    job_name(key, v).map_err(|_| {
        bad(
            key,
            v,
            "not a file name",
            "a file name of at most 255 bytes without ']' or control characters",
        )
    })
}

pub(super) fn job_name(key: &str, v: &str) -> Result<String, ScenarioError> {
    if v.trim().is_empty() || v.chars().any(char::is_control) || v.contains(']') {
        return Err(bad(
            key,
            v,
            "not a job name",
            "text without ']' or control characters",
        ));
    }
    let name = v.trim();
    if name.len() > MAX_JOB_NAME_BYTES {
        return Err(bad(
            key,
            v,
            &format!("a name of {} bytes", name.len()),
            &format!("at most {MAX_JOB_NAME_BYTES} bytes (fio names a job's data files after it, and a Linux file name is at most 255 bytes)"),
        ));
    }
    Ok(name.to_string())
}

/// fio's `read,write` pair of values: one value for both, or the same value twice. The model
/// keeps one value per job.
pub(super) fn one_for_both<'a>(
    key: &str,
    v: &'a str,
    what: &str,
) -> Result<&'a str, ScenarioError> {
    let Some((r, w)) = v.split_once(',') else {
        return Ok(v);
    };
    let w = w.split(',').next().unwrap_or("");
    match (r.trim(), w.trim()) {
        (r, "") => Ok(r),
        ("", w) => Ok(w),
        (r, w) if r == w => Ok(r),
        _ => Err(bad(
            key,
            v,
            "not modelled (separate read and write values)",
            what,
        )),
    }
}

pub(super) fn opt_text(v: &Option<String>) -> Option<String> {
    v.clone()
}

pub(super) fn v1(value: Option<&str>) -> &str {
    value.unwrap_or("1")
}
