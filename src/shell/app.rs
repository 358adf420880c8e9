//! The page: the lesson and the tour at the head of "Watch the pipeline", the Lab (scenario
//! form, Run/Stop, progress, chart and results of the one watched run), the tools, the gallery.
//!
//! The page holds what its panels share: the scenario pair ([`Pair`]), the open tour
//! ([`TourState`]: the URL carries its step, and it drives the pair and the Watch), the watched
//! run as it stands, and the URL. The panels are components ([`Lesson`], [`Watch`], [`Lab`],
//! the Sweep, the gallery) that draw it, own their own state (the Lab its form, the Watch its
//! sides and clock, the gallery its tables) and report edits; the message handling is in
//! `app_update.rs`. There is one simulation: the Watch's. Play runs it at a speed, Run plays
//! it to the end at full speed, and the Watch reports how it stands (`Msg::RunState`) for the
//! results. The URL carries the scenario and the view ([`crate::watch::moment`]).

use std::rc::Rc;

use gloo::events::EventListener;
use mmcsim_engine::scenario::bounded_message;
use mmcsim_engine::{Overrides, Scenario};
use yew::prelude::*;

#[cfg(feature = "full")]
use crate::gallery::view::GalleryPanel;
use crate::gallery::StepAction;
use crate::lab::FormCmd;
#[cfg(feature = "full")]
use crate::lab::Lab;
use crate::lesson::state::TourState;
use crate::lesson::view::Lesson;
use crate::run::engine_bridge as bridge;
use crate::run::pair::{Pair, B};
#[cfg(feature = "full")]
use crate::run::url::scroll_to;
use crate::run::url::{url_search, write_url};
#[cfg(feature = "full")]
use crate::tools::sensitivity::SensitivityView;
#[cfg(feature = "full")]
use crate::tools::sweep::SweepView;
use crate::watch::command::{Commands, WatchAction};
use crate::watch::{moment, RunState, Watch};

#[cfg(feature = "full")]
use crate::lesson::check::CheckOn;

/// What the link query is made of.
struct LinkOf {
    pair: Pair,
    tour: Option<(&'static str, usize)>,
}

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
    /// The Lab's form channel (once, when the Lab is created).
    LabReady(Callback<FormCmd>),
    /// A control's text as entered: `(option name, text, job section shown)`.
    Control(String, String, usize),
    /// Run: the watched simulation plays to its end at full speed.
    Run,
    /// Stop: pause the watched simulation where it is.
    Stop,
    /// How the watched run stands (from the Watch).
    RunState(RunState),
    /// B's host switches of an A/B comparison (None: off), from the pipeline view.
    B(Option<Overrides>),
    /// A whole scenario (gallery, job file, scheduled power cut): A, and B of an A/B pair.
    Load(Scenario, Option<Scenario>),
    /// A gallery entry's pair: loaded as `Load`, with a history entry (Back returns).
    Open(Scenario, Option<Scenario>),
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
    /// The dock's "Back to the tour": the tour panel into view again.
    BackToTour,
    /// The first render is on screen: draw what follows the lesson (see [`App::rest_shown`]).
    ShowRest,
    /// The course's check (`app_check.rs`).
    Check(CheckMsg),
}

/// What the course's check asks of the page (`app_check.rs`).
pub enum CheckMsg {
    /// Turn the check on ("check what you know").
    On,
    /// Question `.0` of the phase shown, answered with a choice (None: skipped).
    Answer(usize, Option<usize>),
    /// Open the lesson of this series id (lesson 1 after the questions, or one to revisit).
    Lesson(&'static str),
    /// Clear the record (and, after the last lesson, turn the check off).
    Restart,
    /// Compute the right choices (the tours of the questions' lessons) and show the results.
    Score,
}

pub struct App {
    /// A, and B of an A/B comparison.
    pub(super) pair: Pair,
    /// The Lab's form channel: what the rest of the page did that the form follows.
    pub(super) lab: Option<Callback<FormCmd>>,
    /// Messages that concern no single control (URL query, starting a run).
    pub(super) notices: Vec<String>,
    /// The watched run as it stands (the one run the page shows).
    pub(super) run: Option<RunState>,
    /// The scenario the shown run is of (A, B).
    pub(super) ran: Option<(Rc<Scenario>, Option<Rc<Scenario>>)>,
    /// The commands sent to "Watch the pipeline" (its `command` prop is the last).
    pub(super) watch: Commands,
    /// The landing lesson is shown (a visit without a query string).
    pub(super) landing: bool,
    pub(super) tour: Option<TourState>,
    /// A tour's "Try it yourself" opened the Lab, far below the tour panel: a dock at the
    /// window's edge offers the way back (to the step, its Next lesson) until it is taken.
    pub(super) tried: bool,
    /// What follows the lesson (the Lab, the sweep, the gallery) is drawn. The first render
    /// draws the header and "Watch the pipeline" only, and the rest follows in a task of its
    /// own (`Msg::ShowRest`): drawn together they were one task of 90-150 ms on opening a link
    /// on a 2-core machine (the page's thread is held under 100 ms at a time).
    pub(super) rest_shown: bool,
    /// The link query of the last render and what it was made of (the pair, the tour and its
    /// step): encoding a job file of 1000 sections took 5-15 ms, and the page renders once a
    /// frame while a run plays.
    link_memo: std::cell::RefCell<Option<(LinkOf, AttrValue)>>,
    pub(super) use_url: bool,
    /// The course's check, when on (`app_check.rs`).
    #[cfg(feature = "full")]
    pub(super) check: Option<CheckOn>,
    _popstate: Option<EventListener>,
}

impl Component for App {
    type Message = Msg;
    type Properties = AppProps;

    fn create(ctx: &Context<Self>) -> Self {
        let use_url = ctx.props().use_url;
        let search = if use_url { url_search() } else { String::new() };
        let (rest, moment, view_errors) = moment::split_query(&search);
        // A link of nothing but the check (a lecturer's `?check=1`) opens as the landing does,
        // the check's questions in place of its sentences.
        let check_only = moment::Moment {
            check: false,
            ..moment.clone()
        } == moment::Moment::default();
        let check_key = search
            .trim_start_matches('?')
            .split('&')
            .any(|p| p.split('=').next() == Some("check"));
        let landing = use_url
            && (search.trim_start_matches('?').is_empty()
                || (check_key && rest.is_empty() && check_only));
        let (mut scenario, mut b, errs) = bridge::scenarios_from_query(&rest);
        if landing {
            let (a, lb) = crate::lesson::landing_pair();
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
        crate::shell::pan::install();
        let mut app = App {
            lab: None,
            pair: Pair::new(scenario, b),
            notices,
            run: None,
            ran: None,
            watch: Commands::default(),
            landing,
            tour: None,
            tried: false,
            rest_shown: false,
            link_memo: Default::default(),
            use_url,
            #[cfg(feature = "full")]
            check: None,
            _popstate: popstate,
        };
        if moment.check {
            app.check_open();
        }
        if moment.compare && app.pair.b.is_none() {
            app.pair.b = Some(B::Over(crate::watch::live::suggest_b(&app.pair.a)));
        }
        if let Some(t) = moment.tour.as_deref() {
            app.open_tour(t, moment.step);
            // The landing's try-it hands over to the whole app at the Lab, the tour open.
            app.tried = app.tour.is_some() && crate::run::url::anchor().as_deref() == Some("lab");
        }
        let play = landing || (!moment.paused && (moment.t.is_some() || moment.speed.is_some()));
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
        // A link to a tour step without a moment: the screen goes where the step's text is.
        if moment.t.is_none() {
            let effect = app.tour.as_mut().and_then(|t| t.go(t.step));
            app.tour_effect(ctx, effect);
        }
        app
    }

    fn rendered(&mut self, ctx: &Context<Self>, first: bool) {
        self.check_rendered(ctx);
        if first {
            // A timeout, not a future: a future would run in this same task.
            let link = ctx.link().clone();
            gloo::timers::callback::Timeout::new(0, move || link.send_message(Msg::ShowRest))
                .forget();
        }
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        self.handle(ctx, msg)
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let touring = self.tour.is_some();
        html! {
            <div class={classes!("page", self.landing.then_some("landing"), touring.then_some("touring"))}>
                <header class="top">
                    <h1>{ "mmcsim" }</h1>
                    <p class="tagline">{ "The Linux eMMC block I/O path, simulated event by event in your browser" }</p>
                    <nav class="top-nav">
                        <a href="#watch">{ "Lesson" }</a>
                        <a href="#lab" id="lab-link">{ "Lab: your own scenario" }</a>
                        <a class="top-link" href="#gallery">{ "Gallery" }</a>
                    </nav>
                </header>
                // Shown as the CLI prints a message: control characters escaped, cut to a line.
                { for self.notices.iter().map(|n| html! { <div class="notice" role="alert">{ bounded_message(n.clone()) }</div> }) }
                <Watch a={self.pair.a.clone()} b={self.pair.b_link()} on_b={link.callback(Msg::B)} on_board_b={link.callback(|(n, t)| Msg::BoardB(n, t))}
                       command={self.watch.last()} link_base={self.link_base()}
                       on_run={link.callback(Msg::RunState)} compact={self.landing || touring}>
                    <Lesson landing={self.landing} tour={self.tour.clone()}
                            view={self.run.as_ref().map(|r| crate::lesson::state::ViewAt {
                                now_ns: r.now_ns,
                                playing: r.playing,
                                finished: r.finished,
                                progress: r.progress,
                            })}
                            on_tour={link.callback(Msg::Tour)} on_step={link.callback(Msg::TourStep)}
                            on_act={link.callback(|()| Msg::TourAct)} on_predict={link.callback(Msg::Predict)}
                            check={self.check_html(ctx)} on_check={link.callback(|()| Msg::Check(CheckMsg::On))} />
                </Watch>
                if self.rest_shown { { self.rest(ctx) } }
                if let (true, Some(t)) = (self.tried, &self.tour) {
                    <nav id="tour-dock" class="tour-dock" aria-label="The open tour">
                        <span class="muted">{ format!("Tour: {}", t.tour.title) }</span>
                        <button id="tour-dock-back" type="button" class="button primary"
                                onclick={link.callback(|_| Msg::BackToTour)}>{ "↑ Back to the tour" }</button>
                    </nav>
                }
                <footer class="foot">
                    { "Deterministic: the same scenario and randseed give the same numbers in the browser, the CLI and the tests." }
                </footer>
            </div>
        }
    }
}

impl App {
    /// What follows the lesson: the Lab, its sensitivity check, the sweep and the gallery.
    #[cfg(feature = "full")]
    fn rest(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        html! {
            <>
                { self.lab(ctx) }
                <SensitivityView a={Rc::new(self.pair.a.clone())} b={self.pair.b_scenario().map(Rc::new)} />
                <SweepView scenario={Rc::new(self.pair.a.clone())} />
                <GalleryPanel on_open={link.callback(|(a, b)| Msg::Open(a, b))} on_action={link.callback(Msg::Walk)}
                              on_watch={link.callback(Msg::Watch)} on_tour={link.callback(|p| Msg::Tour(Some(p)))} />
            </>
        }
    }

    /// The landing's build: the Lab, the sweep and the gallery are buttons that fetch the whole
    /// app (`shell::handover`), which then takes over the page.
    #[cfg(not(feature = "full"))]
    fn rest(&self, _ctx: &Context<Self>) -> Html {
        use crate::shell::handover::to_full;
        let open = |id: &'static str| Callback::from(move |_: MouseEvent| to_full(id));
        html! {
            <section class="panel later" aria-label="More">
                <p class="muted">{ "The Lab (your own scenario, its results and tools), the sweep and the gallery load when you open them." }</p>
                <div class="actions">
                    <button id="lab" type="button" class="button secondary" onclick={open("lab")}>{ "Open the Lab" }</button>
                    <button id="sweep" type="button" class="button secondary" onclick={open("sweep")}>{ "Sweep" }</button>
                    <button id="gallery" type="button" class="button secondary" onclick={open("gallery")}>{ "Gallery" }</button>
                </div>
            </section>
        }
    }

    /// Brings the panel of id `id` (the Lab, the sweep, the gallery) into view; on the landing's
    /// build, the whole app takes over at it.
    pub(super) fn open_panel(id: &'static str) {
        #[cfg(feature = "full")]
        scroll_to(id);
        #[cfg(not(feature = "full"))]
        crate::shell::handover::to_full(id);
    }

    /// The Lab, with what it edits.
    #[cfg(feature = "full")]
    fn lab(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let a = Rc::new(self.pair.a.clone());
        let ran = self.ran.clone().unwrap_or_else(|| (a.clone(), None));
        html! {
            <Lab scenario={a} b={self.pair.b_link().map(Rc::new)} b_view={self.pair.b_scenario().map(Rc::new)}
                 run={self.run.clone()} {ran} on_ready={link.callback(Msg::LabReady)}
                 on_control={link.callback(|(n, t, j)| Msg::Control(n, t, j))}
                 on_board_b={link.callback(|(n, t)| Msg::BoardB(n, t))} on_board_b_file={link.callback(Msg::BoardBFile)}
                 on_board_side={link.callback(Msg::BoardSide)}
                 on_run={link.callback(|()| Msg::Run)} on_stop={link.callback(|()| Msg::Stop)}
                 on_load={link.callback(|(a, b)| Msg::Load(a, b))} on_pull={link.callback(|()| Msg::PullPlug)} />
        }
    }

    /// Tells the Lab's form what the page did (before the Lab exists there is no form to tell:
    /// it starts from the scenario it is created with).
    pub(super) fn form(&self, cmd: FormCmd) {
        if let Some(lab) = &self.lab {
            lab.emit(cmd);
        }
    }

    /// The link query of the page: the scenario (and B), the tour and its step.
    pub(super) fn link_query(&self) -> String {
        let scn = bridge::url_query_ab(&self.pair.a, self.pair.b_link().as_ref());
        let m = moment::Moment {
            tour: self.tour.as_ref().map(|t| t.tour.id.to_string()),
            step: self.tour.as_ref().map_or(0, |t| t.step),
            check: self.check_on(),
            ..Default::default()
        };
        moment::join(&scn, &m)
    }

    /// [`App::link_query`], made again only when what it is made of changed (compared in
    /// place: a render while a run plays neither encodes nor copies the scenario).
    fn link_base(&self) -> AttrValue {
        let tour = self.tour.as_ref().map(|t| (t.tour.id, t.step));
        let mut memo = self.link_memo.borrow_mut();
        if let Some((of, link)) = memo.as_ref() {
            if of.pair == self.pair && of.tour == tour {
                return link.clone();
            }
        }
        let link = AttrValue::from(self.link_query());
        let of = LinkOf {
            pair: self.pair.clone(),
            tour,
        };
        *memo = Some((of, link.clone()));
        link
    }

    /// Keeps the URL in step with the page (a tour step makes a history entry).
    pub(super) fn sync_url(&self, push: bool) {
        if self.use_url {
            write_url(&self.link_query(), push);
        }
    }

    /// Opens the tour of series `id` at `step`: its pair is loaded and stays on screen. On the
    /// landing's build a tour that runs a scheduler the build lacks (bfq) is the whole app's:
    /// the link names the tour and its step, and the whole app takes over there; false then.
    pub(super) fn open_tour(&mut self, id: &str, step: usize) -> bool {
        #[cfg(not(feature = "full"))]
        if crate::series::needs_full(id) {
            if let Some(s) = crate::series::resolve(id) {
                let (a, b) = s.tour_pair();
                let m = moment::Moment {
                    tour: Some(s.series.id.to_string()),
                    step,
                    ..Default::default()
                };
                write_url(&moment::join(&bridge::url_query_ab(&a, Some(&b)), &m), true);
            }
            crate::shell::handover::to_full("watch");
            return false;
        }
        match TourState::open(id, step) {
            Ok(t) => {
                self.notices.extend(t.past_last(step));
                self.pair = Pair::of_tour(&t.tour.a, &t.tour.b);
                self.form(FormCmd::SetTexts(Rc::new(self.pair.a.clone())));
                self.run = None;
                self.tour = Some(t);
            }
            Err(e) => self.notices.push(format!("Tour: {e}")),
        }
        true
    }
}
