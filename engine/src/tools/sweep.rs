//! Running sweep points: the sweep's points and figures are language (`scenario::sweep`); running
//! one is the simulator's work, so it sits up here, above the simulator.

use crate::scenario::sweep::{PointJob, Row};
use crate::scenario::url::decode_query;
use crate::scenario::Scenario;
use crate::sim::Simulator;

/// Runs one point to its end and reads its figures: what the CLI runs on each core and the
/// page's workers run per message, so both give the same numbers for the same point.
pub fn run_point(index: usize, values: Vec<String>, scn: &Scenario) -> Result<Row, String> {
    let mut sim = Simulator::new(scn).map_err(|e| e.to_string())?;
    sim.run_to_end();
    Ok(Row::of(index, values, &sim.report()))
}

impl PointJob {
    /// Reads the scenario back and runs it.
    pub fn run(&self) -> Result<Row, String> {
        let d = decode_query(&self.query);
        if let Some(e) = d.errors.first() {
            return Err(format!("sweep point {}: {e}", self.index));
        }
        run_point(self.index, self.values.clone(), &d.a)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::options::parse_args;
    use crate::scenario::sweep::{parse_dim, point_scenario, points};

    #[test]
    fn a_point_sent_as_link_text_runs_as_the_point_itself() {
        let args: Vec<String> = [
            "--platform=unisoc-hsq-2023",
            "--rw=randwrite",
            "--numjobs=4",
            "--size=4m",
            "--randseed=7",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let base = parse_args(&args, Scenario::default()).unwrap();
        let dims = vec![parse_dim("hsq_depth=2,dynamic").unwrap()];
        for (i, v) in points(&dims).into_iter().enumerate() {
            let s = point_scenario(&base, &dims, &v).unwrap();
            let direct = run_point(i, v.clone(), &s).unwrap();
            let sent = serde_json::to_string(&PointJob::of(i, v, &s)).unwrap();
            let job: PointJob = serde_json::from_str(&sent).unwrap();
            assert_eq!(job.run().unwrap(), direct);
        }
        let bad = PointJob {
            index: 3,
            values: vec![],
            query: "hsq_depth=99".to_string(),
        };
        assert!(bad.run().unwrap_err().contains("hsq_depth"));
    }
}
