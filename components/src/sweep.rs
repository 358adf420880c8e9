//! The Sweep panel's results: small-multiple charts (one per figure, one line per value of the
//! second dimension) and a table of the points, plus the pinned runs, which stay until unpinned
//! whatever runs next. Plain SVG; the points come from the engine's `scenario::sweep::Row`.

use std::rc::Rc;

use mmcsim_engine::scenario::sweep::Row;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct SweepResultsProps {
    /// The swept options (one or two).
    pub keys: Rc<Vec<String>>,
    /// Points finished so far, in sweep order.
    pub rows: Rc<Vec<Row>>,
    /// Points in the whole sweep.
    pub total: usize,
    /// Pinned runs: a label (the scenario's link) and the figures.
    pub pinned: Rc<Vec<(String, Row)>>,
    /// Pin point i of `rows`.
    pub on_pin: Callback<usize>,
    pub on_unpin: Callback<usize>,
}

/// A figure of a point.
pub type FigureOf = fn(&Row) -> f64;

/// The figures charted, with their labels.
pub const FIGURES: [(&str, FigureOf); 4] = [
    ("MiB/s", |r| r.mib_s),
    ("IOPS", |r| r.iops),
    ("p99 us", |r| r.p99_us),
    ("interrupts/s", |r| r.interrupts_per_s),
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

const W: f64 = 220.0;
const H: f64 = 120.0;
const COLORS: [&str; 6] = [
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf",
];

fn chart(title: &str, rows: &[Row], f: FigureOf, n_x: usize) -> Html {
    let ls = lines(rows, f);
    let max = rows.iter().map(f).fold(0.0, f64::max).max(1e-9);
    let sx = |i: usize| 24.0 + (W - 32.0) * i as f64 / (n_x.max(2) - 1) as f64;
    let sy = |v: f64| H - 18.0 - (H - 32.0) * v / max;
    html! {
        <figure class="sweep-chart" data-figure={title.to_string()}>
            <svg width={W.to_string()} height={H.to_string()} viewBox={format!("0 0 {W} {H}")} role="img" aria-label={title.to_string()}>
                <line x1="24" y1={(H - 18.0).to_string()} x2={W.to_string()} y2={(H - 18.0).to_string()} stroke="#999" />
                <text x="2" y="12" font-size="10">{ format!("{max:.0}") }</text>
                { for ls.iter().enumerate().map(|(k, (name, pts))| {
                    let d: Vec<String> = pts.iter().map(|&(i, v)| format!("{:.1},{:.1}", sx(i), sy(v))).collect();
                    let c = COLORS[k % COLORS.len()];
                    html! {
                        <g>
                            <polyline points={d.join(" ")} fill="none" stroke={c} stroke-width="1.5"><title>{ name.clone() }</title></polyline>
                            { for pts.iter().map(|&(i, v)| html! { <circle cx={format!("{:.1}", sx(i))} cy={format!("{:.1}", sy(v))} r="2" fill={c} /> }) }
                        </g>
                    }
                }) }
            </svg>
            <figcaption>{ title.to_string() }</figcaption>
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
    "MiB/s", "IOPS", "p50 us", "p99 us", "p99.9 us", "irq/s", "requeues",
];

#[function_component(SweepResults)]
pub fn sweep_results(props: &SweepResultsProps) -> Html {
    let n_x = {
        let mut v: Vec<&String> = props.rows.iter().filter_map(|r| r.values.first()).collect();
        v.dedup();
        v.len()
    };
    html! {
        <div class="sweep-results">
            <p class="sweep-progress" role="status">{ format!("{} of {} point(s)", props.rows.len(), props.total) }</p>
            <div class="sweep-charts">
                { for FIGURES.iter().map(|(t, f)| chart(t, &props.rows, *f, n_x)) }
            </div>
            <table id="sweep-table" class="sweep-table">
                <thead><tr>
                    { for props.keys.iter().map(|k| html! { <th>{ k.clone() }</th> }) }
                    { for HEAD.iter().map(|h| html! { <th>{ *h }</th> }) }
                    <th></th>
                </tr></thead>
                <tbody>
                    { for props.rows.iter().enumerate().map(|(i, r)| {
                        let pin = props.on_pin.reform(move |_: MouseEvent| i);
                        // The exact figures (shortest round-trip text), for scripts and tests.
                        html! {
                            <tr data-index={r.index.to_string()} data-mib-s={r.mib_s.to_string()}
                                data-iops={r.iops.to_string()} data-p99-us={r.p99_us.to_string()}
                                data-requeues={r.requeues.to_string()}>
                                { for r.values.iter().map(|v| html! { <td>{ v.clone() }</td> }) }
                                { figures_cells(r) }
                                <td><button type="button" class="button secondary small" onclick={pin}>{ "pin" }</button></td>
                            </tr>
                        }
                    }) }
                </tbody>
            </table>
            if !props.pinned.is_empty() {
                <h4>{ "Pinned runs" }</h4>
                <table id="pinned-table" class="sweep-table">
                    <thead><tr><th>{ "run" }</th>{ for HEAD.iter().map(|h| html! { <th>{ *h }</th> }) }<th></th></tr></thead>
                    <tbody>
                        { for props.pinned.iter().enumerate().map(|(i, (label, r))| {
                            let unpin = props.on_unpin.reform(move |_: MouseEvent| i);
                            html! {
                                <tr><td><code>{ label.clone() }</code></td>{ figures_cells(r) }
                                    <td><button type="button" class="button secondary small" onclick={unpin}>{ "unpin" }</button></td></tr>
                            }
                        }) }
                    </tbody>
                </table>
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
}
