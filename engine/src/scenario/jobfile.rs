//! fio job files: reading them with fio's section semantics ([`ScenarioBuilder`]) and writing a
//! scenario back as one.
//!
//! The job-file syntax is fio's (HOWTO, "Job file format"): INI-style sections, `[global]` for
//! options every later job inherits and `[NAME]` for a job named NAME; `key=value` or a bare
//! `key` for flags, whitespace around `=` ignored; `;` or `#` starts a comment, on its own line
//! or after an option (fio strips both); a leading UTF-8 byte order mark is skipped.

use super::options::ScenarioBuilder;
use super::write::{global_options, job_options, option_text};
use super::{
    error::{clip, ScenarioError},
    spec::Scenario,
};

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

/// What a job file may reach outside itself: `include` files and environment variables. The
/// engine touches no file system; the CLI passes both, the page neither.
pub struct JobFileEnv<'a> {
    /// The text of an `include`d file, by the name written.
    pub include: &'a dyn Fn(&str) -> Result<String, String>,
    /// An environment variable for `${NAME}`.
    pub var: &'a dyn Fn(&str) -> Option<String>,
}

impl JobFileEnv<'_> {
    /// No file system, no environment.
    pub fn none() -> JobFileEnv<'static> {
        JobFileEnv {
            include: &|name| {
                Err(format!(
                    "cannot include '{name}' here (the command line can)"
                ))
            },
            var: &|_| None,
        }
    }
}

/// How deep `include` may nest (a file including itself is refused at this depth).
const MAX_INCLUDE_DEPTH: usize = 16;

/// Where a job file's reading is, across `include`d files.
#[derive(Default)]
struct ReadState {
    in_job: bool,
    in_section: bool,
    jobs: usize,
    /// A `[global]` after a job section (its line), and whether it set a job option since.
    late_global: Option<(usize, bool)>,
}

impl ScenarioBuilder {
    /// Applies the sections of a job file, as fio's `__parse_jobs_ini` reads it: a UTF-8 byte
    /// order mark is skipped, a `;` or `#` starts a comment (on its own line or after an
    /// option), an option before the first section is refused ("outside of [] job section"),
    /// and a file that defines no job (empty, or `[global]` alone) is refused with fio's
    /// "No job(s) defined" unless the command line named one (or it runs `mmc_test`).
    pub fn jobfile(&mut self, text: &str) -> Result<(), ScenarioError> {
        self.jobfile_in(text, &JobFileEnv::none())
    }

    /// [`Self::jobfile`] with `include` files and `${VAR}` from `env`.
    pub fn jobfile_in(&mut self, text: &str, env: &JobFileEnv) -> Result<(), ScenarioError> {
        let mut st = ReadState::default();
        self.jobfile_depth(text, env, &mut st, 0)?;
        if let Some((line, true)) = st.late_global {
            self.notice(format!(
                "line {line}: [global] after the last job section: its job options apply to no job"
            ));
        }
        // mmc_test runs the kernel's test cases, not job sections: [global] alone is enough.
        if st.jobs == 0 && !self.has_jobs() && !self.runs_mmc_test() {
            return Err(ScenarioError::general(
                "No job(s) defined: the job file has no job section ([global] alone sets options only)",
            ));
        }
        Ok(())
    }

    fn jobfile_depth(
        &mut self,
        text: &str,
        env: &JobFileEnv,
        st: &mut ReadState,
        depth: usize,
    ) -> Result<(), ScenarioError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        for (i, raw) in text.lines().enumerate() {
            let n = i + 1;
            // fio strips everything from the first ';' or '#' of a line.
            let line = raw.split([';', '#']).next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            if let Some(file) = line.strip_prefix("include ").map(str::trim) {
                self.include(file, n, env, st, depth)?;
                continue;
            }
            let expanded = super::vars::expand(line, env.var).map_err(|m| {
                // Name the option whose value needed the variable, as every refusal does.
                match line.split_once('=') {
                    Some((key, _)) if !key.trim().is_empty() => {
                        ScenarioError::general(format!("line {n}: {}: {m}", key.trim()))
                    }
                    _ => ScenarioError::general(format!("line {n}: {m}")),
                }
            })?;
            self.jobfile_line(expanded.as_str(), n, st)?;
        }
        Ok(())
    }

    /// `include FILE` on line `n`: the file's lines, read as if they stood here.
    fn include(
        &mut self,
        file: &str,
        n: usize,
        env: &JobFileEnv,
        st: &mut ReadState,
        depth: usize,
    ) -> Result<(), ScenarioError> {
        if depth >= MAX_INCLUDE_DEPTH {
            return Err(ScenarioError::general(format!(
                "line {n}: include '{}': nested more than {MAX_INCLUDE_DEPTH} deep",
                clip(file)
            )));
        }
        let inner = (env.include)(file).map_err(|m| {
            ScenarioError::general(format!("line {n}: include '{}': {m}", clip(file)))
        })?;
        self.jobfile_depth(&inner, env, st, depth + 1)
            .map_err(|e| at_line(n, e))
    }

    /// One line (`n`, comments stripped, variables expanded): a section header or an option.
    fn jobfile_line(
        &mut self,
        line: &str,
        n: usize,
        st: &mut ReadState,
    ) -> Result<(), ScenarioError> {
        if let Some(rest) = line.strip_prefix('[') {
            let name = rest
                .strip_suffix(']')
                .ok_or_else(|| {
                    ScenarioError::general(format!(
                        "line {}: section header '{}' has no closing ']'",
                        n,
                        clip(line)
                    ))
                })?
                .trim();
            st.in_job = name != "global";
            st.in_section = true;
            if !st.in_job && st.jobs > 0 {
                st.late_global = Some((n, false));
            }
            if st.in_job {
                st.late_global = None;
                st.jobs += 1;
                self.begin_job(name).map_err(|e| at_line(n, e))?;
            }
            return Ok(());
        }
        if !st.in_section {
            return Err(ScenarioError::general(format!(
                "line {}: option '{}' outside of [] job section (put it under [global] or a job section)",
                n,
                clip(line)
            )));
        }
        let (key, value) = match line.split_once('=') {
            Some((k, v)) => (k.trim(), Some(v.trim())),
            None => (line, None),
        };
        let r = if st.in_job {
            self.job(key, value)
        } else {
            if let Some((_, set)) = &mut st.late_global {
                *set |= super::table::lookup(key)
                    .is_some_and(|o| o.kind == super::table::OptionKind::Job);
            }
            self.global(key, value)
        };
        r.map_err(|e| at_line(n, e))
    }
}

/// The first line of a written job file ([`to_jobfile`]) that would not read back as written:
/// fio's reader strips from a `;` or `#` on (a comment) and expands a `$` (a variable), and a
/// job file has no way to quote them. None: every line reads back.
pub fn unreadable_line(text: &str) -> Option<&str> {
    text.lines().find(|l| l.contains([';', '#', '$']))
}

/// The scenario as a fio job file that reads back as written ([`to_jobfile`]), or the one
/// message both front ends give (the CLI's `--write_jobfile=`, the page's download) for a job
/// name or value that would not: fio's reader takes `;` and `#` for a comment and `$` for a
/// variable, and a job file cannot quote them.
pub fn to_readable_jobfile(scn: &Scenario) -> Result<String, ScenarioError> {
    let text = to_jobfile(scn);
    match unreadable_line(&text) {
        None => Ok(text),
        Some(line) => Err(ScenarioError::general(format!(
            "the line '{}' would not read back (in a fio job file ';' and '#' start a comment and '$' a variable, and nothing quotes them); accepted: job names and values without ';', '#' or '$'",
            clip(line)
        ))),
    }
}

/// The scenario as a fio job file, for [`parse_jobfile`]; [`to_readable_jobfile`] refuses one
/// that would not read back.
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
