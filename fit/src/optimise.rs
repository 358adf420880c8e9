//! The Nelder-Mead driver: the base preset, the search in log space and the fit's verdict.

use crate::case::{Case, Figure};
use crate::objective::{cost_of, nearest_preset, rms};
use crate::params::Free;
use crate::MAX_TRUSTED_RMS;
use argmin::core::{CostFunction, Error, Executor, State};
use argmin::solver::neldermead::NelderMead;
use mmcsim_engine::scenario::check::{estimated_events, MAX_COMMAND_EVENTS};
use mmcsim_engine::Scenario;

struct Problem<'a> {
    cases: &'a [Case],
    base: &'a Scenario,
    free: &'a Free,
}

impl CostFunction for Problem<'_> {
    type Param = Vec<f64>;
    type Output = f64;
    fn cost(&self, x: &Vec<f64>) -> Result<f64, Error> {
        let (board, _) = self.free.board(self.base, x, false);
        cost_of(self.cases, &board).map_err(Error::msg)
    }
}

/// A finished fit.
pub struct Fit {
    pub board: Scenario,
    pub preset_board: Scenario,
    pub names: Vec<&'static str>,
    pub rms: f64,
    pub preset_rms: f64,
    pub iterations: u64,
    /// Per case and figure: (measured, simulated with the preset, simulated with the fit).
    pub rows: Vec<(String, Figure, f64, f64, f64)>,
    pub warnings: Vec<String>,
}

/// The base preset: `platform`, else the one a file names, else the nearest to the figures
/// (and a warning saying so).
fn base_preset(
    cases: &[Case],
    platform: Option<&str>,
    warnings: &mut Vec<String>,
) -> Result<String, String> {
    Ok(match platform {
        Some(p) => p.to_string(),
        None => match cases.iter().find_map(|c| c.platform.clone()) {
            Some(p) => p,
            None => {
                let p = nearest_preset(cases)?;
                warnings.push(format!(
                    "base preset: {p} (nearest to the figures; say --platform= to choose)"
                ));
                p
            }
        },
    })
}

/// Nelder-Mead in log space from a simplex of +-20 % steps around the preset: the best
/// log-offsets found and the iterations taken.
fn minimise(
    cases: &[Case],
    base: &Scenario,
    free: &Free,
    max_iters: u64,
) -> Result<(Vec<f64>, u64), String> {
    let n = free.names.len();
    let mut simplex = vec![vec![0.0; n]];
    for i in 0..n {
        let mut v = vec![0.0; n];
        v[i] = 0.2;
        simplex.push(v);
    }
    let solver = NelderMead::new(simplex)
        .with_sd_tolerance(1e-7)
        .map_err(|e| format!("fit: {e}"))?;
    let problem = Problem { cases, base, free };
    let res = Executor::new(problem, solver)
        .configure(|s| s.max_iters(max_iters))
        // No wall clock: the engine's runs are the only time that counts (and wasm32 has none).
        .timer(false)
        .run()
        .map_err(|e| format!("fit: {e}"))?;
    let state = res.state();
    let x = state
        .get_best_param()
        .cloned()
        .unwrap_or_else(|| vec![0.0; n]);
    Ok((x, state.get_iter()))
}

/// Why a fit cannot be trusted, if it cannot: too few figures for `n` parameters, parameters
/// at an edge, a large error, no convergence.
fn doubts(
    figures: usize,
    n: usize,
    at_edge: &[&str],
    fit_rms: f64,
    iterations: u64,
    converged: bool,
) -> Vec<String> {
    let mut warnings = Vec::new();
    if figures < n + 1 {
        warnings.push(format!(
            "untrustworthy: {figures} measured figure(s) for {n} parameter(s); give more results or fewer --fit= parameters"
        ));
    }
    if !at_edge.is_empty() {
        warnings.push(format!(
            "untrustworthy: at the edge of its range: {}",
            at_edge.join(", ")
        ));
    }
    if fit_rms > MAX_TRUSTED_RMS {
        warnings.push(format!(
            "untrustworthy: RMS error {:.1} % after the fit (above {:.0} %): the model or the free parameters do not explain these results",
            fit_rms * 100.0,
            MAX_TRUSTED_RMS * 100.0
        ));
    }
    if !converged {
        warnings.push(format!(
            "untrustworthy: the optimiser stopped after {iterations} iterations without converging"
        ));
    }
    warnings
}

/// The fit's whole work within [`MAX_COMMAND_EVENTS`]: every case is simulated at each of the
/// optimiser's evaluations (at most two per iteration, plus the first simplex and the two
/// reports), so the estimate is the cases' estimated events times that many evaluations. The
/// CLI and the page's worker both go through here.
pub fn check_work(cases: &[Case], max_iters: u64, free: usize) -> Result<(), String> {
    let per_eval = cases
        .iter()
        .map(|c| estimated_events(&c.scn))
        .fold(0u64, u64::saturating_add);
    let evals = max_iters.saturating_mul(2).saturating_add(free as u64 + 3);
    let events = per_eval.saturating_mul(evals);
    if events > MAX_COMMAND_EVENTS {
        return Err(format!(
            "fit: {} case(s) x about {evals} evaluations would simulate about {events} events in all (each evaluation runs every case: {per_eval} events); at most {MAX_COMMAND_EVENTS} for one command, about 10 minutes of CPU (fewer RESULTS files, a lower --max_iters or --fit_runtime)",
            cases.len()
        ));
    }
    Ok(())
}

/// Fits `names` (or [`DEFAULT_FIT`](crate::DEFAULT_FIT)) on top of `platform` (or the nearest
/// preset).
pub fn fit(
    cases: &[Case],
    platform: Option<&str>,
    names: &[String],
    max_iters: u64,
) -> Result<Fit, String> {
    if cases.is_empty() {
        return Err("fit: no RESULTS files given (fio --output-format=json outputs)".to_string());
    }
    check_work(cases, max_iters, names.len().max(crate::DEFAULT_FIT.len()))?;
    let mut warnings = Vec::new();
    let base_name = base_preset(cases, platform, &mut warnings)?;
    let preset = mmcsim_engine::platform::by_name(&base_name).ok_or_else(|| {
        format!(
            "platform: '{}' is not a known platform; accepted: {}",
            base_name,
            mmcsim_engine::platform::names().join(", ")
        )
    })?;
    let base = Scenario {
        platform: base_name.clone(),
        ..Scenario::default()
    };
    let free = Free::new(names, preset)?;
    let figures: usize = cases.iter().map(|c| c.measured.len()).sum();
    let (preset_rms, preset_sims) = rms(cases, &base)?;
    let (x, iterations) = minimise(cases, &base, &free, max_iters)?;
    let converged = iterations < max_iters;
    let (board, edges) = free.board(&base, &x, true);
    let (fit_rms, fit_sims) = rms(cases, &board)?;
    let at_edge: Vec<&'static str> = free
        .names
        .iter()
        .zip(&edges)
        .filter(|(_, &e)| e)
        .map(|(n, _)| *n)
        .collect();
    let n = free.names.len();
    warnings.extend(doubts(figures, n, &at_edge, fit_rms, iterations, converged));
    let mut rows = Vec::new();
    for ((c, ps), fs) in cases.iter().zip(&preset_sims).zip(&fit_sims) {
        for (((f, m), p), s) in c.measured.iter().zip(ps).zip(fs) {
            rows.push((c.file.clone(), *f, *m, *p, *s));
        }
    }
    Ok(Fit {
        board,
        preset_board: base,
        names: free.names,
        rms: fit_rms,
        preset_rms,
        iterations,
        rows,
        warnings,
    })
}
