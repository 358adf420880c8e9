//! Benchmark (not a timed test): the heaviest seed job, sprd-hs400es-2020 packed=8, 4 KiB
//! randwrite, 20 jobs x 512 MiB (2.6 million requests). Reports wall time, events per second and
//! simulated time per wall time. Run: `cargo bench -p mmcsim-engine --bench heaviest`.
//! Target (issue 2): under 1 s in a release build on the 2-core machine, peak memory under 100 MB.
//! `make bench` runs the same job file (`heaviest.fio`, read by bench/src/lib.rs too) natively and as wasm
//! in headless Chromium, side by side.

use std::time::Instant;

use mmcsim_engine::scenario::jobfile::parse_jobfile;
use mmcsim_engine::{Scenario, Simulator};

fn main() {
    let s = parse_jobfile(include_str!("heaviest.fio"), Scenario::default())
        .expect("benches/heaviest.fio is valid");
    let mut best = f64::MAX;
    for round in 0..3 {
        let t0 = Instant::now();
        let mut sim = Simulator::new(&s).expect("valid scenario");
        sim.run_to_end();
        let wall = t0.elapsed().as_secs_f64();
        best = best.min(wall);
        let r = sim.report();
        let ios: u64 = r.jobs.iter().map(|j| j.write.total_ios).sum();
        println!(
            "round {round}: {ios} requests, {} events in {:.3} s wall = {:.1} M events/s, {:.2} M requests/s; simulated {:.3} s = {:.1}x real time; {:.1} MiB/s",
            sim.events(),
            wall,
            sim.events() as f64 / wall / 1e6,
            ios as f64 / wall / 1e6,
            r.sim.simulated_ns as f64 / 1e9,
            r.sim.simulated_ns as f64 / 1e9 / wall,
            r.total_mib_s()
        );
    }
    println!("best wall time: {best:.3} s (target < 1 s)");
}
