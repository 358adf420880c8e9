//! The Raspberry Pi 5 with an A2 microSD (`rpi5-sd-2024`): the command-queueing-OFF figures of
//! `measurements.toml [board.rpi5-sd-2024]` reproduced by the preset, and command queueing
//! (`mmc_path=cqe`) running on it as the prediction for the figures kept back.

use mmcsim_engine::scenario::options::parse_args;
use mmcsim_engine::{Report, Scenario};

/// Raspberry Pi's sd_bench.fio job `rw` at `bs` (libaio, iodepth=32, direct, 256 MiB,
/// end_fsync=1), the 4 KiB ones cut at `runtime` as the job cuts them at 10 s.
fn sd_bench(extra: &[&str], rw: &str, bs: &str) -> Report {
    let mut args = vec![
        "--platform=rpi5-sd-2024".to_string(),
        "--name=sd_bench".to_string(),
        "--ioengine=libaio".to_string(),
        "--iodepth=32".to_string(),
        "--direct=1".to_string(),
        "--size=256m".to_string(),
        "--end_fsync=1".to_string(),
        format!("--rw={rw}"),
        format!("--bs={bs}"),
    ];
    if bs == "4k" {
        args.push("--runtime=2s".to_string());
    }
    args.extend(extra.iter().map(|s| s.to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let s = parse_args(&args, Scenario::default()).unwrap();
    mmcsim_engine::run(&s).unwrap()
}

fn iops(r: &Report) -> f64 {
    let m = r.merged();
    m.read.iops() + m.write.iops()
}

fn kb_s(r: &Report) -> f64 {
    let m = r.merged();
    (m.read.bw_bytes() + m.write.bw_bytes()) / 1000.0
}

#[test]
fn the_cq_off_figures_are_reproduced_within_15_percent() {
    let rows = [
        ("randread", "4k", 2540.0, "IOPS"),
        ("randwrite", "4k", 1147.0, "IOPS"),
        ("read", "4m", 92467.0, "KB/s"),
        ("write", "4m", 62751.0, "KB/s"),
    ];
    let mut table = String::new();
    let mut bad = Vec::new();
    for (rw, bs, measured, unit) in rows {
        let r = sd_bench(&[], rw, bs);
        let sim = if unit == "IOPS" { iops(&r) } else { kb_s(&r) };
        let err = (sim / measured - 1.0) * 100.0;
        table += &format!(
            "{rw:<9} {bs}: measured {measured:>6.0} simulated {sim:>6.0} {unit} ({err:+.1} %)\n"
        );
        if err.abs() > 15.0 {
            bad.push(format!("{rw} {bs}"));
        }
    }
    eprint!("{table}");
    assert!(bad.is_empty(), "beyond 15 %: {bad:?}\n{table}");
}

/// Command queueing on, as the Raspberry Pi kernel runs it: reads queue up to the card's 31
/// tags and the card reads on both dies at once, so 4 KiB random reads go faster than one
/// command at a time. Writes are posted one at a time (`max_posted_writes = 1`), but a card in
/// command-queueing mode is done with a write once its data is in the cache and commits it
/// later, sharing a page's commit with the writes beside it (`path/card/posted.rs`), where off
/// command queueing it commits each one alone before it answers: random writes go several
/// times faster (published for this card: about 4x, raspberrypi/linux PR #6046; 2-4x,
/// LibreELEC PR #8739), and never slower than an A2 card's floor (2000 IOPS).
#[test]
fn command_queueing_runs_on_the_sd_board_and_overlaps_random_reads() {
    let off = iops(&sd_bench(&[], "randread", "4k"));
    let on = iops(&sd_bench(&["--mmc_path=cqe"], "randread", "4k"));
    let w_off = iops(&sd_bench(&[], "randwrite", "4k"));
    let w_on = iops(&sd_bench(&["--mmc_path=cqe"], "randwrite", "4k"));
    eprintln!("randread 4k: CQ off {off:.0}, on {on:.0} IOPS; randwrite 4k: off {w_off:.0}, on {w_on:.0} IOPS");
    assert!(on > off * 1.3, "CQ on {on:.0} vs off {off:.0} IOPS");
    assert!(
        w_on > w_off * 2.5 && w_on < w_off * 6.0 && w_on > 2000.0,
        "CQ on {w_on:.0} vs off {w_off:.0} IOPS"
    );
}

/// The writes a card in command-queueing mode acknowledged are committed before a cache
/// flush ends (`sd_flush_cache`): fio's `end_fsync` after random writes waits for the commits
/// the card still owes, which a flush off command queueing never does (each write was
/// committed before it completed).
#[test]
fn a_flush_waits_for_the_commits_of_posted_writes() {
    let ms = |extra: &[&str]| {
        let mut args = vec![
            "--platform=rpi5-sd-2024",
            "--name=j",
            "--ioengine=libaio",
            "--iodepth=32",
            "--direct=1",
            "--size=2m",
            "--rw=randwrite",
            "--bs=4k",
        ];
        args.extend_from_slice(extra);
        let s = parse_args(&args, Scenario::default()).unwrap();
        mmcsim_engine::run(&s).unwrap().sim.simulated_ns as f64 / 1e6
    };
    // What `end_fsync` adds to the run: the flush.
    let flush = |extra: &[&str]| {
        let with: Vec<&str> = extra.iter().copied().chain(["--end_fsync=1"]).collect();
        ms(&with) - ms(extra)
    };
    // 512 writes: the cache (4 MiB) takes them all, each done long before its commit; the
    // flush then owes what the card has not committed yet (at 200 us a write): about 60 ms.
    // Off command queueing it only programs the data the cache holds (512 KiB, 9.5 ms).
    let on = flush(&["--mmc_path=cqe"]);
    let off = flush(&[]);
    assert!(
        on > 3.0 * off && on > 30.0,
        "flush {on:.1} ms, off CQ {off:.1}"
    );
}
