//! "Why was it slow": the trace says what the simulation drew or decided for a request (a card
//! housekeeping pause, starvation in hsq), and `explain::why_slow` says it in plain words.

use std::collections::HashMap;

use mmcsim_engine::explain::why_slow;
use mmcsim_engine::scenario::url::decode_query;
use mmcsim_engine::{Cause, Simulator, Stage, TraceEvent};

fn traced(query: &str) -> (Simulator, Vec<TraceEvent>) {
    let d = decode_query(query);
    assert!(d.errors.is_empty(), "{:?}", d.errors);
    let scn = d.a;
    let mut sim = Simulator::new(&scn).unwrap();
    sim.set_trace_capacity(1 << 16);
    let mut all = Vec::new();
    while !sim.run_events(20_000) {
        all.extend(sim.drain_trace());
    }
    all.extend(sim.drain_trace());
    (sim, all)
}

#[test]
fn a_request_hit_by_a_housekeeping_pause_reports_it() {
    // 4 KiB random writes: a housekeeping pause every few MiB written.
    let (_, trace) = traced("platform=unisoc-hsq-2023&rw=randwrite&numjobs=8&iodepth=64&size=8m");
    let mut lives: HashMap<u64, Vec<TraceEvent>> = HashMap::new();
    for e in &trace {
        lives.entry(e.req).or_default().push(*e);
    }
    let mut hit = 0;
    for life in lives.values() {
        let Some(busy) = life.iter().find(|e| e.stage == Stage::CardBusy) else {
            continue;
        };
        let Cause::Housekeeping { ns } = busy.cause else {
            continue;
        };
        hit += 1;
        // The pause is in the card-busy time the request spent.
        let next = life
            .iter()
            .filter(|e| e.t_ns >= busy.t_ns && e.stage > Stage::CardBusy)
            .map(|e| e.t_ns)
            .min()
            .expect("the request leaves card busy");
        assert!(
            next - busy.t_ns >= ns,
            "busy {} < pause {ns}",
            next - busy.t_ns
        );
        let text = why_slow(Stage::CardBusy, busy.op, next - busy.t_ns, 1, &[busy.cause]);
        assert!(text.contains("housekeeping"), "{text}");
        assert!(text.contains("garbage collection"), "{text}");
    }
    assert!(
        hit > 0,
        "no request of 64 MiB of random writes met a housekeeping pause"
    );
    let plain = why_slow(Stage::CardBusy, mmcsim_engine::Op::Write, 30_000, 1, &[]);
    assert!(!plain.contains("housekeeping"), "{plain}");
}

/// The most "later arrivals sent first" any request of the run saw.
fn most_passed_over(query: &str) -> u32 {
    let (_, trace) = traced(query);
    trace
        .iter()
        .filter_map(|e| match e.cause {
            Cause::PassedOver { later } => Some(later),
            _ => None,
        })
        .max()
        .unwrap_or(0)
}

#[test]
fn next_tag_starves_requests_and_fifo_does_not() {
    let q = "platform=allwinner-hsq-2022&rw=randread&numjobs=8&size=2m&mmc_path=hsq";
    let starved = most_passed_over(&format!("{q}&hsq_dispatch=next_tag"));
    assert!(
        starved >= 8,
        "next_tag: at most {starved} later requests went first"
    );
    assert_eq!(most_passed_over(&format!("{q}&hsq_dispatch=fifo")), 0);
    let text = why_slow(
        Stage::HostQueue,
        mmcsim_engine::Op::Read,
        5_000_000,
        1,
        &[Cause::PassedOver { later: starved }],
    );
    assert!(
        text.contains(&format!("{starved} requests that arrived after it")),
        "{text}"
    );
}

#[test]
fn the_longest_host_queue_wait_is_a_request_the_trace_shows_waiting_that_long() {
    let (sim, trace) = traced(
        "platform=allwinner-hsq-2022&rw=randread&numjobs=8&size=2m&mmc_path=hsq&hsq_dispatch=next_tag",
    );
    let (ns, id) = sim.report().sim.longest_host_wait;
    let life: Vec<_> = trace.iter().filter(|e| e.req == id).collect();
    let entered = life
        .iter()
        .find(|e| e.stage == Stage::HostQueue)
        .unwrap()
        .t_ns;
    let left = life
        .iter()
        .find(|e| e.stage == Stage::Command)
        .unwrap()
        .t_ns;
    assert_eq!(left - entered, ns);
    assert!(life
        .iter()
        .any(|e| matches!(e.cause, Cause::PassedOver { .. })));
}
