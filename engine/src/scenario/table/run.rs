//! Scenario-wide rows: one value for the whole run, wherever given (platform, seed, group
//! reporting, mmc_test, power cut, error injection).

use super::macros::*;
use super::values::*;
use super::{OptionRow, Widget};
use crate::scenario::limits::MAX_TIME_NS;
use crate::scenario::units::{format_time_ns, parse_time_ns, parse_uint};
use crate::scenario::{
    error::ScenarioError,
    spec::{ErrorInjection, Scenario},
};

pub(super) const PLATFORM: OptionRow = scenario!("platform", "a preset, see --list-platforms", "measured platform to simulate",
    example "unisoc-fua-2022",
    set |s, k, v| {
        let v = v1(v);
        if crate::platform::by_name(v).is_none() {
            return Err(bad(k, v, "not a known platform", &crate::platform::names().join(", ")));
        }
        s.platform = v.to_string()
    },
    get |s| Some(s.platform.clone()),
    reset |s| s.platform = Scenario::default().platform,
    form form(GP, "Preset", "", Widget::Platforms));

pub(super) const RANDSEED: OptionRow = scenario!("randseed", "0..", "seed of every random choice (default 137)",
    example "7",
    set |s, k, v| s.randseed = uint(k, v1(v), 0, u64::MAX)?,
    get |s| Some(s.randseed.to_string()),
    reset |s| s.randseed = Scenario::default().randseed,
    form None);

pub(super) const GROUP_REPORTING: OptionRow = scenario!("group_reporting", "flag or 0|1", "report all jobs as one",
    example "1",
    set |s, k, v| s.group_reporting = flag(k, v)?,
    get |s| Some(b(s.group_reporting)),
    reset |s| s.group_reporting = Scenario::default().group_reporting,
    form None);

pub(super) const MMC_TEST: OptionRow = scenario!("mmc_test", "37..=44",
    "run this kernel mmc_test case instead of fio jobs: 128 MiB per transfer size (a size= other than 64m sets it)",
    example "38",
    set |s, k, v| {
        let v = v1(v);
        let n = parse_uint(v, 37, 44).map_err(|_| bad(k, v, "not an mmc_test performance case", "37..=44"))?;
        s.mmc_test = Some(n as u32)
    },
    get |s| s.mmc_test.map(|n| n.to_string()),
    reset |s| s.mmc_test = None,
    form form(GA, "mmc_test", "Kernel mmc_test case 37..=44 instead of fio jobs (empty = fio)", Widget::Text { placeholder: "fio jobs" }));

pub(super) const POWER_CUT: OptionRow = scenario!("power_cut", "time > 0 (e.g. 50ms, 2s)",
    "cut the power at this simulated time; report acknowledged writes lost",
    example "50ms",
    set |s, k, v| {
        let v = v1(v);
        let t = parse_time_ns(v).ok().filter(|&t| t > 0 && t <= MAX_TIME_NS);
        s.power_cut_ns = Some(t.ok_or_else(|| bad(k, v, "not a time", "a time > 0 up to 24h, e.g. 50ms, 2s"))?)
    },
    get |s| s.power_cut_ns.map(format_time_ns),
    reset |s| s.power_cut_ns = None,
    form None);

pub(super) const INJECT_ERROR: OptionRow = scenario!("inject_error", "crc:RATE, 0 < RATE <= 0.5",
    "the card answers data transfers with CRC errors at this rate",
    example "crc:0.01",
    set |s, k, v| s.inject_error = Some(ErrorInjection::parse(v1(v)).map_err(|m| ScenarioError::new(k, m))?),
    get |s| s.inject_error.map(|e| e.to_text()),
    reset |s| s.inject_error = None,
    form form(GA, "inject_error", "CRC errors on data transfers, e.g. crc:0.01", Widget::Text { placeholder: "none" }));

pub(super) const SENSITIVITY: OptionRow = scenario!("sensitivity", "flag or 0|1",
    "also run at both ends of each fitted board parameter's range the run uses; report each figure's range and the parameters that move it",
    example "1",
    set |s, k, v| s.sensitivity = flag(k, v)?,
    get |s| s.sensitivity.then(|| "1".to_string()),
    reset |s| s.sensitivity = false,
    form None);
