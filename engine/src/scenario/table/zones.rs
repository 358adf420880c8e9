//! Zone rows (fio's `FIO_OPT_G_ZONE`): `zonemode=strided` and the emulated zones of `zbd`.

use super::values::*;
use super::OptionRow;
use crate::scenario::error::ScenarioError;
use crate::scenario::limits::MAX_DEVICE_BYTES;
use crate::scenario::units::format_size;

/// fio's fractions (`zone_reset_threshold=0.7`) in parts per million.
fn fraction_ppm(key: &str, value: &str) -> Result<u64, ScenarioError> {
    match value.trim().parse::<f64>() {
        Ok(f) if (0.0..=1.0).contains(&f) => Ok((f * 1e6).round() as u64),
        _ => Err(bad(key, value, "not a fraction", "0..=1, such as 0.7")),
    }
}

pub(super) const ZONEMODE: OptionRow = job!("zonemode", &[], "none, strided, zbd",
    "strided: I/O in zones of zonesize bytes, zoneskip bytes apart; zbd: fio's emulated zones with write pointers (the eMMC is not zoned)",
    example "strided",
    set |j, k, v| (j.zone_strided, j.zone_zbd) = match v1(v).trim() {
        "none" => (false, false),
        "strided" => (true, false),
        "zbd" => (false, true),
        o => return Err(bad(k, o, "not a zone mode", "none, strided, zbd")),
    },
    get |j| Some(if j.zone_strided { "strided" } else if j.zone_zbd { "zbd" } else { "none" }.to_string()),
    reset |j| (j.zone_strided, j.zone_zbd) = (false, false),
    form None);

pub(super) const MAX_OPEN_ZONES: OptionRow = job!("max_open_zones", &[], "0..=4096", "zonemode=zbd: zones written at once (0: no limit)",
    example "32",
    set |j, k, v| j.max_open_zones = uint(k, v1(v), 0, 4096)? as u32,
    get |j| (j.max_open_zones > 0).then(|| j.max_open_zones.to_string()),
    reset |j| j.max_open_zones = 0,
    form None);

pub(super) const READ_BEYOND_WP: OptionRow = job_flag!(
    "read_beyond_wp",
    read_beyond_wp,
    &[],
    "zonemode=zbd: reads may go past a zone's write pointer"
);

pub(super) const ZONE_RESET_THRESHOLD: OptionRow = job!("zone_reset_threshold", &[], "0..=1", "zonemode=zbd: share of the region's bytes written before zones are reset",
    example "0.7",
    set |j, k, v| j.zone_reset_threshold_ppm = fraction_ppm(k, v1(v))?,
    get |j| (j.zone_reset_threshold_ppm > 0).then(|| format!("{}", j.zone_reset_threshold_ppm as f64 / 1e6)),
    reset |j| j.zone_reset_threshold_ppm = 0,
    form None);

pub(super) const ZONE_RESET_FREQUENCY: OptionRow = job!("zone_reset_frequency", &[], "0..=1", "zonemode=zbd: past the threshold, one zone reset per 1/N writes",
    example "0.125",
    set |j, k, v| j.zone_reset_frequency_ppm = fraction_ppm(k, v1(v))?,
    get |j| (j.zone_reset_frequency_ppm > 0).then(|| format!("{}", j.zone_reset_frequency_ppm as f64 / 1e6)),
    reset |j| j.zone_reset_frequency_ppm = 0,
    form None);

pub(super) const ZONESIZE: OptionRow = job!("zonesize", &[], "size, a multiple of 512", "zonemode=strided: bytes of I/O in each zone; zbd: the emulated zone size",
    example "1m",
    set |j, k, v| j.zonesize = Some(size(k, v1(v), 512, MAX_DEVICE_BYTES, 512)?),
    get |j| j.zonesize.map(format_size),
    reset |j| j.zonesize = None,
    form None);

pub(super) const ZONESKIP: OptionRow = job!("zoneskip", &[], "size, a multiple of 512", "zonemode=strided: bytes skipped after each zone",
    example "8m",
    set |j, k, v| j.zoneskip = size(k, v1(v), 0, MAX_DEVICE_BYTES, 512)?,
    get |j| (j.zoneskip > 0).then(|| format_size(j.zoneskip)),
    reset |j| j.zoneskip = 0,
    form None);
