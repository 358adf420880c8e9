//! A finished run's tools beside the results: downloads (fio JSON, CSV, chart PNGs, the
//! timeline as a trace built a frame's slice at a time) and the power-cut report. With an A/B
//! comparison the fio JSON and the trace are saved for A and for B (each file named by its
//! side), and every chart PNG names both scenarios in its legend.

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
    name: String,
    rest: Vec<(String, Scenario)>,
    said: String,
    status: UseStateHandle<AttrValue>,
    busy: UseStateHandle<bool>,
) {
    gloo::timers::callback::Timeout::new(0, move || {
        if !job.slice(now_ms, crate::run::slicer::FRAME_BUDGET_MS) {
            status.set(
                format!(
                    "{said}Building {name}… {:.0} % of the run, {} events so far (at most {}).",
                    job.progress() * 100.0,
                    job.events(),
                    exports::TRACE_MAX_EVENTS
                )
                .into(),
            );
            return pump_trace(job, name, rest, said, status, busy);
        }
        let msg = match job.finish() {
            Ok((text, stats)) => {
                let mut m = saved(&name, &text, "application/json");
                m.push_str(" Open it in ui.perfetto.dev or chrome://tracing: ");
                m.push_str(&exports::trace_summary(&stats));
                m
            }
            Err(e) => format!("Could not build the trace: {e}"),
        };
        start_traces(rest, format!("{said}{msg} "), status, busy);
    })
    .forget();
}

#[derive(Properties, PartialEq)]
pub struct ResultToolsProps {
    /// The scenario that produced the report (not the form's, which may have changed since).
    pub scenario: Rc<Scenario>,
    pub report: Rc<Report>,
    pub series: Rc<Vec<SeriesPoint>>,
    /// B of an A/B comparison: its scenario and report.
    #[prop_or_default]
    pub b: Option<(Rc<Scenario>, Rc<Report>)>,
}

/// What an export saves: A (named "A" when there is a B) and B.
struct Sides<'a> {
    a: (&'a Rc<Scenario>, &'a Report),
    b: Option<(&'a Rc<Scenario>, &'a Report)>,
}

impl Sides<'_> {
    /// (file name of `ext` for the side, scenario, report) of each side.
    fn each(&self, ext: &str) -> Vec<(String, &Rc<Scenario>, &Report)> {
        let name = |scn: &Scenario, side: &str| {
            let n = exports::file_name(scn, ext);
            match self.b {
                None => n,
                Some(_) => format!("{}-{side}.{ext}", n.trim_end_matches(&format!(".{ext}"))),
            }
        };
        let mut v = vec![(name(self.a.0, "A"), self.a.0, self.a.1)];
        if let Some((s, r)) = self.b {
            v.push((name(s, "B"), s, r));
        }
        v
    }

    /// The chart pictures' legend: each side's command line and colour.
    fn legend(&self) -> Vec<(String, &'static str)> {
        let line = |s: &Scenario| crate::run::engine_bridge::command_line(s);
        match self.b {
            None => vec![(line(self.a.0), "#2563eb")],
            Some((b, _)) => vec![
                (format!("A: {}", line(self.a.0)), "#2563eb"),
                (format!("B: {}", line(b)), "#ea580c"),
            ],
        }
    }
}

#[function_component(ResultTools)]
pub fn result_tools(props: &ResultToolsProps) -> Html {
    let status = use_state(AttrValue::default);
    let busy = use_state(|| false);
    let on_export = {
        let (scn, report, series, b) = (
            props.scenario.clone(),
            props.report.clone(),
            props.series.clone(),
            props.b.clone(),
        );
        let status = status.clone();
        let busy = busy.clone();
        Callback::from(move |kind: ExportKind| {
            let sides = Sides {
                a: (&scn, &report),
                b: b.as_ref().map(|(s, r)| (s, &**r)),
            };
            export(kind, &sides, &series, &status, &busy)
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

/// Saves one export of the finished run (of A and B), saying what was saved (a trace is built
/// first, a frame's slice at a time).
fn export(
    kind: ExportKind,
    sides: &Sides,
    series: &[SeriesPoint],
    status: &UseStateHandle<AttrValue>,
    busy: &UseStateHandle<bool>,
) {
    let scn = sides.a.0;
    match kind {
        ExportKind::FioJson => {
            let said: Vec<String> = sides
                .each("json")
                .into_iter()
                .map(|(name, s, r)| saved(&name, &exports::fio_json(s, r), "application/json"))
                .collect();
            status.set(said.join(" ").into());
        }
        ExportKind::Csv => {
            let text = exports::series_csv(series);
            let mut m = saved(&exports::file_name(scn, "csv"), &text, "text/csv");
            if sides.b.is_some() {
                m.push_str(" (A's throughput over time.)");
            }
            status.set(m.into());
        }
        ExportKind::Png => {
            let legend = sides.legend();
            let pairs: Vec<(String, &str)> = legend.iter().map(|(t, c)| (t.clone(), *c)).collect();
            let pngs = download::chart_pngs(&pairs);
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
        ExportKind::Perfetto => {
            let name = exports::file_name(scn, "perfetto-trace");
            let said = match exports::perfetto_trace(scn) {
                Ok((bytes, said)) => {
                    match download::download_bytes(&name, "application/octet-stream", &bytes) {
                        Ok(()) => format!("Saved {name} ({}).{said}", size_text(bytes.len())),
                        Err(e) => format!("Could not save {name}: {e}"),
                    }
                }
                Err(e) => format!("Could not build the trace: {e}"),
            };
            status.set(said.into());
        }
        ExportKind::Trace => {
            let jobs: Vec<(String, Scenario)> = sides
                .each("trace.json")
                .into_iter()
                .map(|(n, s, _)| (n, (**s).clone()))
                .collect();
            start_traces(jobs, String::new(), status.clone(), busy.clone());
        }
    }
}

/// Builds and saves the traces of `jobs` (file name, scenario) one after the other, each a
/// frame's slice at a time; `said`: what the ones before said.
fn start_traces(
    mut jobs: Vec<(String, Scenario)>,
    said: String,
    status: UseStateHandle<AttrValue>,
    busy: UseStateHandle<bool>,
) {
    if jobs.is_empty() {
        status.set(said.trim_end().to_string().into());
        busy.set(false);
        return;
    }
    let (name, scn) = jobs.remove(0);
    let cut = exports::trace_is_cut(&scn);
    status.set(
        format!(
            "{said}Building {name}…{}",
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
        Ok(job) => pump_trace(job, name, jobs, said, status, busy),
        Err(e) => {
            status.set(format!("{said}Could not build the trace: {e}").into());
            busy.set(false);
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
