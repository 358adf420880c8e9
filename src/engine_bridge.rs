//! Every call from the web app into `mmcsim-engine`, in one place.
//!
//! The UI drives the very API that the CLI and the engine's tests drive (the option parser,
//! `Simulator`, `Report`), nothing more; if that API changes, this file is the one to follow it.
//! It holds no browser code, so it builds (and could be tested) natively too.

use std::collections::BTreeMap;

use mmcsim_engine::metrics::SeriesPoint;
use mmcsim_engine::scenario::options::{apply_text, value_text};
use mmcsim_engine::scenario::table::{form_rows, FormGroup};
use mmcsim_engine::scenario::url::{decode_query, encode_query};
use mmcsim_engine::{calibration, Report, Scenario, Simulator};

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

/// The simulated figure of a finished run in a measured figure's unit. None for kernel
/// mmc_test runs, whose figure is one transfer size's entry, not the run's bandwidth.
pub fn simulated_in(scn: &Scenario, report: &Report, unit: &str) -> Option<f64> {
    if scn.mmc_test.is_some() {
        return None;
    }
    match unit {
        "MiB/s" => Some(report.total_mib_s()),
        "KiB/s" => Some(report.total_mib_s() * 1024.0),
        _ => None,
    }
}

/// Why a run could not start: the engine's message, and the option it names if any.
#[derive(Clone, Debug, PartialEq)]
pub struct RunError {
    pub option: Option<String>,
    pub message: String,
}

/// A simulation being run a slice at a time.
pub struct Run {
    sim: Simulator,
}

impl Run {
    /// Builds the simulator for a scenario, or the engine's refusal (a combination the option
    /// parser accepts one value at a time, such as a chain longer than the platform's ADMA3).
    pub fn start(scn: &Scenario) -> Result<Run, RunError> {
        Simulator::new(scn)
            .map(|sim| Run { sim })
            .map_err(|e| RunError {
                option: e.option.clone(),
                message: e.to_string(),
            })
    }
    /// Processes at most `max_events` events; true once the run is over.
    pub fn step(&mut self, max_events: u64) -> bool {
        self.sim.run_events(max_events)
    }
    /// 0..=1.
    pub fn progress(&self) -> f64 {
        self.sim.progress()
    }
    /// Simulated time, ns.
    pub fn now_ns(&self) -> u64 {
        self.sim.now()
    }
    pub fn series(&self) -> Vec<SeriesPoint> {
        self.sim.series()
    }
    pub fn report(&self) -> Report {
        self.sim.report()
    }
    /// Pulls the plug now: the power fails at the current simulated time, the run ends, and
    /// the report carries what the cut lost ([`Simulator::power_cut_now`]).
    pub fn power_cut_now(&mut self) {
        self.sim.power_cut_now();
    }
}
