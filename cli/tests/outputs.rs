//! Issue 32, item 3: no output may destroy an input or another output. For every option that
//! writes a file, a command whose output is one of its own inputs (or another of its outputs,
//! under another name of the same file) is refused with one line naming both, exit status 2,
//! and nothing is written: the input keeps its bytes, the other outputs are not created.

mod common;

use common::scratch;
use std::path::Path;
use std::process::Command;

/// Runs `mmcsim` in `dir`; expects the refusal: status 2, one line containing each of `expect`.
fn refused_in(dir: &Path, args: &[&str], expect: &[&str]) {
    let out = Command::new(env!("CARGO_BIN_EXE_mmcsim"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    for e in expect {
        assert!(err.contains(e), "{args:?}: {err} (expected {e})");
    }
    assert!(out.stdout.is_empty(), "{args:?}");
}

/// The folder's files and their bytes.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    v.sort();
    v
}

/// A folder holding a trace `t.log`, a job file `job.fio`, fio JSON results `r1.json` and a
/// platform file `p.toml`, all made by mmcsim itself.
fn inputs(name: &str) -> std::path::PathBuf {
    let dir = scratch(name);
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_mmcsim"))
            .current_dir(&dir)
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    run(&[
        "--name=a",
        "--size=64k",
        "--write_iolog=t.log",
        "--write_platform=p.toml",
    ]);
    run(&[
        "--name=a",
        "--size=64k",
        "--output-format=json",
        "--output=r1.json",
    ]);
    std::fs::write(dir.join("job.fio"), "[a]\nsize=64k\n").unwrap();
    dir
}

/// Each case: the arguments (`PLACE` stands for the folder's own name, to reach it from its
/// parent), the two option names the line must give.
fn check_all(name: &str, cases: &[(&[&str], [&str; 2])]) {
    let dir = inputs(name);
    let place = dir.file_name().unwrap().to_string_lossy().into_owned();
    let before = files(&dir);
    for (args, names) in cases {
        let args: Vec<String> = args.iter().map(|a| a.replace("PLACE", &place)).collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        refused_in(&dir, &args, names);
        assert_eq!(files(&dir), before, "{args:?} changed the folder");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn output_never_replaces_an_input_or_another_output() {
    check_all(
        "mmcsim-out-output",
        &[
            (&["job.fio", "--output=job.fio"], ["output", "job file"]),
            (
                &[
                    "--name=a",
                    "--size=64k",
                    "--write_lat_log=P",
                    "--output=P_lat.1.log",
                ],
                ["write_lat_log", "--output"],
            ),
            (
                &[
                    "--name=a",
                    "--size=64k",
                    "--output=./o.json",
                    "--write_csv=o.json",
                ],
                ["write_csv", "--output"],
            ),
            (
                &["--merge", "r1.json", "--output=./r1.json"],
                ["output", "merge"],
            ),
        ],
    );
}

#[test]
fn write_iolog_never_replaces_its_trace_or_another_output() {
    check_all(
        "mmcsim-out-iolog",
        &[
            (
                &["--name=b", "--read_iolog=t.log", "--write_iolog=t.log"],
                ["write_iolog", "read_iolog"],
            ),
            (
                &[
                    "--name=b",
                    "--size=64k",
                    "--write_iolog=X",
                    "--write_trace=X",
                ],
                ["write_iolog", "--write_trace"],
            ),
            // A second clone writes X.1, fio's name for it.
            (
                &[
                    "--name=b",
                    "--size=64k",
                    "--numjobs=2",
                    "--write_iolog=X",
                    "--write_csv=X.1",
                ],
                ["write_iolog", "--write_csv"],
            ),
        ],
    );
}

#[test]
fn the_per_job_logs_never_replace_an_input_or_another_output() {
    check_all(
        "mmcsim-out-logs",
        &[
            (
                &[
                    "--name=b",
                    "--size=64k",
                    "--write_lat_log=P",
                    "--write_csv=P_slat.1.log",
                ],
                ["write_lat_log", "--write_csv"],
            ),
            (
                &[
                    "--name=b",
                    "--size=64k",
                    "--write_bw_log=t",
                    "--write_iops_log=t",
                    "--output=t_iops.1.log",
                ],
                ["write_iops_log", "--output"],
            ),
            (
                &[
                    "--name=b",
                    "--size=64k",
                    "--write_bw_log=r1",
                    "--write_jobfile=r1_bw.1.log",
                ],
                ["write_bw_log", "--write_jobfile"],
            ),
        ],
    );
}

#[test]
fn write_trace_csv_jobfile_and_platform_never_replace_an_input() {
    check_all(
        "mmcsim-out-exports",
        &[
            (
                &["job.fio", "--write_trace=job.fio"],
                ["write_trace", "job file"],
            ),
            (
                &["--name=b", "--read_iolog=t.log", "--write_csv=./t.log"],
                ["write_csv", "read_iolog"],
            ),
            (
                &["job.fio", "--write_jobfile=job.fio"],
                ["write_jobfile", "job file"],
            ),
            (
                &[
                    "--platform_file=p.toml",
                    "--name=b",
                    "--size=64k",
                    "--write_platform=../PLACE/p.toml",
                ],
                ["write_platform", "platform_file"],
            ),
        ],
    );
}

/// `mmcsim fit --write_platform=r1.json r1.json` replaced the fio result with a TOML board.
#[test]
fn fit_write_platform_never_replaces_a_result_or_its_base() {
    let dir = inputs("mmcsim-out-fit");
    let place = dir.file_name().unwrap().to_string_lossy().into_owned();
    let before = files(&dir);
    let up = format!("--write_platform=../{place}/r1.json");
    for (args, names) in [
        (
            vec!["fit", "--write_platform=r1.json", "r1.json"],
            ["write_platform", "results"],
        ),
        (
            vec!["fit", up.as_str(), "r1.json"],
            ["write_platform", "results"],
        ),
        (
            vec![
                "fit",
                "--platform_file=p.toml",
                "--write_platform=./p.toml",
                "r1.json",
            ],
            ["write_platform", "platform_file"],
        ),
    ] {
        refused_in(&dir, &args, &names);
        assert_eq!(files(&dir), before, "{args:?} changed the folder");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
