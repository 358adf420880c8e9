//! Writing a scenario back as options: the command line (`--key=value`), a fio job file and a
//! link all start from [`Scenario::to_options`], which reads the option table: every option
//! whose value differs from the default, in table order. Reading them back gives the scenario.

use super::apply::OptionScope;
use super::table::{all_rows, lookup, Access, OPTIONS};
use super::{job::JobSpec, spec::Scenario};

/// The scenario-wide options of `s` whose value differs from the default scenario's.
pub(super) fn global_options(s: &Scenario) -> Vec<(&'static str, String)> {
    let d = Scenario::default();
    all_rows()
        .filter_map(|row| {
            let (mine, default) = match row.access {
                Access::Scenario { get, .. } => (get(s), get(&d)),
                // A host switch is written whenever it was given (the default scenario gives
                // none).
                Access::Switch(sw) => (super::board::switch_get(s, row, &sw), None),
                // A board parameter is written when it differs from the scenario's own preset.
                Access::Platform(p) => (super::board::get(s, row, &p), None),
                _ => return None,
            };
            (mine != default).then_some((row.name, mine?))
        })
        .collect()
}

/// The options of job `j`: `name` first, then those that differ from fio's defaults.
pub(super) fn job_options(j: &JobSpec) -> Vec<(&'static str, String)> {
    let d = JobSpec::default();
    let mut out = vec![("name", j.name.clone())];
    out.extend(
        OPTIONS
            .iter()
            .filter(|r| r.name != "name")
            .filter_map(|row| {
                let Access::Job { get, .. } = row.access else {
                    return None;
                };
                let mine = get(j);
                (mine != get(&d)).then_some((row.name, mine?))
            }),
    );
    out
}

/// `key=value`, or a bare `key` for a set flag.
pub(super) fn option_text(key: &str, value: &str) -> String {
    if value == "1" && lookup(key).is_some_and(|o| o.is_flag()) {
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

    /// The scenario as fio command-line arguments (`--key=value`), for
    /// [`super::options::parse_args`].
    pub fn to_args(&self) -> Vec<String> {
        self.to_options()
            .iter()
            .map(|(_, k, v)| format!("--{}", option_text(k, v)))
            .collect()
    }

    /// The scenario as one `mmcsim` command line a POSIX shell reads back into the same
    /// arguments: every argument a shell would split, expand or interpret is single-quoted
    /// ([`shell_quote`]), so pasting the line never runs anything but `mmcsim`.
    pub fn to_command_line(&self) -> String {
        std::iter::once("mmcsim".to_string())
            .chain(self.to_args().iter().map(|a| shell_quote(a)))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// `word` as a POSIX shell word that reads back as exactly `word`: unchanged when it holds only
/// characters no shell treats specially (letters, digits and `-_=.,/:+@%`), otherwise in
/// single quotes, each `'` written as `'\''`. An empty word becomes `''`.
pub fn shell_quote(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_=.,/:+@%".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        return word.to_string();
    }
    format!("'{}'", word.replace('\'', "'\\''"))
}
