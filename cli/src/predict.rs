//! What a sweep's estimate scales by: each point's events as a short probe of it predicts them.
//!
//! The engine's estimate (`estimated_events`) is an upper bound: a time-based job counts what
//! the bus could carry in its runtime, at most the 10 M I/O budget. A point whose card is slower
//! than its bus (`nand_read_us=2000`: 457 IOPS for an hour, 1.6 M I/Os) runs far below it, so
//! when such a point finished first, its time per estimated event made the other points look
//! cheap: `--sweep=nand_read_us=50,2000` of hour-long 512 B random reads said about 1 s and took
//! 4.6 s. A probe runs the first hundredth of a point's estimate and reads how far the run got
//! (`Simulator::progress`: its bytes, or its simulated time, of the whole); the events
//! predicted are the probe's divided by that fraction, never above the I/O budget the run stops
//! at (the estimate's requests, at the probe's own events per request).

use mmcsim_engine::scenario::check::EVENTS_PER_IO;
use mmcsim_engine::{Scenario, Simulator};

/// Points estimated below this many events are not probed: they take well under a second
/// whatever they do, and a probe would be a large part of them.
const PROBE_FROM: u64 = 2_000_000;

/// A probe runs this fraction of the point's estimated events (1 %: a sweep costs 1 % more).
const PROBE_SHARE: u64 = 100;

/// Events the run of `scn` is predicted to take: its `estimate` (the engine's upper bound)
/// for a small point, else what a probe of its first hundredth of that predicts.
pub fn predicted_events(scn: &Scenario, estimate: u64) -> u64 {
    if estimate < PROBE_FROM {
        return estimate;
    }
    let Ok(mut sim) = Simulator::new(scn) else {
        return estimate;
    };
    let finished = sim.run_events(estimate / PROBE_SHARE);
    let done = sim.events();
    if finished {
        // The probe was the whole run.
        return done;
    }
    let frac = sim.progress();
    if frac <= 0.0 {
        return estimate;
    }
    // The run stops at the I/O budget, which the estimate counts at EVENTS_PER_IO a request:
    // at the probe's own events per request, that many requests.
    let r = sim.report().sim;
    let requests =
        r.request_sizes.iter().flat_map(|m| m.values()).sum::<u64>() + r.flushes + r.discards;
    let cap = match requests {
        0 => estimate,
        n => (estimate as f64 / EVENTS_PER_IO as f64 * done as f64 / n as f64) as u64,
    };
    ((done as f64 / frac) as u64).min(cap).max(done)
}

#[cfg(test)]
mod tests {
    use super::*;
    use mmcsim_engine::scenario::{check::estimated_events, options::parse_args};

    fn scn(args: &[&str]) -> Scenario {
        parse_args(args, Scenario::default()).unwrap()
    }

    /// A point whose card holds it far below its bus's bound is predicted near its own events,
    /// and one at the I/O budget at the estimate; a small point is not probed.
    #[test]
    fn a_probe_predicts_a_time_based_point_below_its_bound() {
        let slow = scn(&[
            "--name=j",
            "--rw=randread",
            "--bs=512",
            "--time_based",
            "--runtime=600s",
            "--nand_read_us=2000",
        ]);
        let est = estimated_events(&slow);
        let p = predicted_events(&slow, est);
        let mut sim = Simulator::new(&slow).unwrap();
        sim.run_to_end();
        let real = sim.events() as f64;
        assert!(
            est as f64 > 5.0 * real,
            "the bound is far above: {est} vs {real}"
        );
        assert!((p as f64 / real - 1.0).abs() < 0.2, "{p} vs {real}");
        let small = scn(&["--name=j", "--rw=read", "--size=1m"]);
        assert_eq!(predicted_events(&small, 1000), 1000);
    }
}
