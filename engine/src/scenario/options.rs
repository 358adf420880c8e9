//! The one option parser, shared by the CLI, fio job files and the web app's links and form.
//!
//! Option names are fio's (see fio's HOWTO, "Job file parameters"), plus mmcsim's host switches;
//! every option is a row of [`super::table::OPTIONS`]. [`apply_option`] sets one option;
//! [`reset_option`] puts it back to its default; [`ScenarioBuilder`] adds fio's section semantics
//! (globals inherited by later job sections) and [`parse_args`] reads a fio command line with it.

use super::check::check;
use super::table::Access;
use super::{
    error::{clip, ScenarioError},
    job::JobSpec,
    spec::Scenario,
};

pub use super::apply::{
    all_rows, apply_option, apply_text, apply_text_in, lookup, note_for, preset_text, reset_option,
    resolve, split_arg, suggest, value_text, value_text_in, OptionKind, OptionRow, OptionScope,
    OPTIONS,
};

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
    /// [`super::warnings::warnings`]): a scenario-wide option given in a later job section with
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
            // A scenario-wide option in a `[global]` after a job section changes the jobs
            // before it too (fio would change only the jobs after it): said, as in [`Self::job`].
            let before = (self.sections > 0).then(|| self.scenario_wide_text(key));
            apply_option(&mut self.scn, OptionScope::Global, key, value)?;
            if let Some(Some(before)) = before {
                if Some(&before) != self.scenario_wide_text(key).as_ref() {
                    let name = clip(&self.scn.jobs[self.scn.jobs.len() - 1].name);
                    self.notice(format!(
                        "{}: set in a [global] after job section '{name}' to another value; it is one setting for the whole run, so it changes the jobs before it too",
                        clip(key)
                    ));
                }
            }
            return Ok(());
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
                // `sensitivity` asks for more runs and changes no job: no notice.
                let before = (self.sections > 1 && key != "sensitivity")
                    .then(|| self.scenario_wide_text(key));
                apply_option(&mut self.scn, OptionScope::Job(last), key, value)?;
                if let Some(Some(before)) = before {
                    if Some(&before) != self.scenario_wide_text(key).as_ref() {
                        let name = clip(&self.scn.jobs[last].name);
                        self.notice(format!(
                            "{}: set in job section '{name}' to another value; it is one setting for the whole run, so it changes the jobs before it too",
                            clip(key)
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
        let row = lookup(key)?;
        match row.access {
            Access::Scenario { get, .. } => Some(get(&self.scn).unwrap_or_default()),
            // Board parameters give no notice here (they are compared with the preset).
            Access::Switch(s) => {
                Some(super::board::switch_get(&self.scn, row, &s).unwrap_or_default())
            }
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
    /// [`super::warnings::warnings`] of the scenario (each once).
    pub fn finish_with_warnings(self) -> Result<(Scenario, Vec<String>), ScenarioError> {
        let mut notes = self.notices.clone();
        let scn = self.finish()?;
        for w in super::warnings::warnings(&scn) {
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
