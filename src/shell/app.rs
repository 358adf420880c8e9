//! The page: the lesson and the tour at the head of "Watch the pipeline", the Lab (scenario
//! form, Run/Stop, progress, chart and results of the one watched run), the gallery.
//!
//! State lives here; the components only draw it. There is one simulation: the Watch's. Play
//! runs it at a speed, Run plays it to the end at full speed, and the Watch reports how it
//! stands (`Msg::RunState`) for the results. The URL carries the scenario and the view
//! ([`crate::watch::moment`]).

use std::collections::BTreeMap;
use std::rc::Rc;

use gloo::events::EventListener;
use mmcsim_components::{
    ControlsForm, DeltaTable, FieldError, JobTabs, Measured, ProgressBar, ResultsTable,
    ThroughputChart,
};
use mmcsim_engine::{HostOptions, Report, Scenario};
use yew::prelude::*;

use crate::gallery::view::GalleryPanel;
use crate::gallery::StepAction;
use crate::lesson::{self, TourAction};
use crate::shell::engine_bridge as bridge;
use crate::tools::trace::TraceReplay;
use crate::tools::{ResultTools, ScenarioTools};
use crate::watch::command::{Commands, Target, WatchAction};
use crate::watch::moment;
use crate::watch::{RunState, Watch};

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
    /// Run: the watched simulation plays to its end at full speed.
    Run,
    /// Stop: pause the watched simulation where it is.
    Stop,
    /// How the watched run stands (from the Watch).
    RunState(RunState),
    /// B's host switches of an A/B comparison (None: off), from the pipeline view.
    B(Option<HostOptions>),
    /// A whole scenario (gallery, job file, scheduled power cut): A, and B of an A/B pair.
    Load(Scenario, Option<Scenario>),
    /// A gallery entry's pair: loaded as `Load`, with a history entry (Back returns).
    Open(Scenario, Option<Scenario>),
    /// Cut the power of the running simulation now.
    PullPlug,
    /// The form shows and edits this job section.
    Job(usize),
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
    /// Start the tour of a series (None: close the tour).
    Tour(Option<&'static str>),
    /// Go to a step of the open tour.
    TourStep(usize),
    /// Do what the current tour step's button says.
    TourAct,
    /// The reader's answer to the tour's prediction question.
    Predict(usize),
    /// The browser's back/forward: restore the tour and step of the URL.
    PopState,
}

/// The open tour: its content, the step shown, the prediction picked.
struct TourState {
    tour: Rc<lesson::Tour>,
    step: usize,
    answer: Option<usize>,
    /// The run-to-end step's action was taken (the answer can be shown).
    ran: bool,
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
    /// B that differs from A in more than the host switches (the 2011 series: mmc_test 37
    /// against 38): watched beside A all the same, and kept for the link.
    b_other: Option<Scenario>,
    /// The accepted text of each control (job options: of the selected job section).
    texts: Rc<BTreeMap<String, String>>,
    /// The job section the form shows and edits (a multi-job file), and the tabs' labels.
    job: usize,
    job_labels: Rc<Vec<String>>,
    errors: Rc<BTreeMap<String, FieldError>>,
    error_seq: u32,
    /// Messages that concern no single control (URL query, starting a run).
    notices: Vec<String>,
    /// The watched run as it stands (the one run the page shows).
    run: Option<RunState>,
    /// The scenario the shown run is of (A, B).
    ran: Option<(Rc<Scenario>, Option<Rc<Scenario>>)>,
    /// The commands sent to "Watch the pipeline" (its `command` prop is the last).
    watch: Commands,
    /// The landing lesson is shown (a visit without a query string).
    landing: bool,
    tour: Option<TourState>,
    use_url: bool,
    _popstate: Option<EventListener>,
}

/// The page's query string, with its '?'.
fn url_search() -> String {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default()
}

/// B differs from A only in its host switches and board (what the A/B view compares).
fn host_only(a: &Scenario, b: &Scenario) -> bool {
    Scenario {
        host: a.host.clone(),
        board: a.board.clone(),
        ..b.clone()
    } == *a
}

/// Writes the URL: `push` makes a history entry (a tour step), else the current one is replaced.
fn write_url(query: &str, push: bool) {
    let Some(w) = web_sys::window() else { return };
    let loc = w.location();
    let path = loc.pathname().unwrap_or_default();
    let hash = loc.hash().unwrap_or_default();
    let url = format!("{path}?{query}{hash}");
    if let Ok(h) = w.history() {
        let _ = if push {
            h.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url))
        } else {
            h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url))
        };
    }
}

fn scroll_to(id: &str) {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
    {
        el.scroll_into_view();
    }
}

impl Component for App {
    type Message = Msg;
    type Properties = AppProps;

    fn create(ctx: &Context<Self>) -> Self {
        let use_url = ctx.props().use_url;
        let search = if use_url { url_search() } else { String::new() };
        let (rest, moment, view_errors) = moment::split_query(&search);
        let landing = use_url && search.trim_start_matches('?').is_empty();
        let (mut scenario, mut b, errs) = bridge::scenarios_from_query(&rest);
        if landing {
            let (a, lb) = lesson::landing_pair();
            scenario = a;
            b = Some(lb);
        }
        let notices = errs
            .into_iter()
            .chain(view_errors)
            .map(|e| format!("URL: {e}"))
            .collect();
        let popstate = use_url.then(|| {
            let link = ctx.link().clone();
            let w = web_sys::window().expect("a window");
            EventListener::new(&w, "popstate", move |_| link.send_message(Msg::PopState))
        });
        let mut app = App {
            texts: Rc::new(bridge::control_texts(&scenario)),
            job: 0,
            job_labels: Rc::new(bridge::job_labels(&scenario)),
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
            errors: Rc::default(),
            error_seq: 0,
            notices,
            run: None,
            ran: None,
            watch: Commands::default(),
            landing,
            tour: None,
            use_url,
            _popstate: popstate,
        };
        if moment.compare && app.b_host.is_none() && app.b_other.is_none() {
            app.b_host = Some(crate::watch::live::suggest_b(&app.scenario));
        }
        if let Some(t) = moment.tour.as_deref() {
            app.open_tour(t, moment.step);
        }
        let play = if landing {
            true
        } else {
            !moment.paused && (moment.t.is_some() || moment.speed.is_some())
        };
        // No speed in the link: the first play derives one at which a request can be followed.
        let speed = moment.speed;
        if play || moment.t.is_some() || moment.focus.is_some() || speed.is_some() {
            app.watch.send(WatchAction::Moment {
                t: moment.t,
                speed,
                play,
                focus: moment.focus,
            });
        }
        app
    }

    fn rendered(&mut self, _ctx: &Context<Self>, first: bool) {
        if first && self.use_url {
            // The page is drawn after the browser looked for the anchor: go there now.
            let hash = web_sys::window()
                .and_then(|w| w.location().hash().ok())
                .unwrap_or_default();
            if let Some(id) = hash.strip_prefix('#').filter(|h| !h.is_empty()) {
                scroll_to(id);
            }
        }
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::Control(name, text) => {
                let mut errors = (*self.errors).clone();
                match bridge::apply_control_in(&self.scenario, self.job, &name, &text) {
                    Ok(next) => {
                        self.scenario = next;
                        self.set_texts();
                        errors.remove(&name);
                        self.sync_url(false);
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
                // The engine's refusal of a combination, at the control it names.
                if let Err(e) = crate::shell::session::Session::start(&self.scenario) {
                    match e
                        .option
                        .filter(|o| bridge::controls().contains(&o.as_str()))
                    {
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
                    }
                    return true;
                }
                self.watch.send(WatchAction::Seek(None));
                if let Some(r) = self.run.as_mut() {
                    r.playing = !r.finished;
                }
                true
            }
            Msg::Stop => {
                self.watch.send(WatchAction::Pause);
                true
            }
            Msg::RunState(r) => {
                self.record_cut(&r);
                self.ran = Some((
                    Rc::new(self.scenario.clone()),
                    self.b_scenario().map(Rc::new),
                ));
                self.run = Some(r);
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
                self.sync_url(false);
                true
            }
            Msg::Load(a, b) => {
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
                self.job = 0;
                self.set_texts();
                self.errors = Rc::default();
                self.run = None;
                self.sync_url(false);
                true
            }
            Msg::Open(a, b) => {
                Component::update(self, ctx, Msg::Load(a, b));
                self.sync_url(true);
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
                self.sync_url(false);
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
                        self.sync_url(false);
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
                    self.sync_url(false);
                } else {
                    self.notices.push(format!(
                        "B's board is on A's platform ({}); the file is for {}.",
                        self.scenario.platform, b.platform
                    ));
                }
                true
            }
            Msg::PullPlug => {
                self.watch.send(WatchAction::PullPlug);
                true
            }
            Msg::Job(i) => {
                self.job = i;
                self.errors = Rc::default();
                self.set_texts();
                true
            }
            Msg::Walk(action) => {
                match action {
                    StepAction::RunToEnd => ctx.link().send_message(Msg::Run),
                    StepAction::PlugAt(t) => {
                        if let Ok(next) = crate::tools::exports::with_power_cut(&self.scenario, t) {
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
            Msg::Tour(None) => {
                self.tour = None;
                self.sync_url(true);
                true
            }
            Msg::Tour(Some(p)) => {
                self.open_tour(p, 0);
                self.landing = false;
                self.sync_url(true);
                scroll_to("watch");
                true
            }
            Msg::TourStep(k) => {
                if let Some(t) = self.tour.as_mut() {
                    t.step = k.min(t.tour.steps.len() - 1);
                }
                self.sync_url(true);
                true
            }
            Msg::TourAct => {
                self.tour_act(ctx);
                true
            }
            Msg::Predict(i) => {
                if let Some(t) = self.tour.as_mut() {
                    t.answer = Some(i);
                    t.step = (t.step + 1).min(t.tour.steps.len() - 1);
                }
                self.sync_url(true);
                true
            }
            Msg::PopState => {
                let (_, m, _) = moment::split_query(&url_search());
                match m.tour.as_deref() {
                    Some(p) if self.tour.as_ref().is_some_and(|t| t.tour.platform == p) => {
                        if let Some(t) = self.tour.as_mut() {
                            t.step = m.step.min(t.tour.steps.len() - 1);
                        }
                    }
                    Some(p) => self.open_tour(p, m.step),
                    None => self.tour = None,
                }
                true
            }
        }
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let running = self.run.as_ref().is_some_and(|r| r.playing);
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
        let b = self.b_link();
        html! {
            <div class={classes!("page", self.landing.then_some("landing"), self.tour.is_some().then_some("touring"))}>
                <header class="top">
                    <h1>{ "mmcsim" }</h1>
                    <p class="tagline">{ "The Linux eMMC block I/O path, simulated event by event in your browser" }</p>
                    <nav class="top-nav">
                        <a href="#watch">{ "Lesson" }</a>
                        <a href="#lab" id="lab-link">{ "Lab: your own scenario" }</a>
                        <a class="top-link" href="#gallery">{ "Gallery" }</a>
                    </nav>
                </header>
                { for self.notices.iter().map(|n| html! { <div class="notice" role="alert">{ n }</div> }) }
                <Watch a={self.scenario.clone()} b={self.b_scenario().or_else(|| self.b_other.clone())} on_b={link.callback(Msg::B)}
                       command={self.watch.last()} link_base={AttrValue::from(self.link_query())}
                       on_run={link.callback(Msg::RunState)} compact={self.landing || self.tour.is_some()}>
                    { self.lesson_view(ctx) }
                </Watch>
                <main class="layout" id="lab">
                    <section class="panel scenario" aria-label="Scenario">
                        <h2 class="lab-title">{ "Lab: your own scenario" }</h2>
                        // Editing while the view plays is fine: a new scenario starts the one run again.
                        <JobTabs labels={self.job_labels.clone()} selected={self.job} on_select={link.callback(Msg::Job)} />
                        <ControlsForm {platform} values={self.texts.clone()} errors={self.errors.clone()}
                                      disabled={false} on_change={on_change.clone()} />
                        <crate::tools::board::BoardView scenario={board_scn} errors={board_errors}
                                      disabled={false} on_change={board_change} on_scenario={board_file}
                                      side_b={board_b} on_side={link.callback(Msg::BoardSide)} />
                        <div class="actions">
                            <button id="run" class="button primary" onclick={link.callback(|_| Msg::Run)}
                                    title="Plays the simulation in the pipeline view to its end at full speed">{ "Run" }</button>
                            if running {
                                <button id="stop" class="button secondary" onclick={link.callback(|_| Msg::Stop)}>{ "Stop" }</button>
                            }
                        </div>
                        <div class="cmdline">
                            <span>{ "Same run from the command line" }</span>
                            <code id="command-line">{ bridge::command_line(&self.scenario) }</code>
                            if let Some(b) = &b {
                                <span>{ "B" }</span>
                                <code id="command-line-b">{ bridge::command_line(b) }</code>
                            }
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
                        <ScenarioTools scenario={Rc::new(self.scenario.clone())} b={b.clone().map(Rc::new)}
                                       show_b_link={false} {running}
                                       on_scenario={link.callback(|s| Msg::Load(s, None))}
                                       on_pull={link.callback(|()| Msg::PullPlug)} />
                        <TraceReplay scenario={Rc::new(self.scenario.clone())} {running}
                                     on_load={link.callback(|(a, b)| Msg::Load(a, b))} />
                    </section>
                    <section class="panel output" aria-label="Results">
                        { self.results_view() }
                    </section>
                </main>
                <crate::tools::sweep::SweepView scenario={Rc::new(self.scenario.clone())} />
                <GalleryPanel on_open={link.callback(|(a, b)| Msg::Open(a, b))} on_action={link.callback(Msg::Walk)}
                              on_watch={link.callback(Msg::Watch)} on_tour={link.callback(|p| Msg::Tour(Some(p)))} />
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
            let mut b = crate::watch::live::b_scenario(&self.scenario, h);
            b.board = self.b_board.clone();
            b.normalize_board();
            b
        })
    }

    /// B as the link carries it: the A/B view's, or one that differs in more than the host.
    fn b_link(&self) -> Option<Scenario> {
        self.b_scenario().or_else(|| self.b_other.clone())
    }

    /// The link query of the page: the scenario (and B), the tour and its step.
    fn link_query(&self) -> String {
        let scn = bridge::url_query_ab(&self.scenario, self.b_link().as_ref());
        let m = moment::Moment {
            tour: self.tour.as_ref().map(|t| t.tour.platform.to_string()),
            step: self.tour.as_ref().map_or(0, |t| t.step),
            ..Default::default()
        };
        moment::join(&scn, &m)
    }

    /// Keeps the URL in step with the page (a tour step makes a history entry).
    fn sync_url(&self, push: bool) {
        if self.use_url {
            write_url(&self.link_query(), push);
        }
    }

    /// The form's texts and job tabs for the scenario (the selected job kept while it exists).
    fn set_texts(&mut self) {
        self.job = self.job.min(self.scenario.jobs.len().saturating_sub(1));
        self.texts = Rc::new(bridge::control_texts_in(&self.scenario, self.job));
        self.job_labels = Rc::new(bridge::job_labels(&self.scenario));
    }

    /// The plug pulled in the view cut the run at a moment: the scenario (its link, the Lab's
    /// `power_cut` field, any re-simulation of the view) now cuts there too.
    fn record_cut(&mut self, r: &RunState) {
        let Some(at) = r.a.power_cut.as_ref().map(|p| p.at_ns) else {
            return;
        };
        if at > 0 && self.scenario.power_cut_ns != Some(at) {
            self.scenario.power_cut_ns = Some(at);
            if let Some(b) = self.b_other.as_mut() {
                b.power_cut_ns = Some(at);
            }
            self.sync_url(false);
        }
    }

    /// Opens the tour of `platform` at `step`: its pair is loaded and stays on screen.
    fn open_tour(&mut self, platform: &str, step: usize) {
        match lesson::tour(platform) {
            Ok(t) => {
                self.scenario = t.a.clone();
                self.set_texts();
                self.b_host = host_only(&t.a, &t.b).then(|| t.b.host.clone());
                self.b_board = t.b.board.clone();
                self.b_other = (!host_only(&t.a, &t.b)).then(|| t.b.clone());
                self.run = None;
                self.tour = Some(TourState {
                    step: step.min(t.steps.len() - 1),
                    tour: Rc::new(t),
                    answer: None,
                    ran: false,
                });
            }
            Err(e) => self.notices.push(format!("Tour: {e}")),
        }
    }

    /// The current tour step's action, then the next step.
    fn tour_act(&mut self, ctx: &Context<Self>) {
        let Some(t) = self.tour.as_ref() else { return };
        let tour = t.tour.clone();
        let step = t.step;
        let action = tour.steps[step].action;
        match action {
            TourAction::Play(speed) => {
                self.watch
                    .send(WatchAction::Play(crate::watch::clock::speed_index(speed)));
            }
            TourAction::Pause => {
                self.watch.send(WatchAction::Pause);
            }
            TourAction::Focus(l) => {
                self.watch.send(WatchAction::Focus(Some(Target::Layer(l))));
            }
            TourAction::Predict => {}
            TourAction::RunToEnd => {
                self.watch.send(WatchAction::Seek(None));
            }
            TourAction::Follow { t_ns, id } => {
                self.watch.send(WatchAction::Moment {
                    t: Some(t_ns),
                    speed: None,
                    play: false,
                    focus: Some(Target::Request { b: false, id }),
                });
            }
            TourAction::WindowOnly(on) => {
                let b = if on {
                    tour.window.clone()
                } else {
                    Some(tour.b.clone())
                };
                if let Some(b) = b {
                    self.b_host = Some(b.host);
                    self.b_other = None;
                    self.watch.send(WatchAction::Seek(None));
                }
            }
            TourAction::TryIt => {
                let (a, b) = tour.try_pair();
                ctx.link().send_message(Msg::Load(a, Some(b)));
                scroll_to("lab");
            }
        }
        if let Some(t) = self.tour.as_mut() {
            if action == TourAction::RunToEnd {
                t.ran = true;
            }
            if t.step + 1 < t.tour.steps.len() && action != TourAction::Predict {
                t.step += 1;
            }
        }
        self.sync_url(true);
    }

    /// The lesson at the head of the pipeline view: the landing's sentences and the tour.
    fn lesson_view(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        if let Some(t) = &self.tour {
            return self.tour_view(ctx, t);
        }
        html! {
            <div class="lesson" id="lesson">
                if self.landing {
                    <div class="lesson-text">
                        { for lesson::LANDING_TEXT.iter().map(|p| html! { <p>{ *p }</p> }) }
                    </div>
                }
                <div class="lesson-actions">
                    <button id="start-tour" class="button primary"
                            onclick={link.callback(|_| Msg::Tour(Some(lesson::LANDING_SERIES)))}>{ "Start the tour ▸" }</button>
                    <a class="button secondary" href="#lab">{ "Open the Lab" }</a>
                </div>
            </div>
        }
    }

    fn tour_view(&self, ctx: &Context<Self>, t: &TourState) -> Html {
        let link = ctx.link();
        let tour = &t.tour;
        let n = tour.steps.len();
        let s = &tour.steps[t.step];
        let k = t.step;
        let finished = self.run.as_ref().is_some_and(|r| r.finished);
        let answered = t.answer.map(|i| {
            let p = &tour.prediction;
            let picked = p.choices[i].1.clone();
            (
                picked,
                p.answer(i, tour.fa.figure, tour.fb.figure, tour.unit),
            )
        });
        html! {
            <div class="lesson tour" id="tour" data-tour={tour.platform} data-step={(k + 1).to_string()} role="group" aria-label="Tour">
                <div class="tour-head">
                    <b>{ format!("Tour: {}", tour.title) }</b>
                    <span class="muted">{ format!(" · step {} of {n}", k + 1) }</span>
                    <button class="link" id="tour-close" onclick={link.callback(|_| Msg::Tour(None))}>{ "close" }</button>
                </div>
                <p class="tour-see" id="tour-see">{ &s.see }</p>
                if let (Some((picked, answer)), true) = (&answered, k > tour.predict_step && (t.ran || finished)) {
                    <p class="tour-answer" id="tour-answer">{ format!("You predicted \"{picked}\". {answer}") }</p>
                }
                <p class="tour-press">{ &s.press }</p>
                <div class="tour-actions">
                    <button class="button secondary" id="tour-back" disabled={k == 0}
                            onclick={link.callback(move |_| Msg::TourStep(k.saturating_sub(1)))}>{ "◂ Back" }</button>
                    if s.action == TourAction::Predict {
                        { for tour.prediction.choices.iter().enumerate().map(|(i, (_, l))| html! {
                            <button class="button primary predict" data-choice={i.to_string()}
                                    onclick={link.callback(move |_| Msg::Predict(i))}>{ l.clone() }</button>
                        }) }
                    } else {
                        <button class="button primary" id="tour-act" onclick={link.callback(|_| Msg::TourAct)}>{ s.button.clone() }</button>
                    }
                    <button class="button secondary" id="tour-next" disabled={k + 1 >= n}
                            onclick={link.callback(move |_| Msg::TourStep(k + 1))}>{ "Next ▸" }</button>
                </div>
            </div>
        }
    }

    /// Progress, the throughput chart and the results of the one run the view shows: A, and
    /// with a comparison B and the change.
    fn results_view(&self) -> Html {
        let Some(r) = &self.run else {
            return html! {
                <>
                    <ProgressBar fraction={0.0} label={AttrValue::from("")} />
                    <div id="results"><p class="placeholder">{ "Press Run (or Play above): the results of that one run appear here." }</p></div>
                </>
            };
        };
        let sim = mmcsim_components::format::sim_time(r.now_ns);
        let status = if r.finished {
            format!("{sim} simulated, finished")
        } else if r.playing {
            format!("{sim} simulated, running")
        } else {
            format!("{sim} simulated, paused")
        };
        let measured = |scn: &Scenario, report: &Report| {
            bridge::measured_for(scn)
                .filter(|_| report.power_cut.is_none())
                .map(|m| Measured {
                    simulated: bridge::simulated_in(scn, report, &m.unit),
                    measured: m.value,
                    unit: m.unit,
                    column: m.column,
                    source: m.source,
                    note: m.outlier,
                })
        };
        let (sa, sb) = self
            .ran
            .clone()
            .unwrap_or_else(|| (Rc::new(self.scenario.clone()), None));
        html! {
            <>
                <ProgressBar fraction={if r.finished { 1.0 } else { r.progress }} label={AttrValue::from(status)} />
                <ThroughputChart points={r.series.clone()} />
                <div id="results" class={classes!(r.b.is_some().then_some("ab-results"))}>
                    if r.finished {
                        <div class="result-side" data-side="a">
                            if r.b.is_some() { <h3>{ "A" }</h3> }
                            <ResultsTable report={r.a.clone()} measured={measured(&sa, &r.a)} />
                            <ResultTools scenario={sa.clone()} report={r.a.clone()} series={r.series.clone()} />
                        </div>
                        if let (Some(rb), Some(sb)) = (&r.b, &sb) {
                            <div class="result-side" data-side="b">
                                <h3>{ "B" }</h3>
                                <ResultsTable report={rb.clone()} measured={measured(sb, rb)} />
                            </div>
                            <div class="result-side" data-side="change">
                                <h3>{ "Change B vs A" }</h3>
                                <DeltaTable rows={r.deltas.clone()} a_label={AttrValue::from("A")} b_label={AttrValue::from("B")} />
                            </div>
                        }
                    } else {
                        <p class="placeholder">{ "The run is not finished: results appear when it ends (Run plays it to the end)." }</p>
                    }
                </div>
            </>
        }
    }
}
