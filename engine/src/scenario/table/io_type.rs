//! I/O type rows (fio's `FIO_OPT_G_IO_TYPE` / `IO_BASIC` in `options.c`): the job's name, its
//! pattern and mix, block sizes, its region (size, offsets, loops) and how random jobs pick blocks.

use super::macros::*;
use super::values::*;
use super::{OptionRow, Widget};
use crate::scenario::limits::{MAX_BS, MAX_DEVICE_BYTES};
use crate::scenario::units::format_size;
use crate::scenario::{
    error::ScenarioError,
    job::{JobSpec, RandomDistribution, Rw},
};

const RW_NAMES: &[&str] = &["read", "write", "randread", "randwrite", "randrw", "rw"];

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

pub(super) const NAME: OptionRow = job!("name", &[], "text", "job name; on the command line, starts a new job section",
    example "reader",
    set |j, k, v| j.name = job_name(k, v1(v))?,
    get |j| Some(j.name.clone()),
    reset |j| j.name = JobSpec::default().name,
    form None);

pub(super) const RW: OptionRow = job!("rw", &["readwrite"], "read, write, randread, randwrite, randrw, rw (readwrite), trim, randtrim, trimwrite",
    "I/O pattern (alias: readwrite); rw: mixed sequential; trim: discards (CMD35/36/38)",
    example "randwrite",
    set |j, k, v| (j.rw, j.rw_skip) = parse_rw(k, v1(v))?,
    get |j| Some(rw_text(j)),
    reset |j| {
        j.rw = JobSpec::default().rw;
        j.rw_skip = 0
    },
    form form(GW, "rw", "I/O pattern", Widget::Choices(RW_NAMES)));

pub(super) const RWMIXREAD: OptionRow = job!("rwmixread", &[], "0..=100", "percent of reads in randrw and rw (default 50)",
    example "70",
    set |j, k, v| j.rwmixread = uint32(k, v1(v), 0, 100)?,
    get |j| Some(j.rwmixread.to_string()),
    reset |j| j.rwmixread = JobSpec::default().rwmixread,
    form form(GA, "rwmixread", "randrw: percent of reads", Widget::Text { placeholder: "50" }));

pub(super) const RWMIXWRITE: OptionRow = job!("rwmixwrite", &[], "0..=100", "percent of writes in randrw and rw (sets rwmixread = 100 - N)",
    example "30",
    set |j, k, v| j.rwmixread = 100 - uint32(k, v1(v), 0, 100)?,
    // Written as rwmixread, which holds the same fact.
    get |_j| None,
    reset |j| j.rwmixread = JobSpec::default().rwmixread,
    form None);

pub(super) const BS: OptionRow = job!("bs", &["blocksize"], "512..=256m, a multiple of 512",
    "block size (alias: blocksize; default 4k); above the platform's largest request the block layer splits it",
    example "16k",
    set |j, k, v| j.bs = size(k, one_for_both(k, v1(v), "one size such as 4k")?, 512, MAX_BS, 512)?,
    get |j| Some(format_size(j.bs)),
    reset |j| j.bs = JobSpec::default().bs,
    form form(GW, "bs", "Block size per I/O", Widget::Text { placeholder: "4k" }));

pub(super) const SIZE: OptionRow = job!("size", &[], "1..=1t", "bytes each job clone transfers (default 64m)",
    example "8m",
    set |j, k, v| j.size = match zones(j, k, v1(v))? {
        Some(b) => size(k, &b.to_string(), 1, MAX_DEVICE_BYTES, 1)?,
        None => size(k, v1(v), 1, MAX_DEVICE_BYTES, 1)?,
    },
    get |j| Some(format_size(j.size)),
    reset |j| j.size = JobSpec::default().size,
    form form(GW, "size", "Bytes per job", Widget::Text { placeholder: "64m" }));

pub(super) const OFFSET: OptionRow = job!("offset", &[], "size, a multiple of 512", "where the job's region starts on the device",
    example "64m",
    set |j, k, v| j.offset = match zones(j, k, v1(v))? {
        Some(b) => size(k, &b.to_string(), 0, MAX_DEVICE_BYTES, 512)?,
        None => size(k, v1(v), 0, MAX_DEVICE_BYTES, 512)?,
    },
    get |j| Some(format_size(j.offset)),
    reset |j| j.offset = JobSpec::default().offset,
    form None);

pub(super) const BSRANGE: OptionRow = job!("bsrange", &["blocksize_range"], "MIN-MAX, multiples of 512 up to 64m",
    "each I/O a random multiple of MIN between MIN and MAX (overrides bs)",
    example "4k-16k",
    set |j, k, v| j.bsrange = Some(parse_bsrange(k, v1(v))?),
    get |j| j.bsrange.map(bsrange_text),
    reset |j| j.bsrange = None,
    form None);

pub(super) const BSSPLIT: OptionRow = job!("bssplit", &[], "SIZE/PERCENT:SIZE/PERCENT...[,WRITES]",
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
    form None);

pub(super) const RANDOM_DISTRIBUTION: OptionRow = job!("random_distribution", &[], "random, zipf:THETA, pareto:H, normal:DEV, zoned:..., zoned_abs:...",
    "how random jobs pick blocks: uniform (default) or skewed toward hot blocks",
    example "zipf:1.2",
    set |j, k, v| j.random_distribution = parse_distribution(k, v1(v))?,
    get |j| Some(j.random_distribution.to_text()),
    reset |j| j.random_distribution = RandomDistribution::Random,
    form None);

pub(super) const LOOPS: OptionRow = job!("loops", &[], "1..=1000000", "passes over the region (default 1)",
    example "2",
    set |j, k, v| j.loops = uint32(k, v1(v), 1, 1_000_000)?,
    get |j| Some(j.loops.to_string()),
    reset |j| j.loops = 1,
    form None);

pub(super) const IO_SIZE: OptionRow = job!("io_size", &["io_limit"], "size", "bytes each clone transfers, wrapping around its region",
    example "8m",
    set |j, k, v| j.io_size = Some(size(k, v1(v), 1, MAX_DEVICE_BYTES, 1)?),
    get |j| j.io_size.map(format_size),
    reset |j| j.io_size = None,
    form None);

pub(super) const NUMBER_IOS: OptionRow = job!("number_ios", &[], "1..", "stop each clone after this many I/Os",
    example "100",
    set |j, k, v| j.number_ios = Some(uint(k, v1(v), 1, u64::MAX)?),
    get |j| j.number_ios.map(|n| n.to_string()),
    reset |j| j.number_ios = None,
    form None);

pub(super) const OFFSET_INCREMENT: OptionRow = job!("offset_increment", &[], "size, a multiple of 512",
    "clone k of the section starts at offset + k * offset_increment",
    example "16m",
    set |j, k, v| j.offset_increment = size(k, v1(v), 0, MAX_DEVICE_BYTES, 512)?,
    get |j| (j.offset_increment > 0).then(|| format_size(j.offset_increment)),
    reset |j| j.offset_increment = 0,
    form None);
