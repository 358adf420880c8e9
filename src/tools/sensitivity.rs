//! The Sensitivity panel: how sure the Lab's answer is (`--sensitivity` in the CLI). The
//! scenario above, or A and B of the A/B view, run once, then again at both ends of each
//! uncertain board value's range that the runs use (the engine's `tools::sensitivity`: the
//! same plan, runs and summary as the CLI). Every run goes to a Web Worker as its link text and
//! comes back as its report, so the thread that draws the animation only posts messages; the
//! panel shows how many runs there are and how many are done, then the CLI's summary: each
//! figure's range, the parameters that move it, and for a pair whether B's side of A holds.

use std::rc::Rc;

use mmcsim_engine::scenario::url::encode_query;
use mmcsim_engine::tools::sensitivity::{self, Plan, Sensitivity};
use mmcsim_engine::{Report, Scenario};
use mmcsim_fit::jobs::{Job, Reply, Request};
use yew::prelude::*;

use crate::run::workers::{self, Pool};

/// Most runs the page starts for one check (the CLI is bounded by events instead).
const MAX_RUNS: usize = 200;

#[derive(Properties, PartialEq)]
pub struct SensitivityViewProps {
    /// The scenario above (A).
    pub a: Rc<Scenario>,
    /// B of the A/B view, when comparing.
    pub b: Option<Rc<Scenario>>,
}

pub enum Msg {
    Start,
    Stop,
    Worker(workers::Event),
}

pub struct SensitivityView {
    points: Vec<Scenario>,
    base: Vec<Option<Report>>,
    plan: Option<Plan>,
    extra: Vec<Option<Report>>,
    /// (id, query) of runs not yet sent, the next last.
    pending: Vec<(u64, String)>,
    running: usize,
    result: Option<Sensitivity>,
    error: Option<String>,
    pool: Option<Pool>,
    /// The check's number: replies of a stopped check are not taken.
    check: u64,
}

/// Bit 31 of an id marks an extra run (else an unvaried one); the check's number is above.
const EXTRA: u64 = 1 << 31;

impl SensitivityView {
    fn total(&self) -> usize {
        self.points.len() + self.plan.as_ref().map_or(0, |p| p.runs.len())
    }

    fn done(&self) -> usize {
        self.base.iter().flatten().count() + self.extra.iter().flatten().count()
    }

    fn start(&mut self, props: &SensitivityViewProps) {
        self.check += 1;
        self.points = std::iter::once(&props.a)
            .chain(&props.b)
            .map(|s| Scenario {
                sensitivity: false,
                ..(**s).clone()
            })
            .collect();
        self.base = vec![None; self.points.len()];
        self.plan = None;
        self.extra.clear();
        self.result = None;
        self.error = None;
        self.running = 0;
        self.pending = self
            .points
            .iter()
            .enumerate()
            .rev()
            .map(|(i, s)| ((self.check << 32) | i as u64, encode_query(s, None)))
            .collect();
    }

    /// Every unvaried run is back: the plan and its runs.
    fn planned(&mut self) -> Result<(), String> {
        let base: Vec<Report> = self.base.iter().flatten().cloned().collect();
        let plan = sensitivity::plan(&self.points, &base)?;
        if plan.runs.len() > MAX_RUNS {
            return Err(format!(
                "{} runs; the page runs at most {MAX_RUNS} (the CLI's --sensitivity runs more)",
                plan.runs.len()
            ));
        }
        let mut pending = Vec::new();
        for (i, r) in plan.runs.iter().enumerate() {
            let s = plan.scenario(&self.points, r)?;
            pending.push((
                (self.check << 32) | EXTRA | i as u64,
                encode_query(&s, None),
            ));
        }
        pending.reverse();
        self.extra = vec![None; plan.runs.len()];
        self.pending = pending;
        self.plan = Some(plan);
        self.finish_if_done();
        Ok(())
    }

    fn finish_if_done(&mut self) {
        let Some(plan) = &self.plan else { return };
        if self.extra.iter().any(Option::is_none) {
            return;
        }
        let base: Vec<Report> = self.base.iter().flatten().cloned().collect();
        let extra: Vec<Report> = self.extra.iter().flatten().cloned().collect();
        let labels: Vec<String> = match self.points.len() {
            2 => vec!["A".to_string(), "B".to_string()],
            _ => vec![String::new()],
        };
        self.result = Some(sensitivity::summarize(
            &labels,
            &self.points,
            &base,
            plan,
            &extra,
        ));
    }

    /// Hands pending runs to idle workers.
    fn dispatch(&mut self) {
        let Some(pool) = self.pool.as_mut() else {
            return;
        };
        while let Some(i) = pool.idle() {
            let Some((id, query)) = self.pending.pop() else {
                break;
            };
            if let Err(e) = pool.send(
                i,
                &Request {
                    id,
                    job: Job::Report(query),
                },
            ) {
                self.error = Some(e);
                self.pending.clear();
                break;
            }
            self.running += 1;
        }
    }

    fn reply(&mut self, id: u64, report: Report) {
        let i = (id & (EXTRA - 1)) as usize;
        if id & EXTRA == 0 {
            if let Some(slot) = self.base.get_mut(i) {
                *slot = Some(report);
            }
            if self.base.iter().all(Option::is_some) {
                if let Err(e) = self.planned() {
                    self.error = Some(e);
                }
            }
        } else if let Some(slot) = self.extra.get_mut(i) {
            *slot = Some(report);
            self.finish_if_done();
        }
    }
}

impl Component for SensitivityView {
    type Message = Msg;
    type Properties = SensitivityViewProps;

    fn create(_: &Context<Self>) -> Self {
        SensitivityView {
            points: Vec::new(),
            base: Vec::new(),
            plan: None,
            extra: Vec::new(),
            pending: Vec::new(),
            running: 0,
            result: None,
            error: None,
            pool: None,
            check: 0,
        }
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::Start => {
                self.start(ctx.props());
                if self.pool.is_none() {
                    match Pool::new(workers::per_core(), ctx.link().callback(Msg::Worker)) {
                        Ok(p) => self.pool = Some(p),
                        Err(e) => {
                            self.error = Some(e);
                            self.pending.clear();
                        }
                    }
                }
                self.dispatch();
                true
            }
            Msg::Stop => {
                // Stopping a worker is the only way to stop the run it runs.
                self.pool = None;
                self.pending.clear();
                self.running = 0;
                true
            }
            Msg::Worker(ev) => {
                let Some(pool) = self.pool.as_mut() else {
                    return false;
                };
                let (_, r) = pool.note(ev);
                let ours = r.id >> 32 == self.check;
                match r.reply {
                    Reply::Ready => {}
                    _ if !ours => {}
                    Reply::Report(rep) => {
                        self.running = self.running.saturating_sub(1);
                        self.reply(r.id, *rep);
                    }
                    Reply::Error(e) => {
                        self.running = self.running.saturating_sub(1);
                        self.error = Some(e);
                        self.pending.clear();
                    }
                    Reply::Row(_) | Reply::Fit(_) | Reply::Progress { .. } => {}
                }
                self.dispatch();
                true
            }
        }
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let running = self.running > 0 || !self.pending.is_empty();
        let what = match ctx.props().b {
            Some(_) => "A and B of the A/B view: whether B's side of A holds at every end",
            None => "the scenario above",
        };
        let progress = match (&self.plan, self.pool.as_ref()) {
            (_, None) => None,
            (None, Some(p)) => Some(format!(
                "{} of {} unvaried run(s) done, in {} Web Worker(s); the varied runs follow.",
                self.base.iter().flatten().count(),
                self.points.len(),
                p.len()
            )),
            (Some(plan), Some(p)) => Some(format!(
                "{} of {} runs done ({} parameter(s) at both ends of their range), in {} Web Worker(s).",
                self.done(),
                self.total(),
                plan.swings.len(),
                p.len()
            )),
        };
        html! {
            <details id="sensitivity" class="panel sensitivity">
                <summary>{ "Sensitivity: how far each figure moves across the fitted values' ranges" }</summary>
                <p class="hint">{ format!("Runs {what} again at both ends of each fitted or estimated board value's range that the run uses (as the CLI's --sensitivity).") }</p>
                <div class="actions">
                    if running {
                        <button id="sensitivity-stop" type="button" class="button secondary" onclick={link.callback(|_| Msg::Stop)}>{ "Stop" }</button>
                    } else {
                        <button id="sensitivity-run" type="button" class="button primary" onclick={link.callback(|_| Msg::Start)}>{ "Sensitivity" }</button>
                    }
                </div>
                if let Some(p) = progress {
                    <p id="sensitivity-progress" class="hint" role="status">{ p }</p>
                }
                if let Some(e) = &self.error {
                    <div class="field-error" role="alert">{ e.clone() }</div>
                }
                if let Some(s) = &self.result {
                    <pre id="sensitivity-out" class="sensitivity-out">{ sensitivity::render(s).trim_start().to_string() }</pre>
                }
            </details>
        }
    }
}
