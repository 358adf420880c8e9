//! The Sweep panel: sweep one or two options of the current scenario (`hsq_depth=1..16`,
//! `packed=0,2,4,8`). The points run in Web Workers, one per core ([`crate::run::workers`]), each
//! sent as its scenario's link text and answered with its figures, so the thread that draws
//! the pipeline animation only posts messages and draws the rows as they come. A finished
//! sweep downloads as the CLI's `--sweep` CSV or JSON (the engine's `export::sweep_csv` /
//! `sweep_json`, the same bytes); pinned runs are named by the options that set them apart.

use std::rc::Rc;

use mmcsim_components::sweep::pin_labels;
use mmcsim_components::SweepResults;
use mmcsim_engine::export::{sweep_csv, sweep_json, SweepDoc};
use mmcsim_engine::scenario::sweep::{
    parse_dim, point_count, point_scenario, points, Dim, PointJob, Row,
};
use mmcsim_engine::scenario::url::encode_query;
use mmcsim_engine::Scenario;
use mmcsim_fit::jobs::{Job, Reply, Request};
use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::run::workers::{self, Pool};
use crate::tools::download;

#[derive(Properties, PartialEq)]
pub struct SweepViewProps {
    /// The scenario every point starts from.
    pub scenario: Rc<Scenario>,
}

pub enum Msg {
    Spec(usize, String),
    Start,
    Stop,
    Worker(workers::Event),
    Pin(usize),
    Unpin(usize),
    Export(&'static str),
}

/// A pinned run: its options, its swept values, its link, its figures.
#[derive(Clone)]
struct Pin {
    args: Vec<String>,
    swept: String,
    link: String,
    row: Row,
}

pub struct SweepView {
    specs: [String; 2],
    error: Option<String>,
    dims: Vec<Dim>,
    /// Points not yet sent to a worker, the next last.
    pending: Vec<PointJob>,
    /// Points sent and not yet answered.
    running: usize,
    /// Finished points, in sweep order.
    rows: Rc<Vec<Row>>,
    total: usize,
    pinned: Vec<Pin>,
    /// The scenario every point of the sweep started from, as options.
    base: Vec<String>,
    /// Where the last download went, or why it did not.
    export_status: String,
    /// The scenario of every point of the sweep, by index (for a pin's label).
    scenarios: Vec<Scenario>,
    /// The workers (started at the first sweep, kept between sweeps, stopped by Stop).
    pool: Option<Pool>,
    /// The sweep's number: replies of a stopped sweep are not taken.
    sweep: u64,
}

impl SweepView {
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
        // Counted before any point is built: the same refusals as the CLI (a key swept twice,
        // more than two dimensions, more than 10000 points), then the page's own limit.
        let count = point_count(&dims)?;
        if count > 256 {
            return Err(format!(
                "{count} points; the page runs at most 256 (the CLI runs more)"
            ));
        }
        let all = points(&dims);
        let mut pending = Vec::new();
        let mut scenarios = Vec::new();
        for (i, v) in all.into_iter().enumerate() {
            let s = point_scenario(base, &dims, &v)?;
            pending.push(PointJob::of(i, v, &s));
            scenarios.push(s);
        }
        pending.reverse();
        self.total = pending.len();
        self.base = base.to_args();
        self.export_status.clear();
        self.dims = dims;
        self.pending = pending;
        self.running = 0;
        self.scenarios = scenarios;
        self.rows = Rc::default();
        self.sweep += 1;
        Ok(())
    }

    /// Hands pending points to idle workers.
    fn dispatch(&mut self) {
        let Some(pool) = self.pool.as_mut() else {
            return;
        };
        while let Some(i) = pool.idle() {
            let Some(p) = self.pending.pop() else {
                break;
            };
            // The id carries the sweep and the point.
            let id = (self.sweep << 32) | p.index as u64;
            if let Err(e) = pool.send(
                i,
                &Request {
                    id,
                    job: Job::Point(p),
                },
            ) {
                self.error = Some(e);
                self.pending.clear();
                break;
            }
            self.running += 1;
        }
    }
}

impl SweepView {
    /// Pins point `i` of the rows shown: its figures, its options and its swept values.
    fn pin(&mut self, i: usize) {
        let s = self.rows.get(i).and_then(|r| self.scenarios.get(r.index));
        if let (Some(r), Some(s)) = (self.rows.get(i), s) {
            let swept: Vec<String> = self
                .dims
                .iter()
                .zip(&r.values)
                .map(|(d, v)| format!("{}={v}", d.key))
                .collect();
            self.pinned.push(Pin {
                args: s.to_args(),
                swept: swept.join(", "),
                link: format!("?{}", encode_query(s, None)),
                row: r.clone(),
            });
        }
    }

    /// The finished sweep as the CLI writes it: `kind` "csv" or "json"; the file's name.
    fn export(&self, kind: &str) -> Result<String, String> {
        if self.rows.len() != self.total || self.total == 0 {
            return Err("the sweep has not finished".to_string());
        }
        let doc = SweepDoc {
            dims: self.dims.clone(),
            base: self.base.clone(),
            points: self.total,
            shard: None,
            rows: self.rows.to_vec(),
            sensitivity: None,
        };
        let (name, mime, text) = match kind {
            "csv" => ("sweep.csv", "text/csv", sweep_csv(&doc)),
            _ => ("sweep.json", "application/json", sweep_json(&doc)),
        };
        download::download_text(name, mime, &text)?;
        Ok(name.to_string())
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
            running: 0,
            rows: Rc::default(),
            total: 0,
            pinned: Vec::new(),
            base: Vec::new(),
            export_status: String::new(),
            scenarios: Vec::new(),
            pool: None,
            sweep: 0,
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
                        if self.pool.is_none() {
                            let n = workers::per_core().min(self.total.max(1));
                            match Pool::new(n, ctx.link().callback(Msg::Worker)) {
                                Ok(p) => self.pool = Some(p),
                                Err(e) => {
                                    self.error = Some(e);
                                    self.pending.clear();
                                }
                            }
                        }
                        self.dispatch();
                    }
                    Err(e) => self.error = Some(e),
                }
                true
            }
            Msg::Stop => {
                // Stopping a worker is the only way to stop the point it runs.
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
                let ours = r.id >> 32 == self.sweep;
                match r.reply {
                    Reply::Ready => {}
                    _ if !ours => {}
                    Reply::Row(row) => {
                        self.running = self.running.saturating_sub(1);
                        let rows = Rc::make_mut(&mut self.rows);
                        let at = rows.partition_point(|x| x.index < row.index);
                        rows.insert(at, row);
                    }
                    Reply::Error(e) => {
                        self.running = self.running.saturating_sub(1);
                        self.error = Some(e);
                    }
                    Reply::Fit(_) | Reply::Progress { .. } | Reply::Report(_) => {}
                }
                self.dispatch();
                true
            }
            Msg::Pin(i) => {
                self.pin(i);
                true
            }
            Msg::Unpin(i) => {
                if i < self.pinned.len() {
                    self.pinned.remove(i);
                }
                true
            }
            Msg::Export(kind) => {
                self.export_status = match self.export(kind) {
                    Ok(name) => format!("Saved {name}."),
                    Err(e) => format!("Could not save: {e}"),
                };
                true
            }
        }
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let running = self.running > 0 || !self.pending.is_empty();
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
        let labels = pin_labels(
            &self
                .pinned
                .iter()
                .map(|p| (p.args.clone(), p.swept.clone()))
                .collect::<Vec<_>>(),
        );
        let pinned: Vec<(String, String, Row)> = self
            .pinned
            .iter()
            .zip(labels)
            .map(|(p, l)| (l, p.link.clone(), p.row.clone()))
            .collect();
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
                if let Some(p) = self.pool.as_ref() {
                    <p id="sweep-workers" class="hint" data-workers={p.len().to_string()}>
                        { format!("{} of {} points done, in {} Web Worker(s) (one per core).", self.rows.len(), self.total, p.len()) }
                    </p>
                }
                if let Some(e) = &self.error {
                    <div class="field-error" role="alert">{ e.clone() }</div>
                }
                <SweepResults keys={Rc::new(keys)} rows={self.rows.clone()} total={self.total}
                              pinned={Rc::new(pinned)} on_pin={link.callback(Msg::Pin)} on_unpin={link.callback(Msg::Unpin)}
                              on_export={link.callback(Msg::Export)} />
                if !self.export_status.is_empty() {
                    <p id="sweep-export-status" class="hint" role="status">{ self.export_status.clone() }</p>
                }
            </details>
        }
    }
}
