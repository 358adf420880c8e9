//! The fit end to end: perturbed boards fitted back, the 2022 FUA board, too few figures.

use super::*;
use mmcsim_engine::scenario::options::parse_args;
use mmcsim_engine::{Scenario, Simulator};

/// mmcsim's own fio JSON for `args` (group_reporting: one reported job).
fn result(args: &[&str]) -> String {
    let s = parse_args(
        &[args, &["--group_reporting"]].concat(),
        Scenario::default(),
    )
    .unwrap();
    let mut sim = Simulator::new(&s).unwrap();
    sim.run_to_end();
    mmcsim_engine::export::fio_json(&s, &sim.report())
}

#[test]
fn three_perturbed_parameters_are_fitted_back_within_5_percent() {
    let board = [
        "--platform=unisoc-hsq-2023",
        "--nand_read_us=75",
        "--card_write_busy_us=11",
        "--bus_mb_s=290",
    ];
    // Every parameter is pinned by at least two files, so that each file, left out, is
    // predicted by the others: the bus rate by the two large-block reads (4 KiB reads cross
    // the card's internal channel first and say little about the bus).
    let workloads: [&[&str]; 6] = [
        &["--rw=randread", "--size=4m"],
        &["--rw=randwrite", "--size=4m"],
        &["--rw=read", "--bs=512k", "--size=16m"],
        &["--rw=randread", "--numjobs=8", "--size=2m"],
        &["--rw=randwrite", "--numjobs=8", "--size=2m"],
        &["--rw=randread", "--bs=256k", "--size=16m"],
    ];
    let cases: Vec<Case> = workloads
        .iter()
        .enumerate()
        .map(|(i, w)| {
            let text = result(&[&board[..], w].concat());
            // The file names the board; the fit must not read it from there.
            assert!(text.contains("\"nand_read_us\" : \"75\""));
            read_case(&format!("case{i}.json"), &text, None).unwrap()
        })
        .collect();
    assert!(cases.iter().all(|c| c.scn.board().next().is_none()));
    let names: Vec<String> = ["nand_read_us", "card_write_busy_us", "bus_mb_s"]
        .map(String::from)
        .to_vec();
    let f = fit(&cases, Some("unisoc-hsq-2023"), &names, 300).unwrap();
    let p = f.board.effective_platform().unwrap();
    for (got, want, what) in [
        (
            p.card.read_latency_random_ns as f64,
            75_000.0,
            "nand_read_us",
        ),
        (p.card.write_busy_ns as f64, 11_000.0, "card_write_busy_us"),
        (p.bus.bytes_per_sec() as f64, 290e6, "bus_mb_s"),
    ] {
        assert!(
            (got / want - 1.0).abs() < 0.05,
            "{what}: fitted {got}, perturbed {want}"
        );
    }
    assert!(f.warnings.is_empty(), "{:?}", f.warnings);
    assert!(f.rms < 0.01, "{}", f.rms);
    // Consistent data: every file, left out, is predicted by a fit to the others.
    let left_out = f.left_out.as_ref().expect("6 files are cross-validated");
    assert_eq!(left_out.len(), 6);
    assert!(
        left_out.iter().all(LeftOut::within),
        "{}",
        render(&f, &cases)
    );
    assert!(f.unconstrained.is_empty());
    assert!(render(&f, &cases).contains("verdict: trusted"));
}

/// `args` on the unisoc-hsq-2023 board with `board` changed, read back as a case named `name`.
fn case_of(name: &str, board: &[&str], args: &[&str]) -> Case {
    let text = result(&[&["--platform=unisoc-hsq-2023"][..], board, args].concat());
    read_case(name, &text, None).unwrap()
}

#[test]
fn a_fit_that_passes_through_its_figures_but_mispredicts_a_left_out_file_is_not_trusted() {
    // One board, three files at the extremes (as a 4k + large-block table): 4k random reads,
    // 4k random writes, 512k sequential reads. Each parameter has a file of its own, so the
    // fit passes through every figure; but left out, the random-write file is the only one
    // that knows card_write_busy_us, and the others cannot predict it.
    let board = [
        "--nand_read_us=75",
        "--card_write_busy_us=40",
        "--bus_mb_s=290",
    ];
    let cases = vec![
        case_of("rr.json", &board, &["--rw=randread", "--size=4m"]),
        case_of("rw.json", &board, &["--rw=randwrite", "--size=4m"]),
        case_of("sr.json", &board, &["--rw=read", "--bs=512k", "--size=16m"]),
    ];
    let names: Vec<String> = ["nand_read_us", "card_write_busy_us", "bus_mb_s"]
        .map(String::from)
        .to_vec();
    let f = fit(&cases, Some("unisoc-hsq-2023"), &names, 150).unwrap();
    let text = render(&f, &cases);
    assert!(f.rms < 0.01, "the residual is small: {text}");
    let left_out = f.left_out.as_ref().unwrap();
    let rw = left_out.iter().find(|l| l.file == "rw.json").unwrap();
    assert!(!rw.within(), "{text}");
    assert!(rw.error().abs() > 0.1, "{text}");
    assert_eq!(rw.unconstrained, vec!["card_write_busy_us"], "{text}");
    assert!(
        f.warnings
            .iter()
            .any(|w| w.contains("miss by more than 10 %") && w.contains("rw.json")),
        "{:?}",
        f.warnings
    );
    assert!(text.contains("verdict: not trusted"), "{text}");
    assert!(text.contains("left-out error: max"), "{text}");
    assert!(!text.contains("verdict: trusted"), "{text}");
}

#[test]
fn a_parameter_no_figure_depends_on_is_reported_unconstrained_and_left_at_the_preset() {
    // Read-only files: the card's write busy time moves none of their figures.
    let board = ["--nand_read_us=75"];
    let cases = vec![
        case_of("r1.json", &board, &["--rw=randread", "--size=4m"]),
        case_of(
            "r2.json",
            &board,
            &["--rw=randread", "--numjobs=4", "--size=2m"],
        ),
        case_of("r3.json", &board, &["--rw=read", "--bs=64k", "--size=8m"]),
    ];
    let names: Vec<String> = ["nand_read_us", "card_write_busy_us"]
        .map(String::from)
        .to_vec();
    let f = fit(&cases, Some("unisoc-hsq-2023"), &names, 150).unwrap();
    let text = render(&f, &cases);
    assert_eq!(f.unconstrained, vec!["card_write_busy_us"], "{text}");
    let preset = f.preset_board.platform().unwrap();
    let fitted = f.board.effective_platform().unwrap();
    assert_eq!(fitted.card.write_busy_ns, preset.card.write_busy_ns);
    assert!(
        !f.board.overrides.contains_key("card_write_busy_us"),
        "{text}"
    );
    let nand = fitted.card.read_latency_random_ns as f64;
    assert!((nand / 75_000.0 - 1.0).abs() < 0.05, "{text}");
    assert!(
        text.contains("unconstrained parameters, left at the preset: card_write_busy_us"),
        "{text}"
    );
    // Consistent data otherwise: the fit stays trusted.
    assert!(f.warnings.is_empty(), "{:?}", f.warnings);
    assert!(text.contains("verdict: trusted"), "{text}");
}

#[test]
fn fewer_than_three_files_cannot_be_cross_validated_and_are_not_trusted() {
    let cases = vec![
        case_of(
            "a.json",
            &["--nand_read_us=75"],
            &["--rw=randread", "--size=2m"],
        ),
        case_of(
            "b.json",
            &["--nand_read_us=75"],
            &["--rw=randread", "--numjobs=4", "--size=2m"],
        ),
    ];
    let f = fit(
        &cases,
        Some("unisoc-hsq-2023"),
        &["nand_read_us".to_string()],
        100,
    )
    .unwrap();
    assert!(f.rms < 0.01);
    assert!(f.left_out.is_none());
    assert!(
        f.warnings
            .iter()
            .any(|w| w.contains("cross-validation needs at least 3")),
        "{:?}",
        f.warnings
    );
    let text = render(&f, &cases);
    assert!(text.contains("left-out error: not judged"), "{text}");
    assert!(text.contains("verdict: not trusted"), "{text}");
}

/// The 2022 FUA board's eight measured figures (calibration data), as fio JSON files.
fn fua_cases() -> Vec<Case> {
    use mmcsim_engine::calibration::CASES;
    let mut out = Vec::new();
    for c in CASES.iter().filter(|c| c.platform == "unisoc-fua-2022") {
        for (b, measured) in [(false, c.measured.0), (true, c.measured.1)] {
            let s = c.scenario(b, 64 << 20);
            let mut sim = Simulator::new(&s).unwrap();
            sim.run_to_end();
            let text = mmcsim_engine::export::fio_json(&s, &sim.report());
            // Measured bandwidth in place of the simulated; no latencies were published.
            let mut doc: serde_json::Value = serde_json::from_str(&text).unwrap();
            let bps = measured * (1 << 20) as f64;
            for j in doc["jobs"].as_array_mut().unwrap() {
                let dir = if j["read"]["total_ios"].as_u64() > Some(0) {
                    "read"
                } else {
                    "write"
                };
                j[dir]["bw_bytes"] = serde_json::json!(bps);
                j["read"]["clat_ns"] = serde_json::json!({});
                j["write"]["clat_ns"] = serde_json::json!({});
            }
            let name = format!("{} {}", c.label(), if b { "fua=1" } else { "fua=0" });
            out.push(read_case(&name, &doc.to_string(), None).unwrap());
        }
    }
    out
}

#[test]
fn the_2022_fua_board_is_reproduced_within_the_presets_errors() {
    let cases = fua_cases();
    assert_eq!(cases.len(), 8);
    assert!(cases.iter().all(|c| c.measured.len() == 1));
    let f = fit(&cases, None, &[], 300).unwrap();
    assert_eq!(f.board.platform, "unisoc-fua-2022", "picked from the files");
    // No figure further from its measurement than the preset's largest error, and the fit
    // as a whole at least as close as the preset.
    let worst_preset = f
        .rows
        .iter()
        .map(|(_, _, m, p, _)| ((p - m) / m).abs())
        .fold(0.0, f64::max);
    for (file, _, m, _, s) in &f.rows {
        let e = ((s - m) / m).abs();
        assert!(e <= worst_preset + 1e-9, "{file}: {:.1} %", e * 100.0);
    }
    assert!(
        f.rms <= f.preset_rms + 1e-9,
        "fit {} preset {}",
        f.rms,
        f.preset_rms
    );
    eprintln!("{}", render(&f, &cases));
}

#[test]
fn a_fit_with_too_few_figures_says_so() {
    let text = result(&["--platform=unisoc-hsq-2023", "--rw=randread", "--size=1m"]);
    let cases = vec![read_case("one.json", &text, None).unwrap()];
    let names: Vec<String> = ["nand_read_us", "bus_mb_s", "completion_us", "submit_us"]
        .map(String::from)
        .to_vec();
    let f = fit(&cases, None, &names, 50).unwrap();
    assert!(
        f.warnings
            .iter()
            .any(|w| w.contains("3 measured figure(s) for 4 parameter(s)")),
        "{:?}",
        f.warnings
    );
    assert!(render(&f, &cases).contains("untrustworthy"));
    assert!(fit(&cases, None, &["bogus".to_string()], 5)
        .err()
        .unwrap()
        .contains("'bogus' is not a board parameter"));
    assert!(read_case("x.json", "{}", None)
        .unwrap_err()
        .contains("no \"jobs\""));
}

#[test]
fn the_whole_fit_is_bounded_and_each_parameter_named_once() {
    let text = result(&["--platform=unisoc-hsq-2023", "--rw=randread", "--size=4m"]);
    let case = read_case("r.json", &text, None).unwrap();
    let e = fit(
        std::slice::from_ref(&case),
        None,
        &["nand_read_us".into(), "nand_read_us".into()],
        10,
    )
    .err()
    .unwrap();
    assert!(e.contains("nand_read_us is named twice"), "{e}");
    // 100 000 iterations of 100 cases: far past the command's bound, refused before any run.
    let cases = vec![case; 100];
    let t = std::time::Instant::now();
    let e = fit(&cases, None, &[], 100_000).err().unwrap();
    assert!(
        e.contains("evaluations would simulate about") && e.contains("at most 4800000000"),
        "{e}"
    );
    // A hang guard, not a timing: running the refused fit would take hours.
    assert!(t.elapsed() < std::time::Duration::from_secs(120));
}

#[test]
fn a_result_naming_no_preset_or_an_mmc_test_run_is_refused_naming_the_file() {
    let fio = result(&["--platform=unisoc-hsq-2023", "--rw=randread", "--size=256k"]);
    assert!(read_case("r.json", &fio, None).is_ok());
    let other = fio.replace("\"unisoc-hsq-2023\"", "\"nosuchboard\"");
    let e = read_case("r2.json", &other, None).unwrap_err();
    assert!(e.starts_with("r2.json: names platform 'nosuchboard', which is no preset; accepted: sprd-hs400es-2020"), "{e}");
    let mmc = result(&["--platform=u300-mmci-2011", "--mmc_test=37", "--size=1m"]);
    let e = read_case("r3.json", &mmc, None).unwrap_err();
    assert!(
        e.starts_with("r3.json: an mmc_test run (mmc_test=37)"),
        "{e}"
    );
}

/// Every point refused (a case the engine refuses on any board: ADMA3 chains on the legacy
/// path): the search stops at the first simplex with the refusal, however many iterations it
/// was given, rather than shrinking its simplex on infinite costs until `max_iters`.
#[test]
fn a_search_whose_every_point_is_refused_stops_with_the_refusal() {
    let text = result(&["--platform=unisoc-hsq-2023", "--rw=randread", "--size=256k"]);
    let mut case = read_case("r.json", &text, None).unwrap();
    case.scn
        .set_switch::<mmcsim_engine::MmcPath>("mmc_path", Some(mmcsim_engine::MmcPath::Legacy));
    case.scn.set_switch::<u32>("packed", Some(8));
    let base = Scenario {
        platform: "unisoc-hsq-2023".to_string(),
        ..Scenario::default()
    };
    let preset = base.effective_platform().unwrap();
    let free = crate::params::Free::new(&["nand_read_us".to_string()], &preset).unwrap();
    let watch = Watch::new();
    let cases = [case];
    let (_, iterations, refused) =
        crate::search::search(&cases, &base, &free, vec![0.0], 1_000_000, &watch).unwrap();
    let e = refused.expect("the refusal");
    assert!(e.starts_with("fit: at nand_read_us="), "{e}");
    assert_eq!(iterations, 0, "no iteration after the first simplex");
    assert_eq!(watch.runs(), 1, "one run: the first point, refused");
    let e = fit(
        &cases,
        Some("unisoc-hsq-2023"),
        &["nand_read_us".to_string()],
        50,
    )
    .err()
    .unwrap();
    assert!(
        e.contains("packed requests need the host software queue"),
        "one message, the refusal: {e}"
    );
}
