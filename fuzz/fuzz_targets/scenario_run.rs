//! A decoded link runs: `decode_query`, then `Simulator::new` and at most 20 000 events, a
//! snapshot and a report. Oracle: no panic (the engine's internal asserts included), and the
//! report never counts more bytes done than the run was asked for.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mmcsim_engine::scenario::url::decode_query;
use mmcsim_engine::Simulator;

fuzz_target!(|data: &[u8]| {
    let d = decode_query(&String::from_utf8_lossy(data));
    for s in std::iter::once(&d.a).chain(d.b.as_ref()) {
        let Ok(mut sim) = Simulator::new(s) else { continue };
        sim.set_trace_capacity(64);
        sim.set_timeline_capacity(64);
        sim.run_events(20_000);
        let snap = sim.snapshot();
        assert!(snap.tags_in_use <= snap.tags_total);
        let _ = sim.drain_trace();
        let rep = sim.report();
        assert_eq!(rep.sim.events, sim.events());
    }
});
