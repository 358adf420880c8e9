//! "Watch the pipeline": the scenario run at a chosen speed of simulated time, drawn as it
//! goes: the pipeline view (and B's beside it in an A/B comparison), the bus strip, the
//! explanation panel, the live charts and the A/B table.
//!
//! This component owns the clock: each animation frame advances the simulators (`live.rs`) by
//! the simulated time the speed maps the frame's real time to, or runs them for at most
//! [`FRAME_BUDGET_MS`] at the "as fast as possible" speed. The picture (snapshot, bus strip) is
//! refreshed every frame; the charts, the summary and the table about twice a second, one
//! chart per frame, as plotters redraws whole canvases.

use std::collections::BTreeMap;
use std::rc::Rc;

use gloo::events::{EventListener, EventListenerOptions};
use gloo::render::{request_animation_frame, AnimationFrame};
use mmcsim_components::{
    delta_rows, AbEditor, BusTimeline, ChartData, DeltaRow, DeltaTable, ExplainPanel, Focus,
    LifeView, LiveCharts, Pipeline, SideChart, TimeControls,
};
use mmcsim_engine::explain::{effect_summary, Layer};
use mmcsim_engine::Segment;
use mmcsim_engine::Snapshot;
use mmcsim_engine::{HostOptions, Scenario};
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::engine_bridge as bridge;
use crate::live::{self, LiveSim, DEFAULT_SPEED, MAX_FRAME_DT_MS, SPEEDS};
use crate::slicer::{Slicer, FRAME_BUDGET_MS};

/// Real time between two refreshes of the charts, the summary and the A/B table, ms.
const CHART_EVERY_MS: f64 = 400.0;
/// Frame times kept for the figures in `#frame-stats`.
const FRAMES_KEPT: usize = 600;
/// Engine + drawing time aimed at per frame at the "as fast as possible" speed, ms.
const FRAME_TARGET_MS: f64 = 12.0;
/// The engine's least share of a frame at that speed, ms.
const MIN_ENGINE_MS: f64 = 3.0;
/// Most events one timed frame runs (a fast speed on a slow machine lags instead of freezing).
const MAX_EVENTS_PER_FRAME: u64 = 200_000;

#[derive(Properties, PartialEq)]
pub struct WatchProps {
    pub a: Scenario,
    /// B of an A/B comparison (A's workload and seed, other host switches).
    #[prop_or_default]
    pub b: Option<Scenario>,
    /// B's host switches changed (None: comparison off).
    pub on_b: Callback<Option<HostOptions>>,
}

pub enum Msg {
    TogglePlay,
    Step,
    Restart,
    Speed(usize),
    Frame(f64),
    Hover(Option<Layer>),
    Select(bool, Focus),
    CompareOn(bool),
    BControl(String, String),
}

/// What is drawn of one side.
struct View {
    snap: Rc<Snapshot>,
    strip: Rc<Vec<Segment>>,
}

pub struct Watch {
    sims: Option<(LiveSim, Option<LiveSim>)>,
    error: Option<String>,
    b_error: Option<AttrValue>,
    playing: bool,
    speed: usize,
    /// The shared simulated clock at timed speeds, ns.
    clock_ns: u64,
    last_ts: Option<f64>,
    slicers: [Slicer; 2],
    frame: Option<AnimationFrame>,
    _keys: Option<EventListener>,
    views: [Option<View>; 2],
    /// Engine events count when each side's bus strip was last read (re-read only on change).
    strip_events: [u64; 2],
    /// The charts' data, one chart updated per frame after each refresh (see `charts_next`).
    charts: [Rc<ChartData>; 4],
    /// Fresh chart data still to hand to charts `.1..4`.
    charts_next: Option<(Rc<ChartData>, usize)>,
    on_hover: Callback<Option<Layer>>,
    on_select: [Callback<Focus>; 2],
    summary: Rc<Vec<String>>,
    hints: Rc<Vec<String>>,
    deltas: Rc<Vec<DeltaRow>>,
    last_chart_ms: f64,
    hover: Option<Layer>,
    /// (side B?, focus) the user clicked.
    selected: Option<(bool, Focus)>,
    life: Option<Rc<LifeView>>,
    /// Start of the frame being handled (performance.now()), for the frame-time figures.
    frame_t0: Option<f64>,
    frame_ms: Vec<f64>,
    /// Of the frames timed: total ms in the engine (advancing the simulators) and in reading
    /// what to draw (snapshots, strips, chart data), the rest being Yew's render and drawing.
    engine_ms: f64,
    read_ms: f64,
    /// The last timed frame's time after the engine (reading + drawing), ms.
    draw_ms: f64,
    /// The engine's time in the frame being handled, ms.
    frame_engine_ms: f64,
    timed_frames: u64,
    speeds: Rc<Vec<AttrValue>>,
}

fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or(0.0)
}

/// Whether a key press belongs to a form field (typing a value must not play or step).
fn typing(e: &web_sys::KeyboardEvent) -> bool {
    e.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .map(|el| {
            matches!(el.tag_name().as_str(), "INPUT" | "SELECT" | "TEXTAREA")
                || el.has_attribute("contenteditable")
        })
        .unwrap_or(false)
}

fn side_chart(s: &LiveSim, r: &mmcsim_engine::Report) -> SideChart {
    let (cdf, p50, p99) = live::latency_cdf(r);
    SideChart {
        series: s.series(),
        cdf,
        p50,
        p99,
        batch_hist: r.sim.batch_hist.clone(),
    }
}

/// "packed=8 · hsq" style description of a side's host switches.
fn host_label(s: &LiveSim) -> String {
    let c = s.host_config();
    let mut out = c.mmc_path.name().to_string();
    match c.mmc_path {
        mmcsim_engine::MmcPath::Hsq => {
            out += &format!(" · packed={}", c.packed);
            if c.packed == 0 {
                out += &match c.hsq_depth {
                    mmcsim_engine::HsqDepth::Dynamic => " · hsq_depth=dynamic".to_string(),
                    mmcsim_engine::HsqDepth::Fixed(d) => format!(" · hsq_depth={d}"),
                };
            }
        }
        mmcsim_engine::MmcPath::Legacy => out += &format!(" · nonblocking={}", c.nonblocking as u8),
        mmcsim_engine::MmcPath::Cqe => out += " (what-if)",
    }
    out + &format!(" · fua={}", c.fua as u8)
}

impl Watch {
    fn build(&mut self, ctx: &Context<Self>) {
        let p = ctx.props();
        self.frame = None;
        self.playing = false;
        self.clock_ns = 0;
        self.last_ts = None;
        self.selected = None;
        self.life = None;
        self.strip_events = [u64::MAX; 2];
        let a = LiveSim::new(&p.a);
        let b = p.b.as_ref().map(LiveSim::new);
        self.error = None;
        self.b_error = None;
        self.sims = match (a, b) {
            (Ok(a), None) => Some((a, None)),
            (Ok(a), Some(Ok(b))) => Some((a, Some(b))),
            (Ok(a), Some(Err(e))) => {
                self.b_error = Some(format!("B: {}", e.message).into());
                Some((a, None))
            }
            (Err(e), _) => {
                self.error = Some(e.message);
                None
            }
        };
        self.hints = Rc::new(match &self.sims {
            Some((a, _)) => live::watch_hints(&p.a, &a.host_config()),
            None => Vec::new(),
        });
        self.refresh_views();
        self.refresh_charts(false);
    }

    fn refresh_views(&mut self) {
        let Some((a, b)) = self.sims.as_mut() else {
            self.views = [None, None];
            return;
        };
        for (i, sim) in [Some(&mut *a), b.as_mut()].into_iter().enumerate() {
            let Some(sim) = sim else {
                self.views[i] = None;
                continue;
            };
            // The strip's segments change only when events ran.
            let strip = match &self.views[i] {
                Some(v) if self.strip_events[i] == sim.events() => v.strip.clone(),
                _ => Rc::new(sim.timeline()),
            };
            self.strip_events[i] = sim.events();
            self.views[i] = Some(View {
                snap: Rc::new(sim.snapshot()),
                strip,
            });
        }
        self.life = match self.selected {
            Some((side_b, Focus::Request(id))) => {
                let sim = if side_b { b.as_ref() } else { Some(&*a) };
                sim.and_then(|s| s.life(id)).map(|l| {
                    Rc::new(LifeView {
                        id: l.id,
                        job: l.job,
                        op: l.op.name(),
                        stages: l.stages,
                        done: l.done,
                    })
                })
            }
            _ => None,
        };
    }

    /// New chart data, summary and A/B table. While playing, the four charts take the new
    /// data one per frame (each redraw is a whole canvas); otherwise all at once.
    fn refresh_charts(&mut self, stagger: bool) {
        self.last_chart_ms = now_ms();
        let Some((a, b)) = self.sims.as_ref() else {
            return;
        };
        let ra = a.report();
        let rb = b.as_ref().map(|b| b.report());
        let data = Rc::new(ChartData {
            a: side_chart(a, &ra),
            b: b.as_ref().zip(rb.as_ref()).map(|(b, r)| side_chart(b, r)),
        });
        self.summary = Rc::new(effect_summary(&ra, &a.host_config()));
        self.deltas = Rc::new(rb.map(|rb| delta_rows(&ra, &rb)).unwrap_or_default());
        if stagger {
            self.charts[0] = data.clone();
            self.charts_next = Some((data, 1));
        } else {
            self.charts = [data.clone(), data.clone(), data.clone(), data];
            self.charts_next = None;
        }
    }

    /// Hands the pending chart data to the next chart.
    fn feed_next_chart(&mut self) {
        if let Some((data, k)) = self.charts_next.take() {
            self.charts[k] = data.clone();
            if k + 1 < self.charts.len() {
                self.charts_next = Some((data, k + 1));
            }
        }
    }

    fn finished(&self) -> bool {
        self.sims
            .as_ref()
            .is_none_or(|(a, b)| a.is_finished() && b.as_ref().is_none_or(|b| b.is_finished()))
    }

    fn schedule(&mut self, ctx: &Context<Self>) {
        let link = ctx.link().clone();
        self.frame = Some(request_animation_frame(move |ts| {
            link.send_message(Msg::Frame(ts))
        }));
    }

    /// Advances the simulators for one frame of `dt_ms` real time.
    fn advance(&mut self, dt_ms: f64) {
        let speed = SPEEDS[self.speed];
        let Some((a, b)) = self.sims.as_mut() else {
            return;
        };
        match speed.sim_ns_per_s {
            Some(rate) => {
                let target = self.clock_ns + (rate as f64 * dt_ms / 1e3) as u64;
                let ra = a.advance_to(target, MAX_EVENTS_PER_FRAME);
                let rb = b
                    .as_mut()
                    .is_none_or(|b| b.advance_to(target, MAX_EVENTS_PER_FRAME));
                self.clock_ns = if ra && rb {
                    target
                } else {
                    a.now().min(b.as_ref().map_or(u64::MAX, |b| b.now()))
                };
            }
            None => {
                // At most FRAME_BUDGET_MS, less when drawing the last frame took long: engine
                // and drawing together stay near one 60 Hz frame.
                let budget = (FRAME_TARGET_MS - self.draw_ms).clamp(MIN_ENGINE_MS, FRAME_BUDGET_MS);
                let share = if b.is_some() { budget / 2.0 } else { budget };
                self.slicers[0].run_slice(|n| a.run_events(n), now_ms, share);
                if let Some(b) = b.as_mut() {
                    self.slicers[1].run_slice(|n| b.run_events(n), now_ms, share);
                }
                self.clock_ns = a.now().max(b.as_ref().map_or(0, |b| b.now()));
            }
        }
    }

    /// One step: the side whose next event (or bus phase boundary) comes first takes it; the
    /// other side's clock follows to that time.
    fn step(&mut self) {
        let Some((a, b)) = self.sims.as_mut() else {
            return;
        };
        let next = |s: &LiveSim| {
            if s.is_finished() {
                u64::MAX
            } else {
                s.next_change().unwrap_or(u64::MAX)
            }
        };
        let (na, nb) = (next(a), b.as_ref().map_or(u64::MAX, next));
        if na == u64::MAX && nb == u64::MAX {
            return;
        }
        let t = na.min(nb);
        if na <= nb {
            a.step_event();
            if let Some(b) = b.as_mut() {
                b.advance_to(t, 0);
            }
        } else if let Some(b) = b.as_mut() {
            b.step_event();
            a.advance_to(t, 0);
        }
        self.clock_ns = t;
    }

    fn b_texts(&self, ctx: &Context<Self>) -> Rc<BTreeMap<String, String>> {
        Rc::new(
            ctx.props()
                .b
                .as_ref()
                .map(bridge::control_texts)
                .unwrap_or_default(),
        )
    }
}

impl Component for Watch {
    type Message = Msg;
    type Properties = WatchProps;

    fn create(ctx: &Context<Self>) -> Self {
        let link = ctx.link().clone();
        let keys = web_sys::window().map(|w| {
            let opts = EventListenerOptions::enable_prevent_default();
            EventListener::new_with_options(&w, "keydown", opts, move |e| {
                let Some(e) = e.dyn_ref::<web_sys::KeyboardEvent>() else {
                    return;
                };
                if typing(e) || e.ctrl_key() || e.alt_key() || e.meta_key() {
                    return;
                }
                match e.key().as_str() {
                    " " => {
                        e.prevent_default();
                        link.send_message(Msg::TogglePlay);
                    }
                    "ArrowRight" => {
                        e.prevent_default();
                        link.send_message(Msg::Step);
                    }
                    _ => {}
                }
            })
        });
        let mut w = Watch {
            sims: None,
            error: None,
            b_error: None,
            playing: false,
            speed: DEFAULT_SPEED,
            clock_ns: 0,
            last_ts: None,
            slicers: Default::default(),
            frame: None,
            _keys: keys,
            views: [None, None],
            strip_events: [u64::MAX; 2],
            charts: Default::default(),
            charts_next: None,
            on_hover: ctx.link().callback(Msg::Hover),
            on_select: [
                ctx.link().callback(|f| Msg::Select(false, f)),
                ctx.link().callback(|f| Msg::Select(true, f)),
            ],
            summary: Rc::default(),
            hints: Rc::default(),
            deltas: Rc::default(),
            last_chart_ms: 0.0,
            hover: None,
            selected: None,
            life: None,
            frame_t0: None,
            frame_ms: Vec::new(),
            engine_ms: 0.0,
            read_ms: 0.0,
            draw_ms: 0.0,
            frame_engine_ms: 0.0,
            timed_frames: 0,
            speeds: Rc::new(SPEEDS.iter().map(|s| AttrValue::from(s.label)).collect()),
        };
        w.build(ctx);
        w
    }

    fn changed(&mut self, ctx: &Context<Self>, old: &WatchProps) -> bool {
        let p = ctx.props();
        if p.a != old.a || p.b != old.b {
            self.build(ctx);
        }
        true
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::TogglePlay => {
                if self.playing {
                    self.playing = false;
                    self.frame = None;
                    self.refresh_charts(false);
                } else {
                    if self.finished() {
                        self.build(ctx);
                    }
                    if self.sims.is_some() {
                        self.playing = true;
                        self.last_ts = None;
                        self.schedule(ctx);
                    }
                }
                true
            }
            Msg::Step => {
                if self.playing {
                    return false;
                }
                self.step();
                self.refresh_views();
                self.refresh_charts(false);
                true
            }
            Msg::Restart => {
                let playing = self.playing;
                self.build(ctx);
                if playing && self.sims.is_some() {
                    self.playing = true;
                    self.schedule(ctx);
                }
                true
            }
            Msg::Speed(i) => {
                self.speed = i.min(SPEEDS.len() - 1);
                if let Some((a, b)) = &self.sims {
                    // Timed speeds continue from where the sides are.
                    self.clock_ns = a.now().min(b.as_ref().map_or(u64::MAX, |b| b.now()));
                }
                true
            }
            Msg::Frame(ts) => {
                self.frame = None;
                if !self.playing {
                    return false;
                }
                let t0 = now_ms();
                self.frame_t0 = Some(t0);
                let dt = self
                    .last_ts
                    .map_or(1000.0 / 60.0, |l| (ts - l).clamp(0.0, MAX_FRAME_DT_MS));
                self.last_ts = Some(ts);
                self.advance(dt);
                let t1 = now_ms();
                self.refresh_views();
                let done = self.finished();
                if done {
                    self.refresh_charts(false);
                } else if self.charts_next.is_some() {
                    self.feed_next_chart();
                } else if now_ms() - self.last_chart_ms >= CHART_EVERY_MS {
                    self.refresh_charts(true);
                }
                self.engine_ms += t1 - t0;
                self.frame_engine_ms = t1 - t0;
                self.read_ms += now_ms() - t1;
                self.timed_frames += 1;
                if done {
                    self.playing = false;
                } else {
                    self.schedule(ctx);
                }
                true
            }
            Msg::Hover(l) => {
                self.hover = l;
                true
            }
            Msg::Select(side_b, focus) => {
                self.selected = if self.selected == Some((side_b, focus)) {
                    None
                } else {
                    Some((side_b, focus))
                };
                self.refresh_views();
                true
            }
            Msg::CompareOn(on) => {
                ctx.props()
                    .on_b
                    .emit(on.then(|| live::suggest_b(&ctx.props().a)));
                false
            }
            Msg::BControl(name, text) => {
                let p = ctx.props();
                let base = p.b.clone().unwrap_or_else(|| p.a.clone());
                match bridge::apply_control(&base, &name, &text) {
                    Ok(next) => {
                        self.b_error = None;
                        p.on_b.emit(Some(next.host));
                    }
                    Err(e) => self.b_error = Some(format!("B: {e}").into()),
                }
                true
            }
        }
    }

    fn rendered(&mut self, _ctx: &Context<Self>, _first: bool) {
        if let Some(t0) = self.frame_t0.take() {
            if self.frame_ms.len() == FRAMES_KEPT {
                self.frame_ms.remove(0);
            }
            let total = now_ms() - t0;
            self.frame_ms.push(total);
            self.draw_ms = total - self.frame_engine_ms;
        }
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let p = ctx.props();
        let (a, b) = match &self.sims {
            Some((a, b)) => (Some(a), b.as_ref()),
            None => (None, None),
        };
        let path = a
            .map(|a| a.host_config().mmc_path)
            .unwrap_or(mmcsim_engine::MmcPath::Hsq);
        let focus = match (self.hover, self.selected) {
            (Some(l), _) => Focus::Layer(l),
            (None, Some((_, f))) => f,
            (None, None) => Focus::Scenario,
        };
        let focus_layer = match focus {
            Focus::Layer(l) => Some(l),
            _ => None,
        };
        let window = live::strip_window_ns(&SPEEDS[self.speed]);
        let sel_id = |side_b: bool| match self.selected {
            Some((s, Focus::Request(id))) if s == side_b => Some(id),
            _ => None,
        };
        let side = |s: &LiveSim, side_b: bool| {
            let Some(v) = &self.views[side_b as usize] else {
                return Html::default();
            };
            let name = if side_b { "b" } else { "a" };
            let title = if b.is_some() {
                format!("{} · {}", name.to_uppercase(), host_label(s))
            } else {
                host_label(s)
            };
            html! {
                <div class={classes!("side", name)}>
                    <Pipeline snap={v.snap.clone()} cfg={s.host_config()} side={name} title={title}
                              selected={sel_id(side_b)} focus={focus_layer}
                              on_hover={self.on_hover.clone()}
                              on_select={self.on_select[side_b as usize].clone()} />
                    <BusTimeline segments={v.strip.clone()} now={s.now()} window_ns={window} side={name} />
                </div>
            }
        };
        let stats = {
            let mut v = self.frame_ms.clone();
            v.sort_by(|x, y| x.total_cmp(y));
            let avg = if v.is_empty() {
                0.0
            } else {
                v.iter().sum::<f64>() / v.len() as f64
            };
            let pct = |q: f64| {
                v.get(((v.len() as f64 - 1.0) * q).round() as usize)
                    .copied()
                    .unwrap_or(0.0)
            };
            format!(
                "frames={} avg_ms={avg:.2} p50_ms={:.2} p95_ms={:.2} max_ms={:.2} engine_avg_ms={:.2} read_avg_ms={:.2}",
                v.len(),
                pct(0.5),
                pct(0.95),
                pct(1.0),
                self.engine_ms / self.timed_frames.max(1) as f64,
                self.read_ms / self.timed_frames.max(1) as f64
            )
        };
        html! {
            // Above 1 ms/s tokens move nearly every frame: gliding would only repaint the view.
            <section class={classes!("panel", "watch", (SPEEDS[self.speed].sim_ns_per_s.is_none_or(|r| r > 1_000_000)).then_some("no-glide"))}
                     id="watch" aria-label="Watch the pipeline">
                <div class="watch-head">
                    <h2>{ "Watch the pipeline" }</h2>
                    <p class="muted">{ "Each request is a token: ● read, ■ write, ◆ FUA (reliable) write, ▲ flush. Play runs the scenario above at the chosen speed of simulated time." }</p>
                </div>
                <TimeControls playing={self.playing} finished={self.finished() && self.sims.is_some()} speed={self.speed}
                              speeds={self.speeds.clone()} now_ns={a.map_or(0, |a| a.now())} progress={a.map_or(0.0, |a| a.progress())}
                              on_play={link.callback(|_| Msg::TogglePlay)} on_step={link.callback(|_| Msg::Step)}
                              on_restart={link.callback(|_| Msg::Restart)} on_speed={link.callback(Msg::Speed)} />
                <AbEditor platform={AttrValue::from(p.a.platform.clone())} enabled={p.b.is_some()} values={self.b_texts(ctx)}
                          error={self.b_error.clone()} on_toggle={link.callback(Msg::CompareOn)}
                          on_change={link.callback(|(n, t)| Msg::BControl(n, t))} />
                if let Some(e) = &self.error {
                    <div class="notice" role="alert" id="watch-error">{ e }</div>
                }
                <div class="pipelines" onmouseleave={link.callback(|_| Msg::Hover(None))}>
                    if let Some(a) = a { { side(a, false) } }
                    if let Some(b) = b { { side(b, true) } }
                </div>
                <div class="watch-info">
                    <ExplainPanel {focus} {path} life={self.life.clone()} hints={self.hints.clone()} summary={self.summary.clone()} />
                    if let (Some(a), Some(b)) = (a, b) {
                        <div class="ab">
                            <h3>{ "A/B" }</h3>
                            <DeltaTable rows={self.deltas.clone()} a_label={host_label(a)} b_label={host_label(b)} />
                            <p class="muted">{ "Same workload and seed; figures over the simulated time so far." }</p>
                        </div>
                    }
                </div>
                <LiveCharts data={self.charts.clone()} />
                <output id="frame-stats" hidden=true>{ stats }</output>
            </section>
        }
    }
}
