//! A progress bar for the running simulation.

use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ProgressBarProps {
    /// 0.0 ..= 1.0; values outside are clamped.
    pub fraction: f64,
    /// Text beside the bar ("12.3 ms simulated").
    #[prop_or_default]
    pub label: AttrValue,
}

#[function_component(ProgressBar)]
pub fn progress_bar(props: &ProgressBarProps) -> Html {
    let f = if props.fraction.is_finite() {
        props.fraction.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let pct = f * 100.0;
    html! {
        <div class="progress">
            <div class="progress-track" role="progressbar" aria-valuemin="0" aria-valuemax="100"
                 aria-valuenow={format!("{pct:.0}")}>
                <div class="progress-fill" style={format!("width: {pct:.1}%")}></div>
            </div>
            <span class="progress-label">{ format!("{pct:.0} %") }if !props.label.is_empty() { { " · " }{ props.label.clone() } }</span>
        </div>
    }
}
