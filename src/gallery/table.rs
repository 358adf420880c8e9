//! The authors' table of a series, recomputed by the engine a slice of events at a time, each
//! column in a [`Session`] of its own.

use mmcsim_engine::calibration::{Case, CASES};
use mmcsim_engine::Scenario;

use crate::run::session::{RunError, Session};

/// The cases of series `series` with their index in `CASES`, in the authors' order.
pub(super) fn cases_of(series: &str) -> Vec<(usize, &'static Case)> {
    CASES
        .iter()
        .enumerate()
        .filter(|(_, c)| c.series == series)
        .collect()
}

/// One row of the table as it fills.
#[derive(Clone, Debug)]
pub struct Row {
    pub case_index: usize,
    pub case: &'static Case,
    /// Simulated figure of columns A and B, once run.
    pub simulated: (Option<f64>, Option<f64>),
}

impl Row {
    pub fn error_pct(&self) -> (Option<f64>, Option<f64>) {
        let e = |s: Option<f64>, m: f64| s.map(|s| (s - m) / m * 100.0);
        (
            e(self.simulated.0, self.case.measured.0),
            e(self.simulated.1, self.case.measured.1),
        )
    }
    /// Measured and simulated B/A.
    pub fn ratios(&self) -> (f64, Option<f64>) {
        let (a, b) = self.case.measured;
        let sim = match self.simulated {
            (Some(a), Some(b)) if a > 0.0 => Some(b / a),
            _ => None,
        };
        (b / a, sim)
    }
}

/// The authors' table of a series, recomputed one budgeted slice at a time: each case's two
/// columns run in turn (A, then B), each in a session of its own.
pub struct TableRun {
    size: u64,
    rows: Vec<Row>,
    /// (row, column B?) of the run in progress.
    cursor: usize,
    sim: Option<(Scenario, Session)>,
}

impl TableRun {
    /// The table of `platform`'s series at `size` bytes per job.
    pub fn new(series: &str, size: u64) -> TableRun {
        let rows = cases_of(series)
            .into_iter()
            .map(|(case_index, case)| Row {
                case_index,
                case,
                simulated: (None, None),
            })
            .collect();
        TableRun {
            size,
            rows,
            cursor: 0,
            sim: None,
        }
    }

    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    pub fn is_done(&self) -> bool {
        self.cursor >= self.rows.len() * 2
    }

    /// 0..=1 over all the columns.
    pub fn progress(&self) -> f64 {
        let total = (self.rows.len() * 2).max(1) as f64;
        let part = self.sim.as_ref().map(|(_, s)| s.progress()).unwrap_or(0.0);
        ((self.cursor as f64 + part) / total).min(1.0)
    }

    /// Runs at most `max_events` events of the column in progress (starting it if needed) and
    /// records its figure when it ends. True when the whole table is done.
    pub fn step(&mut self, max_events: u64) -> Result<bool, RunError> {
        if self.is_done() {
            return Ok(true);
        }
        let (row, b) = (self.cursor / 2, self.cursor % 2 == 1);
        let case = self.rows[row].case;
        if self.sim.is_none() {
            let scn = case.scenario(b, self.size);
            let sim = Session::start(&scn)?;
            self.sim = Some((scn, sim));
        }
        let (scn, sim) = self.sim.as_mut().expect("started above");
        if sim.run_events(max_events) {
            let fig = case.figure(scn, &sim.report());
            let r = &mut self.rows[row];
            if b {
                r.simulated.1 = fig;
            } else {
                r.simulated.0 = fig;
            }
            self.sim = None;
            self.cursor += 1;
        }
        Ok(self.is_done())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_table_fills_and_compares() {
        let mut t = TableRun::new("unisoc-fua-2022", 1 << 20);
        while !t.step(10_000).unwrap() {}
        for r in t.rows() {
            assert!(r.simulated.0.is_some() && r.simulated.1.is_some(), "{r:?}");
        }
    }
}
