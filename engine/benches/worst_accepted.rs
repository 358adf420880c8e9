//! Benchmark (not a timed test): the worst scenarios the checks accept (issue 10, item 4). Each
//! family is scaled up to the largest `size` or `runtime` that `scenario::check` still accepts
//! (a binary search against `MAX_EVENTS`), then run to the end; it prints the CPU time, the
//! events, the estimate's margin and the peak memory (VmHWM). The stated bound is 15 s of CPU on
//! the project's 2-core machine. Run: `cargo bench -p mmcsim-engine --bench worst_accepted`.

use std::time::Instant;

use mmcsim_engine::scenario::{check, estimated_events};
use mmcsim_engine::{IoEngine, JobSpec, MmcPath, Rw, Scenario, Simulator};

/// Peak resident memory of this process so far, KiB (Linux; 0 elsewhere).
fn peak_rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

/// The largest `x` in `lo..=hi` for which `make(x)` is accepted.
fn largest_accepted(lo: u64, hi: u64, make: &dyn Fn(u64) -> Scenario) -> u64 {
    let (mut lo, mut hi) = (lo, hi);
    assert!(check(&make(lo)).is_ok(), "the smallest is accepted");
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if check(&make(mid)).is_ok() {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo
}

fn job(rw: Rw, bs: u64, numjobs: u32) -> JobSpec {
    JobSpec {
        name: "w".into(),
        rw,
        bs,
        numjobs,
        ..JobSpec::default()
    }
}

/// A family: its name, the scenario for a scale `x`, and the range of `x` to search.
type Family = (&'static str, Box<dyn Fn(u64) -> Scenario>, u64, u64);

fn main() {
    let families: Vec<Family> = vec![
        (
            "1024 clones (4 x 256) psync 512 B randrw, size per clone",
            Box::new(|size| Scenario {
                jobs: (0..4)
                    .map(|i| JobSpec {
                        name: format!("j{i}"),
                        size: size * 512,
                        ..job(Rw::RandRw, 512, 256)
                    })
                    .collect(),
                ..Scenario::default()
            }),
            1,
            1 << 20,
        ),
        (
            "256 clones libaio CQE 512 B randrw, time_based runtime",
            Box::new(|ms| {
                let mut s = Scenario {
                    platform: "unisoc-hsq-2023".into(),
                    jobs: vec![JobSpec {
                        runtime_ns: Some(ms * 1_000_000),
                        time_based: true,
                        ioengine: IoEngine::Libaio,
                        iodepth: 4,
                        ..job(Rw::RandRw, 512, 256)
                    }],
                    ..Scenario::default()
                };
                s.set_switch::<MmcPath>("mmc_path", Some(MmcPath::Cqe));
                s
            }),
            1,
            600_000,
        ),
        (
            "1 job libaio CQE 512 B randread, size",
            Box::new(|size| {
                let mut s = Scenario {
                    platform: "unisoc-hsq-2023".into(),
                    jobs: vec![JobSpec {
                        size: size * 512,
                        ioengine: IoEngine::Libaio,
                        iodepth: 32,
                        ..job(Rw::RandRead, 512, 1)
                    }],
                    ..Scenario::default()
                };
                s.set_switch::<MmcPath>("mmc_path", Some(MmcPath::Cqe));
                s
            }),
            1,
            1 << 30,
        ),
        (
            "1 job O_SYNC 4 KiB randwrite, fsync=1, FUA off, size",
            Box::new(|size| {
                let mut s = Scenario {
                    platform: "unisoc-fua-2022".into(),
                    jobs: vec![JobSpec {
                        size: size * 4096,
                        sync: true,
                        fsync: 1,
                        ..job(Rw::RandWrite, 4096, 1)
                    }],
                    ..Scenario::default()
                };
                s.set_switch::<bool>("fua", Some(false));
                s
            }),
            1,
            1 << 28,
        ),
        (
            "20 jobs packed=8 4 KiB randwrite, size",
            Box::new(|size| {
                let mut s = Scenario {
                    jobs: vec![JobSpec {
                        size: size * 4096,
                        ..job(Rw::RandWrite, 4096, 20)
                    }],
                    ..Scenario::default()
                };
                s.set_switch::<u32>("packed", Some(8));
                s
            }),
            1,
            1 << 28,
        ),
    ];
    let mut worst = (0.0f64, "");
    for (name, make, lo, hi) in &families {
        let x = largest_accepted(*lo, *hi, make.as_ref());
        let s = make(x);
        let est = estimated_events(&s);
        let t0 = Instant::now();
        let mut sim = Simulator::new(&s).expect("accepted");
        sim.run_to_end();
        let cpu = t0.elapsed().as_secs_f64();
        println!(
            "{name}: x={x}, {} events (estimated {est}, {:.0}%), {cpu:.2} s, {:.0} ns/event, peak RSS {} MiB",
            sim.events(),
            sim.events() as f64 * 100.0 / est as f64,
            cpu * 1e9 / sim.events() as f64,
            peak_rss_kib() / 1024
        );
        if cpu > worst.0 {
            worst = (cpu, name);
        }
    }
    println!(
        "worst accepted scenario: {} at {:.2} s of CPU (bound: 15 s); peak RSS {} MiB",
        worst.1,
        worst.0,
        peak_rss_kib() / 1024
    );
}
