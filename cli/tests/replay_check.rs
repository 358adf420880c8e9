//! Issue 47, part 4: a kernel trace's replay checks itself. The kernel oracle's Linux 6.1 ftrace
//! of fio's batched libaio writes (`oracle/fixtures/traces/`) replayed on the board that is that
//! machine: the trace's own issue-to-complete beside the model's, the pace line, the JSON's
//! `replay_check`, the warnings for another device or kernel, and its plugs reproducing the
//! kernel's merges from queue events with no other option.

mod common;

use common::{mmcsim, ok_stdout};

const TRACES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../oracle/fixtures");

fn trace(rel: &str) -> String {
    format!("--read_iolog={TRACES}/{rel}")
}

const BATCH: &str = "traces/sd-x_trace_seqwrite4k_qd8_batch-mq-deadline.txt";

fn run(extra: &[&str]) -> String {
    let t = trace(BATCH);
    let mut a = vec![
        "--platform=qemu-sdhci-pci",
        "--ioscheduler=mq-deadline",
        "--name=replay",
        &t,
    ];
    a.extend(extra);
    ok_stdout(&a)
}

#[test]
fn the_trace_s_own_latency_is_beside_the_model_s() {
    let out = run(&[]);
    assert!(
        out.contains("  replay: issue-to-complete: trace p50=4882us p99=26323us (16 requests), model p50=221us p99=221us (16 requests); model clat p50=286us p99=286us\n"),
        "{out}"
    );
    // 16 requests of about 100 us each in a 96 ms run: the trace's issue times set the pace.
    assert!(
        out.contains("  replay: throughput here is the trace's pace: the device was idle 96.2 % of the time\n"),
        "{out}"
    );
    let fast = run(&["--replay_no_stall=1"]);
    assert!(fast.contains("replay: issue-to-complete:"), "{fast}");
    assert!(!fast.contains("the trace's pace"), "{fast}");
}

#[test]
fn the_json_has_a_replay_check_only_for_a_kernel_trace_with_completions() {
    let json = run(&["--output-format=json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let c = &v["jobs"][0]["mmcsim"]["replay_check"];
    assert_eq!(c["trace_d2c"]["requests"], 16, "{json}");
    assert_eq!(c["trace_d2c"]["p99_ns"], 26_323_000, "{json}");
    assert_eq!(c["model_d2c"]["requests"], 16, "{json}");
    assert_eq!(c["paced"], true, "{json}");
    // A fio iolog has no completions: no object, as before.
    let iolog = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/jobs/traces/sample.v3.iolog"
    );
    let json = ok_stdout(&[
        "--name=t",
        &format!("--read_iolog={iolog}"),
        "--output-format=json",
    ]);
    assert!(!json.contains("replay_check"), "{json}");
}

#[test]
fn another_device_or_kernel_is_warned() {
    let t = trace("linux-6.12/traces/virtio-x_trace_seqwrite4k_qd8_batch-mq-deadline.txt");
    let out = mmcsim(&["--platform=qemu-sdhci-pci", "--kernel=6.1", "--name=r", &t]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("is a trace of device 254,0, not an MMC card (mmc_blk's major is 179"),
        "{err}"
    );
    assert!(err.contains("was recorded on Linux 6.12.117+deb13-amd64; the board runs Linux 6.1 (kernel=6.12 replays it under the trace's kernel)"), "{err}");
    let t = trace(BATCH);
    let out = mmcsim(&["--platform=qemu-sdhci-pci", "--kernel=6.1", "--name=r", &t]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("read_iolog:"), "{err}");
}

/// The kernel merged the 128 bios into 16 requests in its plugs (112 back merges: the fixture's
/// stable `merges_back`); queue events replayed with their plugs do the same, with no
/// `--iodepth_batch_submit` (before: `ios=0/128, merge=0/0`).
#[test]
fn queue_events_merge_in_the_trace_s_plugs() {
    let out = run(&["--replay_events=queue"]);
    assert!(out.contains("  mmcblk0: ios=0/16, merge=0/112,"), "{out}");
}
