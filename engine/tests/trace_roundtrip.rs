//! Round trip: a simulated run exported as ftrace text (`--trace_format=ftrace`) or as a
//! Perfetto trace (`--trace_format=perfetto`) and replayed with `read_iolog=` gives back the
//! same requests: the run's request count and sizes, its flushes and its discards, replayed from
//! the export's issue events on the same board.

use mmcsim_engine::scenario::iolog::{self, IoLogFormat};
use mmcsim_engine::scenario::{options::parse_args, Scenario};
use std::collections::BTreeMap;

/// Data requests by (direction, size), flushes, discards.
type Requests = (BTreeMap<(usize, u64), u64>, u64, u64);

fn requests(r: &mmcsim_engine::Report) -> Requests {
    let mut sizes = BTreeMap::new();
    for (dir, m) in r.sim.request_sizes.iter().enumerate() {
        for (len, n) in m {
            sizes.insert((dir, *len), *n);
        }
    }
    (sizes, r.sim.flushes, r.sim.discards)
}

fn scenario(args: &[String]) -> Scenario {
    parse_args(args, Scenario::default()).unwrap_or_else(|e| panic!("{args:?}: {e}"))
}

fn round_trip(board: &[&str], job: &[&str]) -> Requests {
    let board: Vec<String> = board.iter().map(|s| s.to_string()).collect();
    let mut a = board.clone();
    a.extend(job.iter().map(|s| s.to_string()));
    let scn = scenario(&a);
    let original = mmcsim_engine::run(&scn).unwrap();
    let mut text = String::new();
    let stats = mmcsim_engine::export::write_ftrace(&scn, 1_000_000, &mut text).unwrap();
    assert!(!stats.truncated, "{job:?}");
    let log = iolog::parse("run.trace", &text).unwrap_or_else(|e| panic!("{job:?}: {e}"));
    assert_eq!((log.format, log.dev), (IoLogFormat::Ftrace, Some((179, 0))));
    let mut b = board;
    b.extend([
        "--name=replay".to_string(),
        "--read_iolog=run.trace".to_string(),
    ]);
    let mut replay = scenario(&b);
    replay.attach_iolog(log);
    let replayed = mmcsim_engine::run(&replay).unwrap();
    assert_eq!(requests(&replayed), requests(&original), "{job:?}");
    requests(&original)
}

#[test]
fn an_exported_run_replays_with_the_same_requests() {
    let sd = [
        "--platform=qemu-sdhci-pci",
        "--blk_dispatch=kernel",
        "--ioscheduler=mq-deadline",
    ];
    // Batched sequential writes the plug merges into 32 KiB requests; 1 MiB reads the block
    // layer splits at max_sectors_kb.
    let merged = round_trip(
        &sd,
        &[
            "--name=t",
            "--rw=write",
            "--bs=4k",
            "--size=256k",
            "--ioengine=libaio",
            "--iodepth=8",
            "--iodepth_batch_submit=8",
            "--iodepth_batch_complete_min=8",
        ],
    );
    assert_eq!(merged.0, BTreeMap::from([((1, 32768), 8)]));
    let split = round_trip(&sd, &["--name=t", "--rw=read", "--bs=1m", "--size=4m"]);
    assert_eq!(split.0, BTreeMap::from([((0, 512 << 10), 8)]));
    let trims = round_trip(&sd, &["--name=t", "--rw=randtrim", "--bs=64k", "--size=1m"]);
    assert_eq!(trims.2, 16);
    // An eMMC with a volatile cache: fsync's flushes.
    let flushed = round_trip(
        &[],
        &[
            "--name=t",
            "--rw=randwrite",
            "--bs=4k",
            "--size=256k",
            "--fsync=4",
        ],
    );
    assert!(flushed.1 >= 15, "{flushed:?}");
}

/// A cut Perfetto file is refused with the byte offset of the packet that runs past the end.
#[test]
fn a_truncated_perfetto_trace_is_refused_with_its_offset() {
    let a: Vec<String> = ["--name=t", "--rw=randwrite", "--size=64k"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let mut bytes = Vec::new();
    mmcsim_engine::export::write_perfetto(&scenario(&a), 1_000_000, &mut bytes).unwrap();
    let cut = &bytes[..bytes.len() - 3];
    let e = iolog::parse_bytes("cut.pftrace", cut)
        .unwrap_err()
        .to_string();
    assert!(e.contains("cut.pftrace: byte offset "), "{e}");
    assert!(
        e.contains("truncated protobuf") && e.contains("expected a Perfetto protobuf trace"),
        "{e}"
    );
    let e = iolog::parse_bytes("bin", &[0xff, 0xfe, 0x00])
        .unwrap_err()
        .to_string();
    assert!(e.contains("bin: byte offset 0: binary data"), "{e}");
}

/// An ftrace or Perfetto export cut at its event cap says so, and replaying it is refused rather
/// than replaying part of the run.
#[test]
fn a_cut_ftrace_export_is_refused() {
    let a: Vec<String> = ["--name=t", "--rw=randwrite", "--size=256k"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let mut text = String::new();
    let stats = mmcsim_engine::export::write_ftrace(&scenario(&a), 50, &mut text).unwrap();
    assert!(stats.truncated);
    let e = iolog::parse("cut.trace", &text).unwrap_err().to_string();
    assert!(
        e.contains("mmcsim's export was cut at --trace_max_events"),
        "{e}"
    );
    let mut bytes = Vec::new();
    let stats = mmcsim_engine::export::write_perfetto(&scenario(&a), 50, &mut bytes).unwrap();
    assert!(stats.truncated);
    let e = iolog::parse_bytes("cut.pftrace", &bytes)
        .unwrap_err()
        .to_string();
    assert!(e.contains("an FtraceEventBundle with lost_events"), "{e}");
}
