//! The option table: one row per option, after fio's own `options.c` (`struct fio_option`:
//! name, alias, type, help, and the offset of the field it sets).
//!
//! A row holds everything the rest of the program needs to know about an option: its name and
//! aliases, what it accepts, its help line, what it sets and how ([`Access`]: parse into the
//! field, print the field, reset it), a sample value for the table's own test, and how the web
//! page shows it ([`FormHint`]). The parser ([`super::options`]), the job-file and command-line
//! writer ([`super::write`]), links ([`super::url`]), `--help`, resetting and the page's controls
//! all read this table; adding an option is adding a row (see docs/ARCHITECTURE.md).

use super::check::{MAX_BS, MAX_DEVICE_BYTES, MAX_NUMJOBS, MAX_RUNTIME_NS, MAX_TIME_NS};
use super::units::{
    format_size, format_time_ns, parse_bool, parse_size, parse_time_ns, parse_uint,
};
use super::{
    ErrorInjection, HostConfig, HostOptions, HsqDepth, HsqDispatch, IoEngine, JobSpec, MmcPath,
    RandomDistribution, Rw, Scenario, ScenarioError,
};

/// What an option sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// A field of [`JobSpec`]: per job section, inherited from `[global]`.
    Job,
    /// A field of [`Scenario`] (platform, seed, ...): one value for the whole run, wherever it
    /// is given.
    Scenario,
    /// A host switch ([`HostOptions`]): scenario-wide; unset means "the platform preset's".
    Host,
    /// A fio option accepted for compatibility that changes nothing in the model.
    Ignored,
    /// A board parameter ([`super::board::PARAMS`]): one physical figure of the platform,
    /// scenario-wide; unset means "the preset's".
    Platform,
}

/// Parses the value text (None = a bare flag) into the field; `key` is the option as written,
/// for messages.
pub type SetFn<T> = fn(&mut T, &str, Option<&str>) -> Result<(), ScenarioError>;

/// How a row reads and writes its field.
#[derive(Clone, Copy)]
pub enum Access {
    /// A field of one job section.
    Job {
        set: SetFn<JobSpec>,
        /// The value as option text; None when the option is not set (e.g. no `runtime`).
        get: fn(&JobSpec) -> Option<String>,
        reset: fn(&mut JobSpec),
    },
    /// A scenario-wide field.
    Scenario {
        set: SetFn<Scenario>,
        get: fn(&Scenario) -> Option<String>,
        reset: fn(&mut Scenario),
    },
    /// A host switch: `get` is None while the platform's default applies; `preset` is the value
    /// a platform's defaults give it (for "default (on)" in the page).
    Host {
        set: SetFn<HostOptions>,
        get: fn(&HostOptions) -> Option<String>,
        reset: fn(&mut HostOptions),
        preset: fn(&HostConfig) -> String,
    },
    /// Accepted and ignored.
    Ignored,
    /// A board parameter: a field of the platform in a unit (see [`super::board`]).
    Platform(super::board::Param),
}

/// Where the page's form shows an option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormGroup {
    Platform,
    Workload,
    Host,
    /// Options in effect that the first screen does not need (the page folds them away).
    Advanced,
}

impl FormGroup {
    pub const ALL: [FormGroup; 4] = [
        FormGroup::Platform,
        FormGroup::Workload,
        FormGroup::Host,
        FormGroup::Advanced,
    ];
    pub fn title(self) -> &'static str {
        match self {
            FormGroup::Platform => "Platform",
            FormGroup::Workload => "Workload (fio)",
            FormGroup::Host => "Host",
            FormGroup::Advanced => "Advanced",
        }
    }
}

/// The kind of control the page draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Widget {
    /// Free text; the placeholder shows an example (host switches: the platform's value).
    Text { placeholder: &'static str },
    /// One of these values.
    Choices(&'static [&'static str]),
    /// One of the platform presets.
    Platforms,
    /// On or off (host switches: or the platform's default).
    OnOff,
}

/// How the page's form shows an option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FormHint {
    pub group: FormGroup,
    pub label: &'static str,
    /// One line under the control.
    pub help: &'static str,
    pub widget: Widget,
}

/// One accepted option.
#[derive(Clone, Copy)]
pub struct OptionRow {
    pub name: &'static str,
    /// fio's alternative names (`blocksize` for `bs`).
    pub aliases: &'static [&'static str],
    /// What it accepts, as `--help` and error messages say it.
    pub accepted: &'static str,
    pub help: &'static str,
    pub kind: OptionKind,
    pub access: Access,
    /// A value other than the default that the table's test sets, prints, links and resets.
    pub example: &'static str,
    /// The page's control, if the form shows one.
    pub form: Option<FormHint>,
}

impl std::fmt::Debug for OptionRow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OptionRow")
            .field("name", &self.name)
            .field("kind", &self.kind)
            .finish()
    }
}

impl OptionRow {
    /// A flag: `--time_based` alone means 1, and job files write it bare.
    pub fn is_flag(&self) -> bool {
        self.accepted.starts_with("flag")
    }
    /// The value may be left out (`--group_reporting`, `thread`): left out means 1.
    pub fn value_optional(&self) -> bool {
        self.kind == OptionKind::Ignored || self.is_flag() || self.accepted == "0|1"
    }
    /// Scenario-wide (one value for the whole run) rather than per job.
    pub fn is_scenario_wide(&self) -> bool {
        matches!(
            self.kind,
            OptionKind::Scenario | OptionKind::Host | OptionKind::Platform
        )
    }
}

// ---- value parsers: each returns one clear message naming the value and what is accepted ----

fn bad(key: &str, value: &str, what: &str, accepted: &str) -> ScenarioError {
    ScenarioError::new(
        key,
        format!("'{}' is {}; accepted: {}", value, what, accepted),
    )
}

fn flag(key: &str, value: Option<&str>) -> Result<bool, ScenarioError> {
    value.map_or(Ok(true), |v| {
        parse_bool(v).map_err(|m| ScenarioError::new(key, m))
    })
}

fn uint(key: &str, value: &str, min: u64, max: u64) -> Result<u64, ScenarioError> {
    parse_uint(value, min, max).map_err(|m| ScenarioError::new(key, m))
}

fn uint32(key: &str, value: &str, min: u32, max: u32) -> Result<u32, ScenarioError> {
    uint(key, value, min.into(), max.into()).map(|v| v as u32)
}

/// fio's fractions (`zone_reset_threshold=0.7`) in parts per million.
fn fraction_ppm(key: &str, value: &str) -> Result<u64, ScenarioError> {
    match value.trim().parse::<f64>() {
        Ok(f) if (0.0..=1.0).contains(&f) => Ok((f * 1e6).round() as u64),
        _ => Err(bad(key, value, "not a fraction", "0..=1, such as 0.7")),
    }
}

/// fio's zone units: `size=8z` is 8 zones of `zonesize` (set before it, as fio's examples do).
fn zones(j: &super::JobSpec, key: &str, value: &str) -> Result<Option<u64>, ScenarioError> {
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

fn size(key: &str, value: &str, min: u64, max: u64, align: u64) -> Result<u64, ScenarioError> {
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

fn time(key: &str, value: &str, max: u64, accepted: &str) -> Result<u64, ScenarioError> {
    let ns = parse_time_ns(value).map_err(|m| ScenarioError::new(key, m))?;
    if ns > max {
        return Err(bad(key, value, "too long", accepted));
    }
    Ok(ns)
}

fn one_of<T: Copy>(
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

fn b(v: bool) -> String {
    if v { "1" } else { "0" }.to_string()
}

fn job_name(key: &str, v: &str) -> Result<String, ScenarioError> {
    if v.trim().is_empty() || v.chars().any(char::is_control) || v.contains(']') {
        return Err(bad(
            key,
            v,
            "not a job name",
            "text without ']' or control characters",
        ));
    }
    Ok(v.trim().to_string())
}

/// fio's `rw=` values, with the sequential offset modifier (`read:8k` skips 8 KiB after each
/// I/O, `read:-8k` steps back); the fio patterns the model lacks are named as such. `r` and `w`
/// are read and write, as fio's own examples write them.
fn parse_rw(key: &str, v: &str) -> Result<(Rw, i64), ScenarioError> {
    const ACCEPTED: &str = "read, write, randread, randwrite, randrw, rw (readwrite), trim, randtrim, trimwrite, with :N on sequential ones";
    let (pattern, modifier) = v.split_once(':').unwrap_or((v, ""));
    let rw = match pattern.trim() {
        "readwrite" => Rw::ReadWrite,
        "r" => Rw::Read,
        "w" => Rw::Write,
        p => match Rw::ALL.iter().find(|r| r.name() == p) {
            Some(rw) => *rw,
            None if p == "randtrimwrite" => {
                return Err(bad(
                    key,
                    v,
                    "not modelled (random trim+write pairs); trimwrite is",
                    ACCEPTED,
                ))
            }
            None => return Err(bad(key, v, "not an I/O pattern", ACCEPTED)),
        },
    };
    let modifier = modifier.trim();
    if modifier.is_empty() {
        return Ok((rw, 0));
    }
    if rw.is_random() {
        return Err(bad(
            key,
            v,
            "not modelled (':N' on a random pattern: N I/Os per random offset)",
            ACCEPTED,
        ));
    }
    let (neg, m) = match modifier.strip_prefix('-') {
        Some(m) => (true, m),
        None => (false, modifier),
    };
    let n = size(key, m, 0, MAX_DEVICE_BYTES, 512)? as i64;
    Ok((rw, if neg { -n } else { n }))
}

fn rw_text(j: &JobSpec) -> String {
    match j.rw_skip {
        0 => j.rw.name().to_string(),
        n if n < 0 => format!("{}:-{}", j.rw.name(), format_size(n.unsigned_abs())),
        n => format!("{}:{}", j.rw.name(), format_size(n as u64)),
    }
}

/// fio's `ioengine=` values. The synchronous engines (`sync`, `psync`, `vsync`, `pvsync`,
/// `pvsync2`) differ only in the system call: one I/O at a time, as psync. `posixaio` keeps
/// `iodepth` I/Os outstanding, as libaio.
fn parse_ioengine(key: &str, v: &str) -> Result<IoEngine, ScenarioError> {
    const ACCEPTED: &str = "psync, sync, vsync, pvsync, pvsync2, libaio, io_uring, posixaio";
    match v {
        "pvsync" | "pvsync2" | "vsync" => return Ok(IoEngine::Psync),
        "posixaio" => return Ok(IoEngine::Libaio),
        _ => {}
    }
    IoEngine::ALL
        .iter()
        .find(|e| e.name() == v)
        .copied()
        .ok_or_else(|| {
            bad(
                key,
                v,
                "not modelled (the model is a local eMMC block device)",
                ACCEPTED,
            )
        })
}

/// fio's `read,write` pair of values: one value for both, or the same value twice. The model
/// keeps one value per job.
fn one_for_both<'a>(key: &str, v: &'a str, what: &str) -> Result<&'a str, ScenarioError> {
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

/// `bsrange=1k-64k`.
fn parse_bsrange(key: &str, v: &str) -> Result<(u64, u64), ScenarioError> {
    const ACCEPTED: &str = "MIN-MAX such as 4k-64k, multiples of 512 up to 64m";
    let one = one_for_both(key, v, ACCEPTED)?;
    let (lo, hi) = one
        .split_once('-')
        .or_else(|| one.split_once(':'))
        .ok_or_else(|| bad(key, v, "not a range", ACCEPTED))?;
    let lo = size(key, lo.trim(), 512, MAX_BS, 512)?;
    let hi = size(key, hi.trim(), 512, MAX_BS, 512)?;
    if lo > hi {
        return Err(bad(key, v, "an empty range", ACCEPTED));
    }
    Ok((lo, hi))
}

fn bsrange_text((lo, hi): (u64, u64)) -> String {
    format!("{}-{}", format_size(lo), format_size(hi))
}

/// `bssplit=4k/10:64k/50:32k/40`; sizes without a percent share what the others leave.
/// `READS,WRITES` gives the writes their own split (a third, trims', is ignored).
#[allow(clippy::type_complexity)]
fn parse_bssplit_rw(
    key: &str,
    v: &str,
) -> Result<(Vec<(u64, u32)>, Option<Vec<(u64, u32)>>), ScenarioError> {
    let mut parts = v.split(',');
    let r = parts.next().unwrap_or("").trim();
    let w = parts.next().map(str::trim).unwrap_or("");
    match (r, w) {
        (r, "") => Ok((parse_bssplit(key, r)?, None)),
        ("", w) => Ok((parse_bssplit(key, w)?, None)),
        (r, w) => {
            let (r, w) = (parse_bssplit(key, r)?, parse_bssplit(key, w)?);
            if r == w {
                Ok((r, None))
            } else {
                Ok((r, Some(w)))
            }
        }
    }
}

/// One split: `4k/10:64k/90`.
fn parse_bssplit(key: &str, v: &str) -> Result<Vec<(u64, u32)>, ScenarioError> {
    const ACCEPTED: &str = "SIZE/PERCENT:SIZE/PERCENT..., e.g. 4k/10:64k/90";
    let one = v;
    let mut out = Vec::new();
    let mut open = 0u32;
    for part in one.split(':').filter(|p| !p.trim().is_empty()) {
        let (b, pct) = part.split_once('/').unwrap_or((part, ""));
        let b = size(key, b.trim(), 512, MAX_BS, 512)?;
        let pct = match pct.trim() {
            "" => {
                open += 1;
                u32::MAX
            }
            p => uint32(key, p, 0, 100)?,
        };
        out.push((b, pct));
    }
    if out.is_empty() || out.len() > 64 {
        return Err(bad(key, v, "not a block size split", ACCEPTED));
    }
    let given: u32 = out.iter().filter(|e| e.1 != u32::MAX).map(|e| e.1).sum();
    if given > 100 || (open == 0 && given != 100) {
        return Err(bad(
            key,
            v,
            &format!("a split of {given} percent"),
            "percentages adding up to 100",
        ));
    }
    let mut left = 100 - given;
    let mut k = open;
    for e in out.iter_mut().filter(|e| e.1 == u32::MAX) {
        e.1 = left / k;
        left -= e.1;
        k -= 1;
    }
    Ok(out)
}

fn bssplit_text(v: &[(u64, u32)]) -> String {
    let parts: Vec<String> = v
        .iter()
        .map(|&(b, p)| format!("{}/{}", format_size(b), p))
        .collect();
    parts.join(":")
}

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
    time(
        key,
        &v,
        max,
        "a time, bare numbers in microseconds, e.g. 100, 2ms",
    )
}

/// `random_distribution=`: zipf:THETA, pareto:H, normal:DEV, random.
fn parse_distribution(key: &str, v: &str) -> Result<RandomDistribution, ScenarioError> {
    const ACCEPTED: &str = "random, zipf:THETA (THETA > 0, not 1), pareto:H (0 < H < 1), normal:DEV (percent, 0 < DEV <= 100)";
    let (kind, arg) = v.split_once(':').unwrap_or((v, ""));
    // Thousandths of the parameter, exactly.
    let milli = |a: &str| -> Option<u32> {
        let (i, f) = a.split_once('.').unwrap_or((a, ""));
        if f.len() > 3 || (i.is_empty() && f.is_empty()) {
            return None;
        }
        if !i.bytes().chain(f.bytes()).all(|b| b.is_ascii_digit()) {
            return None;
        }
        let i: u32 = if i.is_empty() { 0 } else { i.parse().ok()? };
        let f: u32 = if f.is_empty() {
            0
        } else {
            format!("{f:0<3}").parse().ok()?
        };
        i.checked_mul(1000)?.checked_add(f)
    };
    let first = arg.split(':').next().unwrap_or("");
    let arg = first;
    let d = match kind {
        "random" if arg.is_empty() => Some(RandomDistribution::Random),
        "zipf" => milli(arg)
            .filter(|&t| t > 0 && t != 1000 && t <= 100_000)
            .map(RandomDistribution::Zipf),
        "pareto" => milli(arg)
            .filter(|&h| h > 0 && h < 1000)
            .map(RandomDistribution::Pareto),
        "normal" | "gauss" => milli(arg)
            .filter(|&d| d > 0 && d <= 100_000)
            .map(RandomDistribution::Normal),
        "zoned" | "zoned_abs" => return parse_zoned(key, v, kind == "zoned_abs"),
        _ => None,
    };
    d.ok_or_else(|| bad(key, v, "not a distribution", ACCEPTED))
}

/// `zoned:50/5:30/15:20/` (percent of accesses / percent of the region; an empty region share
/// takes what the others leave) or `zoned_abs:50/10g:50/100g` (sizes in bytes).
fn parse_zoned(key: &str, v: &str, abs: bool) -> Result<RandomDistribution, ScenarioError> {
    const ACCEPTED: &str =
        "zoned:ACCESS%/REGION%:... or zoned_abs:ACCESS%/SIZE:..., accesses adding up to 100";
    let body = v.split_once(':').map_or("", |(_, b)| b);
    let body = one_for_both(key, body, ACCEPTED)?;
    let mut zones: Vec<(u32, u64)> = Vec::new();
    let mut open = None;
    for (i, z) in body.split(':').filter(|z| !z.trim().is_empty()).enumerate() {
        let (a, r) = z
            .split_once('/')
            .ok_or_else(|| bad(key, v, "not a zone list", ACCEPTED))?;
        let a = uint32(key, a.trim(), 0, 100)?;
        let r = match r.trim() {
            "" if open.is_none() && !abs => {
                open = Some(i);
                0
            }
            r if abs => size(key, r, 1, MAX_DEVICE_BYTES, 1)?,
            r => uint(key, r, 0, 100)?,
        };
        zones.push((a, r));
    }
    let access: u32 = zones.iter().map(|z| z.0).sum();
    let region: u64 = zones.iter().map(|z| z.1).sum();
    if zones.is_empty() || access != 100 || (!abs && region > 100) {
        return Err(bad(key, v, "not a zone list adding up to 100%", ACCEPTED));
    }
    if let Some(i) = open {
        zones[i].1 = 100 - region;
    }
    Ok(if abs {
        RandomDistribution::ZonedAbs(zones)
    } else {
        RandomDistribution::Zoned(zones.into_iter().map(|(a, r)| (a, r as u32)).collect())
    })
}

/// A log option given bare (`write_bw_log`) is written back as the flag `1`.
fn log_text(v: &Option<String>) -> Option<String> {
    v.as_ref().map(|s| {
        if s.is_empty() {
            "1".to_string()
        } else {
            s.clone()
        }
    })
}

/// A log prefix, or none (bare, or `1`): fio then names the logs after the job.
fn log_prefix(key: &str, v: Option<&str>) -> Result<String, ScenarioError> {
    match v.map(str::trim) {
        None | Some("1") => Ok(String::new()),
        Some(p) => job_name(key, p),
    }
}

fn opt_text(v: &Option<String>) -> Option<String> {
    v.clone()
}

fn hsq_depth_text(d: HsqDepth) -> String {
    match d {
        HsqDepth::Fixed(n) => n.to_string(),
        HsqDepth::Dynamic => "dynamic".to_string(),
    }
}

fn v1(value: Option<&str>) -> &str {
    value.unwrap_or("1")
}

// ---- rows ----

use FormGroup::{Advanced as GA, Host as GH, Platform as GP, Workload as GW};
use OptionKind::{Host as H, Ignored as I, Job as J, Scenario as S};

/// A job-section row.
macro_rules! job {
    ($name:literal, $aliases:expr, $accepted:literal, $help:literal, example $example:literal,
     set |$j:ident, $k:ident, $v:ident| $set:expr, get |$g:ident| $get:expr,
     reset |$r:ident| $reset:expr, form $form:expr) => {
        OptionRow {
            name: $name,
            aliases: $aliases,
            accepted: $accepted,
            help: $help,
            kind: J,
            access: Access::Job {
                set: |$j: &mut JobSpec, $k: &str, $v: Option<&str>| {
                    $set;
                    Ok(())
                },
                get: |$g: &JobSpec| $get,
                reset: |$r: &mut JobSpec| $reset,
            },
            example: $example,
            form: $form,
        }
    };
}

/// A scenario-wide row.
macro_rules! scenario {
    ($name:literal, $accepted:literal, $help:literal, example $example:literal,
     set |$s:ident, $k:ident, $v:ident| $set:expr, get |$g:ident| $get:expr,
     reset |$r:ident| $reset:expr, form $form:expr) => {
        OptionRow {
            name: $name,
            aliases: &[],
            accepted: $accepted,
            help: $help,
            kind: S,
            access: Access::Scenario {
                set: |$s: &mut Scenario, $k: &str, $v: Option<&str>| {
                    $set;
                    Ok(())
                },
                get: |$g: &Scenario| $get,
                reset: |$r: &mut Scenario| $reset,
            },
            example: $example,
            form: $form,
        }
    };
}

/// A host-switch row over the `HostOptions` / `HostConfig` field `$field`.
macro_rules! host {
    ($name:literal, $field:ident, $accepted:literal, $help:literal, example $example:literal,
     parse |$k:ident, $v:ident, $value:ident| $parse:expr, text |$t:ident| $text:expr,
     form $form:expr) => {
        OptionRow {
            name: $name,
            aliases: &[],
            accepted: $accepted,
            help: $help,
            kind: H,
            access: Access::Host {
                set: |h: &mut HostOptions, $k: &str, $value: Option<&str>| {
                    let $v = v1($value);
                    h.$field = Some($parse);
                    Ok(())
                },
                get: |h: &HostOptions| h.$field.map(|$t| $text),
                reset: |h: &mut HostOptions| h.$field = None,
                preset: |c: &HostConfig| {
                    let $t = c.$field;
                    $text
                },
            },
            example: $example,
            form: $form,
        }
    };
}

/// An option fio users write that changes nothing in the model.
const fn ignored(name: &'static str, accepted: &'static str, help: &'static str) -> OptionRow {
    OptionRow {
        name,
        aliases: &[],
        accepted,
        help,
        kind: I,
        access: Access::Ignored,
        example: "1",
        form: None,
    }
}

const fn form(
    group: FormGroup,
    label: &'static str,
    help: &'static str,
    widget: Widget,
) -> Option<FormHint> {
    Some(FormHint {
        group,
        label,
        help,
        widget,
    })
}

const RW_NAMES: &[&str] = &["read", "write", "randread", "randwrite", "randrw", "rw"];
const IOENGINE_NAMES: &[&str] = &["psync", "sync", "libaio", "io_uring"];
const MMC_PATH_NAMES: &[&str] = &["hsq", "legacy", "cqe"];
const HSQ_DISPATCH_NAMES: &[&str] = &["fifo", "next_tag"];
const OFF_ON: &[&str] = &["0", "1"];

/// Every accepted option. Job files, command lines and links write options in this order
/// (`name` first in a job), and `--help` lists them in it by kind.
pub static OPTIONS: &[OptionRow] = &[
    // ---- job options (fio) ----
    job!("name", &[], "text", "job name; on the command line, starts a new job section",
        example "reader",
        set |j, k, v| j.name = job_name(k, v1(v))?,
        get |j| Some(j.name.clone()),
        reset |j| j.name = JobSpec::default().name,
        form None),
    job!("rw", &["readwrite"], "read, write, randread, randwrite, randrw, rw (readwrite), trim, randtrim, trimwrite",
        "I/O pattern (alias: readwrite); rw: mixed sequential; trim: discards (CMD35/36/38)",
        example "randwrite",
        set |j, k, v| (j.rw, j.rw_skip) = parse_rw(k, v1(v))?,
        get |j| Some(rw_text(j)),
        reset |j| {
            j.rw = JobSpec::default().rw;
            j.rw_skip = 0
        },
        form form(GW, "rw", "I/O pattern", Widget::Choices(RW_NAMES))),
    job!("rwmixread", &[], "0..=100", "percent of reads in randrw and rw (default 50)",
        example "70",
        set |j, k, v| j.rwmixread = uint32(k, v1(v), 0, 100)?,
        get |j| Some(j.rwmixread.to_string()),
        reset |j| j.rwmixread = JobSpec::default().rwmixread,
        form form(GA, "rwmixread", "randrw: percent of reads", Widget::Text { placeholder: "50" })),
    job!("rwmixwrite", &[], "0..=100", "percent of writes in randrw and rw (sets rwmixread = 100 - N)",
        example "30",
        set |j, k, v| j.rwmixread = 100 - uint32(k, v1(v), 0, 100)?,
        // Written as rwmixread, which holds the same fact.
        get |_j| None,
        reset |j| j.rwmixread = JobSpec::default().rwmixread,
        form None),
    job!("bs", &["blocksize"], "512..=256m, a multiple of 512",
        "block size (alias: blocksize; default 4k); above the platform's largest request the block layer splits it",
        example "16k",
        set |j, k, v| j.bs = size(k, one_for_both(k, v1(v), "one size such as 4k")?, 512, MAX_BS, 512)?,
        get |j| Some(format_size(j.bs)),
        reset |j| j.bs = JobSpec::default().bs,
        form form(GW, "bs", "Block size per I/O", Widget::Text { placeholder: "4k" })),
    job!("size", &[], "1..=1t", "bytes each job clone transfers (default 64m)",
        example "8m",
        set |j, k, v| j.size = match zones(j, k, v1(v))? {
            Some(b) => size(k, &b.to_string(), 1, MAX_DEVICE_BYTES, 1)?,
            None => size(k, v1(v), 1, MAX_DEVICE_BYTES, 1)?,
        },
        get |j| Some(format_size(j.size)),
        reset |j| j.size = JobSpec::default().size,
        form form(GW, "size", "Bytes per job", Widget::Text { placeholder: "64m" })),
    job!("numjobs", &[], "1..=256", "clones of this job (default 1)",
        example "4",
        set |j, k, v| j.numjobs = uint32(k, v1(v), 1, MAX_NUMJOBS)?,
        get |j| Some(j.numjobs.to_string()),
        reset |j| j.numjobs = JobSpec::default().numjobs,
        form form(GW, "numjobs", "Jobs issuing I/O in parallel", Widget::Text { placeholder: "1" })),
    job!("iodepth", &[], "1..=1024", "I/Os outstanding per clone with libaio/io_uring (default 1)",
        example "8",
        set |j, k, v| j.iodepth = uint32(k, v1(v), 1, 1024)?,
        get |j| Some(j.iodepth.to_string()),
        reset |j| j.iodepth = JobSpec::default().iodepth,
        form form(GW, "iodepth", "Outstanding I/Os per job (libaio, io_uring)", Widget::Text { placeholder: "1" })),
    job!("ioengine", &[], "psync, sync, vsync, pvsync, pvsync2, libaio, io_uring, posixaio",
        "psync/sync/vsync/pvsync/pvsync2: one I/O at a time; libaio/io_uring/posixaio: iodepth",
        example "libaio",
        set |j, k, v| j.ioengine = parse_ioengine(k, v1(v))?,
        get |j| Some(j.ioengine.name().to_string()),
        reset |j| j.ioengine = JobSpec::default().ioengine,
        form form(GW, "ioengine", "psync, sync: one I/O at a time per job", Widget::Choices(IOENGINE_NAMES))),
    job!("runtime", &["timeout"], "time (default unit s) up to 24h, 0 = none",
        "stop the job after this much simulated time (time-based runs stop at the I/O budget)",
        example "20ms",
        set |j, k, v| {
            let ns = time(k, v1(v), MAX_RUNTIME_NS, "up to 24h of simulated time")?;
            j.runtime_ns = (ns > 0).then_some(ns)
        },
        get |j| j.runtime_ns.map(format_time_ns),
        reset |j| j.runtime_ns = JobSpec::default().runtime_ns,
        form form(GA, "runtime", "Stop each job after this simulated time (0 = none)", Widget::Text { placeholder: "none" })),
    job!("time_based", &[], "flag or 0|1", "keep looping over size until runtime is over",
        example "1",
        set |j, k, v| j.time_based = flag(k, v)?,
        get |j| Some(b(j.time_based)),
        reset |j| j.time_based = JobSpec::default().time_based,
        form form(GA, "time_based", "Loop over size until runtime is over", Widget::Choices(OFF_ON))),
    job!("direct", &[], "0|1", "O_DIRECT; direct=0 runs as direct I/O (the model has no page cache)",
        example "0",
        set |j, k, v| j.direct = flag(k, v)?,
        get |j| Some(b(j.direct)),
        reset |j| j.direct = JobSpec::default().direct,
        form None),
    job!("sync", &[], "0|1", "O_SYNC: every write carries REQ_FUA",
        example "1",
        set |j, k, v| {
            j.sync = match v1(v) {
                "sync" | "dsync" => true,
                "none" => false,
                _ => flag(k, v)?,
            }
        },
        get |j| Some(b(j.sync)),
        reset |j| j.sync = JobSpec::default().sync,
        form form(GA, "sync", "O_SYNC: every write carries REQ_FUA", Widget::Choices(OFF_ON))),
    job!("fsync", &[], "0..", "issue a cache flush after every N writes (0 = never)",
        example "8",
        set |j, k, v| j.fsync = uint32(k, v1(v), 0, u32::MAX)?,
        get |j| Some(j.fsync.to_string()),
        reset |j| j.fsync = JobSpec::default().fsync,
        form form(GA, "fsync", "A cache flush after every N writes (0 = never)", Widget::Text { placeholder: "0" })),
    job!("offset", &[], "size, a multiple of 512", "where the job's region starts on the device",
        example "64m",
        set |j, k, v| j.offset = match zones(j, k, v1(v))? {
            Some(b) => size(k, &b.to_string(), 0, MAX_DEVICE_BYTES, 512)?,
            None => size(k, v1(v), 0, MAX_DEVICE_BYTES, 512)?,
        },
        get |j| Some(format_size(j.offset)),
        reset |j| j.offset = JobSpec::default().offset,
        form None),
    job!("bsrange", &["blocksize_range"], "MIN-MAX, multiples of 512 up to 64m",
        "each I/O a random multiple of MIN between MIN and MAX (overrides bs)",
        example "4k-16k",
        set |j, k, v| j.bsrange = Some(parse_bsrange(k, v1(v))?),
        get |j| j.bsrange.map(bsrange_text),
        reset |j| j.bsrange = None,
        form None),
    job!("bssplit", &[], "SIZE/PERCENT:SIZE/PERCENT...[,WRITES]",
        "block sizes and their share of the I/Os, e.g. 4k/30:64k/70; after a comma the writes' (overrides bs)",
        example "4k/50:16k/50",
        set |j, k, v| (j.bssplit, j.bssplit_write) = parse_bssplit_rw(k, v1(v))?,
        get |j| (!j.bssplit.is_empty()).then(|| match &j.bssplit_write {
            Some(w) => format!("{},{}", bssplit_text(&j.bssplit), bssplit_text(w)),
            None => bssplit_text(&j.bssplit),
        }),
        reset |j| {
            j.bssplit = Vec::new();
            j.bssplit_write = None
        },
        form None),
    job!("rate", &[], "bytes per second, e.g. 10m (0 = unlimited)",
        "cap on the bandwidth each clone issues",
        example "1m",
        set |j, k, v| j.rate = size(k, one_for_both(k, v1(v), "one rate such as 10m")?, 0, MAX_DEVICE_BYTES, 1)?,
        get |j| (j.rate > 0).then(|| format_size(j.rate)),
        reset |j| j.rate = 0,
        form None),
    job!("rate_iops", &[], "I/Os per second (0 = unlimited)",
        "cap on the I/Os per second each clone issues",
        example "100",
        set |j, k, v| j.rate_iops = uint(k, one_for_both(k, v1(v), "one rate such as 500")?, 0, 100_000_000)?,
        get |j| (j.rate_iops > 0).then(|| j.rate_iops.to_string()),
        reset |j| j.rate_iops = 0,
        form None),
    job!("thinktime", &[], "time, bare numbers in microseconds",
        "pause this long after every thinktime_blocks I/Os",
        example "100",
        set |j, k, v| j.thinktime_ns = time_us(k, v1(v), MAX_TIME_NS)?,
        get |j| (j.thinktime_ns > 0).then(|| format_time_ns(j.thinktime_ns)),
        reset |j| j.thinktime_ns = 0,
        form None),
    job!("thinktime_blocks", &[], "1..", "I/Os between two thinktime pauses (default 1)",
        example "4",
        set |j, k, v| j.thinktime_blocks = uint32(k, v1(v), 1, u32::MAX)?,
        get |j| Some(j.thinktime_blocks.to_string()),
        reset |j| j.thinktime_blocks = 1,
        form None),
    job!("random_distribution", &[], "random, zipf:THETA, pareto:H, normal:DEV, zoned:..., zoned_abs:...",
        "how random jobs pick blocks: uniform (default) or skewed toward hot blocks",
        example "zipf:1.2",
        set |j, k, v| j.random_distribution = parse_distribution(k, v1(v))?,
        get |j| Some(j.random_distribution.to_text()),
        reset |j| j.random_distribution = RandomDistribution::Random,
        form None),
    job!("stonewall", &["wait_for_previous"], "flag or 0|1",
        "start when every earlier job has finished; begins a new reporting group",
        example "1",
        set |j, k, v| j.stonewall = flag(k, v)?,
        get |j| Some(b(j.stonewall)),
        reset |j| j.stonewall = false,
        form None),
    job!("exitall", &[], "flag or 0|1",
        "when this job finishes, stop every job of its reporting group",
        example "1",
        set |j, k, v| j.exitall = flag(k, v)?,
        get |j| Some(b(j.exitall)),
        reset |j| j.exitall = false,
        form None),
    job!("steadystate", &["ss"], "iops, iops_slope, bw, bw_slope, lat or lat_slope, ':' and a limit (N or N%)",
        "with ss_dur: stop the job once the metric over the window is steady (default iops_slope:0.01%)",
        example "iops:10%",
        set |j, k, v| j.steadystate = Some({
            let t = v1(v).trim();
            super::steadystate::parse(t).map_err(|acc| bad(k, t, "not a steady-state criterion", acc))?;
            t.to_string()
        }),
        get |j| j.steadystate.clone(),
        reset |j| j.steadystate = None,
        form None),
    job!("steadystate_duration", &["ss_dur"], "time (default unit s), 0 = off",
        "steady-state window: the job stops once this much of samples is steady",
        example "30s",
        set |j, k, v| j.ss_dur_ns = time(k, v1(v), MAX_RUNTIME_NS, "up to 24h of simulated time")?,
        get |j| (j.ss_dur_ns > 0).then(|| format_time_ns(j.ss_dur_ns)),
        reset |j| j.ss_dur_ns = 0,
        form None),
    job!("steadystate_ramp_time", &["ss_ramp"], "time (default unit s)",
        "time before steady-state samples are taken",
        example "10s",
        set |j, k, v| j.ss_ramp_ns = time(k, v1(v), MAX_RUNTIME_NS, "up to 24h of simulated time")?,
        get |j| (j.ss_ramp_ns > 0).then(|| format_time_ns(j.ss_ramp_ns)),
        reset |j| j.ss_ramp_ns = 0,
        form None),
    job!("steadystate_check_interval", &["ss_interval"], "time (default unit s), at least 1ms",
        "period of the steady-state samples (default 1s)",
        example "5s",
        set |j, k, v| j.ss_interval_ns = time(k, v1(v), MAX_RUNTIME_NS, "up to 24h of simulated time")?.max(1_000_000),
        get |j| (j.ss_interval_ns != 1_000_000_000).then(|| format_time_ns(j.ss_interval_ns)),
        reset |j| j.ss_interval_ns = 1_000_000_000,
        form None),
    job!("new_group", &[], "flag or 0|1", "begin a new reporting group",
        example "1",
        set |j, k, v| j.new_group = flag(k, v)?,
        get |j| Some(b(j.new_group)),
        reset |j| j.new_group = false,
        form None),
    job!("zonemode", &[], "none, strided, zbd",
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
        form None),
    job!("max_open_zones", &[], "0..=4096", "zonemode=zbd: zones written at once (0: no limit)",
        example "32",
        set |j, k, v| j.max_open_zones = uint(k, v1(v), 0, 4096)? as u32,
        get |j| (j.max_open_zones > 0).then(|| j.max_open_zones.to_string()),
        reset |j| j.max_open_zones = 0,
        form None),
    job!("read_beyond_wp", &[], "flag or 0|1", "zonemode=zbd: reads may go past a zone's write pointer",
        example "1",
        set |j, k, v| j.read_beyond_wp = flag(k, v)?,
        get |j| Some(b(j.read_beyond_wp)),
        reset |j| j.read_beyond_wp = false,
        form None),
    job!("zone_reset_threshold", &[], "0..=1", "zonemode=zbd: share of the region's bytes written before zones are reset",
        example "0.7",
        set |j, k, v| j.zone_reset_threshold_ppm = fraction_ppm(k, v1(v))?,
        get |j| (j.zone_reset_threshold_ppm > 0).then(|| format!("{}", j.zone_reset_threshold_ppm as f64 / 1e6)),
        reset |j| j.zone_reset_threshold_ppm = 0,
        form None),
    job!("zone_reset_frequency", &[], "0..=1", "zonemode=zbd: past the threshold, one zone reset per 1/N writes",
        example "0.125",
        set |j, k, v| j.zone_reset_frequency_ppm = fraction_ppm(k, v1(v))?,
        get |j| (j.zone_reset_frequency_ppm > 0).then(|| format!("{}", j.zone_reset_frequency_ppm as f64 / 1e6)),
        reset |j| j.zone_reset_frequency_ppm = 0,
        form None),
    job!("zonesize", &[], "size, a multiple of 512", "zonemode=strided: bytes of I/O in each zone; zbd: the emulated zone size",
        example "1m",
        set |j, k, v| j.zonesize = Some(size(k, v1(v), 512, MAX_DEVICE_BYTES, 512)?),
        get |j| j.zonesize.map(format_size),
        reset |j| j.zonesize = None,
        form None),
    job!("zoneskip", &[], "size, a multiple of 512", "zonemode=strided: bytes skipped after each zone",
        example "8m",
        set |j, k, v| j.zoneskip = size(k, v1(v), 0, MAX_DEVICE_BYTES, 512)?,
        get |j| (j.zoneskip > 0).then(|| format_size(j.zoneskip)),
        reset |j| j.zoneskip = 0,
        form None),
    job!("wait_for", &[], "an earlier job's name",
        "start when every clone of that job has finished",
        example "writer",
        set |j, k, v| j.wait_for = Some(job_name(k, v1(v))?),
        get |j| opt_text(&j.wait_for),
        reset |j| j.wait_for = None,
        form None),
    job!("loops", &[], "1..=1000000", "passes over the region (default 1)",
        example "2",
        set |j, k, v| j.loops = uint32(k, v1(v), 1, 1_000_000)?,
        get |j| Some(j.loops.to_string()),
        reset |j| j.loops = 1,
        form None),
    job!("io_size", &["io_limit"], "size", "bytes each clone transfers, wrapping around its region",
        example "8m",
        set |j, k, v| j.io_size = Some(size(k, v1(v), 1, MAX_DEVICE_BYTES, 1)?),
        get |j| j.io_size.map(format_size),
        reset |j| j.io_size = None,
        form None),
    job!("number_ios", &[], "1..", "stop each clone after this many I/Os",
        example "100",
        set |j, k, v| j.number_ios = Some(uint(k, v1(v), 1, u64::MAX)?),
        get |j| j.number_ios.map(|n| n.to_string()),
        reset |j| j.number_ios = None,
        form None),
    job!("filesize", &[], "size", "size of each of the nrfiles files (default size / nrfiles)",
        example "8m",
        set |j, k, v| j.filesize = Some(size(k, v1(v), 512, MAX_DEVICE_BYTES, 1)?),
        get |j| j.filesize.map(format_size),
        reset |j| j.filesize = None,
        form None),
    job!("nrfiles", &["nr_files"], "1..=4096", "files per job, laid out one after the other on the device",
        example "4",
        set |j, k, v| j.nrfiles = uint32(k, v1(v), 1, 4096)?,
        get |j| Some(j.nrfiles.to_string()),
        reset |j| j.nrfiles = 1,
        form None),
    job!("offset_increment", &[], "size, a multiple of 512",
        "clone k of the section starts at offset + k * offset_increment",
        example "16m",
        set |j, k, v| j.offset_increment = size(k, v1(v), 0, MAX_DEVICE_BYTES, 512)?,
        get |j| (j.offset_increment > 0).then(|| format_size(j.offset_increment)),
        reset |j| j.offset_increment = 0,
        form None),
    job!("ramp_time", &[], "time (default unit s)",
        "run this long before recording statistics (excluded from the report)",
        example "10ms",
        set |j, k, v| j.ramp_time_ns = time(k, v1(v), MAX_TIME_NS, "a time up to 24h")?,
        get |j| (j.ramp_time_ns > 0).then(|| format_time_ns(j.ramp_time_ns)),
        reset |j| j.ramp_time_ns = 0,
        form None),
    job!("startdelay", &[], "time (default unit s)", "start the job this long after its group",
        example "1ms",
        set |j, k, v| j.startdelay_ns = time(k, v1(v), MAX_TIME_NS, "a time up to 24h")?,
        get |j| (j.startdelay_ns > 0).then(|| format_time_ns(j.startdelay_ns)),
        reset |j| j.startdelay_ns = 0,
        form None),
    job!("fdatasync", &[], "0..", "issue a cache flush after every N writes (as fsync on a block device)",
        example "4",
        set |j, k, v| j.fdatasync = uint32(k, v1(v), 0, u32::MAX)?,
        get |j| Some(j.fdatasync.to_string()),
        reset |j| j.fdatasync = 0,
        form None),
    job!("end_fsync", &[], "flag or 0|1", "issue a cache flush when the job's I/O is done",
        example "1",
        set |j, k, v| j.end_fsync = flag(k, v)?,
        get |j| Some(b(j.end_fsync)),
        reset |j| j.end_fsync = false,
        form None),
    job!("fsync_on_close", &[], "flag or 0|1", "issue a cache flush when the job closes its files",
        example "1",
        set |j, k, v| j.fsync_on_close = flag(k, v)?,
        get |j| Some(b(j.fsync_on_close)),
        reset |j| j.fsync_on_close = false,
        form None),
    job!("read_iolog", &[], "trace file (fio iolog v2/v3 or blkparse text)",
        "replay this trace instead of rw/bs/size",
        example "trace.log",
        set |j, k, v| j.read_iolog = Some(job_name(k, v1(v))?),
        get |j| opt_text(&j.read_iolog),
        reset |j| j.read_iolog = None,
        form None),
    job!("replay_no_stall", &[], "flag or 0|1", "replay as fast as possible, ignoring the trace's times",
        example "1",
        set |j, k, v| j.replay_no_stall = flag(k, v)?,
        get |j| Some(b(j.replay_no_stall)),
        reset |j| j.replay_no_stall = false,
        form None),
    job!("write_iolog", &[], "file", "write the I/Os issued as a fio iolog v2 file",
        example "out.iolog",
        set |j, k, v| j.write_iolog = Some(job_name(k, v1(v))?),
        get |j| opt_text(&j.write_iolog),
        reset |j| j.write_iolog = None,
        form None),
    job!("write_bw_log", &[], "flag or file prefix", "write PREFIX_bw.N.log (KiB/s per I/O or per log_avg_msec)",
        example "run",
        set |j, k, v| j.write_bw_log = Some(log_prefix(k, v)?),
        get |j| log_text(&j.write_bw_log),
        reset |j| j.write_bw_log = None,
        form None),
    job!("write_lat_log", &[], "flag or file prefix", "write PREFIX_{lat,clat,slat}.N.log (ns)",
        example "run",
        set |j, k, v| j.write_lat_log = Some(log_prefix(k, v)?),
        get |j| log_text(&j.write_lat_log),
        reset |j| j.write_lat_log = None,
        form None),
    job!("write_iops_log", &[], "flag or file prefix", "write PREFIX_iops.N.log",
        example "run",
        set |j, k, v| j.write_iops_log = Some(log_prefix(k, v)?),
        get |j| log_text(&j.write_iops_log),
        reset |j| j.write_iops_log = None,
        form None),
    job!("log_avg_msec", &[], "0..=86400000", "average log entries over windows of this many ms (0 = every I/O)",
        example "10",
        set |j, k, v| j.log_avg_msec = uint32(k, v1(v), 0, 86_400_000)?,
        get |j| Some(j.log_avg_msec.to_string()),
        reset |j| j.log_avg_msec = 0,
        form None),
    // ---- scenario options (one value for the whole run) ----
    scenario!("platform", "a preset, see --list-platforms", "measured platform to simulate",
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
        form form(GP, "Preset", "", Widget::Platforms)),
    host!("mmc_path", mmc_path, "hsq, legacy, cqe", "host request path (default: the platform's)",
        example "legacy",
        parse |k, v, _value| one_of(k, v, &MmcPath::ALL, MmcPath::name, "not a request path")?,
        text |p| p.name().to_string(),
        form form(GH, "mmc_path", "hsq: host software queue; cqe: command queueing", Widget::Choices(MMC_PATH_NAMES))),
    host!("nonblocking", nonblocking, "0|1", "legacy path: prepare the next request during the transfer",
        example "1",
        parse |k, _v, value| flag(k, value)?,
        text |x| b(x),
        form form(GH, "nonblocking", "Legacy path: prepare the next request early", Widget::OnOff)),
    host!("hsq_depth", hsq_depth, "1..=63, dynamic", "hsq window: in_flight limit (dynamic = 2023 patch)",
        example "dynamic",
        parse |k, v, _value| match v {
            "dynamic" => HsqDepth::Dynamic,
            _ => HsqDepth::Fixed(
                parse_uint(v, 1, 63).map_err(|_| bad(k, v, "not an hsq depth", "1..=63, dynamic"))? as u32,
            ),
        },
        text |d| hsq_depth_text(d),
        form form(GH, "hsq_depth", "hsq window, or dynamic", Widget::Text { placeholder: "" })),
    host!("hsq_dispatch", hsq_dispatch, "fifo, next_tag", "hsq slot order: fifo (2022 patch, default) or next_tag (before it)",
        example "next_tag",
        parse |k, v, _value| one_of(k, v, &HsqDispatch::ALL, HsqDispatch::name, "not an hsq dispatch order")?,
        text |d| d.name().to_string(),
        form form(GH, "hsq_dispatch", "hsq slot order: fifo, or next_tag as before 2022", Widget::Choices(HSQ_DISPATCH_NAMES))),
    host!("packed", packed, "0, 2..=16", "ADMA3 batch size (0 = off; max checked against the platform)",
        example "4",
        parse |k, v, _value| {
            let n = parse_uint(v, 0, 16).ok().filter(|&n| n != 1);
            n.ok_or_else(|| bad(k, v, "not a batch size", "0 (off) or 2..=16"))? as u32
        },
        text |n| n.to_string(),
        form form(GH, "packed", "ADMA3 chain length (0 = off)", Widget::Text { placeholder: "" })),
    host!("fua", fua, "0|1", "host advertises FUA: O_SYNC writes become reliable writes",
        example "0",
        parse |k, _v, value| flag(k, value)?,
        text |x| b(x),
        form form(GH, "fua", "O_SYNC writes as reliable writes", Widget::OnOff)),
    host!("cache", cache, "0|1", "the card's volatile write cache is on",
        example "0",
        parse |k, _v, value| flag(k, value)?,
        text |x| b(x),
        form form(GA, "cache", "The card's volatile write cache", Widget::OnOff)),
    scenario!("randseed", "0..", "seed of every random choice (default 137)",
        example "7",
        set |s, k, v| s.randseed = uint(k, v1(v), 0, u64::MAX)?,
        get |s| Some(s.randseed.to_string()),
        reset |s| s.randseed = Scenario::default().randseed,
        form None),
    scenario!("group_reporting", "flag or 0|1", "report all jobs as one",
        example "1",
        set |s, k, v| s.group_reporting = flag(k, v)?,
        get |s| Some(b(s.group_reporting)),
        reset |s| s.group_reporting = Scenario::default().group_reporting,
        form None),
    scenario!("mmc_test", "37..=44",
        "run this kernel mmc_test case instead of fio jobs: 128 MiB per transfer size (a size= other than 64m sets it)",
        example "38",
        set |s, k, v| {
            let v = v1(v);
            let n = parse_uint(v, 37, 44).map_err(|_| bad(k, v, "not an mmc_test performance case", "37..=44"))?;
            s.mmc_test = Some(n as u32)
        },
        get |s| s.mmc_test.map(|n| n.to_string()),
        reset |s| s.mmc_test = None,
        form form(GA, "mmc_test", "Kernel mmc_test case 37..=44 instead of fio jobs (empty = fio)", Widget::Text { placeholder: "fio jobs" })),
    scenario!("power_cut", "time > 0 (e.g. 50ms, 2s)",
        "cut the power at this simulated time; report acknowledged writes lost",
        example "50ms",
        set |s, k, v| {
            let v = v1(v);
            let t = parse_time_ns(v).ok().filter(|&t| t > 0 && t <= MAX_TIME_NS);
            s.power_cut_ns = Some(t.ok_or_else(|| bad(k, v, "not a time", "a time > 0 up to 24h, e.g. 50ms, 2s"))?)
        },
        get |s| s.power_cut_ns.map(format_time_ns),
        reset |s| s.power_cut_ns = None,
        form None),
    scenario!("inject_error", "crc:RATE, 0 < RATE <= 0.5",
        "the card answers data transfers with CRC errors at this rate",
        example "crc:0.01",
        set |s, k, v| s.inject_error = Some(ErrorInjection::parse(v1(v)).map_err(|m| ScenarioError::new(k, m))?),
        get |s| s.inject_error.map(|e| e.to_text()),
        reset |s| s.inject_error = None,
        form form(GA, "inject_error", "CRC errors on data transfers, e.g. crc:0.01", Widget::Text { placeholder: "none" })),
    // ---- accepted, no effect in the model (fio compatibility) ----
    ignored("filename", "any", "accepted, no effect in the model: the model is one eMMC device"),
    ignored("directory", "any", "accepted, no effect in the model: the model is one eMMC device"),
    ignored("filename_format", "any", "accepted, no effect in the model: the model is one eMMC device"),
    ignored("thread", "any", "accepted, no effect in the model: threads and processes cost the same in the model"),
    ignored("invalidate", "any", "accepted, no effect in the model: the model has no page cache"),
    ignored("randrepeat", "any", "accepted, no effect in the model: randseed alone decides the random sequence"),
    ignored("norandommap", "any", "accepted, no effect in the model: random offsets are drawn without a map"),
    ignored("ioscheduler", "any", "accepted, no effect in the model: the model has no I/O scheduler (none)"),
    ignored("description", "any", "accepted, no effect in the model: a comment"),
    ignored("buffered", "0|1", "buffered=1 runs as direct I/O: the model has no page cache"),
    ignored("gtod_reduce", "any", "accepted, no effect in the model: timekeeping cost is not modelled"),
    ignored("clocksource", "any", "accepted, no effect in the model: timekeeping cost is not modelled"),
    ignored("buffer_pattern", "any", "accepted, no effect in the model: the data written does not change its timing"),
    ignored("buffer_compress_percentage", "any", "accepted, no effect in the model: the card does not compress"),
    ignored("buffer_compress_chunk", "any", "accepted, no effect in the model: the card does not compress"),
    ignored("refill_buffers", "any", "accepted, no effect in the model: the data written does not change its timing"),
    ignored("scramble_buffers", "any", "accepted, no effect in the model: the data written does not change its timing"),
    ignored("zero_buffers", "any", "accepted, no effect in the model: the data written does not change its timing"),
    ignored("dedupe_percentage", "any", "accepted, no effect in the model: the card does not deduplicate"),
    ignored("verify", "any", "accepted, no effect in the model: the data pattern is not modelled, nor the verification read pass"),
    ignored("do_verify", "any", "accepted, no effect in the model: the verification read pass is not modelled"),
    ignored("verify_pattern", "any", "accepted, no effect in the model: the data pattern is not modelled"),
    ignored("verify_interval", "any", "accepted, no effect in the model: the data pattern is not modelled"),
    ignored("verify_fatal", "any", "accepted, no effect in the model: the data pattern is not modelled"),
    ignored("verify_dump", "any", "accepted, no effect in the model: the data pattern is not modelled"),
    ignored("verify_backlog", "any", "accepted, no effect in the model: the verification read pass is not modelled"),
    ignored("verify_async", "any", "accepted, no effect in the model: the verification read pass is not modelled"),
    ignored("experimental_verify", "any", "accepted, no effect in the model: the verification read pass is not modelled"),
    ignored("create_on_open", "any", "accepted, no effect in the model: files are regions of the device"),
    ignored("create_serialize", "any", "accepted, no effect in the model: files are regions of the device"),
    ignored("create_fsync", "any", "accepted, no effect in the model: files are regions of the device"),
    ignored("allow_file_create", "any", "accepted, no effect in the model: files are regions of the device"),
    ignored("unlink", "any", "accepted, no effect in the model: files are regions of the device"),
    ignored("fallocate", "any", "accepted, no effect in the model: files are regions of the device"),
    ignored("fadvise_hint", "any", "accepted, no effect in the model: the model has no page cache"),
    ignored("pre_read", "any", "accepted, no effect in the model: the model has no page cache"),
    ignored("overwrite", "any", "accepted, no effect in the model: files are regions of the device"),
    ignored("file_service_type", "any", "accepted, no effect in the model: files are served round robin"),
    ignored("lockfile", "any", "accepted, no effect in the model: one process per job"),
    ignored("io_submit_mode", "any", "accepted, no effect in the model: submission is inline in the job's thread"),
    ignored("iodepth_batch", "any", "accepted, no effect in the model: batching of io_submit is not modelled"),
    ignored("iodepth_batch_submit", "any", "accepted, no effect in the model: batching of io_submit is not modelled"),
    ignored("iodepth_batch_complete", "any", "accepted, no effect in the model: batching of io_getevents is not modelled"),
    ignored("iodepth_batch_complete_min", "any", "accepted, no effect in the model: batching of io_getevents is not modelled"),
    ignored("iodepth_batch_complete_max", "any", "accepted, no effect in the model: batching of io_getevents is not modelled"),
    ignored("iodepth_low", "any", "accepted, no effect in the model: refilling happens at every completion"),
    ignored("userspace_reap", "any", "accepted, no effect in the model: reaping cost is not modelled"),
    ignored("hipri", "any", "accepted, no effect in the model: completion polling is not modelled"),
    ignored("fixedbufs", "any", "accepted, no effect in the model: buffer registration is not modelled"),
    ignored("registerfiles", "any", "accepted, no effect in the model: file registration is not modelled"),
    ignored("sqthread_poll", "any", "accepted, no effect in the model: submission polling is not modelled"),
    ignored("nowait", "any", "accepted, no effect in the model: I/Os never block in the model"),
    ignored("rate_min", "any", "accepted, no effect in the model: a job is never aborted for being slow"),
    ignored("rate_iops_min", "any", "accepted, no effect in the model: a job is never aborted for being slow"),
    ignored("rate_process", "any", "accepted, no effect in the model: rate is paced linearly"),
    ignored("rate_cycle", "any", "accepted, no effect in the model: rate is paced linearly"),
    ignored("thinktime_spin", "any", "accepted, no effect in the model: spinning and sleeping cost the same"),
    ignored("thinktime_iotime", "any", "accepted, no effect in the model: thinktime pauses after thinktime_blocks I/Os"),
    ignored("cpus_allowed", "any", "accepted, no effect in the model: CPU placement is not modelled"),
    ignored("cpus_allowed_policy", "any", "accepted, no effect in the model: CPU placement is not modelled"),
    ignored("cpumask", "any", "accepted, no effect in the model: CPU placement is not modelled"),
    ignored("numa_cpu_nodes", "any", "accepted, no effect in the model: CPU placement is not modelled"),
    ignored("numa_mem_policy", "any", "accepted, no effect in the model: CPU placement is not modelled"),
    ignored("nice", "any", "accepted, no effect in the model: CPU scheduling is not modelled"),
    ignored("prio", "any", "accepted, no effect in the model: I/O priority has no effect without a scheduler"),
    ignored("prioclass", "any", "accepted, no effect in the model: I/O priority has no effect without a scheduler"),
    ignored("cmdprio_percentage", "any", "accepted, no effect in the model: I/O priority has no effect without a scheduler"),
    ignored("mem", "any", "accepted, no effect in the model: buffer memory is not modelled"),
    ignored("iomem", "any", "accepted, no effect in the model: buffer memory is not modelled"),
    ignored("iomem_align", "any", "accepted, no effect in the model: buffer memory is not modelled"),
    ignored("mem_align", "any", "accepted, no effect in the model: buffer memory is not modelled"),
    ignored("hugepage-size", "any", "accepted, no effect in the model: buffer memory is not modelled"),
    ignored("lockmem", "any", "accepted, no effect in the model: buffer memory is not modelled"),
    ignored("kb_base", "any", "accepted, no effect in the model: sizes are powers of 1024"),
    ignored("unit_base", "any", "accepted, no effect in the model: the report is in bytes"),
    ignored("stats", "any", "accepted, no effect in the model: statistics are always kept"),
    ignored("disable_lat", "any", "accepted, no effect in the model: statistics are always kept"),
    ignored("disable_clat", "any", "accepted, no effect in the model: statistics are always kept"),
    ignored("disable_slat", "any", "accepted, no effect in the model: statistics are always kept"),
    ignored("disable_bw_measurement", "any", "accepted, no effect in the model: statistics are always kept"),
    ignored("clat_percentiles", "any", "accepted, no effect in the model: fio's percentiles are always reported"),
    ignored("lat_percentiles", "any", "accepted, no effect in the model: fio's percentiles are always reported"),
    ignored("slat_percentiles", "any", "accepted, no effect in the model: fio's percentiles are always reported"),
    ignored("percentile_list", "any", "accepted, no effect in the model: fio's default percentiles are reported"),
    ignored("significant_figures", "any", "accepted, no effect in the model: the report has fio's default precision"),
    ignored("unified_rw_reporting", "any", "accepted, no effect in the model: reads and writes are reported apart"),
    ignored("per_job_logs", "any", "accepted, no effect in the model: one log per job clone"),
    ignored("log_offset", "any", "accepted, no effect in the model: logs carry the offset column"),
    ignored("log_max_value", "any", "accepted, no effect in the model: logs carry averages"),
    ignored("log_hist_msec", "any", "accepted, no effect in the model: histogram logs are not written"),
    ignored("write_hist_log", "any", "accepted, no effect in the model: histogram logs are not written"),
    ignored("bwavgtime", "any", "accepted, no effect in the model: bandwidth is averaged over the run"),
    ignored("iopsavgtime", "any", "accepted, no effect in the model: IOPS are averaged over the run"),
    ignored("disk_util", "any", "accepted, no effect in the model: disk utilisation is not reported"),
    ignored("status_interval", "any", "accepted, no effect in the model: the report comes at the end"),
    ignored("exitall_on_error", "any", "accepted, no effect in the model: jobs end on their own"),
    ignored("continue_on_error", "any", "accepted, no effect in the model: errors are counted, jobs continue"),
    ignored("uid", "any", "accepted, no effect in the model: permissions are not modelled"),
    ignored("gid", "any", "accepted, no effect in the model: permissions are not modelled"),
    ignored("serialize_overlap", "any", "accepted, no effect in the model: I/Os never overlap in the model"),
    ignored("random_generator", "any", "accepted, no effect in the model: randseed drives the model's own generator"),
    ignored("allrandrepeat", "any", "accepted, no effect in the model: randseed alone decides the random sequence"),
    ignored("replay_redirect", "any", "accepted, no effect in the model: the trace replays on the one modelled device"),
    ignored("replay_align", "any", "accepted, no effect in the model: trace offsets are used as they are"),
    ignored("replay_scale", "any", "accepted, no effect in the model: trace offsets are used as they are"),
    ignored("sync_file_range", "any", "accepted, no effect in the model: the model is direct I/O: there is no dirty page cache"),
    ignored("write_barrier", "any", "accepted, no effect in the model: barriers are flushes; use fsync=N"),
    ignored("atomic", "any", "accepted, no effect in the model: atomic writes are not modelled"),
    ignored("gtod_cpu", "any", "accepted, no effect in the model: timekeeping cost is not modelled"),
    ignored("cgroup", "any", "accepted, no effect in the model: cgroups are not modelled"),
    ignored("cgroup_weight", "any", "accepted, no effect in the model: cgroups are not modelled"),
    ignored("fill_device", "any", "accepted, no effect in the model: the region is the job's size"),
    ignored("fill_fs", "any", "accepted, no effect in the model: the region is the job's size"),
    ignored("blockalign", "any", "accepted, no effect in the model: random offsets are aligned to the smallest block size"),
    ignored("ba", "any", "accepted, no effect in the model: random offsets are aligned to the smallest block size"),
    ignored("bs_unaligned", "any", "accepted, no effect in the model: block sizes are multiples of 512"),
    ignored("bs_is_seq_rand", "any", "accepted, no effect in the model: bs applies to every I/O"),
    ignored("threads", "any", "accepted, no effect in the model: threads and processes cost the same in the model"),
    ignored("flow", "any", "accepted, no effect in the model: jobs are not throttled against each other"),
    ignored("flow_sleep", "any", "accepted, no effect in the model: jobs are not throttled against each other"),
    ignored("latency_target", "any", "accepted, no effect in the model: the queue depth search is not simulated: jobs run at iodepth"),
    ignored("latency_window", "any", "accepted, no effect in the model: the queue depth search is not simulated: jobs run at iodepth"),
    ignored("latency_percentile", "any", "accepted, no effect in the model: the queue depth search is not simulated: jobs run at iodepth"),
    ignored("latency_run", "any", "accepted, no effect in the model: the queue depth search is not simulated: jobs run at iodepth"),
    ignored("rwmixcycle", "any", "accepted, no effect in the model: reads and writes are mixed per I/O"),
    ignored("ignore_error", "any", "accepted, no effect in the model: errors are counted, jobs continue"),
    ignored("error_dump", "any", "accepted, no effect in the model: errors are counted, jobs continue"),
    ignored("exit_what", "any", "accepted, no effect in the model: jobs end on their own"),
    ignored("dedupe_mode", "any", "accepted, no effect in the model: the card does not deduplicate"),
    ignored("dedupe_global", "any", "accepted, no effect in the model: the card does not deduplicate"),
    ignored("dedupe_working_set_percentage", "any", "accepted, no effect in the model: the card does not deduplicate"),
    ignored("cmdprio", "any", "accepted, no effect in the model: I/O priority has no effect without a scheduler"),
    ignored("cmdprio_class", "any", "accepted, no effect in the model: I/O priority has no effect without a scheduler"),
    ignored("cmdprio_bssplit", "any", "accepted, no effect in the model: I/O priority has no effect without a scheduler"),
    ignored("log_prio", "any", "accepted, no effect in the model: I/O priority has no effect without a scheduler"),
    ignored("verify_write_sequence", "any", "accepted, no effect in the model: the data pattern is not modelled"),
    ignored("verify_state_save", "any", "accepted, no effect in the model: the data pattern is not modelled"),
    ignored("verify_only", "any", "accepted, no effect in the model: the verification read pass is not modelled"),
    ignored("rate_poisson", "any", "accepted, no effect in the model: rate is paced linearly"),
    ignored("zonerange", "any", "accepted, no effect in the model: zones apply only with zonemode, which is none"),
    ignored("log_unix_epoch", "any", "accepted, no effect in the model: log times are ms from the job's start"),
    ignored("log_alternate_epoch", "any", "accepted, no effect in the model: log times are ms from the job's start"),
    ignored("ioprio", "any", "accepted, no effect in the model: I/O priority has no effect without a scheduler"),
    ignored("cpuload", "any", "accepted, no effect in the model: CPU load is not modelled"),
    ignored("cpuchunks", "any", "accepted, no effect in the model: CPU load is not modelled"),
    ignored("ramp_size", "any", "accepted, no effect in the model: ramp_time only"),
    ignored("job_max_open_zones", "any", "accepted, no effect in the model: max_open_zones is the device's limit"),
    ignored("openfiles", "any", "accepted, no effect in the model: files are regions of the device"),
    ignored("file_append", "any", "accepted, no effect in the model: files are regions of the device"),
    ignored("opendir", "any", "accepted, no effect in the model: files are regions of the device"),
    ignored("trim_backlog", "any", "accepted, no effect in the model: verify's trim phase is not simulated"),
    ignored("trim_verify_zero", "any", "accepted, no effect in the model: verify's trim phase is not simulated"),
    ignored("ratemin", "any", "accepted, no effect in the model: a job is never aborted for being slow"),
    ignored("ratecycle", "any", "accepted, no effect in the model: rate is paced linearly"),
    ignored("exec_prerun", "any", "accepted, no effect in the model: no commands run"),
    ignored("exec_postrun", "any", "accepted, no effect in the model: no commands run"),
];

/// Every row: the options, then the board parameters ([`super::board::PARAMS`]).
pub fn all_rows() -> impl Iterator<Item = &'static OptionRow> + Clone {
    OPTIONS.iter().chain(super::board::PARAMS.iter())
}

/// The row `key` names (its name or an alias), if any.
pub fn lookup(key: &str) -> Option<&'static OptionRow> {
    all_rows()
        .find(|o| o.name == key)
        .or_else(|| all_rows().find(|o| o.aliases.contains(&key)))
}

/// The rows the page's form shows in `group`, in table order.
pub fn form_rows(group: FormGroup) -> impl Iterator<Item = (&'static OptionRow, FormHint)> {
    OPTIONS
        .iter()
        .filter_map(move |o| o.form.filter(|f| f.group == group).map(|f| (o, f)))
}
