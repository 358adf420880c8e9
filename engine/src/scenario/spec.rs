//! The complete [`Scenario`]: platform, host switches, jobs, seed, and the scenario-wide
//! settings (power cut, error injection, board overrides, traces).

use super::error::ScenarioError;
use super::iolog;
use super::job::JobSpec;
use serde::{Deserialize, Serialize};

use super::overrides::Overrides;

/// The complete scenario: platform, jobs, seed, and what it overrides of the platform (host
/// switches, board parameters).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Scenario {
    /// Platform preset name (see [`crate::platform::PLATFORMS`]).
    pub platform: String,
    /// Job sections; each is cloned `numjobs` times.
    pub jobs: Vec<JobSpec>,
    /// fio's `randseed`: derives every random choice.
    pub randseed: u64,
    /// fio's `group_reporting`: report all jobs as one.
    pub group_reporting: bool,
    /// Run this kernel mmc_test performance case (37..=44) instead of fio jobs.
    pub mmc_test: Option<u32>,
    /// Cut the power at this simulated time, ns (`power_cut=`).
    pub power_cut_ns: Option<u64>,
    /// Make the card return errors (`inject_error=crc:RATE`).
    pub inject_error: Option<ErrorInjection>,
    /// `sensitivity=1` (`--sensitivity`): also run the scenario at both ends of each fitted
    /// board parameter's range the run uses and report how far each figure moves
    /// (`tools::sensitivity`). The scenario itself runs as without it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sensitivity: bool,
    /// What the scenario sets over its preset: host switches (the `switch!` rows, a field of
    /// `Platform::switches` each) and board parameters (`crate::board::params`), option name ->
    /// value in internal units (ns, bytes, bytes per second, parts per million; a switch as
    /// its [`super::host::SwitchValue`]). A switch is kept even when it equals the preset's (it
    /// was given: it is written, linked and warned about); a board value equal to the preset's
    /// is dropped by `normalize_board`. [`Scenario::effective_platform`] applies them.
    #[serde(default, skip_serializing_if = "Overrides::is_empty")]
    pub overrides: Overrides,
    /// Traces loaded for `read_iolog=` (by the CLI from files, by the page from a dropped file).
    /// Not options: a link or a job file names them, and the trace travels beside it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub iologs: Vec<iolog::IoLog>,
    /// The request queue's and the I/O scheduler's sysfs settings (`nr_requests=`,
    /// `nomerges=`, `fifo_batch=`, ...); unset ones are the kernel's defaults.
    #[serde(
        default,
        skip_serializing_if = "super::queue::QueueTunables::is_default"
    )]
    pub queue: super::queue::QueueTunables,
}

/// Which error the card returns (`inject_error=KIND:RATE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ErrorKind {
    /// Data CRC error on a read or write transfer (`-EILSEQ` in `data->error`).
    Crc,
}

/// Fault injection: each data transfer fails with probability `rate_ppm` / 1e6.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ErrorInjection {
    pub kind: ErrorKind,
    pub rate_ppm: u32,
}

impl ErrorInjection {
    /// Largest accepted rate (half of all transfers).
    pub const MAX_PPM: u32 = 500_000;

    /// Parses `crc:0.01` (a probability per transfer, 0 < rate <= 0.5, resolution 1e-6).
    pub fn parse(v: &str) -> Result<ErrorInjection, String> {
        let accepted = "crc:RATE with 0.000001 <= RATE <= 0.5, e.g. crc:0.01";
        let (kind, rate) = v
            .split_once(':')
            .ok_or_else(|| format!("'{v}' is not KIND:RATE; accepted: {accepted}"))?;
        let kind = match kind {
            "crc" => ErrorKind::Crc,
            _ => {
                return Err(format!(
                    "'{kind}' is not an error kind; accepted: {accepted}"
                ))
            }
        };
        let ppm = parse_ppm(rate).filter(|&p| p > 0 && p <= Self::MAX_PPM);
        let rate_ppm = ppm.ok_or_else(|| {
            let what = match rate.parse::<f64>() {
                Ok(r) if r > 0.0 && r < 1e-6 => {
                    "below the smallest rate modelled (0.000001, one transfer in a million)"
                }
                Ok(r) if r > 0.5 => "above 0.5 (half of all transfers)",
                Ok(0.0) => "no error (0)",
                _ => "not a rate",
            };
            format!("'{rate}' is {what}; accepted: {accepted}")
        })?;
        Ok(ErrorInjection { kind, rate_ppm })
    }

    /// The `inject_error=` text that parses back to this value.
    pub fn to_text(&self) -> String {
        let whole = self.rate_ppm / 1_000_000;
        let frac = format!("{:06}", self.rate_ppm % 1_000_000);
        let frac = frac.trim_end_matches('0');
        if frac.is_empty() {
            format!("crc:{whole}")
        } else {
            format!("crc:{whole}.{frac}")
        }
    }
}

/// "0.01" -> 10000 parts per million (no floating point, at most 6 decimals).
fn parse_ppm(s: &str) -> Option<u32> {
    let (int, frac) = s.split_once('.').unwrap_or((s, ""));
    if int.is_empty() && frac.is_empty()
        || frac.len() > 6
        || !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let i: u32 = if int.is_empty() {
        0
    } else {
        int.parse().ok().filter(|&i: &u32| i <= 1)?
    };
    let f: u32 = if frac.is_empty() {
        0
    } else {
        format!("{frac:0<6}").parse().ok()?
    };
    i.checked_mul(1_000_000)?.checked_add(f)
}

/// fio's default `randseed`.
pub const DEFAULT_RANDSEED: u64 = 0x89;

impl Default for Scenario {
    fn default() -> Self {
        Scenario {
            platform: crate::platform::DEFAULT_PLATFORM.to_string(),
            jobs: vec![JobSpec::default()],
            randseed: DEFAULT_RANDSEED,
            group_reporting: false,
            mmc_test: None,
            power_cut_ns: None,
            inject_error: None,
            sensitivity: false,
            overrides: Overrides::new(),
            iologs: Vec::new(),
            queue: Default::default(),
        }
    }
}

impl Scenario {
    /// The platform preset this scenario names.
    pub fn platform(&self) -> Result<&'static crate::platform::Platform, ScenarioError> {
        preset(&self.platform)
    }

    /// The trace `name` loaded for `read_iolog=`, if any.
    pub fn iolog(&self, name: &str) -> Option<&iolog::IoLog> {
        self.iologs.iter().find(|l| l.name == name)
    }

    /// Adds (or replaces) a trace for `read_iolog=NAME`.
    pub fn attach_iolog(&mut self, log: iolog::IoLog) {
        self.iologs.retain(|l| l.name != log.name);
        self.iologs.push(log);
    }
}

/// The platform preset `name`, or the error naming the presets there are.
pub(super) fn preset(name: &str) -> Result<&'static crate::platform::Platform, ScenarioError> {
    crate::platform::by_name(name).ok_or_else(|| {
        ScenarioError::new(
            "platform",
            format!(
                "unknown platform '{}'; accepted: {}",
                name,
                crate::platform::names().join(", ")
            ),
        )
    })
}
