//! fio job files and fio's section semantics ([`ScenarioBuilder`]), and writing a scenario back
//! as options, command-line arguments or a job file.
//!
//! The job-file syntax is fio's (HOWTO, "Job file format"): INI-style sections, `[global]` for
//! options every later job inherits and `[NAME]` for a job named NAME; `key=value` or a bare
//! `key` for flags, whitespace around `=` ignored; lines starting with `;` or `#` are comments.

use super::options::{apply_option, lookup, resolve, set_job, validate, OptionKind, OptionScope};
use super::units::{format_size, format_time_ns};
use super::{HsqDepth, JobSpec, Scenario, ScenarioError, DEFAULT_RANDSEED};

/// fio's section semantics on top of [`apply_option`]: job options given in global scope set the
/// template that later job sections start from (and, before the first section, every job of the
/// base scenario); [`ScenarioBuilder::begin_job`] starts a section from that template. As in fio,
/// a `[global]` after a job section changes only the jobs that follow it.
#[derive(Clone, Debug)]
pub struct ScenarioBuilder {
    scn: Scenario,
    template: JobSpec,
    sections: usize,
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
        }
    }

    /// Sets an option in global scope.
    pub fn global(&mut self, key: &str, value: Option<&str>) -> Result<(), ScenarioError> {
        let info = resolve(key, value)?;
        if info.kind != OptionKind::Job {
            return apply_option(&mut self.scn, OptionScope::Global, key, value);
        }
        set_job(&mut self.template, info.name, key, value)?;
        if self.sections == 0 {
            apply_option(&mut self.scn, OptionScope::Global, key, value)?;
        }
        Ok(())
    }

    /// Starts a job section named `name`, inheriting the global options given so far.
    pub fn begin_job(&mut self, name: &str) -> Result<(), ScenarioError> {
        let mut job = self.template.clone();
        set_job(&mut job, "name", "name", Some(name))?;
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
                apply_option(&mut self.scn, OptionScope::Job(last), key, value)
            }
        }
    }

    /// The scenario, checked with [`validate`].
    pub fn finish(self) -> Result<Scenario, ScenarioError> {
        validate(&self.scn)?;
        Ok(self.scn)
    }
}

/// Parses a fio job file on top of `base` (see [`ScenarioBuilder::new`]): `base`'s first job
/// is the template the sections start from, so options given on the command line before the job
/// file act as globals, as in fio. Errors name the line: "line 4: ioengine: 'mmap' is not ...".
pub fn parse_jobfile(text: &str, base: Scenario) -> Result<Scenario, ScenarioError> {
    let mut b = ScenarioBuilder::new(base);
    b.jobfile(text)?;
    b.finish()
}

/// `e` with "line N: " in front of its option (or of its message).
fn at_line(n: usize, e: ScenarioError) -> ScenarioError {
    match e.option {
        Some(o) => ScenarioError {
            option: Some(format!("line {}: {}", n, o)),
            message: e.message,
        },
        None => ScenarioError::general(format!("line {}: {}", n, e.message)),
    }
}

impl ScenarioBuilder {
    /// Applies the sections of a job file. Options before the first section count as global.
    pub fn jobfile(&mut self, text: &str) -> Result<(), ScenarioError> {
        let mut in_job = false;
        for (i, raw) in text.lines().enumerate() {
            let n = i + 1;
            let line = raw.trim();
            if line.is_empty() || line.starts_with(';') || line.starts_with('#') {
                continue;
            }
            if let Some(rest) = line.strip_prefix('[') {
                let name = rest
                    .strip_suffix(']')
                    .ok_or_else(|| {
                        ScenarioError::general(format!(
                            "line {}: section header '{}' has no closing ']'",
                            n, line
                        ))
                    })?
                    .trim();
                in_job = name != "global";
                if in_job {
                    self.begin_job(name).map_err(|e| at_line(n, e))?;
                }
                continue;
            }
            let (key, value) = match line.split_once('=') {
                Some((k, v)) => (k.trim(), Some(v.trim())),
                None => (line, None),
            };
            let r = if in_job {
                self.job(key, value)
            } else {
                self.global(key, value)
            };
            r.map_err(|e| at_line(n, e))?;
        }
        Ok(())
    }
}

/// The `--help` value text of a bool.
fn b(v: bool) -> String {
    if v { "1" } else { "0" }.to_string()
}

/// The non-default job options of `j`, `name` first.
fn job_options(j: &JobSpec) -> Vec<(&'static str, String)> {
    let d = JobSpec::default();
    let mut v = vec![("name", j.name.clone())];
    let mut add = |cond: bool, k: &'static str, val: String| {
        if cond {
            v.push((k, val));
        }
    };
    add(j.rw != d.rw, "rw", j.rw.name().to_string());
    add(
        j.rwmixread != d.rwmixread,
        "rwmixread",
        j.rwmixread.to_string(),
    );
    add(j.bs != d.bs, "bs", format_size(j.bs));
    add(j.size != d.size, "size", format_size(j.size));
    add(j.numjobs != d.numjobs, "numjobs", j.numjobs.to_string());
    add(j.iodepth != d.iodepth, "iodepth", j.iodepth.to_string());
    add(
        j.ioengine != d.ioengine,
        "ioengine",
        j.ioengine.name().to_string(),
    );
    if let Some(ns) = j.runtime_ns {
        add(true, "runtime", format_time_ns(ns));
    }
    add(j.time_based != d.time_based, "time_based", b(j.time_based));
    add(j.direct != d.direct, "direct", b(j.direct));
    add(j.sync != d.sync, "sync", b(j.sync));
    add(j.fsync != d.fsync, "fsync", j.fsync.to_string());
    add(j.offset != d.offset, "offset", format_size(j.offset));
    v
}

/// The scenario-wide options that differ from the defaults.
fn global_options(s: &Scenario) -> Vec<(&'static str, String)> {
    let d = Scenario::default();
    let h = &s.host;
    let mut v = Vec::new();
    if s.platform != d.platform {
        v.push(("platform", s.platform.clone()));
    }
    if let Some(p) = h.mmc_path {
        v.push(("mmc_path", p.name().to_string()));
    }
    if let Some(x) = h.nonblocking {
        v.push(("nonblocking", b(x)));
    }
    match h.hsq_depth {
        Some(HsqDepth::Fixed(n)) => v.push(("hsq_depth", n.to_string())),
        Some(HsqDepth::Dynamic) => v.push(("hsq_depth", "dynamic".to_string())),
        None => {}
    }
    if let Some(n) = h.packed {
        v.push(("packed", n.to_string()));
    }
    if let Some(x) = h.fua {
        v.push(("fua", b(x)));
    }
    if let Some(x) = h.cache {
        v.push(("cache", b(x)));
    }
    if s.randseed != DEFAULT_RANDSEED {
        v.push(("randseed", s.randseed.to_string()));
    }
    if s.group_reporting {
        v.push(("group_reporting", b(true)));
    }
    if let Some(n) = s.mmc_test {
        v.push(("mmc_test", n.to_string()));
    }
    if let Some(t) = s.power_cut_ns {
        v.push(("power_cut", super::units::format_time_ns(t)));
    }
    if let Some(e) = s.inject_error {
        v.push(("inject_error", e.to_text()));
    }
    v
}

/// `key=value`, or a bare `key` for a set flag.
fn option_text(key: &str, value: &str) -> String {
    let is_flag = lookup(key).is_some_and(|o| o.accepted.starts_with("flag"));
    if is_flag && value == "1" {
        key.to_string()
    } else {
        format!("{}={}", key, value)
    }
}

impl Scenario {
    /// Every option that differs from the defaults: scenario-wide ones in global scope, then
    /// each job's `name` followed by its non-default options. Reading them back (a job section
    /// per `name`) gives this scenario again.
    pub fn to_options(&self) -> Vec<(OptionScope, String, String)> {
        let mut out: Vec<_> = global_options(self)
            .into_iter()
            .map(|(k, v)| (OptionScope::Global, k.to_string(), v))
            .collect();
        for (i, j) in self.jobs.iter().enumerate() {
            out.extend(
                job_options(j)
                    .into_iter()
                    .map(|(k, v)| (OptionScope::Job(i), k.to_string(), v)),
            );
        }
        out
    }

    /// The scenario as fio command-line arguments (`--key=value`), for [`super::options::parse_args`].
    pub fn to_args(&self) -> Vec<String> {
        self.to_options()
            .iter()
            .map(|(_, k, v)| format!("--{}", option_text(k, v)))
            .collect()
    }
}

/// The scenario as a fio job file, for [`parse_jobfile`].
pub fn to_jobfile(scn: &Scenario) -> String {
    let mut out = String::new();
    let globals = global_options(scn);
    if !globals.is_empty() {
        out.push_str("[global]\n");
        for (k, v) in &globals {
            out.push_str(&option_text(k, v));
            out.push('\n');
        }
    }
    for j in &scn.jobs {
        if !out.is_empty() {
            out.push('\n');
        }
        let opts = job_options(j);
        // A job named "global" cannot be a section name: write it as name= instead.
        if j.name == "global" {
            out.push_str("[job]\nname=global\n");
        } else {
            out.push_str(&format!("[{}]\n", j.name));
        }
        for (k, v) in opts.iter().skip(1) {
            out.push_str(&option_text(k, v));
            out.push('\n');
        }
    }
    out
}
