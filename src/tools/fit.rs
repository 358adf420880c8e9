//! The fit in the page: fio JSON result files dropped (or opened) on the Board panel run the
//! same fit as `mmcsim fit` (`mmcsim_fit`, in a Web Worker: the optimiser and its many runs stay
//! off the animation thread and out of the page's bundle), on top of the Lab's platform. While
//! it runs: which fit of how many (the fit to every file, then one per file left out, as the
//! worker reports them) and Stop, which ends the worker. When it ends: a preview
//! ([`super::fit_report`]) with the verdict, the left-out error and the parameters the results
//! leave free; the board changes only when Apply is pressed, and a fit that is not trusted is
//! applied only after the reader ticks that they apply it anyway. Offers the fitted board as a
//! board file.

use std::rc::Rc;

use mmcsim_engine::scenario::board_file::apply_toml;
use mmcsim_engine::Scenario;
use mmcsim_fit::jobs::{FitJob, FitReply, Job, Reply, Request};
use web_sys::{DragEvent, HtmlInputElement};
use yew::prelude::*;

use crate::run::workers::{self, Pool};
use crate::tools::download;
use crate::tools::fit_report;
use crate::tools::input_limit::PageInput;

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
    /// End the running fit (its worker is stopped).
    Stop,
    /// Apply the previewed fit to the board.
    Apply,
    /// The reader ticked (or unticked) "apply although not trusted".
    Anyway(bool),
    /// Show (true) or close the preview.
    Preview(bool),
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
    /// The files of the fit under way, in the order the fit leaves them out.
    fitting: Vec<String>,
    /// The fit under way: (which fit, of how many), as the worker reported it.
    progress: Option<(usize, usize)>,
    /// The preview is open.
    preview: bool,
    /// The reader accepts applying a fit that is not trusted.
    anyway: bool,
    /// The previewed fit was applied.
    applied: bool,
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
        self.fitting = self.files.iter().map(|f| f.0.clone()).collect();
        self.progress = None;
        self.queued = Some(Request {
            id: self.next_id,
            job: Job::Fit(FitJob {
                files: std::mem::take(&mut self.files),
                // On top of the board the Lab shows.
                platform: Some(ctx.props().scenario.platform.clone()),
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
        self.status = format!(
            "Fitting on {} in a Web Worker (each step simulates every result's workload)...",
            ctx.props().scenario.platform
        );
        self.send();
    }

    /// What the fit under way is doing: which fit of how many and which file it leaves out.
    fn progress_text(&self) -> String {
        match self.progress {
            None => "Starting the worker...".to_string(),
            Some((1, of)) => format!("Fit 1 of {of}: every result file."),
            Some((k, of)) => format!(
                "Fit {k} of {of}: {} left out, to be predicted by a fit to the others.",
                self.fitting.get(k - 2).map_or("a file", String::as_str)
            ),
        }
    }

    /// Stops the fit: its worker ends, the board stays as it is.
    fn stop(&mut self) {
        self.pool = None;
        self.queued = None;
        self.running = false;
        self.status = match self.progress {
            Some((k, of)) => {
                format!("Stopped at fit {k} of {of}: nothing fitted, the board is unchanged.")
            }
            None => "Stopped: nothing fitted, the board is unchanged.".to_string(),
        };
        self.progress = None;
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
            fitting: Vec::new(),
            progress: None,
            preview: false,
            anyway: false,
            applied: false,
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
                    Err(e) => self.error = Some(e),
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
                if r.id != self.next_id && !matches!(r.reply, Reply::Ready) {
                    return false;
                }
                match r.reply {
                    Reply::Ready => self.send(),
                    Reply::Progress { fit, of } => self.progress = Some((fit, of)),
                    Reply::Fit(f) => self.fitted(f),
                    Reply::Error(e) => {
                        self.running = false;
                        self.status.clear();
                        self.error = Some(e);
                    }
                    Reply::Row(_) | Reply::Report(_) => {}
                }
                true
            }
            Msg::Stop => {
                self.stop();
                true
            }
            Msg::Apply => self.apply(ctx),
            Msg::Anyway(b) => {
                self.anyway = b;
                true
            }
            Msg::Preview(open) => {
                self.preview = open;
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
                <p class="hint">{ "Drop fio JSON outputs here (fio --output-format=json, best with --group_reporting), or open them. The fit runs in a Web Worker on top of this platform; you see the fitted board, how well it predicts each file left out, and decide whether to apply it." }</p>
                <label class="fit-names">{ "Parameters to fit (comma-separated; empty: the usual six)" }
                    <input id="fit-params" type="text" value={self.names.clone()} onchange={on_names}
                           placeholder="completion_us, nand_read_us, card_write_busy_us, bus_mb_s, nand_program_mb_s, reliable_write_us" />
                </label>
                <div class="fit-buttons">
                    <label class={classes!("button", "secondary", "file-button", self.running.then_some("disabled"))}>{ "Open fio JSON files" }
                        <input id="fit-files" type="file" accept=".json,application/json" multiple=true
                               disabled={self.running} onchange={on_pick} />
                    </label>
                    if self.running {
                        <button id="fit-stop" type="button" class="button danger" onclick={link.callback(|_| Msg::Stop)}>{ "Stop" }</button>
                    }
                    if self.result.is_some() && !self.preview && !self.running {
                        <button id="fit-show" type="button" class="button secondary" onclick={link.callback(|_| Msg::Preview(true))}>{ "Show the fit" }</button>
                    }
                </div>
                if self.running {
                    <div class="fit-progress">
                        <progress id="fit-progress" max={self.progress.map_or(1, |p| p.1).to_string()}
                                  value={self.progress.map_or(0, |p| p.0 - 1).to_string()} />
                        <p id="fit-progress-text" role="status">{ self.progress_text() }</p>
                    </div>
                }
                if !self.status.is_empty() {
                    <p id="fit-status" role="status">{ self.status.clone() }</p>
                }
                if let Some(e) = &self.error {
                    <div id="fit-error" class="field-error" role="alert">{ e.clone() }</div>
                }
                if let (Some(f), true) = (&self.result, self.preview) {
                    { self.report(f, ctx) }
                }
            </section>
        }
    }
}

impl FitView {
    /// The preview: verdict, left-out error, parameters, figures, and Apply / Close.
    fn report(&self, f: &FitReply, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let trusted = f.warnings.is_empty();
        let can_apply = !self.applied && (trusted || self.anyway);
        html! {
            <div class="fit-backdrop">
            <div id="fit-result" class="fit-preview" role="dialog" aria-modal="true" aria-labelledby="fit-result-title"
                 data-rms={f.rms.to_string()}>
                <h3 id="fit-result-title">{ format!("Fitted board on {}: {} parameter(s) to {} figure(s)", f.platform, f.params.len(), f.rows.len()) }</h3>
                { fit_report::verdict(f) }
                { fit_report::left_out(f) }
                { fit_report::unconstrained(f) }
                { for f.notes.iter().map(|n| html! { <p class="fit-note">{ n.clone() }</p> }) }
                <div class="fit-tables">
                    <div><h4>{ "Parameters" }</h4>{ fit_report::params(f) }</div>
                    <div><h4>{ "Each measured figure, simulated on the preset and on the fit" }</h4>{ fit_report::cases(f) }</div>
                </div>
                <p class="fit-note">{ format!("Residual RMS error of the figures fitted: preset {:.2} %, fitted {:.2} %, after {} iteration(s). A small residual alone does not make a fit trustworthy: the left-out error does.", f.preset_rms * 100.0, f.rms * 100.0, f.iterations) }</p>
                <p class="fit-note">{ "The fitted board's link: " }<a id="fit-link" href={format!("?{}", f.query)}>{ format!("?{}", f.query) }</a></p>
                if !trusted && !self.applied {
                    <label class="fit-anyway"><input id="fit-anyway" type="checkbox" checked={self.anyway}
                        onchange={link.callback(|e: Event| Msg::Anyway(e.target_dyn_into::<HtmlInputElement>().is_some_and(|i| i.checked())))} />
                        { " This fit is not trusted: apply it to the board anyway" }</label>
                }
                <div class="fit-actions">
                    <button id="fit-apply" type="button" class="button primary" disabled={!can_apply}
                            onclick={link.callback(|_| Msg::Apply)}>
                        { if self.applied { "Applied to the board" } else if trusted { "Apply the fitted board" } else { "Apply anyway" } }
                    </button>
                    <button id="fit-download" type="button" class="button secondary"
                            onclick={link.callback(|_| Msg::Download)}>{ "Download the fitted board (TOML)" }</button>
                    <button id="fit-close" type="button" class="button secondary"
                            onclick={link.callback(|_| Msg::Preview(false))}>{ if self.applied { "Close" } else { "Close without applying" } }</button>
                </div>
            </div>
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
            download::read_text_file(f, PageInput::FitResult, move |r| cb.emit(r));
        }
        true
    }

    /// The fit's result: previewed, the board unchanged until Apply.
    fn fitted(&mut self, f: Box<FitReply>) {
        self.running = false;
        self.progress = None;
        self.anyway = false;
        self.applied = false;
        self.preview = true;
        self.status = format!(
            "Fitted {} parameter(s) on {} to {} figure(s), {}: the board is unchanged until you apply the fit.",
            f.params.len(),
            f.platform,
            f.rows.len(),
            if f.warnings.is_empty() { "trusted" } else { "not trusted" }
        );
        self.result = Some(f);
    }

    /// The previewed fit onto the scenario the panel shows (asked for: trusted, or the reader
    /// ticked "apply anyway").
    fn apply(&mut self, ctx: &Context<Self>) -> bool {
        let Some(f) = &self.result else {
            return false;
        };
        if self.applied || !(f.warnings.is_empty() || self.anyway) {
            return false;
        }
        let mut next = (*ctx.props().scenario).clone();
        match apply_toml(&mut next, "fitted board", &f.toml) {
            Ok(()) => {
                self.applied = true;
                self.preview = false;
                self.status = format!(
                    "Applied: the board above has the fitted values ({} parameter(s) on {}).",
                    f.params.len(),
                    f.platform
                );
                ctx.props().on_scenario.emit(next);
            }
            Err(e) => self.error = Some(e.to_string()),
        }
        true
    }
}
