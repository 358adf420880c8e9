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
    ErrorInjection, HostConfig, HostOptions, HsqDepth, HsqDispatch, IoEngine, JobSpec, MmcPath, Rw,
    Scenario, ScenarioError,
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
}

/// Where the page's form shows an option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormGroup {
    Platform,
    Workload,
    Host,
}

impl FormGroup {
    pub const ALL: [FormGroup; 3] = [FormGroup::Platform, FormGroup::Workload, FormGroup::Host];
    pub fn title(self) -> &'static str {
        match self {
            FormGroup::Platform => "Platform",
            FormGroup::Workload => "Workload (fio)",
            FormGroup::Host => "Host",
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
        matches!(self.kind, OptionKind::Scenario | OptionKind::Host)
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

/// fio's `rw=` values; the fio patterns the model lacks are named as such.
fn parse_rw(key: &str, v: &str) -> Result<Rw, ScenarioError> {
    const ACCEPTED: &str = "read, write, randread, randwrite, randrw";
    if let Some(rw) = Rw::ALL.iter().find(|r| r.name() == v) {
        return Ok(*rw);
    }
    match v {
        "rw" | "readwrite" => Err(bad(key, v, "not modelled (mixed sequential I/O)", ACCEPTED)),
        "trim" | "randtrim" | "trimwrite" | "randtrimwrite" => {
            Err(bad(key, v, "not modelled (discard)", ACCEPTED))
        }
        _ => Err(bad(key, v, "not an I/O pattern", ACCEPTED)),
    }
}

/// fio's `ioengine=` values; `pvsync` (preadv/pwritev) behaves as psync here.
fn parse_ioengine(key: &str, v: &str) -> Result<IoEngine, ScenarioError> {
    if v == "pvsync" {
        return Ok(IoEngine::Psync);
    }
    IoEngine::ALL
        .iter()
        .find(|e| e.name() == v)
        .copied()
        .ok_or_else(|| bad(key, v, "not modelled", "psync, sync, libaio, io_uring"))
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

use FormGroup::{Host as GH, Platform as GP, Workload as GW};
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

const RW_NAMES: &[&str] = &["read", "write", "randread", "randwrite", "randrw"];
const IOENGINE_NAMES: &[&str] = &["psync", "sync", "libaio", "io_uring"];
const MMC_PATH_NAMES: &[&str] = &["hsq", "legacy", "cqe"];
const HSQ_DISPATCH_NAMES: &[&str] = &["fifo", "next_tag"];

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
    job!("rw", &["readwrite"], "read, write, randread, randwrite, randrw",
        "I/O pattern (alias: readwrite)",
        example "randwrite",
        set |j, k, v| j.rw = parse_rw(k, v1(v))?,
        get |j| Some(j.rw.name().to_string()),
        reset |j| j.rw = JobSpec::default().rw,
        form form(GW, "rw", "I/O pattern", Widget::Choices(RW_NAMES))),
    job!("rwmixread", &[], "0..=100", "percent of reads in randrw (default 50)",
        example "70",
        set |j, k, v| j.rwmixread = uint32(k, v1(v), 0, 100)?,
        get |j| Some(j.rwmixread.to_string()),
        reset |j| j.rwmixread = JobSpec::default().rwmixread,
        form None),
    job!("rwmixwrite", &[], "0..=100", "percent of writes in randrw (sets rwmixread = 100 - N)",
        example "30",
        set |j, k, v| j.rwmixread = 100 - uint32(k, v1(v), 0, 100)?,
        // Written as rwmixread, which holds the same fact.
        get |_j| None,
        reset |j| j.rwmixread = JobSpec::default().rwmixread,
        form None),
    job!("bs", &["blocksize"], "512..=64m, a multiple of 512", "block size (alias: blocksize; default 4k)",
        example "16k",
        set |j, k, v| j.bs = size(k, v1(v), 512, MAX_BS, 512)?,
        get |j| Some(format_size(j.bs)),
        reset |j| j.bs = JobSpec::default().bs,
        form form(GW, "bs", "Block size per I/O", Widget::Text { placeholder: "4k" })),
    job!("size", &[], "1..=1t", "bytes each job clone transfers (default 64m)",
        example "8m",
        set |j, k, v| j.size = size(k, v1(v), 1, MAX_DEVICE_BYTES, 1)?,
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
    job!("ioengine", &[], "psync, sync, libaio, io_uring",
        "psync/sync: one I/O at a time; libaio/io_uring: iodepth",
        example "libaio",
        set |j, k, v| j.ioengine = parse_ioengine(k, v1(v))?,
        get |j| Some(j.ioengine.name().to_string()),
        reset |j| j.ioengine = JobSpec::default().ioengine,
        form form(GW, "ioengine", "psync, sync: one I/O at a time per job", Widget::Choices(IOENGINE_NAMES))),
    job!("runtime", &[], "time (default unit s) up to 600s, 0 = none",
        "stop the job after this much simulated time",
        example "20ms",
        set |j, k, v| {
            let ns = time(k, v1(v), MAX_RUNTIME_NS, "up to 600s of simulated time")?;
            j.runtime_ns = (ns > 0).then_some(ns)
        },
        get |j| j.runtime_ns.map(format_time_ns),
        reset |j| j.runtime_ns = JobSpec::default().runtime_ns,
        form None),
    job!("time_based", &[], "flag or 0|1", "keep looping over size until runtime is over",
        example "1",
        set |j, k, v| j.time_based = flag(k, v)?,
        get |j| Some(b(j.time_based)),
        reset |j| j.time_based = JobSpec::default().time_based,
        form None),
    job!("direct", &[], "0|1", "O_DIRECT (accepted; the model has no page cache)",
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
        form None),
    job!("fsync", &[], "0..", "issue a cache flush after every N writes (0 = never)",
        example "8",
        set |j, k, v| j.fsync = uint32(k, v1(v), 0, u32::MAX)?,
        get |j| Some(j.fsync.to_string()),
        reset |j| j.fsync = JobSpec::default().fsync,
        form None),
    job!("offset", &[], "size, a multiple of 512", "where the job's region starts on the device",
        example "64m",
        set |j, k, v| j.offset = size(k, v1(v), 0, MAX_DEVICE_BYTES, 512)?,
        get |j| Some(format_size(j.offset)),
        reset |j| j.offset = JobSpec::default().offset,
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
        form None),
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
        form None),
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
        form None),
    // ---- accepted and ignored (fio compatibility) ----
    ignored("filename", "any", "ignored: the model is one eMMC device"),
    ignored("directory", "any", "ignored: the model is one eMMC device"),
    ignored(
        "thread",
        "flag",
        "ignored: threads and processes cost the same in the model",
    ),
    ignored("invalidate", "any", "ignored: the model has no page cache"),
    ignored(
        "randrepeat",
        "any",
        "ignored: randseed alone decides the random sequence",
    ),
    ignored(
        "norandommap",
        "flag",
        "ignored: random offsets are drawn without a map",
    ),
    ignored(
        "ramp_time",
        "any",
        "ignored: statistics cover the whole run",
    ),
    ignored(
        "ioscheduler",
        "any",
        "ignored: the model has no I/O scheduler (none)",
    ),
    ignored("description", "any", "ignored"),
];

/// The row `key` names (its name or an alias), if any.
pub fn lookup(key: &str) -> Option<&'static OptionRow> {
    OPTIONS
        .iter()
        .find(|o| o.name == key)
        .or_else(|| OPTIONS.iter().find(|o| o.aliases.contains(&key)))
}

/// The rows the page's form shows in `group`, in table order.
pub fn form_rows(group: FormGroup) -> impl Iterator<Item = (&'static OptionRow, FormHint)> {
    OPTIONS
        .iter()
        .filter_map(move |o| o.form.filter(|f| f.group == group).map(|f| (o, f)))
}
