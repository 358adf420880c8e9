//! The Lab: the scenario form (job tabs, controls, the Board panel), Run/Stop, the command
//! line, the scenario's tools, "Replay a trace", and the results of the one watched run
//! ([`results`]). The form's state is [`form::Form`]; the page owns the scenario.

use std::rc::Rc;

use mmcsim_components::{ControlsForm, JobTabs};
use mmcsim_engine::Scenario;
use yew::prelude::*;

use crate::shell::engine_bridge as bridge;
use crate::tools::board::BoardView;
use crate::tools::trace::TraceReplay;
use crate::tools::ScenarioTools;
use crate::watch::RunState;

pub mod form;
pub mod results;

use form::Form;
use results::Results;

#[derive(Properties, PartialEq)]
pub struct LabProps {
    /// A, and B as the link carries it.
    pub scenario: Rc<Scenario>,
    pub b: Option<Rc<Scenario>>,
    /// B of the A/B view, when the Board panel edits B's board.
    pub board_b: Option<Rc<Scenario>>,
    pub form: Form,
    /// The watched run as it stands, and the scenarios it is of.
    pub run: Option<RunState>,
    pub ran: (Rc<Scenario>, Option<Rc<Scenario>>),
    /// A control's text as entered: `(option name, text)`.
    pub on_control: Callback<(String, String)>,
    pub on_job: Callback<usize>,
    /// A board parameter's text for B, and a platform file read onto B's board.
    pub on_board_b: Callback<(String, String)>,
    pub on_board_b_file: Callback<Scenario>,
    /// The Board panel edits B (true) or A.
    pub on_board_side: Callback<bool>,
    pub on_run: Callback<()>,
    pub on_stop: Callback<()>,
    /// A whole scenario: A, and B of an A/B pair.
    pub on_load: Callback<(Scenario, Option<Scenario>)>,
    pub on_pull: Callback<()>,
}

/// The Lab section: the form on the left, the results on the right.
#[function_component(Lab)]
pub fn lab(p: &LabProps) -> Html {
    let running = p.run.as_ref().is_some_and(|r| r.playing);
    let on_load = p.on_load.clone();
    let load_one = Callback::from(move |s| on_load.emit((s, None)));
    let (board_scn, board_errors, board_change, board_file) = match &p.board_b {
        Some(b) => (
            b.clone(),
            p.form.b_errors.clone(),
            p.on_board_b.clone(),
            p.on_board_b_file.clone(),
        ),
        None => (
            p.scenario.clone(),
            p.form.errors.clone(),
            p.on_control.clone(),
            load_one.clone(),
        ),
    };
    let platform: AttrValue = p.scenario.platform.clone().into();
    html! {
        <main class="layout" id="lab">
            <section class="panel scenario" aria-label="Scenario">
                <h2 class="lab-title">{ "Lab: your own scenario" }</h2>
                // Editing while the view plays is fine: a new scenario starts the one run again.
                <JobTabs labels={p.form.job_labels.clone()} selected={p.form.job} on_select={p.on_job.clone()} />
                <ControlsForm {platform} values={p.form.texts.clone()} errors={p.form.errors.clone()}
                              disabled={false} on_change={p.on_control.clone()} />
                <BoardView scenario={board_scn} errors={board_errors}
                           disabled={false} on_change={board_change} on_scenario={board_file}
                           side_b={p.board_b.is_some()} on_side={p.on_board_side.clone()} />
                <div class="actions">
                    <button id="run" class="button primary" onclick={p.on_run.reform(|_| ())}
                            title="Plays the simulation in the pipeline view to its end at full speed">{ "Run" }</button>
                    if running {
                        <button id="stop" class="button secondary" onclick={p.on_stop.reform(|_| ())}>{ "Stop" }</button>
                    }
                </div>
                { command_lines(&p.scenario, p.b.as_deref()) }
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
