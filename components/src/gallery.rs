//! The gallery of the seed experiments: one card per measured patch series, the authors' table
//! with the simulated figures beside the measured ones, and a step-by-step walk-through.
//!
//! Pure views: the app computes the rows (a slice of engine events per frame) and does what a
//! walk-through step asks; these components draw what they get and report clicks.

use std::rc::Rc;

use yew::prelude::*;

/// One card: a patch series.
#[derive(Clone, Debug, PartialEq)]
pub struct GalleryCard {
    /// The platform preset (the series' key).
    pub id: String,
    /// The host change in a few words (`Series::change`).
    pub change: String,
    /// What the series changed in the kernel, naming the functions.
    pub kernel: String,
    /// Where it was published.
    pub source: String,
    pub hardware: String,
}

#[derive(Properties, PartialEq)]
pub struct GalleryCardsProps {
    pub cards: Rc<Vec<GalleryCard>>,
    /// The open entry's id.
    #[prop_or_default]
    pub selected: Option<AttrValue>,
    /// The id of the card clicked.
    pub on_select: Callback<String>,
}

/// The cards, one button each.
#[function_component(GalleryCards)]
pub fn gallery_cards(props: &GalleryCardsProps) -> Html {
    html! {
        <div class="gallery-cards">
            { for props.cards.iter().map(|c| {
                let selected = props.selected.as_deref() == Some(c.id.as_str());
                let id = c.id.clone();
                let cb = props.on_select.clone();
                html! {
                    <button type="button" class={classes!("gallery-card", selected.then_some("selected"))}
                            data-series={c.id.clone()} aria-pressed={selected.to_string()}
                            onclick={Callback::from(move |_| cb.emit(id.clone()))}>
                        <span class="gallery-platform">{ &c.id }</span>
                        <span class="gallery-change">{ &c.change }</span>
                        <span class="gallery-kernel">{ &c.kernel }</span>
                        <cite class="gallery-source">{ &c.source }</cite>
                    </button>
                }
            }) }
        </div>
    }
}

/// One case of the authors' table.
#[derive(Clone, Debug, PartialEq)]
pub struct GalleryRow {
    /// Index of the case (reported when its workload is clicked).
    pub case: usize,
    /// "randread 4KiB".
    pub workload: String,
    /// Measured (A, B).
    pub measured: (f64, f64),
    /// Simulated (A, B), once run.
    pub simulated: (Option<f64>, Option<f64>),
    /// Why the model is not expected to match, for the flagged case.
    pub outlier: Option<String>,
}

#[derive(Properties, PartialEq)]
pub struct GalleryTableProps {
    pub rows: Rc<Vec<GalleryRow>>,
    /// "MiB/s" or "KiB/s".
    pub unit: AttrValue,
    /// The authors' column names (A, B): "non_packed", "packed".
    pub columns: (AttrValue, AttrValue),
    /// Relative error (percent) within which a simulated figure counts as reproduced.
    #[prop_or(15.0)]
    pub tolerance_pct: f64,
    /// Index of a case whose link to open (its workload is a button).
    pub on_open_case: Callback<usize>,
}

fn fig(x: f64, unit: &str) -> String {
    if unit == "KiB/s" {
        format!("{x:.0}")
    } else {
        format!("{x:.2}")
    }
}

/// The authors' table: per workload, measured and simulated A with the error, the same for B,
/// and the ratio B/A measured and simulated.
#[function_component(GalleryTable)]
pub fn gallery_table(props: &GalleryTableProps) -> Html {
    let unit = props.unit.as_str();
    let (ca, cb) = (&props.columns.0, &props.columns.1);
    let err_cell = |sim: Option<f64>, measured: f64, col: &'static str, outlier: bool| match sim {
        Some(s) => {
            let e = (s - measured) / measured * 100.0;
            let class = if e.abs() <= props.tolerance_pct {
                "ok"
            } else if outlier {
                "flagged"
            } else {
                "off"
            };
            html! { <td class={classes!("err", class)} data-col={col}>{ format!("{e:+.1} %") }</td> }
        }
        None => html! { <td class="err pending" data-col={col}>{ "…" }</td> },
    };
    let sim_cell = |sim: Option<f64>, col: &'static str| match sim {
        Some(s) => html! { <td data-col={col}>{ fig(s, unit) }</td> },
        None => html! { <td class="pending" data-col={col}>{ "…" }</td> },
    };
    html! {
        <table class="metrics gallery-table">
            <caption>{ format!("Figures in {unit}; error = simulated against measured (within {:.0} % counts as reproduced).", props.tolerance_pct) }</caption>
            <thead>
                <tr>
                    <th rowspan="2" scope="col" class="left">{ "workload" }</th>
                    <th colspan="3" scope="colgroup">{ format!("A: {ca}") }</th>
                    <th colspan="3" scope="colgroup">{ format!("B: {cb}") }</th>
                    <th colspan="2" scope="colgroup">{ "B / A" }</th>
                </tr>
                <tr>
                    <th scope="col">{ "measured" }</th><th scope="col">{ "simulated" }</th><th scope="col">{ "error" }</th>
                    <th scope="col">{ "measured" }</th><th scope="col">{ "simulated" }</th><th scope="col">{ "error" }</th>
                    <th scope="col">{ "measured" }</th><th scope="col">{ "simulated" }</th>
                </tr>
            </thead>
            <tbody>
                { for props.rows.iter().map(|r| {
                    let outlier = r.outlier.is_some();
                    let (ma, mb) = r.measured;
                    let sim_ratio = match r.simulated {
                        (Some(a), Some(b)) if a > 0.0 => Some(b / a),
                        _ => None,
                    };
                    let case = r.case;
                    let open = props.on_open_case.clone();
                    html! {
                        <>
                        <tr data-case={case.to_string()} data-workload={r.workload.clone()} class={classes!(outlier.then_some("outlier"))}>
                            <th scope="row" class="left">
                                <button type="button" class="link" title="Open this case as an A/B pair"
                                        onclick={Callback::from(move |_| open.emit(case))}>{ &r.workload }</button>
                                if outlier { <span class="flag" title="flagged outlier">{ " ⚑" }</span> }
                            </th>
                            <td data-col="measured-a">{ fig(ma, unit) }</td>
                            { sim_cell(r.simulated.0, "sim-a") }
                            { err_cell(r.simulated.0, ma, "err-a", outlier) }
                            <td data-col="measured-b">{ fig(mb, unit) }</td>
                            { sim_cell(r.simulated.1, "sim-b") }
                            { err_cell(r.simulated.1, mb, "err-b", outlier) }
                            <td data-col="ratio-measured">{ format!("{:.2}", mb / ma) }</td>
                            if let Some(x) = sim_ratio {
                                <td data-col="ratio-sim">{ format!("{x:.2}") }</td>
                            } else {
                                <td class="pending" data-col="ratio-sim">{ "…" }</td>
                            }
                        </tr>
                        if let Some(note) = &r.outlier {
                            <tr class="outlier-note"><td colspan="9">{ "⚑ Flagged outlier: " }{ note }</td></tr>
                        }
                        </>
                    }
                }) }
            </tbody>
        </table>
    }
}

/// One step of a walk-through.
#[derive(Clone, Debug, PartialEq)]
pub struct WalkStep {
    pub text: String,
    /// The label of the step's button; None when the page cannot do it (the step is then text
    /// to follow by hand).
    pub button: Option<String>,
}

#[derive(Properties, PartialEq)]
pub struct StepperProps {
    pub steps: Rc<Vec<WalkStep>>,
    /// The step's index when its button is pressed.
    pub on_action: Callback<usize>,
}

/// A guided walk-through: one step at a time, Back / Next, and the step's own button, which
/// does what the step says and moves on. Once a step's button was pressed the stepper floats in
/// a corner of the window, so it stays at hand while the page scrolls to what the step shows.
#[function_component(Stepper)]
pub fn stepper(props: &StepperProps) -> Html {
    let at = use_state(|| 0usize);
    let floating = use_state(|| false);
    let n = props.steps.len();
    if n == 0 {
        return html! {};
    }
    let i = (*at).min(n - 1);
    let step = &props.steps[i];
    let go = |to: usize| {
        let at = at.clone();
        Callback::from(move |_| at.set(to))
    };
    let act = {
        let at = at.clone();
        let floating = floating.clone();
        let cb = props.on_action.clone();
        Callback::from(move |_| {
            cb.emit(i);
            floating.set(i + 1 < n);
            if i + 1 < n {
                at.set(i + 1);
            }
        })
    };
    let dock = {
        let floating = floating.clone();
        Callback::from(move |_| floating.set(false))
    };
    html! {
        <div class={classes!("stepper", floating.then_some("floating"))} data-step={i.to_string()} role="group" aria-label="Walk-through">
            if *floating {
                <div class="stepper-head">
                    <span>{ "Walk-through" }</span>
                    <button type="button" class="link" onclick={dock} title="Put the walk-through back in the gallery">{ "dock" }</button>
                </div>
            }
            <ol class="stepper-dots" aria-hidden="true">
                { for (0..n).map(|k| html! { <li class={classes!((k == i).then_some("current"), (k < i).then_some("done"))}></li> }) }
            </ol>
            <p class="stepper-text"><span class="stepper-count">{ format!("Step {} of {n}. ", i + 1) }</span>{ &step.text }</p>
            <div class="stepper-buttons">
                <button type="button" class="button secondary small" disabled={i == 0} onclick={go(i.saturating_sub(1))}>{ "Back" }</button>
                if let Some(label) = &step.button {
                    <button type="button" class="button primary small stepper-do" onclick={act}>{ label }</button>
                }
                <button type="button" class="button secondary small" disabled={i + 1 >= n} onclick={go(i + 1)}>{ "Next" }</button>
            </div>
        </div>
    }
}
