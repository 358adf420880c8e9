//! A discard on hsq (`mmc_path=hsq`), as Linux 6.1 runs it: hsq registers as the host's CQE
//! (`host->cqe_enabled`), so `mmc_blk_mq_issue_rq` waits for it to go idle before a discard
//! (`mmc_blk_wait_for_idle` -> `mmc_hsq_wait_for_idle`), and `mmc_hsq_post_request` wakes the
//! waiter as the host finishes the last request (`!hsq->mrq && !hsq->qcnt`), before that
//! request's completion (the block softirq) has run.

use mmcsim_engine::scenario::options::parse_args;
use mmcsim_engine::{Op, Simulator, Stage};

#[test]
fn a_discard_goes_at_the_interrupt_that_empties_hsq_not_after_the_completions() {
    // A reader at iodepth 32 beside a job trimming 64 KiB ranges; a long softirq
    // (`completion_us=300`) so that a read is still in its completion when the host is idle.
    let args = [
        "--platform=unisoc-hsq-2023",
        "--mmc_path=hsq",
        "--blk_dispatch=kernel",
        "--completion_us=300",
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
    let scn = parse_args(&args, Default::default()).unwrap();
    let mut sim = Simulator::new(&scn).unwrap();
    let (mut discarding, mut beside_completions) = (0, 0);
    while sim.step() {
        let snap = sim.snapshot();
        let op = |id: u64| snap.requests.iter().find(|r| r.id == id).map(|r| r.op);
        if snap.bus.is_some_and(|(id, _)| op(id) == Some(Op::Discard)) {
            discarding += 1;
            let reads = || snap.requests.iter().filter(|r| r.op == Op::Read);
            // Nothing of the reader's on the card: the discard went alone.
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
    assert!(
        beside_completions > 0,
        "the discard waited for the reads' completions"
    );
}
