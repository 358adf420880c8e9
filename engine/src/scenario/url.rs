//! Scenario links: the whole scenario (and the B side of an A/B comparison) in a URL query
//! string, in the same option language as the CLI and job files.
//!
//! Format (the query string, without '?'):
//! - Scenario-wide options as `key=value` with the CLI's names and values (`platform=`,
//!   `packed=`, ...). Options at their default are left out, except `randseed`, which is always
//!   present so a link reproduces the run exactly.
//! - Job options: one job section uses plain keys (`rw=randread&bs=4k`). Several job sections use
//!   a `jobN.` prefix, N = 1, 2, ... (`job1.name=a&job1.rw=write&job2.name=b`); a side that uses
//!   `jobN.` keys has exactly as many job sections as its highest N (at most
//!   [`MAX_JOB_SECTIONS`]), each starting from fio's defaults. Plain job keys apply to every job.
//! - The B side: the same keys prefixed `b.`, listing only what differs from A (`b.packed=0`).
//!   B starts as a copy of A; its `b.jobN.` sections start from A's job N (or the defaults).
//! - An empty value (`key=`) resets the option to its default: this is how B says "not set"
//!   where A sets something (`b.power_cut=`). A bare key (`group_reporting`) is a flag set to 1.
//!
//! Percent-encoding follows RFC 3986 (unreserved `A-Z a-z 0-9 - . _ ~` as is, the rest `%XX`);
//! decoding also takes `+` as a space (HTML forms) and a leading '?'.
//!
//! Decoding is never all-or-nothing: each `key=value` goes through [`apply_option`] (the one
//! parser); a bad key or value becomes an error naming it and what is accepted, and the rest
//! still loads. When the result breaks a limit ([`check`]),
//! the option the limit names is left at its default (A) or at A's value (B), with an error
//! stating the limit. Nothing here panics, whatever the input.
//! Options that write files ([`OUTPUT_FILE_OPTIONS`]: `write_iolog=`, `write_bw_log=`, ...) are
//! never read from a link nor written into one, each left out with a notice naming it.

use super::apply::{apply_option, lookup, reset_option, resolve, OptionScope};
use super::check::check;
use super::{
    error::{clip, ScenarioError},
    job::JobSpec,
    spec::Scenario,
};

/// The options that write a file where the run happens: a link never sets them (see
/// [`decode_query`]) and never carries them ([`encode_query`]), so copying a shared link's
/// command line cannot overwrite a file.
pub const OUTPUT_FILE_OPTIONS: &[&str] = &[
    "write_iolog",
    "write_bw_log",
    "write_lat_log",
    "write_iops_log",
    "write_hist_log",
];

/// Whether `name` (an option's canonical name) is one of [`OUTPUT_FILE_OPTIONS`].
pub fn is_output_file_option(name: &str) -> bool {
    OUTPUT_FILE_OPTIONS.contains(&name)
}

/// Most `key=value` pairs read from one query string; the rest is ignored with an error.
pub const MAX_QUERY_ENTRIES: usize = 512;
/// Highest `jobN.` section number.
pub const MAX_JOB_SECTIONS: usize = 64;
/// The prefix of the B side's keys.
pub const B_PREFIX: &str = "b.";

/// What a query string decodes to: scenario A, scenario B when the link has `b.` keys, and one
/// error per option that could not be used (the scenarios hold everything else).
#[derive(Clone, Debug, PartialEq)]
pub struct DecodedQuery {
    pub a: Scenario,
    pub b: Option<Scenario>,
    pub errors: Vec<ScenarioError>,
}

type Pairs = Vec<(String, String)>;

/// The scenario-wide options of `s` (global scope of [`Scenario::to_options`]) and its jobs'.
fn options_of(s: &Scenario) -> (Pairs, Vec<Pairs>) {
    let mut global = Vec::new();
    let mut jobs = vec![Vec::new(); s.jobs.len()];
    for (scope, k, v) in s.to_options() {
        if is_output_file_option(&k) {
            continue;
        }
        match scope {
            OptionScope::Global => global.push((k, v)),
            OptionScope::Job(i) => jobs[i].push((k, v)),
        }
    }
    (global, jobs)
}

/// What `new` sets differently from `base`; options `base` sets and `new` does not become
/// resets (`key=`).
fn diff(base: &Pairs, new: &Pairs) -> Pairs {
    let mut out: Pairs = new.iter().filter(|p| !base.contains(p)).cloned().collect();
    for (k, _) in base {
        if !new.iter().any(|(n, _)| n == k) {
            out.push((k.clone(), String::new()));
        }
    }
    out
}

/// The keys that turn `base` into `s` (see the module doc).
fn side_pairs(base: &Scenario, s: &Scenario, always_seed: bool) -> Pairs {
    let (bg, bj) = options_of(base);
    let (sg, sj) = options_of(s);
    let mut out: Pairs = diff(&bg, &sg)
        .into_iter()
        .filter(|(k, _)| k != "randseed")
        .collect();
    let default_job = options_of(&Scenario {
        jobs: vec![JobSpec::default()],
        ..Scenario::default()
    })
    .1
    .remove(0);
    if s.jobs != base.jobs {
        if s.jobs.len() == 1 && base.jobs.len() == 1 {
            out.extend(diff(&bj[0], &sj[0]));
        } else {
            for (i, job) in sj.iter().enumerate() {
                let mut d = diff(bj.get(i).unwrap_or(&default_job), job);
                if d.is_empty() && i + 1 == sj.len() {
                    // The highest section number fixes the count: name it.
                    d.push(("name".to_string(), s.jobs[i].name.clone()));
                }
                out.extend(
                    d.into_iter()
                        .map(|(k, v)| (format!("job{}.{}", i + 1, k), v)),
                );
            }
        }
    }
    if always_seed || s.randseed != base.randseed || out.is_empty() {
        out.push(("randseed".to_string(), s.randseed.to_string()));
    }
    out
}

/// RFC 3986 percent-encoding: unreserved characters as is, every other byte as `%XX`.
pub fn percent_encode(s: &str, out: &mut String) {
    for &b in s.as_bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{:02X}", b));
        }
    }
}

/// Percent-decoding plus `+` as a space; a '%' without two hex digits stays as is; invalid
/// UTF-8 becomes U+FFFD.
pub fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        match b[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < b.len() && hex(b[i + 1]).is_some() && hex(b[i + 2]).is_some() => {
                out.push((hex(b[i + 1]).unwrap_or(0) * 16 + hex(b[i + 2]).unwrap_or(0)) as u8);
                i += 2;
            }
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The query string (without '?') for scenario `a` and, for an A/B comparison, `b`.
pub fn encode_query(a: &Scenario, b: Option<&Scenario>) -> String {
    let mut out = String::new();
    let mut push = |prefix: &str, k: &str, v: &str| {
        if !out.is_empty() {
            out.push('&');
        }
        out.push_str(prefix);
        percent_encode(k, &mut out);
        out.push('=');
        percent_encode(v, &mut out);
    };
    for (k, v) in side_pairs(&Scenario::default(), a, true) {
        push("", &k, &v);
    }
    if let Some(b) = b {
        for (k, v) in side_pairs(a, b, false) {
            push(B_PREFIX, &k, &v);
        }
    }
    out
}

/// One `key=value` of a side: the key as written (for errors), the option name, its job
/// section (1-based) and value (None = bare flag, "" = reset).
#[derive(Clone, Debug)]
struct Entry {
    written: String,
    key: String,
    job: Option<usize>,
    value: Option<String>,
}

/// Splits `jobN.rest` into (N, rest).
fn job_prefix(key: &str) -> Option<(&str, &str)> {
    let rest = key.strip_prefix("job")?;
    let dot = rest.find('.')?;
    let (n, k) = rest.split_at(dot);
    (!n.is_empty() && n.bytes().all(|c| c.is_ascii_digit())).then_some((n, &k[1..]))
}

/// Parses one decoded key into an entry of side A (false) or B (true).
fn entry(written: String, value: Option<String>) -> Result<(bool, Entry), ScenarioError> {
    let (is_b, rest) = match written.strip_prefix(B_PREFIX) {
        Some(r) => (true, r),
        None => (false, written.as_str()),
    };
    let (job, key) = match job_prefix(rest) {
        Some((n, k)) => {
            let n = n
                .parse::<usize>()
                .ok()
                .filter(|n| (1..=MAX_JOB_SECTIONS).contains(n));
            let msg = format!(
                "not a job section number; accepted: job1. to job{}.",
                MAX_JOB_SECTIONS
            );
            (
                Some(n.ok_or_else(|| ScenarioError::new(written.as_str(), msg))?),
                k,
            )
        }
        None => (None, rest),
    };
    let (key, value) = (key.to_string(), value);
    check_entry(&key, value.as_deref()).map_err(|e| named(e, &written))?;
    if lookup(&key).is_some_and(|o| is_output_file_option(o.name)) {
        return Err(ScenarioError::new(
            written.as_str(),
            "writes a file, so a link cannot set it (left out: the page's command line never carries it); give it on your own command line or in a job file",
        ));
    }
    Ok((
        is_b,
        Entry {
            written,
            key,
            job,
            value,
        },
    ))
}

/// Checks a key and value alone (context-free), with the same parser.
fn check_entry(key: &str, value: Option<&str>) -> Result<(), ScenarioError> {
    match value {
        Some("") => resolve(key, Some("")).map(|_| ()),
        _ => apply_option(&mut Scenario::default(), OptionScope::Global, key, value),
    }
}

/// `e` naming the key as written in the link.
fn named(e: ScenarioError, written: &str) -> ScenarioError {
    ScenarioError {
        option: Some(clip(written)),
        message: e.message,
    }
}

/// `base` with `entries` applied: job sections first (see the module doc), then plain keys, then
/// `jobN.` keys, each group in link order. Entries were checked, so errors here are ignored.
fn build(base: &Scenario, entries: &[Entry]) -> Scenario {
    let mut s = base.clone();
    if let Some(n) = entries.iter().filter_map(|e| e.job).max() {
        s.jobs.truncate(n);
        s.jobs.resize_with(n, JobSpec::default);
    }
    let plain = entries.iter().filter(|e| e.job.is_none());
    for e in plain.chain(entries.iter().filter(|e| e.job.is_some())) {
        let scope = e
            .job
            .map_or(OptionScope::Global, |n| OptionScope::Job(n - 1));
        match e.value.as_deref() {
            Some("") => {
                let _ = reset_option(&mut s, scope, &e.key);
            }
            v => {
                let _ = apply_option(&mut s, scope, &e.key, v);
            }
        }
    }
    s.normalize_board();
    s
}

/// Builds a side, leaving out (with an error) the options a failed check names; when it names
/// none of the side's options, the last one is left out, until the side passes.
fn load_side(
    base: &Scenario,
    mut entries: Vec<Entry>,
    is_b: bool,
    errors: &mut Vec<ScenarioError>,
) -> Scenario {
    let left = if is_b {
        "left as in A"
    } else {
        "left at its default"
    };
    loop {
        let s = build(base, &entries);
        let Err(e) = check(&s) else { return s };
        if entries.is_empty() {
            errors.push(e);
            return s;
        }
        let canonical = |en: &Entry| lookup(&en.key).map(|o| o.name);
        let hit = e.option.as_deref();
        let (drop, keep): (Vec<Entry>, Vec<Entry>) =
            match entries.iter().any(|en| canonical(en) == hit) {
                true => entries.into_iter().partition(|en| canonical(en) == hit),
                false => {
                    let last = entries.pop().into_iter().collect();
                    (last, entries)
                }
            };
        for en in drop {
            errors.push(ScenarioError::new(
                en.written,
                format!("{} ({})", e.message, left),
            ));
        }
        entries = keep;
    }
}

/// Reads a query string (with or without its leading '?'). Never fails: see [`DecodedQuery`].
pub fn decode_query(q: &str) -> DecodedQuery {
    let q = q.strip_prefix('?').unwrap_or(q);
    let mut errors = Vec::new();
    let mut overflow = None;
    let (mut a, mut b, mut has_b) = (Vec::new(), Vec::new(), false);
    for (i, part) in q.split('&').filter(|p| !p.is_empty()).enumerate() {
        if i == MAX_QUERY_ENTRIES {
            overflow = Some(ScenarioError::general(format!(
                "more than {} options in the link; the rest is ignored",
                MAX_QUERY_ENTRIES
            )));
            break;
        }
        let (k, v) = match part.split_once('=') {
            Some((k, v)) => (percent_decode(k), Some(percent_decode(v))),
            None => (percent_decode(part), None),
        };
        has_b |= k.starts_with(B_PREFIX);
        match entry(k, v) {
            Ok((false, e)) => a.push(e),
            Ok((true, e)) => b.push(e),
            Err(e) => errors.push(e),
        }
    }
    let a = load_side(&Scenario::default(), a, false, &mut errors);
    let b = has_b.then(|| load_side(&a, b, true, &mut errors));
    let mut errors = summarised(errors);
    errors.extend(overflow);
    DecodedQuery { a, b, errors }
}

/// Most notices one link gives; past it, the rest are summed up in one.
pub const MAX_LINK_NOTICES: usize = 8;

/// The first [`MAX_LINK_NOTICES`] - 1 notices, then one saying how many more there were.
fn summarised(mut errors: Vec<ScenarioError>) -> Vec<ScenarioError> {
    if errors.len() <= MAX_LINK_NOTICES {
        return errors;
    }
    let more = errors.len() - (MAX_LINK_NOTICES - 1);
    errors.truncate(MAX_LINK_NOTICES - 1);
    errors.push(ScenarioError::general(format!(
        "and {more} more problems in the link; those options were left out too"
    )));
    errors
}
