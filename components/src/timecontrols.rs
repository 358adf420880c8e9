//! Play, pause, single step, restart and the speed of simulated time against real time.
//! Keyboard: space plays or pauses, the right arrow steps (handled by the page, which owns
//! the clock).

use std::rc::Rc;

use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::format;

#[derive(Properties, PartialEq)]
pub struct TimeControlsProps {
    pub playing: bool,
    /// Every side finished: Play restarts.
    pub finished: bool,
    /// Index into `speeds`.
    pub speed: usize,
    pub speeds: Rc<Vec<AttrValue>>,
    /// Simulated time now, ns.
    pub now_ns: u64,
    /// 0..=1 of side A.
    pub progress: f64,
    pub on_play: Callback<()>,
    /// Presentation mode turned on (true) or off: the page draws its pipelines compact (fewer,
    /// larger labels) while it is on.
    #[prop_or_default]
    pub on_present: Callback<bool>,
    pub on_step: Callback<()>,
    pub on_restart: Callback<()>,
    pub on_speed: Callback<usize>,
}

/// Presentation mode for projectors: `present` on `<body>` shows the watch view alone in
/// large type (static/watch.css, static/lesson.css), full screen when the browser allows it.
/// Returns whether it is now on.
pub fn toggle_present() -> bool {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return false;
    };
    let Some(body) = doc.body() else {
        return false;
    };
    let on = !body.class_list().contains("present");
    let _ = body.class_list().toggle_with_force("present", on);
    let Some(root) = doc.document_element() else {
        return on;
    };
    if on {
        let _ = root.request_fullscreen();
        root.set_scroll_top(0);
        if let Some(w) = doc.get_element_by_id("watch") {
            w.scroll_into_view();
        }
    } else if doc.fullscreen_element().is_some() {
        doc.exit_fullscreen();
    }
    on
}

#[function_component(TimeControls)]
pub fn time_controls(p: &TimeControlsProps) -> Html {
    let play = p.on_play.reform(|_: MouseEvent| ());
    let step = p.on_step.reform(|_: MouseEvent| ());
    let restart = p.on_restart.reform(|_: MouseEvent| ());
    let on_speed = p.on_speed.clone();
    let speed = Callback::from(move |e: Event| {
        if let Some(s) = e.target_dyn_into::<HtmlSelectElement>() {
            if let Ok(i) = s.value().parse() {
                on_speed.emit(i);
            }
        }
    });
    let label = if p.playing {
        "❚❚ Pause"
    } else if p.finished {
        "↺ Replay"
    } else {
        "▶ Play"
    };
    html! {
        <div class="time-controls" role="toolbar" aria-label="Time controls">
            <button id="play" class="button primary" onclick={play} aria-pressed={p.playing.to_string()}
                    title="Play / pause (space)">{ label }</button>
            <button id="step" class="button secondary" onclick={step} disabled={p.playing || p.finished}
                    title="Run the next event (right arrow)">{ "Step ▸|" }</button>
            <button id="restart" class="button secondary" onclick={restart} title="Back to time zero">{ "Restart" }</button>
            <label class="speed">{ "Speed " }
                <select id="speed" onchange={speed} title="Simulated time per second of real time">
                    { for p.speeds.iter().enumerate().map(|(i, s)| html! {
                        <option value={i.to_string()} selected={i == p.speed}>{ s.clone() }</option>
                    }) }
                </select>
            </label>
            <span class="clock" id="sim-clock" data-ns={p.now_ns.to_string()}><span data-readout="clock">{ format::clock_time(p.now_ns) }</span>{ format!(" · {:.0} %", p.progress.clamp(0.0, 1.0) * 100.0) }</span>
            <button id="present" class="button secondary present-toggle" onclick={p.on_present.reform(|_: MouseEvent| toggle_present())}
                    title="Presentation mode: the pipelines full screen, large type (Esc leaves)">{ "Present" }</button>
            <span class="keys muted">{ "space: play/pause · →: step" }</span>
        </div>
    }
}
