//! The scenario's tools beside the form: its link and Share, the plug, fio job files in and
//! out (a finished run's are in `results.rs`).
//!
//! Each part holds only its own messages; the scenario they change goes back to the page
//! through `on_scenario`, and pulling the plug of the running simulation through `on_pull`.

use std::rc::Rc;

use mmcsim_components::{JobFilePanel, PlugPanel, ShareBox};
use mmcsim_engine::Scenario;
use yew::prelude::*;

use crate::run::engine_bridge as bridge;
use crate::tools::download;
use crate::tools::exports;
use crate::tools::input_limit::PageInput;

/// The page's address without its query ("http://host/path").
fn page_base() -> String {
    web_sys::window()
        .map(|w| {
            let l = w.location();
            format!(
                "{}{}",
                l.origin().unwrap_or_default(),
                l.pathname().unwrap_or_default()
            )
        })
        .unwrap_or_default()
}

/// The full link of a scenario (and its B side).
pub fn share_url(a: &Scenario, b: Option<&Scenario>) -> String {
    format!("{}?{}", page_base(), bridge::url_query_ab(a, b))
}

#[derive(Properties, PartialEq)]
pub struct ScenarioToolsProps {
    pub scenario: Rc<Scenario>,
    /// The B side of an A/B link, when the page holds one.
    #[prop_or_default]
    pub b: Option<Rc<Scenario>>,
    /// Show a link that opens B as its own scenario (when the page has no A/B view of its own).
    #[prop_or_default]
    pub show_b_link: bool,
    pub running: bool,
    /// A scenario from a job file or a scheduled power cut.
    pub on_scenario: Callback<Scenario>,
    /// Pull the plug of the running simulation.
    pub on_pull: Callback<()>,
}

#[function_component(ScenarioTools)]
pub fn scenario_tools(props: &ScenarioToolsProps) -> Html {
    let url = share_url(&props.scenario, props.b.as_deref());
    html! {
        <div class="tools">
            <Share url={AttrValue::from(url)} />
            if let (Some(b), true) = (&props.b, props.show_b_link) {
                <p class="b-link">
                    { "This link compares two scenarios; the page runs A. " }
                    <a id="b-link" href={format!("?{}", bridge::url_query(b))}>{ "Open B as its own scenario" }</a>
                </p>
            }
            <h3 class="tools-title">{ "Power loss" }</h3>
            <Plug scenario={props.scenario.clone()} running={props.running}
                  on_scenario={props.on_scenario.clone()} on_pull={props.on_pull.clone()} />
            <h3 class="tools-title">{ "fio job file" }</h3>
            <JobFile scenario={props.scenario.clone()} b={props.b.clone()} running={props.running}
                     on_scenario={props.on_scenario.clone()} />
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct ShareProps {
    url: AttrValue,
}

/// The link and Share: copied to the clipboard, or selected for the reader to copy.
#[function_component(Share)]
fn share(props: &ShareProps) -> Html {
    let share_status = use_state(AttrValue::default);
    let select_seq = use_state(|| 0u32);
    // A new scenario: the old confirmation no longer applies.
    {
        let share_status = share_status.clone();
        use_effect_with(props.url.clone(), move |_| {
            share_status.set(AttrValue::default())
        });
    }
    let on_share = {
        let url = props.url.clone();
        let share_status = share_status.clone();
        let select_seq = select_seq.clone();
        Callback::from(move |()| {
            let url = url.clone();
            let share_status = share_status.clone();
            let select_seq = select_seq.clone();
            wasm_bindgen_futures::spawn_local(async move {
                match download::copy_to_clipboard(&url).await {
                    Ok(()) => share_status.set("Copied the link to the clipboard ✓".into()),
                    Err(()) => {
                        // No clipboard access: select the link for the user to copy.
                        select_seq.set(*select_seq + 1);
                        share_status.set(
                            "The clipboard is not available here: the link is selected, copy it with Ctrl+C (⌘C)."
                                .into(),
                        );
                    }
                }
            });
        })
    };
    html! {
        <ShareBox url={props.url.clone()} status={(*share_status).clone()} select_seq={*select_seq} {on_share} />
    }
}

#[derive(Properties, PartialEq)]
struct PlugProps {
    scenario: Rc<Scenario>,
    running: bool,
    on_scenario: Callback<Scenario>,
    on_pull: Callback<()>,
}

/// The plug: pull it now, or schedule the power cut (`power_cut=`).
#[function_component(Plug)]
fn plug(props: &PlugProps) -> Html {
    let plug_error = use_state(|| None::<AttrValue>);
    let on_schedule = {
        let scn = props.scenario.clone();
        let on_scenario = props.on_scenario.clone();
        let plug_error = plug_error.clone();
        Callback::from(
            move |text: String| match exports::with_power_cut(&scn, &text) {
                Ok(next) => {
                    plug_error.set(None);
                    if next != *scn {
                        on_scenario.emit(next);
                    }
                }
                Err(e) => {
                    let kept =
                        exports::power_cut_text(&scn).unwrap_or_else(|| "no power cut".to_string());
                    plug_error.set(Some(format!("{e} (kept {kept})").into()));
                }
            },
        )
    };
    let scheduled: AttrValue = exports::power_cut_text(&props.scenario)
        .unwrap_or_default()
        .into();
    html! {
        <PlugPanel running={props.running} {scheduled} error={(*plug_error).clone()}
                   on_pull={props.on_pull.clone()} {on_schedule} />
    }
}

#[derive(Properties, PartialEq)]
struct JobFileProps {
    scenario: Rc<Scenario>,
    b: Option<Rc<Scenario>>,
    running: bool,
    on_scenario: Callback<Scenario>,
}

/// fio job files: pasted or opened (the scenario they make), or saved (A's, and B's).
#[function_component(JobFile)]
fn job_file(props: &JobFileProps) -> Html {
    let job_error = use_state(|| None::<AttrValue>);
    let job_status = use_state(AttrValue::default);
    let load_text = load_job_text(
        &props.scenario.platform,
        &props.on_scenario,
        &job_error,
        &job_status,
    );
    let on_load = {
        let load_text = load_text.clone();
        Callback::from(move |text: String| load_text(text, "Job file".to_string()))
    };
    let on_file = {
        let job_error = job_error.clone();
        Callback::from(move |file: web_sys::File| {
            let name = file.name();
            let load_text = load_text.clone();
            let job_error = job_error.clone();
            download::read_text_file(file, PageInput::JobFile, move |r| match r {
                Ok(text) => load_text(text, name),
                Err(e) => job_error.set(Some(format!("{e}. The scenario is unchanged.").into())),
            });
        })
    };
    let on_download = save_job_files(&props.scenario, &props.b, &job_status, &job_error);
    html! {
        <JobFilePanel error={(*job_error).clone()} status={(*job_status).clone()} disabled={props.running}
                      {on_load} {on_file} {on_download} />
    }
}

type LoadText = Rc<dyn Fn(String, String)>;

/// A job file's text (and where it came from) made the scenario (on the page's `platform`
/// unless the file names one), or the error said.
fn load_job_text(
    platform: &str,
    on_scenario: &Callback<Scenario>,
    job_error: &UseStateHandle<Option<AttrValue>>,
    job_status: &UseStateHandle<AttrValue>,
) -> LoadText {
    let on_scenario = on_scenario.clone();
    let job_error = job_error.clone();
    let job_status = job_status.clone();
    let platform = platform.to_string();
    Rc::new(move |text: String, from: String| {
        // The file's name as messages echo it (cut, control characters escaped).
        let from = crate::tools::input_limit::shown_name(&from);
        // Pasted text is held to the size an opened file is.
        let read = crate::tools::input_limit::check(PageInput::JobFile, &from, text.len() as u64);
        if let Err(e) = read {
            job_status.set(AttrValue::default());
            job_error.set(Some(format!("{e}. The scenario is unchanged.").into()));
            return;
        }
        match exports::jobfile_on(&text, &platform) {
            Ok((scn, notices)) => {
                let jobs: u32 = scn.jobs.iter().map(|j| j.numjobs).sum();
                job_error.set(None);
                let mut text = format!(
                    "Loaded {from}: {} section(s), {jobs} job(s) on {}.",
                    scn.jobs.len(),
                    scn.platform
                );
                for n in notices {
                    // As the CLI prints a warning: control characters escaped, cut to a line.
                    let n = mmcsim_engine::scenario::bounded_message(n);
                    text.push_str(&format!(" Warning: {n}."));
                }
                job_status.set(text.into());
                // In a task of its own, after the read and the parse (see trace.rs).
                let on_scenario = on_scenario.clone();
                gloo::timers::callback::Timeout::new(0, move || on_scenario.emit(scn)).forget();
            }
            Err(e) => {
                job_status.set(AttrValue::default());
                job_error.set(Some(
                    format!("{from}: {e}. The scenario is unchanged.").into(),
                ));
            }
        }
    })
}

/// Saves the job files: with a comparison, two: A's, and B's named with a "-b" suffix.
fn save_job_files(
    scn: &Rc<Scenario>,
    b: &Option<Rc<Scenario>>,
    job_status: &UseStateHandle<AttrValue>,
    job_error: &UseStateHandle<Option<AttrValue>>,
) -> Callback<()> {
    let (scn, b) = (scn.clone(), b.clone());
    let (job_status, job_error) = (job_status.clone(), job_error.clone());
    Callback::from(move |()| {
        let sides = std::iter::once((scn.clone(), "")).chain(b.clone().map(|b| (b, "-b")));
        // Both files are written, or neither: a side whose file would not read back (a job
        // name or value with ';', '#' or '$') is refused as the CLI's --write_jobfile= is.
        let files: Result<Vec<(String, String)>, String> = sides
            .map(|(s, suffix)| {
                let name =
                    exports::file_name(&s, "fio").replacen(".fio", &format!("{suffix}.fio"), 1);
                exports::jobfile_text(&s).map(|text| (name, text))
            })
            .collect();
        let files = match files {
            Ok(f) => f,
            Err(e) => return job_error.set(Some(format!("Not saved: {e}").into())),
        };
        let mut saved = Vec::new();
        for (name, text) in files {
            match download::download_text(&name, "text/plain", &text) {
                Ok(()) => saved.push(name),
                Err(e) => return job_error.set(Some(e.into())),
            }
        }
        job_error.set(None);
        let runs: Vec<String> = saved.iter().map(|n| format!("mmcsim {n}")).collect();
        job_status.set(
            format!(
                "Saved {}: run with {}",
                saved.join(" and "),
                runs.join(" / ")
            )
            .into(),
        );
    })
}
