//! The `mmcsim` binary: the CLI side of issue 10's regressions (huge keys, calibration,
//! mmc_test, lost ranges, job file syntax, options without effect, clashing outputs).

mod common;

use common::{bad, mmcsim, scratch};

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
