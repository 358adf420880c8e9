//! `mmcsim fit`: fit a board's free parameters to fio results measured on it.
//!
//! Each RESULTS file is fio's `--output-format=json` (real fio's or mmcsim's): its `"global
//! options"` and each job's `"job options"` give the workload, read through the engine's one
//! option parser (board parameters and `platform=` in a file are not taken: the board is what is
//! fitted; options the model does not know are skipped and named); its `bw_bytes` and, for a
//! file with one reported job (fio's `group_reporting`), its completion-latency p50 and p99 are
//! the measured figures. Starting from the base preset (`--platform=`, else the one a file
//! names, else the preset nearest to the figures), Nelder-Mead (argmin) moves the free
//! parameters in log space, each kept in its option range, to minimise the sum of squared log
//! errors (latencies weighted 1/4). Runs are cut at 250 ms of simulated time unless a job sets
//! its own `runtime`; `--fit_runtime` sets the cut, and then for every job, its own runtime
//! included (a fit of `--runtime=60 --time_based` results): each job keeps its region (`size`), so random
//! I/O hits the card's buffers as often as in the measured run, and throughput is steady long
//! before the cut.
//!
//! A parameter the results do not constrain (doubling it, halving it or putting it back to the
//! preset, from the optimum, moves no figure by more than 2 %) is reported as such and left at
//! the preset; the others are fitted again without it.
//!
//! A fit is trusted by what it predicts, not by its residual: each result file is left out, the
//! others fitted the same way, and the left-out one predicted; the fit is trusted only when
//! every left-out prediction is within 10 % ([`MAX_LEFT_OUT_ERROR`]; a latency, weighted 1/4 in
//! the cost, within 20 %). Each left-out fit is the whole fit again (same base preset, same
//! parameters, same `max_iters` per search), so the work is about files + 1 fits. It is flagged too with
//! fewer than 3 files (cross-validation cannot judge), fewer figures than parameters + 1, a
//! parameter at its range's edge, or the optimiser stopping without converging.

pub mod jobs;

mod case;
mod objective;
mod optimise;
mod params;
mod report;
mod scan;
mod search;
mod validate;
mod watch;

pub use case::{read_case, Case, Figure, DEFAULT_FIT_RUNTIME_NS};
pub use objective::simulate;
pub use optimise::{
    fit, fit_on, fit_on_reporting, fit_reporting, Fit, LeftOut, SENSITIVITY_FACTOR,
    SENSITIVITY_TOLERANCE,
};
pub use params::DEFAULT_FIT;
pub use report::render;
pub use scan::SCAN_FACTORS;
pub use watch::{planned_evaluations, planned_runs, Watch, INTERRUPTED};

/// Largest error (a fraction) of a result file predicted by a fit to the other files for the
/// fit to be trusted.
pub const MAX_LEFT_OUT_ERROR: f64 = 0.10;

/// Result files cross-validation needs: with two, each left-out file is predicted from one.
pub const MIN_CROSS_VALIDATION_FILES: usize = 3;

#[cfg(test)]
mod tests;
