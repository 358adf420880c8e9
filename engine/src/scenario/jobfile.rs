//! fio job files: reading them with fio's section semantics ([`ScenarioBuilder`]) and writing a
//! scenario back as one.
//!
//! The job-file syntax is fio's (HOWTO, "Job file format"): INI-style sections, `[global]` for
//! options every later job inherits and `[NAME]` for a job named NAME; `key=value` or a bare
//! `key` for flags, whitespace around `=` ignored; lines starting with `;` or `#` are comments.

use super::options::ScenarioBuilder;
use super::write::{global_options, job_options, option_text};
use super::{Scenario, ScenarioError};

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

impl ScenarioBuilder {
    /// Applies the sections of a job file. Options before the first section count as global.
    pub fn jobfile(&mut self, text: &str) -> Result<(), ScenarioError> {
        self.jobfile_in(text, &JobFileEnv::none())
    }

    /// [`Self::jobfile`] with `include` files and `${VAR}` from `env`.
    pub fn jobfile_in(&mut self, text: &str, env: &JobFileEnv) -> Result<(), ScenarioError> {
        let mut in_job = false;
        self.jobfile_depth(text, env, &mut in_job, 0)
    }

    fn jobfile_depth(
        &mut self,
        text: &str,
        env: &JobFileEnv,
        in_job: &mut bool,
        depth: usize,
    ) -> Result<(), ScenarioError> {
        for (i, raw) in text.lines().enumerate() {
            let n = i + 1;
            let line = raw.trim();
            if line.is_empty() || line.starts_with(';') || line.starts_with('#') {
                continue;
            }
            if let Some(file) = line.strip_prefix("include ").map(str::trim) {
                if depth >= MAX_INCLUDE_DEPTH {
                    return Err(ScenarioError::general(format!(
                        "line {n}: include '{file}': nested more than {MAX_INCLUDE_DEPTH} deep"
                    )));
                }
                let inner = (env.include)(file).map_err(|m| {
                    ScenarioError::general(format!("line {n}: include '{file}': {m}"))
                })?;
                self.jobfile_depth(&inner, env, in_job, depth + 1)
                    .map_err(|e| at_line(n, e))?;
                continue;
            }
            let expanded = super::vars::expand(line, env.var)
                .map_err(|m| ScenarioError::general(format!("line {n}: {m}")))?;
            let line = expanded.as_str();
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
                *in_job = name != "global";
                if *in_job {
                    self.begin_job(name).map_err(|e| at_line(n, e))?;
                }
                continue;
            }
            let (key, value) = match line.split_once('=') {
                Some((k, v)) => (k.trim(), Some(v.trim())),
                None => (line, None),
            };
            let r = if *in_job {
                self.job(key, value)
            } else {
                self.global(key, value)
            };
            r.map_err(|e| at_line(n, e))?;
        }
        Ok(())
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
