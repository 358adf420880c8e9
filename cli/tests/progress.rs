//! Issue 32, item 6: long commands say what they cost. `mmcsim fit` and `--sweep` print an
//! estimate before the long part and fio's status line (`Jobs: fit 2/4 [41.1%][elapsed
//! 00m:01s][eta 00m:01s]`) on stderr, a line per completed step off a terminal; Ctrl-C stops
//! them with what is done printed (and written) and exit status 128, as fio's `sig_int`.

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

const TABLE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../fit/tests/tables/bananapi-m64"
);

fn table(files: &[&str]) -> Vec<String> {
    files.iter().map(|f| format!("{TABLE}/{f}")).collect()
}

/// `MMm:SSs` (fio's `eta_to_str`, below an hour) in seconds.
fn secs(eta: &str) -> f64 {
    let (m, s) = eta.trim_end_matches('s').split_once("m:").unwrap();
    m.parse::<f64>().unwrap() * 60.0 + s.parse::<f64>().unwrap()
}

/// A fit of three files (four fits with the cross-validation, about 3 s here): an estimate is
/// printed before it, and each fit done gets a status line.
/// Before, nothing was printed until the end (a 10-iteration fit of 246 s said nothing).
#[test]
fn a_fit_prints_its_estimate_and_a_status_line_per_fit() {
    let mut args = vec![
        "fit".to_string(),
        "--max_iters=10".into(),
        "--fit_runtime=2s".into(),
    ];
    args.extend(table(&[
        "read-4k.json",
        "write-4k.json",
        "randread-4k.json",
    ]));
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = common::mmcsim(&a);
    assert!(out.status.success());
    let (stdout, stderr) = (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    );
    let est = stderr
        .lines()
        .find_map(|l| l.rsplit("about ").next()?.split(" in all").next())
        .filter(|e| e.ends_with('s'))
        .unwrap_or_else(|| panic!("no estimate: {stderr}"));
    // The estimate is a duration and the run says what it took. How close the two come is a
    // speed figure (within 2x on the tables fitted here: 3/9/7/14/54 s estimated for
    // 2.8/5.2/5.6/11.8/68.2 s), measured in the notes, not asserted: on a loaded machine
    // the time of the base evaluation and of the rest can differ by any factor.
    let took: f64 = stdout
        .lines()
        .find_map(|l| l.strip_prefix("took ")?.split(' ').next()?.parse().ok())
        .unwrap();
    assert!(
        secs(est) >= 0.0 && took > 0.0,
        "estimate {est}, took {took} s"
    );
    let jobs: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("Jobs: fit "))
        .collect();
    assert!(
        jobs.last().unwrap().starts_with("Jobs: fit 4/4 ["),
        "{stderr}"
    );
    assert!(jobs
        .iter()
        .all(|l| l.contains("%][elapsed ") && l.contains("][eta ")));
    assert!(!stdout.contains("Jobs:"), "the report stays clean");
}

/// Spawns `mmcsim args`, sends SIGINT once stderr shows a status line, and returns the exit
/// status, stdout and stderr.
fn interrupt(args: &[String], env: &[(&str, &str)]) -> (Option<i32>, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mmcsim"))
        .args(args)
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut stderr = String::new();
    while !stderr.contains("Jobs: ") {
        if err.read_line(&mut stderr).unwrap() == 0 {
            break;
        }
    }
    let st = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(st.success());
    let mut rest = String::new();
    while err.read_line(&mut rest).unwrap() > 0 {}
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        stderr + &rest,
    )
}

/// Ctrl-C during the cross-validation of an eight-file fit: the fit to every file is reported
/// and its board written, with the left-out fits done so far, and the exit status is 128.
#[test]
fn ctrl_c_stops_a_fit_with_what_is_done() {
    let dir = common::scratch("mmcsim-progress-fit");
    let board = dir.join("fitted.toml");
    let _ = std::fs::remove_file(&board);
    let mut args = vec![
        "fit".to_string(),
        "--max_iters=30".into(),
        "--fit_runtime=2s".into(),
        format!("--write_platform={}", board.display()),
    ];
    args.extend(table(&[
        "read-4k.json",
        "write-4k.json",
        "randread-4k.json",
        "randwrite-4k.json",
        "read-16m.json",
        "write-16m.json",
        "randread-16m.json",
        "randwrite-16m.json",
    ]));
    let (code, stdout, stderr) = interrupt(&args, &[]);
    assert_eq!(code, Some(128), "{stderr}");
    assert!(
        stderr.contains("mmcsim: terminating on signal 2"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        stdout.contains("untrustworthy: interrupted: ") && stdout.contains("verdict: not trusted"),
        "{stdout}"
    );
    assert!(std::fs::read_to_string(&board)
        .unwrap()
        .starts_with("# Made by: mmcsim fit"));
}

/// Ctrl-C during a sweep on one thread: the points done are printed (CSV), the others not
/// started, and the exit status is 128.
#[test]
fn ctrl_c_stops_a_sweep_with_the_points_done() {
    let args: Vec<String> = [
        "--name=t",
        "--rw=randread",
        "--bs=4k",
        "--size=1g",
        "--runtime=100s",
        "--time_based",
        "--ioengine=libaio",
        "--iodepth=32",
        "--sweep=packed=0,2,4,8",
        "--sweep=hsq_depth=2,4,8",
        "--output-format=csv",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let (code, stdout, stderr) = interrupt(&args, &[("RAYON_NUM_THREADS", "1")]);
    assert_eq!(code, Some(128), "{stderr}");
    let rows = stdout.lines().count() - 1;
    assert!((1..12).contains(&rows), "{rows} rows: {stdout}");
    assert!(
        stderr.contains(&format!("interrupted: {rows} of 12 points done")),
        "{stderr}"
    );
}
