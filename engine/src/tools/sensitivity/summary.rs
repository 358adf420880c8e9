//! The summary of a sensitivity run: each headline figure's range over the extra runs and the
//! parameters that move it most; for an A/B pair, whether the ratio B/A stays on its side of 1.

use super::{End, NotVaried, Plan, Swing};
use crate::report::{DirStats, Report};
use crate::scenario::Scenario;
use crate::tools::export::fio_json::blocks;
use serde::Serialize;
use std::fmt::Write;

/// The headline figures of a reported job, in print order: (key, label, unit).
const FIGURES: [(&str, &str, &str); 4] = [
    ("iops", "IOPS", ""),
    ("bw_mib_s", "bandwidth", "MiB/s"),
    ("clat_mean_us", "clat mean", "us"),
    ("clat_p99_us", "clat p99", "us"),
];

/// Most parameters named beside a figure.
const MOVERS: usize = 3;

/// A parameter's effect on a figure: the figure at its worst-moving end.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Mover {
    pub param: &'static str,
    pub end: End,
    /// The parameter's value there, with its unit.
    pub at: String,
    /// The figure (or, for an A/B pair, the ratio B/A) there.
    pub figure: f64,
}

/// One figure of one job: its value in the unvaried run and the range of the extra runs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FigureRange {
    pub figure: &'static str,
    pub base: f64,
    pub low: f64,
    pub high: f64,
    pub moved_by: Vec<Mover>,
}

/// One reported job's figures.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct JobRanges {
    pub job: String,
    pub figures: Vec<FigureRange>,
}

/// One figure of an A/B pair: the ratio B/A and whether it keeps its side of 1.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AbFigure {
    pub job: String,
    pub figure: &'static str,
    pub ratio: f64,
    pub low: f64,
    pub high: f64,
    /// The ratio stays on the unvaried run's side of 1 at every end of every range.
    pub holds: bool,
    /// The parameters at whose end the ratio crosses 1.
    pub flipped_by: Vec<&'static str>,
    pub moved_by: Vec<Mover>,
}

/// What `--sensitivity` reports (the JSON `sensitivity` object).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Sensitivity {
    /// Runs besides the unvaried one(s).
    pub runs: usize,
    pub parameters: Vec<Swing>,
    pub not_varied: Vec<NotVaried>,
    /// One entry per point: the run itself, or A and B.
    pub points: Vec<PointRanges>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ab: Vec<AbFigure>,
}

/// One point's label and its jobs' figures.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PointRanges {
    pub label: String,
    pub jobs: Vec<JobRanges>,
}

/// Each reported job's name and figures, in [`FIGURES`] order.
type JobFigures = Vec<(String, [f64; 4])>;

/// Each reported job's (name, figures in [`FIGURES`] order).
fn figures(scn: &Scenario, rep: &Report) -> JobFigures {
    blocks(scn, rep)
        .into_iter()
        .map(|b| {
            let mut d: DirStats = b.job.read.clone();
            d.merge(&b.job.write);
            d.merge(&b.job.trim);
            let f = [
                d.iops(),
                d.mib_s(),
                d.clat.mean() / 1000.0,
                d.clat.percentile(99.0) as f64 / 1000.0,
            ];
            (b.job.name.clone(), f)
        })
        .collect()
}

/// The summary of `plan` run on `points` (labels beside them): `base` the unvaried runs'
/// reports, `extra` the extra runs' reports in `plan.runs` order.
pub fn summarize(
    labels: &[String],
    points: &[Scenario],
    base: &[Report],
    plan: &Plan,
    extra: &[Report],
) -> Sensitivity {
    let unit_of = |s: &Swing| crate::board::params::find(s.param).map(|p| p.unit);
    let at = |s: &Swing, end: End| {
        let v = if end == End::Low { s.ends.0 } else { s.ends.1 };
        match unit_of(s) {
            Some(u) => format!("{} {}", u.format(v), u.label())
                .trim_end()
                .to_string(),
            None => v.to_string(),
        }
    };
    // Figures of (point, swing, end): the extra run's, or the base's where that end is the value.
    let base_f: Vec<_> = points
        .iter()
        .zip(base)
        .map(|(s, r)| figures(s, r))
        .collect();
    let mut varied: Vec<Vec<[JobFigures; 2]>> = base_f
        .iter()
        .map(|f| vec![[f.clone(), f.clone()]; plan.swings.len()])
        .collect();
    for (run, rep) in plan.runs.iter().zip(extra) {
        let i = if run.end == End::Low { 0 } else { 1 };
        varied[run.point][run.swing][i] = figures(&points[run.point], rep);
    }
    let ends = [End::Low, End::High];
    let point_ranges = (0..points.len())
        .map(|p| PointRanges {
            label: labels.get(p).cloned().unwrap_or_default(),
            jobs: base_f[p]
                .iter()
                .enumerate()
                .map(|(j, (name, f0))| JobRanges {
                    job: name.clone(),
                    figures: (0..FIGURES.len())
                        .map(|k| {
                            let value = |s: usize, e: usize| {
                                varied[p][s][e].get(j).map_or(f0[k], |x| x.1[k])
                            };
                            let mut lo = f0[k];
                            let mut hi = f0[k];
                            let mut movers = Vec::new();
                            for (s, sw) in plan.swings.iter().enumerate() {
                                let (e, v) = (0..2)
                                    .map(|e| (e, value(s, e)))
                                    .max_by(|a, b| {
                                        (a.1 - f0[k]).abs().total_cmp(&(b.1 - f0[k]).abs())
                                    })
                                    .unwrap_or((0, f0[k]));
                                lo = lo.min(value(s, 0)).min(value(s, 1));
                                hi = hi.max(value(s, 0)).max(value(s, 1));
                                if (v - f0[k]).abs() > 0.005 * f0[k].abs().max(1e-9) {
                                    movers.push(Mover {
                                        param: sw.param,
                                        end: ends[e],
                                        at: at(sw, ends[e]),
                                        figure: v,
                                    });
                                }
                            }
                            movers.sort_by(|a, b| {
                                (b.figure - f0[k])
                                    .abs()
                                    .total_cmp(&(a.figure - f0[k]).abs())
                            });
                            movers.truncate(MOVERS);
                            FigureRange {
                                figure: FIGURES[k].0,
                                base: f0[k],
                                low: lo,
                                high: hi,
                                moved_by: movers,
                            }
                        })
                        .collect(),
                })
                .collect(),
        })
        .collect();
    let mut ab = Vec::new();
    if points.len() == 2 {
        for (j, (name, a0)) in base_f[0].iter().enumerate() {
            let Some((_, b0)) = base_f[1].get(j) else {
                continue;
            };
            for k in 0..FIGURES.len() {
                let ratio = |a: f64, b: f64| if a > 0.0 { b / a } else { f64::NAN };
                let r0 = ratio(a0[k], b0[k]);
                if !r0.is_finite() {
                    continue;
                }
                let at_end = |s: usize, e: usize| {
                    let a = varied[0][s][e].get(j).map_or(a0[k], |x| x.1[k]);
                    let b = varied[1][s][e].get(j).map_or(b0[k], |x| x.1[k]);
                    ratio(a, b)
                };
                let side = |r: f64| (r - 1.0).signum();
                let (mut lo, mut hi) = (r0, r0);
                let mut flipped = Vec::new();
                let mut movers = Vec::new();
                for (s, sw) in plan.swings.iter().enumerate() {
                    let rs = [at_end(s, 0), at_end(s, 1)];
                    for r in rs.iter().filter(|r| r.is_finite()) {
                        lo = lo.min(*r);
                        hi = hi.max(*r);
                    }
                    if rs.iter().any(|r| r.is_finite() && side(*r) != side(r0)) {
                        flipped.push(sw.param);
                    }
                    let e = if (rs[0] / r0).ln().abs() >= (rs[1] / r0).ln().abs() {
                        0
                    } else {
                        1
                    };
                    if (rs[e] / r0 - 1.0).abs() > 0.005 {
                        movers.push(Mover {
                            param: sw.param,
                            end: ends[e],
                            at: at(sw, ends[e]),
                            figure: rs[e],
                        });
                    }
                }
                movers.sort_by(|a, b| {
                    (b.figure / r0)
                        .ln()
                        .abs()
                        .total_cmp(&(a.figure / r0).ln().abs())
                });
                movers.truncate(MOVERS);
                ab.push(AbFigure {
                    job: name.clone(),
                    figure: FIGURES[k].0,
                    ratio: r0,
                    low: lo,
                    high: hi,
                    holds: flipped.is_empty(),
                    flipped_by: flipped,
                    moved_by: movers,
                });
            }
        }
    }
    Sensitivity {
        runs: plan.runs.len(),
        parameters: plan.swings.clone(),
        not_varied: plan.not_varied.clone(),
        points: point_ranges,
        ab,
    }
}

fn num(v: f64) -> String {
    match v.abs() {
        x if x >= 100.0 => format!("{v:.0}"),
        x if x >= 10.0 => format!("{v:.1}"),
        _ => format!("{v:.2}"),
    }
}

/// A figure with its unit (none for IOPS).
fn with(v: f64, unit: &str) -> String {
    format!("{} {unit}", num(v)).trim_end().to_string()
}

fn movers(m: &[Mover]) -> String {
    match m.len() {
        0 => "none by 0.5 % or more".to_string(),
        _ => m
            .iter()
            .map(|m| format!("{}={}", m.param, m.at.replace(' ', "")))
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// The normal output's block, printed after the runs' own output.
pub fn render(s: &Sensitivity) -> String {
    let mut out = String::new();
    if s.parameters.is_empty() {
        let _ = writeln!(
            out,
            "\nsensitivity: no parameter this run uses has an assessed range, so nothing was varied; the figures rest on these values:"
        );
        for n in s
            .not_varied
            .iter()
            .filter(|n| !n.reason.starts_with("never used"))
        {
            let _ = writeln!(
                out,
                "  {} ({}): {}",
                n.reason,
                n.params.len(),
                n.params.join(", ")
            );
        }
        return out;
    }
    let _ = writeln!(
        out,
        "\nsensitivity: {} board parameter(s) varied one at a time to both ends of their range ({} runs besides the unvaried {}):",
        s.parameters.len(),
        s.runs,
        if s.points.len() == 2 { "A and B" } else { "one" }
    );
    for p in &s.parameters {
        let _ = writeln!(
            out,
            "  {:<20} {:>10}  {:<9} range {}",
            p.param,
            p.value,
            p.basis.key(),
            p.range
        );
    }
    for n in &s.not_varied {
        let _ = writeln!(
            out,
            "  not varied, {} ({}): {}",
            n.reason,
            n.params.len(),
            n.params.join(", ")
        );
    }
    let label = |f: &str| {
        FIGURES
            .iter()
            .find(|x| x.0 == f)
            .map_or(("", ""), |x| (x.1, x.2))
    };
    if s.ab.is_empty() {
        for p in &s.points {
            for j in &p.jobs {
                for f in &j.figures {
                    let (l, u) = label(f.figure);
                    let _ = writeln!(
                        out,
                        "{}: {l} {} (range {}..{}; moved most by {})",
                        j.job,
                        with(f.base, u),
                        num(f.low),
                        with(f.high, u),
                        movers(&f.moved_by)
                    );
                }
            }
        }
        return out;
    }
    let _ = writeln!(out, "A: {}; B: {}", s.points[0].label, s.points[1].label);
    for f in &s.ab {
        let (l, u) = label(f.figure);
        let range = |p: usize| {
            s.points[p]
                .jobs
                .iter()
                .find(|j| j.job == f.job)
                .and_then(|j| j.figures.iter().find(|x| x.figure == f.figure))
        };
        let (Some(a), Some(b)) = (range(0), range(1)) else {
            continue;
        };
        let verdict = match (f.holds, f.ratio > 1.0) {
            (true, true) => "holds: B higher at every end".to_string(),
            (true, false) => "holds: B lower at every end".to_string(),
            (false, _) => format!(
                "does NOT hold: the ratio reaches or crosses 1 at an end of {}",
                f.flipped_by.join(", ")
            ),
        };
        let _ = writeln!(
            out,
            "{} {l}: A {} ({}..{}), B {} ({}..{}); B/A {:.2}x ({:.2}..{:.2}): {verdict}; moved most by {}",
            f.job, with(a.base, u), num(a.low), num(a.high), with(b.base, u), num(b.low), num(b.high),
            f.ratio, f.low, f.high, movers(&f.moved_by)
        );
    }
    out
}
