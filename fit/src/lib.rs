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
//! errors (latencies weighted 1/4). Runs are cut at `--fit_runtime` of simulated time (default
//! 250 ms) unless a job sets its own `runtime`: each job keeps its region (`size`), so random
//! I/O hits the card's buffers as often as in the measured run, and throughput is steady long
//! before the cut.
//!
//! A fit is flagged when it cannot be trusted: fewer figures than parameters + 1, a parameter at
//! its range's edge, an RMS error above 5 %, or the optimiser stopping without converging.

pub mod jobs;

mod case;
mod objective;
mod optimise;
mod params;
mod report;

pub use case::{read_case, Case, Figure, DEFAULT_FIT_RUNTIME_NS};
pub use objective::simulate;
pub use optimise::{fit, Fit};
pub use params::DEFAULT_FIT;
pub use report::render;

/// RMS error (in log terms, about a fraction) above which a fit is flagged.
pub const MAX_TRUSTED_RMS: f64 = 0.05;

#[cfg(test)]
mod tests;
