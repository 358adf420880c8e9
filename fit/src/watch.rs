//! What a running fit shares with its caller: the simulated runs so far, for a progress line
//! as fio's ETA line (`Jobs: ... [eta 01m:12s]`), a flag that stops it (the CLI's Ctrl-C:
//! fio's `sig_int` stops the jobs and reports what ran), and the work a fit is planned to take,
//! for the estimate printed before it starts.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// The error a stopped fit ends with (before the fit to every file is done; after it, the fit
/// is reported with the left-out files done so far).
pub const INTERRUPTED: &str = "fit: interrupted";

/// A running fit's counters, shared with the caller (a `static` in the CLI's signal handler).
#[derive(Debug, Default)]
pub struct Watch {
    runs: AtomicU64,
    stop: AtomicBool,
}

impl Watch {
    pub const fn new() -> Watch {
        Watch {
            runs: AtomicU64::new(0),
            stop: AtomicBool::new(false),
        }
    }

    /// Simulated runs (one case at one point) so far.
    pub fn runs(&self) -> u64 {
        self.runs.load(Ordering::Relaxed)
    }

    /// Asks the fit to stop before its next evaluation.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Counts an evaluation of `n` runs, unless the fit was asked to stop.
    pub(crate) fn count(&self, n: u64) -> Result<(), String> {
        if self.stopped() {
            return Err(INTERRUPTED.to_string());
        }
        self.runs.fetch_add(n, Ordering::Relaxed);
        Ok(())
    }
}

/// Evaluations of every case one fit is planned to take with `free` parameters and
/// `max_iters`, as measured rather than bounded: a fixed part (the coarse scan, the simplexes,
/// the sensitivity check: about 2 + 4 per parameter) and about 1.6 + 0.25 per parameter an
/// iteration (two Nelder-Mead searches, the second after the unconstrained parameters are
/// dropped), until the simplex converges (its costs' standard deviation below 1e-7), after
/// about 12 x free^1.3 iterations. Measured on the BananaPi-M64 table's read-4k, write-4k and
/// randread-4k (runs / 9 per fit) at `max_iters` 1, 10, 30, 100, 300: one parameter 7, 23, 32,
/// 32, 32 (planned 8, 24, 28, 28, 28); three 13, 33, 82, 153, 156 (planned 16, 38, 84, 132,
/// 132); six 28, 54, 124, 259, 339 (planned 29, 57, 119, 336, 408).
pub fn planned_evaluations(free: usize, max_iters: u64) -> u64 {
    let n = free.max(1) as f64;
    let converged = 12.0 * n.powf(1.3);
    let iters = (max_iters as f64).min(converged);
    (2.0 + 4.0 * n + (1.6 + 0.25 * n) * iters).round() as u64
}

/// Runs (a case at a point) the whole fit is planned to take: the fit to every file, then,
/// with `cross_validation`, one fit to each set of the others.
pub fn planned_runs(cases: usize, free: usize, max_iters: u64, cross_validation: bool) -> u64 {
    let per_eval = cases as u64
        + if cross_validation {
            (cases as u64) * (cases as u64).saturating_sub(1)
        } else {
            0
        };
    planned_evaluations(free, max_iters) * per_eval + 3 * cases as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plan_is_within_a_factor_1_4_of_the_measured_evaluations() {
        // (free, max_iters, evaluations a fit measured on three BananaPi-M64 files).
        for (free, iters, measured) in [
            (1, 1, 7),
            (1, 10, 23),
            (1, 300, 32),
            (3, 1, 13),
            (3, 30, 82),
            (3, 300, 156),
            (6, 1, 28),
            (6, 10, 54),
            (6, 100, 259),
            (6, 300, 339),
        ] {
            let r = planned_evaluations(free, iters) as f64 / measured as f64;
            assert!((1.0 / 1.4..=1.4).contains(&r), "{free} {iters}: {r}");
        }
    }
}
