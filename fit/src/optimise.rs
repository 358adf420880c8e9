//! The Nelder-Mead driver: the base preset, the search in log space and the fit's verdict.

use crate::case::{Case, Figure};
use crate::objective::{base_preset, rms, simulate_all};
use crate::params::Free;
use crate::scan::coarse_start;
use crate::search::minimise;
pub use crate::validate::LeftOut;
use crate::validate::{check_work, cross_validate, short};
use crate::watch::Watch;
use crate::{MAX_LEFT_OUT_ERROR, MIN_CROSS_VALIDATION_FILES};
use mmcsim_engine::Scenario;

/// A finished fit.
pub struct Fit {
    pub board: Scenario,
    pub preset_board: Scenario,
    /// Every parameter asked for, fitted or left at the preset (see `unconstrained`).
    pub names: Vec<&'static str>,
    /// The parameters the results do not constrain, left at the preset (see [`insensitive`]).
    pub unconstrained: Vec<&'static str>,
    pub rms: f64,
    pub preset_rms: f64,
    pub iterations: u64,
    /// Per case and figure: (measured, simulated with the preset, simulated with the fit).
    pub rows: Vec<(String, Figure, f64, f64, f64)>,
    /// Each result file predicted by a fit to the others; `None`: fewer than
    /// [`MIN_CROSS_VALIDATION_FILES`] files, cross-validation cannot judge.
    pub left_out: Option<Vec<LeftOut>>,
    /// Simulated runs the whole fit took (cross-validation included).
    pub runs: u64,
    /// Why the fit is not trusted (empty: trusted).
    pub warnings: Vec<String>,
    /// What the reader should know that does not bear on trust (the base preset chosen).
    pub notes: Vec<String>,
}

/// One fit of `names` to `cases`: the board, the fitted parameters, the ones left at the
/// preset, and the optimiser's iterations and convergence.
pub(crate) struct Core {
    pub(crate) board: Scenario,
    fitted: Vec<&'static str>,
    pub(crate) unconstrained: Vec<&'static str>,
    at_edge: Vec<&'static str>,
    iterations: u64,
    converged: bool,
}

/// A parameter the data does not constrain: moving it by this factor either way from the
/// optimum, or back to the preset, ...
pub const SENSITIVITY_FACTOR: f64 = 2.0;
/// ... leaves every figure of every case within this fraction of its value at the optimum.
pub const SENSITIVITY_TOLERANCE: f64 = 0.02;

/// Which of the parameters at log-offsets `x` the cases do not constrain. The rule, from the
/// simulation itself: a parameter is unconstrained when doubling it, halving it
/// ([`SENSITIVITY_FACTOR`]) and putting it back to the preset, each from the optimum with the
/// others kept, leave every figure of every case within [`SENSITIVITY_TOLERANCE`] (2 %) of
/// its value at the optimum: measurements known to a few percent cannot tell its fitted value
/// from one twice or half as large, so whatever value the optimiser left it at is noise; and
/// as the preset's value fits as well, it is left at the preset. (A parameter at its range's
/// edge moves only one way; that way decides. A parameter whose preset is 0 goes back to
/// where its search started, the range's 1 %.)
fn insensitive(
    cases: &[Case],
    base: &Scenario,
    free: &Free,
    x: &[f64],
    runs: &Watch,
) -> Result<Vec<bool>, String> {
    let at = |x: &[f64]| {
        runs.count(cases.len() as u64)?;
        simulate_all(cases, &free.board(base, x, false).0)
    };
    let here = at(x)?;
    let mut out = Vec::new();
    for i in 0..x.len() {
        let step = SENSITIVITY_FACTOR.ln();
        let mut moves = false;
        for to in [x[i] + step, x[i] - step, 0.0] {
            if moves || (to == 0.0 && x[i].abs() < 1e-12) {
                continue;
            }
            let mut y = x.to_vec();
            y[i] = to;
            let there = at(&y)?;
            moves = here
                .iter()
                .flatten()
                .zip(there.iter().flatten())
                .any(|(a, b)| (b / a.max(1e-9) - 1.0).abs() > SENSITIVITY_TOLERANCE);
        }
        out.push(!moves);
    }
    Ok(out)
}

/// Fits `names` to `cases` from where a coarse scan from the preset ends
/// ([`coarse_start`]); the parameters the cases do not constrain are then put back to the
/// preset and the others fitted again from where they were.
pub(crate) fn fit_core(
    cases: &[Case],
    base: &Scenario,
    free: &Free,
    max_iters: u64,
    runs: &Watch,
) -> Result<Core, String> {
    // The scan takes at most half the budget, counted as iterations of two evaluations.
    let (x0, evals) = coarse_start(cases, base, free, max_iters, runs)?;
    let budget = max_iters.saturating_sub(evals.div_ceil(2)).max(1);
    let (x, it) = minimise(cases, base, free, x0, budget, runs)?;
    let mut converged = it < budget;
    let mut iterations = it + evals.div_ceil(2);
    let loose = insensitive(cases, base, free, &x, runs)?;
    let keep: Vec<bool> = loose.iter().map(|l| !l).collect();
    let unconstrained: Vec<&'static str> = free
        .names
        .iter()
        .zip(&loose)
        .filter(|(_, &l)| l)
        .map(|(n, _)| *n)
        .collect();
    let sub;
    let (free, x) = if unconstrained.is_empty() {
        (free, x)
    } else {
        sub = free.subset(&keep, &x);
        let x = if sub.names.is_empty() {
            converged = true;
            Vec::new()
        } else {
            let n = sub.names.len();
            let (x, it) = minimise(cases, base, &sub, vec![0.0; n], max_iters, runs)?;
            iterations += it;
            // The board is this search's: its convergence is the one that counts.
            converged = it < max_iters;
            x
        };
        (&sub, x)
    };
    let (board, edges) = free.board(base, &x, true);
    let at_edge = free
        .names
        .iter()
        .zip(&edges)
        .filter(|(_, &e)| e)
        .map(|(n, _)| *n)
        .collect();
    Ok(Core {
        board,
        fitted: free.names.clone(),
        unconstrained,
        at_edge,
        iterations,
        converged,
    })
}

/// Why a fit cannot be trusted, if it cannot: too few figures for the `n` parameters fitted,
/// parameters at an edge, no convergence, too few files to cross-validate, a left-out file
/// predicted worse than [`MAX_LEFT_OUT_ERROR`]. The residual does not decide: a fit can pass
/// through every figure it was given and still predict the next one wrong.
fn doubts(figures: usize, core: &Core, files: usize, left_out: Option<&[LeftOut]>) -> Vec<String> {
    let mut warnings = Vec::new();
    let n = core.fitted.len();
    if figures < n + 1 {
        warnings.push(format!(
            "untrustworthy: {figures} measured figure(s) for {n} parameter(s); give more results or fewer --fit= parameters"
        ));
    }
    if !core.at_edge.is_empty() {
        warnings.push(format!(
            "untrustworthy: at the edge of its range: {}",
            core.at_edge.join(", ")
        ));
    }
    if !core.converged {
        warnings.push(format!(
            "untrustworthy: the optimiser stopped after {} iterations without converging",
            core.iterations
        ));
    }
    match left_out {
        None if files >= MIN_CROSS_VALIDATION_FILES => warnings.push(
            "untrustworthy: not cross-validated (asked for the fit alone), so nothing shows these parameters predict anything but the figures they were fitted to".to_string(),
        ),
        None => warnings.push(format!(
            "untrustworthy: {files} result file(s): cross-validation needs at least {MIN_CROSS_VALIDATION_FILES} (each left out, the rest fitted, the left-out one predicted), so nothing shows these parameters predict anything but the figures they were fitted to"
        )),
        Some(l) => {
            let bad: Vec<String> = l
                .iter()
                .filter(|l| !l.within())
                .map(|l| {
                    format!(
                        "{} {} {:+.1} %",
                        short(&l.file),
                        l.figure.label(),
                        l.error() * 100.0
                    )
                })
                .collect();
            if !bad.is_empty() {
                warnings.push(format!(
                    "untrustworthy: left out of the fit and predicted from the other files, {} of {} file(s) miss by more than {:.0} % (latencies {:.0} %): {}",
                    bad.len(),
                    l.len(),
                    MAX_LEFT_OUT_ERROR * 100.0,
                    Figure::P50.tolerance() * 100.0,
                    bad.join(", ")
                ));
            }
        }
    }
    warnings
}

/// Fits `names` (or [`DEFAULT_FIT`](crate::DEFAULT_FIT)) on top of `platform` (or the preset
/// a file names, or the nearest preset): [`fit_on`] that preset.
pub fn fit(
    cases: &[Case],
    platform: Option<&str>,
    names: &[String],
    max_iters: u64,
) -> Result<Fit, String> {
    fit_reporting(
        cases,
        platform,
        names,
        max_iters,
        &mut |_, _| {},
        &Watch::new(),
    )
}

/// [`fit`], telling `on_fit(k, n)` as the k-th of its n fits starts (0: every case simulated
/// on the base, one evaluation; 1: the fit to every file; then one per file left out, when
/// there are enough files to cross-validate), its runs counted in `watch`, which can stop it.
pub fn fit_reporting(
    cases: &[Case],
    platform: Option<&str>,
    names: &[String],
    max_iters: u64,
    on_fit: &mut dyn FnMut(usize, usize),
    watch: &Watch,
) -> Result<Fit, String> {
    if cases.is_empty() {
        return Err("fit: no RESULTS files given (fio --output-format=json outputs)".to_string());
    }
    check_work(cases, max_iters, names.len().max(crate::DEFAULT_FIT.len()))?;
    let mut notes = Vec::new();
    let base_name = base_preset(cases, platform, &mut notes)?;
    if mmcsim_engine::platform::by_name(&base_name).is_none() {
        return Err(format!(
            "platform: '{}' is not a known platform; accepted: {}",
            base_name,
            mmcsim_engine::platform::names().join(", ")
        ));
    }
    let base = Scenario {
        platform: base_name,
        ..Scenario::default()
    };
    let mut f = fit_on_reporting(cases, &base, names, max_iters, true, on_fit, watch)?;
    f.notes.splice(0..0, notes);
    Ok(f)
}

/// Fits `names` (or [`DEFAULT_FIT`](crate::DEFAULT_FIT)) on top of the board `base` (a preset
/// and the board parameters a platform file sets: what is known of the hardware, its bus mode
/// and width, is not fitted), then cross-validates: each file left out, the rest fitted, the
/// left-out one predicted (unless `cross_validation` is false: the fit alone, one in files
/// plus one of the work, and not trusted). A parameter the results do not constrain is left
/// at `base`'s value.
/// `max_iters` bounds each Nelder-Mead search; a fit runs at most two searches (the second
/// without the unconstrained parameters), so the whole is bounded by 2 x (files + 1) x
/// `max_iters` iterations.
pub fn fit_on(
    cases: &[Case],
    base: &Scenario,
    names: &[String],
    max_iters: u64,
    cross_validation: bool,
) -> Result<Fit, String> {
    fit_on_reporting(
        cases,
        base,
        names,
        max_iters,
        cross_validation,
        &mut |_, _| {},
        &Watch::new(),
    )
}

/// [`fit_on`], telling `on_fit(k, n)` as the k-th of its n fits starts, its runs counted in
/// `watch`. Stopped ([`Watch::stop`]) during the fit to every file, it ends with
/// [`INTERRUPTED`]; during the cross-validation, the fit is reported with the left-out files
/// done so far, and a warning says it was stopped.
pub fn fit_on_reporting(
    cases: &[Case],
    base: &Scenario,
    names: &[String],
    max_iters: u64,
    cross_validation: bool,
    on_fit: &mut dyn FnMut(usize, usize),
    watch: &Watch,
) -> Result<Fit, String> {
    if cases.is_empty() {
        return Err("fit: no RESULTS files given (fio --output-format=json outputs)".to_string());
    }
    check_work(cases, max_iters, names.len().max(crate::DEFAULT_FIT.len()))?;
    let start = base.effective_platform().map_err(|e| e.to_string())?;
    let free = Free::new(names, &start)?;
    let runs = watch;
    let figures: usize = cases.iter().map(|c| c.measured.len()).sum();
    let cross = cases.len() >= MIN_CROSS_VALIDATION_FILES && cross_validation;
    let fits = if cross { cases.len() + 1 } else { 1 };
    // k = 0: every case is simulated on the base, one evaluation (the CLI times it).
    on_fit(0, fits);
    let (preset_rms, preset_sims) = rms(cases, base)?;
    on_fit(1, fits);
    let core = fit_core(cases, base, &free, max_iters, runs)?;
    let (fit_rms, fit_sims) = rms(cases, &core.board)?;
    let left_out = if cross {
        Some(cross_validate(cases, base, &free, max_iters, runs, on_fit)?)
    } else {
        None
    };
    let mut warnings = doubts(figures, &core, cases.len(), left_out.as_deref());
    if let Some(done) = left_out.as_ref().filter(|_| runs.stopped()) {
        warnings.push(format!(
            "untrustworthy: interrupted: {} of {} left-out fit(s) done (the table lists those)",
            done.len(),
            cases.len()
        ));
    }
    let mut rows = Vec::new();
    for ((c, ps), fs) in cases.iter().zip(&preset_sims).zip(&fit_sims) {
        for (((f, m), p), s) in c.measured.iter().zip(ps).zip(fs) {
            rows.push((c.file.clone(), *f, *m, *p, *s));
        }
    }
    Ok(Fit {
        board: core.board,
        preset_board: base.clone(),
        names: free.names,
        unconstrained: core.unconstrained,
        rms: fit_rms,
        preset_rms,
        iterations: core.iterations,
        rows,
        left_out,
        runs: runs.runs() + 2 * cases.len() as u64,
        warnings,
        notes: Vec::new(),
    })
}
