//! Merging on every board, as a user sees it in fio's disk stats (`ios=`, `merge=`): 4 KiB
//! sequential writes at libaio iodepth 32 wait while the card is busy, and the waiting requests
//! take the bios that follow them (block/blk-merge.c, Linux 6.1).

use mmcsim_engine::scenario::options::parse_args;
use mmcsim_engine::{run, Scenario, PLATFORMS};

/// (write requests, write merges, MiB/s) of 16 MiB of 4 KiB sequential writes at `iodepth`.
fn seq_writes(platform: &str, iodepth: u32, extra: &[&str]) -> (u64, u64, f64) {
    let p = format!("--platform={platform}");
    let qd = format!("--iodepth={iodepth}");
    let mut args = vec![
        p.as_str(),
        "--name=w",
        "--rw=write",
        "--bs=4k",
        "--ioengine=libaio",
        qd.as_str(),
        "--direct=1",
        "--size=16m",
    ];
    args.extend_from_slice(extra);
    let s = parse_args(&args, Scenario::default()).unwrap();
    let r = run(&s).unwrap();
    (r.sim.ios[1], r.sim.merges[1], r.jobs[0].write.mib_s())
}

#[test]
fn sequential_writes_at_iodepth_32_merge_on_every_board_that_makes_them_wait() {
    for p in PLATFORMS {
        let (ios, merges, mib_s) = seq_writes(p.name, 32, &[]);
        if p.name == "qemu-sdhci-pci" {
            // The kernel under QEMU: the emulated card is never busy, the one request in flight
            // completes before the next arrives, and 1024 of 1024 stay 4 KiB (fixture job
            // c6_seqwrite4k_qd32, every scheduler).
            assert_eq!((ios, merges), (4096, 0), "{}", p.name);
            continue;
        }
        assert_eq!(
            ios + merges,
            4096,
            "{}: every bio is a request or a merge",
            p.name
        );
        // At least a quarter of the bios join a waiting request (the fewest: allwinner-hsq-2022,
        // 1781 of 4096, whose hsq takes most writes as they come).
        assert!(
            ios * 4 < 3 * 4096,
            "{}: {ios} requests for 4096 bios of 4 KiB ({merges} merges, {mib_s:.1} MiB/s)",
            p.name
        );
        let (_, none, one_mib_s) = seq_writes(p.name, 1, &[]);
        assert_eq!(
            none, 0,
            "{}: one I/O at a time leaves nothing to merge",
            p.name
        );
        assert!(
            mib_s > one_mib_s,
            "{}: merged writes {mib_s:.1} MiB/s, one at a time {one_mib_s:.1}",
            p.name
        );
    }
}

#[test]
fn nomerges_2_keeps_every_bio_a_request() {
    for p in ["sprd-hs400es-2020", "rpi5-sd-2024", "u300-mmci-2011"] {
        let (ios, merges, _) = seq_writes(p, 32, &["--nomerges=2"]);
        assert_eq!((ios, merges), (4096, 0), "{p}");
    }
}

#[test]
fn psync_jobs_of_the_2020_board_do_not_merge_into_each_other() {
    // The RFC's 20 psync jobs on one partition: its sequential 4 KiB writes (71.66 MiB/s) equal
    // its random ones (68.76) within 4 %, so the board's kernel merged almost none of them.
    let s = parse_args(
        &[
            "--platform=sprd-hs400es-2020",
            "--name=test",
            "--rw=write",
            "--bs=4k",
            "--numjobs=20",
            "--group_reporting",
            "--direct=1",
            "--size=1m",
        ],
        Scenario::default(),
    )
    .unwrap();
    let r = run(&s).unwrap();
    assert_eq!(r.sim.merges[1], 0, "{} requests", r.sim.ios[1]);
}
