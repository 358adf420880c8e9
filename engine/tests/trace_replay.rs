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

/// `replay_events=queue`: the 128 bios fio queued (4 KiB each), not the 16 requests of 32 KiB
/// the kernel's plug merged them into; replayed one at a time, each is a request of its own.
#[test]
fn queue_events_replay_the_bios_instead() {
    let (_, log) = trace("sd-x_trace_seqwrite4k_qd8_batch-mq-deadline.txt");
    let bios = log.ops_of(iolog::ReplayEvents::Queue);
    assert_eq!(bios.len(), 128);
    assert!(bios
        .iter()
        .all(|o| o.kind == LogOpKind::Write && o.len == 4096));
    let (model, r) = replay(&log, &["--replay_events=queue"]);
    assert_eq!(r.jobs[0].write.total_ios, 128);
    assert_eq!(model, Sizes::from([("W 4096".to_string(), 128)]));
}
