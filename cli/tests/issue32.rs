//! Regression tests for issue 32 on the command line ("Bounds that hold for every input"):
//! every source of requests is bounded alike, `--merge` checks what it merges, and the smaller
//! refusals. Outputs against inputs are `outputs.rs`.

mod common;

use common::{bad, scratch};

/// A fio iolog v2 of `n` writes of `len` bytes each, one after the other.
fn iolog(n: u64, len: u64) -> String {
    let mut t = String::from("fio version 2 iolog\n/dev/mmcblk0 add\n/dev/mmcblk0 open\n");
    for i in 0..n {
        t.push_str(&format!("/dev/mmcblk0 write {} {len}\n", i * len));
    }
    t + "/dev/mmcblk0 close\n"
}

/// Item 1: a replayed trace's op lengths count as `bs` does. 19 writes of 256 MiB in 512-byte
/// requests took 1.6 GB and 8 s of CPU; refused as `--bs=256m` is, keyed by what makes them many.
#[test]
fn item1_a_replayed_traces_ops_count_their_requests_outstanding() {
    let dir = scratch("mmcsim-i32-trace");
    let big = dir.join("big.log");
    std::fs::write(&big, iolog(19, 256 << 20)).unwrap();
    let log = format!("--read_iolog={}", big.to_string_lossy());
    let split = ["--name=r", &log, "--max_req_kib=0.5"];
    bad(
        &[&split[..], &["--ioengine=libaio", "--iodepth=32"]].concat(),
        "iodepth: 16777216 requests outstanding",
    );
    // One op at a time is still 524 288 requests at once: keyed read_iolog, not iodepth.
    bad(&split, "read_iolog: 524288 requests outstanding");
    bad(
        &[&split[..], &["--numjobs=19"]].concat(),
        "lower numjobs, replay a trace of smaller I/Os",
    );
    // The same trace in 512 KiB requests is accepted (the bound is on requests, not bytes).
    let small = dir.join("small.log");
    std::fs::write(&small, iolog(4, 4 << 20)).unwrap();
    let log = format!("--read_iolog={}", small.to_string_lossy());
    common::ok_stdout(&["--name=r", &log, "--ioengine=libaio", "--iodepth=4"]);
    std::fs::remove_dir_all(&dir).unwrap();
}
