//! The fit in the page: fio JSON result files dropped (or opened) on the Board panel run the
//! same fit as `mmcsim fit` (`mmcsim_fit`, in a Web Worker: the optimiser and its many runs stay
//! off the animation thread and out of the page's bundle). Shows per case measured vs simulated
//! with their errors and the fit's trust warnings, applies the fitted board (into the link like
//! any board change) and offers it as a board file.

use std::rc::Rc;

use mmcsim_engine::scenario::board_file::apply_toml;
use mmcsim_engine::Scenario;
use mmcsim_fit::jobs::{FitJob, FitReply, Job, Reply, Request};
use web_sys::{DragEvent, HtmlInputElement};
use yew::prelude::*;

use crate::shell::workers::{self, Pool};
use crate::tools::download;

#[derive(Properties, PartialEq)]
pub struct FitViewProps {
    /// The scenario the fitted board is applied to.
    pub scenario: Rc<Scenario>,
    /// The scenario with the fitted board.
    pub on_scenario: Callback<Scenario>,
}

pub enum Msg {
    Names(String),
    Files(Vec<web_sys::File>),
    Read(String, Result<String, String>),
    Worker(workers::Event),
    Download,
}

pub struct FitView {
    names: String,
    /// Files being read: how many are still to come, and those read.
    expected: usize,
    files: Vec<(String, String)>,
    pool: Option<Pool>,
    running: bool,
    /// Sent, waiting for the worker to load.
    queued: Option<Request>,
    next_id: u64,
    status: String,
    error: Option<String>,
    result: Option<Box<FitReply>>,
}

impl FitView {
    fn send(&mut self) {
        let Some(pool) = self.pool.as_mut() else {
            return;
        };
        let Some(i) = pool.idle() else {
            return;
        };
        if let Some(req) = self.queued.take() {
            if let Err(e) = pool.send(i, &req) {
                self.error = Some(e);
                self.running = false;
            }
        }
    }

    fn start(&mut self, ctx: &Context<Self>) {
        let names: Vec<String> = self
            .names
            .split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect();
        self.next_id += 1;
        self.queued = Some(Request {
            id: self.next_id,
            job: Job::Fit(FitJob {
                files: std::mem::take(&mut self.files),
                platform: None,
                names,
            }),
        });
        if self.pool.is_none() {
            match Pool::new(1, ctx.link().callback(Msg::Worker)) {
                Ok(p) => self.pool = Some(p),
                Err(e) => {
                    self.error = Some(e);
                    return;
                }
            }
        }
        self.running = true;
        self.status = "Fitting in a Web Worker (each step runs every result's workload)...".into();
        self.send();
    }
}

fn pct(a: f64, b: f64) -> String {
    format!("{:+.1} %", (a - b) / b * 100.0)
}

/// Each result file left out of the fit and predicted by a fit to the others, and the largest
/// miss; or why there is none.
fn left_out(f: &FitReply) -> Html {
    if f.left_out.is_empty() {
        return html! {
            <p id="fit-left-out-none">{ "Left-out error: not judged (cross-validation needs at least 3 result files)." }</p>
        };
    }
    let max = f
        .left_out
        .iter()
        .map(|l| (l.predicted / l.measured - 1.0).abs())
        .fold(0.0, f64::max);
    html! {
        <>
            <table id="fit-left-out" class="fit-table">
                <thead><tr><th>{ "left out" }</th><th>{ "figure" }</th><th>{ "measured" }</th>
                    <th>{ "predicted by the others" }</th><th>{ "error" }</th></tr></thead>
                <tbody>
                { for f.left_out.iter().map(|l| html! {
                    <tr>
                        <td>{ l.file.clone() }</td><td>{ l.figure.clone() }</td><td>{ format!("{:.2}", l.measured) }</td>
                        <td>{ format!("{:.2}", l.predicted) }</td><td>{ pct(l.predicted, l.measured) }</td>
                    </tr>
                }) }
                </tbody>
            </table>
            <p>{ format!("Left-out error: max {:.1} % (each file left out, the others fitted, the left-out one predicted).", max * 100.0) }</p>
        </>
    }
}

impl Component for FitView {
    type Message = Msg;
    type Properties = FitViewProps;

    fn create(_: &Context<Self>) -> Self {
        FitView {
            names: String::new(),
            expected: 0,
            files: Vec::new(),
            pool: None,
            running: false,
            queued: None,
            next_id: 0,
            status: String::new(),
            error: None,
            result: None,
        }
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::Names(t) => {
                self.names = t;
                false
            }
            Msg::Files(list) => self.read_files(ctx, list),
            Msg::Read(name, r) => {
                match r {
                    Ok(t) => self.files.push((name, t)),
                    Err(e) => self.error = Some(format!("{name}: {e}")),
                }
                self.expected = self.expected.saturating_sub(1);
                if self.expected == 0 {
                    if self.error.is_none() {
                        // In the order given, whatever order the reads finished in.
                        self.files.sort_by(|a, b| a.0.cmp(&b.0));
                        self.start(ctx);
                    } else {
                        self.status.clear();
                    }
                }
                true
            }
            Msg::Worker(ev) => {
                let Some(pool) = self.pool.as_mut() else {
                    return false;
                };
                let (_, r) = pool.note(ev);
                match r.reply {
                    Reply::Ready => self.send(),
                    Reply::Fit(f) => self.fitted(ctx, f),
                    Reply::Error(e) => {
                        self.running = false;
                        self.status.clear();
                        self.error = Some(e);
                    }
                    Reply::Row(_) => {}
                }
                true
            }
            Msg::Download => {
                if let Some(f) = &self.result {
                    let r =
                        download::download_text("fitted-board.toml", "application/toml", &f.toml);
                    self.status = match r {
                        Ok(()) => "Saved fitted-board.toml.".into(),
                        Err(e) => format!("Could not save: {e}"),
                    };
                }
                true
            }
        }
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let files_of = |l: Option<web_sys::FileList>| -> Vec<web_sys::File> {
            l.map(|l| (0..l.length()).filter_map(|i| l.get(i)).collect())
                .unwrap_or_default()
        };
        let on_pick = link.callback(move |e: Event| {
            let input = e.target_dyn_into::<HtmlInputElement>();
            let files = files_of(input.as_ref().and_then(|i| i.files()));
            if let Some(i) = input {
                i.set_value("");
            }
            Msg::Files(files)
        });
        let on_drop = link.callback(move |e: DragEvent| {
            e.prevent_default();
            Msg::Files(files_of(e.data_transfer().and_then(|d| d.files())))
        });
        let on_over = Callback::from(|e: DragEvent| e.prevent_default());
        let on_names = link.callback(|e: Event| {
            Msg::Names(
                e.target_dyn_into::<HtmlInputElement>()
                    .map(|i| i.value())
                    .unwrap_or_default(),
            )
        });
        html! {
            <section id="fit" class="board-fit" ondrop={on_drop} ondragover={on_over}>
                <h3>{ "Fit to your fio results" }</h3>
                <p class="hint">{ "Drop fio JSON outputs here (fio --output-format=json, best with --group_reporting), or open them: the same fit as " }
                    <code>{ "mmcsim fit" }</code>{ " runs in a Web Worker and the fitted board replaces this one." }</p>
                <label>{ "parameters to fit " }
                    <input id="fit-params" type="text" value={self.names.clone()} onchange={on_names}
                           placeholder="default: completion_us, nand_read_us, card_write_busy_us, bus_mb_s, nand_program_mb_s, reliable_write_us" />
                </label>
                <label class="button secondary">{ "Open fio JSON files" }
                    <input id="fit-files" type="file" accept=".json,application/json" multiple=true hidden=true
                           disabled={self.running} onchange={on_pick} />
                </label>
                if !self.status.is_empty() {
                    <p id="fit-status" role="status">{ self.status.clone() }</p>
                }
                if let Some(e) = &self.error {
                    <div id="fit-error" class="field-error" role="alert">{ e.clone() }</div>
                }
                if let Some(f) = &self.result {
                    { self.report(f, ctx) }
                }
            </section>
        }
    }
}

impl FitView {
    fn report(&self, f: &FitReply, ctx: &Context<Self>) -> Html {
        html! {
            <div id="fit-result" data-rms={f.rms.to_string()}>
                <table id="fit-params-table" class="fit-table">
                    <thead><tr><th>{ "parameter" }</th><th>{ "preset" }</th><th>{ "fitted" }</th><th>{ "change" }</th></tr></thead>
                    <tbody>
                    { for f.params.iter().map(|p| html! {
                        <tr data-param={p.name.clone()} data-fitted={p.fitted.clone()}>
                            <td>{ p.name.clone() }</td><td>{ format!("{} {}", p.preset, p.unit) }</td>
                            <td>{ format!("{} {}", p.fitted, p.unit) }</td><td>{ format!("{:+.1} %", p.change_pct) }</td>
                        </tr>
                    }) }
                    </tbody>
                </table>
                <table id="fit-cases" class="fit-table">
                    <thead><tr><th>{ "result" }</th><th>{ "figure" }</th><th>{ "measured" }</th>
                        <th>{ "preset" }</th><th>{ "error" }</th><th>{ "fitted" }</th><th>{ "error" }</th></tr></thead>
                    <tbody>
                    { for f.rows.iter().map(|r| html! {
                        <tr>
                            <td>{ r.file.clone() }</td><td>{ r.figure.clone() }</td><td>{ format!("{:.2}", r.measured) }</td>
                            <td>{ format!("{:.2}", r.preset) }</td><td>{ pct(r.preset, r.measured) }</td>
                            <td>{ format!("{:.2}", r.fitted) }</td><td>{ pct(r.fitted, r.measured) }</td>
                        </tr>
                    }) }
                    </tbody>
                </table>
                <p>{ format!("Residual RMS error (the figures fitted): preset {:.2} %, fitted {:.2} %, {} iteration(s).", f.preset_rms * 100.0, f.rms * 100.0, f.iterations) }</p>
                { left_out(f) }
                if !f.unconstrained.is_empty() {
                    <p id="fit-unconstrained">{ format!("Not constrained by these results (doubling it, halving it or putting it back to the preset moves no figure by more than 2 %), left at the preset: {}.", f.unconstrained.join(", ")) }</p>
                }
                if f.warnings.is_empty() {
                    <p id="fit-verdict" class="fit-trusted">{ "Trusted: every result file, left out of the fit, is predicted within 10 % (latencies 20 %) by a fit to the others." }</p>
                } else {
                    <ul id="fit-warnings" class="fit-warnings" role="alert">
                        { for f.warnings.iter().map(|w| html! { <li>{ w.clone() }</li> }) }
                    </ul>
                }
                <p>{ "Fitted board's link: " }<a id="fit-link" href={format!("?{}", f.query)}>{ format!("?{}", f.query) }</a></p>
                <button id="fit-download" type="button" class="button secondary"
                        onclick={ctx.link().callback(|_| Msg::Download)}>{ "Download the fitted board (TOML)" }</button>
            </div>
        }
    }
}

impl FitView {
    /// Result files dropped or opened: read them all, then fit.
    fn read_files(&mut self, ctx: &Context<Self>, list: Vec<web_sys::File>) -> bool {
        if self.running || list.is_empty() {
            return false;
        }
        self.error = None;
        self.result = None;
        self.files.clear();
        self.expected = list.len();
        self.status = format!("Reading {} file(s)...", list.len());
        for f in list {
            let name = f.name();
            let cb = ctx.link().callback(move |r| Msg::Read(name.clone(), r));
            download::read_text_file(f, move |r| cb.emit(r));
        }
        true
    }

    /// The fit's result: the fitted board onto the scenario, and what was fitted.
    fn fitted(&mut self, ctx: &Context<Self>, f: Box<FitReply>) {
        self.running = false;
        let mut next = (*ctx.props().scenario).clone();
        match apply_toml(&mut next, "fitted board", &f.toml) {
            Ok(()) => {
                self.status = format!(
                    "Fitted {} parameter(s) on {} to {} figure(s); the board above now has the fitted values.",
                    f.params.len(),
                    f.platform,
                    f.rows.len()
                );
                ctx.props().on_scenario.emit(next);
            }
            Err(e) => self.error = Some(e.to_string()),
        }
        self.result = Some(f);
    }
}
