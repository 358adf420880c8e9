//! I/O priorities as the schedulers use them (issue 47): an app's 4 KiB psync random reader
//! beside a libaio iodepth=32 sequential writer on the 2023 Unisoc board (hsq, the kernel's
//! dispatch), the reader's `prioclass=` changed. Each test names the kernel rule it asserts:
//! mq-deadline's `dd_dispatch_request` and `dd_dispatch_prio_aged_requests`, bfq's
//! `bfq_lookup_next_entity`, `BFQ_CL_IDLE_TIMEOUT`, `bfq_ioprio_to_weight` and the cgroup
//! weight; none and kyber read no priority, and say so once.

use mmcsim_engine::report::DirStats;
use mmcsim_engine::scenario::jobfile::parse_jobfile;
use mmcsim_engine::scenario::options::parse_args;
use mmcsim_engine::scenario::warnings;
use mmcsim_engine::{run, Scenario};

const HSQ: &[&str] = &["--platform=unisoc-hsq-2023", "--blk_dispatch=kernel"];

/// The job file: a reader (with `reader` options) and a writer, both 2 s.
fn job(reader: &str) -> String {
    format!(
        "[global]\ndirect=1\nsize=32m\nruntime=2\ntime_based\n\
         [reader]\nrw=randread\nbs=4k\nioengine=psync\n{reader}\n\
         [writer]\nrw=write\nbs=4k\nioengine=libaio\niodepth=32\noffset=1g\n"
    )
}

fn scenario(sched: &str, reader: &str, extra: &[&str]) -> Scenario {
    let sched = format!("--ioscheduler={sched}");
    let mut args: Vec<&str> = HSQ.to_vec();
    args.push(&sched);
    args.extend_from_slice(extra);
    let base = parse_args(&args, Scenario::default()).unwrap();
    parse_jobfile(&job(reader), base).unwrap()
}

/// The reader's and the writer's figures.
fn reader_and_writer(sched: &str, reader: &str, extra: &[&str]) -> (DirStats, DirStats) {
    let r = run(&scenario(sched, reader, extra)).unwrap();
    let job = |name: &str| r.jobs.iter().find(|j| j.name == name).unwrap().clone();
    (job("reader").read, job("writer").write)
}

fn ms(ns: f64) -> f64 {
    ns / 1e6
}

#[test]
fn mq_deadline_dd_dispatch_request_serves_realtime_before_best_effort() {
    // `dd_dispatch_request`: DD_RT_PRIO first; best effort only while no realtime request is
    // queued (`dd_queued` counts those in flight too).
    let (be, be_w) = reader_and_writer("mq-deadline", "", &[]);
    let (rt, rt_w) = reader_and_writer("mq-deadline", "prioclass=1", &[]);
    assert!(
        rt.clat.mean() < 0.5 * be.clat.mean(),
        "the realtime reader waits {:.2} ms on average, the best-effort one {:.2} ms",
        ms(rt.clat.mean()),
        ms(be.clat.mean())
    );
    assert!(
        rt_w.clat.mean() > be_w.clat.mean(),
        "the writer waits behind it: {:.2} ms against {:.2} ms",
        ms(rt_w.clat.mean()),
        ms(be_w.clat.mean())
    );
}

#[test]
fn mq_deadline_dd_dispatch_prio_aged_requests_lets_an_idle_reader_go_after_prio_aging_expire() {
    // The idle-class reader waits while the writer's best-effort requests are queued; only
    // `dd_dispatch_prio_aged_requests` lets it go, `prio_aging_expire` after its insertion.
    let (idle, _) = reader_and_writer("mq-deadline", "prioclass=3", &["--prio_aging_expire=200"]);
    assert!(idle.clat.count() > 0, "aged reads go");
    assert!(
        idle.clat.mean() >= 150e6,
        "an idle read waits about prio_aging_expire (200 ms): {:.1} ms",
        ms(idle.clat.mean())
    );
    let (be, _) = reader_and_writer("mq-deadline", "", &["--prio_aging_expire=200"]);
    assert!(
        be.clat.mean() < 0.5 * idle.clat.mean(),
        "best effort does not wait for aging"
    );
}

#[test]
fn bfq_lookup_next_entity_serves_the_realtime_class_first() {
    // `bfq_lookup_next_entity`: the realtime service tree before the best-effort one; the
    // writer gets only what is injected while the realtime queue idles.
    let (be, be_w) = reader_and_writer("bfq", "", &[]);
    let (rt, rt_w) = reader_and_writer("bfq", "prioclass=1", &[]);
    assert!(
        rt.clat.percentile(99.0) <= be.clat.percentile(99.0),
        "the realtime reader's p99 {:.2} ms, best effort's {:.2} ms",
        ms(rt.clat.percentile(99.0) as f64),
        ms(be.clat.percentile(99.0) as f64)
    );
    assert!(
        rt_w.clat.mean() > 3.0 * be_w.clat.mean(),
        "the best-effort writer waits: {:.1} ms against {:.1} ms",
        ms(rt_w.clat.mean()),
        ms(be_w.clat.mean())
    );
}

#[test]
fn bfq_serves_the_idle_class_once_per_cl_idle_timeout() {
    // `bfq_lookup_next_entity`: the idle class only when the others have nothing, or once
    // `BFQ_CL_IDLE_TIMEOUT` (200 ms) has passed since it last could.
    let (idle, _) = reader_and_writer("bfq", "prioclass=3", &[]);
    assert!(idle.clat.count() > 0, "the idle reader is not starved");
    assert!(
        idle.iops() <= 10.0,
        "about one read per 200 ms: {:.1} IOPS",
        idle.iops()
    );
}

#[test]
fn bfq_ioprio_to_weight_shares_the_device_by_level() {
    // Two random readers, levels 0 and 7: weights 80 and 10 (`bfq_ioprio_to_weight`), no
    // weight raising; the weights differ, so bfq idles for each (`bfq_asymmetric_scenario`).
    let job = "[global]\ndirect=1\nsize=32m\nruntime=2\ntime_based\nrw=randread\nbs=4k\n\
               ioengine=libaio\niodepth=4\n[high]\nprio=0\n[low]\nprio=7\noffset=1g\n";
    let base = parse_args(
        &[HSQ, &["--ioscheduler=bfq", "--low_latency=0"]].concat(),
        Scenario::default(),
    )
    .unwrap();
    let r = run(&parse_jobfile(job, base).unwrap()).unwrap();
    let iops = |n: &str| r.jobs.iter().find(|j| j.name == n).unwrap().read.iops();
    assert!(
        iops("high") > 2.0 * iops("low"),
        "level 0 gets {:.0} IOPS, level 7 {:.0}",
        iops("high"),
        iops("low")
    );
}

#[test]
fn bfq_shares_the_device_by_cgroup_weight() {
    // fio's cgroup= and cgroup_weight=: the groups' io.bfq.weight, 1000 against 100.
    let job = "[global]\ndirect=1\nsize=32m\nruntime=2\ntime_based\nrw=randread\nbs=4k\n\
               ioengine=libaio\niodepth=4\n[fg]\ncgroup=fg\ncgroup_weight=1000\n\
               [bg]\ncgroup=bg\ncgroup_weight=100\noffset=1g\n";
    let base = parse_args(
        &[HSQ, &["--ioscheduler=bfq", "--low_latency=0"]].concat(),
        Scenario::default(),
    )
    .unwrap();
    let r = run(&parse_jobfile(job, base).unwrap()).unwrap();
    let iops = |n: &str| r.jobs.iter().find(|j| j.name == n).unwrap().read.iops();
    assert!(
        iops("fg") > 2.0 * iops("bg"),
        "weight 1000 gets {:.0} IOPS, weight 100 {:.0}",
        iops("fg"),
        iops("bg")
    );
    // mq-deadline reads no cgroup weight, and says so.
    let base = parse_args(
        &[HSQ, &["--ioscheduler=mq-deadline"]].concat(),
        Scenario::default(),
    )
    .unwrap();
    let w = warnings(&parse_jobfile(job, base).unwrap());
    assert!(
        w.iter()
            .any(|l| l.starts_with("cgroup_weight: no effect with ioscheduler=mq-deadline")),
        "{w:?}"
    );
}

#[test]
fn none_and_kyber_read_no_priority_and_say_so_once() {
    for sched in ["none", "kyber"] {
        let given = scenario(sched, "prioclass=1", &[]);
        let w = warnings(&given);
        let said: Vec<&String> = w.iter().filter(|l| l.contains("no effect")).collect();
        assert_eq!(said.len(), 1, "{sched}: one notice: {w:?}");
        assert!(
            said[0].starts_with("prioclass: no effect with ioscheduler=")
                && said[0].contains(sched),
            "{sched}: {}",
            said[0]
        );
        let (a, _) = reader_and_writer(sched, "prioclass=1", &[]);
        let (b, _) = reader_and_writer(sched, "", &[]);
        assert_eq!(a.clat.mean(), b.clat.mean(), "{sched}: the same run");
    }
    let w = warnings(&scenario("mq-deadline", "prioclass=1", &[]));
    assert!(
        w.iter().all(|l| !l.contains("prioclass")),
        "mq-deadline reads it: {w:?}"
    );
}

#[test]
fn best_effort_at_level_4_is_what_a_task_without_a_priority_gets() {
    // `ioprio_class_to_prio` files IOPRIO_CLASS_NONE as best effort; bfq gives it
    // `IOPRIO_NORM` (4): the figures of a run without priorities stay.
    for sched in ["mq-deadline", "bfq"] {
        let (a, aw) = reader_and_writer(sched, "prioclass=2\nprio=4", &[]);
        let (b, bw) = reader_and_writer(sched, "", &[]);
        assert_eq!(
            (a.clat.mean(), aw.clat.mean()),
            (b.clat.mean(), bw.clat.mean()),
            "{sched}"
        );
    }
}

#[test]
fn a_6_12_trace_prints_each_request_s_priority() {
    // block_rq_* text from 6.11 (aa6ff4eb7c10): `class,hint,level` of `rq->ioprio`.
    let args: Vec<&str> = vec![
        "--platform=qemu-sdhci-pci",
        "--kernel=6.12",
        "--ioscheduler=mq-deadline",
        "--name=fio",
        "--ioengine=psync",
        "--rw=randwrite",
        "--bs=4k",
        "--size=64k",
        "--prioclass=1",
        "--prio=2",
    ];
    let scn = parse_args(&args, Scenario::default()).unwrap();
    let mut text = String::new();
    mmcsim_engine::export::write_ftrace(&scn, 100_000, &mut text).unwrap();
    let issues: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("block_rq_issue:"))
        .collect();
    assert_eq!(issues.len(), 16);
    for l in issues {
        assert!(l.ends_with(" rt,0,2 [fio]"), "{l}");
    }
}

#[test]
fn mq_deadline_reads_a_command_s_priority_and_bfq_does_not() {
    // fio's cmdprio_percentage (libaio): that share of the reads carries cmdprio_class
    // (realtime unless given), and mq-deadline files each request by its own class
    // (`dd_rq_ioclass`); bfq reads the process's (`bfq_check_ioprio_change`) and says so.
    let reader = "ioengine=libaio\niodepth=1\ncmdprio_percentage=100";
    let (plain, _) = reader_and_writer("mq-deadline", "", &[]);
    let (cmd, _) = reader_and_writer("mq-deadline", reader, &[]);
    assert!(
        cmd.clat.mean() < 0.5 * plain.clat.mean(),
        "every read realtime: {:.2} ms against {:.2} ms",
        ms(cmd.clat.mean()),
        ms(plain.clat.mean())
    );
    let (half, _) = reader_and_writer("mq-deadline", "ioengine=libaio\ncmdprio_percentage=50", &[]);
    assert!(
        half.clat.mean() > cmd.clat.mean() && half.clat.mean() < plain.clat.mean(),
        "half of them: {:.2} ms",
        ms(half.clat.mean())
    );
    let w = warnings(&scenario("bfq", reader, &[]));
    assert!(
        w.iter()
            .any(|l| l.starts_with("cmdprio_percentage: no effect with ioscheduler=bfq")),
        "{w:?}"
    );
    let w = warnings(&scenario("mq-deadline", "cmdprio_percentage=100", &[]));
    assert!(
        w.iter()
            .any(|l| l.starts_with("cmdprio_percentage: no effect with ioengine=psync")),
        "{w:?}"
    );
}
