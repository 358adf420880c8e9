//! "Replay a trace": drop or open an I/O trace (fio iolog v2/v3, blkparse text, binary
//! blktrace, ftrace text, a Perfetto trace: [`replay::FORMATS`]) to make it the scenario, on the
//! page's platform and host switches, and compare it A/B with ADMA3 packing off and on. The parsing and the scenarios are [`crate::tools::replay`]'s; this is only the panel.

use std::rc::Rc;

use mmcsim_engine::Scenario;
use web_sys::{DragEvent, HtmlInputElement};
use yew::prelude::*;

use crate::tools::download;
use crate::tools::input_limit::PageInput;
use crate::tools::replay;

#[derive(Properties, PartialEq)]
pub struct TraceReplayProps {
    /// The page's scenario: its platform and host switches carry over to the replay.
    pub scenario: Rc<Scenario>,
    pub running: bool,
    /// The replay (and, for the A/B, its B side).
    pub on_load: Callback<(Scenario, Option<Scenario>)>,
}

#[function_component(TraceReplay)]
pub fn trace_replay(props: &TraceReplayProps) -> Html {
    let status = use_state(AttrValue::default);
    let error = use_state(|| None::<AttrValue>);
    let over = use_state(|| false);
    let replaying = props
        .scenario
        .jobs
        .iter()
        .any(|j| j.read_iolog.is_some() && !props.scenario.iologs.is_empty());

    let load = loader(&props.scenario, &props.on_load, &status, &error);
    let on_pick = {
        let load = load.clone();
        Callback::from(move |e: Event| {
            if let Some(i) = e.target_dyn_into::<HtmlInputElement>() {
                if let Some(l) = i.files() {
                    load(files_of(&l));
                }
                i.set_value("");
            }
        })
    };
    let (on_drop, on_over, on_leave) = drag_and_drop(load, &over, props.running);
    let on_ab = packed_ab(&props.scenario, &props.on_load, &status, &error);

    html! {
        <div class="trace-replay">
            <h3 class="tools-title">{ "Replay a trace" }</h3>
            <div id="trace-drop" class={classes!("trace-drop", (*over).then_some("over"))}
                 ondrop={on_drop} ondragover={on_over} ondragleave={on_leave}>
                <p class="help" id="trace-formats">{ replay::formats_help() }</p>
                <label class={classes!("button", "secondary", "small", "file-button", props.running.then_some("disabled"))}>
                    { "Open trace…" }
                    <input id="trace-open" type="file" accept={replay::ACCEPT}
                           disabled={props.running} onchange={on_pick} multiple=true />
                </label>
                if replaying {
                    <button id="trace-ab" type="button" class="button secondary small" disabled={props.running}
                            onclick={on_ab}>{ "A/B: packed=0 vs 8" }</button>
                }
            </div>
            if let Some(e) = &*error {
                <p class="error" id="trace-error" role="alert">{ e }</p>
            } else if !status.is_empty() {
                <p class="help" id="trace-status" role="status">{ (*status).clone() }</p>
            }
        </div>
    }
}

type Load = Rc<dyn Fn(Vec<web_sys::File>)>;

/// The files picked or dropped.
fn files_of(l: &web_sys::FileList) -> Vec<web_sys::File> {
    (0..l.length()).filter_map(|i| l.get(i)).collect()
}

/// Reads the trace files picked or dropped together (one trace, or the per-CPU files of a
/// binary blktrace run) and makes them the scenario (or says why not).
fn loader(
    scn: &Rc<Scenario>,
    on_load: &Callback<(Scenario, Option<Scenario>)>,
    status: &UseStateHandle<AttrValue>,
    error: &UseStateHandle<Option<AttrValue>>,
) -> Load {
    let (scn, on_load, status, error) =
        (scn.clone(), on_load.clone(), status.clone(), error.clone());
    Rc::new(move |files: Vec<web_sys::File>| {
        let (scn, on_load, status, error) =
            (scn.clone(), on_load.clone(), status.clone(), error.clone());
        download::read_bytes_files(files, PageInput::Trace, move |r| {
            match r.and_then(|files| replay::replay_files(&scn, &files)) {
                Ok((next, summary)) => {
                    error.set(None);
                    status.set(format!("Loaded {summary}. Press Run to replay it.").into());
                    // The page takes the new scenario in a task of its own: the read and the
                    // parse above are one, the page's update and render another (a 2 MiB
                    // trace: about 45 ms and 50 ms), so neither holds a frame for long.
                    gloo::timers::callback::Timeout::new(0, move || on_load.emit((next, None)))
                        .forget();
                }
                Err(e) => {
                    status.set(AttrValue::default());
                    error.set(Some(format!("{e}. The scenario is unchanged.").into()));
                }
            }
        });
    })
}

/// The drop zone's drop, drag-over and drag-leave (a drop while running is ignored).
fn drag_and_drop(
    load: Load,
    over: &UseStateHandle<bool>,
    running: bool,
) -> (
    Callback<DragEvent>,
    Callback<DragEvent>,
    Callback<DragEvent>,
) {
    let on_drop = {
        let over = over.clone();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            over.set(false);
            if running {
                return;
            }
            if let Some(l) = e.data_transfer().and_then(|d| d.files()) {
                load(files_of(&l));
            }
        })
    };
    let on_over = {
        let over = over.clone();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            over.set(true);
        })
    };
    let on_leave = {
        let over = over.clone();
        Callback::from(move |_: DragEvent| over.set(false))
    };
    (on_drop, on_over, on_leave)
}

/// The A/B of the replay: packing off and on, the same trace.
fn packed_ab(
    scn: &Rc<Scenario>,
    on_load: &Callback<(Scenario, Option<Scenario>)>,
    status: &UseStateHandle<AttrValue>,
    error: &UseStateHandle<Option<AttrValue>>,
) -> Callback<MouseEvent> {
    let (scn, on_load, status, error) =
        (scn.clone(), on_load.clone(), status.clone(), error.clone());
    Callback::from(move |_: MouseEvent| match replay::packed_ab(&scn) {
        Some((a, b)) => {
            let chain = b.switch::<u32>("packed").unwrap_or(0);
            status.set(
                format!("A: packed=0, B: packed={chain}, the same trace. Watch the pipeline below compares them.")
                    .into(),
            );
            on_load.emit((a, Some(b)));
        }
        None => error.set(Some(
            "This platform has no ADMA3 controller: packing cannot be compared here.".into(),
        )),
    })
}
