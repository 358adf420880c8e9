//! The Sweep panel's results: one chart per figure (plotters, [`crate::sweep_chart`]: the first
//! swept option along x with its values, one line per value of the second, a legend, log axes
//! where the values span a wide range), a table of the points, CSV / JSON exports (the CLI's
//! `--sweep` formats, written by the page) and the pinned runs, each named by the options that
//! set it apart from the other pins ([`pin_labels`]). The points come from the engine's
//! `scenario::sweep::Row`; what a chart draws of them is [`crate::sweep_axes`].

use std::rc::Rc;

use mmcsim_engine::scenario::sweep::Row;

use crate::sweep_axes::{Axes, FigureOf};
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

/// The figures charted: title, the y axis's description, the figure.
pub const FIGURES: [(&str, &str, FigureOf); 4] = [
    ("Throughput", "MiB/s", |r| r.mib_s),
    ("IOPS", "I/O per second", |r| r.iops),
    ("p99 completion latency", "p99 latency (µs)", |r| r.p99_us),
    ("Interrupts", "interrupts per second", |r| {
        r.interrupts_per_s
    }),
];

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
