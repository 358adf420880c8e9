//! A finished run in detail, under its results: the completion latency's spread (min, mean,
//! max, standard deviation from the engine's streamed histogram, per direction), the time a
//! request spends in each stage of the path (the engine's per-stage sums over the completed
//! requests: the mean only, the engine keeps no per-stage spread), and fio's normal-format text
//! of the run (`export::normal`, byte for byte what `mmcsim` prints).

use std::rc::Rc;

use mmcsim_components::format;
use mmcsim_engine::export::normal;
use mmcsim_engine::{DirStats, Report, Scenario, Stage};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct RunDetailProps {
    pub scenario: Rc<Scenario>,
    pub report: Rc<Report>,
    /// "a" or "b": the element ids' prefix.
    pub side: AttrValue,
}

/// (direction, its figures) for each direction that completed something.
fn dirs(r: &Report) -> Vec<(&'static str, DirStats)> {
    let m = r.merged();
    [("read", m.read), ("write", m.write)]
        .into_iter()
        .filter(|(_, d)| d.total_ios > 0)
        .collect()
}

/// Completion latency min / mean / max / stddev per direction.
fn spread(r: &Report) -> Html {
    let us = |ns: f64| format::latency(ns as u64);
    html! {
        <table class="metrics detail-spread">
            <caption>{ "Completion latency (clat: submission to completion reaped)" }</caption>
            <thead><tr><th></th><th scope="col">{ "min" }</th><th scope="col">{ "mean" }</th>
                <th scope="col">{ "max" }</th><th scope="col">{ "std dev" }</th></tr></thead>
            <tbody>
            { for dirs(r).into_iter().map(|(name, d)| html! {
                <tr data-dir={name}>
                    <th scope="row">{ name }</th><td>{ us(d.clat.min() as f64) }</td><td>{ us(d.clat.mean()) }</td>
                    <td>{ us(d.clat.max() as f64) }</td><td>{ us(d.clat.stddev()) }</td>
                </tr>
            }) }
            </tbody>
        </table>
    }
}

/// Mean time per completed request in each stage, and its share of the stages' total.
fn stages(r: &Report) -> Html {
    // Per request, not per I/O: a split I/O is several requests, each through every stage.
    let requests = r.sim.requests;
    let rows: Vec<(Stage, f64)> = Stage::ALL
        .iter()
        .filter(|&&s| s != Stage::Done)
        .map(|&s| (s, r.sim.stage_per_request(s)))
        .collect();
    let total: f64 = rows.iter().map(|(_, t)| t).sum();
    html! {
        <table class="metrics detail-stages">
            <caption>{ format!("Time in each stage, mean per request over {} completed request(s)", requests) }</caption>
            <thead><tr><th scope="col">{ "stage" }</th><th scope="col">{ "per request" }</th><th scope="col">{ "share" }</th></tr></thead>
            <tbody>
            { for rows.iter().map(|(s, t)| html! {
                <tr data-stage={s.name()}>
                    <th scope="row">{ s.name() }</th><td>{ format::latency(*t as u64) }</td>
                    <td>{ format!("{:.1} %", if total > 0.0 { t / total * 100.0 } else { 0.0 }) }</td>
                </tr>
            }) }
            </tbody>
        </table>
    }
}

#[function_component(RunDetail)]
pub fn run_detail(p: &RunDetailProps) -> Html {
    // Built when first opened: fio's text of a run of 1000 jobs is most of a 100 ms task when
    // the run ends, for a panel most readers leave closed.
    let (open, ontoggle) = mmcsim_components::use_opened();
    let summary =
        html! { <summary>{ "Latency spread, time per stage and fio's output" }</summary> };
    let id = format!("{}-detail", p.side);
    if !open {
        return html! { <details class="run-detail" {id} {ontoggle}>{ summary }</details> };
    }
    let text = normal::render(&p.scenario, &p.report);
    html! {
        <details class="run-detail" {id} open=true {ontoggle}>
            { summary }
            { spread(&p.report) }
            { stages(&p.report) }
            <p class="detail-title">{ "fio's normal output of this run (as mmcsim prints it)" }</p>
            <pre class="fio-normal" id={format!("{}-fio-normal", p.side)}>{ text }</pre>
        </details>
    }
}
