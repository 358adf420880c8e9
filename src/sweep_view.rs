//! The Sweep panel: sweep one or two options of the current scenario (`hsq_depth=1..16`,
//! `packed=0,2,4,8`), the points run one after another in budgeted slices of each animation
//! frame ([`Slicer`], at most [`SWEEP_BUDGET_MS`] per frame), so the page and the pipeline
//! animation keep drawing while a sweep runs. Not in Web Workers (yet): the work per frame is
//! bounded instead, on the page's one thread.

use std::rc::Rc;

use gloo::render::{request_animation_frame, AnimationFrame};
use mmcsim_components::SweepResults;
use mmcsim_engine::scenario::sweep::{parse_dim, point_scenario, points, Dim, Row};
use mmcsim_engine::scenario::url::encode_query;
use mmcsim_engine::Scenario;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::session::Session;
use crate::slicer::{now_ms, Slicer};

/// Wall time a sweep may take from one animation frame, ms: half the run loop's budget, so a
/// sweep and a watched run together still leave time to draw.
pub const SWEEP_BUDGET_MS: f64 = 4.0;

#[derive(Properties, PartialEq)]
pub struct SweepViewProps {
    /// The scenario every point starts from.
    pub scenario: Rc<Scenario>,
}

pub enum Msg {
    Spec(usize, String),
    Start,
    Stop,
    Frame,
    Pin(usize),
    Unpin(usize),
}

pub struct SweepView {
    specs: [String; 2],
    error: Option<String>,
    dims: Vec<Dim>,
    /// Points still to run: (index, values, scenario).
    pending: Vec<(usize, Vec<String>, Scenario)>,
    current: Option<(usize, Vec<String>, Session)>,
    rows: Rc<Vec<Row>>,
    total: usize,
    pinned: Rc<Vec<(String, Row)>>,
    /// Scenario of each finished row, for its pin label.
    row_scenarios: Vec<Scenario>,
    current_scn: Option<Scenario>,
    slicer: Slicer,
    frame: Option<AnimationFrame>,
}

impl SweepView {
    fn schedule(&mut self, ctx: &Context<Self>) {
        let link = ctx.link().clone();
        self.frame = Some(request_animation_frame(move |_| {
            link.send_message(Msg::Frame)
        }));
    }

    fn start(&mut self, base: &Scenario) -> Result<(), String> {
        let dims = self
            .specs
            .iter()
            .filter(|s| !s.trim().is_empty())
            .map(|s| parse_dim(s.trim()))
            .collect::<Result<Vec<_>, _>>()?;
        if dims.is_empty() {
            return Err("give an option and its values, e.g. hsq_depth=1..8".to_string());
        }
        let all = points(&dims);
        if all.len() > 256 {
            return Err(format!(
                "{} points; the page runs at most 256 (the CLI runs more)",
                all.len()
            ));
        }
        let mut pending = Vec::new();
        for (i, v) in all.into_iter().enumerate() {
            let s = point_scenario(base, &dims, &v)?;
            pending.push((i, v, s));
        }
        pending.reverse();
        self.total = pending.len();
        self.dims = dims;
        self.pending = pending;
        self.rows = Rc::default();
        self.row_scenarios.clear();
        self.current = None;
        Ok(())
    }
}

impl Component for SweepView {
    type Message = Msg;
    type Properties = SweepViewProps;

    fn create(_: &Context<Self>) -> Self {
        SweepView {
            specs: ["hsq_depth=1..8".to_string(), String::new()],
            error: None,
            dims: Vec::new(),
            pending: Vec::new(),
            current: None,
            rows: Rc::default(),
            total: 0,
            pinned: Rc::default(),
            row_scenarios: Vec::new(),
            current_scn: None,
            slicer: Slicer::default(),
            frame: None,
        }
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::Spec(i, t) => {
                self.specs[i] = t;
                false
            }
            Msg::Start => {
                match self.start(&ctx.props().scenario) {
                    Ok(()) => {
                        self.error = None;
                        self.schedule(ctx);
                    }
                    Err(e) => self.error = Some(e),
                }
                true
            }
            Msg::Stop => {
                self.pending.clear();
                self.current = None;
                self.frame = None;
                true
            }
            Msg::Frame => {
                let start = now_ms();
                while now_ms() - start < SWEEP_BUDGET_MS {
                    if self.current.is_none() {
                        let Some((i, v, s)) = self.pending.pop() else {
                            break;
                        };
                        match Session::start(&s) {
                            Ok(sess) => {
                                self.current = Some((i, v, sess));
                                self.current_scn = Some(s);
                            }
                            Err(e) => {
                                self.error = Some(e.message);
                                continue;
                            }
                        }
                    }
                    let Some((_, _, sess)) = self.current.as_mut() else {
                        break;
                    };
                    let left = SWEEP_BUDGET_MS - (now_ms() - start);
                    if self.slicer.run_slice(|n| sess.run_events(n), now_ms, left) {
                        if let Some((i, v, sess)) = self.current.take() {
                            Rc::make_mut(&mut self.rows).push(Row::of(i, v, &sess.report()));
                            self.row_scenarios.extend(self.current_scn.take());
                        }
                    }
                }
                if self.current.is_some() || !self.pending.is_empty() {
                    self.schedule(ctx);
                } else {
                    self.frame = None;
                }
                true
            }
            Msg::Pin(i) => {
                if let (Some(r), Some(s)) = (self.rows.get(i), self.row_scenarios.get(i)) {
                    let label = format!("?{}", encode_query(s, None));
                    Rc::make_mut(&mut self.pinned).push((label, r.clone()));
                }
                true
            }
            Msg::Unpin(i) => {
                if i < self.pinned.len() {
                    Rc::make_mut(&mut self.pinned).remove(i);
                }
                true
            }
        }
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let running = self.current.is_some() || !self.pending.is_empty();
        let spec = |i: usize| {
            link.callback(move |e: Event| {
                let v = e
                    .target_dyn_into::<HtmlInputElement>()
                    .map(|x| x.value())
                    .unwrap_or_default();
                Msg::Spec(i, v)
            })
        };
        let keys: Vec<String> = self.dims.iter().map(|d| d.key.clone()).collect();
        html! {
            <details id="sweep" class="panel sweep">
                <summary>{ "Sweep: one or two options over a range, on the scenario above" }</summary>
                <div class="sweep-form">
                    <label>{ "sweep " }<input id="sweep-1" type="text" value={self.specs[0].clone()} onchange={spec(0)}
                        placeholder="hsq_depth=1..16" /></label>
                    <label>{ " and " }<input id="sweep-2" type="text" value={self.specs[1].clone()} onchange={spec(1)}
                        placeholder="packed=0,2,4,8 (optional)" /></label>
                    if running {
                        <button id="sweep-stop" type="button" class="button secondary" onclick={link.callback(|_| Msg::Stop)}>{ "Stop sweep" }</button>
                    } else {
                        <button id="sweep-run" type="button" class="button primary" onclick={link.callback(|_| Msg::Start)}>{ "Run sweep" }</button>
                    }
                </div>
                if let Some(e) = &self.error {
                    <div class="field-error" role="alert">{ e.clone() }</div>
                }
                <SweepResults keys={Rc::new(keys)} rows={self.rows.clone()} total={self.total}
                              pinned={self.pinned.clone()} on_pin={link.callback(Msg::Pin)} on_unpin={link.callback(Msg::Unpin)} />
            </details>
        }
    }
}
