//! The objective: the cases simulated on a board and their errors against the measurements.

use crate::case::{Case, Figure};
use mmcsim_engine::{Scenario, Simulator};

/// The simulated figures of `case` on board `board` (a scenario giving platform and overrides).
pub fn simulate(case: &Case, board: &Scenario) -> Result<Vec<f64>, String> {
    let mut s = case.scn.clone();
    s.platform = board.platform.clone();
    // The case's host switches stay (its workload and switches are measured; the board is
    // fitted): only the board parameters are the board's.
    s.put_board_of(board);
    let mut sim = Simulator::new(&s).map_err(|e| format!("{}: {}", case.file, e))?;
    sim.run_to_end();
    let r = sim.report();
    let m = r.merged();
    let dir = if m.read.total_ios >= m.write.total_ios {
        &m.read
    } else {
        &m.write
    };
    Ok(case
        .measured
        .iter()
        .map(|(f, _)| match f {
            Figure::MiBs => r.total_mib_s(),
            Figure::P50 => dir.clat.percentile(50.0) as f64 / 1e3,
            Figure::P99 => dir.clat.percentile(99.0) as f64 / 1e3,
        })
        .collect())
}

/// Every case on `board`: on every core with the `parallel` feature (the CLI), else in turn.
pub(crate) fn simulate_all(cases: &[Case], board: &Scenario) -> Result<Vec<Vec<f64>>, String> {
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        cases.par_iter().map(|c| simulate(c, board)).collect()
    }
    #[cfg(not(feature = "parallel"))]
    {
        cases.iter().map(|c| simulate(c, board)).collect()
    }
}

/// Weighted squared log errors of every figure of every case.
pub(crate) fn cost_of(cases: &[Case], board: &Scenario) -> Result<f64, String> {
    let sims = simulate_all(cases, board)?;
    Ok(cases
        .iter()
        .zip(&sims)
        .flat_map(|(c, s)| c.measured.iter().zip(s))
        .map(|((f, m), s)| f.weight() * (s.max(1e-9) / m).ln().powi(2))
        .sum())
}

/// The RMS of the relative errors of every figure on `board`, and the simulated figures.
pub(crate) fn rms(cases: &[Case], board: &Scenario) -> Result<(f64, Vec<Vec<f64>>), String> {
    let sims = simulate_all(cases, board)?;
    let errs: Vec<f64> = cases
        .iter()
        .zip(&sims)
        .flat_map(|(c, s)| c.measured.iter().zip(s))
        .map(|((_, m), s)| (s - m) / m)
        .collect();
    let r = (errs.iter().map(|e| e * e).sum::<f64>() / errs.len().max(1) as f64).sqrt();
    Ok((r, sims))
}

/// The preset whose unfitted board is nearest to the figures.
pub(crate) fn nearest_preset(cases: &[Case]) -> Result<String, String> {
    let mut best = None;
    for p in mmcsim_engine::PLATFORMS {
        let board = Scenario {
            platform: p.name.to_string(),
            ..Scenario::default()
        };
        if let Ok(c) = cost_of(cases, &board) {
            if best.as_ref().is_none_or(|(b, _)| c < *b) {
                best = Some((c, p.name.to_string()));
            }
        }
    }
    best.map(|(_, n)| n)
        .ok_or_else(|| "fit: no preset can run these workloads".to_string())
}

/// The base preset: `platform`, else the one a file names, else the nearest to the figures
/// (and a warning saying so).
pub(crate) fn base_preset(
    cases: &[Case],
    platform: Option<&str>,
    notes: &mut Vec<String>,
) -> Result<String, String> {
    Ok(match platform {
        Some(p) => p.to_string(),
        None => match cases.iter().find_map(|c| c.platform.clone()) {
            Some(p) => p,
            None => {
                let p = nearest_preset(cases)?;
                notes.push(format!(
                    "base preset: {p} (nearest to the figures; say --platform= to choose)"
                ));
                p
            }
        },
    })
}
