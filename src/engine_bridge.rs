//! The web app's glue to the engine's scenario language and calibration data: the controls'
//! texts through the engine's one option parser, the command line, the URL query, the measured
//! figure of a scenario.
//!
//! The UI uses the very API that the CLI and the engine's tests use, nothing more. Simulations
//! are built and stepped in [`crate::session`] only. This file holds no browser code, so it
//! builds (and could be tested) natively too.

use std::collections::BTreeMap;

use mmcsim_engine::scenario::units::format_size;
use mmcsim_engine::scenario::url::{decode_query, encode_query};
use mmcsim_engine::scenario::{apply_option, HsqDepth, OptionScope};
use mmcsim_engine::{calibration, Report, Scenario};

/// The controls of the first screen, by scenario option name (the names the CLI, fio job
/// files and the URL query use).
pub const CONTROLS: [&str; 12] = [
    "platform",
    "mmc_path",
    "hsq_depth",
    "packed",
    "fua",
    "nonblocking",
    "rw",
    "bs",
    "numjobs",
    "iodepth",
    "ioengine",
    "size",
];

/// Host switches: an empty text means "the platform's default" (`None` in `HostOptions`).
fn is_host_switch(name: &str) -> bool {
    matches!(
        name,
        "mmc_path" | "hsq_depth" | "packed" | "fua" | "nonblocking" | "cache"
    )
}

/// The scenario with one control changed, or the engine parser's message.
///
/// Every value goes through [`apply_option`], the parser the CLI and job files use; the only
/// thing decided here is that clearing a host switch restores the platform default (the option
/// syntax has no spelling for "unset").
pub fn apply_control(scn: &Scenario, name: &str, text: &str) -> Result<Scenario, String> {
    let mut next = scn.clone();
    if text.is_empty() && is_host_switch(name) {
        let h = &mut next.host;
        match name {
            "mmc_path" => h.mmc_path = None,
            "hsq_depth" => h.hsq_depth = None,
            "packed" => h.packed = None,
            "fua" => h.fua = None,
            "nonblocking" => h.nonblocking = None,
            _ => h.cache = None,
        }
    } else {
        apply_option(&mut next, OptionScope::Global, name, Some(text))
            .map_err(|e| e.to_string())?;
    }
    Ok(next)
}

fn bool_text(b: Option<bool>) -> String {
    b.map(|b| if b { "1" } else { "0" }.to_string())
        .unwrap_or_default()
}

/// The text each control shows for a scenario (its first job; the UI edits one job).
pub fn control_texts(scn: &Scenario) -> BTreeMap<String, String> {
    let job = scn.jobs.first().cloned().unwrap_or_default();
    let h = &scn.host;
    let mut t = BTreeMap::new();
    let mut put = |k: &str, v: String| {
        t.insert(k.to_string(), v);
    };
    put("platform", scn.platform.clone());
    put(
        "mmc_path",
        h.mmc_path.map(|m| m.name().to_string()).unwrap_or_default(),
    );
    put(
        "hsq_depth",
        h.hsq_depth
            .map(|d| match d {
                HsqDepth::Fixed(n) => n.to_string(),
                HsqDepth::Dynamic => "dynamic".to_string(),
            })
            .unwrap_or_default(),
    );
    put(
        "packed",
        h.packed.map(|p| p.to_string()).unwrap_or_default(),
    );
    put("fua", bool_text(h.fua));
    put("nonblocking", bool_text(h.nonblocking));
    put("rw", job.rw.name().to_string());
    put("bs", format_size(job.bs));
    put("numjobs", job.numjobs.to_string());
    put("iodepth", job.iodepth.to_string());
    put("ioengine", job.ioengine.name().to_string());
    put("size", format_size(job.size));
    t
}

/// The same run from a shell: the CLI reads fio's `--name=value` syntax
/// ([`Scenario::to_args`], which the CLI parses back into this scenario).
pub fn command_line(scn: &Scenario) -> String {
    std::iter::once("mmcsim".to_string())
        .chain(scn.to_args())
        .collect::<Vec<_>>()
        .join(" ")
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
