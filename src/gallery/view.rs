//! The gallery section of the page: the series of the registry as cards; the open one's
//! caption, walk-through and the authors' table, whose simulated columns the engine fills a
//! budgeted slice per animation frame (so the page stays responsive while 16 runs complete).

use std::rc::Rc;

use gloo::render::{request_animation_frame, AnimationFrame};
use mmcsim_components::{GalleryCard, GalleryCards, GalleryRow, GalleryTable, Stepper, WalkStep};
use mmcsim_engine::calibration::CASES;
use mmcsim_engine::explain::{layer_info, Layer};
use mmcsim_engine::{MmcPath, Scenario};
use yew::prelude::*;

use crate::gallery::{self, entries, Entry, StepAction, TableRun};
use crate::run::slicer::{now_ms, Slicer};
use crate::series::case_pair;
use crate::watch::command::WatchAction;

/// Wall-clock budget of the table's slice per frame, ms: less than a run's, so a run and the
/// table can share a frame.
const TABLE_BUDGET_MS: f64 = 5.0;

#[derive(Properties, PartialEq)]
pub struct GalleryPanelProps {
    /// A scenario to load: (A, Some(B)) opens an A/B pair, (scenario, None) one scenario.
    pub on_open: Callback<(Scenario, Option<Scenario>)>,
    /// Walk-through actions for the page: `RunToEnd`, `PlugAt`.
    pub on_action: Callback<StepAction>,
    /// Walk-through steps on "Watch the pipeline" (play at a speed, pause, point at a layer),
    /// as the commands the page hands to its `command` prop.
    pub on_watch: Callback<WatchAction>,
    /// Start the tour of a series (its platform).
    #[prop_or_default]
    pub on_tour: Callback<&'static str>,
}

pub enum Msg {
    Select(String),
    OpenCase(usize),
    Step(usize),
    Frame,
}

pub struct GalleryPanel {
    entries: Vec<Entry>,
    cards: Rc<Vec<GalleryCard>>,
    selected: Option<usize>,
    table: Option<TableRun>,
    rows: Rc<Vec<GalleryRow>>,
    error: Option<String>,
    slicer: Slicer,
    frame: Option<AnimationFrame>,
    table_ref: NodeRef,
    /// Entries whose walk-through carries its pair's simulated figures.
    figured: std::collections::BTreeSet<usize>,
}

fn layer_name(layer: Layer) -> &'static str {
    layer_info(layer, MmcPath::Hsq).title
}

impl GalleryPanel {
    fn rows_of(table: &TableRun) -> Rc<Vec<GalleryRow>> {
        Rc::new(
            table
                .rows()
                .iter()
                .map(|r| GalleryRow {
                    case: r.case_index,
                    workload: r.case.label(),
                    measured: r.case.measured,
                    simulated: r.simulated,
                    outlier: r.case.outlier.map(str::to_string),
                })
                .collect(),
        )
    }

    fn schedule(&mut self, ctx: &Context<Self>) {
        let link = ctx.link().clone();
        self.frame = Some(request_animation_frame(move |_| {
            link.send_message(Msg::Frame)
        }));
    }

    fn steps(entry: &Entry) -> Rc<Vec<WalkStep>> {
        let cols = entry.series.columns;
        Rc::new(
            entry
                .steps
                .iter()
                .map(|s| WalkStep {
                    text: s.text.clone(),
                    button: match s.action {
                        StepAction::Load(false) => Some(format!("Load A ({})", cols.0)),
                        StepAction::Load(true) => Some(format!("Load B ({})", cols.1)),
                        StepAction::Play(speed) => Some(format!("Play at {speed}")),
                        StepAction::Pause => Some("Pause".to_string()),
                        StepAction::Highlight(l) => Some(format!("Show: {}", layer_name(l))),
                        StepAction::RunToEnd => Some("Run to the end".to_string()),
                        StepAction::PlugAt(t) => Some(format!("Pull the plug at {t}")),
                        StepAction::Compare => {
                            Some(format!("Show the table ({} rows)", entry.cases().len()))
                        }
                    },
                })
                .collect::<Vec<_>>(),
        )
    }
}

impl Component for GalleryPanel {
    type Message = Msg;
    type Properties = GalleryPanelProps;

    fn create(_ctx: &Context<Self>) -> Self {
        let entries = entries();
        let cards = Rc::new(
            entries
                .iter()
                .map(|e| GalleryCard {
                    id: e.series.id.to_string(),
                    change: e.series.change.to_string(),
                    kernel: e.kernel.to_string(),
                    source: e.series.source.to_string(),
                    hardware: e.series.hardware.to_string(),
                })
                .collect(),
        );
        GalleryPanel {
            entries,
            cards,
            selected: None,
            table: None,
            rows: Rc::default(),
            error: None,
            slicer: Slicer::default(),
            frame: None,
            table_ref: NodeRef::default(),
            figured: Default::default(),
        }
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::Select(id) => self.select(ctx, id),
            Msg::OpenCase(case) => self.open_case(ctx, case),
            Msg::Step(k) => self.step(ctx, k),
            Msg::Frame => {
                self.frame = None;
                let Some(table) = self.table.as_mut() else {
                    return false;
                };
                let mut failed = None;
                let done = self.slicer.run_slice(
                    |n| match table.step(n) {
                        Ok(d) => d,
                        Err(e) => {
                            failed = Some(e.to_string());
                            true
                        }
                    },
                    now_ms,
                    TABLE_BUDGET_MS,
                );
                self.rows = Self::rows_of(table);
                if let Some(e) = failed {
                    self.error = Some(e);
                } else if !done {
                    self.schedule(ctx);
                }
                true
            }
        }
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let selected = self
            .selected
            .map(|i| AttrValue::from(self.entries[i].series.id));
        html! {
            <section class="panel gallery" id="gallery" aria-label="Gallery of the seed experiments">
                <h2>{ "Gallery: the measured patch series" }</h2>
                <p class="help">{ "Each card is a kernel change its authors measured on real hardware. Open one to load it as an A/B pair (change off, change on), follow its walk-through, and see the authors' table recomputed by the simulator in your browser." }</p>
                <GalleryCards cards={self.cards.clone()} {selected} on_select={link.callback(Msg::Select)} />
                if let Some(e) = self.selected.map(|i| &self.entries[i]) {
                    { self.detail(ctx, e) }
                }
            </section>
        }
    }
}

impl GalleryPanel {
    fn detail(&self, ctx: &Context<Self>, e: &Entry) -> Html {
        let link = ctx.link();
        let s = e.series;
        let (_, _, query) = e.pair(e.size());
        let progress = self.table.as_ref().map(|t| t.progress()).unwrap_or(0.0);
        let done = self.table.as_ref().is_some_and(|t| t.is_done());
        html! {
            <div class="gallery-detail" data-series={s.id}>
                <h3>{ s.change }</h3>
                <p class="gallery-caption">{ e.kernel }</p>
                <p class="source">{ "Source: " }<cite>{ s.source }</cite>{ ". Hardware: " }{ s.hardware }{ "." }</p>
                <p class="source">{ "Authors' command: " }<code>{ s.command }</code></p>
                <p class="gallery-link">{ format!("Loaded {} as an A/B pair: ", e.label()) }
                    <a id="gallery-ab-link" href={format!("?{query}")}
                       onclick={link.callback(|e: MouseEvent| { e.prevent_default(); Msg::OpenCase(usize::MAX) })}>{ "link" }</a></p>
                <div class="gallery-columns">
                    <div class="gallery-walk">
                        <h4>{ "Tour" }</h4>
                        <p>{ "The tour keeps this A/B pair on screen in the pipeline view, asks you to predict the effect, runs it, and points at the numbers that explain it." }</p>
                        <button class="button primary take-tour" data-tour={s.id}
                                onclick={ctx.props().on_tour.reform({ let id = s.id; move |_| id })}>{ "Take the tour ▸" }</button>
                        <details class="walk-old">
                            <summary>{ e.walk_title() }</summary>
                            <Stepper key={s.id} steps={Self::steps(e)} on_action={link.callback(Msg::Step)} />
                        </details>
                    </div>
                    <div class="gallery-results" ref={self.table_ref.clone()}>
                        <h4>{ "The authors' table, simulated" }
                            if !done {
                                <span class="gallery-progress" id="gallery-progress">{ format!(" computing… {:.0} %", progress * 100.0) }</span>
                            }
                        </h4>
                        if self.rows.is_empty() {
                            <p class="gallery-no-table" id="gallery-no-table">{ e.data.no_table().unwrap_or_default() }</p>
                        } else {
                            <GalleryTable rows={self.rows.clone()} unit={s.unit.name()}
                                          columns={(AttrValue::from(s.columns.0), AttrValue::from(s.columns.1))}
                                          on_open_case={link.callback(Msg::OpenCase)} />
                        }
                        if let Some(note) = e.size_note() {
                            <p class="source">{ note }</p>
                        }
                        if let Some(note) = e.runs_note() {
                            <p class="source" id="gallery-runs-note">{ note }</p>
                        }
                        if let Some(err) = &self.error {
                            <p class="error" role="alert">{ err }</p>
                        }
                    </div>
                </div>
            </div>
        }
    }
}

impl GalleryPanel {
    /// Opens the entry of card `id`: its pair loaded, its walk-through's figures computed (once),
    /// its table started.
    fn select(&mut self, ctx: &Context<Self>, id: String) -> bool {
        let Some(i) = self.entries.iter().position(|e| e.series.id == id) else {
            return false;
        };
        // The open entry's walk-through states what its pair shows: run once, on opening.
        if self.figured.insert(i) {
            match gallery::with_figures(self.entries[i].series.id) {
                Ok(full) => self.entries[i] = full,
                Err(e) => self.error = Some(e.message),
            }
        }
        let e = &self.entries[i];
        let (a, b, _) = e.pair(e.size());
        ctx.props().on_open.emit((a, Some(b)));
        if self.selected != Some(i) {
            self.selected = Some(i);
            let table = TableRun::new(e.series.id, e.size());
            self.rows = Self::rows_of(&table);
            self.table = Some(table);
            self.error = None;
            self.schedule(ctx);
        }
        true
    }

    /// Loads a case of the table (usize::MAX: the open entry's headline case, its "link").
    fn open_case(&mut self, ctx: &Context<Self>, case: usize) -> bool {
        // usize::MAX: the open entry's headline case (its "link", kept in this page).
        let case = match (case, self.selected) {
            (usize::MAX, Some(i)) => {
                let e = &self.entries[i];
                match e.headline {
                    Some(h) => h,
                    None => {
                        let (a, b, _) = e.pair(e.size());
                        ctx.props().on_open.emit((a, Some(b)));
                        return false;
                    }
                }
            }
            _ => case,
        };
        let Some(c) = CASES.get(case) else {
            return false;
        };
        let (a, b, _) = case_pair(c, crate::series::gallery_size(c.platform));
        ctx.props().on_open.emit((a, Some(b)));
        false
    }

    /// Does what walk-through step `k` says.
    fn step(&mut self, ctx: &Context<Self>, k: usize) -> bool {
        let Some(e) = self.selected.map(|i| &self.entries[i]) else {
            return false;
        };
        let Some(step) = e.steps.get(k) else {
            return false;
        };
        match step.action {
            StepAction::Load(b) => {
                let (sa, sb, _) = e.pair(e.size());
                if b {
                    ctx.props().on_open.emit((sb, None));
                } else {
                    ctx.props().on_open.emit((sa, Some(sb)));
                }
            }
            StepAction::Compare => {
                if let Some(el) = self.table_ref.cast::<web_sys::Element>() {
                    el.scroll_into_view();
                }
            }
            other => match other.watch_action() {
                Some(command) => ctx.props().on_watch.emit(command),
                None => ctx.props().on_action.emit(other),
            },
        }
        false
    }
}
