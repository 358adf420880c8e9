//! Issue 47, part 2: `--sensitivity` says how sure an answer is. After the usual output it
//! lists the parameters it varied and each figure's range with the parameters that move it;
//! for an A/B sweep, whether B's side of A holds; JSON gets a `sensitivity` object only when
//! asked; the cost is said before the runs, and what it cannot do is refused by name.

mod common;

const PAIR: &[&str] = &[
    "--platform=unisoc-fua-2022",
    "--name=w",
    "--rw=randwrite",
    "--bs=4k",
    "--sync=1",
    "--direct=1",
    "--size=8m",
    "--sweep=fua=0,1",
    "--sensitivity",
];

#[test]
fn an_ab_pair_says_whether_the_winner_holds_and_what_moves_it() {
    let out = common::mmcsim(PAIR);
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    // The sweep's own table first, then the block.
    let table = stdout
        .find("         fua     MiB/s")
        .expect("the sweep's table");
    let block = stdout
        .find("\nsensitivity: 6 board parameter(s)")
        .expect("the block");
    assert!(table < block, "{stdout}");
    assert!(
        stdout.contains("  flush_us                   1 us  fitted    range 1..200 us\n"),
        "{stdout}"
    );
    assert!(stdout.contains("A: fua=0; B: fua=1\n"), "{stdout}");
    let iops = stdout
        .lines()
        .find(|l| l.starts_with("w IOPS: A "))
        .unwrap();
    assert!(
        iops.contains("holds: B lower at every end; moved most by flush_us=200us"),
        "{iops}"
    );
    // Parameters the run never pays are named with the reason.
    assert!(
        stdout.contains(
            "not varied, never used by the run: the path is not the CQE (4): cqhci_irq_us"
        ),
        "{stdout}"
    );
    // The cost, before the runs, and fio's status line.
    assert!(stderr.contains("mmcsim: sensitivity: 6 parameter(s) at both ends of their range on 2 point(s): 16 runs besides the unvaried"), "{stderr}");
    assert!(stderr.contains("Jobs: sensitivity 16/16"), "{stderr}");
}

#[test]
fn json_carries_the_summary_only_when_asked() {
    let mut args = PAIR.to_vec();
    args.push("--output-format=json");
    let doc: serde_json::Value = serde_json::from_str(&common::ok_stdout(&args)).unwrap();
    let ab = doc["sensitivity"]["ab"].as_array().unwrap();
    let iops = ab.iter().find(|f| f["figure"] == "iops").unwrap();
    assert_eq!(iops["holds"], true);
    assert_eq!(iops["moved_by"][0]["param"], "flush_us");
    assert_eq!(doc["rows"].as_array().unwrap().len(), 2);
    // A single run: fio's document with the object after the jobs; without the option, none.
    let one = [
        "--platform=unisoc-fua-2022",
        "--rw=randwrite",
        "--sync=1",
        "--size=1m",
        "--output-format=json",
    ];
    let plain = common::ok_stdout(&one);
    assert!(!plain.contains("sensitivity"), "{plain}");
    let mut asked = one.to_vec();
    asked.push("--sensitivity");
    let doc: serde_json::Value = serde_json::from_str(&common::ok_stdout(&asked)).unwrap();
    let figures = &doc["sensitivity"]["points"][0]["jobs"][0]["figures"];
    assert_eq!(figures[2]["figure"], "clat_mean_us");
    assert!(figures[2]["low"].as_f64() < figures[2]["high"].as_f64());
    assert_eq!(doc["jobs"][0]["jobname"], "job");
}

#[test]
fn what_it_cannot_do_is_refused_by_name() {
    common::bad(
        &[
            "--rw=randread",
            "--size=1m",
            "--sweep=iodepth=1,2,4",
            "--sensitivity",
        ],
        "sensitivity: with --sweep, only an A/B pair (one --sweep of two values",
    );
    common::bad(
        &[
            "--rw=randread",
            "--size=1m",
            "--sweep=iodepth=1,2",
            "--sensitivity",
            "--output-format=csv",
        ],
        "sensitivity: not written in CSV",
    );
    common::bad(
        &["--rw=randread", "--size=1m", "--sensitivity=2"],
        "sensitivity",
    );
}
