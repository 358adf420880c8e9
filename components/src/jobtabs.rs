//! The job sections of a multi-job scenario (a fio job file with two or more `[job]`
//! sections, or a link with `jobN.` keys) as tabs above the form: the form shows and edits the
//! selected job's options; platform and host switches stay the whole run's.

use std::rc::Rc;

use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct JobTabsProps {
    /// One label per job section ("reader: randread 4k ×2").
    pub labels: Rc<Vec<String>>,
    /// The selected job section.
    pub selected: usize,
    pub on_select: Callback<usize>,
}

/// Most job sections shown as tabs; past it, a number field picks the section (a job file of
/// 1000 sections drew 1000 tabs: 120 ms of the page's thread on each load).
pub const MAX_TABS: usize = 12;

/// Nothing for a single job; for several, one tab per job section (a number field for many).
#[function_component(JobTabs)]
pub fn job_tabs(props: &JobTabsProps) -> Html {
    if props.labels.len() < 2 {
        return html! {};
    }
    if props.labels.len() > MAX_TABS {
        return job_picker(props);
    }
    html! {
        <div class="job-tabs" id="job-tabs">
            <div role="tablist" aria-label="Job sections">
                { for props.labels.iter().enumerate().map(|(i, l)| {
                    let on = i == props.selected;
                    let cb = props.on_select.clone();
                    html! {
                        <button type="button" role="tab" id={format!("job-tab-{}", i + 1)} class={classes!("job-tab", on.then_some("on"))}
                                aria-selected={on.to_string()} onclick={Callback::from(move |_: MouseEvent| cb.emit(i))}>
                            <b>{ format!("Job {}", i + 1) }</b>{ " " }{ l.clone() }
                        </button>
                    }
                }) }
            </div>
            <p class="help" id="job-tabs-help">{ format!(
                "{} job sections run side by side. The workload fields below are job {}'s; platform and host switches apply to the whole run.",
                props.labels.len(), props.selected + 1) }</p>
        </div>
    }
}

/// Many job sections: "Job [N] of M" and the selected section's label.
fn job_picker(props: &JobTabsProps) -> Html {
    let n = props.labels.len();
    let cb = props.on_select.clone();
    let pick = Callback::from(move |e: Event| {
        if let Some(i) = e.target_dyn_into::<web_sys::HtmlInputElement>() {
            match i.value().trim().parse::<usize>() {
                Ok(k) if (1..=n).contains(&k) => cb.emit(k - 1),
                _ => {}
            }
        }
    });
    let label = props
        .labels
        .get(props.selected)
        .cloned()
        .unwrap_or_default();
    html! {
        <div class="job-tabs" id="job-tabs">
            <label class="job-pick">{ "Job " }
                <input id="job-pick" type="number" min="1" max={n.to_string()} value={(props.selected + 1).to_string()}
                       aria-label={format!("Job section, 1 to {n}")} onchange={pick} />
                { format!(" of {n}: ") }<b id="job-pick-label">{ label }</b>
            </label>
            <p class="help" id="job-tabs-help">{ format!(
                "{n} job sections run side by side (too many for tabs: pick one by its number). The workload fields below are job {}'s; platform and host switches apply to the whole run.",
                props.selected + 1) }</p>
        </div>
    }
}
