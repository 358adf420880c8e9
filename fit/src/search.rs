//! One Nelder-Mead search of a fit in log space (argmin's), stopped at the first refused point
//! or when the fit is asked to stop.

use crate::case::Case;
use crate::params::Free;
use crate::watch::{Watch, INTERRUPTED};
use argmin::core::{
    CostFunction, Error, Executor, IterState, Solver, State, TerminationReason, KV,
};
use argmin::solver::neldermead::NelderMead;
use mmcsim_engine::Scenario;
use std::sync::OnceLock;

struct Problem<'a> {
    cases: &'a [Case],
    base: &'a Scenario,
    free: &'a Free,
    /// Simulated runs so far (each cost is one run per case), and the stop flag.
    runs: &'a Watch,
    /// The first point at which a case was refused. argmin's Nelder-Mead unwraps the costs of
    /// its first simplex (a failed cost there panics), so no cost fails: a refusal is kept
    /// here, every later cost is infinite without a run, and `minimise` returns the refusal.
    refused: OnceLock<String>,
}

impl CostFunction for Problem<'_> {
    type Param = Vec<f64>;
    type Output = f64;
    fn cost(&self, x: &Vec<f64>) -> Result<f64, Error> {
        // Stopped or refused: no more runs, and a cost that ends nothing; `minimise` says why.
        if self.refused.get().is_some() || self.runs.count(self.cases.len() as u64).is_err() {
            return Ok(f64::INFINITY);
        }
        Ok(self
            .free
            .cost_at(self.cases, self.base, x)
            .unwrap_or_else(|e| {
                let _ = self.refused.set(e);
                f64::INFINITY
            }))
    }
}

/// The state of the search: log-offsets and their cost.
type SearchState = IterState<Vec<f64>, (), (), (), (), f64>;

/// argmin's Nelder-Mead, stopped as soon as its problem is refused or asked to stop: every
/// later cost would be infinite without a run, and the simplex would shrink on nothing until
/// `max_iters` (the page's fit went on reporting iterations of no run).
struct Search(NelderMead<Vec<f64>, f64>);

impl Search {
    /// `state`, terminated when the search cannot go on (a point refused, the fit stopped).
    fn halt(problem: &argmin::core::Problem<Problem<'_>>, state: SearchState) -> SearchState {
        let over = problem
            .problem
            .as_ref()
            .is_some_and(|p| p.refused.get().is_some() || p.runs.stopped());
        if over {
            state.terminate_with(TerminationReason::SolverExit(
                "a point was refused, or the fit stopped".to_string(),
            ))
        } else {
            state
        }
    }
}

impl<'a> Solver<Problem<'a>, SearchState> for Search {
    const NAME: &'static str = "Nelder-Mead method";
    fn init(
        &mut self,
        problem: &mut argmin::core::Problem<Problem<'a>>,
        state: SearchState,
    ) -> Result<(SearchState, Option<KV>), Error> {
        let (state, kv) = self.0.init(problem, state)?;
        Ok((Search::halt(problem, state), kv))
    }
    fn next_iter(
        &mut self,
        problem: &mut argmin::core::Problem<Problem<'a>>,
        state: SearchState,
    ) -> Result<(SearchState, Option<KV>), Error> {
        let (state, kv) = self.0.next_iter(problem, state)?;
        Ok((Search::halt(problem, state), kv))
    }
    fn terminate(&mut self, state: &SearchState) -> argmin::core::TerminationStatus {
        <NelderMead<Vec<f64>, f64> as Solver<Problem<'a>, SearchState>>::terminate(
            &mut self.0,
            state,
        )
    }
}

/// Nelder-Mead in log space from a simplex of +-20 % steps around log-offsets `x0`: the best
/// log-offsets found and the iterations taken; the first refusal of a point (the search stops
/// there) or [`INTERRUPTED`].
pub(crate) fn minimise(
    cases: &[Case],
    base: &Scenario,
    free: &Free,
    x0: Vec<f64>,
    max_iters: u64,
    runs: &Watch,
) -> Result<(Vec<f64>, u64), String> {
    let (x, iterations, refused) = search(cases, base, free, x0, max_iters, runs)?;
    if runs.stopped() {
        return Err(INTERRUPTED.to_string());
    }
    match refused {
        Some(e) => Err(e),
        None => Ok((x, iterations)),
    }
}

/// [`minimise`]'s search: the best log-offsets, the iterations taken and the refusal that
/// stopped it, if one did.
pub(crate) fn search(
    cases: &[Case],
    base: &Scenario,
    free: &Free,
    x0: Vec<f64>,
    max_iters: u64,
    runs: &Watch,
) -> Result<(Vec<f64>, u64, Option<String>), String> {
    let n = free.names.len();
    let mut simplex = vec![x0.clone()];
    for i in 0..n {
        let mut v = x0.clone();
        v[i] += 0.2;
        simplex.push(v);
    }
    let solver = NelderMead::new(simplex)
        .with_sd_tolerance(1e-7)
        .map_err(|e| format!("fit: {e}"))?;
    let problem = Problem {
        cases,
        base,
        free,
        runs,
        refused: OnceLock::new(),
    };
    let res = Executor::new(problem, Search(solver))
        .configure(|s| s.max_iters(max_iters))
        // No wall clock: the engine's runs are the only time that counts (and wasm32 has none).
        .timer(false)
        .run()
        .map_err(|e| format!("fit: {e}"))?;
    let refused = res
        .problem
        .problem
        .as_ref()
        .and_then(|p| p.refused.get().cloned());
    let state = res.state();
    let x = state
        .get_best_param()
        .cloned()
        .unwrap_or_else(|| vec![0.0; n]);
    Ok((x, state.get_iter(), refused))
}
