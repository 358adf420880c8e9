//! Where the search starts: a compass search over each parameter in steps of 8, 2 and 1.41
//! before Nelder-Mead refines.
//!
//! A figure that is the lower of two rates (a 16 MiB write limited by the bus or by the NAND
//! program rate, whichever is slower) does not move with the faster one: from a preset where
//! the NAND programs at 150 MB/s behind a 35 MB/s bus, no step of Nelder-Mead's first simplex
//! (+20 %) moves the write figure through the NAND rate, so the search settles the bus between
//! the read and the write figures and reports the NAND rate unconstrained. The scan moves one
//! parameter at a time by a factor ([`SCAN_FACTORS`]) up or down while that lowers the cost,
//! the large factor first: a rate the figures need far from the preset is then in reach of
//! the simplex.

use crate::case::Case;
use crate::params::Free;
use crate::watch::Watch;
use mmcsim_engine::Scenario;

/// The factors each parameter is tried at in a move, from where the scan stands.
pub const SCAN_FACTORS: [f64; 4] = [8.0, 2.0, 0.5, 0.125];

/// At most this many moves (each `4 x parameters` cost evaluations).
const MAX_MOVES: usize = 16;

/// Log-offsets from the preset where a steepest compass search ends: each move tries every
/// parameter at every factor of [`SCAN_FACTORS`], the others kept, and takes the one that
/// lowers the cost most (each tried value clamped into its range by [`Free::board`]); it stops
/// when none lowers it, or before a move would take more than `budget` evaluations in all.
/// Returns the log-offsets and the evaluations made (the fit's work bound counts them within
/// the optimiser's budget: two evaluations per iteration).
pub(crate) fn coarse_start(
    cases: &[Case],
    base: &Scenario,
    free: &Free,
    budget: u64,
    runs: &Watch,
) -> Result<(Vec<f64>, u64), String> {
    let n = free.names.len();
    let mut x = vec![0.0; n];
    let cost = |x: &[f64]| {
        runs.count(cases.len() as u64)?;
        free.cost_at(cases, base, x)
    };
    let mut best = cost(&x)?;
    let per_move = (n * SCAN_FACTORS.len()) as u64;
    let mut evals = 1;
    for _ in 0..MAX_MOVES {
        if evals + per_move > budget {
            break;
        }
        evals += per_move;
        let mut next = None;
        for i in 0..n {
            for f in SCAN_FACTORS {
                let mut y = x.clone();
                y[i] += f.ln();
                let c = cost(&y)?;
                if c < best && next.as_ref().is_none_or(|(b, _)| c < *b) {
                    next = Some((c, y));
                }
            }
        }
        match next {
            Some((c, y)) => (best, x) = (c, y),
            None => break,
        }
    }
    Ok((x, evals))
}
