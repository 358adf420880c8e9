//! The presets reproduce the patch authors' measurements (engine/data/measurements.toml):
//! every case within 15% with one preset per platform, and the effects (ratios) within 15%.
//! Sizes are reduced to 64 MiB per job for speed (the issue allows it).

use mmcsim_engine::calibration::{run_case, CaseResult, CASES};

const SIZE: u64 = 64 << 20;

fn results() -> &'static [CaseResult] {
    use std::sync::OnceLock;
    static R: OnceLock<Vec<CaseResult>> = OnceLock::new();
    R.get_or_init(|| {
        CASES
            .iter()
            .map(|c| {
                let size = if c.platform == "unisoc-fua-2022" || c.platform == "u300-mmci-2011" {
                    None
                } else {
                    Some(SIZE)
                };
                run_case(c, size).expect("case runs")
            })
            .collect()
    })
}

fn describe(r: &CaseResult) -> String {
    format!(
        "{} {}: simulated {:.2} / {:.2}, measured {:.2} / {:.2}",
        r.case.platform,
        r.case.label(),
        r.simulated.0,
        r.simulated.1,
        r.case.measured.0,
        r.case.measured.1
    )
}

#[test]
fn every_case_within_15_percent() {
    for r in results().iter().filter(|r| r.case.outlier.is_none()) {
        let (a, b) = r.error_pct();
        assert!(a.abs() <= 15.0 && b.abs() <= 15.0, "{}", describe(r));
    }
}

#[test]
fn the_one_outlier_is_documented_and_still_non_packed_matches() {
    let outliers: Vec<_> = results()
        .iter()
        .filter(|r| r.case.outlier.is_some())
        .collect();
    assert_eq!(
        outliers.len(),
        1,
        "only the packed random read of the 2020 RFC is flagged"
    );
    let r = outliers[0];
    assert_eq!(
        (r.case.platform, r.case.rw),
        ("sprd-hs400es-2020", mmcsim_engine::Rw::RandRead)
    );
    assert!(r.error_pct().0.abs() <= 15.0, "{}", describe(r));
}

#[test]
fn packed_and_fua_effects_within_15_percent() {
    for r in results().iter().filter(|r| r.case.outlier.is_none()) {
        if matches!(r.case.series, "sprd-hs400es-2020" | "unisoc-fua-2022") {
            let (m, s) = r.ratios();
            assert!(
                ((s - m) / m).abs() <= 0.15,
                "ratio {s:.2} vs measured {m:.2}: {}",
                describe(r)
            );
        }
    }
}

#[test]
fn packing_triples_4k_throughput() {
    for r in results()
        .iter()
        .filter(|r| r.case.series == "sprd-hs400es-2020" && r.case.outlier.is_none())
    {
        assert!(r.ratios().1 > 2.2, "{}", describe(r));
    }
}

#[test]
fn dynamic_depth_helps_only_4k_random_write() {
    for r in results()
        .iter()
        .filter(|r| r.case.platform == "unisoc-hsq-2023")
    {
        let gain = (r.simulated.1 / r.simulated.0 - 1.0) * 100.0;
        if r.case.rw == mmcsim_engine::Rw::RandWrite {
            assert!(
                (2.3..=6.9).contains(&gain),
                "gain {gain:.2}%: {}",
                describe(r)
            );
        } else {
            assert!(gain.abs() < 2.0, "gain {gain:.2}%: {}", describe(r));
        }
    }
}

#[test]
fn nonblocking_gain_between_half_and_one_and_a_half_of_measured() {
    for r in results()
        .iter()
        .filter(|r| r.case.platform == "u300-mmci-2011")
    {
        let measured = r.case.measured.1 - r.case.measured.0;
        let simulated = r.simulated.1 - r.simulated.0;
        assert!(
            simulated >= 0.5 * measured && simulated <= 1.5 * measured,
            "gain {simulated:.1} vs {measured:.1}: {}",
            describe(r)
        );
    }
}

#[test]
fn fua_leaves_reads_alone_and_slows_random_writes_fivefold() {
    for r in results()
        .iter()
        .filter(|r| r.case.platform == "unisoc-fua-2022")
    {
        let change = (r.simulated.1 / r.simulated.0 - 1.0).abs() * 100.0;
        match r.case.rw {
            mmcsim_engine::Rw::Read | mmcsim_engine::Rw::RandRead => {
                assert!(change < 3.0, "{}", describe(r))
            }
            mmcsim_engine::Rw::RandWrite => {
                assert!(r.simulated.0 / r.simulated.1 > 4.0, "{}", describe(r))
            }
            _ => {}
        }
    }
}

#[test]
fn measured_and_simulated_figures_are_found_for_a_scenario() {
    use mmcsim_engine::calibration::{measured_for, simulated_for};
    // The u300 mmc_test case reports KiB/s for the 4 KiB transfer.
    let case = &CASES[8];
    let scn = case.scenario(false, 1 << 20);
    let rep = mmcsim_engine::run(&scn).unwrap();
    let m = measured_for(&scn).expect("a measured case");
    assert_eq!(m.value, case.measured.0);
    let sim = simulated_for(&scn, &rep).expect("a simulated figure");
    assert!(
        (sim - m.value).abs() / m.value < 0.15,
        "{sim} vs {}",
        m.value
    );
    // A scenario nobody measured has neither.
    let mut other = scn.clone();
    other.platform = "sprd-hs400es-2020".into();
    other.mmc_test = None;
    assert!(measured_for(&other).is_none());
    // The FUA series is calibrated on the raw O_SYNC model: the same job on F2FS (`fs=f2fs`)
    // is not the measured case.
    let fua = CASES
        .iter()
        .find(|c| c.platform == "unisoc-fua-2022")
        .unwrap();
    let mut f2fs = fua.scenario(false, 64 << 20);
    assert!(measured_for(&f2fs).is_some());
    f2fs.jobs[0].fs = mmcsim_engine::scenario::SyncModel::F2fs;
    assert!(measured_for(&f2fs).is_none());
}

#[test]
fn hsq_gains_most_on_random_write_over_the_2020_legacy_path() {
    let intro: Vec<_> = results()
        .iter()
        .filter(|r| r.case.series == "hsq-intro-2020")
        .collect();
    assert_eq!(intro.len(), 4);
    for r in &intro {
        let (m, s) = r.ratios();
        assert!(
            ((s - m) / m).abs() <= 0.15,
            "hsq/legacy {s:.2} vs measured {m:.2}: {}",
            describe(r)
        );
        if r.case.rw == mmcsim_engine::Rw::RandWrite {
            assert!(s > 1.6, "{}", describe(r));
        } else {
            assert!(s < 1.3, "{}", describe(r));
        }
    }
}

#[test]
fn allwinner_without_hsq_percentiles_and_iops() {
    use mmcsim_engine::calibration::{run_latency, ALLWINNER_NO_HSQ};
    let r = run_latency(&ALLWINNER_NO_HSQ).expect("runs");
    assert!(r.iops_error_pct().abs() <= 10.0, "IOPS {:.0}", r.iops);
    let (lo, hi) = ALLWINNER_NO_HSQ.checked;
    for (p, m, s, e) in r.rows() {
        if p >= lo && p <= hi {
            assert!(
                e.abs() <= 15.0,
                "p{p}: simulated {s:.0} us, measured {m:.0}"
            );
        }
    }
}

/// The figures measured with one host configuration only (the 2019 1 MiB read of the 2020
/// board, the Raspberry Pi 5's command-queueing-OFF figures), each within 15 %, at 64 MiB per
/// job (the 2019 read) or the source's size.
#[test]
fn every_single_figure_within_15_percent() {
    use mmcsim_engine::calibration::SINGLES;
    for s in &SINGLES {
        let size = (s.series == "hsq-large-read-2019").then_some(64 << 20);
        let sim = s.run(size).expect("runs");
        let err = (sim / s.measured - 1.0) * 100.0;
        eprintln!(
            "{} {} {}: measured {} simulated {sim:.1} {} ({err:+.1} %)",
            s.platform,
            s.case,
            s.column,
            s.measured,
            s.measure.name()
        );
        assert!(err.abs() <= 15.0, "{} {}: {err:+.1} %", s.platform, s.case);
    }
}

/// The preset that runs the kernel's dispatch with mq-deadline (the Raspberry Pi 5) holds its
/// figures under the other candidates too: none and bfq (`mmcsim --calibration
/// --ioscheduler=X`), so which scheduler its kernel ran does not decide the fit. The
/// 2020 board does not: under mq-deadline its 20 jobs on one partition merge (the reason its
/// preset runs none, given in `board/presets/sprd.rs`).
#[test]
fn the_kernel_dispatch_presets_hold_under_every_candidate_scheduler() {
    use mmcsim_engine::calibration::{run_case_under, Under, SINGLES};
    let under = |s: &str| {
        Under::from_args(&[format!("--ioscheduler={s}"), "--blk_dispatch=kernel".into()])
            .expect("valid")
    };
    for sched in ["none", "mq-deadline", "bfq"] {
        let u = under(sched);
        for s in SINGLES.iter().filter(|s| s.platform == "rpi5-sd-2024") {
            let err = (s.run_under(None, &u).expect("runs") / s.measured - 1.0) * 100.0;
            assert!(err.abs() <= 15.0, "{sched}: {} {err:+.1} %", s.case);
        }
    }
    let sprd = CASES
        .iter()
        .find(|c| c.platform == "sprd-hs400es-2020" && c.label() == "read 4KiB")
        .expect("the 2020 board's sequential read");
    let merged = run_case_under(sprd, Some(SIZE), &under("mq-deadline")).expect("runs");
    assert!(
        merged.simulated.0 > 2.0 * sprd.measured.0,
        "mq-deadline merges the 2020 board's 20 sequential jobs: {}",
        describe(&merged)
    );
}

#[test]
fn a_calibration_scheduler_is_checked_and_applied() {
    use mmcsim_engine::calibration::Under;
    let e = Under::from_args(&["--ioscheduler=cfq".into()]).unwrap_err();
    assert!(e.to_string().contains("accepted: none, mq-deadline"), "{e}");
    let none = Under::from_args(&["--size=1m".into()]).expect("other options are not its");
    assert!(none.is_presets());
    let u = Under::from_args(&["--ioscheduler=bfq".into()]).expect("valid");
    assert_eq!(u.describe(), "ioscheduler=bfq");
    let mut s = mmcsim_engine::Scenario {
        platform: "rpi5-sd-2024".into(),
        ..Default::default()
    };
    u.apply(&mut s);
    let p = s.effective_platform().expect("valid");
    assert_eq!(p.switches.iosched, mmcsim_engine::IoSched::Bfq);
}
