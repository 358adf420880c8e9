//! The Watch's time row: the scrubber over what has been simulated (re-simulation from the start
//! when going back: the engine is deterministic), Step back, the plug and the moment link.

use mmcsim_components::PlugButton;
use yew::prelude::*;

use super::{Msg, Watch};
use crate::run::slicer::now_ms;

impl Watch {
    /// The time scrubber over what has been simulated, Step back, and the moment link.
    pub(super) fn scrubber(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let now = self.sides.as_ref().map_or(0, |s| s.latest_ns());
        let max = self.run.seen_ns.max(now).max(1);
        let on_scrub = link.batch_callback(|e: Event| {
            e.target_dyn_into::<web_sys::HtmlInputElement>()
                .and_then(|i| i.value().parse::<f64>().ok())
                .map(|v| Msg::Scrub(v as u64))
        });
        html! {
            <div class="scrubber" role="group" aria-label="Simulated time">
                <button id="step-back" class="button secondary" disabled={self.run.playing || now == 0}
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

impl Watch {
    /// One step forward (paused only): the side whose change comes first moves.
    pub(super) fn step_forward(&mut self, ctx: &Context<Self>) -> bool {
        if self.run.playing {
            return false;
        }
        if let Some(s) = self.sides.as_mut() {
            let from = s.a.session.now();
            let (a, b) = s.sessions();
            if self.run.clock.step(a, b) {
                self.run.history.push(from);
            }
        }
        self.refresh_views(now_ms());
        self.refresh_charts(false);
        self.report(ctx);
        true
    }

    /// Back to the previous step (paused only): re-simulated from the start.
    pub(super) fn step_back(&mut self, ctx: &Context<Self>) -> bool {
        if self.run.playing {
            return false;
        }
        let now = self.sides.as_ref().map_or(0, |s| s.latest_ns());
        let p = ctx.props();
        let back = self
            .run
            .history
            .pop()
            .or_else(|| crate::watch::clock::previous_step(&p.a, p.b.as_ref(), now))
            .unwrap_or(now.saturating_sub(1_000));
        if back < now {
            self.seek(ctx, Some(back));
        }
        true
    }

    /// Copies the link to the moment on screen.
    pub(super) fn copy_link(&self, ctx: &Context<Self>) -> bool {
        let link = self.moment_link(ctx);
        let cb = ctx.link().callback(|(l, ok)| Msg::Copied(l, ok));
        wasm_bindgen_futures::spawn_local(async move {
            let ok = crate::tools::download::copy_to_clipboard(&link)
                .await
                .is_ok();
            cb.emit((link, ok));
        });
        false
    }
}
