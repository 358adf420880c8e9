//! The web app's glue to the engine's scenario language and calibration data: the controls'
//! texts through the engine's one option parser, the command line, the URL query, the measured
//! figure of a scenario.
//!
//! The UI uses the very API that the CLI and the engine's tests use, nothing more. Simulations
//! are built and stepped in [`crate::run::session`] only. This file holds no browser code, so it
//! builds (and could be tested) natively too.

use std::collections::BTreeMap;

use mmcsim_engine::scenario::options::{apply_text, apply_text_in, value_text, value_text_in};
use mmcsim_engine::scenario::table::{form_rows, FormGroup};
use mmcsim_engine::scenario::url::{decode_query, encode_query};
use mmcsim_engine::scenario::OptionScope;
use mmcsim_engine::{calibration, Report, Scenario};

/// The controls of the first screen: the options whose table row has a form hint, in the
/// form's order (the names the CLI, fio job files and the URL query use).
pub fn controls() -> Vec<&'static str> {
    FormGroup::ALL
        .iter()
        .flat_map(|&g| form_rows(g).map(|(row, _)| row.name))
        .collect()
}

/// The scenario with one control changed, or the engine parser's message.
///
/// Every value goes through the engine's option table ([`apply_text`]): the parser the CLI
/// and job files use; an empty text resets a host switch to the platform's default.
pub fn apply_control(scn: &Scenario, name: &str, text: &str) -> Result<Scenario, String> {
    apply_text(scn, name, text).map_err(|e| e.to_string())
}

/// The text each control shows for a scenario (its first job; the form edits one job).
pub fn control_texts(scn: &Scenario) -> BTreeMap<String, String> {
    controls()
        .into_iter()
        .map(|name| (name.to_string(), value_text(scn, name)))
        .collect()
}

/// The text each control shows with job section `job` selected (a file of several jobs is
/// edited one job at a time: the job options are that job's, the rest the scenario's).
pub fn control_texts_in(scn: &Scenario, job: usize) -> BTreeMap<String, String> {
    controls()
        .into_iter()
        .map(|name| (name.to_string(), value_text_in(scn, job, name)))
        .collect()
}

/// The scenario with one control changed while job section `job` is selected: a job option
/// changes that job only when there are several, as fio's section would
/// ([`apply_text_in`], the same parser); anything else as [`apply_control`].
pub fn apply_control_in(
    scn: &Scenario,
    job: usize,
    name: &str,
    text: &str,
) -> Result<Scenario, String> {
    if scn.jobs.len() < 2 {
        return apply_control(scn, name, text);
    }
    apply_text_in(scn, OptionScope::Job(job), name, text).map_err(|e| e.to_string())
}

/// One label per job section, for the form's job tabs: its name and what it does
/// ("reader: randread 4k x2").
pub fn job_labels(scn: &Scenario) -> Vec<String> {
    (0..scn.jobs.len())
        .map(|i| {
            let j = &scn.jobs[i];
            let clones = if j.numjobs > 1 {
                format!(" ×{}", j.numjobs)
            } else {
                String::new()
            };
            format!(
                "{}: {} {}{clones}",
                j.name,
                j.rw.name(),
                value_text_in(scn, i, "bs")
            )
        })
        .collect()
}

/// The same run from a shell: the CLI reads fio's `--name=value` syntax
/// ([`Scenario::to_args`], which the CLI parses back into this scenario), each argument
/// shell-quoted where a POSIX shell would split or interpret it, so pasting it is safe.
pub fn command_line(scn: &Scenario) -> String {
    scn.to_command_line()
}

/// Options of `scn` that have no effect in its configuration, one line each (the engine's
/// `scenario::warnings`, what the CLI prints as `mmcsim: warning:`).
pub fn warnings(scn: &Scenario) -> Vec<String> {
    mmcsim_engine::scenario::warnings(scn)
}

/// The URL query (without '?') that reloads this scenario: the engine's scenario links, the
/// same option language as the CLI.
pub fn url_query(scn: &Scenario) -> String {
    encode_query(scn, None)
}

/// A scenario from a URL query (`?bs=512k&rw=write`), option by option through the same
/// parser: a rejected option gives one message and the rest still loads.
pub fn scenario_from_query(query: &str) -> (Scenario, Vec<String>) {
    let (a, _, errors) = scenarios_from_query(query);
    (a, errors)
}

/// Both sides of a link: A, and B when the link compares two host configurations (`b.` keys,
/// see `mmcsim_engine::scenario::url`), with one message per option left out.
pub fn scenarios_from_query(query: &str) -> (Scenario, Option<Scenario>, Vec<String>) {
    let d = decode_query(query);
    let errors = d.errors.iter().map(|e| e.to_string()).collect();
    (d.a, d.b, errors)
}

/// The URL query (without '?') for A and, in an A/B comparison, B.
pub fn url_query_ab(a: &Scenario, b: Option<&Scenario>) -> String {
    encode_query(a, b)
}

/// The published figure a scenario reproduces, when it is one of the measured cases.
#[derive(Clone, Debug, PartialEq)]
pub struct MeasuredFigure {
    pub value: f64,
    /// "MiB/s" or "KiB/s".
    pub unit: String,
    /// Which column of the authors' table (the host change off or on).
    pub column: String,
    pub source: String,
    /// Why the model is not expected to match this case, when it is not.
    pub outlier: Option<String>,
}

/// [`mmcsim_engine::calibration::measured_for`]: the same matching the CLI's `--calibration`
/// uses (platform, host configuration, workload; any size and seed).
pub fn measured_for(scn: &Scenario) -> Option<MeasuredFigure> {
    calibration::measured_for(scn).map(|m| MeasuredFigure {
        value: m.value,
        unit: m.unit.name().to_string(),
        column: m.column.to_string(),
        source: m.source.to_string(),
        outlier: m.outlier.map(str::to_string),
    })
}

/// The simulated figure of a finished run in a measured figure's unit, compared like with
/// like: for a kernel mmc_test run, the entry of the measured case's transfer size (the
/// engine's [`calibration::simulated_for`]), not the run's total over all sizes.
pub fn simulated_in(scn: &Scenario, report: &Report, unit: &str) -> Option<f64> {
    let _ = unit;
    calibration::simulated_for(scn, report)
}

#[cfg(test)]
mod jobs {
    use super::*;
    use mmcsim_engine::scenario::jobfile::{parse_jobfile, to_jobfile};

    /// Issue 12: a two-job file showed as one job and editing numjobs rewrote both. The form
    /// edits the selected job; the job file, command line and link carry both jobs.
    #[test]
    fn a_two_job_file_is_edited_job_by_job() {
        let file = "[reader]\nrw=randread\nbs=4k\nsize=1m\n\n[writer]\nrw=write\nbs=64k\nsize=2m\n";
        let scn = parse_jobfile(file, Scenario::default()).unwrap();
        assert_eq!(
            job_labels(&scn),
            ["reader: randread 4k", "writer: write 64k"]
        );
        assert_eq!(control_texts_in(&scn, 1)["rw"], "write");
        assert_eq!(control_texts_in(&scn, 0)["rw"], "randread");
        let next = apply_control_in(&scn, 1, "numjobs", "3").unwrap();
        assert_eq!(next.jobs[0], scn.jobs[0]);
        assert_eq!(next.jobs[1].numjobs, 3);
        assert_eq!(job_labels(&next)[1], "writer: write 64k ×3");
        let back = parse_jobfile(&to_jobfile(&next), Scenario::default()).unwrap();
        assert_eq!(back.jobs, next.jobs);
        let (linked, errors) = scenario_from_query(&url_query(&next));
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(linked.jobs, next.jobs);
        assert!(command_line(&next).contains("--name=writer"));
        // A rejected value names the option; nothing changes.
        assert!(apply_control_in(&scn, 1, "numjobs", "many")
            .unwrap_err()
            .contains("numjobs"));
    }
}

#[cfg(test)]
mod like_with_like {
    use super::*;

    /// Issue 12: u300 `mmc_test=38` showed 13.98 MiB/s (all five transfer sizes together)
    /// beside "2864 KiB/s measured" (one size). The simulated figure set beside the measured
    /// one is the same transfer size, in the same unit, and the headline says what it covers.
    #[test]
    fn an_mmc_test_run_is_compared_with_its_own_transfer_size() {
        let (scn, errors) = scenario_from_query("platform=u300-mmci-2011&mmc_test=38&size=4m");
        assert!(errors.is_empty(), "{errors:?}");
        let report = mmcsim_engine::run(&scn).unwrap();
        let m = measured_for(&scn).expect("a measured case");
        assert_eq!(m.unit, "KiB/s");
        let sim = simulated_in(&scn, &report, &m.unit).expect("the same size's figure");
        assert!(
            (sim - m.value).abs() / m.value < 0.25,
            "{sim} vs {}",
            m.value
        );
        let total_kib = report.total_mib_s() * 1024.0;
        assert!(total_kib > sim * 2.0, "the total is not what is compared");
    }
}
