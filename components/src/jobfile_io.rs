//! The "Job file" panel: paste or open a fio job file to make it the scenario, or save the
//! scenario as one.

use web_sys::{HtmlInputElement, HtmlTextAreaElement};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct JobFilePanelProps {
    /// The parser's message for the last file (names the line and the option).
    #[prop_or_default]
    pub error: Option<AttrValue>,
    /// What the last file did ("Loaded: 2 jobs").
    #[prop_or_default]
    pub status: AttrValue,
    #[prop_or_default]
    pub disabled: bool,
    /// The text pasted in the box, to load.
    pub on_load: Callback<String>,
    /// A file picked with the file input, to read and load.
    pub on_file: Callback<web_sys::File>,
    /// Save the current scenario as a job file.
    pub on_download: Callback<()>,
}

/// A text box for a pasted job file with Load, a file picker, and Save.
#[function_component(JobFilePanel)]
pub fn jobfile_panel(props: &JobFilePanelProps) -> Html {
    let area = use_node_ref();
    let load = {
        let area = area.clone();
        let cb = props.on_load.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(t) = area.cast::<HtmlTextAreaElement>() {
                cb.emit(t.value());
            }
        })
    };
    let pick = {
        let cb = props.on_file.clone();
        Callback::from(move |e: Event| {
            if let Some(i) = e.target_dyn_into::<HtmlInputElement>() {
                if let Some(f) = i.files().and_then(|l| l.get(0)) {
                    cb.emit(f);
                }
                // The same file can be picked again after an edit.
                i.set_value("");
            }
        })
    };
    html! {
        <div class="jobfile">
            <div class="jobfile-buttons">
                <label class={classes!("button", "secondary", "small", "file-button", props.disabled.then_some("disabled"))}>
                    { "Open job file…" }
                    <input id="jobfile-open" type="file" accept=".fio,.ini,.job,.txt,text/plain" disabled={props.disabled} onchange={pick} />
                </label>
                <button id="jobfile-save" type="button" class="button secondary small" onclick={props.on_download.reform(|_: MouseEvent| ())}>{ "Save as job file" }</button>
            </div>
            <details>
                <summary>{ "Paste a job file" }</summary>
                <p class="help">{ "A fio job file becomes the scenario (the same option names as the form). Save writes the scenario as a job file that " }<code>{ "mmcsim FILE" }</code>{ " runs." }</p>
                <textarea id="jobfile-text" ref={area} rows="7" spellcheck="false" disabled={props.disabled}
                          placeholder={"[global]\nplatform=unisoc-fua-2022\n\n[test]\nrw=randwrite\nbs=4k\nsync=1\nsize=64m"} />
                <div class="jobfile-buttons">
                    <button id="jobfile-load" type="button" class="button secondary small" disabled={props.disabled} onclick={load}>{ "Load text" }</button>
                </div>
            </details>
            if let Some(e) = &props.error {
                <p class="error" id="jobfile-error" role="alert">{ e }</p>
            } else if !props.status.is_empty() {
                <p class="help" id="jobfile-status" role="status">{ props.status.clone() }</p>
            }
        </div>
    }
}
