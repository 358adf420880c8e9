//! `mmcsim fit`: the fit command line, its estimate and progress on stderr, and Ctrl-C
//! (`progress.rs`).

use crate::{help, input, paths, progress};
use mmcsim_fit::Watch;
use std::sync::atomic::Ordering::Relaxed;

/// The running fit's counters: its runs for the status line, its stop flag for Ctrl-C.
static WATCH: Watch = Watch::new();

/// `mmcsim fit [--platform=BASE | --platform_file=BASE] [--fit=PARAM,...] [--fit_runtime=TIME]
/// [--max_iters=N] [--write_platform=OUT] RESULTS...`: the fit's report. A platform file as the
/// base gives what is known of the board (bus mode, width, the card's geometry); the fit moves
/// only the `--fit=` parameters from there. The written platform file says the command that
/// made it.
pub fn run_fit(argv: &[String]) -> Result<String, String> {
    let (mut platform, mut names, mut runtime, mut iters, mut out) =
        (None, Vec::new(), None, 300, None);
    let mut base_file = None;
    let mut files = Vec::new();
    // Each option once: fio takes the last of two, which for `--fit=` silently fitted other
    // parameters than the first flag named.
    let mut given: Vec<(String, &str)> = Vec::new();
    for a in argv {
        if !a.starts_with('-') {
            files.push(a.clone());
            continue;
        }
        let (k, v) = mmcsim_engine::scenario::options::split_arg(a).map_err(|e| e.to_string())?;
        if matches!(k, "help" | "h") {
            return Ok(help::fit_usage());
        }
        let v = v
            .filter(|v| !v.is_empty())
            .ok_or_else(|| format!("{k}: needs a value"))?;
        let key = k.replace('-', "_");
        if let Some((_, first)) = given.iter().find(|(g, _)| *g == key) {
            let accepted = match key.as_str() {
                "fit" => "one --fit= naming every parameter, comma-separated, e.g. --fit=nand_read_us,bus_mb_s",
                _ => "each fit option once",
            };
            return Err(format!(
                "fit: --{key}= is given twice ('{first}' and '{a}'); accepted: {accepted}"
            ));
        }
        given.push((key.clone(), a));
        match key.as_str() {
            "platform" => platform = Some(v.to_string()),
            "platform_file" => base_file = Some(v.to_string()),
            "fit" => names.extend(v.split(',').map(|s| s.trim().to_string())),
            "fit_runtime" => {
                let ns = mmcsim_engine::scenario::units::parse_time_ns(v).map_err(|e| format!("{k}: {e}"))?;
                if ns == 0 || ns > 600_000_000_000 {
                    return Err(format!("{k}: '{v}' is out of range; accepted: a time above 0 up to 600s, e.g. 250ms"));
                }
                runtime = Some(ns)
            }
            "max_iters" => {
                iters = mmcsim_engine::scenario::units::parse_uint(v, 1, 100_000).map_err(|e| format!("{k}: {e}"))?
            }
            "write_platform" => out = Some(v.to_string()),
            _ => {
                return Err(format!(
                    "{k}: not a fit option; accepted: --platform=, --platform_file=, --fit=, --fit_runtime=, --max_iters=, --write_platform="
                ))
            }
        }
    }
    for (i, n) in names.iter().enumerate() {
        if names[..i].contains(n) {
            return Err(format!(
                "fit: '{}' is named twice; accepted: each parameter once, e.g. --fit=nand_read_us,bus_clock_mhz",
                n
            ));
        }
    }
    let cases = files
        .iter()
        .map(|f| {
            let text = input::read(f.as_ref(), &format!("results '{f}'"), false)?;
            mmcsim_fit::read_case(f, &text, runtime)
        })
        .collect::<Result<Vec<_>, _>>()?;
    let base_text = match &base_file {
        Some(path) => Some(input::read(
            path.as_ref(),
            &format!("platform_file '{path}'"),
            false,
        )?),
        None => None,
    };
    // The written board may not replace a result or the base it was fitted from.
    let outputs: Vec<(String, String)> = out
        .iter()
        .map(|p| ("write_platform".to_string(), p.clone()))
        .collect();
    paths::check(&outputs, &input::files_read())?;
    if base_file.is_some() && platform.is_some() {
        return Err(
            "fit: --platform= and --platform_file= both name the base; accepted: one of them"
                .to_string(),
        );
    }
    let base = match (&base_file, base_text) {
        (Some(path), Some(text)) => {
            let mut base = mmcsim_engine::Scenario::default();
            mmcsim_engine::scenario::board_file::apply_toml(&mut base, path, &text)
                .map_err(|e| e.to_string())?;
            Some(base)
        }
        _ => None,
    };
    let free = match names.is_empty() {
        true => mmcsim_fit::DEFAULT_FIT.len(),
        false => names.len(),
    };
    let cross = cases.len() >= mmcsim_fit::MIN_CROSS_VALIDATION_FILES;
    let fits = if cross { cases.len() + 1 } else { 1 };
    let planned = mmcsim_fit::planned_runs(cases.len(), free, iters, cross);
    progress::catch_ctrl_c(|| WATCH.stop());
    let meter = progress::Meter::new("fit", fits);
    let started = std::time::Instant::now();
    // Done: the fits finished, and of the one under way its runs over its plan (at most 95 %:
    // a fit may take more evaluations than planned).
    let evals = mmcsim_fit::planned_evaluations(free, iters);
    let current = std::sync::atomic::AtomicU64::new(0);
    let fit_runs = std::sync::atomic::AtomicU64::new(0);
    let frac = || {
        let (k, from) = (current.load(Relaxed), fit_runs.load(Relaxed));
        let per_fit = evals * (cases.len() as u64 - u64::from(k > 1)).max(1);
        let part = (WATCH.runs().saturating_sub(from) as f64 / per_fit as f64).min(0.95);
        (k.saturating_sub(1) as f64 + part) / fits as f64
    };
    // The base's evaluation (k = 0 to 1) is timed: the estimate is that times the plan.
    let mut base_at = 0.0;
    let mut on_fit = |k: usize, n: usize| {
        if k == 0 {
            base_at = meter.elapsed();
            return;
        }
        current.store(k as u64, Relaxed);
        fit_runs.store(WATCH.runs(), Relaxed);
        if k == 1 {
            let t = meter.elapsed() - base_at;
            let est = t * planned as f64 / cases.len().max(1) as f64;
            meter.say(&format!(
                "{n} fit(s) of about {evals} evaluations each (every case simulated at each); one took {t:.2} s: about {} in all (an estimate: the optimiser may converge sooner; Ctrl-C stops it and prints what is done)",
                progress::eta_to_str(est.round() as u64)
            ));
        }
        meter.update(k - 1, frac());
    };
    let result = meter.run(frac, || match &base {
        Some(base) => {
            mmcsim_fit::fit_on_reporting(&cases, base, &names, iters, true, &mut on_fit, &WATCH)
        }
        None => mmcsim_fit::fit_reporting(
            &cases,
            platform.as_deref(),
            &names,
            iters,
            &mut on_fit,
            &WATCH,
        ),
    });
    let result = match result {
        Err(e) if e == mmcsim_fit::INTERRUPTED => {
            return Err(format!(
                "fit: interrupted after {} simulated run(s), during the fit to every file: nothing fitted yet, nothing written",
                WATCH.runs()
            ))
        }
        r => r?,
    };
    if !progress::interrupted() {
        meter.update(fits, 1.0);
    }
    let took = started.elapsed().as_secs_f64();
    if let Some(path) = out {
        let board = mmcsim_engine::scenario::board_file::to_toml(&result.board)
            .map_err(|e| e.to_string())?;
        let text = format!("# Made by: mmcsim fit {}\n{board}", argv.join(" "));
        std::fs::write(&path, text).map_err(|e| format!("write_platform '{}': {}", path, e))?;
    }
    Ok(format!(
        "{}took {took:.1} s (wall clock)\n",
        mmcsim_fit::render(&result, &cases)
    ))
}
