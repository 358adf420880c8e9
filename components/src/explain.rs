//! "What is happening": the explanation of the stage or request the user points at, and of
//! the effect the running scenario shows. The texts are the engine's
//! (`mmcsim_engine::explain`); this panel only chooses which one and lays it out.

use std::rc::Rc;

use mmcsim_engine::explain::{layer_info_on, stage_info_for, why_slow, Info, Layer};
use mmcsim_engine::{Cause, MmcPath, Op, Stage, TraceEvent};
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

/// Where one request spent its time so far, as the panel shows it: one row per stage with its
/// start and time spent (ns) and how many times in a row the request entered it (a request
/// `mmc_mq_queue_rq` refuses goes back to blk-mq).
#[derive(Clone, Debug, PartialEq)]
pub struct LifeView {
    pub id: u64,
    pub job: u32,
    pub op: Op,
    /// (stage, entered at ns, time spent ns, times entered in a row); the last row's time runs
    /// to `now` unless the request is done.
    pub stages: Vec<(Stage, u64, u64, u32)>,
    pub done: bool,
    /// What the simulation drew or decided, per stage row (index into `stages`).
    pub causes: Vec<(usize, Cause)>,
    /// Why it was slow: the stage it spent the most time in and the cause, in plain words
    /// (`explain::why_slow`).
    pub why: Option<String>,
}

impl LifeView {
    /// The life of request `id` at simulated time `now` from its trace events (the stages it
    /// entered, in any order; events after `now` are left out). None without events.
    pub fn from_trace(id: u64, trace: &[TraceEvent], now: u64) -> Option<LifeView> {
        let first = trace.first()?;
        let (job, op) = (first.job, first.op);
        let mut entries: Vec<(u64, Stage, Cause)> = trace
            .iter()
            .filter(|e| e.t_ns <= now)
            .map(|e| (e.t_ns, e.stage, e.cause))
            .collect();
        entries.sort_by_key(|e| e.0);
        let done = entries.last().is_some_and(|e| e.1 == Stage::Done);
        // Consecutive entries of one stage are one row whose count says how often it went round.
        let mut stages: Vec<(Stage, u64, u64, u32)> = Vec::new();
        let mut causes: Vec<(usize, Cause)> = Vec::new();
        for (i, &(t, st, cause)) in entries.iter().enumerate() {
            if cause != Cause::None {
                // A cause on the Done event (the reap) or on leaving the host queue (passed
                // over) belongs to the stage it closes.
                let closes = st == Stage::Done || matches!(cause, Cause::PassedOver { .. });
                let row = if closes || stages.last().is_some_and(|l| l.0 == st) {
                    stages.len().saturating_sub(1)
                } else {
                    stages.len()
                };
                causes.push((row, cause));
            }
            if st == Stage::Done {
                continue;
            }
            let end = entries.get(i + 1).map(|e| e.0).unwrap_or(now);
            let d = end.saturating_sub(t);
            match stages.last_mut() {
                Some(last) if last.0 == st => {
                    last.2 += d;
                    last.3 += 1;
                }
                _ => stages.push((st, t, d, 1)),
            }
        }
        let why = stages
            .iter()
            .enumerate()
            .max_by_key(|(_, s)| s.2)
            .filter(|(_, s)| s.2 > 0)
            .map(|(i, &(st, _, d, n))| {
                let here: Vec<Cause> = causes.iter().filter(|c| c.0 == i).map(|c| c.1).collect();
                why_slow(st, op, d, n, &here)
            });
        Some(LifeView {
            id,
            job,
            op,
            stages,
            done,
            causes,
            why,
        })
    }
}

#[derive(Properties, PartialEq)]
pub struct ExplainPanelProps {
    pub focus: Focus,
    pub path: MmcPath,
    /// The platform preset (names the controller).
    #[prop_or_default]
    pub platform: AttrValue,
    /// The selected request's life (when the focus is a request and the trace still has it).
    #[prop_or_default]
    pub life: Option<Rc<LifeView>>,
    /// Why a selected request has no life to show when it is not that its trace is no longer
    /// kept (the run never made it, or there is no such side).
    #[prop_or_default]
    pub absent: Option<AttrValue>,
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
            <h3 id="explain-title">{ format!("Request {} · job {} · {}", l.id, l.job, l.op.name()) }</h3>
            if let Some(st) = current.filter(|_| !l.done) {
                <p class="now">{ "Now: " }<strong>{ stage_info_for(st, l.op).title }</strong>{ " — " }{ stage_info_for(st, l.op).text }
                    { for stage_info_for(st, l.op).kernel.iter().map(|k| html! { <>{ " " }<code>{ *k }</code></> }) }</p>
            } else {
                <p class="now">{ "Completed and reaped by its job." }</p>
            }
            if let Some(why) = &l.why {
                <p class="why" id="request-why"><strong>{ if l.done { "Why it took this long: " } else { "Why it is taking this long: " } }</strong>{ why.clone() }</p>
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
                            <td><span class={classes!("swatch", format!("st-{}", st.index()))}></span>{ stage_info_for(*st, l.op).title }
                                if *n > 1 && *st == Stage::BlkMq { { format!(" ×{n} (refused, tried again)") } }
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
            <><h3 id="explain-title">{ format!("Request {id}") }</h3><p>{ match &p.absent {
                Some(why) => why.clone(),
                None => AttrValue::from("Its trace is not kept: it began too long ago, or while Run went to the end untraced. Follow a request that entered the pipeline since."),
            } }</p></>
        },
        (Focus::Layer(l), _) => info_html(&layer_info_on(l, p.path, &p.platform)),
        (Focus::Scenario, _) => html! {
            <><h3 id="explain-title">{ "What is happening" }</h3>
            <p class="muted">{ "Point at (or tap) a column to see what that layer does and which kernel function stands for it; click a request to follow its life. Terms: see the " }<a href="#glossary">{ "glossary" }</a>{ "." }</p></>
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
            <crate::glossary::Glossary />
        </aside>
    }
}
