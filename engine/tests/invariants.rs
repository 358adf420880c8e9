//! Property-based tests over random scenarios: what must hold whatever the user configures.
//! - every request completes exactly once, never before it was submitted;
//! - never more requests past the mmc queue than the window allows;
//! - one request at a time on the bus (hsq, legacy, ADMA3 chains: commands and data in turn);
//! - bytes completed equal bytes submitted.

use std::collections::HashMap;

use mmcsim_engine::HSQ_PERFORMANCE_DEPTH;
use mmcsim_engine::{
    BlkDispatch, HsqDepth, IoEngine, IoSched, JobSpec, MmcPath, Rw, Scenario, Simulator, Stage,
};
use proptest::prelude::*;

use crate::common;

fn job() -> impl Strategy<Value = JobSpec> {
    (
        prop::sample::select(Rw::ALL.to_vec()),
        prop::sample::select(vec![4096u64, 8192, 16384, 65536, 524288]),
        1u32..=6,
        prop::sample::select(IoEngine::ALL.to_vec()),
        1u32..=8,
        any::<bool>(),
        prop::sample::select(vec![0u32, 0, 3]),
        0u32..=100,
    )
        .prop_map(
            |(rw, bs, numjobs, ioengine, iodepth, sync, fsync, mix)| JobSpec {
                name: "p".into(),
                rw,
                rwmixread: mix,
                bs,
                size: bs * 24,
                numjobs,
                iodepth,
                ioengine,
                sync,
                fsync,
                ..JobSpec::default()
            },
        )
}

fn scenario() -> impl Strategy<Value = Scenario> {
    (
        prop::sample::select(vec![
            "sprd-hs400es-2020",
            "unisoc-fua-2022",
            "unisoc-hsq-2023",
            "u300-mmci-2011",
            "allwinner-hsq-2022",
            "rpi5-sd-2024",
            "qemu-sdhci-pci",
        ]),
        prop::sample::select(MmcPath::ALL.to_vec()),
        prop::sample::select(vec![0u32, 0, 2, 4, 8]),
        prop::sample::select(vec![
            HsqDepth::Fixed(1),
            HsqDepth::Fixed(2),
            HsqDepth::Fixed(5),
            HsqDepth::Dynamic,
        ]),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        prop::collection::vec(job(), 1..=2),
        any::<u64>(),
        prop::sample::select(IoSched::ALL.to_vec()),
        prop::sample::select(vec![BlkDispatch::Kernel, BlkDispatch::Fitted]),
    )
        .prop_map(
            |(
                platform,
                path,
                packed,
                depth,
                fua,
                cache,
                nonblocking,
                mut jobs,
                seed,
                sched,
                disp,
            )| {
                let mut s = Scenario {
                    platform: platform.into(),
                    randseed: seed,
                    ..Scenario::default()
                };
                let u300 = platform == "u300-mmci-2011";
                // ADMA3 (packed chains) is on the Spreadtrum/Unisoc controllers only.
                let adma3 = platform.starts_with("sprd") || platform.starts_with("unisoc");
                s.set_switch::<MmcPath>("mmc_path", Some(path));
                s.set_switch::<u32>(
                    "packed",
                    Some(if path == MmcPath::Hsq && adma3 {
                        packed
                    } else {
                        0
                    }),
                );
                s.set_switch::<HsqDepth>("hsq_depth", Some(depth));
                s.set_switch::<bool>("fua", Some(fua));
                s.set_switch::<bool>("cache", Some(cache));
                s.set_switch::<bool>("nonblocking", Some(nonblocking));
                s.set_switch::<IoSched>("ioscheduler", Some(sched));
                s.set_switch::<BlkDispatch>("blk_dispatch", Some(disp));
                if u300 {
                    for j in &mut jobs {
                        j.bs = j.bs.min(32768);
                        j.size = j.bs * 24;
                    }
                }
                s.jobs = jobs;
                s
            },
        )
}

fn max_window(s: &Scenario, sim: &Simulator) -> u32 {
    let cfg = sim.host_config();
    match (cfg.mmc_path, cfg.hsq_depth) {
        // A flush or discard beside the window's requests that hsq has finished and whose
        // completion has not run (`mmc_hsq_wait_for_idle` waits for hsq, not for them; the
        // window bounds only reads and writes, `mmc_mq_queue_rq`'s MMC_ISSUE_ASYNC).
        (MmcPath::Hsq, HsqDepth::Dynamic) if cfg.packed == 0 => HSQ_PERFORMANCE_DEPTH + 2,
        (MmcPath::Hsq, _) => sim.mmc_window() + 1,
        // The tag set's tasks, and a flush in the DCMD slot beside them (cqhci's slot 31).
        (MmcPath::Cqe, _) => sim.mmc_window() + 1,
        _ => {
            let _ = s;
            sim.mmc_window()
        }
    }
}

fn check(s: &Scenario) -> Result<(), TestCaseError> {
    let mut sim = Simulator::new(s).map_err(|e| TestCaseError::fail(format!("rejected: {e}")))?;
    sim.set_trace_capacity(1 << 20);
    let window = max_window(s, &sim);
    let mut last_t = 0;
    let mut submitted: HashMap<u64, u64> = HashMap::new();
    let mut done: HashMap<u64, u32> = HashMap::new();
    let mut steps = 0u64;
    while sim.step() {
        steps += 1;
        prop_assert!(steps < 5_000_000, "run did not end");
        let snap = sim.snapshot();
        prop_assert!(
            snap.in_flight <= window,
            "in_flight {} > window {} at {} ns",
            snap.in_flight,
            window,
            snap.now_ns
        );
        let past_mmc = snap
            .requests
            .iter()
            .filter(|r| {
                matches!(
                    r.stage,
                    Stage::Issue
                        | Stage::HostQueue
                        | Stage::Command
                        | Stage::CardAccess
                        | Stage::Data
                        | Stage::CardBusy
                        | Stage::Irq
                        | Stage::Softirq
                )
            })
            .count() as u32;
        prop_assert_eq!(
            past_mmc,
            snap.in_flight,
            "requests past the mmc queue vs in_flight at {} ns",
            snap.now_ns
        );
        let on_bus = snap
            .requests
            .iter()
            .filter(|r| matches!(r.stage, Stage::Command | Stage::CardAccess | Stage::Data))
            .count();
        prop_assert!(
            on_bus <= 1,
            "{} requests on the bus at {} ns",
            on_bus,
            snap.now_ns
        );
        if sim.host_config().mmc_path != MmcPath::Cqe {
            let busy = snap
                .requests
                .iter()
                .filter(|r| r.stage == Stage::CardBusy)
                .count();
            prop_assert!(
                busy + on_bus <= 1,
                "card busy overlaps another transfer at {} ns",
                snap.now_ns
            );
        }
        for e in sim.drain_trace() {
            prop_assert!(
                e.t_ns >= last_t,
                "trace out of order: {:?} after t={} now={}",
                e,
                last_t,
                sim.now()
            );
            last_t = e.t_ns;
            match e.stage {
                Stage::Submit => {
                    submitted.insert(e.req, e.t_ns);
                }
                Stage::Done => {
                    let t0 = submitted.get(&e.req).copied();
                    prop_assert!(
                        t0.is_some_and(|t0| t0 <= e.t_ns),
                        "request {} done before submitted",
                        e.req
                    );
                    *done.entry(e.req).or_default() += 1;
                }
                _ => {}
            }
        }
    }
    prop_assert!(done.values().all(|&n| n == 1), "a request completed twice");
    prop_assert_eq!(sim.stranded_requests(), 0, "requests left unfinished");
    prop_assert_eq!(
        done.len(),
        submitted.len(),
        "every submitted request completes"
    );
    let report = sim.report();
    let mut expect = 0u64;
    for j in &s.jobs {
        // trimwrite trims each block, then writes it: both count (fio's trim and write io=).
        let passes = if j.rw == Rw::TrimWrite { 2 } else { 1 };
        expect += (j.size / j.bs) * j.bs * j.numjobs as u64 * passes;
    }
    let got: u64 = report
        .jobs
        .iter()
        .map(|j| j.read.io_bytes + j.write.io_bytes + j.trim.io_bytes)
        .sum();
    prop_assert_eq!(got, expect, "bytes completed vs submitted");
    Ok(())
}

proptest! {
    #![proptest_config(common::proptest_config(256))]
    #[test]
    fn invariants_hold(s in scenario()) {
        check(&s)?;
    }
}

#[test]
fn mmc_test_completes_every_transfer() {
    for case in 37..=44 {
        let mut s = Scenario {
            platform: "u300-mmci-2011".into(),
            mmc_test: Some(case),
            ..Scenario::default()
        };
        s.jobs[0].size = 1 << 20;
        let r = mmcsim_engine::run(&s).unwrap();
        assert_eq!(r.jobs.len(), 5, "five transfer sizes");
        assert_eq!(r.jobs[4].name, "63.5KiB");
        for j in &r.jobs {
            assert!(
                j.read.io_bytes + j.write.io_bytes >= (1 << 20) - 65024,
                "{} {}",
                case,
                j.name
            );
        }
    }
}
