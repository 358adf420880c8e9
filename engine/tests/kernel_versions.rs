//! `kernel=` selects the rules of that kernel (issue 46): on the kernel oracle's board
//! (`qemu-sdhci-pci`), the oracle's jobs under Linux 6.1's rules and under 6.12's give what each
//! real kernel gave under QEMU (issue 46's table: Debian's 6.12.117 against 6.1, three boots):
//! who issues each request, the several writers' requeues and merges, the shared flushes; the
//! rest (request counts and sizes of a single submitter) stays as it was. Every assertion is a
//! figure a user reads in the CLI's output (its `mmcsim:` line, fio JSON's `mmcsim` block).

use mmcsim_engine::scenario::{options::parse_args, warnings, what_ifs, Scenario};
use mmcsim_engine::SimStats;

/// The oracle's job `args` on the oracle's board under `sched`, with `kernel`.
fn run(kernel: &str, sched: &str, cache: bool, args: &str) -> SimStats {
    let scn = scenario(kernel, sched, cache, args);
    mmcsim_engine::run(&scn)
        .unwrap_or_else(|e| panic!("{args}: {e}"))
        .sim
}

fn scenario(kernel: &str, sched: &str, cache: bool, args: &str) -> Scenario {
    let mut a: Vec<String> = vec![
        "--platform=qemu-sdhci-pci".into(),
        format!("--kernel={kernel}"),
        format!("--ioscheduler={sched}"),
        format!("--cache={}", u8::from(cache)),
        "--name=oracle".into(),
        "--direct=1".into(),
    ];
    a.extend(args.split_whitespace().map(String::from));
    parse_args(&a, Scenario::default()).unwrap_or_else(|e| panic!("{args}: {e}"))
}

const A: &str = "--ioengine=psync --rw=randwrite --bs=4k --size=4m";
const B2: &str = "--ioengine=psync --rw=write --bs=256k --size=4m";
const C2: &str = "--ioengine=libaio --iodepth=8 --iodepth_batch_submit=8 --iodepth_batch_complete_min=8 --rw=write --bs=4k --size=4m";
const D1: &str = "--ioengine=psync --rw=randwrite --bs=4k --size=1m --sync=1";
const D3: &str = "--ioengine=libaio --iodepth=8 --rw=randwrite --bs=4k --size=1m --sync=1";
const D5: &str =
    "--ioengine=psync --rw=randwrite --bs=4k --size=256k --sync=1 --numjobs=4 --group_reporting";
const E: &str = "--ioengine=psync --rw=randread --bs=4k --size=4m";
const G: &str = "--ioengine=psync --rw=randwrite --bs=4k --size=1m --numjobs=4 --group_reporting";
const H: &str = "--ioengine=libaio --iodepth=8 --rw=write --bs=4k --size=1m --numjobs=4 --offset_increment=16m --group_reporting";

#[test]
fn under_mq_deadline_6_1_s_kblockd_issues_and_6_12_s_submitting_task() {
    for args in [A, B2, C2, D1, E] {
        let old = run("6.1", "mq-deadline", false, args);
        let new = run("6.12", "mq-deadline", false, args);
        assert_eq!(old.issued_direct, 0, "6.1 {args}");
        assert!(old.issued_by_kblockd > 0, "6.1 {args}");
        assert_eq!(new.issued_by_kblockd, 0, "6.12 {args}");
        assert_eq!(new.issued_direct, old.issued_direct + old.issued_by_kblockd);
        // A single submitter's requests are the same requests.
        assert_eq!(new.ios, old.ios, "{args}");
        assert_eq!(new.request_sizes, old.request_sizes, "{args}");
    }
}

#[test]
fn psync_writes_under_none_go_from_kblockd_to_the_submitting_task() {
    for args in [A, B2, D1] {
        let old = run("6.1", "none", false, args);
        let new = run("6.12", "none", false, args);
        assert!(old.issued_by_kblockd > 0, "6.1 {args}");
        assert_eq!(new.issued_by_kblockd, 0, "6.12 {args}");
        assert_eq!(new.ios, old.ios, "{args}");
    }
}

#[test]
fn several_writers_under_6_12_issue_their_own_requests_and_merge() {
    // The oracle's one vCPU: 6.12's fio threads issued 996-1009 of g's 1024 requests and 253-254
    // of d5's 256 themselves (3-43 requeues); 6.1's kblockd all of them, with no requeue.
    for args in [G, D5] {
        let old = run("6.1", "mq-deadline", false, args);
        let new = run("6.12", "mq-deadline", false, args);
        let n = new.ios[1];
        assert_eq!((old.requeues, old.issued_direct), (0, 0), "6.1 {args}");
        assert!(new.issued_direct * 10 >= n * 9, "6.12 {args}: fio issues");
        assert!(new.requeues * 10 <= n, "6.12 {args}: few requeues");
    }
    let old = run("6.1", "mq-deadline", false, H);
    let new = run("6.12", "mq-deadline", false, H);
    let reqs = |s: &SimStats| s.ios[1];
    println!(
        "h: 6.1 {} requests {} merges; 6.12 {} requests {} merges",
        reqs(&old),
        old.merges[1],
        reqs(&new),
        new.merges[1]
    );
    assert!(new.merges[1] > 0 && reqs(&new) < 1024, "6.12 h");
}

#[test]
fn an_osync_write_s_data_takes_the_normal_path_under_6_12() {
    // The flush suite: a write-back cache without FUA (QEMU's virtio disk, stood in for by
    // the board with its card's cache on).
    let old = run("6.1", "none", true, D1);
    let new = run("6.12", "none", true, D1);
    assert_eq!(new.flushes, old.flushes, "one flush per write either way");
    // 6.1: the data through the flush machine, by kblockd; 6.12: by fio, only the flush by
    // kblockd (the model's flush request is issued on the mmc queue's direct path: not
    // counted as a block-layer issue).
    assert!(old.issued_by_kblockd >= old.ios[1], "6.1 data by kblockd");
    assert_eq!(new.issued_direct, new.ios[1], "6.12 data by fio");
    let old = run("6.1", "none", true, D3);
    let new = run("6.12", "none", true, D3);
    println!("d3 flushes: 6.1 {} 6.12 {}", old.flushes, new.flushes);
}

#[test]
fn a_kernel_the_model_does_not_carry_is_named_and_runs_the_nearest() {
    let w = warnings(&scenario("6.18", "none", false, A));
    assert!(
        w.iter()
            .any(|l| l.contains("6.1, 6.6, 6.12") && l.contains("runs 6.12's")),
        "{w:?}"
    );
    assert!(warnings(&scenario("6.12", "none", false, A)).is_empty());
    // Same rules, same run.
    let a = run("6.18", "mq-deadline", false, A);
    let b = run("6.12", "mq-deadline", false, A);
    assert_eq!(
        (a.simulated_ns, a.issued_direct),
        (b.simulated_ns, b.issued_direct)
    );
}

#[test]
fn the_dynamic_hsq_depth_is_6_12_s_own_rule_and_a_patch_on_6_6() {
    let scn = |k: &str| {
        let a: Vec<String> = ["--platform=unisoc-hsq-2023", &format!("--kernel={k}")]
            .iter()
            .map(|s| s.to_string())
            .chain(A.split_whitespace().map(String::from))
            .chain(["--name=w".to_string()])
            .collect();
        parse_args(&a, Scenario::default()).unwrap()
    };
    let on66: Vec<String> = what_ifs(&scn("6.6")).iter().map(|w| w.line()).collect();
    assert!(
        on66[0].starts_with("hsq_depth=dynamic — the 2023 dynamic depth"),
        "{on66:?}"
    );
    assert!(what_ifs(&scn("6.12")).is_empty());
    // A board whose preset has hsq's window of 2 runs the dynamic depth under 6.12.
    let sprd = |k: &str| {
        let a: Vec<String> = ["--platform=sprd-hs400es-2020", &format!("--kernel={k}")]
            .iter()
            .map(|s| s.to_string())
            .chain(["--name=w", "--rw=randwrite", "--bs=4k", "--size=1m"].map(String::from))
            .collect();
        parse_args(&a, Scenario::default()).unwrap()
    };
    let d = |k| {
        sprd(k)
            .effective_platform()
            .unwrap()
            .switches
            .hsq_depth
            .text()
    };
    assert_eq!(
        (d("6.6"), d("6.12")),
        ("2".to_string(), "dynamic".to_string())
    );
}
