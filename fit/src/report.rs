//! The fit as a report: parameters, per-case figures, verdict.

use crate::case::Case;
use crate::optimise::Fit;
use crate::validate::short;
use crate::{
    MAX_LEFT_OUT_ERROR, MIN_CROSS_VALIDATION_FILES, SENSITIVITY_FACTOR, SENSITIVITY_TOLERANCE,
};
use mmcsim_engine::scenario::board::param;
use std::fmt::Write;

/// Each free parameter on the preset and fitted, and the change.
fn parameters(out: &mut String, f: &Fit) {
    let preset = f.preset_board.effective_platform().ok();
    let eff = f.board.effective_platform().ok();
    let _ = writeln!(
        out,
        "{:<22} {:>12} {:>12} {:>9}",
        "parameter", "preset", "fitted", "change"
    );
    for name in &f.names {
        if let (Some((_, p)), Some(pre), Some(e)) = (param(name), preset.as_ref(), eff.as_ref()) {
            let (a, b) = match *name {
                // 0 = derived: show the rate the bus runs at.
                "bus_mb_s" => (pre.bus.bytes_per_sec(), e.bus.bytes_per_sec()),
                _ => ((p.get)(pre), (p.get)(e)),
            };
            let _ = write!(
                out,
                "{:<22} {:>12} {:>12} {:>+8.1}%",
                name,
                format!("{} {}", p.unit.format(a), p.unit.label()),
                format!("{} {}", p.unit.format(b), p.unit.label()),
                (b as f64 / (a as f64).max(1e-9) - 1.0) * 100.0
            );
            let _ = writeln!(
                out,
                "{}",
                if f.unconstrained.contains(name) {
                    "  unconstrained: left at the preset"
                } else {
                    ""
                }
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
        let short = short(file);
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

/// Each file left out and predicted by a fit to the others.
fn left_out(out: &mut String, f: &Fit) {
    let Some(l) = &f.left_out else {
        let _ = match files_of(f) {
            n if n >= MIN_CROSS_VALIDATION_FILES => {
                writeln!(out, "\nleft-out error: not judged: not cross-validated")
            }
            n => writeln!(
                out,
                "\nleft-out error: not judged: {n} result file(s), cross-validation needs at least {MIN_CROSS_VALIDATION_FILES}"
            ),
        };
        return;
    };
    let _ = writeln!(
        out,
        "\nleft-out error: each file left out, the others fitted, the left-out one predicted (its worst figure for its tolerance)\n{:<32} {:<7} {:>10} {:>10} {:>8} {:>7}  unconstrained by the others",
        "left out", "figure", "measured", "predicted", "error", "within"
    );
    for x in l {
        let _ = writeln!(
            out,
            "{:<32} {:<7} {:>10.2} {:>10.2} {:>+7.1}% {:>6.0}%  {}",
            short(&x.file),
            x.figure.label(),
            x.measured,
            x.predicted,
            x.error() * 100.0,
            x.figure.tolerance() * 100.0,
            if x.unconstrained.is_empty() {
                "-".to_string()
            } else {
                x.unconstrained.join(", ")
            }
        );
    }
    if let Some(w) = l
        .iter()
        .max_by(|a, b| a.error().abs().total_cmp(&b.error().abs()))
    {
        let _ = writeln!(
            out,
            "left-out error: max {:.1} % ({} {}), {} of {} file(s) within tolerance",
            w.error().abs() * 100.0,
            short(&w.file),
            w.figure.label(),
            l.iter().filter(|x| x.within()).count(),
            l.len()
        );
    }
}

/// The result files the fit saw.
fn files_of(f: &Fit) -> usize {
    f.rows
        .iter()
        .map(|r| r.0.as_str())
        .collect::<std::collections::BTreeSet<_>>()
        .len()
}

/// The RMS errors, the unconstrained parameters, the options skipped, the verdict and the
/// fitted board's link.
fn verdict(out: &mut String, f: &Fit, cases: &[Case]) {
    let _ = writeln!(
        out,
        "\nresidual RMS error (the figures fitted): preset {:.2} %, fitted {:.2} %",
        f.preset_rms * 100.0,
        f.rms * 100.0
    );
    if f.unconstrained.is_empty() {
        let _ = writeln!(out, "unconstrained parameters: none");
    } else {
        let _ = writeln!(
            out,
            "unconstrained parameters, left at the preset: {} (multiplying or dividing each by {} from the optimum, or putting it back to the preset, moves no figure of these results by more than {:.0} %)",
            f.unconstrained.join(", "),
            SENSITIVITY_FACTOR,
            SENSITIVITY_TOLERANCE * 100.0
        );
    }
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
    let _ = writeln!(
        out,
        "work: {} simulated run(s), {} cross-validation fit(s)",
        f.runs,
        f.left_out.as_ref().map_or(0, Vec::len)
    );
    for n in &f.notes {
        let _ = writeln!(out, "{n}");
    }
    if f.warnings.is_empty() {
        let _ = writeln!(
            out,
            "verdict: trusted (every result file, left out of the fit, predicted within {:.0} % (latencies {:.0} %) by a fit to the others)",
            MAX_LEFT_OUT_ERROR * 100.0,
            crate::Figure::P50.tolerance() * 100.0
        );
    } else {
        let _ = writeln!(out, "verdict: not trusted");
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
        "fit on {}{} of {} parameter(s) to {} figure(s) of {} result file(s), {} iteration(s)\n",
        f.preset_board.platform,
        match f.preset_board.board().count() {
            0 => String::new(),
            n => format!(" with {n} board value(s) of the base file"),
        },
        f.names.len(),
        f.rows.len(),
        cases.len(),
        f.iterations
    );
    parameters(&mut out, f);
    figures(&mut out, f);
    left_out(&mut out, f);
    verdict(&mut out, f, cases);
    out
}
