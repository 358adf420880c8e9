//! A discard under the eMMC CQE (`mmc_path=cqe`), as Linux 6.1 runs it: `mmc_cqe_issue_type`
//! makes REQ_OP_DISCARD MMC_ISSUE_SYNC, so `mmc_blk_mq_issue_rq` waits for the CQE to go idle
//! (`mmc_blk_wait_for_idle` -> `cqhci_wait_for_idle`), and `__mmc_start_request` halts the CQE
//! (`cqhci_off`) before the discard's commands go, the queued tasks all finished. On hsq
//! (`mmc_path=hsq`, which registers as the host's CQE: `host->cqe_enabled`) the same wait is
//! `mmc_hsq_wait_for_idle`.

use mmcsim_engine::scenario::options::parse_args;
use mmcsim_engine::{Op, Scenario, Simulator, Stage};

/// A reader at libaio iodepth 32 beside a job trimming 64 KiB ranges one at a time, under the
/// CQE.
fn reads_beside_trims(extra: &[&str]) -> Scenario {
    trims_on("sprd-hs400es-2020", "--mmc_path=cqe", extra)
}

/// [`reads_beside_trims`] on `platform` with its `path`.
fn trims_on(platform: &str, path: &str, extra: &[&str]) -> Scenario {
    let platform = format!("--platform={platform}");
    let mut args = vec![
        platform.as_str(),
        path,
        "--direct=1",
        "--size=64m",
        "--name=reader",
        "--ioengine=libaio",
        "--iodepth=32",
        "--rw=randread",
        "--bs=4k",
        "--number_ios=3000",
        "--name=trimmer",
        "--rw=randtrim",
        "--bs=64k",
        "--number_ios=20",
    ];
    args.extend_from_slice(extra);
    parse_args(&args, Scenario::default()).unwrap()
}

#[test]
fn a_discard_under_the_cqe_waits_for_the_queue_to_empty_and_halts_the_cqe() {
    let mut sim = Simulator::new(&reads_beside_trims(&[])).unwrap();
    let (mut discarding, mut reads_waiting) = (0, 0);
    while sim.step() {
        let snap = sim.snapshot();
        let op = |id: u64| snap.requests.iter().find(|r| r.id == id).map(|r| r.op);
        if snap.bus.is_some_and(|(id, _)| op(id) == Some(Op::Discard)) {
            discarding += 1;
            // Nothing else is queued on the card or executing: the discard went alone, after
            // every task finished.
            assert!(
                snap.host_queue.iter().all(|&id| op(id) != Some(Op::Read)),
                "a read task queued during the discard: {:?}",
                snap.host_queue
            );
            // In flight: the discard, and reads the CQE has finished whose completion has
            // not run (`cqhci_wait_for_idle` waits for qcnt, not for the completions).
            let on_the_card = snap
                .requests
                .iter()
                .filter(|r| r.op == Op::Read)
                .filter(|r| matches!(r.stage, Stage::Command | Stage::CardAccess | Stage::Data))
                .count();
            assert_eq!(on_the_card, 0, "a read task on the card during the discard");
            reads_waiting += usize::from(snap.requests.iter().any(|r| r.op == Op::Read));
        }
    }
    let r = sim.report();
    assert_eq!(r.sim.discards, 20);
    assert!(discarding > 0, "the discard was seen on the bus");
    assert!(reads_waiting > 0, "reads waited behind the discards");
    // The reader's tasks run between the trims, so each discard finds the CQE on and halts it.
    assert_eq!(r.sim.cqe_halts, 20, "one cqhci_off per discard");
}

#[test]
fn the_halt_is_a_board_parameter_that_delays_each_discard() {
    let run = |halt: &str| {
        let s = reads_beside_trims(&[&format!("--cqhci_halt_us={halt}")]);
        mmcsim_engine::run(&s).unwrap().sim
    };
    let (quick, slow) = (run("0"), run("2000"));
    assert_eq!(quick.cqe_halts, slow.cqe_halts);
    // 20 halts of 2 ms more: the run is longer by about that (the reads behind wait too).
    let longer = slow.simulated_ns - quick.simulated_ns;
    assert!(longer >= 20 * 1_900_000, "{longer} ns");
}

/// `cqhci_wait_for_idle` waits for the CQE's `qcnt`, which `cqhci_irq` brings to 0 as it
/// finishes the last task (`cqhci_finish_mrq`) and then wakes the waiter: a discard asleep in
/// `->queue_rq` goes on at that interrupt, not after the tasks' completions (the block
/// softirq, `in_flight--`). With a long softirq (`completion_us=300`) the discard is on the
/// bus while reads it waited for are still in their completion; the kernel's dispatch (the
/// fitted one refuses the discard and re-runs it from a completion instead).
#[test]
fn a_discard_goes_at_the_interrupt_that_empties_the_cqe_not_after_the_completions() {
    let scn = reads_beside_trims(&["--blk_dispatch=kernel", "--completion_us=300"]);
    assert!(
        discards_beside_completions(&scn) > 0,
        "the discard waited for the reads' completions"
    );
}

/// hsq: `mmc_hsq_post_request` wakes `mmc_hsq_wait_for_idle` as the host finishes the last
/// request (`!hsq->mrq && !hsq->qcnt`), before that request's completion has run.
#[test]
fn a_discard_goes_at_the_interrupt_that_empties_hsq_not_after_the_completions() {
    let extra = ["--blk_dispatch=kernel", "--completion_us=300"];
    let scn = trims_on("unisoc-hsq-2023", "--mmc_path=hsq", &extra);
    assert!(
        discards_beside_completions(&scn) > 0,
        "the discard waited for the reads' completions"
    );
}

/// Runs `scn` (its 20 discards), checking that no read is on the card while a discard is on
/// the bus; returns in how many of those steps a read was in its completion (the softirq).
fn discards_beside_completions(scn: &Scenario) -> usize {
    let mut sim = Simulator::new(scn).unwrap();
    let (mut discarding, mut beside_completions) = (0, 0);
    while sim.step() {
        let snap = sim.snapshot();
        let op = |id: u64| snap.requests.iter().find(|r| r.id == id).map(|r| r.op);
        if snap.bus.is_some_and(|(id, _)| op(id) == Some(Op::Discard)) {
            discarding += 1;
            let reads = || snap.requests.iter().filter(|r| r.op == Op::Read);
            assert!(
                !reads()
                    .any(|r| matches!(r.stage, Stage::Command | Stage::CardAccess | Stage::Data)),
                "a read on the card during the discard"
            );
            beside_completions += usize::from(reads().any(|r| r.stage == Stage::Softirq));
        }
    }
    assert_eq!(sim.report().sim.discards, 20);
    assert!(discarding > 0, "the discard was seen on the bus");
    beside_completions
}
