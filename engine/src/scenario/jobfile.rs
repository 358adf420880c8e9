//! fio job files: reading them with fio's section semantics ([`ScenarioBuilder`]) and writing a
//! scenario back as one.
//!
//! The job-file syntax is fio's (HOWTO, "Job file format"): INI-style sections, `[global]` for
//! options every later job inherits and `[NAME]` for a job named NAME; `key=value` or a bare
//! `key` for flags, whitespace around `=` ignored; `;` or `#` starts a comment, on its own line
//! or after an option (fio strips both); a leading UTF-8 byte order mark is skipped.

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

impl ScenarioBuilder {
    /// Applies the sections of a job file, as fio's `__parse_jobs_ini` reads it: a UTF-8 byte
    /// order mark is skipped, a `;` or `#` starts a comment (on its own line or after an
    /// option), an option before the first section is refused ("outside of [] job section"),
    /// and a file that defines no job (empty, or `[global]` alone) is refused with fio's
    /// "No job(s) defined" unless the command line named one (or it runs `mmc_test`).
    pub fn jobfile(&mut self, text: &str) -> Result<(), ScenarioError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut in_job = false;
        let mut in_section = false;
        let mut jobs = 0;
        // A [global] after a job section, and whether it set a job option since.
        let mut late_global: Option<(usize, bool)> = None;
        for (i, raw) in text.lines().enumerate() {
            let n = i + 1;
            // fio strips everything from the first ';' or '#' of a line.
            let line = raw.split([';', '#']).next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            if let Some(rest) = line.strip_prefix('[') {
                let name = rest
                    .strip_suffix(']')
                    .ok_or_else(|| {
                        ScenarioError::general(format!(
                            "line {}: section header '{}' has no closing ']'",
                            n,
                            super::clip(line)
                        ))
                    })?
                    .trim();
                in_job = name != "global";
                in_section = true;
                if !in_job && jobs > 0 {
                    late_global = Some((n, false));
                }
                if in_job {
                    late_global = None;
                    jobs += 1;
                    self.begin_job(name).map_err(|e| at_line(n, e))?;
                }
                continue;
            }
            if !in_section {
                return Err(ScenarioError::general(format!(
                    "line {}: option '{}' outside of [] job section (put it under [global] or a job section)",
                    n,
                    super::clip(line)
                )));
            }
            let (key, value) = match line.split_once('=') {
                Some((k, v)) => (k.trim(), Some(v.trim())),
                None => (line, None),
            };
            let r = if in_job {
                self.job(key, value)
            } else {
                if let Some((_, set)) = &mut late_global {
                    *set |= super::table::lookup(key)
                        .is_some_and(|o| o.kind == super::table::OptionKind::Job);
                }
                self.global(key, value)
            };
            r.map_err(|e| at_line(n, e))?;
        }
        if let Some((line, true)) = late_global {
            self.notice(format!(
                "line {line}: [global] after the last job section: its job options apply to no job"
            ));
        }
        // mmc_test runs the kernel's test cases, not job sections: [global] alone is enough.
        if jobs == 0 && !self.has_jobs() && !self.runs_mmc_test() {
            return Err(ScenarioError::general(
                "No job(s) defined: the job file has no job section ([global] alone sets options only)",
            ));
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
