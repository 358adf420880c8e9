//! "Watch the pipeline": the scenario run at a chosen speed of simulated time, drawn as it
//! goes: the pipeline view (and B's beside it in an A/B comparison), the bus strip, the
//! explanation panel, the live charts and the A/B table.
//!
//! The sides ([`Sides`]: A's and B's [`crate::run::session::Session`]s) run on one lockstep
//! [`Clock`]; each animation frame hands the clock its timestamp, then reads what to draw. The
//! picture (snapshot, bus strip) is refreshed every frame; the charts, the summary and the
//! table about twice a second, one chart per frame ([`crate::watch::frames::Staggered`]). The page
//! (the gallery's walk-through) drives the view through its `command` prop ([`WatchCommand`]),
//! the reader through the time controls and the keyboard.

use std::rc::Rc;

use gloo::events::EventListener;
use gloo::render::{request_animation_frame, AnimationFrame};
use mmcsim_components::{
    AbEditor, DeltaTable, ExplainPanel, Focus, LifeView, LiveCharts, TimeControls,
};
use mmcsim_engine::explain::Layer;
use mmcsim_engine::metrics::SeriesPoint;
use mmcsim_engine::{MmcPath, Overrides, Report, Scenario};
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::run::engine_bridge as bridge;
use crate::run::slicer::now_ms;
use crate::run::speed;
use crate::watch::clock::strip_window_ns;
use crate::watch::command::{Target, WatchAction, WatchCommand};
use crate::watch::control::{AfterFrame, RunControl};
use crate::watch::keys;
use crate::watch::live;
use crate::watch::sides::{Figures, Pointing, Sides};

mod drive;
mod plug;
mod scrubber;

#[derive(Properties, PartialEq)]
pub struct WatchProps {
    pub a: Scenario,
    /// B of an A/B comparison (A's workload and seed, other host switches).
    #[prop_or_default]
    pub b: Option<Scenario>,
    /// B's host switches changed (None: comparison off).
    pub on_b: Callback<Option<Overrides>>,
    /// A board parameter of B's controls (the kernel): `(name, text)`, as the Board panel's B
    /// side sends it.
    pub on_board_b: Callback<(String, String)>,
    /// The page's last command: acted on once, when its `seq` is new.
    #[prop_or_default]
    pub command: Option<WatchCommand>,
    /// The link query of what the page shows (scenario, compare, tour and step); "Copy link to
    /// this moment" adds the time, the speed, paused and the focus.
    #[prop_or_default]
    pub link_base: AttrValue,
    /// The run as it stands, twice a second while playing and at every stop: the page's
    /// results, chart and progress show this one run.
    #[prop_or_default]
    pub on_run: Callback<RunState>,
    /// Shown at the head of the view (the lesson, the tour).
    #[prop_or_default]
    pub children: Html,
    /// The pipelines' compact variant: fewer, larger labels (the landing's pair).
    #[prop_or_default]
    pub compact: bool,
}

/// The watched run as the page shows it.
#[derive(Clone, PartialEq)]
pub struct RunState {
    pub a: Rc<Report>,
    pub b: Option<Rc<Report>>,
    pub series: Rc<Vec<SeriesPoint>>,
    pub now_ns: u64,
    pub progress: f64,
    pub playing: bool,
    pub finished: bool,
    /// A/B of B's figures against A's (empty without B).
    pub deltas: Rc<Vec<mmcsim_components::DeltaRow>>,
}

pub enum Msg {
    TogglePlay,
    Step,
    Restart,
    Speed(usize),
    Frame(f64),
    Hover(Option<Layer>),
    /// Presentation mode on or off (the projector: compact pipelines).
    Present(bool),
    Select(bool, Focus),
    CompareOn(bool),
    BControl(String, String),
    /// One step back: to where the last step started, or 1 µs back.
    StepBack,
    /// The scrubber moved to this simulated time, ns.
    Scrub(u64),
    CopyLink,
    Copied(String, bool),
    /// The plug in the view: cut the power at the simulated time on screen.
    PullPlug,
    /// Paused: the tokens have arrived, the counters catch up with them.
    Settle,
    /// Act on the page's command given at creation (a link's moment, the landing's play).
    Command,
}

/// How long a token glides from one stage to the next, ms (the `--glide` of `.token`'s
/// transition in static/watch.css, set from here).
pub const GLIDE_MS: f64 = 220.0;

/// Whether the reader asked for reduced motion (`prefers-reduced-motion: reduce`): tokens then
/// jump (static/watch.css), and the counters need not wait for them.
fn reduced_motion() -> bool {
    let Some(w) = web_sys::window() else {
        return false;
    };
    let f = js_sys::Reflect::get(&w, &"matchMedia".into()).ok();
    let q = f
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .and_then(|f| f.call1(&w, &"(prefers-reduced-motion: reduce)".into()).ok());
    q.and_then(|q| js_sys::Reflect::get(&q, &"matches".into()).ok())
        .and_then(|m| m.as_bool())
        .unwrap_or(false)
}

pub struct Watch {
    sides: Option<Sides>,
    error: Option<String>,
    b_error: Option<AttrValue>,
    /// Play, pause, seek, the clock, the steps, the commands: the run, apart from the view.
    run: RunControl,
    frame: Option<AnimationFrame>,
    _keys: Option<EventListener>,
    figures: Figures,
    hover: Option<Layer>,
    /// Presentation mode is on: the pipelines are drawn compact, for a projector.
    present: bool,
    /// (side B?, focus) the user clicked or a command chose.
    selected: Option<(bool, Focus)>,
    life: Option<Rc<LifeView>>,
    /// Why the selected request has no life shown, when it was never made (or has no side).
    life_absent: Option<AttrValue>,
    node: NodeRef,
    /// Kept, not made per render: the pipelines' memoised parts compare them.
    on_hover: Callback<Option<Layer>>,
    on_select: [Callback<Focus>; 2],
    /// The last moment link made, and whether it reached the clipboard.
    link: Option<(String, bool)>,
    reduced_motion: bool,
    /// Why the first play runs at the derived speed ([`crate::watch::follow`]), while it does.
    follow_note: Option<AttrValue>,
    /// Paused with counters behind the tokens: lets them catch up once the glide is over.
    settle: Option<gloo::timers::callback::Timeout>,
}

impl Component for Watch {
    type Message = Msg;
    type Properties = WatchProps;

    fn create(ctx: &Context<Self>) -> Self {
        let mut w = Watch {
            sides: None,
            error: None,
            b_error: None,
            run: RunControl::default(),
            frame: None,
            _keys: keys::time_keys(
                ctx.link().callback(|()| Msg::TogglePlay),
                ctx.link().callback(|()| Msg::Step),
            ),
            figures: Figures::default(),
            hover: None,
            present: false,
            selected: None,
            life: None,
            life_absent: None,
            node: NodeRef::default(),
            on_hover: ctx.link().callback(Msg::Hover),
            on_select: [
                ctx.link().callback(|f| Msg::Select(false, f)),
                ctx.link().callback(|f| Msg::Select(true, f)),
            ],
            link: None,
            reduced_motion: reduced_motion(),
            follow_note: None,
            settle: None,
        };
        w.build(ctx);
        // The command given at creation (a moment link, the landing's play: a look-ahead run
        // that derives the speed, then the first frames) is acted on in a task of its own, so
        // the page's first render is not one task with it (each task under 100 ms on a
        // 2-core machine, tests/e2e/responsive.test.mjs).
        if ctx.props().command.is_some() {
            let link = ctx.link().clone();
            gloo::timers::callback::Timeout::new(0, move || link.send_message(Msg::Command))
                .forget();
        }
        w
    }

    fn changed(&mut self, ctx: &Context<Self>, old: &WatchProps) -> bool {
        let p = ctx.props();
        if (p.a != old.a || p.b != old.b) && !self.cut_already_made(p, old) {
            // Another scenario: its first play derives its own speed, unless one was chosen.
            if !self.run.speed_chosen {
                self.run.clock.clear_follow();
                self.follow_note = None;
            }
            self.build(ctx);
            self.run.seen_ns = 0;
            self.report(ctx);
        }
        self.command(ctx, false);
        true
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::TogglePlay if self.run.playing => {
                self.pause();
                self.report(ctx);
            }
            Msg::TogglePlay => self.play(ctx),
            Msg::Step => return self.step_forward(ctx),
            Msg::StepBack => return self.step_back(ctx),
            Msg::Scrub(t) => {
                if self.run.playing {
                    self.pause();
                }
                self.seek(ctx, Some(t));
            }
            Msg::CopyLink => return self.copy_link(ctx),
            Msg::Copied(l, ok) => self.link = Some((l, ok)),
            Msg::PullPlug => self.pull_plug(ctx),
            Msg::Settle => {
                self.settle = None;
                if self.run.playing {
                    return false;
                }
                if let Some(s) = self.sides.as_mut() {
                    s.settle();
                }
            }
            Msg::Restart => {
                let playing = self.run.playing;
                self.build(ctx);
                if playing {
                    self.play(ctx);
                }
            }
            Msg::Speed(i) => self.set_speed(speed::from_shown(i, self.run.clock.following_set())),
            Msg::Frame(ts) => {
                self.frame = None;
                if !self.run.playing {
                    return false;
                }
                self.on_frame(ctx, ts);
            }
            Msg::Hover(l) => self.hover = l,
            Msg::Present(on) => self.present = on,
            Msg::Select(side_b, focus) => {
                let pick = Some((side_b, focus));
                self.selected = if self.selected == pick { None } else { pick };
                self.refresh_views(now_ms());
            }
            Msg::CompareOn(on) => {
                let p = ctx.props();
                p.on_b.emit(on.then(|| live::suggest_b(&p.a)));
                return false;
            }
            Msg::BControl(name, text) => self.b_control(ctx, &name, &text),
            Msg::Command => self.command(ctx, true),
        }
        true
    }

    fn rendered(&mut self, ctx: &Context<Self>, _first: bool) {
        self.run.frames.rendered(now_ms());
        // Paused (or stepped) with tokens still gliding: the counters follow when they arrive.
        let behind = self.sides.as_ref().is_some_and(Sides::behind);
        if !self.run.playing && behind && self.settle.is_none() {
            let link = ctx.link().clone();
            self.settle = Some(gloo::timers::callback::Timeout::new(
                GLIDE_MS as u32 + 20,
                move || link.send_message(Msg::Settle),
            ));
        }
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let p = ctx.props();
        let (a, b) = match &self.sides {
            Some(s) => (Some(&s.a), s.b.as_ref()),
            None => (None, None),
        };
        let path = a.map_or(MmcPath::Hsq, |a| a.session.host_config().mmc_path);
        // A followed request keeps the panel: the column under the mouse (which is over the
        // token it just clicked) does not take it.
        let focus = match (self.hover, self.selected) {
            (_, Some((_, f @ Focus::Request(_)))) => f,
            (Some(l), _) => Focus::Layer(l),
            (None, Some((_, f))) => f,
            (None, None) => Focus::Scenario,
        };
        let focus_layer = match focus {
            Focus::Layer(l) => Some(l),
            _ => None,
        };
        let speed = self.run.clock.rate_ns();
        let pointing = Pointing {
            ab: b.is_some(),
            selected: self.selected,
            focus: focus_layer,
            window_ns: strip_window_ns(speed),
            compact: p.compact || self.present,
            glide: self.glides(),
            on_hover: &self.on_hover,
            on_select: &self.on_select,
            show_issued: self
                .figures
                .readout
                .iter()
                .flatten()
                .any(|f| f.by_kblockd > 0)
                || self.sides.as_ref().is_some_and(Sides::kernels_differ),
        };
        let follow = self.run.clock.following_set();
        let speeds: Rc<Vec<AttrValue>> = Rc::new(
            speed::shown_speeds(follow)
                .into_iter()
                .map(AttrValue::from)
                .collect(),
        );
        let b_texts = Rc::new(p.b.as_ref().map(bridge::control_texts).unwrap_or_default());
        let no_glide = !self.glides();
        let labels = self.sides.as_ref().map(Sides::labels).unwrap_or_default();
        html! {
            <section class={classes!("panel", "watch", no_glide.then_some("no-glide"))} style={format!("--glide: {GLIDE_MS}ms")}
                     id="watch" aria-label="Watch the pipeline" ref={self.node.clone()} data-pair={p.link_base.clone()}>
                { p.children.clone() }
                <div class="watch-head">
                    <h2>{ "Watch the pipeline" }</h2>
                    <p class="muted">{ "Each request is a token: ● read, ■ write, ◆ FUA (reliable) write, ▲ flush; a dotted ring: bios merged into one request. Play and Run drive this one simulation at the chosen speed of simulated time." }</p>
                </div>
                <TimeControls playing={self.run.playing} finished={self.finished() && self.sides.is_some()} speed={speed::to_shown(self.run.clock.speed(), follow)}
                              {speeds} now_ns={self.sides.as_ref().map_or(0, Sides::latest_ns)} progress={self.sides.as_ref().map_or(0.0, Sides::progress)}
                              on_play={link.callback(|_| Msg::TogglePlay)} on_step={link.callback(|_| Msg::Step)}
                              on_restart={link.callback(|_| Msg::Restart)} on_present={link.callback(Msg::Present)} on_speed={link.callback(Msg::Speed)} />
                if let (Some(n), Some(_)) = (&self.follow_note, self.run.clock.following()) {
                    <p class="muted follow-note" id="follow-note">{ n.clone() }</p>
                }
                { self.scrubber(ctx) }
                { self.plug() }
                <AbEditor platform={AttrValue::from(p.a.platform.clone())} enabled={p.b.is_some()} values={b_texts}
                          error={self.b_error.clone()} on_toggle={link.callback(Msg::CompareOn)}
                          on_change={link.callback(|(n, t)| Msg::BControl(n, t))} />
                if let Some(e) = &self.error {
                    <div class="notice" role="alert" id="watch-error">{ e }</div>
                }
                <div class="pipelines" onmouseleave={link.callback(|_| Msg::Hover(None))}>
                    if let Some(a) = a { { a.view(false, &pointing, self.figures.readout[0], &labels.0) } }
                    if let Some(b) = b { { b.view(true, &pointing, self.figures.readout[1], &labels.1) } }
                </div>
                <div class="watch-info">
                    <ExplainPanel {focus} {path} platform={AttrValue::from(p.a.platform.clone())} life={self.life.clone()} absent={self.life_absent.clone()} hints={self.figures.hints.clone()} summary={self.figures.summary.clone()} />
                    if a.is_some() && b.is_some() {
                        <div class="ab">
                            <h3>{ "A/B" }</h3>
                            <DeltaTable rows={self.figures.deltas.clone()} a_label={labels.0.clone()} b_label={labels.1.clone()} />
                            <p class="muted">{ "Same workload and seed; figures over the simulated time so far." }</p>
                        </div>
                    }
                </div>
                <LiveCharts data={self.figures.charts.data().clone()} />
                <output id="frame-stats" hidden=true>{ self.run.frames.summary() }</output>
            </section>
        }
    }
}
