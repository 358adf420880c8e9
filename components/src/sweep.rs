//! The Sweep panel's results: one chart per figure (plotters, [`crate::sweep_chart`]: the first
//! swept option along x with its values, one line per value of the second, a legend, log axes
//! where the values span a wide range), a table of the points, CSV / JSON exports (the CLI's
//! `--sweep` formats, written by the page) and the pinned runs, each named by the options that
//! set it apart from the other pins ([`pin_labels`]). The points come from the engine's
//! `scenario::sweep::Row`.

use std::rc::Rc;

use mmcsim_engine::scenario::sweep::Row;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct SweepResultsProps {
    /// The swept options (one or two).
    pub keys: Rc<Vec<String>>,
    /// Points finished so far, in sweep order.
    pub rows: Rc<Vec<Row>>,
    /// Points in the whole sweep.
    pub total: usize,
    /// Pinned runs: a label (what sets it apart) with its full link as a tooltip, and the figures.
    pub pinned: Rc<Vec<(String, String, Row)>>,
    /// Pin point i of `rows`.
    pub on_pin: Callback<usize>,
    pub on_unpin: Callback<usize>,
    /// Download the sweep: "csv" or "json".
    pub on_export: Callback<&'static str>,
}

/// A figure of a point.
pub type FigureOf = fn(&Row) -> f64;

/// The figures charted: title, the y axis's description, the figure.
pub const FIGURES: [(&str, &str, FigureOf); 4] = [
    ("Throughput", "MiB/s", |r| r.mib_s),
    ("IOPS", "I/O per second", |r| r.iops),
    ("p99 completion latency", "p99 latency (µs)", |r| r.p99_us),
    ("Interrupts", "interrupts per second", |r| {
        r.interrupts_per_s
    }),
];

/// The lines of one chart: per value of the second dimension (or one line), the (point index
/// along the first dimension, figure) pairs.
pub fn lines(rows: &[Row], f: FigureOf) -> Vec<(String, Vec<(usize, f64)>)> {
    let mut out: Vec<(String, Vec<(usize, f64)>)> = Vec::new();
    let mut firsts: Vec<String> = Vec::new();
    for r in rows {
        let x = r.values.first().cloned().unwrap_or_default();
        let xi = firsts.iter().position(|v| *v == x).unwrap_or_else(|| {
            firsts.push(x);
            firsts.len() - 1
        });
        let series = r.values.get(1).cloned().unwrap_or_default();
        match out.iter_mut().find(|(s, _)| *s == series) {
            Some((_, pts)) => pts.push((xi, f(r))),
            None => out.push((series, vec![(xi, f(r))])),
        }
    }
    out
}

/// The first option's values in sweep order.
fn first_values(rows: &[Row]) -> Vec<String> {
    let mut v: Vec<String> = Vec::new();
    for r in rows {
        if let Some(x) = r.values.first() {
            if !v.contains(x) {
                v.push(x.clone());
            }
        }
    }
    v
}

/// Whether positive values spanning `lo..hi` read better on a log axis: at least a factor 20.
fn wide(lo: f64, hi: f64) -> bool {
    lo > 0.0 && hi / lo >= 20.0
}

/// What one chart draws: its axes (ranges, log or not, descriptions, the x values' labels)
/// and its lines, (legend name, points).
#[derive(Clone, Debug, PartialEq)]
pub struct Axes {
    pub x_desc: String,
    pub y_desc: String,
    pub x_log: bool,
    pub y_log: bool,
    pub x_range: (f64, f64),
    pub y_range: (f64, f64),
    /// The first option's values when they are not all numbers: x is their position.
    pub x_names: Option<Vec<String>>,
    /// Where the x axis is labelled: at each swept value (every k-th of more than 16).
    pub x_keys: Vec<f64>,
    pub series: Vec<(String, Vec<(f64, f64)>)>,
}

impl Axes {
    /// The chart of figure `f` (its y description `y_desc`) over `keys`' points `rows`.
    pub fn of(keys: &[String], rows: &[Row], y_desc: &str, f: FigureOf) -> Axes {
        let firsts = first_values(rows);
        let nums: Option<Vec<f64>> = firsts.iter().map(|v| v.parse::<f64>().ok()).collect();
        let (x_of, x_names): (Vec<f64>, _) = match &nums {
            Some(n) if !n.is_empty() => (n.clone(), None),
            _ => (
                (0..firsts.len()).map(|i| i as f64).collect(),
                Some(firsts.clone()),
            ),
        };
        let (xl, xh) = x_of
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &v| {
                (l.min(v), h.max(v))
            });
        let x_log = x_names.is_none() && wide(xl, xh);
        let x_range = match (x_names.is_some(), x_log) {
            _ if !xl.is_finite() => (0.0, 1.0),
            (true, _) => (-0.5, xh + 0.5),
            (false, true) => (xl / 1.3, xh * 1.3),
            (false, false) => {
                let pad = ((xh - xl) * 0.05).max(0.5);
                (xl - pad, xh + pad)
            }
        };
        let series: Vec<(String, Vec<(f64, f64)>)> = lines(rows, f)
            .into_iter()
            .map(|(name, pts)| {
                let label = match (keys.get(1), name.is_empty()) {
                    (Some(k), false) => format!("{k}={name}"),
                    _ => y_desc.to_string(),
                };
                (label, pts.into_iter().map(|(i, v)| (x_of[i], v)).collect())
            })
            .collect();
        let ys = || series.iter().flat_map(|(_, p)| p.iter().map(|&(_, y)| y));
        let (yl, yh) = ys().fold((f64::INFINITY, 0f64), |(l, h), v| (l.min(v), h.max(v)));
        let y_log = wide(yl, yh);
        let y_range = if y_log {
            (10f64.powf(yl.log10().floor()), yh * 1.6)
        } else {
            // Room above the highest point for the legend.
            (0.0, if yh > 0.0 { yh * 1.3 } else { 1.0 })
        };
        let step = x_of.len().div_ceil(16).max(1);
        Axes {
            x_keys: x_of.iter().step_by(step).copied().collect(),
            x_desc: keys.first().cloned().unwrap_or_default(),
            y_desc: y_desc.to_string(),
            x_log,
            y_log,
            x_range,
            y_range,
            x_names,
            series,
        }
    }

    /// The label of x position `v`: the value's name, a log label or the number.
    pub fn x_label(&self, v: f64) -> String {
        match &self.x_names {
            Some(n) => {
                let i = v.round();
                if (v - i).abs() > 0.01 || i < 0.0 {
                    return String::new();
                }
                n.get(i as usize).cloned().unwrap_or_default()
            }
            None => number(v),
        }
    }
}

/// A number as an axis label: whole numbers without decimals, others with at most two.
pub fn number(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{v:.0}")
    } else {
        let t = format!("{v:.2}");
        t.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// Names for pinned runs, each from its options (`--key=value` texts) and its swept values
/// (`hsq_depth=2`): the options not shared by every pin (without their dashes, or "key
/// default" for an option another pin sets), or its swept values when nothing sets it apart.
pub fn pin_labels(pins: &[(Vec<String>, String)]) -> Vec<String> {
    let runs: Vec<&Vec<String>> = pins.iter().map(|p| &p.0).collect();
    let shared = |o: &String| runs.iter().all(|r| r.contains(o));
    let key = |o: &str| o.split('=').next().unwrap_or(o).to_string();
    pins.iter()
        .map(|(r, swept)| {
            let own: Vec<String> = r
                .iter()
                .filter(|o| !shared(o))
                .map(|o| o.trim_start_matches('-').to_string())
                .collect();
            // Options another pin sets and this one leaves at the default.
            let unset: Vec<String> = runs
                .iter()
                .flat_map(|o| o.iter())
                .filter(|o| !shared(o) && !r.iter().any(|x| key(x) == key(o)))
                .map(|o| format!("{} default", key(o.trim_start_matches('-'))))
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            let all: Vec<String> = own.into_iter().chain(unset).collect();
            if all.is_empty() {
                swept.clone()
            } else {
                all.join(", ")
            }
        })
        .collect()
}

#[derive(Properties, PartialEq)]
struct ChartProps {
    title: AttrValue,
    axes: Rc<Axes>,
}

/// One figure's chart on a canvas, redrawn when its points change.
#[function_component(SweepChart)]
fn sweep_chart(p: &ChartProps) -> Html {
    let canvas = use_node_ref();
    {
        let canvas = canvas.clone();
        use_effect_with((p.title.clone(), p.axes.clone()), move |(title, axes)| {
            if let Some(c) = canvas.cast::<HtmlCanvasElement>() {
                if let Err(e) = crate::sweep_chart::draw(c, title, axes) {
                    web_sys::console::error_1(&format!("sweep chart: {e}").into());
                }
            }
        });
    }
    let a = &p.axes;
    let legend: Vec<&str> = a.series.iter().map(|(n, _)| n.as_str()).collect();
    html! {
        <figure class="sweep-chart" data-figure={p.title.clone()} data-x-log={a.x_log.to_string()}
                data-y-log={a.y_log.to_string()} data-series={a.series.len().to_string()} data-legend={legend.join("|")}>
            <canvas ref={canvas} width="560" height="300" role="img"
                    aria-label={format!("{} against {}: {}", p.title, a.x_desc, legend.join(", "))}></canvas>
        </figure>
    }
}
fn figures_cells(r: &Row) -> Html {
    html! {
        <>
            <td>{ format!("{:.2}", r.mib_s) }</td><td>{ format!("{:.0}", r.iops) }</td>
            <td>{ format!("{:.1}", r.p50_us) }</td><td>{ format!("{:.1}", r.p99_us) }</td>
            <td>{ format!("{:.1}", r.p999_us) }</td><td>{ format!("{:.0}", r.interrupts_per_s) }</td>
            <td>{ r.requeues }</td>
        </>
    }
}

const HEAD: [&str; 7] = [
    "MiB/s",
    "IOPS",
    "p50 µs",
    "p99 µs",
    "p99.9 µs",
    "interrupts/s",
    "requeues",
];

/// The points' table, each with its pin button.
fn points_table(props: &SweepResultsProps) -> Html {
    html! {
        <div class="sweep-scroll">
        <table id="sweep-table" class="sweep-table">
            <thead><tr>
                { for props.keys.iter().map(|k| html! { <th class="key">{ k.clone() }</th> }) }
                { for HEAD.iter().map(|h| html! { <th>{ *h }</th> }) }
                <th><span class="visually-hidden">{ "pin" }</span></th>
            </tr></thead>
            <tbody>
                { for props.rows.iter().enumerate().map(|(i, r)| {
                    let pin = props.on_pin.reform(move |_: MouseEvent| i);
                    // The exact figures (shortest round-trip text), for scripts and tests.
                    html! {
                        <tr data-index={r.index.to_string()} data-mib-s={r.mib_s.to_string()}
                            data-iops={r.iops.to_string()} data-p99-us={r.p99_us.to_string()}
                            data-requeues={r.requeues.to_string()}>
                            { for r.values.iter().map(|v| html! { <td class="key">{ v.clone() }</td> }) }
                            { figures_cells(r) }
                            <td><button type="button" class="button secondary small" onclick={pin}>{ "pin" }</button></td>
                        </tr>
                    }
                }) }
            </tbody>
        </table>
        </div>
    }
}

/// The pinned runs, named by what sets each apart.
fn pinned_table(props: &SweepResultsProps) -> Html {
    html! {
        <>
        <h4 class="sweep-subtitle">{ "Pinned runs" }</h4>
        <div class="sweep-scroll">
        <table id="pinned-table" class="sweep-table">
            <thead><tr><th class="key">{ "run" }</th>{ for HEAD.iter().map(|h| html! { <th>{ *h }</th> }) }<th></th></tr></thead>
            <tbody>
                { for props.pinned.iter().enumerate().map(|(i, (label, link, r))| {
                    let unpin = props.on_unpin.reform(move |_: MouseEvent| i);
                    html! {
                        <tr><td class="key" title={link.clone()}>{ label.clone() }</td>{ figures_cells(r) }
                            <td><button type="button" class="button secondary small" onclick={unpin}>{ "unpin" }</button></td></tr>
                    }
                }) }
            </tbody>
        </table>
        </div>
        </>
    }
}

#[function_component(SweepResults)]
pub fn sweep_results(props: &SweepResultsProps) -> Html {
    let charts: Vec<(&str, Rc<Axes>)> = FIGURES
        .iter()
        .map(|(t, y, f)| (*t, Rc::new(Axes::of(&props.keys, &props.rows, y, *f))))
        .collect();
    let done = props.total > 0 && props.rows.len() == props.total;
    let export = |kind: &'static str| props.on_export.reform(move |_: MouseEvent| kind);
    html! {
        <div class="sweep-results">
            <p class="sweep-progress" role="status">{ format!("{} of {} point(s)", props.rows.len(), props.total) }</p>
            if !props.rows.is_empty() {
                <div class="sweep-charts">
                    { for charts.into_iter().map(|(t, a)| html! { <SweepChart title={t} axes={a} /> }) }
                </div>
                { points_table(props) }
                <div class="sweep-exports">
                    <span class="exports-title">{ "Download the sweep" }</span>
                    <button id="sweep-export-csv" type="button" class="button secondary small" disabled={!done}
                            onclick={export("csv")}>{ "CSV" }</button>
                    <button id="sweep-export-json" type="button" class="button secondary small" disabled={!done}
                            onclick={export("json")}>{ "JSON" }</button>
                    <span class="hint">{ "the same files as mmcsim --sweep with --output-format=csv or json" }</span>
                </div>
            }
            if !props.pinned.is_empty() {
                { pinned_table(props) }
            }
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(values: &[&str], mib_s: f64) -> Row {
        Row {
            index: 0,
            values: values.iter().map(|s| s.to_string()).collect(),
            mib_s,
            iops: 0.0,
            p50_us: 0.0,
            p99_us: 0.0,
            p999_us: 0.0,
            interrupts_per_s: 0.0,
            requeues: 0,
        }
    }

    #[test]
    fn one_line_per_value_of_the_second_dimension() {
        let rows = [
            row(&["1", "0"], 1.0),
            row(&["1", "8"], 2.0),
            row(&["2", "0"], 3.0),
            row(&["2", "8"], 4.0),
        ];
        let l = lines(&rows, |r| r.mib_s);
        assert_eq!(l.len(), 2);
        assert_eq!(l[0], ("0".to_string(), vec![(0, 1.0), (1, 3.0)]));
        assert_eq!(l[1], ("8".to_string(), vec![(0, 2.0), (1, 4.0)]));
        assert_eq!(lines(&[row(&["a"], 1.0)], |r| r.mib_s).len(), 1);
    }

    #[test]
    fn each_series_has_a_legend_name_and_wide_ranges_get_log_axes() {
        let keys = ["hsq_depth".to_string(), "packed".to_string()];
        let rows: Vec<Row> = [
            ("1", "0", 1.0),
            ("1", "8", 2.0),
            ("32", "0", 300.0),
            ("32", "8", 400.0),
        ]
        .iter()
        .map(|(a, b, v)| row(&[a, b], *v))
        .collect();
        let a = Axes::of(&keys, &rows, "MiB/s", |r| r.mib_s);
        let names: Vec<&str> = a.series.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["packed=0", "packed=8"]);
        assert!(a.x_log && a.y_log, "{a:?}");
        assert_eq!(a.series[1].1, vec![(1.0, 2.0), (32.0, 400.0)]);
        assert_eq!(a.x_desc, "hsq_depth");
        // Labelled at the swept values, in plain numbers.
        assert_eq!(a.x_keys, vec![1.0, 32.0]);
        assert_eq!(
            (a.x_label(32.0), number(0.0), number(2.5)),
            ("32".into(), "0".into(), "2.5".into())
        );
        // Narrow ranges stay linear; names that are not numbers are placed in sweep order.
        let rows = [row(&["2"], 10.0), row(&["dynamic"], 12.0)];
        let a = Axes::of(&keys[..1], &rows, "MiB/s", |r| r.mib_s);
        assert!(!a.x_log && !a.y_log);
        assert_eq!(a.series[0].0, "MiB/s");
        assert_eq!(
            (a.x_label(0.0), a.x_label(1.0), a.x_label(0.5)),
            ("2".into(), "dynamic".into(), String::new())
        );
    }

    #[test]
    fn pinned_runs_are_named_by_what_sets_them_apart() {
        let run = |o: &[&str]| {
            (
                o.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
                "swept".to_string(),
            )
        };
        let l = pin_labels(&[
            run(&["--platform=x", "--rw=randwrite", "--hsq_depth=2"]),
            run(&["--platform=x", "--rw=randwrite", "--hsq_depth=8"]),
            run(&["--platform=x", "--rw=randwrite", "--packed=8"]),
        ]);
        assert_eq!(
            l,
            [
                "hsq_depth=2, packed default",
                "hsq_depth=8, packed default",
                "packed=8, hsq_depth default"
            ]
        );
        assert_eq!(pin_labels(&[run(&["--platform=x"])]), ["swept"]);
    }
}
