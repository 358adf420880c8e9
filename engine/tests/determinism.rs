//! Same scenario and seed: identical results; another seed: random workloads differ.

use mmcsim_engine::{run, HsqDepth, IoEngine, JobSpec, Rw, Scenario};

fn scenario(seed: u64) -> Scenario {
    let mut s = Scenario {
        platform: "unisoc-hsq-2023".into(),
        randseed: seed,
        ..Scenario::default()
    };
    s.set_switch::<HsqDepth>("hsq_depth", Some(HsqDepth::Dynamic));
    s.jobs = vec![
        JobSpec {
            name: "w".into(),
            rw: Rw::RandRw,
            rwmixread: 30,
            bs: 4096,
            size: 4 << 20,
            numjobs: 3,
            ..JobSpec::default()
        },
        JobSpec {
            name: "r".into(),
            rw: Rw::Read,
            bs: 65536,
            size: 8 << 20,
            ioengine: IoEngine::Libaio,
            iodepth: 4,
            ..JobSpec::default()
        },
    ];
    s
}

#[test]
fn same_seed_same_report() {
    let a = run(&scenario(7)).unwrap();
    let b = run(&scenario(7)).unwrap();
    assert_eq!(a, b);
}

#[test]
fn different_seed_different_random_run() {
    let a = run(&scenario(7)).unwrap();
    let b = run(&scenario(8)).unwrap();
    assert_ne!(a.sim.simulated_ns, b.sim.simulated_ns);
}

#[test]
fn trace_and_timeline_do_not_change_results() {
    let plain = run(&scenario(3)).unwrap();
    let mut sim = mmcsim_engine::Simulator::new(&scenario(3)).unwrap();
    sim.set_trace_capacity(1000);
    sim.set_timeline_capacity(100);
    while !sim.run_events(5000) {
        let _ = sim.drain_trace();
        let _ = sim.snapshot();
    }
    assert_eq!(sim.report(), plain);
}
