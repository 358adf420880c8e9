//! `mmcsim fit`: fit a board's free parameters to fio results measured on it.
//!
//! Each RESULTS file is fio's `--output-format=json` (real fio's or mmcsim's): its `"global
//! options"` and each job's `"job options"` give the workload, read through the engine's one
//! option parser (board parameters and `platform=` in a file are not taken: the board is what is
//! fitted; options the model does not know are skipped and named); its `bw_bytes` and, for a
//! file with one reported job (fio's `group_reporting`), its completion-latency p50 and p99 are
//! the measured figures. Starting from the base preset (`--platform=`, else the one a file
//! names, else the preset nearest to the figures), Nelder-Mead (argmin) moves the free
//! parameters in log space, each kept in its option range, to minimise the sum of squared log
//! errors (latencies weighted 1/4). Runs are cut at `--fit_runtime` of simulated time (default
//! 250 ms) unless a job sets its own `runtime`: each job keeps its region (`size`), so random
//! I/O hits the card's buffers as often as in the measured run, and throughput is steady long
//! before the cut.
//!
//! A fit is flagged when it cannot be trusted: fewer figures than parameters + 1, a parameter at
//! its range's edge, an RMS error above 5 %, or the optimiser stopping without converging.

pub mod jobs;

use argmin::core::{CostFunction, Error, Executor, State};
use argmin::solver::neldermead::NelderMead;
use mmcsim_engine::scenario::board::{param, params, Param, Unit};
use mmcsim_engine::scenario::options::{lookup, OptionKind, ScenarioBuilder};
use mmcsim_engine::{Scenario, Simulator};
use std::fmt::Write;

/// Parameters fitted when `--fit=` is not given: the per-request host software and the card's
/// and bus's main rates and latencies, each moving a different kind of workload (many small
/// I/Os, random reads, writes, large transfers, FUA writes).
pub const DEFAULT_FIT: &[&str] = &[
    "completion_us",
    "nand_read_us",
    "card_write_busy_us",
    "bus_mb_s",
    "nand_program_mb_s",
    "reliable_write_us",
];

/// RMS error (in log terms, about a fraction) above which a fit is flagged.
pub const MAX_TRUSTED_RMS: f64 = 0.05;

/// One measured figure of a case.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Figure {
    /// Total bandwidth, MiB/s.
    MiBs,
    /// Completion latency percentile, us.
    P50,
    P99,
}

impl Figure {
    pub fn label(self) -> &'static str {
        match self {
            Figure::MiBs => "MiB/s",
            Figure::P50 => "p50 us",
            Figure::P99 => "p99 us",
        }
    }
    fn weight(self) -> f64 {
        match self {
            Figure::MiBs => 1.0,
            _ => 0.25,
        }
    }
}

/// One fio result: the workload and its measured figures.
#[derive(Clone, Debug)]
pub struct Case {
    pub file: String,
    /// The workload on the default board (`platform` and board parameters are set per fit).
    pub scn: Scenario,
    /// `platform=` the file names, if any (mmcsim's own output).
    pub platform: Option<String>,
    pub measured: Vec<(Figure, f64)>,
    /// Options the model does not know, skipped.
    pub skipped: Vec<String>,
}

fn text_of(v: &serde_json::Value) -> Option<String> {
    match v {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Number(n) => Some(n.to_string()),
        serde_json::Value::Bool(b) => Some(if *b { "1" } else { "0" }.to_string()),
        serde_json::Value::Null => None,
        _ => None,
    }
}

/// Reads one fio JSON output.
/// Simulated time a fit's run lasts at most, ns (`--fit_runtime`).
pub const DEFAULT_FIT_RUNTIME_NS: u64 = 250_000_000;

pub fn read_case(file: &str, text: &str, fit_runtime_ns: Option<u64>) -> Result<Case, String> {
    let doc: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("{file}: not fio JSON: {e}"))?;
    let jobs = doc["jobs"]
        .as_array()
        .filter(|j| !j.is_empty())
        .ok_or_else(|| format!("{file}: no \"jobs\" (run fio with --output-format=json)"))?;
    let mut platform = None;
    let mut skipped = Vec::new();
    let mut b = ScenarioBuilder::new(Scenario::default());
    // Options the fit takes from a file: the workload and host switches; the board is fitted.
    let mut take = |b: &mut ScenarioBuilder, section: bool, k: &str, v: &serde_json::Value| {
        let v = text_of(v);
        let Some(row) = lookup(k) else {
            skipped.push(k.to_string());
            return Ok(());
        };
        if row.name == "platform" {
            platform = v;
            return Ok(());
        }
        if row.kind == OptionKind::Platform {
            return Ok(());
        }
        let r = if section {
            b.job(k, v.as_deref())
        } else {
            b.global(k, v.as_deref())
        };
        r.map_err(|e| format!("{file}: {e}"))
    };
    if let Some(g) = doc["global options"].as_object() {
        for (k, v) in g {
            take(&mut b, false, k, v)?;
        }
    }
    // fio reports each clone of a job (numjobs) as its own entry with the same options.
    let mut last: Option<(&serde_json::Value, &serde_json::Value)> = None;
    let (mut bw, mut one_entry) = (0.0, jobs.len() == 1);
    for j in jobs {
        for d in ["read", "write"] {
            bw += j[d]["bw_bytes"].as_f64().unwrap_or(0.0);
        }
        let key = (&j["jobname"], &j["job options"]);
        if last == Some(key) {
            continue;
        }
        if last.is_some() {
            one_entry = false;
        }
        last = Some(key);
        let name = j["jobname"].as_str().unwrap_or("job");
        b.begin_job(name).map_err(|e| format!("{file}: {e}"))?;
        if let Some(o) = j["job options"].as_object() {
            for (k, v) in o.iter().filter(|(k, _)| k.as_str() != "name") {
                take(&mut b, true, k, v)?;
            }
        }
    }
    let mut scn = b.finish().map_err(|e| format!("{file}: {e}"))?;
    for j in &mut scn.jobs {
        if j.runtime_ns.is_none() {
            j.runtime_ns = Some(fit_runtime_ns.unwrap_or(DEFAULT_FIT_RUNTIME_NS));
        }
    }
    let mut measured = vec![(Figure::MiBs, bw / (1 << 20) as f64)];
    if one_entry {
        // fio reports percentiles per direction; take the busier direction's.
        let dir = ["read", "write"]
            .into_iter()
            .max_by(|a, c| {
                let n = |d: &str| jobs[0][d]["total_ios"].as_f64().unwrap_or(0.0);
                n(a).total_cmp(&n(c))
            })
            .unwrap_or("read");
        let pct = &jobs[0][dir]["clat_ns"]["percentile"];
        for (f, key) in [(Figure::P50, "50.000000"), (Figure::P99, "99.000000")] {
            if let Some(ns) = pct[key].as_f64().filter(|&ns| ns > 0.0) {
                measured.push((f, ns / 1e3));
            }
        }
    }
    if bw <= 0.0 {
        return Err(format!("{file}: no bandwidth reported (bw_bytes)"));
    }
    Ok(Case {
        file: file.to_string(),
        scn,
        platform,
        measured,
        skipped,
    })
}

/// The simulated figures of `case` on board `board` (a scenario giving platform and overrides).
pub fn simulate(case: &Case, board: &Scenario) -> Result<Vec<f64>, String> {
    let mut s = case.scn.clone();
    s.platform = board.platform.clone();
    s.board = board.board.clone();
    let mut sim = Simulator::new(&s).map_err(|e| format!("{}: {}", case.file, e))?;
    sim.run_to_end();
    let r = sim.report();
    let m = r.merged();
    let dir = if m.read.total_ios >= m.write.total_ios {
        &m.read
    } else {
        &m.write
    };
    Ok(case
        .measured
        .iter()
        .map(|(f, _)| match f {
            Figure::MiBs => r.total_mib_s(),
            Figure::P50 => dir.clat.percentile(50.0) as f64 / 1e3,
            Figure::P99 => dir.clat.percentile(99.0) as f64 / 1e3,
        })
        .collect())
}

/// Every case on `board`: on every core with the `parallel` feature (the CLI), else in turn.
fn simulate_all(cases: &[Case], board: &Scenario) -> Result<Vec<Vec<f64>>, String> {
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        cases.par_iter().map(|c| simulate(c, board)).collect()
    }
    #[cfg(not(feature = "parallel"))]
    {
        cases.iter().map(|c| simulate(c, board)).collect()
    }
}

/// Weighted squared log errors of every figure of every case.
fn cost_of(cases: &[Case], board: &Scenario) -> Result<f64, String> {
    let sims = simulate_all(cases, board)?;
    Ok(cases
        .iter()
        .zip(&sims)
        .flat_map(|(c, s)| c.measured.iter().zip(s))
        .map(|((f, m), s)| f.weight() * (s.max(1e-9) / m).ln().powi(2))
        .sum())
}

/// The free parameters and where they start.
struct Free {
    names: Vec<&'static str>,
    params: Vec<Param>,
    /// Starting value (internal units; a preset 0 starts the log scale at the range's 1 %).
    start: Vec<f64>,
}

impl Free {
    /// The board at log-offsets `x` from the start, each clamped into its range; and whether
    /// any was clamped.
    fn board(&self, base: &Scenario, x: &[f64], round: bool) -> (Scenario, Vec<bool>) {
        let mut s = base.clone();
        let mut at_edge = Vec::new();
        for ((name, p), (&x0, &xi)) in self
            .names
            .iter()
            .zip(&self.params)
            .zip(self.start.iter().zip(x))
        {
            let (min, max) = p.range();
            let mut v = x0 * xi.exp();
            if round {
                // Four significant digits: the fit is not more precise than that.
                let unit = 10f64.powi(v.max(1.0).log10().floor() as i32 - 3);
                v = (v / unit).round() * unit;
            }
            let v = v.round().clamp(min as f64, max as f64) as u64;
            let span = (max - min) as f64;
            at_edge.push(
                (v as f64 - min as f64) < span * 1e-4 || (max as f64 - v as f64) < span * 1e-4,
            );
            s.board.insert(name.to_string(), v);
        }
        s.normalize_board();
        (s, at_edge)
    }
}

struct Problem<'a> {
    cases: &'a [Case],
    base: &'a Scenario,
    free: &'a Free,
}

impl CostFunction for Problem<'_> {
    type Param = Vec<f64>;
    type Output = f64;
    fn cost(&self, x: &Vec<f64>) -> Result<f64, Error> {
        let (board, _) = self.free.board(self.base, x, false);
        cost_of(self.cases, &board).map_err(Error::msg)
    }
}

/// A finished fit.
pub struct Fit {
    pub board: Scenario,
    pub preset_board: Scenario,
    pub names: Vec<&'static str>,
    pub rms: f64,
    pub preset_rms: f64,
    pub iterations: u64,
    /// Per case and figure: (measured, simulated with the preset, simulated with the fit).
    pub rows: Vec<(String, Figure, f64, f64, f64)>,
    pub warnings: Vec<String>,
}

fn rms(cases: &[Case], board: &Scenario) -> Result<(f64, Vec<Vec<f64>>), String> {
    let sims = simulate_all(cases, board)?;
    let errs: Vec<f64> = cases
        .iter()
        .zip(&sims)
        .flat_map(|(c, s)| c.measured.iter().zip(s))
        .map(|((_, m), s)| (s - m) / m)
        .collect();
    let r = (errs.iter().map(|e| e * e).sum::<f64>() / errs.len().max(1) as f64).sqrt();
    Ok((r, sims))
}

/// The preset whose unfitted board is nearest to the figures.
fn nearest_preset(cases: &[Case]) -> Result<String, String> {
    let mut best = None;
    for p in mmcsim_engine::PLATFORMS {
        let board = Scenario {
            platform: p.name.to_string(),
            ..Scenario::default()
        };
        if let Ok(c) = cost_of(cases, &board) {
            if best.as_ref().is_none_or(|(b, _)| c < *b) {
                best = Some((c, p.name.to_string()));
            }
        }
    }
    best.map(|(_, n)| n)
        .ok_or_else(|| "fit: no preset can run these workloads".to_string())
}

/// Fits `names` (or [`DEFAULT_FIT`]) on top of `platform` (or the nearest preset).
pub fn fit(
    cases: &[Case],
    platform: Option<&str>,
    names: &[String],
    max_iters: u64,
) -> Result<Fit, String> {
    if cases.is_empty() {
        return Err("fit: no RESULTS files given (fio --output-format=json outputs)".to_string());
    }
    let mut warnings = Vec::new();
    let base_name = match platform {
        Some(p) => p.to_string(),
        None => match cases.iter().find_map(|c| c.platform.clone()) {
            Some(p) => p,
            None => {
                let p = nearest_preset(cases)?;
                warnings.push(format!(
                    "base preset: {p} (nearest to the figures; say --platform= to choose)"
                ));
                p
            }
        },
    };
    let preset = mmcsim_engine::platform::by_name(&base_name).ok_or_else(|| {
        format!(
            "platform: '{}' is not a known platform; accepted: {}",
            base_name,
            mmcsim_engine::platform::names().join(", ")
        )
    })?;
    let base = Scenario {
        platform: base_name.clone(),
        ..Scenario::default()
    };
    let names: Vec<String> = if names.is_empty() {
        DEFAULT_FIT.iter().map(|s| s.to_string()).collect()
    } else {
        names.to_vec()
    };
    let mut free = Free {
        names: Vec::new(),
        params: Vec::new(),
        start: Vec::new(),
    };
    for n in &names {
        let (row, p) = param(n).ok_or_else(|| {
            let all: Vec<&str> = params()
                .filter(|(_, p)| {
                    !matches!(p.unit, Unit::Bool | Unit::Count | Unit::Mode | Unit::Width)
                })
                .map(|(r, _)| r.name)
                .collect();
            format!(
                "fit: '{n}' is not a board parameter; accepted: {}",
                all.join(", ")
            )
        })?;
        if matches!(p.unit, Unit::Bool | Unit::Count | Unit::Mode | Unit::Width) {
            return Err(format!(
                "fit: {n} is a count, a mode or a switch; only continuous parameters are fitted"
            ));
        }
        let (min, max) = p.range();
        let v = match row.name {
            // 0 = derived: start from the rate the bus runs at.
            "bus_mb_s" => preset.bus.bytes_per_sec() as f64,
            _ => (p.get)(preset) as f64,
        };
        free.names.push(row.name);
        free.params.push(p);
        free.start.push(if v > 0.0 {
            v
        } else {
            (min as f64).max((max - min) as f64 * 0.01)
        });
    }
    let figures: usize = cases.iter().map(|c| c.measured.len()).sum();
    let (preset_rms, preset_sims) = rms(cases, &base)?;
    // Nelder-Mead in log space: a simplex of +-20 % steps around the preset.
    let n = free.names.len();
    let mut simplex = vec![vec![0.0; n]];
    for i in 0..n {
        let mut v = vec![0.0; n];
        v[i] = 0.2;
        simplex.push(v);
    }
    let solver = NelderMead::new(simplex)
        .with_sd_tolerance(1e-7)
        .map_err(|e| format!("fit: {e}"))?;
    let problem = Problem {
        cases,
        base: &base,
        free: &free,
    };
    let res = Executor::new(problem, solver)
        .configure(|s| s.max_iters(max_iters))
        // No wall clock: the engine's runs are the only time that counts (and wasm32 has none).
        .timer(false)
        .run()
        .map_err(|e| format!("fit: {e}"))?;
    let state = res.state();
    let x = state
        .get_best_param()
        .cloned()
        .unwrap_or_else(|| vec![0.0; n]);
    let iterations = state.get_iter();
    let converged = iterations < max_iters;
    let (board, edges) = free.board(&base, &x, true);
    let (fit_rms, fit_sims) = rms(cases, &board)?;
    let at_edge: Vec<&'static str> = free
        .names
        .iter()
        .zip(&edges)
        .filter(|(_, &e)| e)
        .map(|(n, _)| *n)
        .collect();
    if figures < n + 1 {
        warnings.push(format!(
            "untrustworthy: {figures} measured figure(s) for {n} parameter(s); give more results or fewer --fit= parameters"
        ));
    }
    if !at_edge.is_empty() {
        warnings.push(format!(
            "untrustworthy: at the edge of its range: {}",
            at_edge.join(", ")
        ));
    }
    if fit_rms > MAX_TRUSTED_RMS {
        warnings.push(format!(
            "untrustworthy: RMS error {:.1} % after the fit (above {:.0} %): the model or the free parameters do not explain these results",
            fit_rms * 100.0,
            MAX_TRUSTED_RMS * 100.0
        ));
    }
    if !converged {
        warnings.push(format!(
            "untrustworthy: the optimiser stopped after {iterations} iterations without converging"
        ));
    }
    let mut rows = Vec::new();
    for ((c, ps), fs) in cases.iter().zip(&preset_sims).zip(&fit_sims) {
        for (((f, m), p), s) in c.measured.iter().zip(ps).zip(fs) {
            rows.push((c.file.clone(), *f, *m, *p, *s));
        }
    }
    Ok(Fit {
        board,
        preset_board: base,
        names: free.names,
        rms: fit_rms,
        preset_rms,
        iterations,
        rows,
        warnings,
    })
}

/// The fit as a report: parameters, per-case figures, verdict.
pub fn render(f: &Fit, cases: &[Case]) -> String {
    let mut out = String::new();
    let preset = f.preset_board.platform().ok();
    let eff = f.board.effective_platform().ok();
    let _ = writeln!(
        out,
        "fit on {} of {} parameter(s) to {} figure(s) of {} result file(s), {} iteration(s)\n",
        f.preset_board.platform,
        f.names.len(),
        f.rows.len(),
        cases.len(),
        f.iterations
    );
    let _ = writeln!(
        out,
        "{:<22} {:>12} {:>12} {:>9}",
        "parameter", "preset", "fitted", "change"
    );
    for name in &f.names {
        if let (Some((_, p)), Some(pre), Some(e)) = (param(name), preset, eff.as_ref()) {
            let (a, b) = match *name {
                // 0 = derived: show the rate the bus runs at.
                "bus_mb_s" => (pre.bus.bytes_per_sec(), e.bus.bytes_per_sec()),
                _ => ((p.get)(pre), (p.get)(e)),
            };
            let _ = writeln!(
                out,
                "{:<22} {:>12} {:>12} {:>+8.1}%",
                name,
                format!("{} {}", p.unit.format(a), p.unit.label()),
                format!("{} {}", p.unit.format(b), p.unit.label()),
                (b as f64 / (a as f64).max(1e-9) - 1.0) * 100.0
            );
        }
    }
    let _ = writeln!(
        out,
        "\n{:<32} {:<7} {:>10} {:>10} {:>8} {:>10} {:>8}",
        "result", "figure", "measured", "preset", "error", "fitted", "error"
    );
    for (file, fig, m, p, s) in &f.rows {
        let short = std::path::Path::new(file)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| file.clone());
        let _ = writeln!(
            out,
            "{:<32} {:<7} {:>10.2} {:>10.2} {:>+7.1}% {:>10.2} {:>+7.1}%",
            short,
            fig.label(),
            m,
            p,
            (p - m) / m * 100.0,
            s,
            (s - m) / m * 100.0
        );
    }
    let _ = writeln!(
        out,
        "\nRMS error: preset {:.2} %, fitted {:.2} %",
        f.preset_rms * 100.0,
        f.rms * 100.0
    );
    let skipped: Vec<String> = cases
        .iter()
        .flat_map(|c| c.skipped.iter().cloned())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    if !skipped.is_empty() {
        let _ = writeln!(
            out,
            "options not in the model, skipped: {}",
            skipped.join(", ")
        );
    }
    if f.warnings.is_empty() {
        let _ = writeln!(
            out,
            "verdict: trusted (enough figures, no parameter at an edge, RMS within {:.0} %)",
            MAX_TRUSTED_RMS * 100.0
        );
    }
    for w in &f.warnings {
        let _ = writeln!(out, "{w}");
    }
    let q = mmcsim_engine::scenario::url::encode_query(&f.board, None);
    let _ = writeln!(out, "link: ?{q}");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use mmcsim_engine::scenario::options::parse_args;

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
        assert!(cases.iter().all(|c| c.scn.board.is_empty()));
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
}
