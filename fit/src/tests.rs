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
    let workloads: [&[&str]; 5] = [
        &["--rw=randread", "--size=4m"],
        &["--rw=randwrite", "--size=4m"],
        &["--rw=read", "--bs=512k", "--size=16m"],
        &["--rw=randread", "--numjobs=8", "--size=2m"],
        &["--rw=randwrite", "--numjobs=8", "--size=2m"],
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
    assert!(t.elapsed() < std::time::Duration::from_secs(2));
}
