//! Regression tests for issue 32 ("Bounds that hold for every input, outputs that never destroy
//! inputs, figures right for split I/Os"), engine side. The CLI's (outputs against inputs) are
//! in `cli/tests/`.

use std::collections::BTreeMap;

use mmcsim_engine::export::normal;
use mmcsim_engine::scenario::options::parse_args;
use mmcsim_engine::{Figures, Scenario, Simulator, Stage, TraceEvent};

fn args(line: &str) -> Scenario {
    let a: Vec<&str> = line.split_whitespace().collect();
    parse_args(&a, Scenario::default()).unwrap()
}

/// Each request's time in each stage, summed over the requests of a full trace, and the number
/// of requests that reached `done` (a bio merged into another request is not one).
fn trace_sums(trace: &[TraceEvent]) -> (BTreeMap<Stage, u64>, u64) {
    let mut by_req: BTreeMap<u64, Vec<&TraceEvent>> = BTreeMap::new();
    for e in trace {
        by_req.entry(e.req).or_default().push(e);
    }
    let (mut sums, mut requests) = (BTreeMap::new(), 0);
    for evs in by_req.values_mut() {
        evs.sort_by_key(|e| e.t_ns);
        for w in evs.windows(2) {
            *sums.entry(w[0].stage).or_insert(0) += w[1].t_ns - w[0].t_ns;
        }
        if evs.last().is_some_and(|e| e.stage == Stage::Done) {
            requests += 1;
        }
    }
    (sums, requests)
}

/// Item 4: `--bs=4m` on a 512 KiB host is 16 I/Os of 8 requests each. The stage times per
/// request (the normal output's `stages (usec/request)` line, the page's figures) are the trace's
/// per-request stage sums over the 128 requests, not over the 16 I/Os (8x high before).
#[test]
fn item4_stage_times_of_a_split_run_are_per_request_as_the_trace_shows() {
    let scn = args("--rw=write --bs=4m --size=64m --ioengine=libaio --iodepth=4");
    let mut sim = Simulator::new(&scn).unwrap();
    sim.set_trace_capacity(1 << 20);
    sim.run_to_end();
    let trace = sim.drain_trace();
    let rep = sim.report();
    assert_eq!(rep.merged().write.total_ios, 16);
    assert_eq!((rep.sim.split_ios, rep.sim.split_requests), (16, 128));
    let (sums, requests) = trace_sums(&trace);
    assert_eq!(requests, 128, "requests in the trace");
    assert_eq!(rep.sim.requests, requests);
    for st in Stage::ALL.iter().filter(|&&s| s != Stage::Done) {
        let traced = sums.get(st).copied().unwrap_or(0);
        assert_eq!(rep.sim.stage(*st), traced, "{st:?}: stage sum");
    }
    // What the user reads: the normal output's line and the page's figures.
    let text = normal::render(&scn, &rep);
    let line = text
        .lines()
        .find(|l| l.contains("stages (usec/request)"))
        .unwrap();
    let blk_mq = sums[&Stage::BlkMq] as f64 / 128.0 / 1e3;
    assert!(line.contains(&format!("blk-mq={blk_mq:.1},")), "{line}");
    let f = Figures::of(&rep);
    assert_eq!(f.requests, 128);
    let bus: u64 = [
        Stage::Command,
        Stage::CardAccess,
        Stage::Data,
        Stage::CardBusy,
    ]
    .iter()
    .map(|s| sums.get(s).copied().unwrap_or(0))
    .sum();
    assert!((f.bus_us - bus as f64 / 128.0 / 1e3).abs() < 1e-6, "{f:?}");
    // Per request, the bus time of a 512 KiB write is far below the run's 318 ms.
    assert!(f.bus_us * 128.0 <= rep.sim.simulated_ns as f64 / 1e3 * 1.0001);
}
