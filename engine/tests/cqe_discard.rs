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
    let (seen, sim) = watch_discards(&reads_beside_trims(&[]));
    assert!(seen.reads_waiting > 0, "reads waited behind the discards");
    // The reader's tasks run between the trims, so each discard finds the CQE on and halts it.
    assert_eq!(sim.cqe_halts, 20, "one cqhci_off per discard");
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
        watch_discards(&scn).0.beside_completions > 0,
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
        watch_discards(&scn).0.beside_completions > 0,
        "the discard waited for the reads' completions"
    );
}

/// What [`watch_discards`] saw in the steps with a discard on the bus.
struct Seen {
    /// Steps with a read in its completion (the softirq) beside the discard.
    beside_completions: usize,
    /// Steps with a read waiting somewhere in the path.
    reads_waiting: usize,
}

/// Runs `scn` (its 20 discards), checking at every step with a discard on the bus that it
/// goes alone: no read queued on the host or on the card (in flight beside it are only reads
/// the host has finished whose completion has not run: the wait is for the host's queue, not
/// for the completions).
fn watch_discards(scn: &Scenario) -> (Seen, mmcsim_engine::SimStats) {
    let mut sim = Simulator::new(scn).unwrap();
    let mut discarding = 0;
    let mut seen = Seen {
        beside_completions: 0,
        reads_waiting: 0,
    };
    while sim.step() {
        let snap = sim.snapshot();
        let op = |id: u64| snap.requests.iter().find(|r| r.id == id).map(|r| r.op);
        if snap.bus.is_some_and(|(id, _)| op(id) == Some(Op::Discard)) {
            discarding += 1;
            assert!(
                snap.host_queue.iter().all(|&id| op(id) != Some(Op::Read)),
                "a read queued on the host during the discard: {:?}",
                snap.host_queue
            );
            let reads = || snap.requests.iter().filter(|r| r.op == Op::Read);
            assert!(
                !reads()
                    .any(|r| matches!(r.stage, Stage::Command | Stage::CardAccess | Stage::Data)),
                "a read on the card during the discard"
            );
            seen.beside_completions += usize::from(reads().any(|r| r.stage == Stage::Softirq));
            seen.reads_waiting += usize::from(reads().next().is_some());
        }
    }
    let report = sim.report().sim;
    assert_eq!(report.discards, 20);
    assert!(discarding > 0, "the discard was seen on the bus");
    (seen, report)
}
