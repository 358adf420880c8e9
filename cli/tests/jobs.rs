//! The job-file corpus in `tests/jobs/` (written for mmcsim, one file per group of fio options):
//! every file runs, every file in `refused/` is refused with one line naming the option, and a
//! blkparse capture replays exactly as its iolog equivalents.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn jobs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/jobs")
}

/// Runs mmcsim in a scratch directory (log files land there).
fn mmcsim(args: &[&str], scratch: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mmcsim"))
        .args(args)
        .current_dir(scratch)
        .env("MMCSIM_TEST_SIZE", "8m")
        .output()
        .expect("run mmcsim")
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("mmcsim-jobs-{}-{}", name, std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn fio_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "fio"))
        .collect();
    v.sort();
    v
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)))
}

/// Runs corpus file `file` in a scratch directory `name` with JSON output, checks it exits 0,
/// and gives the directory (its log files) and the output.
fn run_corpus(name: &str, file: &str) -> (PathBuf, serde_json::Value) {
    let dir = scratch(name);
    let f = jobs_dir().join(file);
    let v = run_ok(&[&f.to_string_lossy(), "--output-format=json"], &dir);
    (dir, v)
}

/// Runs mmcsim in `dir`, checks it exits 0 (else fails with its error output) and parses its
/// JSON output.
fn run_ok(args: &[&str], dir: &Path) -> serde_json::Value {
    let out = mmcsim(args, dir);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    json(&out)
}

/// Job `name` of fio JSON output `v`.
fn job_named(v: &serde_json::Value, name: &str) -> serde_json::Value {
    v["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|j| j["jobname"] == name)
        .unwrap_or_else(|| panic!("no job {name}"))
        .clone()
}

#[test]
fn every_job_file_of_the_corpus_runs() {
    let dir = scratch("run");
    let files = fio_files(&jobs_dir());
    assert!(files.len() >= 12);
    for f in files {
        let p = f.to_string_lossy().to_string();
        let out = mmcsim(&[&p, "--output-format=normal,json+"], &dir);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{p}: {err}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("Run status group 0"), "{p}");
        let doc = &text[text.find("\n{").map_or(0, |i| i + 1)..];
        let v: serde_json::Value = serde_json::from_str(doc).unwrap_or_else(|e| panic!("{p}: {e}"));
        assert!(!v["jobs"].as_array().unwrap().is_empty(), "{p}");
        // The options without effect are listed once, on one line.
        assert!(
            err.lines().filter(|l| l.contains("no effect")).count() <= 1,
            "{p}: {err}"
        );
    }
    // logs.fio wrote fio's logs and an iolog that replays.
    for f in [
        "logged_bw.1.log",
        "logged_lat.1.log",
        "logged_clat.1.log",
        "logged_iops.1.log",
        "logged.iolog",
    ] {
        let text = std::fs::read_to_string(dir.join(f)).unwrap_or_else(|e| panic!("{f}: {e}"));
        assert!(!text.is_empty(), "{f}");
    }
    let bw = std::fs::read_to_string(dir.join("logged_bw.1.log")).unwrap();
    let first: Vec<&str> = bw.lines().next().unwrap().split(", ").collect();
    assert_eq!((first[0], first.len()), ("5", 5), "{bw}");
    let out = mmcsim(
        &[
            "--name=again",
            "--read_iolog=logged.iolog",
            "--output-format=json",
        ],
        &dir,
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_refused_job_file_names_the_option() {
    let dir = scratch("refused");
    let expect = [
        (
            "bad-trace.fio",
            "traces/bad.iolog: line 4: length is missing",
        ),
        ("engine.fio", "ioengine: 'net' is not modelled"),
        (
            "randtrimwrite.fio",
            "rw: 'randtrimwrite' is not modelled (random trim+write pairs)",
        ),
        (
            "zonemode.fio",
            "zonemode: job 'zbd': zbd on a device that is not zoned needs zonesize=",
        ),
    ];
    let files = fio_files(&jobs_dir().join("refused"));
    assert_eq!(files.len(), expect.len());
    for (f, (name, msg)) in files.iter().zip(expect) {
        assert!(f.ends_with(name));
        let out = mmcsim(&[&f.to_string_lossy()], &dir);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert_eq!(err.lines().count(), 1, "{name}: {err}");
        assert!(err.contains(msg), "{name}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The results of a replay: each job's read, write and sync figures and the simulator's
/// (without `replay_check`: a kernel trace's own times, which an iolog does not carry).
fn results(args: &[&str]) -> Vec<serde_json::Value> {
    let v = run_ok(args, &jobs_dir());
    v["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| {
            let mut m = j["mmcsim"].clone();
            m.as_object_mut().unwrap().remove("replay_check");
            serde_json::json!([j["read"], j["write"], j["sync"], m])
        })
        .collect()
}

#[test]
fn a_blkparse_capture_replays_as_its_iolog_equivalents() {
    let run = |trace: &str, extra: &[&str]| {
        let opt = format!("--read_iolog=traces/{trace}");
        let mut args = vec![
            "--name=replay",
            opt.as_str(),
            "--ioengine=libaio",
            "--iodepth=8",
            "--output-format=json",
        ];
        args.extend_from_slice(extra);
        results(&args)
    };
    // As fast as the host goes: blkparse (timestamps ignored) = iolog v2 (none to ignore).
    let bp = run("sample.blkparse", &["--replay_no_stall=1"]);
    assert_eq!(bp, run("sample.v2.iolog", &[]));
    assert_eq!(bp, run("sample.v3.iolog", &["--replay_no_stall=1"]));
    // At the captured queue times: blkparse = iolog v3 (the same times in microseconds).
    let timed = run("sample.blkparse", &[]);
    assert_eq!(timed, run("sample.v3.iolog", &[]));
    assert_ne!(timed, bp, "issuing at queue time changes the results");
    // And A/B: the same trace with ADMA3 packing off and on.
    let p0 = run("sample.blkparse", &["--packed=0"]);
    let p8 = run("sample.blkparse", &["--packed=8"]);
    assert_ne!(p0, p8);
    let io = |r: &[serde_json::Value]| (r[0][0]["io_bytes"].clone(), r[0][1]["io_bytes"].clone());
    assert_eq!(io(&p0), io(&p8), "the same I/Os either way");
    // The capture's own D..C times come with it; the iologs have none.
    let check = |t: &str| {
        let opt = format!("--read_iolog=traces/{t}");
        let v = run_ok(&["--name=r", &opt, "--output-format=json"], &jobs_dir());
        v["jobs"][0]["mmcsim"]["replay_check"]["trace_d2c"]["requests"].as_u64()
    };
    assert!(check("sample.blkparse").is_some_and(|n| n > 0));
    assert_eq!(check("sample.v3.iolog"), None);
}

#[test]
fn trims_are_discards_that_stall_the_queue_and_exitall_ends_the_group() {
    let (dir, v) = run_corpus("trim", "trim.fio");
    let job = |name: &str| job_named(&v, name);
    let (reader, punch, tw) = (job("reader"), job("punch"), job("trimwrite"));
    let trims = punch["trim"]["total_ios"].as_u64().unwrap();
    assert!(trims > 0, "{punch}");
    assert_eq!(punch["write"]["total_ios"], 0);
    // Each discard keeps the card busy for the trim time (trim_us=2000 on the default board).
    assert!(punch["trim"]["clat_ns"]["min"].as_u64().unwrap() >= 2_000_000);
    // exitall: the reader's 50 ms runtime ended the group before 8 MiB of 64 KiB trims.
    assert!(trims < 8 * 1024 / 64, "{trims} trims");
    // trimwrite: each block discarded, then written (the last write may be cut by exitall).
    let (tt, tw_w) = (
        tw["trim"]["total_ios"].as_u64().unwrap(),
        tw["write"]["total_ios"].as_u64().unwrap(),
    );
    assert!(
        tt > 0 && (tt == tw_w || tt == tw_w + 1),
        "{tt} trims, {tw_w} writes"
    );
    // A discard is MMC_ISSUE_SYNC: reads wait behind it.
    assert!(
        reader["read"]["clat_ns"]["max"].as_u64().unwrap() >= 2_000_000,
        "{reader}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The device offsets of the I/Os `write_iolog` saw, per action.
fn iolog_offsets(text: &str, action: &str) -> Vec<(u64, u64)> {
    text.lines()
        .filter_map(|l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            (t.len() == 4 && t[1] == action).then(|| (t[2].parse().unwrap(), t[3].parse().unwrap()))
        })
        .collect()
}

#[test]
fn zbd_emulated_zones_write_at_write_pointers_and_read_what_was_written() {
    let (dir, v) = run_corpus("zbd", "zbd.fio");
    let log = |job: &str| std::fs::read_to_string(dir.join(format!("zbd-{job}.log"))).unwrap();
    let writes = iolog_offsets(&log("writer"), "write");
    // size=4z of 16 KiB writes.
    assert_eq!(writes.len(), 256);
    // At most 2 zones open at once, each written sequentially from its write pointer: every
    // write starts where the previous write to its zone ended (or at the zone's start after a
    // reset).
    let mut wp = std::collections::HashMap::new();
    for &(off, len) in &writes {
        let zone = off >> 20;
        let at = wp.entry(zone).or_insert(zone << 20);
        assert!(
            off == *at || off == zone << 20,
            "write at {off}, write pointer {at}"
        );
        *at = off + len;
    }
    assert!(wp.len() >= 2, "{} zones written", wp.len());
    // The reader reads only below the write pointers.
    let reads = iolog_offsets(&log("reader"), "read");
    assert!(!reads.is_empty());
    for (off, len) in reads {
        let zone = off >> 20;
        assert!(
            off + len <= wp[&zone],
            "read {off}+{len} past the write pointer"
        );
    }
    // Trims reset zones at their starts without reaching the device; the empty reader ends
    // without an I/O.
    let job = |n: &str| job_named(&v, n);
    assert!(job("resetter")["trim"]["total_ios"].as_u64().unwrap() >= 1);
    // A device discard keeps the card busy 2 ms (trim_us); a zone reset is bookkeeping.
    let resets = iolog_offsets(&log("resetter"), "trim");
    assert!(!resets.is_empty() && resets.iter().all(|&(off, _)| off % (1 << 20) == 0));
    assert!(job("resetter")["trim"]["clat_ns"]["max"].as_u64().unwrap() < 2_000_000);
    assert_eq!(job("empty")["read"]["total_ios"], 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn steadystate_stops_a_job_once_its_metric_is_steady() {
    let (dir, v) = run_corpus("ss", "steadystate.fio");
    let runtime_ms = |n: &str| job_named(&v, n)["read"]["runtime"].as_u64().unwrap();
    // Samples from 0.6 s on; the 1 s window is full at 1.5 s.
    let steady = runtime_ms("steady");
    assert!((1_500..1_700).contains(&steady), "steady ran {steady} ms");
    assert!(
        runtime_ms("never") >= 3_000,
        "never ran {} ms",
        runtime_ms("never")
    );
    let _ = std::fs::remove_dir_all(&dir);
}
