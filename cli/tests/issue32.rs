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

/// Item 5: `--merge` checks each row as the sweep would have written it, refuses two different
/// rows for one point naming both files, and gives the same bytes in any file order.
#[test]
fn item5_merge_checks_what_it_merges_and_ignores_file_order() {
    let dir = scratch("mmcsim-i32-merge");
    let at = |f: &str| dir.join(f).to_string_lossy().into_owned();
    for k in ["1", "2"] {
        let out = format!("--output={}", at(&format!("s{k}.json")));
        common::ok_stdout(&[
            "--name=a",
            "--size=64k",
            "--sweep=randseed=1..4",
            &format!("--shard={k}/2"),
            "--output-format=json",
            &out,
        ]);
    }
    let (s1, s2) = (at("s1.json"), at("s2.json"));
    for format in [
        "--output-format=normal",
        "--output-format=json",
        "--output-format=csv",
    ] {
        let a = common::ok_stdout(&["--merge", &s1, &s2, format]);
        let b = common::ok_stdout(&["--merge", &s2, &s1, format]);
        assert_eq!(a, b, "{format}: the file order changed the output");
    }
    let shard: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&s1).unwrap()).unwrap();
    let hostile = |name: &str, edit: &dyn Fn(&mut serde_json::Value)| {
        let mut v = shard.clone();
        edit(&mut v);
        let p = at(name);
        std::fs::write(&p, v.to_string()).unwrap();
        p
    };
    let cases: Vec<(String, &str)> = vec![
        (
            hostile("values.json", &|v| {
                v["rows"][0]["values"] = serde_json::json!(["hacked"])
            }),
            "row 0 is not a point of its 4-point sweep",
        ),
        (
            hostile("negative.json", &|v| {
                v["rows"][0]["mib_s"] = serde_json::json!(-5)
            }),
            "row 0: mib_s is -5; accepted: a finite number from 0 to 1e12",
        ),
        (
            hostile("huge.json", &|v| {
                v["rows"][1]["iops"] = serde_json::json!(1e308)
            }),
            "iops is 1e308",
        ),
        (
            hostile("shard.json", &|v| {
                v["shard"] = serde_json::json!("1/1000000000000")
            }),
            "shard '1/1000000000000' is not I/N",
        ),
        (
            hostile("other-shard.json", &|v| {
                v["shard"] = serde_json::json!("2/2")
            }),
            "row 0 is not a point of its 4-point sweep (shard 2/2)",
        ),
        (
            hostile("dim.json", &|v| {
                v["dims"][0]["key"] = serde_json::json!("nope")
            }),
            "dimension 'nope' is not a sweep of an option",
        ),
    ];
    for (file, expect) in &cases {
        bad(&["--merge", file, &s2], expect);
    }
    // Two different rows for one point: refused in either order, naming both files.
    let conflict = hostile("conflict.json", &|v| {
        let m = v["rows"][0]["mib_s"].as_f64().unwrap();
        v["rows"][0]["mib_s"] = serde_json::json!(m + 1.0);
    });
    bad(&["--merge", &s1, &conflict, &s2], "point 0 differs between");
    for args in [[&s1, &conflict], [&conflict, &s1]] {
        let out = common::mmcsim(&["--merge", args[0], args[1], &s2]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("s1.json") && err.contains("conflict.json"),
            "{err}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Item 7: what was accepted silently, or refused with a misleading message, is now one clear
/// line naming what is accepted, and nothing is written.
#[test]
fn item7_the_smaller_refusals_say_what_is_accepted() {
    let dir = scratch("mmcsim-i32-small");
    let at = |f: &str| dir.join(f).to_string_lossy().into_owned();
    bad(
        &["--name=a", "--bus_mode=hs400", "--bus_width=4"],
        "bus_width: 4 data lines with bus_mode=hs400; HS400 is 8-bit only",
    );
    bad(&["--mmc_test=37", "--size=511"], "accepted: at least 4k");
    let platform = format!("--write_platform={}", at("p.toml"));
    for (out, opt) in [
        (format!("--write_trace={}", at("t.json")), "write_trace"),
        (format!("--write_csv={}", at("s.csv")), "write_csv"),
        (format!("--write_iolog={}", at("i.log")), "write_iolog"),
        (format!("--write_lat_log={}", at("L")), "write_lat_log"),
    ] {
        let args = [
            "--name=a",
            "--size=64k",
            "--sweep=randseed=1,2",
            &out,
            &platform,
        ];
        bad(&args, &format!("{opt}: not written by a sweep"));
    }
    bad(
        &["--calibration", "--sweep=randseed=1,2"],
        "calibration: '--sweep=randseed=1,2' would be ignored",
    );
    bad(
        &["--calibration", "--name=x"],
        "calibration: '--name=x' would be ignored",
    );
    bad(
        &["--name=a", "--read_iolog="],
        "read_iolog: needs a file name",
    );
    let help = common::ok_stdout(&["fit", "--help"]);
    assert!(
        help.starts_with("usage: mmcsim fit ") && help.contains("--write_platform=OUT"),
        "{help}"
    );
    for name in ["a#b", "a;b", "$HOME"] {
        let jobfile = format!("--write_jobfile={}", at("j.fio"));
        bad(
            &[&format!("--name={name}"), "--size=64k", &jobfile],
            "would not read back",
        );
    }
    std::fs::write(
        at("s.toml"),
        "platform = \"sprd-hs400es-2020\"\n[card]\nnand_read_us = \"87\"\n",
    )
    .unwrap();
    let board = format!("--platform_file={}", at("s.toml"));
    bad(
        &[&board, "--name=a"],
        "card.nand_read_us: a string, not a number",
    );
    let written: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(written, ["s.toml"], "a refused command wrote a file");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Item 2: logs are written as the run goes, every I/O of them (the engine once kept at most
/// 4 million records a job, in memory, and wrote them at the end: 294 MB at 10 million I/Os,
/// 21 MB now). A run of more events than one hand-over's stretch (`logs::CHUNK_EVENTS`) logs
/// each I/O once, in order, and its iolog replays to the same I/Os.
#[test]
fn item2_logs_are_streamed_whole_and_in_order() {
    let dir = scratch("mmcsim-i32-logs");
    let at = |f: &str| dir.join(f).to_string_lossy().into_owned();
    let (lat, iolog) = (
        format!("--write_lat_log={}", at("P")),
        format!("--write_iolog={}", at("F")),
    );
    let args = [
        "--name=x",
        "--rw=randwrite",
        "--bs=512",
        "--size=128m",
        "--number_ios=200000",
        "--ioengine=libaio",
        "--iodepth=8",
        lat.as_str(),
        iolog.as_str(),
    ];
    common::ok_stdout(&args);
    let text = std::fs::read_to_string(at("P_clat.1.log")).unwrap();
    let times: Vec<u64> = text
        .lines()
        .map(|l| l.split(',').next().unwrap().trim().parse().unwrap())
        .collect();
    assert_eq!(times.len(), 200_000, "one entry per I/O");
    assert!(
        times.windows(2).all(|w| w[0] <= w[1]),
        "in completion order"
    );
    let log = std::fs::read_to_string(at("F")).unwrap();
    assert!(log.starts_with("fio version 2 iolog\n"));
    assert!(log.ends_with("/dev/mmcblk0 close\n"));
    assert_eq!(
        log.matches(" write ").count(),
        200_000,
        "one line per I/O queued"
    );
    let replay = format!("--read_iolog={}", at("F"));
    let out = common::ok_stdout(&["--name=r", replay.as_str(), "--output-format=json"]);
    assert!(
        out.contains("\"total_ios\" : 200000"),
        "the iolog replays its 200000 writes"
    );
}

/// Item 7 (fit options): two `--fit=` flags were taken as one list (before that, the last won);
/// any fit option given twice is now refused in one line naming it, nothing read or written.
/// Result files naming `mmc_test=37` or platform "nope" are refused naming the file.
#[test]
fn item7_fit_options_twice_and_bad_result_files_are_refused() {
    let dir = scratch("mmcsim-i32-fit");
    let out = dir.join("board.toml");
    let w = format!("--write_platform={}", out.display());
    let table = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../fit/tests/tables/bananapi-m64"
    );
    let r = format!("{table}/read-4k.json");
    bad(
        &["fit", "--fit=nand_read_us", "--fit=bus_mb_s", &w, &r],
        "fit: --fit= is given twice ('--fit=nand_read_us' and '--fit=bus_mb_s'); accepted: one --fit= naming every parameter, comma-separated",
    );
    bad(
        &["fit", "--max_iters=3", "--max-iters=4", &w, &r],
        "fit: --max_iters= is given twice",
    );
    let text = std::fs::read_to_string(&r).unwrap();
    let g = "\"global options\": {}";
    assert!(text.contains(g), "{text}");
    for (name, opt, expect) in [
        (
            "mt.json",
            "\"mmc_test\": \"37\"",
            "an mmc_test run (mmc_test=37)",
        ),
        (
            "nope.json",
            "\"platform\": \"nope\"",
            "names platform 'nope', which is no preset; accepted: sprd-hs400es-2020",
        ),
    ] {
        let f = dir.join(name);
        let with = format!("\"global options\": {{{opt}}}");
        std::fs::write(&f, text.replacen(g, &with, 1)).unwrap();
        bad(
            &["fit", &w, &f.to_string_lossy()],
            &format!("{name}: {expect}"),
        );
    }
    assert!(!out.exists(), "nothing written");
}

/// Item 2 (zone state): `zonemode=zbd`'s write pointers are 4 bytes a zone in pages, not a map
/// entry per zone written (10 M writes of 512 B with `--zonesize=512`: 411 MB peak, now
/// 43 MB); a region of more than 16 M zones is refused in one line naming what is accepted.
/// 4 M writes of 512 B, 4 M zones: 20 MB peak (213 MB before).
#[test]
fn item2_zbd_zone_state_is_bounded_by_the_zones_not_the_ios() {
    let zbd = [
        "--name=t",
        "--rw=randwrite",
        "--bs=512",
        "--zonemode=zbd",
        "--zonesize=512",
    ];
    bad(
        &[&zbd[..], &["--size=9g"]].concat(),
        "zonesize: job 't': zonemode=zbd with zonesize=512 makes about 18874369 zones of its region; at most 16777216 (64 MiB of write pointers); accepted: a zonesize of at least 1k for this size, or a smaller size",
    );
    let time = std::path::Path::new("/usr/bin/time");
    if !time.exists() {
        eprintln!("peak memory not measured: no /usr/bin/time (GNU time)");
        return;
    }
    let out = std::process::Command::new(time)
        .args(["-f", "%M", env!("CARGO_BIN_EXE_mmcsim")])
        .args(zbd)
        .args(["--size=2g", "--output-format=json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    let kb: u64 = err.lines().last().unwrap().trim().parse().unwrap();
    assert!(kb < 64 << 10, "peak {kb} KB");
}

/// A fit whose search steps onto a board where a case is refused: argmin's Nelder-Mead unwrapped
/// the costs of its first simplex, so the refusal panicked (exit 101, a backtrace). A 100 s
/// time-based job of 4 KiB reads split into 512 B requests is within the event budget on a
/// 50 MB/s bus and over it at the first simplex's +22 % (61.07 MB/s): now one line names the
/// point and the refusal, exit 2, nothing written.
#[test]
fn a_case_refused_at_a_point_of_the_first_simplex_is_one_line_not_a_panic() {
    let dir = scratch("mmcsim-i32-simplex");
    let base = dir.join("base.toml");
    std::fs::write(
        &base,
        "platform = \"allwinner-hsq-2022\"\n[host]\nmax_req_kib = 0.5\n[bus]\nbus_mb_s = 50\n\
         [card]\nnand_read_us = 100000\ncard_seq_read_us = 100000\n",
    )
    .unwrap();
    let case = dir.join("slow.json");
    std::fs::write(
        &case,
        r#"{"jobs":[{"jobname":"j","job options":{"ioengine":"psync","bs":"4k","rw":"randread","time_based":"1","runtime":"100s"},"read":{"bw_bytes":5000},"write":{"bw_bytes":0}}]}"#,
    )
    .unwrap();
    let out = dir.join("board.toml");
    let args = [
        "fit".to_string(),
        format!("--platform_file={}", base.display()),
        "--fit=bus_mb_s".into(),
        "--max_iters=1".into(),
        format!("--write_platform={}", out.display()),
        case.display().to_string(),
    ];
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = common::mmcsim(&args);
    let err = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    // The estimate printed before a fit starts, then the refusal: the one error line.
    let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("mmcsim: ")).collect();
    assert_eq!(errors.len(), 1, "{err}");
    assert!(
        errors[0].starts_with(
            "mmcsim: fit: at bus_mb_s=61.07 (a point the search tried; a shorter --fit_runtime= keeps runs small): "
        ) && errors[0].contains("slow.json: runtime: the jobs would simulate about"),
        "{err}"
    );
    assert_eq!(err.lines().last(), Some(errors[0]), "{err}");
    assert!(!out.exists(), "nothing written");
}
