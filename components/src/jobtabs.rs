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

/// Nothing for a single job; for several, one tab per job section.
#[function_component(JobTabs)]
pub fn job_tabs(props: &JobTabsProps) -> Html {
    if props.labels.len() < 2 {
        return html! {};
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
