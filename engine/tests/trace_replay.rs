//! A real kernel's trace replayed through the model: the kernel oracle's ftrace of fio jobs
//! (`oracle/fixtures/traces/`: Linux 6.1 under QEMU, an SD card on sdhci-pci and a virtio-blk
//! disk, mq-deadline, one vCPU) read by `read_iolog=` and replayed on the board that is that
//! machine (`qemu-sdhci-pci`) gives back the requests the kernel issued: their count and sizes,
//! as the trace's own `block_rq_issue` events and the oracle's fixture (`sd-1cpu.json`) count them.

use mmcsim_engine::scenario::iolog::{self, IoLogFormat, LogOpKind};
use mmcsim_engine::scenario::{options::parse_args, Scenario};
use std::collections::BTreeMap;

const TRACES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../oracle/fixtures/traces");

/// Requests by "OP SIZE", as the oracle's fixtures write them.
type Sizes = BTreeMap<String, u64>;

fn trace(file: &str) -> (String, iolog::IoLog) {
    let text =
        std::fs::read_to_string(format!("{TRACES}/{file}")).expect("the oracle's kept trace");
    let log = iolog::parse(file, &text).unwrap_or_else(|e| panic!("{e}"));
    (text, log)
}

/// The trace's own issue events, counted as the oracle's reducer counts requests (every
/// `block_rq_issue` but zero-length flushes).
fn issued(text: &str) -> Sizes {
    let mut sizes = Sizes::new();
    for l in text.lines().filter(|l| l.contains(" block_rq_issue: ")) {
        let f: Vec<&str> = l
            .split(" block_rq_issue: ")
            .nth(1)
            .unwrap()
            .split_whitespace()
            .collect();
        let bytes: u64 = f[2].parse().unwrap();
        if bytes > 0 {
            *sizes.entry(format!("{} {bytes}", &f[1][..1])).or_default() += 1;
        }
    }
    sizes
}

/// The model's requests replaying `log` on qemu-sdhci-pci under mq-deadline.
fn replay(log: &iolog::IoLog, extra: &[&str]) -> (Sizes, mmcsim_engine::Report) {
    let mut a: Vec<String> = [
        "--platform=qemu-sdhci-pci",
        "--ioscheduler=mq-deadline",
        "--blk_dispatch=kernel",
        "--name=replay",
        "--direct=1",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    a.push(format!("--read_iolog={}", log.name));
    a.extend(extra.iter().map(|s| s.to_string()));
    let mut scn = parse_args(&a, Scenario::default()).unwrap();
    scn.attach_iolog(log.clone());
    let r = mmcsim_engine::run(&scn).unwrap_or_else(|e| panic!("{}: {e}", log.name));
    let mut sizes = Sizes::new();
    for (dir, tag) in [(0, "R"), (1, "W")] {
        for (len, n) in &r.sim.request_sizes[dir] {
            sizes.insert(format!("{tag} {len}"), *n);
        }
    }
    (sizes, r)
}

/// The fixture's stable fact `fact` of `job` under mq-deadline.
fn fixture_fact(job: &str, fact: &str) -> u64 {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../oracle/fixtures/sd-1cpu.json"
    );
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let j = v["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|j| j["name"] == job && j["sched"] == "mq-deadline")
        .unwrap();
    assert!(
        j["stable"].as_array().unwrap().iter().any(|s| s == fact),
        "{job} {fact}"
    );
    j["facts"][fact].as_u64().unwrap()
}

/// The fixture's stable `requests` and `request_sizes` of `job` under mq-deadline.
fn fixture(job: &str) -> (u64, Sizes) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../oracle/fixtures/sd-1cpu.json"
    );
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let j = v["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|j| j["name"] == job && j["sched"] == "mq-deadline")
        .unwrap();
    let stable: Vec<&str> = j["stable"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| s.as_str())
        .collect();
    assert!(
        stable.contains(&"requests") && stable.contains(&"request_sizes"),
        "{job}"
    );
    let sizes = j["facts"]["request_sizes"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, n)| (k.clone(), n.as_u64().unwrap()))
        .collect();
    (j["facts"]["requests"].as_u64().unwrap(), sizes)
}

#[test]
fn the_kernels_sd_trace_replays_with_the_same_requests() {
    for (file, job) in [
        (
            "sd-x_trace_randwrite4k-mq-deadline.txt",
            "x_trace_randwrite4k",
        ),
        (
            "sd-x_trace_seqwrite4k_qd8_batch-mq-deadline.txt",
            "x_trace_seqwrite4k_qd8_batch",
        ),
    ] {
        let (text, log) = trace(file);
        assert_eq!(
            (log.format, log.dev),
            (IoLogFormat::Ftrace, Some((179, 0))),
            "{file}"
        );
        let (requests, sizes) = fixture(job);
        assert_eq!(
            issued(&text),
            sizes,
            "{file}: the trace is the fixture's job"
        );
        let (model, r) = replay(&log, &[]);
        assert_eq!(
            model, sizes,
            "{file}: the model's requests replaying the kernel's"
        );
        assert_eq!(model.values().sum::<u64>(), requests, "{file}");
        assert_eq!(r.sim.flushes + r.sim.discards, 0, "{file}");
    }
}

#[test]
fn the_kernels_virtio_trace_replays_with_the_same_requests() {
    for file in [
        "virtio-x_trace_randwrite4k-mq-deadline.txt",
        "virtio-x_trace_seqwrite4k_qd8_batch-mq-deadline.txt",
    ] {
        let (text, log) = trace(file);
        assert_eq!(log.dev, Some((254, 0)), "{file}");
        assert_eq!(replay(&log, &[]).0, issued(&text), "{file}");
    }
}

/// `replay_events=queue`: the 128 bios fio queued (4 KiB each), 8 to each `io_submit`; the
/// trace's `block_plug` / `block_unplug` bracket each batch, and the replay submits each as one
/// plug, so the model merges them as the kernel did (16 requests of 32 KiB, 112 back merges: the
/// fixture's stable `requests` and `merges_back`) with no `iodepth_batch_submit` (before the
/// plugs were read: 128 requests of 4 KiB, no merge).
#[test]
fn queue_events_replay_the_kernels_plugs() {
    let (_, log) = trace("sd-x_trace_seqwrite4k_qd8_batch-mq-deadline.txt");
    let bios = log.ops_of(iolog::ReplayEvents::Queue);
    assert_eq!(bios.len(), 128);
    assert!(bios
        .iter()
        .all(|o| o.kind == LogOpKind::Write && o.len == 4096));
    assert_eq!(log.meta.plugs, 16);
    let (model, r) = replay(&log, &["--replay_events=queue"]);
    let (requests, sizes) = fixture("x_trace_seqwrite4k_qd8_batch");
    assert_eq!(r.jobs[0].write.total_ios, 128);
    assert_eq!(model, sizes);
    assert_eq!(model.values().sum::<u64>(), requests);
    assert_eq!(
        r.sim.merges,
        [
            0,
            fixture_fact("x_trace_seqwrite4k_qd8_batch", "merges_back")
        ]
    );
}

/// Every kept trace of both kernels (6.1 and 6.12, SD card and virtio-blk): its queue events,
/// replayed with its plugs, give the requests its issue events name and as many merges as it
/// has `block_bio_backmerge` events.
#[test]
fn every_kept_trace_replays_its_queue_events_to_its_requests() {
    for dir in ["", "../linux-6.12/traces/"] {
        for file in [
            "sd-x_trace_randwrite4k-mq-deadline.txt",
            "sd-x_trace_seqwrite4k_qd8_batch-mq-deadline.txt",
            "virtio-x_trace_randwrite4k-mq-deadline.txt",
            "virtio-x_trace_seqwrite4k_qd8_batch-mq-deadline.txt",
        ] {
            let (text, log) = trace(&format!("{dir}{file}"));
            let kernel = if dir.is_empty() { "6.1" } else { "6.12" };
            let (model, r) = replay(
                &log,
                &["--replay_events=queue", &format!("--kernel={kernel}")],
            );
            assert_eq!(model, issued(&text), "{dir}{file}");
            let merges = text.matches(" block_bio_backmerge: ").count() as u64;
            assert_eq!(r.sim.merges[1], merges, "{dir}{file}");
        }
    }
}

/// The trace's own issue-to-complete times (its `block_rq_issue` .. `block_rq_complete` pairs)
/// and the kernel its header names are read with it.
#[test]
fn a_kernel_trace_carries_its_own_latency_and_kernel() {
    let (text, log) = trace("sd-x_trace_seqwrite4k_qd8_batch-mq-deadline.txt");
    let d2c = log.meta.d2c.expect("the trace has completions");
    assert_eq!(d2c.requests, 16);
    assert_eq!(log.meta.kernel.as_deref(), Some("6.1.0-57-amd64"));
    // The first request: issued at 217.407553, completed at 217.415270 (7717 us).
    assert!(
        text.contains("217.407553: block_rq_issue")
            && text.contains("217.415270: block_rq_complete")
    );
    // The 16 pairs, sorted by hand: the 8th is 4866 us, the largest 26323 us, the mean 6989.875
    // us; the percentiles come from fio's histogram (its buckets are within 1.6 %).
    let near = |got: u64, want: u64| got.abs_diff(want) * 1000 <= want * 16;
    assert!(near(d2c.p50_ns, 4_866_000), "{d2c:?}");
    assert!(near(d2c.p99_ns, 26_323_000), "{d2c:?}");
    assert_eq!(d2c.mean_ns, 6_989_875);
    let (_, log12) = trace("../linux-6.12/traces/sd-x_trace_randwrite4k-mq-deadline.txt");
    assert_eq!(log12.meta.d2c.map(|d| d.requests), Some(64));
    assert!(log12
        .meta
        .kernel
        .as_deref()
        .is_some_and(|k| k.starts_with("6.12.")));
}
