//! The `mmcsim` binary with board files: platform files written and read back, sweeps as CSV
//! and merged shards, board parameters in --help, and fits that write a platform file.

mod common;

use common::{bad, mmcsim, ok_stdout, scratch};

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

/// fio results of time-based jobs keep their runtime in a fit unless `--fit_runtime` is given:
/// two of `--runtime=2 --time_based` are over the fit's work bound, and the message's advice
/// (`--fit_runtime`) makes the same fit run, cutting the jobs' own runtime too.
#[test]
fn fit_runtime_cuts_time_based_results_too() {
    let dir = scratch("mmcsim-fit-time-based");
    let mut files = Vec::new();
    for (i, depth) in ["1", "4"].iter().enumerate() {
        let out = ok_stdout(&[
            "--platform=unisoc-hsq-2023",
            "--name=t",
            "--rw=randread",
            "--bs=4k",
            "--runtime=2",
            "--time_based",
            "--ioengine=libaio",
            &format!("--iodepth={depth}"),
            "--group_reporting",
            "--output-format=json",
        ]);
        let p = dir.join(format!("t{i}.json"));
        std::fs::write(&p, out).unwrap();
        files.push(p.to_string_lossy().into_owned());
    }
    let base = ["fit", "--platform=unisoc-hsq-2023", "--fit=nand_read_us"];
    let mut args: Vec<&str> = base.to_vec();
    args.extend(files.iter().map(String::as_str));
    bad(&args, "--fit_runtime");
    let mut args: Vec<&str> = base.to_vec();
    args.push("--fit_runtime=100ms");
    args.extend(files.iter().map(String::as_str));
    let report = ok_stdout(&args);
    assert!(
        report.starts_with("fit on unisoc-hsq-2023 of 1 parameter(s)"),
        "{report}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 47: `--mmc_path=cqe` on every preset whose host driver has no cqhci prints a
/// `what-if:` line naming the driver, and the JSON's `what_if` has it: as the preset is where
/// its kernel and card can queue, else with board parameters that let them (without, the CQE is
/// refused and the board runs legacy, saying so).
#[test]
fn cqe_on_every_driver_without_cqhci_is_a_what_if_in_text_and_json() {
    for p in mmcsim_engine::PLATFORMS {
        let Some(why) = p.driver.cqhci_missing(p.kernel) else {
            continue;
        };
        let mut args = vec![
            format!("--platform={}", p.name),
            "--mmc_path=cqe".into(),
            "--name=w".into(),
            "--rw=randwrite".into(),
            "--size=64k".into(),
        ];
        if p.cq_refusal().is_some() {
            let k = if p.card.sd { "6.6" } else { "6.1" };
            args.extend(
                [
                    &format!("--kernel={k}"),
                    "--cmdq_depth=16",
                    "--card_cache_kib=1024",
                    "--cache=1",
                ]
                .map(String::from),
            );
        }
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        let text = ok_stdout(&a);
        let line = format!("what-if: mmc_path=cqe — {why}\n");
        assert!(text.starts_with(&line), "{}: {text}", p.name);
        assert!(
            why.contains(p.driver.name()) && why.contains("cqhci_init"),
            "{why}"
        );
        let json = ok_stdout(&[&a[..], &["--output-format=json"]].concat());
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        let w = &v["jobs"][0]["mmcsim"]["what_if"][0];
        assert_eq!(w["setting"], "mmc_path=cqe", "{}: {w}", p.name);
        assert_eq!(w["reason"], why, "{}", p.name);
    }
}

/// A platform file states its host driver; an unknown driver is one line naming the accepted.
#[test]
fn a_platform_file_states_its_host_driver() {
    let dir = scratch("mmcsim-driver-test");
    let f = |n: &str| dir.join(n).to_string_lossy().into_owned();
    let board = "platform = \"unisoc-hsq-2023\"\n[host]\nhost_driver = \"sdhci-brcmstb\"\n";
    std::fs::write(f("brcm.toml"), board).unwrap();
    let run = |file: &str| {
        ok_stdout(&[
            &format!("--platform_file={}", f(file)),
            "--mmc_path=cqe",
            "--name=w",
            "--rw=randwrite",
            "--size=64k",
        ])
    };
    // sdhci-brcmstb runs a CQE on eMMC from 5.6: the board's 6.6 runs it, no what-if.
    assert!(!run("brcm.toml").contains("what-if"));
    std::fs::write(f("sprd.toml"), board.replace("sdhci-brcmstb", "sdhci-sprd")).unwrap();
    assert!(run("sprd.toml").starts_with("what-if: mmc_path=cqe — sdhci-sprd has no CQE"));
    std::fs::write(f("bad.toml"), board.replace("sdhci-brcmstb", "dw_mmc")).unwrap();
    bad(
        &[&format!("--platform_file={}", f("bad.toml"))],
        "host.host_driver: 'dw_mmc' is not a host driver the model knows; accepted: sdhci-sprd, sunxi-mmc, sdhci-brcmstb, mmci, sdhci-pci",
    );
    bad(&["--host_driver=sdhci"], "accepted: sdhci-sprd, sunxi-mmc");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--list-platforms` gives each preset's host driver and its defaults as options.
#[test]
fn list_platforms_shows_each_presets_driver_and_defaults() {
    let out = ok_stdout(&["--list-platforms"]);
    for p in mmcsim_engine::PLATFORMS {
        let at = out.find(p.name).expect(p.name);
        let block: Vec<&str> = out[at..].lines().take(4).collect();
        assert!(
            block[2]
                .trim_start()
                .starts_with(&format!("host driver: {} — ", p.driver.name())),
            "{block:?}"
        );
        let defaults = block[3].trim_start();
        for opt in [
            format!("kernel={}", p.kernel),
            "ioscheduler=".into(),
            "mmc_path=".into(),
            "hsq_depth=".into(),
            "fua=".into(),
            "blk_dispatch=".into(),
        ] {
            assert!(
                defaults.starts_with("defaults: ") && defaults.contains(&opt),
                "{opt}: {defaults}"
            );
        }
    }
    let sprd = out
        .lines()
        .find(|l| l.contains("defaults: kernel=5.8"))
        .unwrap();
    assert!(
        sprd.contains("mmc_path=hsq") && sprd.contains("ioscheduler=none"),
        "{sprd}"
    );
}
