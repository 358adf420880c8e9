//! The `mmcsim` binary as a user runs it.
//!
//! Tests named `run_*` need the simulator (`mmcsim_engine::run`); they fail while it is a stub.

use std::process::{Command, Output};

fn mmcsim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mmcsim"))
        .args(args)
        .output()
        .expect("run mmcsim")
}

/// A scratch folder for one test, `name` and the process id, created.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The standard output of a run that must succeed.
fn ok_stdout(args: &[&str]) -> String {
    let out = mmcsim(args);
    assert!(
        out.status.success(),
        "{:?}: {}",
        args,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Exit status 2 and exactly one line on stderr that contains `expect`.
fn bad(args: &[&str], expect: &str) {
    let out = mmcsim(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{:?}: {}", args, err);
    assert_eq!(err.lines().count(), 1, "{:?}: {}", args, err);
    assert!(
        err.starts_with("mmcsim: ") && err.contains(expect),
        "{:?}: {}",
        args,
        err
    );
    assert!(!err.contains("panicked"), "{}", err);
}

#[test]
fn bad_input_is_one_line_and_status_2() {
    bad(
        &["--ioengine=mmap"],
        "mmcsim: ioengine: 'mmap' is not modelled (the model is a local eMMC block device); accepted: psync, sync, vsync,",
    );
    bad(&["--iodeth=4"], "did you mean 'iodepth'?");
    bad(&["--bs="], "bs: '' is not a size");
    bad(&["--bs"], "bs: needs a value");
    bad(&["--numjobs=0"], "numjobs: '0' is not a number in 1..=256");
    bad(&["--size=12q"], "size: '12q' is not a size");
    bad(&["--platform=pc"], "accepted: sprd-hs400es-2020");
    bad(&[""], "job file ''");
    bad(&["/nonexistent/job.fio"], "job file '/nonexistent/job.fio'");
    bad(
        &["--output-format=xml"],
        "accepted: normal, json, json+, csv",
    );
    // `-` reads a job file from stdin (empty here), as fio does.
    bad(&["-"], "mmcsim: -: No job(s) defined");
    bad(&["--=3"], "unexpected argument");
}

#[test]
fn job_file_errors_name_file_and_line() {
    let dir = scratch("mmcsim-cli-test");
    let path = dir.join("bad.fio");
    std::fs::write(&path, "[global]\nbs=4k\n\n[x]\nioengine=mmap\n").unwrap();
    let p = path.to_string_lossy().to_string();
    bad(
        &[&p],
        &format!("{}: line 5: ioengine: 'mmap' is not modelled", p),
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn list_platforms_lists_the_four_presets() {
    let text = ok_stdout(&["--list-platforms"]);
    for p in [
        "sprd-hs400es-2020",
        "unisoc-fua-2022",
        "u300-mmci-2011",
        "unisoc-hsq-2023",
    ] {
        assert!(
            text.lines().any(|l| l.starts_with(p)),
            "{} missing:\n{}",
            p,
            text
        );
    }
}

#[test]
fn help_lists_the_options() {
    let text = ok_stdout(&["--help"]);
    for o in [
        "ioengine",
        "hsq_depth",
        "mmc_test",
        "--output-format",
        "filename",
    ] {
        assert!(text.contains(o), "{} missing", o);
    }
}

const RFC: &[&str] = &[
    "--filename=/dev/mmcblk0p30",
    "--direct=1",
    "--iodepth=20",
    "--rw=randread",
    "--bs=4K",
    "--size=1M",
    "--group_reporting",
    "--numjobs=20",
    "--name=test",
];

#[test]
fn run_normal_output() {
    let out = mmcsim(RFC);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{}", err);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("test: (groupid=0, jobs=20): err= 0: pid=0: (simulated)\n"),
        "{}",
        text
    );
    assert!(text.contains("  read: IOPS="), "{}", text);
    assert!(
        text.contains("Run status group 0 (all jobs):\n   READ: bw="),
        "{}",
        text
    );
}

#[test]
fn run_json_output_parses_and_is_deterministic() {
    let mut args = RFC.to_vec();
    args.push("--output-format=json");
    let a = mmcsim(&args);
    assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
    let v: serde_json::Value = serde_json::from_slice(&a.stdout).expect("valid JSON");
    let jobs = v["jobs"].as_array().unwrap();
    assert_eq!(jobs.len(), 1, "group_reporting merges the 20 clones");
    let j = &jobs[0];
    assert_eq!(j["jobname"], "test");
    assert_eq!(j["read"]["io_bytes"], 20 << 20);
    assert_eq!(j["read"]["total_ios"], 20 * 256);
    assert!(j["read"]["bw_bytes"].as_u64().unwrap() > 0);
    assert!(
        j["read"]["clat_ns"]["percentile"]["50.000000"]
            .as_u64()
            .unwrap()
            > 0
    );
    assert!(j["mmcsim"]["simulated_ns"].as_u64().unwrap() > 0);
    let b = mmcsim(&args);
    assert_eq!(a.stdout, b.stdout, "same scenario and seed, same bytes");
}

#[test]
fn run_output_file() {
    let path = std::env::temp_dir().join(format!("mmcsim-cli-out-{}.json", std::process::id()));
    let p = format!("--output={}", path.display());
    let out = mmcsim(&["--size=256k", "--output-format=json", &p]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stdout.is_empty());
    let text = std::fs::read_to_string(&path).unwrap();
    let _: serde_json::Value = serde_json::from_str(&text).unwrap();
    let _ = std::fs::remove_file(&path);
}

#[test]
fn run_write_exports() {
    let dir = scratch("mmcsim-cli-exports");
    let (t, c, j) = (dir.join("t.json"), dir.join("s.csv"), dir.join("j.fio"));
    let args = [
        "--rw=randread",
        "--size=256k",
        "--numjobs=4",
        "--packed=8",
        "--name=test",
    ];
    let mut all: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    all.push(format!("--write_trace={}", t.display()));
    all.push(format!("--write_csv={}", c.display()));
    all.push(format!("--write_jobfile={}", j.display()));
    all.push("--output-format=json".to_string());
    let all: Vec<&str> = all.iter().map(String::as_str).collect();
    let out = mmcsim(&all);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let trace: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&t).unwrap()).unwrap();
    assert!(trace["traceEvents"].as_array().unwrap().len() > 4 * 64);
    assert_eq!(trace["otherData"]["truncated"], false);
    let csv = std::fs::read_to_string(&c).unwrap();
    assert!(
        csv.starts_with("t_ms,mib_s,iops,read_mib_s,write_mib_s,avg_inflight\n"),
        "{}",
        csv
    );
    // The job file runs the same scenario again.
    let again = mmcsim(&[j.to_str().unwrap(), "--output-format=json"]);
    assert_eq!(again.stdout, out.stdout);
    let capped = mmcsim(&[
        "--size=256k",
        "--trace_max_events=10",
        &format!("--write_trace={}", t.display()),
    ]);
    assert!(capped.status.success());
    let trace: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&t).unwrap()).unwrap();
    assert_eq!(
        (
            trace["traceEvents"].as_array().unwrap().len(),
            &trace["otherData"]["truncated"]
        ),
        (10, &serde_json::json!(true))
    );
    bad(
        &["--write_trace=/nonexistent/dir/t.json"],
        "write_trace '/nonexistent/dir/t.json'",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn platform_files_round_trip_and_bad_boards_are_refused() {
    let dir = scratch("mmcsim-board-test");
    let f = |n: &str| dir.join(n).to_string_lossy().into_owned();
    // Write a platform file with one board parameter changed; read it back: the same run.
    let out = mmcsim(&[
        "--platform=unisoc-hsq-2023",
        "--nand_read_us=90",
        &format!("--write_platform={}", f("b.toml")),
        "--rw=randread",
        "--size=1m",
        "--output-format=json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(f("b.toml")).unwrap();
    assert!(text.contains("platform = \"unisoc-hsq-2023\""), "{text}");
    assert!(text.contains("nand_read_us = 90"), "{text}");
    let again = mmcsim(&[
        &format!("--platform_file={}", f("b.toml")),
        "--rw=randread",
        "--size=1m",
        "--output-format=json",
    ]);
    assert_eq!(
        String::from_utf8_lossy(&again.stdout),
        String::from_utf8_lossy(&out.stdout)
    );
    std::fs::write(
        f("bad.toml"),
        "platform = \"unisoc-hsq-2023\"\n[bus]\nbus_mb_s = 20000\n",
    )
    .unwrap();
    bad(
        &[&format!("--platform_file={}", f("bad.toml"))],
        "bus.bus_mb_s: '20000' is out of range; accepted: 0..=10000 MB/s",
    );
    bad(
        &["--nand_read_us=1e9"],
        "nand_read_us: '1e9' is not a number in us",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sweeps_as_csv_and_shards_merged() {
    let dir = scratch("mmcsim-sweep-test");
    let f = |n: &str| dir.join(n).to_string_lossy().into_owned();
    bad(
        &["--sweep=hsq_depth=9..1"],
        "sweep: hsq_depth: '9..1' is not a range",
    );
    bad(&["--sweep=packed=0,64"], "sweep point packed=64");
    bad(&["--shard=3/2", "--sweep=packed=0,2"], "not a shard");

    // A sweep as CSV: a header and one line per point.
    let args = [
        "--rw=randwrite",
        "--size=256k",
        "--numjobs=4",
        "--sweep=hsq_depth=1..3",
        "--sweep=packed=0,8",
    ];
    let csv = mmcsim(&[&args[..], &["--output-format=csv"]].concat());
    let csv = String::from_utf8_lossy(&csv.stdout).into_owned();
    assert_eq!(csv.lines().count(), 7, "{csv}");
    assert!(csv.starts_with(
        "index,hsq_depth,packed,mib_s,iops,p50_us,p99_us,p999_us,interrupts_per_s,requeues\n"
    ));
    // Two shards as JSON, merged: the same table as the whole sweep.
    let whole = mmcsim(&args);
    for i in 1..=2 {
        let o = mmcsim(
            &[
                &args[..],
                &[
                    &format!("--shard={i}/2"),
                    "--output-format=json",
                    &format!("--output={}", f(&format!("s{i}.json"))),
                ],
            ]
            .concat(),
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let merged = mmcsim(&["--merge", &f("s1.json"), &f("s2.json")]);
    assert_eq!(
        String::from_utf8_lossy(&merged.stdout),
        String::from_utf8_lossy(&whole.stdout)
    );
    bad(&["--merge", &f("s1.json")], "3 of 6 points missing");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn help_lists_board_parameters_with_unit_and_the_presets_value() {
    let out = mmcsim(&["--help", "--platform=unisoc-hsq-2023"]);
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("nand_read_us "))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        line.contains(" 55 us ") && line.contains("0..=100000 us"),
        "{line}"
    );
    assert!(text.contains("values shown for unisoc-hsq-2023"));
}

#[test]
fn fit_writes_a_platform_file_that_runs() {
    let dir = scratch("mmcsim-fit-test");
    let f = |n: &str| dir.join(n).to_string_lossy().into_owned();
    for (name, rw) in [("rr", "--rw=randread"), ("rw", "--rw=randwrite")] {
        let o = mmcsim(&[
            "--platform=unisoc-hsq-2023",
            "--nand_read_us=80",
            "--group_reporting",
            rw,
            // Large enough that the page types and retries drawn mostly average out.
            "--size=8m",
            "--output-format=json",
            &format!("--output={}", f(&format!("{name}.json"))),
        ]);
        assert!(o.status.success());
    }
    let out = mmcsim(&[
        "fit",
        "--platform=unisoc-hsq-2023",
        "--fit=nand_read_us",
        &format!("--write_platform={}", f("fit.toml")),
        &f("rr.json"),
        &f("rw.json"),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Two files: cross-validation cannot judge, so the fit is not called trusted.
    assert!(text.contains("verdict: not trusted"), "{text}");
    assert!(text.contains("cross-validation needs at least 3"), "{text}");
    assert!(text.contains("took "), "{text}");
    let board = std::fs::read_to_string(f("fit.toml")).unwrap();
    let fitted: f64 = board
        .lines()
        .find_map(|l| l.strip_prefix("nand_read_us = "))
        .and_then(|r| r.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("{board}"));
    // Within the noise of two 2048-request runs (the varying service times make the objective
    // rugged at the scale of a percent).
    assert!(
        (fitted / 80.0 - 1.0).abs() < 0.03,
        "fitted {fitted}, perturbed 80"
    );
    let run = mmcsim(&[&format!("--platform_file={}", f("fit.toml")), "--size=1m"]);
    assert!(run.status.success());
    assert!(
        board.starts_with("# Made by: mmcsim fit --platform=unisoc-hsq-2023"),
        "{board}"
    );
    // The fitted board as the base of another fit: its values stay, only --fit= moves.
    let refit = mmcsim(&[
        "fit",
        &format!("--platform_file={}", f("fit.toml")),
        "--fit=card_write_busy_us",
        &f("rr.json"),
        &f("rw.json"),
    ]);
    let text = String::from_utf8_lossy(&refit.stdout);
    assert!(
        refit.status.success(),
        "{}",
        String::from_utf8_lossy(&refit.stderr)
    );
    assert!(
        text.contains("with 1 board value(s) of the base file"),
        "{text}"
    );
    let both = mmcsim(&[
        "fit",
        "--platform=unisoc-hsq-2023",
        &format!("--platform_file={}", f("fit.toml")),
        &f("rr.json"),
    ]);
    assert_eq!(both.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&both.stderr).contains("both name the base"));
    let bad_fit = mmcsim(&["fit", "--fit=bogus", &f("rr.json")]);
    assert_eq!(bad_fit.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad_fit.stderr).contains("'bogus' is not a board parameter"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 10, the CLI side of its regressions (items 4, 5, 6, 8, 9, 10, in four tests): item 6.
#[test]
fn issue10_huge_keys_are_one_short_line() {
    let dir = scratch("mmcsim-issue10-keys");
    let path = |n: &str| dir.join(n).to_string_lossy().into_owned();

    // Item 6: a 100 kB unknown key (the most one argument holds), or a 10 MB one in a job
    // file, gives one short line, at once.
    let key = format!("--{}=1", "k".repeat(100_000));
    let t0 = std::time::Instant::now();
    let out = mmcsim(&[&key]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(err.len() < 300, "{} chars", err.len());
    std::fs::write(
        path("big.fio"),
        format!("[a]\n{}=1\n", "k".repeat(10 << 20)),
    )
    .unwrap();
    let out = mmcsim(&[&path("big.fio")]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(err.len() < 500, "{} chars", err.len());
    assert!(t0.elapsed().as_secs() < 10);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 10, items 4, 5 and 8.
#[test]
fn issue10_calibration_mmc_test_and_lost_ranges() {
    // Item 4: calibration sizes above the authors' are refused.
    bad(&["--calibration", "--size=6g"], "size: --calibration");

    // Item 5: mmc_test with a power cut has its job in the JSON.
    let out = mmcsim(&["--mmc_test=37", "--power_cut=50ms", "--output-format=json"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(!text.contains("\"jobs\" : []"), "{text}");
    assert!(text.contains("\"jobname\" : \"4KiB\""), "{text}");

    // Item 8: the CLI counts every lost range.
    // The 2020 board's cache holds data before programming it (the 2022 one programs at once).
    let out = mmcsim(&[
        "--platform=sprd-hs400es-2020",
        "--rw=randwrite",
        "--bs=512",
        "--numjobs=8",
        "--ioengine=libaio",
        "--iodepth=8",
        "--power_cut=20ms",
        "--name=x",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    let more: u64 = text
        .lines()
        .find_map(|l| {
            l.trim()
                .strip_prefix("... ")?
                .strip_suffix(" more")?
                .parse()
                .ok()
        })
        .expect("a '... N more' line");
    assert!(more > 56, "{more}");
}

/// Issue 10, item 9.
#[test]
fn issue10_job_file_syntax() {
    let dir = scratch("mmcsim-issue10-files");
    let path = |n: &str| dir.join(n).to_string_lossy().into_owned();

    // Item 9: a BOM, trailing comments; "No job(s) defined"; options outside a section.
    std::fs::write(
        path("bom.fio"),
        "\u{feff}[a] ; job\nsize=1m # size\nbs=8k;x\n",
    )
    .unwrap();
    let out = mmcsim(&[&path("bom.fio")]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::write(path("empty.fio"), "").unwrap();
    bad(&[&path("empty.fio")], "No job(s) defined");
    std::fs::write(path("global.fio"), "[global]\nbs=4k\n").unwrap();
    bad(&[&path("global.fio")], "No job(s) defined");
    std::fs::write(path("outside.fio"), "bs=4k\n[a]\n").unwrap();
    bad(&[&path("outside.fio")], "outside of [] job section");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 10, item 10; and outputs sharing a file.
#[test]
fn issue10_options_without_effect_and_clashing_outputs() {
    let dir = scratch("mmcsim-issue10-outputs");
    let path = |n: &str| dir.join(n).to_string_lossy().into_owned();

    // Item 10: options without effect warn on stderr, once; the run still happens.
    let out = mmcsim(&[
        "--mmc_path=legacy",
        "--hsq_depth=4",
        "--size=1m",
        "--name=x",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success());
    assert_eq!(
        err.matches("mmcsim: warning: hsq_depth").count(),
        1,
        "{err}"
    );
    // Two outputs into one file are refused.
    let same = path("same.json");
    bad(
        &[
            &format!("--output={same}"),
            &format!("--write_trace={same}"),
            "--name=x",
        ],
        "give each output its own file",
    );
    bad(&["--trace_max_events=100000000"], "trace_max_events");
    let _ = std::fs::remove_dir_all(&dir);
}
