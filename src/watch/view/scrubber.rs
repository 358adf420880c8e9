//! The Watch's time row: the scrubber over what has been simulated (re-simulation from the start
//! when going back: the engine is deterministic), Step back, the plug and the moment link.

use mmcsim_components::PlugButton;
use yew::prelude::*;

use super::{Msg, Watch};

impl Watch {
    /// The time scrubber over what has been simulated, Step back, and the moment link.
    pub(super) fn scrubber(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let now = self.sides.as_ref().map_or(0, |s| s.a.session.now());
        let max = self.seen_ns.max(now).max(1);
        let on_scrub = link.batch_callback(|e: Event| {
            e.target_dyn_into::<web_sys::HtmlInputElement>()
                .and_then(|i| i.value().parse::<f64>().ok())
                .map(|v| Msg::Scrub(v as u64))
        });
        html! {
            <div class="scrubber" role="group" aria-label="Simulated time">
                <button id="step-back" class="button secondary" disabled={self.playing || now == 0}
                        onclick={link.callback(|_| Msg::StepBack)} title="Back one step (re-simulated from the start)">{ "|◂ Step back" }</button>
                <input id="scrub" type="range" min="0" max={max.to_string()} step="1000" value={now.to_string()}
                       onchange={on_scrub} aria-label="Simulated time: drag back and forth over what has been simulated" />
                <span class="muted" id="scrub-max">{ mmcsim_components::format::sim_time(max) }</span>
                <PlugButton enabled={self.sides.as_ref().is_some_and(|s| !s.finished() && now > 0)}
                            on_pull={link.callback(|()| Msg::PullPlug)} />
                <button id="copy-moment" class="button secondary" onclick={link.callback(|_| Msg::CopyLink)}
                        title="A link that opens this view: scenario, time, speed, paused, comparison, focus, tour step">{ "Copy link to this moment" }</button>
                if let Some((l, ok)) = &self.link {
                    <input id="moment-link" class="moment-link" readonly=true value={l.clone()} aria-label="Link to this moment" />
                    <span class="muted">{ if *ok { "copied" } else { "select and copy" } }</span>
                }
            </div>
        }
    }
}
