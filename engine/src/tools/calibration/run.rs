//! Running the cases through the model, and finding the measured figure that matches a
//! scenario.

use super::{authors_size, Case, Unit, CASES};
use crate::path::mmc_test::size_name;
use crate::scenario::Scenario;

/// One case run through the model.
#[derive(Clone, Debug)]
pub struct CaseResult {
    pub case: Case,
    pub simulated: (f64, f64),
}

impl CaseResult {
    /// Relative error of the simulated figure, percent.
    pub fn error_pct(&self) -> (f64, f64) {
        let e = |s: f64, m: f64| (s - m) / m * 100.0;
        (
            e(self.simulated.0, self.case.measured.0),
            e(self.simulated.1, self.case.measured.1),
        )
    }
    /// B / A, measured and simulated.
    pub fn ratios(&self) -> (f64, f64) {
        (
            self.case.measured.1 / self.case.measured.0,
            self.simulated.1 / self.simulated.0,
        )
    }
}

fn throughput(case: &Case, scn: &Scenario) -> Result<f64, crate::ScenarioError> {
    let report = crate::sim::run(scn)?;
    case.figure(scn, &report).ok_or_else(|| {
        crate::ScenarioError::general(format!("mmc_test ran no {} transfer", size_name(case.bs)))
    })
}

/// Runs one case, both columns. `size_override` replaces the authors' per-job size.
pub fn run_case(
    case: &Case,
    size_override: Option<u64>,
) -> Result<CaseResult, crate::ScenarioError> {
    run_case_under(case, size_override, &super::Under::default())
}

/// [`run_case`] with the block layer `under` chooses.
pub fn run_case_under(
    case: &Case,
    size_override: Option<u64>,
    under: &super::Under,
) -> Result<CaseResult, crate::ScenarioError> {
    let size = size_override.unwrap_or_else(|| authors_size(case.platform));
    let scn = |b| {
        let mut s = case.scenario(b, size);
        under.apply(&mut s);
        s
    };
    let a = throughput(case, &scn(false))?;
    let b = throughput(case, &scn(true))?;
    Ok(CaseResult {
        case: *case,
        simulated: (a, b),
    })
}

/// Largest `--size` a whole calibration run takes: the authors' 512 MiB per job, about 14 s of
/// CPU for all 64 runs on the project's 2-core machine (each run alone is also within
/// [`crate::scenario::check::MAX_EVENTS`]).
pub const MAX_CALIBRATION_SIZE: u64 = 512 << 20;

/// Runs every case. A `size_override` above [`MAX_CALIBRATION_SIZE`] is refused.
pub fn run_all(size_override: Option<u64>) -> Result<Vec<CaseResult>, crate::ScenarioError> {
    run_all_under(size_override, &super::Under::default())
}

/// [`run_all`] with the block layer `under` chooses.
pub fn run_all_under(
    size_override: Option<u64>,
    under: &super::Under,
) -> Result<Vec<CaseResult>, crate::ScenarioError> {
    if let Some(size) = size_override.filter(|&s| s > MAX_CALIBRATION_SIZE) {
        return Err(crate::ScenarioError::new(
            "size",
            format!(
                "--calibration runs every case at size={size} bytes per job; at most {} (512 MiB, the authors' size, about 14 s of CPU in all)",
                MAX_CALIBRATION_SIZE
            ),
        ));
    }
    CASES
        .iter()
        .map(|c| run_case_under(c, size_override, under))
        .collect()
}

/// A measured figure matching a scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct MeasuredFigure {
    pub value: f64,
    pub unit: Unit,
    pub column: &'static str,
    pub source: &'static str,
    pub outlier: Option<&'static str>,
}

/// The measured case and column (`true` = B) matching `scn` (any size, any seed).
fn case_for(scn: &Scenario) -> Option<(&'static Case, bool)> {
    let key = |s: &Scenario| {
        let j = s.jobs.first().map(|j| {
            (
                j.rw,
                j.bs,
                j.numjobs,
                j.outstanding(),
                j.sync,
                j.fsync,
                j.fs,
                s.jobs.len(),
            )
        });
        (
            s.platform.clone(),
            s.effective_platform().ok().map(|p| p.switches),
            s.mmc_test,
            if s.mmc_test.is_some() { None } else { j },
        )
    };
    let want = key(scn);
    for case in CASES.iter().filter(|c| c.platform == scn.platform) {
        for b in [false, true] {
            let cand = case.scenario(b, authors_size(case.platform));
            if key(&cand) == want {
                return Some((case, b));
            }
        }
    }
    None
}

/// The measured figure for `scn`, if it is one of the measured cases (any size, any seed).
/// For an mmc_test scenario (several transfer sizes) this is the 4 KiB case.
pub fn measured_for(scn: &Scenario) -> Option<MeasuredFigure> {
    let (case, b) = case_for(scn)?;
    let series = case.series();
    Some(MeasuredFigure {
        value: if b { case.measured.1 } else { case.measured.0 },
        unit: series.unit,
        column: if b {
            series.columns.1
        } else {
            series.columns.0
        },
        source: series.source,
        outlier: case.outlier,
    })
}

/// The simulated figure of a finished run of `scn`, in the unit of the measured case it matches
/// (MiB/s, or KiB/s for mmc_test), to set beside [`measured_for`].
pub fn simulated_for(scn: &Scenario, report: &crate::Report) -> Option<f64> {
    let (case, _) = case_for(scn)?;
    case.figure(scn, report)
}
