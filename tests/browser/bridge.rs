//! The app's glue to the engine, and the frame slicer: plain logic, run in the browser so the
//! wasm32 build of it is the one tested.

use mmcsim_engine::Scenario;
use mmcsim_web::run::engine_bridge::{
    apply_control, command_line, control_texts, scenario_from_query, url_query,
};
use mmcsim_web::run::slicer::Slicer;
use wasm_bindgen_test::wasm_bindgen_test;

/// What a control shows for a scenario is text the parser reads back to the same scenario.
#[wasm_bindgen_test]
fn control_texts_round_trip_through_the_parser() {
    let mut scn = Scenario::default();
    for (k, v) in [
        ("bs", "1536"),
        ("size", "3g"),
        ("rw", "randrw"),
        ("hsq_depth", "dynamic"),
        ("fua", "0"),
        ("mmc_path", "legacy"),
    ] {
        scn = apply_control(&scn, k, v).unwrap();
    }
    let texts = control_texts(&scn);
    let mut again = Scenario::default();
    for (k, v) in &texts {
        again = apply_control(&again, k, v).unwrap_or_else(|e| panic!("{k}={v}: {e}"));
    }
    assert_eq!(again, scn);
    assert_eq!(control_texts(&Scenario::default())["bs"], "4k");
    assert_eq!(control_texts(&Scenario::default())["size"], "64m");
}

#[wasm_bindgen_test]
fn clearing_a_host_switch_restores_the_platform_default() {
    let scn = apply_control(&Scenario::default(), "packed", "4").unwrap();
    assert_eq!(scn.switch::<u32>("packed"), Some(4));
    let scn = apply_control(&scn, "packed", "").unwrap();
    assert_eq!(scn.switch::<u32>("packed"), None);
    assert!(
        apply_control(&scn, "bs", "").is_err(),
        "an empty block size is no default"
    );
}

#[wasm_bindgen_test]
fn command_line_and_url_carry_the_scenario() {
    let scn = apply_control(&Scenario::default(), "bs", "512k").unwrap();
    let cmd = command_line(&scn);
    assert!(
        cmd.starts_with("mmcsim ") && cmd.contains("--bs=512k"),
        "{cmd}"
    );
    let (back, errors) = scenario_from_query(&format!("?{}", url_query(&scn)));
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(back, scn);
}

#[wasm_bindgen_test]
fn url_query_applies_good_pairs_and_reports_bad_ones() {
    let (s, errors) = scenario_from_query("?rw=randwrite&bs=lots&iodepth=8&colour=red");
    assert_eq!(s.jobs[0].rw.name(), "randwrite");
    assert_eq!(s.jobs[0].iodepth, 8);
    assert_eq!(s.jobs[0].bs, 4096, "bad bs leaves the default");
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(errors.iter().any(|e| e.starts_with("bs")), "{errors:?}");
    assert!(errors.iter().any(|e| e.contains("colour")), "{errors:?}");
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
