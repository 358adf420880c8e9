//! The Lab: the scenario form (job tabs, controls, the Board panel), Run/Stop, the command
//! line, the scenario's tools, "Replay a trace", and the results of the one watched run
//! ([`results`]).
//!
//! The Lab owns the form's state ([`form::Form`]: the control texts, the job section shown,
//! the errors, which board the Board panel edits). The page owns the scenario: it applies
//! each edit the form sends (`on_control`, `on_board_b`) to the scenario as it stands, and
//! tells the form what came of it, and what the rest of the page did, through the channel the
//! Lab hands it at creation (`on_ready`: a [`FormCmd`] callback; messages to a component are
//! handled in order, never lost or merged).

use std::rc::Rc;

use mmcsim_components::{ControlsForm, JobTabs};
use mmcsim_engine::Scenario;
use yew::prelude::*;

use crate::run::engine_bridge as bridge;
use crate::tools::board::BoardView;
use crate::tools::trace::TraceReplay;
use crate::tools::ScenarioTools;
use crate::watch::RunState;

pub mod detail;
pub mod form;
pub mod results;

use form::Form;
use results::Results;

/// What the rest of the page did that the form follows.
pub enum FormCmd {
    /// Control `name`'s text was accepted: the new A.
    Accepted(String, Rc<Scenario>),
    /// Control `name`'s text was refused: `(name, the text, the parser's message)`.
    Rejected(String, String, String),
    /// B's board parameter `name` was accepted (None) or refused (the message).
    BoardB(String, Option<String>),
    /// A whole scenario was loaded: its first job, no errors; `board_b`: B is still compared
    /// (else the Board panel edits A again).
    Load { a: Rc<Scenario>, board_b: bool },
    /// A tour opened its pair: the texts of this scenario (the job section kept).
    SetTexts(Rc<Scenario>),
    /// The engine refused a combination at this control: `(option, message)`.
    Refuse(String, String),
    /// The comparison is off: the Board panel edits A, B's errors are gone.
    CompareOff,
    /// B's board was replaced (a platform file): B's errors are gone.
    BBoardLoaded,
}

#[derive(Properties, PartialEq)]
pub struct LabProps {
    /// A, and B as the link carries it.
    pub scenario: Rc<Scenario>,
    pub b: Option<Rc<Scenario>>,
    /// B of the A/B view (None: no comparison): what the Board panel edits on B's side.
    pub b_view: Option<Rc<Scenario>>,
    /// The watched run as it stands, and the scenarios it is of.
    pub run: Option<RunState>,
    pub ran: (Rc<Scenario>, Option<Rc<Scenario>>),
    /// The form's channel, handed to the page once, at creation.
    pub on_ready: Callback<Callback<FormCmd>>,
    /// A control's text as entered: `(option name, text, job section shown)`.
    pub on_control: Callback<(String, String, usize)>,
    /// A board parameter's text for B: `(parameter name, text)`.
    pub on_board_b: Callback<(String, String)>,
    /// A platform file read onto B's board.
    pub on_board_b_file: Callback<Scenario>,
    /// The Board panel edits B (true) or A.
    pub on_board_side: Callback<bool>,
    pub on_run: Callback<()>,
    pub on_stop: Callback<()>,
    /// A whole scenario: A, and B of an A/B pair.
    pub on_load: Callback<(Scenario, Option<Scenario>)>,
    pub on_pull: Callback<()>,
}

pub enum Msg {
    /// A control's text as entered: `(option name, text)`.
    Control(String, String),
    /// The form shows and edits this job section.
    Job(usize),
    /// The Board panel edits B (true) or A.
    BoardSide(bool),
    /// A board parameter's text for B: `(parameter name, text)`.
    BoardB(String, String),
    /// What the rest of the page did.
    Cmd(FormCmd),
}

/// The Lab section: the form on the left, the results on the right.
pub struct Lab {
    form: Form,
}

impl Component for Lab {
    type Message = Msg;
    type Properties = LabProps;

    fn create(ctx: &Context<Self>) -> Self {
        ctx.props().on_ready.emit(ctx.link().callback(Msg::Cmd));
        Lab {
            form: Form::new(&ctx.props().scenario),
        }
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        let p = ctx.props();
        let form = &mut self.form;
        match msg {
            Msg::Control(name, text) => {
                p.on_control.emit((name, text, form.job));
                return false;
            }
            Msg::Job(i) => form.select_job(i, &p.scenario),
            Msg::BoardSide(b) => {
                // Comparing starts with B = A (the page makes B), so B exists from here on.
                form.board_b = b;
                p.on_board_side.emit(b);
            }
            Msg::BoardB(name, text) => {
                p.on_board_b.emit((name, text));
                return false;
            }
            Msg::Cmd(FormCmd::Accepted(name, a)) => form.accepted(&name, &a),
            Msg::Cmd(FormCmd::Rejected(name, text, message)) => form.rejected(name, text, &message),
            Msg::Cmd(FormCmd::BoardB(name, message)) => form.board_b(name, message.as_deref()),
            Msg::Cmd(FormCmd::Load { a, board_b }) => {
                form.board_b &= board_b;
                form.load(&a);
            }
            Msg::Cmd(FormCmd::SetTexts(a)) => form.set_texts(&a),
            Msg::Cmd(FormCmd::Refuse(option, message)) => form.refuse(option, message),
            Msg::Cmd(FormCmd::CompareOff) => {
                form.board_b = false;
                form.b_errors = Rc::default();
            }
            Msg::Cmd(FormCmd::BBoardLoaded) => form.b_errors = Rc::default(),
        }
        true
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let p = ctx.props();
        let link = ctx.link();
        let form = &self.form;
        let running = p.run.as_ref().is_some_and(|r| r.playing);
        // A scenario from a job file, a scheduled power cut or a board file for A: B, when
        // compared, stays: A's new workload with B's host switches and board.
        let on_load = p.on_load.clone();
        let (old_a, b) = (p.scenario.clone(), p.b.clone());
        let load_one = Callback::from(move |s: Scenario| {
            let b = b.as_deref().map(|b| {
                if crate::run::pair::host_only(&old_a, b) {
                    Scenario {
                        overrides: b.overrides.clone(),
                        ..s.clone()
                    }
                } else {
                    b.clone()
                }
            });
            on_load.emit((s, b))
        });
        let board_b = p.b_view.clone().filter(|_| form.board_b);
        let (board_scn, board_errors, board_refused, board_change, board_file) = match &board_b {
            Some(b) => (
                b.clone(),
                form.b_errors.clone(),
                Rc::default(),
                link.callback(|(n, t)| Msg::BoardB(n, t)),
                p.on_board_b_file.clone(),
            ),
            None => (
                p.scenario.clone(),
                form.errors.clone(),
                form.refused.clone(),
                link.callback(|(n, t)| Msg::Control(n, t)),
                load_one.clone(),
            ),
        };
        let platform: AttrValue = p.scenario.platform.clone().into();
        html! {
            <main class="layout" id="lab">
                <section class="panel scenario" aria-label="Scenario">
                    <h2 class="lab-title">{ "Lab: your own scenario" }</h2>
                    // Editing while the view plays is fine: a new scenario starts the one run again.
                    <JobTabs labels={form.job_labels.clone()} selected={form.job} on_select={link.callback(Msg::Job)} />
                    <ControlsForm {platform} values={form.texts.clone()} errors={form.errors.clone()}
                                  disabled={false} on_change={link.callback(|(n, t)| Msg::Control(n, t))} />
                    <BoardView scenario={board_scn} errors={board_errors} refused={board_refused}
                               disabled={false} on_change={board_change} on_scenario={board_file}
                               side_b={board_b.is_some()} on_side={link.callback(Msg::BoardSide)} />
                    <div class="actions">
                        <button id="run" class="button primary" onclick={p.on_run.reform(|_| ())}
                                title="Plays the simulation in the pipeline view to its end at full speed">{ "Run" }</button>
                        if running {
                            <button id="stop" class="button secondary" onclick={p.on_stop.reform(|_| ())}>{ "Stop" }</button>
                        }
                    </div>
                    { command_lines(&p.scenario, p.b.as_deref()) }
                    { what_ifs(&p.scenario, p.b.as_deref()) }
                    { warnings(&p.scenario) }
                    <ScenarioTools scenario={p.scenario.clone()} b={p.b.clone()}
                                   show_b_link={false} {running}
                                   on_scenario={load_one} on_pull={p.on_pull.clone()} />
                    <TraceReplay scenario={p.scenario.clone()} {running} on_load={p.on_load.clone()} />
                </section>
                <section class="panel output" aria-label="Results">
                    <Results run={p.run.clone()} ran={p.ran.clone()} />
                </section>
            </main>
        }
    }
}

/// The same run from the command line (A, and B).
fn command_lines(a: &Scenario, b: Option<&Scenario>) -> Html {
    html! {
        <div class="cmdline">
            <span>{ "Same run from the command line" }</span>
            <code id="command-line">{ bridge::command_line(a) }</code>
            if let Some(b) = b {
                <span>{ "B" }</span>
                <code id="command-line-b">{ bridge::command_line(b) }</code>
            }
        </div>
    }
}

/// What A (and B) run that no kernel runs, each with what mainline does instead (the engine's
/// `what_ifs`: the CLI's `what-if:` lines).
fn what_ifs(a: &Scenario, b: Option<&Scenario>) -> Html {
    let side = |s: &Scenario, name: &'static str| {
        mmcsim_engine::scenario::what_ifs(s)
            .into_iter()
            .map(move |w| format!("{name}what-if: {}", w.line()))
    };
    let lines: Vec<String> = side(a, if b.is_some() { "A: " } else { "" })
        .chain(b.into_iter().flat_map(|b| side(b, "B: ")))
        .collect();
    if lines.is_empty() {
        return html! {};
    }
    html! {
        <ul id="scenario-what-ifs" class="warnings what-ifs" aria-label="What-ifs no kernel runs">
            { for lines.into_iter().map(|l| html! { <li>{ l }</li> }) }
        </ul>
    }
}

/// The options that have no effect in this scenario.
fn warnings(a: &Scenario) -> Html {
    let warnings = bridge::warnings(a);
    if warnings.is_empty() {
        return html! {};
    }
    html! {
        <ul id="scenario-warnings" class="warnings" aria-label="Options without effect">
            { for warnings.iter().map(|w| html! { <li>{ w.clone() }</li> }) }
        </ul>
    }
}
