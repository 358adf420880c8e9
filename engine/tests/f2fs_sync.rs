//! `fs=f2fs`: a synchronous write on a file of F2FS sends what Linux 6.1's `f2fs_do_sync_file`
//! sends (fs/f2fs/file.c, default `fsync_mode=posix`): the data write, the file's node block,
//! then an empty flush; no request carries REQ_FUA, so the host's FUA switch changes nothing
//! the card receives. On the raw device (`fs=raw`, fio's own case) an O_SYNC write carries
//! REQ_FUA: a reliable write with FUA on, a write + post-flush without.

use mmcsim_engine::scenario::options::parse_args;
use mmcsim_engine::{run, Report, Scenario, Stage};

/// AndroBench's random write on the 2022 board: one job, 4 KiB O_SYNC writes, 1024 of them.
fn sync_randwrite(fs: &str, fua: u32, extra: &[&str]) -> Report {
    let fs = format!("--fs={fs}");
    let fua = format!("--fua={fua}");
    let mut args = vec![
        "--platform=unisoc-fua-2022",
        &fua,
        "--name=w",
        "--rw=randwrite",
        "--bs=4k",
        "--size=4m",
        "--direct=1",
        &fs,
    ];
    args.extend_from_slice(extra);
    run(&parse_args(&args, Scenario::default()).unwrap()).unwrap()
}

#[test]
fn an_o_sync_write_on_f2fs_is_a_data_write_a_node_write_and_a_flush() {
    for fua in [0, 1] {
        let r = sync_randwrite("f2fs", fua, &["--sync=1"]);
        let ios = r.jobs[0].write.total_ios;
        assert_eq!(ios, 1024);
        assert_eq!(r.sim.ios[1], 2 * ios, "fua={fua}: data + node per I/O");
        assert_eq!(
            r.sim.flushes, ios,
            "fua={fua}: one flush (f2fs_issue_flush)"
        );
        assert_eq!(r.sim.post_flushes, 0, "fua={fua}: no REQ_FUA write");
        // Each write is 4 KiB: the node block is one F2FS block.
        assert_eq!(r.sim.request_sizes[1].get(&4096), Some(&(2 * ios)));
    }
}

#[test]
fn on_f2fs_the_fua_switch_changes_nothing_the_card_receives() {
    let off = sync_randwrite("f2fs", 0, &["--sync=1"]);
    let on = sync_randwrite("f2fs", 1, &["--sync=1"]);
    assert_eq!(off.sim.simulated_ns, on.sim.simulated_ns);
    assert_eq!(
        off.sim.stage(Stage::CardBusy),
        on.sim.stage(Stage::CardBusy)
    );
    assert_eq!(off.jobs[0].write.bw_bytes(), on.jobs[0].write.bw_bytes());
}

#[test]
fn on_the_raw_device_fua_turns_write_plus_post_flush_into_a_reliable_write() {
    let off = sync_randwrite("raw", 0, &["--sync=1"]);
    let on = sync_randwrite("raw", 1, &["--sync=1"]);
    let ios = off.jobs[0].write.total_ios;
    assert_eq!(off.sim.ios[1], ios, "one data write per I/O");
    assert_eq!(off.sim.post_flushes, ios, "FUA off: a post-flush per write");
    assert_eq!(
        off.sim.flushes,
        2 * ios,
        "post-flush + generic_write_sync's"
    );
    assert_eq!(on.sim.post_flushes, 0, "FUA on: reliable writes");
    assert_eq!(on.sim.flushes, ios, "generic_write_sync's empty flush only");
    // The reliable write holds the card busy for a NAND program.
    assert!(on.sim.stage(Stage::CardBusy) > 5 * off.sim.stage(Stage::CardBusy));
}

/// An atomic commit (`fs=f2fs-atomic`): the node write carries REQ_PREFLUSH | REQ_FUA. The
/// block layer flushes first, then sends it as a reliable write (FUA on) or as a write and a
/// post-flush (FUA off): FUA changes what the card receives, as on the raw device.
#[test]
fn an_atomic_commit_sends_the_node_write_with_preflush_and_fua() {
    let off = sync_randwrite("f2fs-atomic", 0, &["--sync=1"]);
    let on = sync_randwrite("f2fs-atomic", 1, &["--sync=1"]);
    let ios = off.jobs[0].write.total_ios;
    for r in [&off, &on] {
        assert_eq!(r.jobs[0].write.total_ios, ios);
        assert_eq!(r.sim.ios[1], 2 * ios, "data + node per I/O");
    }
    assert_eq!(off.sim.flushes, 2 * ios, "FUA off: pre-flush + post-flush");
    assert_eq!(off.sim.post_flushes, ios);
    assert_eq!(on.sim.flushes, ios, "FUA on: the pre-flush only");
    assert_eq!(on.sim.post_flushes, 0);
    // The reliable node write holds the card busy for a NAND program.
    assert!(on.sim.stage(Stage::CardBusy) > 5 * off.sim.stage(Stage::CardBusy));
    for fua in [0, 1] {
        let r = sync_randwrite(
            "f2fs-atomic",
            fua,
            &["--sync=1", "--size=64m", "--power_cut=50ms"],
        );
        let cut = r.power_cut.expect("the run is cut");
        assert!(cut.acked_writes > 100, "{cut:?}");
        assert_eq!(cut.lost_acked_writes, 0, "fua={fua}: {cut:?}");
    }
}

/// Concurrent commits share the flushes (blk-flush.c): 4 libaio writers at iodepth 4 need
/// fewer pre-flushes than node writes.
#[test]
fn concurrent_preflushes_are_shared() {
    let r = sync_randwrite(
        "f2fs-atomic",
        1,
        &[
            "--sync=1",
            "--ioengine=libaio",
            "--iodepth=4",
            "--numjobs=4",
        ],
    );
    let ios: u64 = r.jobs.iter().map(|j| j.write.total_ios).sum();
    assert_eq!(r.sim.ios[1], 2 * ios);
    assert!(
        r.sim.flushes < ios,
        "{} flushes for {ios} node writes",
        r.sim.flushes
    );
}

#[test]
fn an_fsync_on_f2fs_writes_the_node_block_before_its_flush() {
    let r = sync_randwrite("f2fs", 1, &["--fsync=4"]);
    let raw = sync_randwrite("raw", 1, &["--fsync=4"]);
    let ios = r.jobs[0].write.total_ios;
    assert_eq!(ios, 1024);
    // fio's fsync after every 4th write (the job ends after its last write: 255 of them).
    let fsyncs = raw.sim.flushes;
    assert!(fsyncs >= ios / 4 - 1, "{fsyncs}");
    assert_eq!(raw.sim.ios[1], ios, "raw: the fsync is a flush alone");
    assert_eq!(r.sim.flushes, fsyncs);
    assert_eq!(r.sim.ios[1], ios + fsyncs, "f2fs: a node write per fsync");
}

#[test]
fn f2fs_o_sync_writes_are_not_lost_at_a_power_cut() {
    for fua in [0, 1] {
        let r = sync_randwrite("f2fs", fua, &["--sync=1", "--size=64m", "--power_cut=50ms"]);
        let cut = r.power_cut.expect("the run is cut");
        assert!(cut.acked_writes > 100, "{cut:?}");
        assert_eq!(cut.lost_acked_writes, 0, "{cut:?}");
    }
}

#[test]
fn fs_is_one_option_of_the_table_with_a_clear_error() {
    let s = parse_args(&["--name=w", "--fs=f2fs"], Scenario::default()).unwrap();
    assert_eq!(s.jobs[0].fs, mmcsim_engine::scenario::SyncModel::F2fs);
    let e = parse_args(&["--name=w", "--fs=ext4"], Scenario::default()).unwrap_err();
    let e = e.to_string();
    assert!(
        e.contains("fs") && e.contains("raw, f2fs, f2fs-atomic"),
        "{e}"
    );
}
