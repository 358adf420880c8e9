//! The model against the kernel. The kernel oracle (`oracle/`, `make oracle`) booted Linux
//! 6.1 under QEMU with an emulated SDHCI host and SD card and ran fio jobs under each of the
//! four schedulers, recording the request stream with ftrace; its reduced facts are the
//! fixtures in `oracle/fixtures/`. Here every job runs through the model on the board that is
//! that machine (`qemu-sdhci-pci`, the kernel's dispatch rules) with the scheduler the kernel
//! ran, and the logical stream is compared: requests and their sizes, merges, requeues, flush
//! requests, who issued them, CMD13 polls, interrupts, splits.
//!
//! Only facts the fixture marks stable are compared (the same in every boot with one vCPU);
//! the rest depend on the emulator's timing. A fact the model gets differently is either right
//! or listed in [`KNOWN`] with the reason; a listed difference that disappears fails too, so
//! the list stays true. The flush jobs also ran on a virtio-blk disk with a write-back cache
//! (QEMU's SD card has no cache); the model stands that in with the same board and the card's
//! cache on (a volatile write cache, no FUA: the queue the flush machine sees).

use mmcsim_engine::scenario::{options::parse_args, Scenario};
use serde_json::Value;
use std::collections::BTreeMap;

/// Differences between model and kernel that are known, with why: (jobs, schedulers ("*":
/// all), facts, reason).
const KNOWN: &[(&[&str], &str, &[&str], &str)] = &[
    (&["t_trim64k", "t2_randtrim4k"], "*", &["host_irqs"],
        "the kernel sends a discard as three mmc commands (CMD32, CMD33, CMD38), each with its interrupt; the model's discard is one request with one interrupt"),
    (&["f_read1m", "f2_read512k", "f3_read2m", "b3_write512k"], "*", &["host_irqs"],
        "QEMU's SDHCI raises more than one interrupt for a 512 KiB transfer (the kernel counted 2-3 per request); the model's controller raises one per request"),
    (&["c3_randwrite4k_qd8", "c4_randwrite4k_qd8_batch", "e3_randread4k_qd8", "g2_randwrite4k_8jobs", "m_randrw4k_70r_qd8"], "*",
        &["requests", "request_sizes", "merges", "issue_ctx", "cmd13_after_write", "host_irqs"],
        "random offsets are fio's generator (tausworthe, seeded by randseed), not the model's: which neighbours meet, hence merges, differ"),
    (&["g2_randwrite4k_8jobs", "h_seqwrite4k_qd8_4jobs"], "*",
        &["requests", "request_sizes", "merges", "issue_ctx", "cmd13_after_write", "host_irqs", "requeues", "flushes"],
        "several fio threads on one vCPU take turns with kblockd; the model runs them side by side (it does not share a CPU's time), so they meet in the queues and merge"),
    (&["c_seqwrite4k_qd8", "c6_seqwrite4k_qd32"], "bfq", &["requests", "request_sizes", "merges", "issue_ctx", "cmd13_after_write", "host_irqs"],
        "the model's bfq idles for the sequential writer once it has found the legacy path does not queue (hw_tag 0), and requests gather behind it; on one vCPU the kernel's never waited"),
    (&["b4_write2m"], "none", &["requeues"],
        "a 2 MiB psync write in four parts, the first three issued by fio as the plug fills (BLK_PLUG_FLUSH_SIZE): the model's kblockd run for the fourth meets fio's context in queue_rq (16 requeues); on one vCPU the kernel's never met"),
    (&["d10_seqwrite4k_qd8_batch_fsync8"], "*", &["requests", "merges"],
        "fsync=8 inside batches of 8: the model cuts the batch when the fsync comes due; fio submits the 8 and then syncs"),
];

/// What the model did, in the fixture's terms.
#[derive(Debug, Default)]
struct Facts(BTreeMap<&'static str, Value>);

fn model(args: &str, sched: &str, cache: bool, kernel: &str, wanted: &[&str]) -> Facts {
    let mut a: Vec<String> = vec![
        "--platform=qemu-sdhci-pci".into(),
        format!("--kernel={kernel}"),
        format!("--ioscheduler={sched}"),
        "--blk_dispatch=kernel".into(),
        format!("--cache={}", u8::from(cache)),
        "--name=oracle".into(),
        "--direct=1".into(),
    ];
    a.extend(args.split_whitespace().map(String::from));
    let scn = parse_args(&a, Scenario::default()).unwrap_or_else(|e| panic!("{args}: {e}"));
    let r = mmcsim_engine::run(&scn).unwrap_or_else(|e| panic!("{args}: {e}"));
    let s = r.sim;
    let mut sizes = serde_json::Map::new();
    for (dir, tag) in [(0, "R"), (1, "W")] {
        for (len, n) in &s.request_sizes[dir] {
            sizes.insert(format!("{tag} {len}"), Value::from(*n));
        }
    }
    let mut ctx = serde_json::Map::new();
    if s.issued_by_kblockd > 0 {
        ctx.insert("kworker-H".into(), s.issued_by_kblockd.into());
    }
    if s.issued_direct > 0 {
        ctx.insert("fio".into(), s.issued_direct.into());
    }
    let mut f = BTreeMap::new();
    f.insert("requests", Value::from(s.ios[0] + s.ios[1] + s.discards));
    f.insert("merges", Value::from(s.merges[0] + s.merges[1]));
    f.insert("requeues", Value::from(s.requeues));
    f.insert("flushes", Value::from(s.flushes));
    f.insert("issue_ctx", Value::Object(ctx));
    f.insert("cmd13_after_write", Value::from(s.busy_polls));
    f.insert("host_irqs", Value::from(s.interrupts));
    f.insert("splits", Value::from(s.split_requests - s.split_ios));
    if s.discards == 0 {
        f.insert("request_sizes", Value::Object(sizes));
    }
    // From 6.11 `block_rq_issue` prints each request's priority (`class,hint,level`): counted
    // from the model's own ftrace text, as `oracle/reduce.py` counts the kernel's.
    if kernel != "6.1" && wanted.contains(&"issue_ioprio") {
        f.insert("issue_ioprio", issue_ioprio(&scn));
    }
    Facts(f)
}

/// The priorities of the issued requests, from the model's ftrace text of the same run.
fn issue_ioprio(scn: &Scenario) -> Value {
    let mut text = String::new();
    mmcsim_engine::export::write_ftrace(scn, 1_000_000, &mut text).expect("ftrace text");
    let mut counts = serde_json::Map::new();
    for line in text.lines() {
        let Some((_, rest)) = line.split_once("block_rq_issue: ") else {
            continue;
        };
        // "179,0 WS 4096 () 488 + 8 be,0,4 [fio]": the field before the task.
        let prio = rest.rsplit_once(" [").map(|(head, _)| head);
        if let Some(p) = prio.and_then(|h| h.rsplit(' ').next()) {
            if p.contains(',') {
                let n = counts.entry(p.to_string()).or_insert(Value::from(0u64));
                *n = Value::from(n.as_u64().unwrap_or(0) + 1);
            }
        }
    }
    Value::Object(counts)
}

/// The kernel's fact of that name (merges summed over bio and request merges; data request
/// sizes only), if the fixture holds it stable.
fn kernel(job: &Value, fact: &str) -> Option<Value> {
    let stable = |n: &str| {
        job["stable"]
            .as_array()
            .is_some_and(|a| a.iter().any(|x| x == n))
    };
    let facts = &job["facts"];
    match fact {
        "merges" => {
            let parts = ["merges_back", "merges_front", "rq_merges"];
            parts.iter().all(|p| stable(p)).then(|| {
                Value::from(
                    parts
                        .iter()
                        .map(|p| facts[p].as_u64().unwrap_or(0))
                        .sum::<u64>(),
                )
            })
        }
        "issue_ctx" => stable(fact).then(|| {
            // The kernel's kworker names vary (kworker/0:1H, kworker/u2:0): one name each kind.
            let mut m = serde_json::Map::new();
            for (k, v) in facts[fact].as_object().into_iter().flatten() {
                let key = if k.starts_with("kworker") {
                    "kworker-H"
                } else {
                    "fio"
                };
                let n = m.get(key).and_then(Value::as_u64).unwrap_or(0) + v.as_u64().unwrap_or(0);
                m.insert(key.to_string(), n.into());
            }
            Value::Object(m)
        }),
        _ => stable(fact).then(|| facts[fact].clone()),
    }
}

fn known(job: &str, sched: &str, fact: &str) -> Option<&'static str> {
    KNOWN
        .iter()
        .find(|(j, s, f, _)| j.contains(&job) && (*s == "*" || *s == sched) && f.contains(&fact))
        .map(|k| k.3)
}

/// Runs every job of `fixture` and compares `facts`; returns (rows of the table, failures).
fn compare(fixture: &str, cache: bool, facts: &[&str]) -> (Vec<String>, Vec<String>) {
    let path = format!(
        "{}/../oracle/fixtures/{fixture}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let fx: Value = serde_json::from_str(&text).expect("a fixture is JSON");
    // The kernel the fixture was recorded on (the 6.1 fixtures name none): the model runs its
    // rules (`--kernel=`).
    let version = fx["kernel"]["version"].as_str().unwrap_or("6.1");
    let known = |job: &str, sched: &str, fact: &str| match version {
        "6.1" => known(job, sched, fact),
        _ if fixture.contains("virtio") => known_612_virtio(job, sched, fact),
        _ => known_612(job, sched, fact),
    };
    let (mut rows, mut bad) = (Vec::new(), Vec::new());
    // A listed job that no longer differs in any listed fact, under any scheduler, is no
    // longer a known difference.
    let (mut listed_and_equal, mut still_differs) = (Vec::new(), Vec::new());
    for job in fx["jobs"].as_array().expect("jobs") {
        let (name, sched) = (
            job["name"].as_str().unwrap(),
            job["sched"].as_str().unwrap(),
        );
        let args = job["args"].as_str().unwrap();
        let m = model(args, sched, cache, version, facts);
        for &fact in facts {
            let (Some(k), Some(v)) = (kernel(job, fact), m.0.get(fact)) else {
                continue;
            };
            let same = &k == v;
            rows.push(format!(
                "{name:34} {sched:12} {fact:18} kernel {k} model {v}"
            ));
            match (same, known(name, sched, fact)) {
                (true, Some(_)) => listed_and_equal.push(name),
                (false, Some(_)) => still_differs.push(name),
                (false, None) => bad.push(format!(
                    "{fixture} {name} [{sched}] {fact}: kernel {k}, model {v} ({args})"
                )),
                _ => {}
            }
        }
    }
    listed_and_equal.sort_unstable();
    listed_and_equal.dedup();
    for name in listed_and_equal {
        if !still_differs.contains(&name) {
            bad.push(format!(
                "{name}: listed in KNOWN but the model now agrees: remove it"
            ));
        }
    }
    (rows, bad)
}

/// The facts the SD card suites compare, under either kernel's rules.
const SD_FACTS: [&str; 9] = [
    "requests",
    "request_sizes",
    "merges",
    "requeues",
    "flushes",
    "issue_ctx",
    "cmd13_after_write",
    "host_irqs",
    "splits",
];

/// Prints the compared facts and fails on any difference, or when fewer than `more_than`
/// facts were compared (a fixture that lost its jobs must not pass by comparing nothing).
fn agrees(rows: Vec<String>, bad: Vec<String>, more_than: usize) {
    println!("{}", rows.join("\n"));
    assert!(rows.len() > more_than, "only {} facts compared", rows.len());
    assert!(
        bad.is_empty(),
        "{} differences:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn the_sd_card_jobs_give_the_kernel_s_request_stream() {
    let (rows, bad) = compare("sd-1cpu.json", false, &SD_FACTS);
    agrees(rows, bad, 600);
}

#[test]
fn the_flush_jobs_share_flushes_as_the_kernel_does() {
    let (rows, bad) = compare("virtio-1cpu.json", true, &["requests", "merges", "flushes"]);
    agrees(rows, bad, 60);
}

/// Known differences under Linux 6.12's rules (its fixtures in `oracle/fixtures/linux-6.12/`),
/// as [`KNOWN`] for 6.1's.
const KNOWN_612: &[(&[&str], &str, &[&str], &str)] = &[
    (&["c3_randwrite4k_qd8", "c4_randwrite4k_qd8_batch", "c7_randwrite4k_qd8_uring", "e3_randread4k_qd8", "g2_randwrite4k_8jobs", "m_randrw4k_70r_qd8"], "*",
        &["requests", "request_sizes", "merges", "issue_ctx", "cmd13_after_write", "host_irqs"],
        "random offsets (and randrw's mix) are fio's generator, not the model's: which neighbours meet, hence merges, differ (as under 6.1)"),
    (&["p4_randread4k_qd8_cmdidle", "p5_randwrite4k_qd8_cmdrt"], "bfq", &["requests", "merges", "issue_ctx", "issue_ioprio"],
        "random offsets are fio's generator, not the model's, and the model's bfq holds a lone queue's requests while it idles for it: two to four of the model's neighbours meet and merge (the priority each request carries agrees)"),
    (&["f_read1m", "f2_read512k", "f3_read2m", "b3_write512k", "b4_write2m"], "*", &["host_irqs"],
        "QEMU's SDHCI raises more than one interrupt for a 512 KiB transfer; the model's controller one per request (as under 6.1)"),
    (&["d10_seqwrite4k_qd8_batch_fsync8"], "*", &["requests", "merges", "issue_ctx"],
        "fsync=8 inside batches of 8: the model cuts the batch when the fsync comes due; fio submits the 8 and then syncs (as under 6.1)"),
    (&["b_write1m", "b4_write2m", "f3_read2m"], "*", &["issue_ctx", "requeues", "merges"],
        "a split I/O: 6.12's __submit_bio plugs each part as it resubmits it and, under kyber and bfq, the kernel's second part waited for kblockd's run; the model's parts share one plug (kernel_rules.rs)"),
    (&["c_seqwrite4k_qd8", "c3_randwrite4k_qd8", "c6_seqwrite4k_qd32", "c7_randwrite4k_qd8_uring", "c8_seqwrite64k_qd4", "e3_randread4k_qd8", "m_randrw4k_70r_qd8"], "bfq",
        &["requests", "request_sizes", "merges", "requeues", "issue_ctx", "cmd13_after_write", "host_irqs"],
        BFQ_612),
    (&["d3_randwrite4k_osync_qd8"], "bfq", &["requeues"], BFQ_612),
    (&["t_trim64k", "t2_randtrim4k"], "*", &["host_irqs"],
        "the kernel sends a discard as three mmc commands (CMD32, CMD33, CMD38), each with its interrupt; the model's discard is one request with one interrupt (as under 6.1)"),
];

const BFQ_612: &str = "under bfq fio's own run of the queue meets kblockd's (the completion's re-run, asleep in the legacy path's queue_rq) and is refused (mq->busy); the model runs them side by side, the kernel's one vCPU under TCG never let them meet";

/// The flush suite's own (a write-back cache: the flush machine at work).
const KNOWN_612_VIRTIO: &[(&[&str], &str, &[&str], &str)] = &[
    (&["d1_randwrite4k_osync", "d9_randwrite4k_odsync"], "bfq", &["issue_ctx"],
        "under bfq the model keeps 6.1's flush path for an O_SYNC write's data (blk_flush.rs: its bfq has no event to end the stall 6.5's path meets), so kblockd issues the data 6.12's fio did"),
];

fn known_612_virtio(job: &str, sched: &str, fact: &str) -> Option<&'static str> {
    KNOWN_612_VIRTIO
        .iter()
        .find(|(j, s, f, _)| j.contains(&job) && (*s == "*" || *s == sched) && f.contains(&fact))
        .map(|k| k.3)
        .or_else(|| known_612(job, sched, fact))
}

fn known_612(job: &str, sched: &str, fact: &str) -> Option<&'static str> {
    KNOWN_612
        .iter()
        .find(|(j, s, f, _)| j.contains(&job) && (*s == "*" || *s == sched) && f.contains(&fact))
        .map(|k| k.3)
}

#[test]
fn under_6_12_s_rules_the_sd_card_jobs_give_6_12_s_request_stream() {
    let (rows, bad) = compare("linux-6.12/sd-1cpu.json", false, &SD_FACTS);
    agrees(rows, bad, 500);
}

#[test]
fn under_6_12_s_rules_the_flush_jobs_share_flushes_as_6_12_does() {
    let (rows, bad) = compare(
        "linux-6.12/virtio-1cpu.json",
        true,
        &["requests", "merges", "flushes", "issue_ctx"],
    );
    agrees(rows, bad, 60);
}

/// fio's priority options become the priority each request carries, as Linux 6.12 prints it
/// in `block_rq_issue` (6.11's aa6ff4eb7c10): the thread's (`prioclass=`, `prio=`: fio's
/// `ioprio_set`, `bio_set_ioprio` from `get_current_ioprio`), or a command's own
/// (`cmdprio_*`: the iocb's `aio_reqprio`), and a thread without one at best effort 4.
#[test]
fn under_6_12_s_rules_fio_s_priorities_reach_the_requests_as_in_6_12() {
    let (rows, bad) = compare(
        "linux-6.12/prio-1cpu.json",
        false,
        &["requests", "merges", "issue_ctx", "issue_ioprio"],
    );
    agrees(rows, bad, 50);
}
