//! What a fit is judged by and bounded by: a result file left out of the fit and predicted
//! from the others ([`LeftOut`], [`cross_validate`]), and the whole command's work within the
//! engine's bound ([`check_work`]).

use crate::case::{Case, Figure};
use crate::objective::simulate;
use crate::optimise::fit_core;
use crate::params::Free;
use crate::watch::{Watch, INTERRUPTED};
use mmcsim_engine::scenario::check::{estimated_events, MAX_COMMAND_EVENTS};
use mmcsim_engine::Scenario;

/// One result file left out of the fit and predicted by a fit to the others.
#[derive(Clone, Debug, PartialEq)]
pub struct LeftOut {
    pub file: String,
    /// The file's figure predicted worst for its tolerance ([`Figure::tolerance`]), measured
    /// and predicted.
    pub figure: Figure,
    pub measured: f64,
    pub predicted: f64,
    /// The parameters the other files leave unconstrained (left at the preset in this fit).
    pub unconstrained: Vec<&'static str>,
}

impl LeftOut {
    /// Predicted / measured - 1 of the worst-predicted figure.
    pub fn error(&self) -> f64 {
        self.predicted / self.measured - 1.0
    }
    /// Whether the prediction is within its figure's tolerance.
    pub fn within(&self) -> bool {
        self.error().abs() <= self.figure.tolerance()
    }
}

/// The fit's whole work within [`MAX_COMMAND_EVENTS`]: every case is simulated at each of the
/// optimiser's evaluations (at most two per iteration, plus the first simplex and the two
/// reports), and the whole fit is made (files + 1) times (once on all files, once with each
/// file left out). The estimate is the cases' estimated events times that many evaluations.
/// A fit whose unconstrained parameters are dropped searches a second time from the optimum;
/// that search is not counted: each case's estimate is already an upper bound (its requests
/// as if each held the bus for its transfer alone, about 20 times the events the BananaPi-M64
/// table's cases really simulate), which leaves room for it. The CLI and the page's worker
/// both go through here.
pub fn check_work(cases: &[Case], max_iters: u64, free: usize) -> Result<(), String> {
    let per_eval = cases
        .iter()
        .map(|c| estimated_events(&c.scn))
        .fold(0u64, u64::saturating_add);
    let fits = cases.len() as u64 + 1;
    let evals = max_iters
        .saturating_mul(2)
        .saturating_add(free as u64 + 3)
        .saturating_mul(fits);
    let events = per_eval.saturating_mul(evals);
    if events > MAX_COMMAND_EVENTS {
        return Err(format!(
            "fit: {} case(s) x about {evals} evaluations would simulate about {events} events in all (each evaluation runs every case: {per_eval} events); at most {MAX_COMMAND_EVENTS} for one command, about 10 minutes of CPU (fewer RESULTS files, a lower --max_iters or --fit_runtime)",
            cases.len()
        ));
    }
    Ok(())
}

/// Leaves each case out, fits the others as the whole fit does (same base preset, same
/// parameters, same iteration budget, same rule for unconstrained parameters) and predicts
/// the case left out: its worst-predicted figure. Stopped ([`Watch::stop`]), it returns the
/// files done so far.
pub(crate) fn cross_validate(
    cases: &[Case],
    base: &Scenario,
    free: &Free,
    max_iters: u64,
    runs: &Watch,
    on_fit: &mut dyn FnMut(usize, usize),
) -> Result<Vec<LeftOut>, String> {
    let mut out = Vec::new();
    for (k, case) in cases.iter().enumerate() {
        on_fit(k + 2, cases.len() + 1);
        let rest: Vec<Case> = cases
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != k)
            .map(|(_, c)| c.clone())
            .collect();
        let core = match fit_core(&rest, base, free, max_iters, runs) {
            Err(e) if e == INTERRUPTED => break,
            r => r?,
        };
        if runs.count(1).is_err() {
            break;
        }
        let predicted = simulate(case, &core.board)?;
        let (figure, measured, predicted) = case
            .measured
            .iter()
            .zip(predicted)
            .map(|((f, m), p)| (*f, *m, p))
            .max_by(|a, b| {
                let miss = |(f, m, p): &(Figure, f64, f64)| (p / m - 1.0).abs() / f.tolerance();
                miss(a).total_cmp(&miss(b))
            })
            .ok_or_else(|| format!("{}: no measured figure", case.file))?;
        out.push(LeftOut {
            file: case.file.clone(),
            figure,
            measured,
            predicted,
            unconstrained: core.unconstrained,
        });
    }
    Ok(out)
}

/// A result file's name without its folders.
pub(crate) fn short(file: &str) -> String {
    std::path::Path::new(file)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| file.to_string())
}
