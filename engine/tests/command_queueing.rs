//! Command queueing as the kernels run it (`mmc_path=cqe`, a what-if on every preset): the
//! eMMC CQE as cqhci runs it in Linux 6.1 (drivers/mmc/core/queue.c `mmc_init_queue`,
//! `mmc_mq_queue_rq`; block.c `mmc_blk_cqe_issue_flush`), and SD command queueing as the
//! Raspberry Pi kernel runs it (PR #6235: one posted write, no DCMD).

use std::collections::HashMap;

use mmcsim_engine::scenario::options::parse_args;
use mmcsim_engine::{Op, Scenario, Simulator, Stage};

fn scenario(args: &[&str]) -> Scenario {
    parse_args(args, Scenario::default()).unwrap()
}

/// fio libaio at iodepth 64, 4 KiB random `rw`, 4096 I/Os, on an eMMC preset with the CQE.
fn emmc_qd64(rw: &str, extra: &[&str]) -> Scenario {
    let rw = format!("--rw={rw}");
    let mut args = vec![
        "--platform=sprd-hs400es-2020",
        "--mmc_path=cqe",
        "--name=qd64",
        "--ioengine=libaio",
        "--iodepth=64",
        "--bs=4k",
        "--direct=1",
        "--size=64m",
        "--number_ios=4096",
        &rw,
    ];
    args.extend_from_slice(extra);
    scenario(&args)
}

/// `mmc_init_queue` sizes the tag set to the CQE's depth (31: 32 slots less the DCMD slot),
/// so blk-mq's tags bound the queue and `mmc_mq_queue_rq` refuses nothing: fio at iodepth 64
/// sees no requeue, and no more than 31 requests are ever in the mmc queue.
#[test]
fn at_iodepth_64_the_tags_bound_the_cqe_and_nothing_is_requeued() {
    for rw in ["randread", "randwrite"] {
        let mut sim = Simulator::new(&emmc_qd64(rw, &[])).unwrap();
        let mut most = 0;
        while sim.step() {
            let snap = sim.snapshot();
            most = most.max(snap.in_flight);
            assert_eq!(snap.tags_total, 31, "{rw}: the CQE's tag set");
        }
        let r = sim.report();
        assert_eq!(r.sim.requeues, 0, "{rw}: BLK_STS_RESOURCE refusals");
        // A bio that lands next to a waiting request merges into it (block/blk-merge.c):
        // it ran, inside that request.
        let merged = r.sim.merges.iter().sum::<u64>();
        assert_eq!(
            r.sim.ios.iter().sum::<u64>() + merged,
            4096,
            "{rw}: every I/O ran"
        );
        assert!(most <= 31, "{rw}: never past the tag set: {most}");
        if rw == "randread" {
            assert_eq!(
                most, 31,
                "reads wait on the card: the queue fills to the tag set"
            );
        }
    }
}

/// Whether a flush is ever on the bus while data tasks wait queued on the card, stepping
/// the run and reading its snapshot.
fn flush_beside_queued_tasks(s: &Scenario) -> (bool, u64) {
    let mut sim = Simulator::new(s).unwrap();
    let mut seen = false;
    while sim.step() {
        let snap = sim.snapshot();
        let op = |id: u64| snap.requests.iter().find(|r| r.id == id).map(|r| r.op);
        let flushing = snap.bus.is_some_and(|(id, _)| op(id) == Some(Op::Flush));
        let queued_data = snap
            .host_queue
            .iter()
            .any(|&id| matches!(op(id), Some(Op::Read | Op::Write)));
        seen |= flushing && queued_data;
    }
    (seen, sim.report().sim.flushes)
}

/// A reader at iodepth 32 beside a writer that fsyncs after every write: with DCMD the flush
/// is queued in the CQE's direct-command slot and sent while the reads stay queued on the
/// card (`mmc_blk_cqe_issue_flush`, no drain); without DCMD (`cqe_dcmd=0`, as on SD) a flush
/// waits for the queue to empty (`mmc_blk_wait_for_idle`), so it never meets a queued task.
#[test]
fn a_dcmd_flush_goes_to_the_card_while_data_tasks_are_queued_on_it() {
    let two_jobs = |dcmd: &str| {
        scenario(&[
            "--platform=sprd-hs400es-2020",
            "--mmc_path=cqe",
            dcmd,
            "--direct=1",
            "--bs=4k",
            "--size=16m",
            "--name=reader",
            "--ioengine=libaio",
            "--iodepth=32",
            "--rw=randread",
            "--number_ios=2000",
            "--name=writer",
            "--ioengine=psync",
            "--rw=randwrite",
            "--fsync=1",
            "--number_ios=200",
        ])
    };
    let (beside, flushes) = flush_beside_queued_tasks(&two_jobs("--cqe_dcmd=1"));
    assert!(
        flushes > 100,
        "the writer's fsyncs reach the card: {flushes}"
    );
    assert!(
        beside,
        "a DCMD flush on the bus with data tasks queued on the card"
    );
    let (beside, flushes) = flush_beside_queued_tasks(&two_jobs("--cqe_dcmd=0"));
    assert!(flushes > 100, "without DCMD too: {flushes}");
    assert!(!beside, "a synchronous flush waits for the queue to empty");
}

/// The most writes in the card at once over a run, read from its trace: a write is in the
/// card from its task's queueing (host queue) to its completion interrupt (irq).
fn most_writes_in_the_card(s: &Scenario) -> (u32, f64) {
    let mut sim = Simulator::new(s).unwrap();
    sim.set_trace_capacity(1 << 20);
    let (mut inside, mut most) = (HashMap::new(), 0u32);
    let mut count = |ev: &[mmcsim_engine::TraceEvent]| {
        for e in ev.iter().filter(|e| e.op == Op::Write) {
            match e.stage {
                Stage::HostQueue => {
                    inside.insert(e.req, ());
                }
                Stage::Irq | Stage::Complete | Stage::Done => {
                    inside.remove(&e.req);
                }
                _ => {}
            }
            most = most.max(inside.len() as u32);
        }
    };
    while !sim.run_events(10_000) {
        count(&sim.drain_trace());
    }
    count(&sim.drain_trace());
    let r = sim.report();
    let m = r.merged();
    (most, m.read.iops() + m.write.iops())
}

/// `rpi5-sd-2024 --mmc_path=cqe`, Raspberry Pi's sd_bench 4 KiB random writes (libaio,
/// iodepth 32): the kernel keeps one posted write in the card (`max_posted_writes = 1`,
/// `mmc_mq_queue_rq` refuses a second), so the card never holds two. They still go several
/// times faster than with command queueing off: the card posts them into its cache and
/// commits them in the background a page at a time (`path/card/posted.rs`). The March 2024
/// rule (`max_posted_writes=31`) queues them all, and gains nothing more: the card commits
/// one page after another whatever the host queues.
#[test]
fn sd_command_queueing_never_has_more_than_one_write_in_the_card() {
    let sd_bench = |extra: &[&str]| {
        let mut args = vec![
            "--platform=rpi5-sd-2024",
            "--name=sd_bench",
            "--ioengine=libaio",
            "--iodepth=32",
            "--direct=1",
            "--size=256m",
            "--rw=randwrite",
            "--bs=4k",
            "--runtime=1s",
        ];
        args.extend_from_slice(extra);
        scenario(&args)
    };
    let (most, on) = most_writes_in_the_card(&sd_bench(&["--mmc_path=cqe"]));
    assert_eq!(most, 1, "one posted write at a time");
    let (_, off) = most_writes_in_the_card(&sd_bench(&[]));
    assert!(
        on > off * 2.5,
        "CQ on {on:.0} vs off {off:.0} IOPS: posted writes are committed in the background"
    );
    let (most, march) =
        most_writes_in_the_card(&sd_bench(&["--mmc_path=cqe", "--max_posted_writes=31"]));
    assert!(
        most > 1,
        "the March 2024 rule queues several writes: {most}"
    );
    assert!(
        march < on * 1.1,
        "and the card commits them one after another: {march:.0} vs {on:.0} IOPS"
    );
}

/// `cqhci_irq` reads CQHCI_TCN once and finishes every task whose bit is set: reads and
/// writes mixed at iodepth 64 finish together now and then (a write's busy ends while the next
/// read is on the bus), and those share one interrupt, so there are fewer interrupts than
/// requests. An interrupt taken at once (`cqhci_irq_us=0`) finishes one task each; a slower
/// one finishes more.
#[test]
fn one_cqe_interrupt_finishes_every_task_done_by_then() {
    let batch = |extra: &[&str]| {
        let r = mmcsim_engine::run(&emmc_qd64("randrw", extra)).unwrap();
        (r.sim.avg_batch(), r.sim.interrupts)
    };
    let (at_once, irqs) = batch(&["--cqhci_irq_us=0"]);
    assert_eq!((at_once, irqs), (1.0, 4096), "one interrupt per task");
    let (typical, irqs) = batch(&[]);
    assert!(
        typical > 1.0 && irqs < 4096,
        "tasks finishing together: {typical:.2} per interrupt"
    );
    let (slow, _) = batch(&["--cqhci_irq_us=20"]);
    assert!(
        slow > typical + 0.2,
        "a slower interrupt finishes more: {slow:.2}"
    );
}

/// The CQE's host software as board parameters: `cqhci_request_us` in `queue_rq` for each
/// task it queues (the issue stage), `cqhci_finish_us` for each task inside `cqhci_irq` (the
/// interrupt stage, which at one request in flight is one task per interrupt). Both at 0 and
/// at 20 us more: each request's stage grows by the difference. On another path they cost
/// nothing.
#[test]
fn cqhci_request_and_finish_are_charged_per_task() {
    let per_request = |path: &str, extra: &[&str], stage: Stage| {
        let mut args = vec![
            "--platform=sprd-hs400es-2020",
            path,
            "--name=qd1",
            "--rw=randread",
            "--bs=4k",
            "--size=64m",
            "--number_ios=500",
        ];
        args.extend_from_slice(extra);
        let r = mmcsim_engine::run(&scenario(&args)).unwrap();
        r.sim.stage(stage) as f64 / r.sim.requests as f64 / 1000.0
    };
    let cqe = "--mmc_path=cqe";
    for (param, stage) in [
        ("cqhci_request_us", Stage::Issue),
        ("cqhci_finish_us", Stage::Irq),
    ] {
        let (zero, more) = (format!("--{param}=0"), format!("--{param}=20"));
        let grown = per_request(cqe, &[&more], stage) - per_request(cqe, &[&zero], stage);
        assert!((grown - 20.0).abs() < 1.0, "{param}: {grown:.2} us more");
        let hsq = per_request("--mmc_path=hsq", &[&more], stage)
            - per_request("--mmc_path=hsq", &[&zero], stage);
        assert_eq!(hsq, 0.0, "{param} on hsq");
    }
}
