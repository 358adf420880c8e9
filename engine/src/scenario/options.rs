//! The option table shared by the CLI, fio job files and the web app's URL query string.
//!
//! Option names are fio's (see fio's HOWTO, "Job file parameters"), plus mmcsim's host switches.
//! [`apply_option`] sets one option; [`ScenarioBuilder`] adds fio's section semantics (globals
//! inherited by later job sections) and [`parse_args`] reads a fio command line with it.

pub use super::jobfile::ScenarioBuilder;
use super::units::{format_size, parse_bool, parse_size, parse_time_ns, parse_uint};
use super::{HsqDepth, IoEngine, JobSpec, MmcPath, Rw, Scenario, ScenarioError};

/// Where an option is applied: to the whole scenario / every job (`[global]`, CLI before the
/// first `--name`), or to one job section.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionScope {
    Global,
    Job(usize),
}

/// What an option sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// A field of [`JobSpec`]: per job section, inherited from `[global]`.
    Job,
    /// A field of [`Scenario`] (platform, host switches, seed): one value for the whole run,
    /// wherever it is given.
    Scenario,
    /// A fio option accepted for compatibility and ignored: it changes nothing in the model.
    Ignored,
}

/// One accepted option: its name, what values it takes, and a one-line help text.
#[derive(Clone, Copy, Debug)]
pub struct OptionInfo {
    pub name: &'static str,
    pub accepted: &'static str,
    pub help: &'static str,
    pub kind: OptionKind,
}

const fn opt(
    name: &'static str,
    accepted: &'static str,
    help: &'static str,
    kind: OptionKind,
) -> OptionInfo {
    OptionInfo {
        name,
        accepted,
        help,
        kind,
    }
}

use OptionKind::{Ignored as I, Job as J, Scenario as S};

/// Upper bound for `size=` and `offset=`: larger than any eMMC (1 TiB).
pub const MAX_DEVICE_BYTES: u64 = 1 << 40;
/// Upper bound for `bs=`: 64 MiB (the block layer splits anything above max_req_bytes anyway).
pub const MAX_BS: u64 = 64 << 20;
/// Upper bound for `runtime=`: one day of simulated time.
pub const MAX_RUNTIME_NS: u64 = 86_400_000_000_000;

/// Every accepted option, in the order `--help` lists them.
pub static OPTIONS: &[OptionInfo] = &[
    opt("name", "text", "job name; on the command line, starts a new job section", J),
    opt("rw", "read, write, randread, randwrite, randrw", "I/O pattern (alias: readwrite)", J),
    opt("rwmixread", "0..=100", "percent of reads in randrw (default 50)", J),
    opt("rwmixwrite", "0..=100", "percent of writes in randrw (sets rwmixread = 100 - N)", J),
    opt("bs", "512..=64m, a multiple of 512", "block size (alias: blocksize; default 4k)", J),
    opt("size", "1..=1t", "bytes each job clone transfers (default 64m)", J),
    opt("numjobs", "1..=256", "clones of this job (default 1)", J),
    opt("iodepth", "1..=1024", "I/Os outstanding per clone with libaio/io_uring (default 1)", J),
    opt("ioengine", "psync, sync, libaio, io_uring", "psync/sync: one I/O at a time; libaio/io_uring: iodepth", J),
    opt("runtime", "time (default unit s), 0 = none", "stop the job after this much simulated time", J),
    opt("time_based", "flag or 0|1", "keep looping over size until runtime is over", J),
    opt("direct", "0|1", "O_DIRECT (accepted; the model has no page cache)", J),
    opt("sync", "0|1", "O_SYNC: every write carries REQ_FUA", J),
    opt("fsync", "0..", "issue a cache flush after every N writes (0 = never)", J),
    opt("offset", "size, a multiple of 512", "where the job's region starts on the device", J),
    opt("randseed", "0..", "seed of every random choice (default 137)", S),
    opt("group_reporting", "flag or 0|1", "report all jobs as one", S),
    opt("platform", "a preset, see --list-platforms", "measured platform to simulate", S),
    opt("mmc_path", "hsq, legacy, cqe", "host request path (default: the platform's)", S),
    opt("nonblocking", "0|1", "legacy path: prepare the next request during the transfer", S),
    opt("hsq_depth", "1..=63, dynamic", "hsq window: in_flight limit (dynamic = 2023 patch)", S),
    opt("packed", "0, 2..=16", "ADMA3 batch size (0 = off; max checked against the platform)", S),
    opt("fua", "0|1", "host advertises FUA: O_SYNC writes become reliable writes", S),
    opt("cache", "0|1", "the card's volatile write cache is on", S),
    opt("mmc_test", "37..=44", "run this kernel mmc_test case instead of fio jobs: 128 MiB per transfer size (a size= other than 64m sets it)", S),
    opt("power_cut", "time > 0 (e.g. 50ms, 2s)", "cut the power at this simulated time; report acknowledged writes lost", S),
    opt("inject_error", "crc:RATE, 0 < RATE <= 0.5", "the card answers data transfers with CRC errors at this rate", S),
    opt("filename", "any", "ignored: the model is one eMMC device", I),
    opt("directory", "any", "ignored: the model is one eMMC device", I),
    opt("thread", "flag", "ignored: threads and processes cost the same in the model", I),
    opt("invalidate", "any", "ignored: the model has no page cache", I),
    opt("randrepeat", "any", "ignored: randseed alone decides the random sequence", I),
    opt("norandommap", "flag", "ignored: random offsets are drawn without a map", I),
    opt("ramp_time", "any", "ignored: statistics cover the whole run", I),
    opt("ioscheduler", "any", "ignored: the model has no I/O scheduler (none)", I),
    opt("description", "any", "ignored", I),
];

/// fio's alternative names for options.
const ALIASES: &[(&str, &str)] = &[("blocksize", "bs"), ("readwrite", "rw")];

/// Options whose value may be omitted (`--group_reporting`, `thread`): omitted means 1.
fn value_optional(info: &OptionInfo) -> bool {
    info.kind == OptionKind::Ignored || info.accepted.contains("flag") || info.accepted == "0|1"
}

/// The option `key` names (after aliases), if any.
pub fn lookup(key: &str) -> Option<&'static OptionInfo> {
    let canonical = ALIASES
        .iter()
        .find(|(a, _)| *a == key)
        .map_or(key, |(_, c)| *c);
    OPTIONS.iter().find(|o| o.name == canonical)
}

/// Levenshtein distance, for "did you mean" suggestions.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// The known option closest to `key`, if it is within 2 edits (1 for very short keys).
pub fn suggest(key: &str) -> Option<&'static str> {
    let limit = if key.chars().count() <= 3 { 1 } else { 2 };
    let key = key.to_ascii_lowercase();
    OPTIONS
        .iter()
        .map(|o| o.name)
        .chain(ALIASES.iter().map(|(a, _)| *a))
        .map(|n| (edit_distance(&key, n), n))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, n)| n)
}

fn unknown(key: &str) -> ScenarioError {
    let key_shown = if key.is_empty() { "''" } else { key };
    match suggest(key) {
        Some(s) => ScenarioError::new(key_shown, format!("unknown option; did you mean '{}'?", s)),
        None => ScenarioError::new(
            key_shown,
            "unknown option; see --help for the accepted options",
        ),
    }
}

/// Resolves `key` and checks a value is present where one is needed.
pub(super) fn resolve(
    key: &str,
    value: Option<&str>,
) -> Result<&'static OptionInfo, ScenarioError> {
    let info = lookup(key).ok_or_else(|| unknown(key))?;
    if value.is_none() && !value_optional(info) {
        return Err(ScenarioError::new(
            key,
            format!("needs a value ({}), e.g. {}=VALUE", info.accepted, key),
        ));
    }
    Ok(info)
}

/// Sets one option on `scn`. A job option in [`OptionScope::Global`] applies to every job; a
/// scenario-wide option (platform, host switches, randseed, ...) applies to the scenario in any
/// scope, as fio is lenient about where its global-only options appear. `value` None is a bare
/// flag (`--group_reporting`, `thread`).
pub fn apply_option(
    scn: &mut Scenario,
    scope: OptionScope,
    key: &str,
    value: Option<&str>,
) -> Result<(), ScenarioError> {
    let info = resolve(key, value)?;
    match (info.kind, scope) {
        (OptionKind::Ignored, _) => Ok(()),
        (OptionKind::Scenario, _) => set_scenario(scn, info.name, key, value),
        (OptionKind::Job, OptionScope::Global) => {
            for job in &mut scn.jobs {
                set_job(job, info.name, key, value)?;
            }
            Ok(())
        }
        (OptionKind::Job, OptionScope::Job(i)) => {
            let n = scn.jobs.len();
            let job = scn.jobs.get_mut(i).ok_or_else(|| {
                ScenarioError::new(key, format!("no job {} (there are {})", i, n))
            })?;
            set_job(job, info.name, key, value)
        }
    }
}

/// Builds "'VALUE' is not ...; accepted: ..." errors.
/// Resets option `key` to its default in `scope` (host switches back to "the platform's").
pub fn reset_option(
    scn: &mut Scenario,
    scope: OptionScope,
    key: &str,
) -> Result<(), ScenarioError> {
    let info = lookup(key).ok_or_else(|| unknown(key))?;
    super::url::reset(scn, scope, info.name);
    Ok(())
}

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

/// A `u32` within `min..=max` (both fit in u32 by construction of the table).
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

pub(super) fn set_job(
    job: &mut JobSpec,
    name: &str,
    key: &str,
    value: Option<&str>,
) -> Result<(), ScenarioError> {
    let v = value.unwrap_or("1");
    match name {
        "name" => {
            if v.trim().is_empty() || v.chars().any(char::is_control) || v.contains(']') {
                return Err(bad(
                    key,
                    v,
                    "not a job name",
                    "text without ']' or control characters",
                ));
            }
            job.name = v.trim().to_string();
        }
        "rw" => job.rw = parse_rw(key, v)?,
        "rwmixread" => job.rwmixread = uint32(key, v, 0, 100)?,
        "rwmixwrite" => job.rwmixread = 100 - uint32(key, v, 0, 100)?,
        "bs" => job.bs = size(key, v, 512, MAX_BS, 512)?,
        "size" => job.size = size(key, v, 1, MAX_DEVICE_BYTES, 1)?,
        "numjobs" => job.numjobs = uint32(key, v, 1, 256)?,
        "iodepth" => job.iodepth = uint32(key, v, 1, 1024)?,
        "ioengine" => job.ioengine = parse_ioengine(key, v)?,
        "runtime" => {
            let ns = parse_time_ns(v).map_err(|m| ScenarioError::new(key, m))?;
            if ns > MAX_RUNTIME_NS {
                return Err(bad(key, v, "too long", "up to 24h of simulated time"));
            }
            job.runtime_ns = (ns > 0).then_some(ns);
        }
        "time_based" => job.time_based = flag(key, value)?,
        "direct" => job.direct = flag(key, value)?,
        "sync" => {
            job.sync = match v {
                "sync" | "dsync" => true,
                "none" => false,
                _ => flag(key, value)?,
            }
        }
        "fsync" => job.fsync = uint32(key, v, 0, u32::MAX)?,
        "offset" => job.offset = size(key, v, 0, MAX_DEVICE_BYTES, 512)?,
        _ => return Err(unknown(key)),
    }
    Ok(())
}

fn set_scenario(
    scn: &mut Scenario,
    name: &str,
    key: &str,
    value: Option<&str>,
) -> Result<(), ScenarioError> {
    let v = value.unwrap_or("1");
    let h = &mut scn.host;
    match name {
        "randseed" => scn.randseed = uint(key, v, 0, u64::MAX)?,
        "group_reporting" => scn.group_reporting = flag(key, value)?,
        "platform" => {
            if crate::platform::by_name(v).is_none() {
                return Err(bad(
                    key,
                    v,
                    "not a known platform",
                    &crate::platform::names().join(", "),
                ));
            }
            scn.platform = v.to_string();
        }
        "mmc_path" => {
            let p = MmcPath::ALL.iter().find(|p| p.name() == v);
            h.mmc_path =
                Some(*p.ok_or_else(|| bad(key, v, "not a request path", "hsq, legacy, cqe"))?);
        }
        "nonblocking" => h.nonblocking = Some(flag(key, value)?),
        "hsq_depth" => {
            h.hsq_depth = Some(match v {
                "dynamic" => HsqDepth::Dynamic,
                _ => HsqDepth::Fixed(
                    parse_uint(v, 1, 63)
                        .map_err(|_| bad(key, v, "not an hsq depth", "1..=63, dynamic"))?
                        as u32,
                ),
            })
        }
        "packed" => {
            let n = parse_uint(v, 0, 16).ok().filter(|&n| n != 1);
            h.packed =
                Some(n.ok_or_else(|| bad(key, v, "not a batch size", "0 (off) or 2..=16"))? as u32);
        }
        "fua" => h.fua = Some(flag(key, value)?),
        "cache" => h.cache = Some(flag(key, value)?),
        "mmc_test" => {
            let n = parse_uint(v, 37, 44)
                .map_err(|_| bad(key, v, "not an mmc_test performance case", "37..=44"))?;
            scn.mmc_test = Some(n as u32);
        }
        "power_cut" => {
            let t = parse_time_ns(v)
                .ok()
                .filter(|&t| t > 0 && t <= MAX_RUNTIME_NS);
            scn.power_cut_ns =
                Some(t.ok_or_else(|| {
                    bad(key, v, "not a time", "a time > 0 up to 24h, e.g. 50ms, 2s")
                })?);
        }
        "inject_error" => {
            scn.inject_error =
                Some(super::ErrorInjection::parse(v).map_err(|m| ScenarioError::new(key, m))?);
        }
        _ => return Err(unknown(key)),
    }
    Ok(())
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

/// Checks what no single option can: relations between options of one job.
pub fn validate(scn: &Scenario) -> Result<(), ScenarioError> {
    scn.platform()?;
    if scn.jobs.is_empty() {
        return Err(ScenarioError::general(
            "no job to run; give --name=NAME or a job file",
        ));
    }
    for j in &scn.jobs {
        if j.size < j.bs {
            return Err(ScenarioError::new(
                "size",
                format!(
                    "job '{}': size={} is smaller than bs={}",
                    j.name, j.size, j.bs
                ),
            ));
        }
        if j.time_based && j.runtime_ns.is_none() {
            return Err(ScenarioError::new(
                "time_based",
                format!("job '{}': needs runtime=", j.name),
            ));
        }
    }
    Ok(())
}

/// Splits one command-line argument `--key=value`, `-key=value`, `--flag`, or (for URL query
/// strings) `key=value` into key and value.
pub fn split_arg(arg: &str) -> Result<(&str, Option<&str>), ScenarioError> {
    let body = arg.strip_prefix("--").or_else(|| arg.strip_prefix('-'));
    let (key, value) = match (body, arg.split_once('=')) {
        (Some(b), _) => b.split_once('=').map_or((b, None), |(k, v)| (k, Some(v))),
        (None, Some((k, v))) => (k, Some(v)),
        (None, None) => {
            return Err(ScenarioError::general(format!(
                "unexpected argument '{}'; options are written --name=value",
                arg
            )))
        }
    };
    if key.is_empty() {
        return Err(ScenarioError::general(format!(
            "unexpected argument '{}'; options are written --name=value",
            arg
        )));
    }
    Ok((key, value))
}

/// Reads fio command-line options into a scenario: options before the first `--name` are
/// global; each `--name=X` starts a job section that inherits them (fio's `parse_cmd_line`).
/// Without any `--name`, `base`'s jobs run (by default one job named "job"); fio would insist on
/// a name. CLI-only options (`--output`, `--output-format`, ...) must be removed by the caller.
pub fn parse_args<S: AsRef<str>>(args: &[S], base: Scenario) -> Result<Scenario, ScenarioError> {
    let mut b = ScenarioBuilder::new(base);
    b.args(args)?;
    b.finish()
}

impl ScenarioBuilder {
    /// Applies command-line options as [`parse_args`] does.
    pub fn args<S: AsRef<str>>(&mut self, args: &[S]) -> Result<(), ScenarioError> {
        for arg in args {
            match split_arg(arg.as_ref())? {
                ("name", Some(v)) => self.begin_job(v)?,
                (k, v) => self.job(k, v)?,
            }
        }
        Ok(())
    }
}
