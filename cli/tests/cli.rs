//! The `mmcsim` binary as a user runs it: refusals, help, normal and JSON output, output files
//! and exports. Platform files, sweeps and fits: platforms.rs; issue 10's regressions:
//! regressions.rs.

mod common;

use common::{bad, mmcsim, ok_stdout, scratch};

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

/// `--trace_format=ftrace` writes ftrace text that `--read_iolog` replays to the same requests;
/// `perfetto` writes Perfetto's protobuf (a stream of `Trace.packet`s: field 1, length-delimited),
/// which replays too.
#[test]
fn trace_formats_perfetto_and_ftrace_replay() {
    let dir = scratch("mmcsim-cli-trace-formats");
    let (f, p) = (dir.join("run.trace"), dir.join("run.pftrace"));
    let job = [
        "--platform=qemu-sdhci-pci",
        "--rw=randrw",
        "--bs=4k",
        "--size=128k",
        "--name=t",
    ];
    let requests = |args: &[&str]| {
        let out = ok_stdout(&[args, &["--output-format=json"]].concat());
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let j = &v["jobs"][0];
        let dir = |d: &str| (j[d]["total_ios"].clone(), j[d]["io_bytes"].clone());
        (
            dir("read"),
            dir("write"),
            j["mmcsim"]["bus_commands"].clone(),
        )
    };
    let write = format!("--write_trace={}", f.display());
    let original = requests(&[&job[..], &[&write, "--trace_format=ftrace"]].concat());
    let text = std::fs::read_to_string(&f).unwrap();
    assert!(text.starts_with("# tracer: nop\n"), "{text}");
    assert!(text.contains(": block_rq_issue: 179,0 "), "{text}");
    let replay = format!("--read_iolog={}", f.display());
    assert_eq!(
        requests(&["--platform=qemu-sdhci-pci", "--name=r", &replay]),
        original
    );
    let write = format!("--write_trace={}", p.display());
    ok_stdout(&[&job[..], &[&write, "--trace_format=perfetto"]].concat());
    let bytes = std::fs::read(&p).unwrap();
    assert_eq!(bytes[0], 0x0a, "Trace.packet, field 1, length-delimited");
    let replay = format!("--read_iolog={}", p.display());
    assert_eq!(
        requests(&["--platform=qemu-sdhci-pci", "--name=r", &replay]),
        original
    );
    bad(
        &["--trace_format=pb"],
        "trace_format: 'pb' is not a trace format; accepted: json, perfetto, ftrace",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A `blk_io_trace` record (little-endian), as blktrace writes them.
fn blk_record(t: u64, action: u32, sector: u64, bytes: u32, dev: u32, cpu: u32) -> Vec<u8> {
    let mut r = Vec::new();
    r.extend(0x6561_7407u32.to_le_bytes());
    r.extend(0u32.to_le_bytes());
    r.extend(t.to_le_bytes());
    r.extend(sector.to_le_bytes());
    for x in [bytes, action, 100, dev, cpu, 0] {
        r.extend(x.to_le_bytes());
    }
    r
}

/// `blktrace -d /dev/mmcblk0` writes one file per CPU: `--read_iolog=mmcblk0.blktrace.0` reads
/// them all, merged by time; a file of another device among them is refused, named.
#[test]
fn binary_blktrace_per_cpu_files_replay() {
    let dir = scratch("mmcsim-cli-blktrace");
    let (w, issue, queue) = (1u32 << 17, 7u32, 1u32);
    let dev = 179 << 20;
    let cpu0 = [
        blk_record(100, queue | w, 16, 4096, dev, 0),
        blk_record(150, issue | w, 16, 4096, dev, 0),
    ];
    let cpu1 = [
        blk_record(120, queue, 64, 8192, dev, 1),
        blk_record(130, issue, 64, 8192, dev, 1),
    ];
    std::fs::write(dir.join("mmcblk0.blktrace.0"), cpu0.concat()).unwrap();
    std::fs::write(dir.join("mmcblk0.blktrace.1"), cpu1.concat()).unwrap();
    let trace = format!("--read_iolog={}", dir.join("mmcblk0.blktrace.0").display());
    let out = ok_stdout(&[
        "--platform=qemu-sdhci-pci",
        "--name=r",
        &trace,
        "--output-format=json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let j = &v["jobs"][0];
    assert_eq!(
        (
            j["read"]["io_bytes"].as_u64(),
            j["write"]["io_bytes"].as_u64()
        ),
        (Some(8192), Some(4096))
    );
    std::fs::write(
        dir.join("mmcblk0.blktrace.1"),
        blk_record(130, issue, 64, 8192, 8 << 20, 1),
    )
    .unwrap();
    bad(
        &["--platform=qemu-sdhci-pci", "--name=r", &trace],
        "mmcblk0.blktrace.1: byte offset 0: a record of device 8,0 beside",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A what-if no kernel runs is named above the jobs in the normal output and in each job's
/// `mmcsim` object of the JSON, each with what mainline does instead; a run of a kernel's path
/// has neither.
#[test]
fn what_ifs_are_named_in_normal_and_json_output() {
    let args = [
        "--platform=sprd-hs400es-2020",
        "--packed=8",
        "--name=t",
        "--rw=randwrite",
        "--bs=4k",
        "--size=1m",
    ];
    let text = ok_stdout(&args);
    assert!(
        text.starts_with(
            "what-if: packed=8 — a 2020 RFC (ADMA3), never merged: mainline sends one request per command
t: (groupid=0"
        ),
        "{text}"
    );
    let mut json = args.to_vec();
    json.push("--output-format=json");
    let v: serde_json::Value = serde_json::from_str(&ok_stdout(&json)).unwrap();
    let w = &v["jobs"][0]["mmcsim"]["what_if"];
    assert_eq!(w.as_array().map(Vec::len), Some(1), "{w}");
    assert_eq!(w[0]["setting"], "packed=8");
    assert!(
        w[0]["reason"].as_str().unwrap().contains("never merged"),
        "{w}"
    );
    let plain = ok_stdout(&args[2..]);
    assert!(!plain.contains("what-if"), "{plain}");
    let mut json = args[2..].to_vec();
    json.push("--output-format=json");
    assert!(!ok_stdout(&json).contains("what_if"));
}
