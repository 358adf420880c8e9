//! A finished run's tools beside the results: downloads (fio JSON, CSV, chart PNGs, the
//! timeline as a trace built a frame's slice at a time) and the power-cut report.

use std::rc::Rc;

use mmcsim_components::{ExportKind, ExportsBar, PowerCutView};
use mmcsim_engine::metrics::SeriesPoint;
use mmcsim_engine::{Report, Scenario};
use yew::prelude::*;

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
        Callback::from(move |kind: ExportKind| export(kind, &scn, &report, &series, &status, &busy))
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

/// Saves one export of the finished run, saying what was saved (a trace is built first, a
/// frame's slice at a time).
fn export(
    kind: ExportKind,
    scn: &Rc<Scenario>,
    report: &Report,
    series: &[SeriesPoint],
    status: &UseStateHandle<AttrValue>,
    busy: &UseStateHandle<bool>,
) {
    match kind {
        ExportKind::FioJson => {
            let text = exports::fio_json(scn, report);
            status.set(saved(&exports::file_name(scn, "json"), &text, "application/json").into());
        }
        ExportKind::Csv => {
            let text = exports::series_csv(series);
            status.set(saved(&exports::file_name(scn, "csv"), &text, "text/csv").into());
        }
        ExportKind::Png => {
            let pngs = download::chart_pngs();
            if pngs.is_empty() {
                status.set("No chart on the page to save.".into());
            }
            let stem = exports::file_name(scn, "");
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
            let cut = exports::trace_is_cut(scn);
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
            match exports::TraceJob::new(scn) {
                Ok(job) => pump_trace(job, (**scn).clone(), status.clone(), busy.clone()),
                Err(e) => {
                    status.set(format!("Could not build the trace: {e}").into());
                    busy.set(false);
                }
            }
        }
    }
}

fn size_text(bytes: usize) -> String {
    if bytes >= 1 << 20 {
        format!("{:.1} MB", bytes as f64 / 1e6)
    } else {
        format!("{:.1} KB", bytes as f64 / 1e3)
    }
}
