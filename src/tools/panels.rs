//! The scenario's tools beside the form (its link and Share, fio job files in and out, the
//! plug) and a finished run's tools beside the results (downloads, the power-cut report).
//!
//! They hold only their own messages; the scenario they change goes back to the page through
//! `on_scenario`, and pulling the plug of the running simulation through `on_pull`.

use std::rc::Rc;

use mmcsim_components::{ExportKind, ExportsBar, JobFilePanel, PlugPanel, PowerCutView, ShareBox};
use mmcsim_engine::metrics::SeriesPoint;
use mmcsim_engine::{Report, Scenario};
use yew::prelude::*;

use crate::shell::engine_bridge as bridge;
use crate::tools::download;
use crate::tools::exports;

/// Downloads `text` as `name` and says so (or why not).
fn saved(name: &str, text: &str, mime: &str) -> String {
    match download::download_text(name, mime, text) {
        Ok(()) => format!("Saved {name} ({}).", size_text(text.len())),
        Err(e) => format!("Could not save {name}: {e}"),
    }
}

/// `performance.now()`, ms.
fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// Runs a trace export a frame's slice at a time (at most `FRAME_BUDGET_MS` of each frame, the
/// page stays responsive), saying how far it is, then saves it and says what it holds.
fn pump_trace(
    mut job: exports::TraceJob,
    scn: Scenario,
    status: UseStateHandle<AttrValue>,
    busy: UseStateHandle<bool>,
) {
    gloo::timers::callback::Timeout::new(0, move || {
        if !job.slice(now_ms, crate::shell::slicer::FRAME_BUDGET_MS) {
            status.set(
                format!(
                    "Building the trace… {:.0} % of the run, {} events so far (at most {}).",
                    job.progress() * 100.0,
                    job.events(),
                    exports::TRACE_MAX_EVENTS
                )
                .into(),
            );
            return pump_trace(job, scn, status, busy);
        }
        let msg = match job.finish() {
            Ok((text, stats)) => {
                let name = exports::file_name(&scn, "trace.json");
                let mut m = saved(&name, &text, "application/json");
                m.push_str(" Open it in ui.perfetto.dev or chrome://tracing: ");
                m.push_str(&exports::trace_summary(&stats));
                m
            }
            Err(e) => format!("Could not build the trace: {e}"),
        };
        status.set(msg.into());
        busy.set(false);
    })
    .forget();
}

/// The page's address without its query ("http://host/path").
fn page_base() -> String {
    web_sys::window()
        .map(|w| {
            let l = w.location();
            format!(
                "{}{}",
                l.origin().unwrap_or_default(),
                l.pathname().unwrap_or_default()
            )
        })
        .unwrap_or_default()
}

/// The full link of a scenario (and its B side).
pub fn share_url(a: &Scenario, b: Option<&Scenario>) -> String {
    format!("{}?{}", page_base(), bridge::url_query_ab(a, b))
}

#[derive(Properties, PartialEq)]
pub struct ScenarioToolsProps {
    pub scenario: Rc<Scenario>,
    /// The B side of an A/B link, when the page holds one.
    #[prop_or_default]
    pub b: Option<Rc<Scenario>>,
    /// Show a link that opens B as its own scenario (when the page has no A/B view of its own).
    #[prop_or_default]
    pub show_b_link: bool,
    pub running: bool,
    /// A scenario from a job file or a scheduled power cut.
    pub on_scenario: Callback<Scenario>,
    /// Pull the plug of the running simulation.
    pub on_pull: Callback<()>,
}

#[function_component(ScenarioTools)]
pub fn scenario_tools(props: &ScenarioToolsProps) -> Html {
    let share_status = use_state(AttrValue::default);
    let select_seq = use_state(|| 0u32);
    let job_error = use_state(|| None::<AttrValue>);
    let job_status = use_state(AttrValue::default);
    let plug_error = use_state(|| None::<AttrValue>);

    let url = share_url(&props.scenario, props.b.as_deref());
    // A new scenario: the old confirmation no longer applies.
    {
        let share_status = share_status.clone();
        use_effect_with(url.clone(), move |_| share_status.set(AttrValue::default()));
    }
    let on_share = {
        let url = url.clone();
        let share_status = share_status.clone();
        let select_seq = select_seq.clone();
        Callback::from(move |()| {
            let url = url.clone();
            let share_status = share_status.clone();
            let select_seq = select_seq.clone();
            wasm_bindgen_futures::spawn_local(async move {
                match download::copy_to_clipboard(&url).await {
                    Ok(()) => share_status.set("Copied the link to the clipboard ✓".into()),
                    Err(()) => {
                        // No clipboard access: select the link for the user to copy.
                        select_seq.set(*select_seq + 1);
                        share_status.set(
                            "The clipboard is not available here: the link is selected, copy it with Ctrl+C (⌘C)."
                                .into(),
                        );
                    }
                }
            });
        })
    };

    let load_text = {
        let on_scenario = props.on_scenario.clone();
        let job_error = job_error.clone();
        let job_status = job_status.clone();
        Rc::new(
            move |text: String, from: String| match exports::jobfile_with_notices(&text) {
                Ok((scn, notices)) => {
                    let jobs: u32 = scn.jobs.iter().map(|j| j.numjobs).sum();
                    let from = mmcsim_engine::scenario::clip(&from);
                    job_error.set(None);
                    let mut text = format!(
                        "Loaded {from}: {} section(s), {jobs} job(s) on {}.",
                        scn.jobs.len(),
                        scn.platform
                    );
                    for n in &notices {
                        text.push_str(&format!(" Warning: {n}."));
                    }
                    job_status.set(text.into());
                    on_scenario.emit(scn);
                }
                Err(e) => {
                    let from = mmcsim_engine::scenario::clip(&from);
                    job_status.set(AttrValue::default());
                    job_error.set(Some(
                        format!("{from}: {e}. The scenario is unchanged.").into(),
                    ));
                }
            },
        )
    };
    let on_load = {
        let load_text = load_text.clone();
        Callback::from(move |text: String| load_text(text, "Job file".to_string()))
    };
    let on_file = {
        let load_text = load_text.clone();
        let job_error = job_error.clone();
        Callback::from(move |file: web_sys::File| {
            let name = file.name();
            let load_text = load_text.clone();
            let job_error = job_error.clone();
            download::read_text_file(file, move |r| match r {
                Ok(text) => load_text(text, name),
                Err(e) => job_error.set(Some(format!("{name}: {e}").into())),
            });
        })
    };
    let on_download = {
        let scn = props.scenario.clone();
        let b = props.b.clone();
        let job_status = job_status.clone();
        let job_error = job_error.clone();
        // With a comparison, two files: A's, and B's named with a "-b" suffix.
        Callback::from(move |()| {
            let mut saved = Vec::new();
            let sides = std::iter::once((scn.clone(), "")).chain(b.clone().map(|b| (b, "-b")));
            for (s, suffix) in sides {
                let name =
                    exports::file_name(&s, "fio").replacen(".fio", &format!("{suffix}.fio"), 1);
                match download::download_text(&name, "text/plain", &exports::jobfile_text(&s)) {
                    Ok(()) => saved.push(name),
                    Err(e) => return job_error.set(Some(e.into())),
                }
            }
            let runs: Vec<String> = saved.iter().map(|n| format!("mmcsim {n}")).collect();
            job_status.set(
                format!(
                    "Saved {}: run with {}",
                    saved.join(" and "),
                    runs.join(" / ")
                )
                .into(),
            );
        })
    };

    let on_schedule = {
        let scn = props.scenario.clone();
        let on_scenario = props.on_scenario.clone();
        let plug_error = plug_error.clone();
        Callback::from(
            move |text: String| match exports::with_power_cut(&scn, &text) {
                Ok(next) => {
                    plug_error.set(None);
                    if next != *scn {
                        on_scenario.emit(next);
                    }
                }
                Err(e) => {
                    let kept =
                        exports::power_cut_text(&scn).unwrap_or_else(|| "no power cut".to_string());
                    plug_error.set(Some(format!("{e} (kept {kept})").into()));
                }
            },
        )
    };
    let scheduled: AttrValue = exports::power_cut_text(&props.scenario)
        .unwrap_or_default()
        .into();

    html! {
        <div class="tools">
            <ShareBox url={AttrValue::from(url)} status={(*share_status).clone()} select_seq={*select_seq} {on_share} />
            if let (Some(b), true) = (&props.b, props.show_b_link) {
                <p class="b-link">
                    { "This link compares two scenarios; the page runs A. " }
                    <a id="b-link" href={format!("?{}", bridge::url_query(b))}>{ "Open B as its own scenario" }</a>
                </p>
            }
            <h3 class="tools-title">{ "Power loss" }</h3>
            <PlugPanel running={props.running} {scheduled} error={(*plug_error).clone()}
                       on_pull={props.on_pull.clone()} {on_schedule} />
            <h3 class="tools-title">{ "fio job file" }</h3>
            <JobFilePanel error={(*job_error).clone()} status={(*job_status).clone()} disabled={props.running}
                          {on_load} {on_file} {on_download} />
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct ResultToolsProps {
    /// The scenario that produced the report (not the form's, which may have changed since).
    pub scenario: Rc<Scenario>,
    pub report: Rc<Report>,
    pub series: Rc<Vec<SeriesPoint>>,
}

#[function_component(ResultTools)]
pub fn result_tools(props: &ResultToolsProps) -> Html {
    let status = use_state(AttrValue::default);
    let busy = use_state(|| false);
    let on_export = {
        let (scn, report, series) = (
            props.scenario.clone(),
            props.report.clone(),
            props.series.clone(),
        );
        let status = status.clone();
        let busy = busy.clone();
        Callback::from(move |kind: ExportKind| {
            match kind {
                ExportKind::FioJson => {
                    let text = exports::fio_json(&scn, &report);
                    status.set(
                        saved(&exports::file_name(&scn, "json"), &text, "application/json").into(),
                    );
                }
                ExportKind::Csv => {
                    let text = exports::series_csv(&series);
                    status.set(saved(&exports::file_name(&scn, "csv"), &text, "text/csv").into());
                }
                ExportKind::Png => {
                    let pngs = download::chart_pngs();
                    if pngs.is_empty() {
                        status.set("No chart on the page to save.".into());
                    }
                    let stem = exports::file_name(&scn, "");
                    let stem = stem.trim_end_matches('.');
                    let mut names = Vec::new();
                    for (id, url) in &pngs {
                        let name = format!("{stem}-{id}.png");
                        if download::download_data_url(&name, url).is_ok() {
                            names.push(name);
                        }
                    }
                    if !names.is_empty() {
                        status.set(format!("Saved {}.", names.join(", ")).into());
                    }
                }
                ExportKind::Trace => {
                    // The export runs its own simulation, a frame's slice at a time.
                    let cut = exports::trace_is_cut(&scn);
                    status.set(
                        format!(
                            "Building the trace…{}",
                            if cut {
                                format!(
                                    " (a long run: the trace stops after {} events)",
                                    exports::TRACE_MAX_EVENTS
                                )
                            } else {
                                String::new()
                            }
                        )
                        .into(),
                    );
                    busy.set(true);
                    match exports::TraceJob::new(&scn) {
                        Ok(job) => pump_trace(job, (*scn).clone(), status.clone(), busy.clone()),
                        Err(e) => {
                            status.set(format!("Could not build the trace: {e}").into());
                            busy.set(false);
                        }
                    }
                }
            }
        })
    };
    let explanation = Rc::new(exports::power_cut_explanation(
        &props.scenario,
        &props.report,
    ));
    html! {
        <div class="result-tools">
            if let Some(p) = &props.report.power_cut {
                <PowerCutView report={Rc::new(p.clone())} {explanation} />
            }
            <ExportsBar enabled=true busy={*busy} status={(*status).clone()} {on_export} />
        </div>
    }
}

fn size_text(bytes: usize) -> String {
    if bytes >= 1 << 20 {
        format!("{:.1} MB", bytes as f64 / 1e6)
    } else {
        format!("{:.1} KB", bytes as f64 / 1e3)
    }
}
