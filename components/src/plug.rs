//! Power loss: the "Pull the plug" control (now, on a running simulation, or scheduled with the
//! `power_cut=` option) and the report of what the cut cost.

use std::rc::Rc;

use mmcsim_engine::PowerCutReport;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::format;

#[derive(Properties, PartialEq)]
pub struct PlugPanelProps {
    /// A simulation is running (the plug can be pulled now).
    pub running: bool,
    /// The scheduled cut as the option text ("50ms"), empty when none.
    pub scheduled: AttrValue,
    /// The parser's message for a rejected time.
    #[prop_or_default]
    pub error: Option<AttrValue>,
    /// Cut the power of the running simulation now.
    pub on_pull: Callback<()>,
    /// The `power_cut=` text entered ("" = no scheduled cut).
    pub on_schedule: Callback<String>,
}

/// The plug: a button that cuts the power of the running simulation at its current simulated
/// time, and a `power_cut` time field that schedules the cut for the next run.
#[function_component(PlugPanel)]
pub fn plug_panel(props: &PlugPanelProps) -> Html {
    let input = use_node_ref();
    {
        // Show the accepted value again after a rejection or a new scenario.
        let input = input.clone();
        use_effect_with(
            (props.scheduled.clone(), props.error.clone()),
            move |(v, _)| {
                if let Some(i) = input.cast::<HtmlInputElement>() {
                    if i.value() != v.as_str() {
                        i.set_value(v);
                    }
                }
            },
        );
    }
    let onchange = {
        let cb = props.on_schedule.clone();
        Callback::from(move |e: Event| {
            if let Some(i) = e.target_dyn_into::<HtmlInputElement>() {
                cb.emit(i.value().trim().to_string());
            }
        })
    };
    let pull = props.on_pull.reform(|_: MouseEvent| ());
    html! {
        <div class="plug">
            <div class="plug-row">
                <button id="pull-plug" type="button" class="button danger" disabled={!props.running} onclick={pull}
                        title="Cut the power at the current simulated time of the running simulation">
                    { "Pull the plug" }
                </button>
                <div class={classes!("field", "plug-time", props.error.is_some().then_some("invalid"))}>
                    <label for="ctl-power_cut">{ "power_cut" }</label>
                    <input id="ctl-power_cut" name="power_cut" type="text" ref={input} value={props.scheduled.clone()}
                           placeholder="e.g. 50ms" spellcheck="false" autocomplete="off" {onchange}
                           disabled={props.running} aria-invalid={props.error.is_some().to_string()} />
                </div>
            </div>
            if let Some(e) = &props.error {
                <p class="error" id="err-power_cut" role="alert">{ e }</p>
            } else {
                <p class="help">{ if props.running {
                    "Pull the plug now: the card loses what is only in its volatile cache."
                } else {
                    "Press Run, then pull the plug; or schedule the cut at a simulated time."
                } }</p>
            }
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct PowerCutViewProps {
    pub report: Rc<PowerCutReport>,
    /// Why (the engine's `explain::effect_summary` sentence about the cut, and the host's FUA
    /// setting in words).
    pub explanation: Rc<Vec<String>>,
    /// Lost ranges shown at most.
    #[prop_or(8)]
    pub max_ranges: usize,
    /// The section's id (the Lab's results and the pipeline view each show one).
    #[prop_or(AttrValue::Static("power-cut"))]
    pub id: AttrValue,
}

/// What the cut cost: acknowledged writes, those lost, their bytes and the first lost block
/// ranges (LBA in 512-byte sectors), and why.
#[function_component(PowerCutView)]
pub fn power_cut_view(props: &PowerCutViewProps) -> Html {
    let p = &props.report;
    let lost = p.lost_acked_writes > 0;
    let row = |key: &str, label: &str, value: String| {
        html! { <tr data-metric={key.to_string()}><th scope="row">{ label }</th><td>{ value }</td></tr> }
    };
    html! {
        <section class={classes!("power-cut", lost.then_some("lost"))} aria-label="Power cut" id={props.id.clone()}>
            <h3>{ if lost { "Power cut: acknowledged writes lost" } else { "Power cut: no acknowledged write lost" } }</h3>
            <table class="metrics sim">
                <tbody>
                    { row("cut-at", "Power cut at (simulated)", format::sim_time(p.at_ns)) }
                    { row("acked-writes", "Writes acknowledged before the cut", format::count(p.acked_writes as f64)) }
                    { row("lost-acked-writes", "Acknowledged writes lost", format::count(p.lost_acked_writes as f64)) }
                    { row("lost-bytes", "Bytes lost", format!("{} ({} KiB)", format::count(p.lost_acked_bytes as f64), format::count(p.lost_acked_bytes as f64 / 1024.0))) }
                    { row("reliable-writes", "Reliable writes (FUA) acknowledged: kept", format::count(p.acked_reliable_writes as f64)) }
                    { row("failed-in-flight", "Requests in flight: failed with an I/O error", format::count(p.failed_in_flight as f64)) }
                </tbody>
            </table>
            if !p.lost_ranges.is_empty() {
                <table class="metrics lost-ranges">
                    <caption>{ format!("The first {} lost ranges of {} lost writes, in the order the card would have programmed them",
                                       p.lost_ranges.len().min(props.max_ranges), format::count(p.lost_acked_writes as f64)) }</caption>
                    <thead><tr><th scope="col">{ "LBA (512 B sectors)" }</th><th scope="col">{ "byte offset" }</th><th scope="col">{ "length" }</th></tr></thead>
                    <tbody>
                        { for p.lost_ranges.iter().take(props.max_ranges).map(|&(off, len)| {
                            let first = off / 512;
                            let last = (off + len).div_ceil(512).saturating_sub(1);
                            html! {
                                <tr class="lost-range">
                                    <td>{ format!("{first}–{last}") }</td>
                                    <td>{ format!("{off:#x}") }</td>
                                    <td>{ format!("{} KiB", len as f64 / 1024.0) }</td>
                                </tr>
                            }
                        }) }
                    </tbody>
                </table>
            }
            { for props.explanation.iter().map(|s| html! { <p class="power-cut-why">{ s }</p> }) }
        </section>
    }
}

#[derive(Properties, PartialEq)]
pub struct PlugButtonProps {
    /// The power can be cut now: the watched run is under way (playing or paused mid-run).
    pub enabled: bool,
    /// Cut the power of the watched run at the simulated time it shows.
    pub on_pull: Callback<()>,
}

/// The plug in the pipeline view's time row, where the eye is during a slow play.
#[function_component(PlugButton)]
pub fn plug_button(props: &PlugButtonProps) -> Html {
    let pull = props.on_pull.reform(|_: MouseEvent| ());
    html! {
        <button id="watch-pull-plug" type="button" class="button danger" disabled={!props.enabled} onclick={pull}
                title="Cut the power at the simulated time shown: the card loses what is only in its volatile cache">
            { "Pull the plug" }
        </button>
    }
}

#[derive(Properties, PartialEq)]
pub struct WatchPowerCutProps {
    /// What the cut cost A (and B in an A/B comparison), once the power was cut.
    #[prop_or_default]
    pub a: Option<Rc<PowerCutReport>>,
    #[prop_or_default]
    pub b: Option<Rc<PowerCutReport>>,
}

/// What the plug pulled in the pipeline view cost each side (the engine's [`PowerCutReport`]):
/// writes acknowledged, of those lost and kept, bytes lost, requests failed in flight. Nothing
/// before a cut.
#[function_component(WatchPowerCut)]
pub fn watch_power_cut(props: &WatchPowerCutProps) -> Html {
    let sides: Vec<(&str, &Rc<PowerCutReport>)> = [("A", &props.a), ("B", &props.b)]
        .into_iter()
        .filter_map(|(n, r)| r.as_ref().map(|r| (n, r)))
        .collect();
    if sides.is_empty() {
        return html! {};
    }
    let ab = sides.len() > 1;
    html! {
        <table class="metrics watch-power-cut" id="watch-power-cut" aria-label="What the power cut lost">
            <thead><tr>
                if ab { <th scope="col">{ "" }</th> }
                <th scope="col">{ "power cut at" }</th>
                <th scope="col">{ "writes acknowledged" }</th>
                <th scope="col">{ "acknowledged, lost" }</th>
                <th scope="col">{ "acknowledged, kept" }</th>
                <th scope="col">{ "lost" }</th>
                <th scope="col">{ "in flight, failed" }</th>
            </tr></thead>
            <tbody>
                { for sides.iter().map(|(n, p)| html! {
                    <tr data-side={n.to_ascii_lowercase()} class={classes!((p.lost_acked_writes > 0).then_some("lost"))}>
                        if ab { <th scope="row">{ *n }</th> }
                        <td data-metric="cut-at" data-ns={p.at_ns.to_string()}>{ format::sim_time(p.at_ns) }</td>
                        <td data-metric="acked-writes">{ format::count(p.acked_writes as f64) }</td>
                        <td data-metric="lost-acked-writes">{ format::count(p.lost_acked_writes as f64) }</td>
                        <td data-metric="kept-acked-writes">{ format::count(p.acked_writes.saturating_sub(p.lost_acked_writes) as f64) }</td>
                        <td data-metric="lost-bytes">{ format!("{} KiB", format::count(p.lost_acked_bytes as f64 / 1024.0)) }</td>
                        <td data-metric="failed-in-flight">{ format::count(p.failed_in_flight as f64) }</td>
                    </tr>
                }) }
            </tbody>
        </table>
    }
}
