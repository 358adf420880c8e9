//! Hostile inputs the `mmcsim` binary must refuse quickly, in bounded memory, with one line on
//! stderr and exit status 2: work bounds (split I/Os, sweeps, fits), sweep grids and merge files,
//! inputs that are not regular files or are too large, links that would write files.

use std::io::Write;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Every refusal here comes back well within this (the runs they replace took minutes).
/// A hang guard, not a timing: a refused input that ran its simulation took minutes (52 s of
/// CPU and more); a loaded 2-core machine needs far less than this for a refusal.
const QUICK: Duration = Duration::from_secs(120);

fn mmcsim_with_stdin(args: &[&str], stdin: &[u8]) -> (Output, Duration) {
    let t = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_mmcsim"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run mmcsim");
    let mut input = child.stdin.take().unwrap();
    // The binary may stop reading early (at its cap): a broken pipe here is expected.
    let _ = input.write_all(stdin);
    drop(input);
    let out = child.wait_with_output().expect("wait for mmcsim");
    (out, t.elapsed())
}

fn mmcsim(args: &[&str]) -> (Output, Duration) {
    mmcsim_with_stdin(args, b"")
}

/// Exit status 2, one line on stderr containing every one of `expect`, within [`QUICK`].
fn refused(args: &[&str], expect: &[&str]) {
    refused_out(mmcsim(args), args, expect)
}

fn refused_out((out, took): (Output, Duration), args: &[&str], expect: &[&str]) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    for e in expect {
        assert!(err.contains(e), "{args:?}: '{e}' not in: {err}");
    }
    assert!(took < QUICK, "{args:?} took {took:?}");
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("mmcsim-bounds-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn split_ios_count_as_their_requests() {
    // 256 MiB I/Os split into 512-byte requests: 524 288 requests each, all in memory at once.
    // At iodepth 1 the block size is what makes them many: keyed bs, no "lower iodepth".
    let args = ["--name=a", "--bs=256m", "--size=256m", "--max_req_kib=0.5"];
    let (out, _) = mmcsim(&args);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("lower iodepth"));
    refused(
        &args,
        &[
            "bs:",
            "lower bs, raise max_req_kib",
            "requests outstanding",
            "max_req_kib=0.5",
            "at most 16384",
        ],
    );
    // Stock options: 8 x 1024 I/Os of 512 requests outstanding (was 16.9 s and 565 MiB).
    refused(
        &[
            "--name=a",
            "--bs=256m",
            "--size=256g",
            "--ioengine=libaio",
            "--iodepth=1024",
            "--numjobs=8",
        ],
        &["requests outstanding", "max_req_kib=512"],
    );
    // One at a time, 16 384 requests per I/O: they enter the event queue together, so a run
    // costs its requests (1 M of them took 12.5 s when each push walked past the ones before;
    // 8 M now take about 3.5 s natively and are accepted). 16 M requests are over the bound.
    let (out, _) = mmcsim(&["--name=a", "--bs=8m", "--size=64m", "--max_req_kib=0.5"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    refused(
        &["--name=a", "--bs=8m", "--size=8g", "--max_req_kib=0.5"],
        &[
            "size:",
            "requests",
            "events",
            "raise max_req_kib",
            "at most 80000000 events",
        ],
    );
    // Time-based: the bus carries 512-byte requests, the budget counts I/Os of 16 384.
    refused(
        &[
            "--name=a",
            "--bs=8m",
            "--max_req_kib=0.5",
            "--runtime=1000",
            "--time_based",
        ],
        &["runtime:", "requests", "lower runtime or bs"],
    );
}

#[test]
fn sweep_grids_are_counted_before_they_are_built() {
    // 10^8 points (was an abort, rc 134).
    refused(
        &[
            "--name=a",
            "--sweep=randseed=1..10000",
            "--sweep=bs=4k,8k,16k",
        ],
        &["sweep: 30000 points (10000 x 3); at most 10000"],
    );
    refused(
        &[
            "--name=a",
            "--sweep=randseed=1..10000",
            "--sweep=randseed=1..10000",
        ],
        &["randseed is swept twice"],
    );
    refused(
        &["--name=a", "--sweep=bs=4k,8k", "--sweep=blocksize=16k"],
        &["bs is swept twice"],
    );
    refused(
        &["--name=a", "--sweep=bs=4k,8k", "--shard=1/2", "--shard=2/2"],
        &["shard: given twice"],
    );
    refused(
        &["--name=a", "--sweep=randseed=1..10001"],
        &["10001 points; at most 10000"],
    );
}

#[test]
fn a_sweep_is_bounded_as_a_whole() {
    // 10 000 points of 2.5 M events each: 25 G events (hours), refused before any runs.
    refused(
        &[
            "--name=a",
            "--rw=randwrite",
            "--bs=4k",
            "--size=1200m",
            "--sweep=randseed=1..10000",
        ],
        &[
            "sweep: its 10000 points",
            "events in all",
            "at most 4800000000",
        ],
    );
}

#[test]
fn merge_reads_bounded_documents() {
    let dir = scratch("merge");
    let doc = |points: &str, rows: &str| {
        format!(
            r#"{{"dims":[{{"key":"randseed","values":["1","2"]}}],"base":[],"points":{points},"shard":null,"rows":[{rows}]}}"#
        )
    };
    let row = |i: u64| {
        format!(
            r#"{{"index":{i},"values":["1"],"mib_s":1.0,"iops":1.0,"p50_us":1.0,"p99_us":1.0,"p999_us":1.0,"interrupts_per_s":1.0,"requeues":0}}"#
        )
    };
    let cases = [
        (
            "huge.json",
            doc("1000000000000", &row(0)),
            "says 1000000000000 points but its dimensions make 2",
        ),
        ("index.json", doc("2", &row(99)), "row 99 is not a point"),
        (
            "rows.json",
            doc("2", &[row(0), row(1), row(1)].join(",")),
            "3 rows for 2 points",
        ),
    ];
    for (name, text, expect) in cases {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        let p = p.to_string_lossy().to_string();
        refused(&["--merge", &p], &[expect]);
    }
    // Three dimensions or a grid past the limit in a file.
    let p = dir.join("grid.json");
    let values: Vec<String> = (0..200).map(|i| format!("\"{i}\"")).collect();
    let dim = |k: &str| format!(r#"{{"key":"{k}","values":[{}]}}"#, values.join(","));
    std::fs::write(
        &p,
        format!(
            r#"{{"dims":[{},{}],"base":[],"points":40000,"shard":null,"rows":[]}}"#,
            dim("randseed"),
            dim("bs")
        ),
    )
    .unwrap();
    refused(
        &["--merge", &p.to_string_lossy()],
        &["40000 points (200 x 200); at most 10000"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn inputs_must_be_regular_files_of_bounded_size() {
    refused(
        &["/dev/zero"],
        &[
            "job file '/dev/zero'",
            "not a regular file",
            "or - for stdin",
        ],
    );
    refused(&["/tmp"], &["a directory"]);
    refused(
        &["--merge", "/dev/zero"],
        &["merge '/dev/zero'", "not a regular file"],
    );
    refused(
        &["fit", "/dev/zero"],
        &["results '/dev/zero'", "not a regular file"],
    );
    refused(
        &["--platform_file=/dev/zero", "--name=a"],
        &["platform_file", "not a regular file"],
    );
    refused(
        &["--name=a", "--read_iolog=/dev/zero"],
        &["read_iolog", "not a regular file"],
    );
    let dir = scratch("inputs");
    let job = dir.join("inc.fio");
    std::fs::write(&job, "[a]\ninclude /dev/zero\n").unwrap();
    refused(
        &[&job.to_string_lossy()],
        &["include '/dev/zero'", "not a regular file"],
    );
    // A file past the cap, by its size (sparse: no disk used).
    let big = dir.join("big.fio");
    let f = std::fs::File::create(&big).unwrap();
    f.set_len(17 << 20).unwrap();
    refused(&[&big.to_string_lossy()], &["larger than 16 MiB"]);
    // The same small file included again and again: the includes are capped together.
    let part = dir.join("part.fio");
    std::fs::write(&part, format!("; {}\n", "x".repeat(4 << 20))).unwrap();
    let many = dir.join("many.fio");
    std::fs::write(&many, "[a]\n".to_string() + &"include part.fio\n".repeat(8)).unwrap();
    refused(
        &[&many.to_string_lossy()],
        &["includes come to more than 16 MiB"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn stdin_is_a_job_file_capped_as_the_others() {
    let (out, _) = mmcsim_with_stdin(&["-", "--output-format=json"], b"[a]\nrw=read\nsize=1m\n");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("\"jobname\" : \"a\""));
    let endless = vec![b'#'; (16 << 20) + 10];
    refused_out(
        mmcsim_with_stdin(&["-"], &endless),
        &["-"],
        &["job file '-'", "larger than 16 MiB"],
    );
}

#[test]
fn fit_is_bounded_as_a_whole_and_names_each_parameter_once() {
    refused(
        &["fit", "--fit=nand_read_us,nand_read_us", "x.json"],
        &["'nand_read_us' is named twice"],
    );
    let dir = scratch("fit");
    let sample = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/src/testdata/sample.json"
    ))
    .unwrap();
    let mut args = vec!["fit".to_string(), "--max_iters=100000".to_string()];
    for i in 0..20 {
        let p = dir.join(format!("r{i}.json"));
        std::fs::write(&p, &sample).unwrap();
        args.push(p.to_string_lossy().to_string());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    refused(
        &args,
        &["evaluations would simulate about", "at most 4800000000"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn echoed_control_characters_are_escaped() {
    let (out, _) = mmcsim(&["--name=a\x1b]0;PWNED\x07b"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(!err.contains('\x1b') && !err.contains('\x07'), "{err:?}");
    assert!(err.contains("\\x1b]0;PWNED\\x07b"), "{err}");
    let (out, _) = mmcsim(&["--bs=4k\u{9b}2J"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !err.contains('\u{9b}') && err.contains("\\u{9b}"),
        "{err:?}"
    );
    let (out, _) = mmcsim(&["fit", "--fit=a\x1bb"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(!err.contains('\x1b'), "{err:?}");
}

#[test]
fn help_names_the_cli_options() {
    let (out, _) = mmcsim(&["--help"]);
    let text = String::from_utf8_lossy(&out.stdout);
    for o in [
        "--sweep=",
        "--shard=",
        "--merge",
        "--platform_file=",
        "--write_platform=",
    ] {
        assert!(text.contains(o), "{o} missing from --help");
    }
}

#[test]
fn nonsense_is_named_not_taken_silently() {
    refused(
        &["--name=a", "--runtime=0.0000000001"],
        &[
            "runtime: '0.0000000001' is below 1 ns",
            "accepted: 0 or a time of at least 1ns",
        ],
    );
    let dir = scratch("nonsense");
    let log = dir.join("t.log");
    std::fs::write(
        &log,
        "fio version 3 iolog\n0 f add\n18446744073709551615 f write 0 4096\n",
    )
    .unwrap();
    refused(
        &[
            "--name=a",
            &format!("--read_iolog={}", log.to_string_lossy()),
        ],
        &["read_iolog", "at most 86400 s (one day)"],
    );
    let toml = dir.join("p.toml");
    std::fs::write(
        &toml,
        "platform = \"sprd-hs400es-2020\"\n[bus]\nbus_clock_mhz = true\n",
    )
    .unwrap();
    refused(
        &[
            "--name=a",
            &format!("--platform_file={}", toml.to_string_lossy()),
        ],
        &["bus.bus_clock_mhz: true is not a number"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_job_name_is_at_most_a_linux_file_name() {
    // fio names a job's data files NAME.0.0: a 10 MB name froze the page for 5 s.
    let long = format!("--name={}", "n".repeat(256));
    refused(&[&long], &["a name of 256 bytes", "at most 255 bytes"]);
    let (out, _) = mmcsim(&[&format!("--name={}", "n".repeat(255)), "--size=64k"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
