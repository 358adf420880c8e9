//! The heaviest seed job (as `engine/benches/heaviest.rs`): sprd-hs400es-2020, packed=8, 4 KiB
//! randwrite, psync, 20 jobs x 512 MiB (2.6 million requests), run to the end. One definition
//! for both sides of `make bench`: natively (`src/main.rs`) and compiled to wasm32, where
//! [`mmcsim_bench_heaviest`] is exported for `bench/run.mjs` to time in headless Chromium.

use mmcsim_engine::scenario::jobfile::parse_jobfile;
use mmcsim_engine::{Scenario, Simulator};

/// The heaviest seed job, read from the job file `engine/benches/heaviest.fio` that the
/// engine's own benchmark reads too.
pub fn heaviest() -> Scenario {
    parse_jobfile(HEAVIEST_FIO, Scenario::default()).expect("engine/benches/heaviest.fio is valid")
}

/// The job file, compiled in (the wasm side has no file system).
pub const HEAVIEST_FIO: &str = include_str!("../../engine/benches/heaviest.fio");

/// What one run did: the same on every target (the engine is deterministic), so the two sides
/// can be checked to have done the same work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub events: u64,
    pub requests: u64,
    pub simulated_ns: u64,
}

/// Builds the simulator and runs the heaviest job to the end (what is timed).
pub fn run_heaviest() -> Outcome {
    let mut sim = Simulator::new(&heaviest()).expect("valid scenario");
    sim.run_to_end();
    let r = sim.report();
    Outcome {
        events: sim.events(),
        requests: r.jobs.iter().map(|j| j.write.total_ios).sum(),
        simulated_ns: r.sim.simulated_ns,
    }
}

#[cfg(target_arch = "wasm32")]
mod wasm {
    use std::sync::atomic::{AtomicU64, Ordering};

    static REQUESTS: AtomicU64 = AtomicU64::new(0);
    static SIMULATED_NS: AtomicU64 = AtomicU64::new(0);

    /// Runs the heaviest job; returns the events processed (a BigInt in JavaScript).
    #[no_mangle]
    pub extern "C" fn mmcsim_bench_heaviest() -> u64 {
        let o = super::run_heaviest();
        REQUESTS.store(o.requests, Ordering::Relaxed);
        SIMULATED_NS.store(o.simulated_ns, Ordering::Relaxed);
        o.events
    }

    /// Requests completed by the last run.
    #[no_mangle]
    pub extern "C" fn mmcsim_bench_requests() -> u64 {
        REQUESTS.load(Ordering::Relaxed)
    }

    /// Simulated time of the last run, ns.
    #[no_mangle]
    pub extern "C" fn mmcsim_bench_simulated_ns() -> u64 {
        SIMULATED_NS.load(Ordering::Relaxed)
    }
}
