//! One option at a time: [`apply_option`] sets it, [`reset_option`] puts it back to its default,
//! [`value_text`] reads it back, [`apply_text`] is the page's form; unknown keys get a "did you
//! mean" or the reason the model does not simulate them. Every option is a row of the table
//! ([`OPTIONS`]). fio's section semantics on top (`ScenarioBuilder`) are `options`, which
//! re-exports all of this.

use super::table::Access;
pub use super::table::{all_rows, lookup, OptionKind, OptionRow, OPTIONS};
use super::{error::ScenarioError, job::JobSpec, spec::Scenario};

/// Where an option is applied: to the whole scenario / every job (`[global]`, CLI before the
/// first `--name`), or to one job section.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionScope {
    Global,
    Job(usize),
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

/// Keys longer than this get no suggestion (no option name is near; the search would be slow).
const MAX_SUGGEST_CHARS: usize = 32;

/// The known option closest to `key`, if it is within 2 edits (1 for very short keys). Long keys
/// get none.
pub fn suggest(key: &str) -> Option<&'static str> {
    if key.chars().nth(MAX_SUGGEST_CHARS).is_some() {
        return None;
    }
    let limit = if key.chars().count() <= 3 { 1 } else { 2 };
    let key = key.to_ascii_lowercase();
    all_rows()
        .flat_map(|o| std::iter::once(o.name).chain(o.aliases.iter().copied()))
        .map(|n| (edit_distance(&key, n), n))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, n)| n)
}

/// fio's SPRandom (`sprandom=1`) writes the whole device once in an order that leaves each
/// region of an SSD's flash with its steady-state share of invalid blocks: its point is the
/// FTL's state, which the card model does not keep.
const SPRANDOM: &str = "SanDisk random preconditioning sets an SSD's FTL state (invalid blocks per region), which the card model does not keep";

/// fio options the model knows of and does not simulate, with the reason (instead of "unknown").
const NOT_MODELLED: &[(&str, &str)] = &[
    (
        "iodepth_mode",
        "queue depths stepped over time are not simulated; set iodepth",
    ),
    ("sprandom", SPRANDOM),
    ("spr_op", SPRANDOM),
    ("spr_num_regions", SPRANDOM),
    (
        "random_sequence_stride",
        "sequence distributions are not simulated",
    ),
    (
        "trim_percentage",
        "trims after verified writes (verify's trim phase) are not simulated; rw=trim is",
    ),
];

/// Options that were renamed because their meaning changed, with what to write now (no alias:
/// an old value read under the new meaning would be a silent wrong figure).
const RENAMED: &[(&str, &str)] = &[
    (
        "bus_cmd_us",
        "renamed bus_cmd_fixed_us: the command phase is now that fixed part plus 212 CMD-line \
         cycles at bus_clock_mhz (the preset's 3 us at its own clock); set bus_cmd_fixed_us",
    ),
    (
        "reliable_write_mb_s",
        "replaced: the card now programs a reliable write in SLC program units, one tPROG each; \
         set nand_program_us (tPROG) and program_unit_kib",
    ),
];

fn unknown(key: &str) -> ScenarioError {
    if let Some((_, what)) = RENAMED.iter().find(|(k, _)| *k == key) {
        return ScenarioError::new(key, *what);
    }
    if let Some((_, why)) = NOT_MODELLED.iter().find(|(k, _)| *k == key) {
        return ScenarioError::new(key, format!("not modelled: {why}"));
    }
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
pub fn resolve(key: &str, value: Option<&str>) -> Result<&'static OptionRow, ScenarioError> {
    let row = lookup(key).ok_or_else(|| unknown(key))?;
    if value.is_none() && !row.value_optional() {
        return Err(ScenarioError::new(
            key,
            format!("needs a value ({}), e.g. {}=VALUE", row.accepted, key),
        ));
    }
    Ok(row)
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
    let row = resolve(key, value)?;
    match row.access {
        Access::Ignored => Ok(()),
        Access::Scenario { set, .. } => set(scn, key, value),
        Access::Switch(s) => super::board::switch_set(scn, row, &s, key, value),
        Access::Platform(p) => super::board::set(scn, row, &p, key, value),
        Access::Job { set, .. } => {
            for job in jobs_in(scn, scope, key)? {
                set(job, key, value)?;
            }
            Ok(())
        }
    }
}

/// What the model makes of an accepted option that it does not simulate as fio would: None
/// when it is modelled. The CLI lists these once on stderr.
pub fn note_for(key: &str, value: Option<&str>) -> Option<String> {
    let row = lookup(key)?;
    let v = value.map(str::trim);
    match (row.name, v) {
        ("direct", Some("0")) | ("buffered", None) | ("buffered", Some("1")) => Some(format!(
            "{key}: buffered I/O through the page cache is not modelled; it runs as direct I/O"
        )),
        ("buffered", _) => None,
        _ if row.kind == OptionKind::Ignored => Some(row.name.to_string()),
        _ => None,
    }
}

/// The jobs `scope` names.
fn jobs_in<'a>(
    scn: &'a mut Scenario,
    scope: OptionScope,
    key: &str,
) -> Result<&'a mut [JobSpec], ScenarioError> {
    let n = scn.jobs.len();
    match scope {
        OptionScope::Global => Ok(&mut scn.jobs[..]),
        OptionScope::Job(i) if i < n => Ok(&mut scn.jobs[i..=i]),
        OptionScope::Job(i) => Err(ScenarioError::new(
            key,
            format!("no job {} (there are {})", i, n),
        )),
    }
}

/// Resets option `key` to its default in `scope`: job options to fio's default, scenario-wide
/// ones to the scenario default, host switches back to "the platform's".
pub fn reset_option(
    scn: &mut Scenario,
    scope: OptionScope,
    key: &str,
) -> Result<(), ScenarioError> {
    let row = lookup(key).ok_or_else(|| unknown(key))?;
    match row.access {
        Access::Ignored => {}
        Access::Scenario { reset, .. } => reset(scn),
        Access::Switch(_) | Access::Platform(_) => {
            scn.overrides.remove(row.name);
        }
        Access::Job { reset, .. } => jobs_in(scn, scope, key)?.iter_mut().for_each(reset),
    }
    Ok(())
}

/// The value text of option `key` in `scn` (a job option: of the first job), as the page's
/// form shows it: "" for a host switch left at the platform's default or an unset option.
pub fn value_text(scn: &Scenario, key: &str) -> String {
    value_text_in(scn, 0, key)
}

/// As [`value_text`], a job option read from job section `job` (the first when there is no
/// such job): the page's form shows one job of a multi-job file at a time.
pub fn value_text_in(scn: &Scenario, job: usize, key: &str) -> String {
    let Some(row) = lookup(key) else {
        return String::new();
    };
    let default = JobSpec::default();
    match row.access {
        Access::Ignored => None,
        Access::Scenario { get, .. } => get(scn),
        Access::Switch(s) => super::board::switch_get(scn, row, &s),
        Access::Platform(p) => super::board::get(scn, row, &p),
        Access::Job { get, .. } => get(scn.jobs.get(job).or(scn.jobs.first()).unwrap_or(&default)),
    }
    .unwrap_or_default()
}

/// The value a platform preset gives host switch or board parameter `key` ("on"/"off" style
/// text is the page's).
pub fn preset_text(platform: &crate::platform::Platform, key: &str) -> Option<String> {
    match lookup(key)?.access {
        Access::Switch(s) => Some((s.text)((s.get)(platform))),
        Access::Platform(p) => Some(super::board::preset_text(platform, &p)),
        _ => None,
    }
}

/// The scenario with option `key` set from a form's text: an empty text resets a host switch
/// (to the platform's default) or an option that is unset by default (`mmc_test`, `runtime`),
/// anything else goes through [`apply_option`].
pub fn apply_text(scn: &Scenario, key: &str, text: &str) -> Result<Scenario, ScenarioError> {
    apply_text_in(scn, OptionScope::Global, key, text)
}

/// As [`apply_text`], in `scope`: with [`OptionScope::Job`] a job option changes that job
/// section only (a scenario-wide option still applies to the whole scenario).
pub fn apply_text_in(
    scn: &Scenario,
    scope: OptionScope,
    key: &str,
    text: &str,
) -> Result<Scenario, ScenarioError> {
    let mut next = scn.clone();
    // Empty puts back the default of an option whose default shows as empty: a host switch
    // (the platform's), a board parameter (the preset's), or an optional setting such as
    // `mmc_test`, `runtime`, `inject_error`.
    let resets = |r: &OptionRow| {
        matches!(r.kind, OptionKind::Host | OptionKind::Platform)
            || (r.kind != OptionKind::Ignored
                && value_text(&Scenario::default(), r.name).is_empty())
    };
    if text.is_empty() && lookup(key).is_some_and(resets) {
        reset_option(&mut next, scope, key)?;
    } else {
        apply_option(&mut next, scope, key, Some(text))?;
    }
    next.normalize_board();
    Ok(next)
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
