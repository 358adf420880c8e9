//! The fit as a report: parameters, per-case figures, verdict.

use crate::case::Case;
use crate::optimise::Fit;
use crate::MAX_TRUSTED_RMS;
use mmcsim_engine::scenario::board::param;
use std::fmt::Write;

/// Each free parameter on the preset and fitted, and the change.
fn parameters(out: &mut String, f: &Fit) {
    let preset = f.preset_board.platform().ok();
    let eff = f.board.effective_platform().ok();
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
}

/// Each measured figure, simulated on the preset and on the fit, with their errors.
fn figures(out: &mut String, f: &Fit) {
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
}

/// The RMS errors, the options skipped, the verdict and the fitted board's link.
fn verdict(out: &mut String, f: &Fit, cases: &[Case]) {
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
}

/// The fit as a report: parameters, per-case figures, verdict.
pub fn render(f: &Fit, cases: &[Case]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "fit on {} of {} parameter(s) to {} figure(s) of {} result file(s), {} iteration(s)\n",
        f.preset_board.platform,
        f.names.len(),
        f.rows.len(),
        cases.len(),
        f.iterations
    );
    parameters(&mut out, f);
    figures(&mut out, f);
    verdict(&mut out, f, cases);
    out
}
