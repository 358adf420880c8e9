//! The one option parser, shared by the CLI, fio job files and the web app's links and form.
//!
//! Option names are fio's (see fio's HOWTO, "Job file parameters"), plus mmcsim's host switches;
//! every option is a row of [`super::table::OPTIONS`]. [`apply_option`] sets one option;
//! [`reset_option`] puts it back to its default; [`ScenarioBuilder`] adds fio's section semantics
//! (globals inherited by later job sections) and [`parse_args`] reads a fio command line with it.

use super::check::check;
use super::table::Access;
pub use super::table::{all_rows, lookup, OptionKind, OptionRow, OPTIONS};
use super::{JobSpec, Scenario, ScenarioError};

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
const RENAMED: &[(&str, &str)] = &[(
    "bus_cmd_us",
    "renamed bus_cmd_fixed_us: the command phase is now that fixed part plus 212 CMD-line \
     cycles at bus_clock_mhz (the preset's 3 us at its own clock); set bus_cmd_fixed_us",
)];

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
        Access::Host { set, .. } => set(&mut scn.host, key, value),
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
        Access::Host { reset, .. } => reset(&mut scn.host),
        Access::Platform(_) => {
            scn.board.remove(row.name);
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
        Access::Host { get, .. } => get(&scn.host),
        Access::Platform(p) => super::board::get(scn, row, &p),
        Access::Job { get, .. } => get(scn.jobs.get(job).or(scn.jobs.first()).unwrap_or(&default)),
    }
    .unwrap_or_default()
}

/// The value a platform preset gives host switch or board parameter `key` ("on"/"off" style
/// text is the page's).
pub fn preset_text(platform: &crate::platform::Platform, key: &str) -> Option<String> {
    match lookup(key)?.access {
        Access::Host { preset, .. } => Some(preset(&platform.defaults)),
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

/// fio's section semantics on top of [`apply_option`]: job options given in global scope set the
/// template that later job sections start from (and, before the first section, every job of the
/// base scenario); [`ScenarioBuilder::begin_job`] starts a section from that template. As in fio,
/// a `[global]` after a job section changes only the jobs that follow it.
#[derive(Clone, Debug)]
pub struct ScenarioBuilder {
    scn: Scenario,
    template: JobSpec,
    sections: usize,
    /// Options accepted without effect, and what the model makes of the ones it cannot honour.
    notes: Vec<String>,
    /// What the reading noticed that changes nothing or more than it seems (see
    /// [`ScenarioBuilder::notices`]).
    notices: Vec<String>,
}

impl ScenarioBuilder {
    /// Starts from `base`: its scenario-wide settings are kept and its first job is the template.
    /// Its jobs are replaced by the job sections given, if any.
    pub fn new(base: Scenario) -> Self {
        let template = base.jobs.first().cloned().unwrap_or_default();
        ScenarioBuilder {
            scn: base,
            template,
            sections: 0,
            notes: Vec::new(),
            notices: Vec::new(),
        }
    }

    /// What reading the options noticed, one line each, for the user to see as warnings (with
    /// [`super::check::warnings`]): a scenario-wide option given in a later job section with
    /// another value (it changes the whole run, earlier jobs too), a `[global]` after the last
    /// job section.
    pub fn notices(&self) -> &[String] {
        &self.notices
    }

    /// Adds a notice (once).
    pub fn notice(&mut self, text: String) {
        if !self.notices.contains(&text) {
            self.notices.push(text);
        }
    }

    fn note(&mut self, key: &str, value: Option<&str>) {
        if let Some(n) = note_for(key, value) {
            if !self.notes.contains(&n) {
                self.notes.push(n);
            }
        }
    }

    /// The options given so far that change nothing in the model (names, in order given), and
    /// notes on the ones it runs otherwise than fio would (`direct=0`), each once.
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// One line for stderr listing [`Self::notes`], if any.
    pub fn notes_text(&self) -> Option<String> {
        let (names, other): (Vec<&String>, Vec<&String>) =
            self.notes.iter().partition(|n| !n.contains(' '));
        let mut lines = Vec::new();
        if !names.is_empty() {
            let names: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
            lines.push(format!(
                "accepted, no effect in the model: {}",
                names.join(", ")
            ));
        }
        lines.extend(other.iter().map(|s| s.to_string()));
        (!lines.is_empty()).then(|| lines.join("\n"))
    }

    /// Attaches a trace for `read_iolog=` (see [`Scenario::attach_iolog`]).
    pub fn attach_iolog(&mut self, log: super::iolog::IoLog) {
        self.scn.attach_iolog(log);
    }

    /// The trace files the jobs so far name in `read_iolog=`, each once.
    pub fn iolog_names(&self) -> Vec<String> {
        let mut v: Vec<String> = Vec::new();
        for j in &self.scn.jobs {
            if let Some(n) = &j.read_iolog {
                if !v.contains(n) {
                    v.push(n.clone());
                }
            }
        }
        v
    }

    /// Sets an option in global scope.
    pub fn global(&mut self, key: &str, value: Option<&str>) -> Result<(), ScenarioError> {
        let row = resolve(key, value)?;
        self.note(key, value);
        let Access::Job { set, .. } = row.access else {
            return apply_option(&mut self.scn, OptionScope::Global, key, value);
        };
        set(&mut self.template, key, value)?;
        if self.sections == 0 {
            apply_option(&mut self.scn, OptionScope::Global, key, value)?;
        }
        Ok(())
    }

    /// `mmc_test=` is set: the kernel's test cases run instead of job sections.
    pub fn runs_mmc_test(&self) -> bool {
        self.scn.mmc_test.is_some()
    }

    /// A job section was started (a `--name=` or a job file's `[NAME]`).
    pub fn has_jobs(&self) -> bool {
        self.sections > 0
    }

    /// Starts a job section named `name`, inheriting the global options given so far.
    pub fn begin_job(&mut self, name: &str) -> Result<(), ScenarioError> {
        let mut job = self.template.clone();
        if let Some(Access::Job { set, .. }) = lookup("name").map(|r| r.access) {
            set(&mut job, "name", Some(name))?;
        }
        if self.sections == 0 {
            self.scn.jobs.clear();
        }
        self.scn.jobs.push(job);
        self.sections += 1;
        Ok(())
    }

    /// Sets an option in the current job section (global scope before the first section).
    pub fn job(&mut self, key: &str, value: Option<&str>) -> Result<(), ScenarioError> {
        match self.sections {
            0 => self.global(key, value),
            _ => {
                let last = self.scn.jobs.len().saturating_sub(1);
                let before = (self.sections > 1).then(|| self.scenario_wide_text(key));
                apply_option(&mut self.scn, OptionScope::Job(last), key, value)?;
                if let Some(Some(before)) = before {
                    if Some(&before) != self.scenario_wide_text(key).as_ref() {
                        let name = super::clip(&self.scn.jobs[last].name);
                        self.notice(format!(
                            "{}: set in job section '{name}' to another value; it is one setting for the whole run, so it changes the jobs before it too",
                            super::clip(key)
                        ));
                    }
                }
                self.note(key, value);
                Ok(())
            }
        }
    }

    /// The text of scenario-wide option `key` now (None for a job option or an unknown key).
    fn scenario_wide_text(&self, key: &str) -> Option<String> {
        match lookup(key)?.access {
            Access::Scenario { get, .. } => Some(get(&self.scn).unwrap_or_default()),
            Access::Host { get, .. } => Some(get(&self.scn.host).unwrap_or_default()),
            _ => None,
        }
    }

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

    /// The scenario, checked with [`check`], with the notices of reading it and the
    /// [`super::check::warnings`] of the scenario (each once).
    pub fn finish_with_warnings(self) -> Result<(Scenario, Vec<String>), ScenarioError> {
        let mut notes = self.notices.clone();
        let scn = self.finish()?;
        for w in super::check::warnings(&scn) {
            if !notes.contains(&w) {
                notes.push(w);
            }
        }
        Ok((scn, notes))
    }

    /// The scenario, checked with [`check`].
    pub fn finish(mut self) -> Result<Scenario, ScenarioError> {
        self.scn.normalize_board();
        check(&self.scn)?;
        Ok(self.scn)
    }
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
