//! Rate rows (fio's `FIO_OPT_G_RATE` and `thinktime`): caps on what each clone issues and its
//! pauses.

use super::values::*;
use super::OptionRow;
use crate::scenario::error::ScenarioError;
use crate::scenario::limits::{MAX_DEVICE_BYTES, MAX_TIME_NS};
use crate::scenario::units::{format_size, format_time_ns};

/// A time whose bare number is in microseconds (fio's `thinktime`).
fn time_us(key: &str, value: &str, max: u64) -> Result<u64, ScenarioError> {
    let bare = value
        .trim()
        .bytes()
        .all(|b| b.is_ascii_digit() || b == b'.');
    let v = if bare {
        format!("{}us", value.trim())
    } else {
        value.to_string()
    };
    // The messages echo the value as given and say what a bare number is here.
    let accepted = "a time up to 24h, bare numbers in microseconds, e.g. 100, 2ms";
    let ns = crate::scenario::units::parse_time_ns(&v)
        .map_err(|_| bad(key, value, "not a time", accepted))?;
    if ns > max {
        return Err(bad(key, value, "too long", accepted));
    }
    Ok(ns)
}

pub(super) const RATE: OptionRow = job!("rate", &[], "bytes per second, e.g. 10m (0 = unlimited)",
    "cap on the bandwidth each clone issues",
    example "1m",
    set |j, k, v| j.rate = size(k, one_for_both(k, v1(v), "one rate such as 10m")?, 0, MAX_DEVICE_BYTES, 1)?,
    get |j| (j.rate > 0).then(|| format_size(j.rate)),
    reset |j| j.rate = 0,
    form None);

pub(super) const RATE_IOPS: OptionRow = job!("rate_iops", &[], "I/Os per second (0 = unlimited)",
    "cap on the I/Os per second each clone issues",
    example "100",
    set |j, k, v| j.rate_iops = uint(k, one_for_both(k, v1(v), "one rate such as 500")?, 0, 100_000_000)?,
    get |j| (j.rate_iops > 0).then(|| j.rate_iops.to_string()),
    reset |j| j.rate_iops = 0,
    form None);

pub(super) const THINKTIME: OptionRow = job!("thinktime", &[], "time, bare numbers in microseconds",
    "pause this long after every thinktime_blocks I/Os",
    example "100",
    set |j, k, v| j.thinktime_ns = time_us(k, v1(v), MAX_TIME_NS)?,
    get |j| (j.thinktime_ns > 0).then(|| format_time_ns(j.thinktime_ns)),
    reset |j| j.thinktime_ns = 0,
    form None);

pub(super) const THINKTIME_BLOCKS: OptionRow = job!("thinktime_blocks", &[], "1..", "I/Os between two thinktime pauses (default 1)",
    example "4",
    set |j, k, v| j.thinktime_blocks = uint32(k, v1(v), 1, u32::MAX)?,
    get |j| Some(j.thinktime_blocks.to_string()),
    reset |j| j.thinktime_blocks = 1,
    form None);
