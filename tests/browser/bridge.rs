//! The app's glue to the engine, and the frame slicer: plain logic, run in the browser so the
//! wasm32 build of it is the one tested.

use mmcsim_engine::Scenario;
use mmcsim_web::engine_bridge::{
    apply_control, command_line, control_texts, scenario_from_query, size_text,
};
use mmcsim_web::slicer::Slicer;
use wasm_bindgen_test::wasm_bindgen_test;

#[wasm_bindgen_test]
fn size_text_round_trips_through_the_parser() {
    for b in [512u64, 4096, 65536, 512 << 10, 64 << 20, 3 << 30, 1536] {
        let t = size_text(b);
        let s = apply_control(&Scenario::default(), "size", &t).unwrap();
        assert_eq!(s.jobs[0].size, b, "{t}");
    }
    assert_eq!(size_text(4096), "4k");
    assert_eq!(size_text(64 << 20), "64m");
}

#[wasm_bindgen_test]
fn default_scenario_texts_and_command_line() {
    let t = control_texts(&Scenario::default());
    assert_eq!(t["bs"], "4k");
    assert_eq!(t["rw"], "read");
    assert_eq!(t["fua"], "");
    assert_eq!(command_line(&t), "mmcsim --name=web");
}

#[wasm_bindgen_test]
fn url_query_applies_good_pairs_and_reports_bad_ones() {
    let pairs: Vec<(String, String)> = [
        ("rw", "randwrite"),
        ("bs", "lots"),
        ("iodepth", "8"),
        ("colour", "red"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    let (s, errors) = scenario_from_query(&pairs);
    assert_eq!(s.jobs[0].rw.name(), "randwrite");
    assert_eq!(s.jobs[0].iodepth, 8);
    assert_eq!(s.jobs[0].bs, 4096, "bad bs leaves the default");
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(errors[0].starts_with("bs"), "{errors:?}");
    assert!(errors[1].contains("colour"), "{errors:?}");
}

#[wasm_bindgen_test]
fn slicer_stops_within_budget_and_adapts_its_chunk() {
    use std::cell::Cell;
    // A fake clock: each event costs 1 µs.
    let clock = Cell::new(0.0f64);
    let mut s = Slicer::default();
    let mut events = 0u64;
    let done = s.run_slice(
        |n| {
            events += n;
            clock.set(clock.get() + n as f64 * 0.001);
            false
        },
        || clock.get(),
        8.0,
    );
    assert!(!done);
    assert!(
        clock.get() <= 8.0 + 2.0 * 1.0,
        "slice took {} ms",
        clock.get()
    );
    assert!(
        clock.get() >= 4.0,
        "slice used its budget: {} ms",
        clock.get()
    );
    assert!(
        s.chunk >= 512 && s.chunk <= 2048,
        "chunk ~1 ms of events: {}",
        s.chunk
    );
    // Ends as soon as the engine says so.
    let mut calls = 0;
    assert!(s.run_slice(
        |_| {
            calls += 1;
            calls == 2
        },
        || 0.0,
        8.0
    ));
    assert_eq!(calls, 2);
}
