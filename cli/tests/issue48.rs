//! Issue 48, item 11 (and item 10's trace writer): `-` is standard output for the outputs that
//! take it, as in fio and most tools, and an output that is a FIFO (which would block the
//! command for ever without a reader), a directory or a socket is refused before anything
//! runs; a trace writer's failure names the option and the file.

mod common;

use common::{bad, mmcsim, scratch};
use std::process::Command;

const JOB: &[&str] = &["--name=a", "--rw=read", "--bs=4k", "--size=64k"];

fn with(extra: &[&str]) -> Vec<String> {
    JOB.iter().chain(extra).map(|s| s.to_string()).collect()
}

/// Runs mmcsim in `dir` with `args`.
fn run_in(dir: &std::path::Path, args: &[String]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_mmcsim"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn a_dash_is_standard_output() {
    let dir = scratch("mmcsim-issue48-dash");
    let out = run_in(&dir, &with(&["--output=-", "--output-format=json"]));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("\"jobname\" : \"a\""), "{text}");
    let out = run_in(&dir, &with(&["--write_trace=-", "--output=r.txt"]));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with('{') && text.contains("traceEvents"),
        "{}",
        &text[..80]
    );
    let out = run_in(&dir, &with(&["--write_trace=-", "--trace_format=ftrace"]));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("block_rq_issue"), "ftrace text on stdout");
    assert!(text.contains("(groupid=0"), "then the report");
    assert!(!dir.join("-").exists(), "no file named '-'");
    // Two outputs on standard output would interleave.
    bad(
        &["--name=a", "--size=64k", "--output=-", "--write_trace=-"],
        "write_trace: '-' is also the file of --output",
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[cfg(unix)]
#[test]
fn a_fifo_or_a_directory_is_no_output() {
    let dir = scratch("mmcsim-issue48-fifo");
    let fifo = dir.join("f");
    let ok = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(ok.success());
    let f = fifo.to_string_lossy().into_owned();
    // Refused at once (it blocked for ever before, waiting for a reader).
    bad(
        &["--name=a", "--size=64k", &format!("--write_trace={f}")],
        "write_trace: '",
    );
    let out = mmcsim(&["--name=a", "--size=64k", &format!("--output={f}")]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("is not a regular file (a FIFO, socket or block device); accepted: a regular file, a character device such as /dev/null, or - for standard output"), "{err}");
    let d = dir.to_string_lossy().into_owned();
    bad(
        &["--name=a", "--size=64k", &format!("--write_csv={d}")],
        "is a directory",
    );
    // A character device is an output: /dev/null takes the trace.
    let out = mmcsim(&["--name=a", "--size=64k", "--write_trace=/dev/null"]);
    assert!(out.status.success());
    std::fs::remove_dir_all(&dir).ok();
}

/// Item 10: a Perfetto trace to a device that refuses writes names the option and the file
/// (it said "trace export: the writer failed").
#[cfg(target_os = "linux")]
#[test]
fn a_failed_trace_write_names_option_and_file() {
    bad(
        &[
            "--name=a",
            "--size=64k",
            "--write_trace=/dev/full",
            "--trace_format=perfetto",
        ],
        "write_trace '/dev/full': ",
    );
}

/// Item 9: --trace_max_events and --trace_format without --write_trace are named.
#[test]
fn trace_options_without_a_trace_are_named() {
    let out = mmcsim(&[
        "--name=a",
        "--size=64k",
        "--trace_max_events=10",
        "--trace_format=ftrace",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("warning: trace_max_events: no effect without --write_trace"),
        "{err}"
    );
    assert!(
        err.contains("warning: trace_format: no effect without --write_trace"),
        "{err}"
    );
}

/// Item 10: a ramp longer than the job printed no figures and did not say why (every I/O
/// completed within the ramp, which fio's statistics leave out); the report says so.
#[test]
fn a_ramp_that_takes_every_io_is_said() {
    let out = run_in(&std::env::temp_dir(), &with(&["--ramp_time=24h"]));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("  note: ramp_time=24h: all 16 I/Os completed within the ramp, which the statistics leave out"),
        "{text}"
    );
    assert!(!text.contains("IOPS="), "{text}");
    // A ramp shorter than the job: figures, no note.
    let out = run_in(&std::env::temp_dir(), &with(&["--ramp_time=1ms"]));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("IOPS=") && !text.contains("note: ramp_time"),
        "{text}"
    );
}

/// Item 5: the traces of one command are held parsed, about twice their size: all of them
/// together (a binary blktrace's CPU files too) are at most 32 MiB, refused by their sizes
/// before any is read. Four 16 MiB Perfetto traces took 189 MB (276 MB before); two take 79 MB.
#[test]
fn the_traces_of_one_command_are_bounded_together() {
    let dir = scratch("mmcsim-issue48-traces");
    let mut rec = Vec::new();
    rec.extend((0x6561_7400u32 | 7).to_le_bytes());
    rec.resize(48, 0);
    std::fs::write(dir.join("d.blktrace.0"), &rec).unwrap();
    for cpu in 1..3 {
        std::fs::write(dir.join(format!("d.blktrace.{cpu}")), vec![0u8; 16 << 20]).unwrap();
    }
    let out = run_in(
        &dir,
        &[
            "--name=r".to_string(),
            "--read_iolog=d.blktrace.0".to_string(),
        ],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("read_iolog './d.blktrace.2': the traces of this command come to 33554480 bytes with it; accepted: at most 32 MiB (33554432 bytes) of traces per command"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
