//! The native side of `make bench`: runs the heaviest seed job `MMCSIM_BENCH_ROUNDS` times
//! (default 3) and prints each round, then one `RESULT` line that bench/run.mjs reads.

use std::time::Instant;

fn main() {
    let rounds: u32 = std::env::var("MMCSIM_BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3);
    let mut best = f64::MAX;
    let mut outcome = None;
    for round in 0..rounds.max(1) {
        let t0 = Instant::now();
        let o = mmcsim_bench::run_heaviest();
        let wall = t0.elapsed().as_secs_f64();
        best = best.min(wall);
        println!(
            "native round {round}: {} events, {} requests in {wall:.3} s = {:.2} M events/s",
            o.events,
            o.requests,
            o.events as f64 / wall / 1e6
        );
        outcome = Some(o);
    }
    let o = outcome.expect("one round");
    println!(
        "RESULT events={} requests={} simulated_ns={} best_s={best:.6}",
        o.events, o.requests, o.simulated_ns
    );
}
