//! The page: scenario form, Run/Stop, progress, live chart and results.
//!
//! State lives here; the components only draw it. A run advances only in `Msg::Frame`, one
//! budgeted slice per animation frame, so the page stays responsive whatever the scenario.

use std::collections::BTreeMap;
use std::rc::Rc;

use gloo::render::{request_animation_frame, AnimationFrame};
use mmcsim_components::{
    ControlsForm, FieldError, Measured, ProgressBar, ResultsTable, ThroughputChart,
};
use mmcsim_engine::metrics::SeriesPoint;
use mmcsim_engine::{HostOptions, Report, Scenario};
use yew::prelude::*;

use crate::command::{Commands, WatchAction};
use crate::engine_bridge as bridge;
use crate::gallery::StepAction;
use crate::gallery_view::GalleryPanel;
use crate::session::Session;
use crate::slicer::{now_ms, Slicer, FRAME_BUDGET_MS};
use crate::tools::{ResultTools, ScenarioTools};
use crate::trace_view::TraceReplay;
use crate::watch::Watch;

#[derive(Properties, PartialEq)]
pub struct AppProps {
    /// Read the scenario from the page's URL query and keep the URL in step with the controls
    /// (off in tests, whose page URL belongs to the test runner).
    #[prop_or(true)]
    pub use_url: bool,
}

impl Default for AppProps {
    fn default() -> Self {
        AppProps { use_url: true }
    }
}

pub enum Msg {
    /// A control's text as entered: `(option name, text)`.
    Control(String, String),
    Run,
    Stop,
    Frame,
    /// B's host switches of an A/B comparison (None: off), from the pipeline view.
    B(Option<HostOptions>),
    /// A whole scenario (gallery, job file, scheduled power cut): A, and B of an A/B pair.
    Load(Scenario, Option<Scenario>),
    /// Cut the power of the running simulation now.
    PullPlug,
    /// A gallery walk-through step for the page.
    Walk(StepAction),
    /// A command for "Watch the pipeline" (a walk-through step).
    Watch(WatchAction),
    /// The Board panel edits B (true) or A.
    BoardSide(bool),
    /// A board parameter's text for B: `(parameter name, text)`.
    BoardB(String, String),
    /// A platform file read onto B's board.
    BoardBFile(Scenario),
}

pub struct App {
    /// The last scenario the parser accepted in full: what Run simulates.
    scenario: Scenario,
    /// B's host switches when comparing (B = A's workload and seed with these; URL `b.` keys).
    b_host: Option<HostOptions>,
    /// B's board overrides when comparing (B runs on A's preset with these instead of A's).
    b_board: BTreeMap<String, u64>,
    /// The Board panel edits B's board.
    board_b: bool,
    /// Board parameter errors of B.
    b_errors: Rc<BTreeMap<String, FieldError>>,
    /// B of an A/B link that differs from A in more than the host switches (the 2011 series:
    /// mmc_test 37 against 38): kept for the link, offered as a scenario of its own.
    b_other: Option<Scenario>,
    /// The scenario of the last run (its exports describe it, whatever the form holds now).
    ran: Option<Rc<Scenario>>,
    /// The accepted text of each control.
    texts: Rc<BTreeMap<String, String>>,
    errors: Rc<BTreeMap<String, FieldError>>,
    error_seq: u32,
    /// Messages that concern no single control (URL query, starting a run).
    notices: Vec<String>,
    run: Option<Session>,
    slicer: Slicer,
    frame: Option<AnimationFrame>,
    /// `performance.now()` when the run started, ms.
    started_ms: f64,
    wall_ms: f64,
    progress: f64,
    sim_ns: u64,
    series: Rc<Vec<SeriesPoint>>,
    result: Option<(Rc<Report>, Option<Measured>)>,
    /// The last run was stopped by the user before its end.
    stopped: bool,
    /// The commands sent to "Watch the pipeline" (its `command` prop is the last).
    watch: Commands,
}

/// The page's query string, with its '?'.
fn url_search() -> String {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default()
}

/// Replaces the URL's query with the scenario's (no new history entry per change), so the page
/// can be shared and reloaded as it is.
/// B differs from A only in its host switches and board (what the A/B view compares).
fn host_only(a: &Scenario, b: &Scenario) -> bool {
    Scenario {
        host: a.host.clone(),
        board: a.board.clone(),
        ..b.clone()
    } == *a
}

fn write_url(scn: &Scenario, b: Option<&Scenario>) {
    let Some(w) = web_sys::window() else { return };
    let path = w.location().pathname().unwrap_or_default();
    let url = format!("{path}?{}", bridge::url_query_ab(scn, b));
    if let Ok(h) = w.history() {
        let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

impl Component for App {
    type Message = Msg;
    type Properties = AppProps;

    fn create(ctx: &Context<Self>) -> Self {
        let (scenario, b, notices) = if ctx.props().use_url {
            let (s, b, errs) = bridge::scenarios_from_query(&url_search());
            (
                s,
                b,
                errs.into_iter().map(|e| format!("URL: {e}")).collect(),
            )
        } else {
            (Scenario::default(), None, Vec::new())
        };
        App {
            texts: Rc::new(bridge::control_texts(&scenario)),
            b_other: b.as_ref().filter(|b| !host_only(&scenario, b)).cloned(),
            b_board: b
                .as_ref()
                .filter(|b| host_only(&scenario, b))
                .map(|b| b.board.clone())
                .unwrap_or_default(),
            board_b: false,
            b_errors: Rc::default(),
            b_host: b.filter(|b| host_only(&scenario, b)).map(|b| b.host),
            scenario,
            ran: None,
            errors: Rc::default(),
            error_seq: 0,
            notices,
            run: None,
            slicer: Slicer::default(),
            frame: None,
            started_ms: 0.0,
            wall_ms: 0.0,
            progress: 0.0,
            sim_ns: 0,
            series: Rc::default(),
            result: None,
            stopped: false,
            watch: Commands::default(),
        }
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::Control(name, text) => {
                let mut errors = (*self.errors).clone();
                match bridge::apply_control(&self.scenario, &name, &text) {
                    Ok(next) => {
                        self.scenario = next;
                        self.texts = Rc::new(bridge::control_texts(&self.scenario));
                        errors.remove(&name);
                        if ctx.props().use_url {
                            write_url(&self.scenario, self.b_link().as_ref());
                        }
                    }
                    Err(message) => {
                        self.error_seq += 1;
                        let kept = self.texts.get(&name).cloned().unwrap_or_default();
                        let kept = if kept.is_empty() {
                            "the platform default".to_string()
                        } else {
                            kept
                        };
                        let message = format!("{message} (kept {kept})");
                        errors.insert(
                            name,
                            FieldError {
                                message,
                                seq: self.error_seq,
                            },
                        );
                    }
                }
                self.errors = Rc::new(errors);
                true
            }
            Msg::Run => {
                self.notices.clear();
                match Session::start(&self.scenario) {
                    Ok(run) => {
                        self.run = Some(run);
                        self.ran = Some(Rc::new(self.scenario.clone()));
                        self.result = None;
                        self.stopped = false;
                        self.series = Rc::default();
                        self.progress = 0.0;
                        self.sim_ns = 0;
                        self.started_ms = now_ms();
                        self.wall_ms = 0.0;
                        self.schedule(ctx);
                    }
                    Err(e) => match e
                        .option
                        .filter(|o| bridge::controls().contains(&o.as_str()))
                    {
                        // Shown at the control it concerns, which keeps its value.
                        Some(option) => {
                            self.error_seq += 1;
                            let mut errors = (*self.errors).clone();
                            errors.insert(
                                option,
                                FieldError {
                                    message: e.message,
                                    seq: self.error_seq,
                                },
                            );
                            self.errors = Rc::new(errors);
                        }
                        None => self.notices.push(e.message),
                    },
                }
                true
            }
            Msg::Stop => {
                self.frame = None;
                self.run = None;
                self.stopped = true;
                true
            }
            Msg::B(host) => {
                if host.is_none() {
                    self.b_board.clear();
                    self.board_b = false;
                    self.b_errors = Rc::default();
                }
                self.b_host = host;
                self.b_other = None;
                if ctx.props().use_url {
                    write_url(&self.scenario, self.b_scenario().as_ref());
                }
                true
            }
            Msg::Load(a, b) => {
                if self.run.take().is_some() {
                    self.frame = None;
                    self.progress = 0.0;
                    self.series = Rc::default();
                }
                self.notices.clear();
                self.b_host = b
                    .as_ref()
                    .filter(|b| host_only(&a, b))
                    .map(|b| b.host.clone());
                self.b_board = b
                    .as_ref()
                    .filter(|b| host_only(&a, b))
                    .map(|b| b.board.clone())
                    .unwrap_or_default();
                if self.b_host.is_none() {
                    self.board_b = false;
                }
                self.b_errors = Rc::default();
                self.b_other = b.filter(|b| !host_only(&a, b));
                self.scenario = a;
                self.texts = Rc::new(bridge::control_texts(&self.scenario));
                self.errors = Rc::default();
                if ctx.props().use_url {
                    write_url(&self.scenario, self.b_link().as_ref());
                }
                true
            }
            Msg::BoardSide(b) => {
                if b && self.b_host.is_none() {
                    // Comparing starts with B = A; the panel then edits B's board.
                    self.b_host = Some(self.scenario.host.clone());
                    self.b_board = self.scenario.board.clone();
                    self.b_other = None;
                }
                self.board_b = b && self.b_host.is_some();
                if ctx.props().use_url {
                    write_url(&self.scenario, self.b_link().as_ref());
                }
                true
            }
            Msg::BoardB(name, text) => {
                let Some(base) = self.b_scenario() else {
                    return false;
                };
                let mut errors = (*self.b_errors).clone();
                match bridge::apply_control(&base, &name, &text) {
                    Ok(next) => {
                        self.b_board = next.board;
                        errors.remove(&name);
                        if ctx.props().use_url {
                            write_url(&self.scenario, self.b_link().as_ref());
                        }
                    }
                    Err(message) => {
                        self.error_seq += 1;
                        errors.insert(
                            name,
                            FieldError {
                                message: format!("B: {message}"),
                                seq: self.error_seq,
                            },
                        );
                    }
                }
                self.b_errors = Rc::new(errors);
                true
            }
            Msg::BoardBFile(b) => {
                if b.platform == self.scenario.platform && self.b_host.is_some() {
                    self.b_board = b.board;
                    self.b_errors = Rc::default();
                    if ctx.props().use_url {
                        write_url(&self.scenario, self.b_link().as_ref());
                    }
                } else {
                    self.notices.push(format!(
                        "B's board is on A's platform ({}); the file is for {}.",
                        self.scenario.platform, b.platform
                    ));
                }
                true
            }
            Msg::PullPlug => {
                if let Some(run) = self.run.as_mut() {
                    run.power_cut_now();
                    if self.frame.is_none() {
                        self.schedule(ctx);
                    }
                }
                false
            }
            Msg::Walk(action) => {
                match action {
                    StepAction::RunToEnd if self.run.is_none() => ctx.link().send_message(Msg::Run),
                    StepAction::PlugAt(t) => {
                        if let Ok(next) = crate::exports::with_power_cut(&self.scenario, t) {
                            let link = ctx.link();
                            link.send_message(Msg::Load(next, self.b_link()));
                            link.send_message(Msg::Run);
                        }
                    }
                    _ => {}
                }
                false
            }
            Msg::Watch(action) => {
                self.watch.send(action);
                true
            }
            Msg::Frame => {
                self.frame = None;
                let Some(run) = self.run.as_mut() else {
                    return false;
                };
                let done = self
                    .slicer
                    .run_slice(|n| run.run_events(n), now_ms, FRAME_BUDGET_MS);
                self.progress = run.progress();
                self.sim_ns = run.now();
                self.series = Rc::new(run.series());
                self.wall_ms = now_ms() - self.started_ms;
                if done {
                    let report = run.report();
                    // A run cut short by the plug is not the measured case's run.
                    let measured = bridge::measured_for(&self.scenario)
                        .filter(|_| report.power_cut.is_none())
                        .map(|m| Measured {
                            simulated: bridge::simulated_in(&self.scenario, &report, &m.unit),
                            measured: m.value,
                            unit: m.unit,
                            column: m.column,
                            source: m.source,
                            note: m.outlier,
                        });
                    self.result = Some((Rc::new(report), measured));
                    self.progress = 1.0;
                    self.run = None;
                } else {
                    self.schedule(ctx);
                }
                true
            }
        }
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let running = self.run.is_some();
        let (board_scn, board_errors, board_change, board_file, board_b) =
            match (self.board_b, self.b_scenario()) {
                (true, Some(b)) => (
                    Rc::new(b),
                    self.b_errors.clone(),
                    link.callback(|(n, t)| Msg::BoardB(n, t)),
                    link.callback(Msg::BoardBFile),
                    true,
                ),
                _ => (
                    Rc::new(self.scenario.clone()),
                    self.errors.clone(),
                    link.callback(|(n, t)| Msg::Control(n, t)),
                    link.callback(|s| Msg::Load(s, None)),
                    false,
                ),
            };
        let on_change = link.callback(|(n, t)| Msg::Control(n, t));
        let platform: AttrValue = self.scenario.platform.clone().into();
        html! {
            <div class="page">
                <header class="top">
                    <h1>{ "mmcsim" }</h1>
                    <p class="tagline">{ "The Linux eMMC block I/O path, simulated event by event in your browser" }</p>
                    <a class="top-link" href="#gallery">{ "Gallery of the measured experiments ↓" }</a>
                </header>
                { for self.notices.iter().map(|n| html! { <div class="notice" role="alert">{ n }</div> }) }
                <main class="layout">
                    <section class="panel scenario" aria-label="Scenario">
                        <ControlsForm {platform} values={self.texts.clone()} errors={self.errors.clone()}
                                      disabled={running} {on_change} />
                        <crate::board_view::BoardView scenario={board_scn} errors={board_errors}
                                      disabled={running} on_change={board_change} on_scenario={board_file}
                                      side_b={board_b} on_side={link.callback(Msg::BoardSide)} />
                        <div class="actions">
                            if running {
                                <button id="stop" class="button secondary" onclick={link.callback(|_| Msg::Stop)}>{ "Stop" }</button>
                            } else {
                                <button id="run" class="button primary" onclick={link.callback(|_| Msg::Run)}>{ "Run" }</button>
                            }
                        </div>
                        <div class="cmdline">
                            <span>{ "Same run from the command line" }</span>
                            <code id="command-line">{ bridge::command_line(&self.scenario) }</code>
                        </div>
                        {{
                            let warnings = bridge::warnings(&self.scenario);
                            if warnings.is_empty() {
                                html! {}
                            } else {
                                html! {
                                    <ul id="scenario-warnings" class="warnings" aria-label="Options without effect">
                                        { for warnings.iter().map(|w| html! { <li>{ w.clone() }</li> }) }
                                    </ul>
                                }
                            }
                        }}
                        <ScenarioTools scenario={Rc::new(self.scenario.clone())} b={self.b_link().map(Rc::new)}
                                       show_b_link={self.b_other.is_some()} {running}
                                       on_scenario={link.callback(|s| Msg::Load(s, None))}
                                       on_pull={link.callback(|()| Msg::PullPlug)} />
                        <TraceReplay scenario={Rc::new(self.scenario.clone())} {running}
                                     on_load={link.callback(|(a, b)| Msg::Load(a, b))} />
                    </section>
                    <section class="panel output" aria-label="Results">
                        <ProgressBar fraction={self.progress} label={self.status()} />
                        <ThroughputChart points={self.series.clone()} />
                        <div id="results">
                            if let Some((report, measured)) = &self.result {
                                <ResultsTable report={report.clone()} measured={measured.clone()} />
                                if let Some(ran) = &self.ran {
                                    <ResultTools scenario={ran.clone()} report={report.clone()} series={self.series.clone()} />
                                }
                            } else if self.stopped {
                                <p class="placeholder">{ "Stopped before the end: no report. Press Run to start again." }</p>
                            } else if !running {
                                <p class="placeholder">{ "Choose a scenario and press Run. Results appear here when the run ends." }</p>
                            }
                        </div>
                    </section>
                </main>
                <Watch a={self.scenario.clone()} b={self.b_scenario()} on_b={link.callback(Msg::B)}
                       command={self.watch.last()} />
                <crate::sweep_view::SweepView scenario={Rc::new(self.scenario.clone())} />
                <GalleryPanel on_open={link.callback(|(a, b)| Msg::Load(a, b))} on_action={link.callback(Msg::Walk)}
                              on_watch={link.callback(Msg::Watch)} />
                <footer class="foot">
                    { "Deterministic: the same scenario and randseed give the same numbers in the browser, the CLI and the tests." }
                </footer>
            </div>
        }
    }
}

impl App {
    /// B of the A/B comparison: A with B's host switches.
    fn b_scenario(&self) -> Option<Scenario> {
        self.b_host.as_ref().map(|h| {
            let mut b = crate::live::b_scenario(&self.scenario, h);
            b.board = self.b_board.clone();
            b.normalize_board();
            b
        })
    }

    /// B as the link carries it: the A/B view's, or one that differs in more than the host.
    fn b_link(&self) -> Option<Scenario> {
        self.b_scenario().or_else(|| self.b_other.clone())
    }

    fn schedule(&mut self, ctx: &Context<Self>) {
        let link = ctx.link().clone();
        self.frame = Some(request_animation_frame(move |_| {
            link.send_message(Msg::Frame)
        }));
    }

    fn status(&self) -> AttrValue {
        if self.run.is_none() && self.result.is_none() && !self.stopped {
            return AttrValue::from("");
        }
        let sim = mmcsim_components::format::sim_time(self.sim_ns);
        let wall = self.wall_ms / 1e3;
        let stopped = if self.stopped { ", stopped" } else { "" };
        AttrValue::from(format!("{sim} simulated in {wall:.1} s{stopped}"))
    }
}
