//! The legacy path's CMD13 polling after a write, by the board's kernel version
//! (drivers/mmc/core/block.c `mmc_blk_card_busy`): up to Linux 5.14 `card_busy_detect` sends
//! CMD13 back to back; since 5.15 `__mmc_poll_for_busy` sleeps 32-64 us after the first busy
//! answer, doubling each time. Read from the bus timeline: every CMD13 is a command segment
//! under the write's id after its own CMD23 + CMD25.

use std::collections::BTreeMap;

use mmcsim_engine::scenario::options::parse_args;
use mmcsim_engine::{Scenario, Segment, SegmentKind, Simulator};

/// One psync job of 4 KiB random writes on the 2020 board's legacy path (a card that commits
/// each random write for ~56 us after it releases DAT0), on kernel `kernel`; host software
/// times fixed (no spread, no preemption), so each wake-up is the preset's 19 us.
fn run(kernel: &str) -> (Vec<Segment>, u64, u64) {
    let args: Vec<String> = [
        "--platform=sprd-hs400es-2020",
        "--mmc_path=legacy",
        "--name=w",
        "--rw=randwrite",
        "--bs=4k",
        "--size=64m",
        "--number_ios=200",
        "--sw_shape=0",
        "--preempt_pct=0",
        &format!("--kernel={kernel}"),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let scn = parse_args(&args, Scenario::default()).unwrap();
    let mut sim = Simulator::new(&scn).unwrap();
    sim.set_timeline_capacity(100_000);
    sim.run_to_end();
    let r = sim.report();
    (sim.drain_timeline(), r.sim.busy_polls, r.sim.ios[1])
}

/// Each write's CMD13s as (start, end): its command segments after the first (CMD23 + CMD25).
fn polls(timeline: &[Segment]) -> BTreeMap<u64, Vec<(u64, u64)>> {
    let mut by_req: BTreeMap<u64, Vec<(u64, u64)>> = BTreeMap::new();
    for s in timeline.iter().filter(|s| s.kind == SegmentKind::Command) {
        by_req
            .entry(s.req.unwrap())
            .or_default()
            .push((s.start, s.end));
    }
    // The first command of each request is its own (the write), not a poll.
    for v in by_req.values_mut() {
        v.remove(0);
    }
    by_req
}

/// The gaps between one write's consecutive CMD13s, ns.
fn gaps(p: &[(u64, u64)]) -> impl Iterator<Item = u64> + '_ {
    p.windows(2).map(|w| w[1].0 - w[0].1)
}

#[test]
fn a_5_4_board_polls_back_to_back_and_a_6_1_board_sleeps_between_polls() {
    let (t54, n54, writes) = run("5.4");
    let p54 = polls(&t54);
    assert_eq!(writes, 200);
    assert_eq!(p54.values().map(Vec::len).sum::<usize>() as u64, n54);
    // The card is still committing at the first CMD13, so the thread asks again, each time as
    // soon as it is woken by the CMD13's interrupt: the 19 us wake-up, no sleep.
    assert!(n54 as f64 / writes as f64 > 2.5, "{n54} CMD13s");
    for p in p54.values() {
        assert!(!p.is_empty(), "every write is followed by a CMD13");
        assert!(gaps(p).all(|g| g == 19_000), "back to back: {p:?}");
    }

    let (t61, n61, _) = run("6.1");
    let p61 = polls(&t61);
    // After a busy answer `__mmc_poll_for_busy` sleeps usleep_range(32, 64), then (64, 128):
    // each gap is the wake-up from the CMD13's interrupt, the sleep to the range's end and the
    // wake-up from the timer.
    assert!(n61 < n54, "fewer CMD13s with the backoff: {n61} vs {n54}");
    let mut backed_off = 0;
    for p in p61.values() {
        for (i, g) in gaps(p).enumerate() {
            assert_eq!(g, 19_000 + (64_000 << i) + 19_000, "sleep {i} of {p:?}");
            backed_off += 1;
        }
    }
    assert!(
        backed_off > 100,
        "most writes polled twice or more: {backed_off}"
    );
}

#[test]
fn a_write_the_card_has_committed_takes_one_cmd13_on_any_kernel() {
    // The Raspberry Pi board's card releases DAT0 only once a write is done: one CMD13 each.
    for kernel in ["5.4", "6.6"] {
        let args: Vec<String> = [
            "--platform=rpi5-sd-2024",
            "--name=w",
            "--rw=randwrite",
            "--bs=4k",
            "--size=64m",
            "--number_ios=100",
            &format!("--kernel={kernel}"),
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let scn = parse_args(&args, Scenario::default()).unwrap();
        let r = mmcsim_engine::run(&scn).unwrap();
        assert_eq!(r.sim.busy_polls, r.sim.ios[1], "{kernel}");
    }
}

#[test]
fn an_unknown_kernel_version_is_refused_naming_what_is_accepted() {
    for bad in ["7.2", "latest", "5.4.1", "5"] {
        let args = vec!["--name=x".to_string(), format!("--kernel={bad}")];
        let e = parse_args(&args, Scenario::default())
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("kernel") && e.contains("accepted: major.minor, 3.0..=6.99"),
            "{bad}: {e}"
        );
    }
}
