//! "What is happening": the explanation of the stage or request the user points at, and of
//! the effect the running scenario shows. The texts are the engine's
//! (`mmcsim_engine::explain`); this panel only chooses which one and lays it out.

use std::rc::Rc;

use mmcsim_engine::explain::{layer_info, stage_info, Info, Layer};
use mmcsim_engine::{MmcPath, Stage};
use yew::prelude::*;

use crate::format;

/// What the panel explains.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Focus {
    /// Nothing pointed at: the scenario's effect.
    Scenario,
    /// A column of the pipeline.
    Layer(Layer),
    /// A request (its token was clicked).
    Request(u64),
}

/// A request's life as the panel shows it: stages with their start and duration (ns) and how
/// many times in a row the request entered them (a requeue sends it back to blk-mq).
#[derive(Clone, Debug, PartialEq)]
pub struct LifeView {
    pub id: u64,
    pub job: u32,
    pub op: &'static str,
    pub stages: Vec<(Stage, u64, u64, u32)>,
    pub done: bool,
}

#[derive(Properties, PartialEq)]
pub struct ExplainPanelProps {
    pub focus: Focus,
    pub path: MmcPath,
    /// The selected request's life (when the focus is a request and the trace still has it).
    #[prop_or_default]
    pub life: Option<Rc<LifeView>>,
    /// What to watch for in this scenario (plain words, from the app).
    #[prop_or_default]
    pub hints: Rc<Vec<String>>,
    /// The engine's summary of the run so far (`explain::effect_summary`).
    #[prop_or_default]
    pub summary: Rc<Vec<String>>,
}

fn info_html(info: &Info) -> Html {
    html! {
        <>
            <h3 id="explain-title">{ info.title }</h3>
            <p class="kernel">{ for info.kernel.iter().map(|k| html! { <code>{ *k }</code> }) }</p>
            <p>{ info.text }</p>
        </>
    }
}

fn life_html(l: &LifeView) -> Html {
    let total: u64 = l.stages.iter().map(|s| s.2).sum::<u64>().max(1);
    let current = l.stages.last().map(|s| s.0);
    html! {
        <>
            <h3 id="explain-title">{ format!("Request {} · job {} · {}", l.id, l.job, l.op) }</h3>
            if let Some(st) = current.filter(|_| !l.done) {
                <p class="now">{ "Now: " }<strong>{ stage_info(st).title }</strong>{ " — " }{ stage_info(st).text }
                    { for stage_info(st).kernel.iter().map(|k| html! { <>{ " " }<code>{ *k }</code></> }) }</p>
            } else {
                <p class="now">{ "Completed and reaped by its job." }</p>
            }
            <div class="life-bar">
                { for l.stages.iter().map(|(st, _, d, _)| html! {
                    <span class={classes!("seg", format!("st-{}", st.index()))} style={format!("width: {:.2}%", *d as f64 * 100.0 / total as f64)}
                          title={format!("{}: {}", st.name(), format::latency(*d))}></span>
                }) }
            </div>
            <table class="life" id="request-life">
                <thead><tr><th>{ "stage" }</th><th>{ "time" }</th><th>{ "share" }</th></tr></thead>
                <tbody>
                    { for l.stages.iter().map(|(st, _, d, n)| html! {
                        <tr data-stage={st.name()}>
                            <td><span class={classes!("swatch", format!("st-{}", st.index()))}></span>{ stage_info(*st).title }
                                if *n > 1 && *st == Stage::BlkMq { { format!(" ×{n} (bounced by BLK_STS_RESOURCE)") } }
                                else if *n > 1 { { format!(" ×{n}") } }</td>
                            <td>{ format::latency(*d) }</td>
                            <td>{ format!("{:.0} %", *d as f64 * 100.0 / total as f64) }</td>
                        </tr>
                    }) }
                </tbody>
            </table>
        </>
    }
}

#[function_component(ExplainPanel)]
pub fn explain_panel(p: &ExplainPanelProps) -> Html {
    let head = match (p.focus, &p.life) {
        (Focus::Request(_), Some(l)) => life_html(l),
        (Focus::Request(id), None) => html! {
            <><h3 id="explain-title">{ format!("Request {id}") }</h3><p>{ "Its trace is no longer kept: pick a request still in the pipeline." }</p></>
        },
        (Focus::Layer(l), _) => info_html(&layer_info(l, p.path)),
        (Focus::Scenario, _) => html! {
            <><h3 id="explain-title">{ "What is happening" }</h3>
            <p class="muted">{ "Point at a column to see what that layer does and which kernel function stands for it; click a request to follow its life." }</p></>
        },
    };
    html! {
        <aside class="explain" id="explain" aria-live="polite">
            { head }
            if !p.hints.is_empty() {
                <h4>{ "What to watch in this scenario" }</h4>
                <ul class="hints">{ for p.hints.iter().map(|h| html! { <li>{ h }</li> }) }</ul>
            }
            if !p.summary.is_empty() {
                <h4>{ "What the run shows so far" }</h4>
                <ul class="summary" id="effect-summary">{ for p.summary.iter().map(|h| html! { <li>{ h }</li> }) }</ul>
            }
        </aside>
    }
}
