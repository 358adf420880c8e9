//! Live charts of a watched run, redrawn while it runs: throughput and IOPS over simulated
//! time, requests in flight over time, the completion-latency CDF with p50/p99 marked and
//! beside it the latency percentiles p1 ... p99.99 on log scales (the tail spread out), and the
//! batch-size histogram (requests completed per interrupt). With an A/B comparison both sides
//! share the axes: A in blue, B in orange.
//!
//! plotters on canvases, like [`crate::chart`]; drawing is in [`draw`].

pub mod canvas;
pub mod draw;

use std::rc::Rc;

use mmcsim_engine::metrics::SeriesPoint;
use mmcsim_engine::Report;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

/// What the charts show of one side.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SideChart {
    pub series: Vec<SeriesPoint>,
    /// (latency ns, fraction of completions at or below it).
    pub cdf: Vec<(u64, f64)>,
    pub p50: u64,
    pub p99: u64,
    /// (percentile, latency ns) for fio's default list (p1 ... p99.99), from the engine's
    /// streamed histogram; empty before the first completion.
    pub percentiles: Vec<(f64, u64)>,
    /// Interrupts that completed `i` requests, at index `i`.
    pub batch_hist: Vec<u64>,
}

impl SideChart {
    /// A side's charts from its time series and its report so far.
    pub fn of(series: Vec<SeriesPoint>, r: &Report) -> SideChart {
        let (cdf, p50, p99) = crate::figures::latency_cdf(r);
        SideChart {
            series,
            cdf,
            p50,
            p99,
            percentiles: crate::figures::latency_percentiles(r),
            batch_hist: r.sim.batch_hist.clone(),
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct ChartData {
    pub a: SideChart,
    pub b: Option<SideChart>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChartKind {
    Throughput,
    Latency,
    Percentiles,
    Inflight,
    Batch,
}

impl ChartKind {
    /// In the page's order: two to a row, so the percentiles sit beside the CDF.
    pub const ALL: [ChartKind; 5] = [
        ChartKind::Throughput,
        ChartKind::Inflight,
        ChartKind::Latency,
        ChartKind::Percentiles,
        ChartKind::Batch,
    ];
    pub fn id(self) -> &'static str {
        match self {
            ChartKind::Throughput => "chart-throughput",
            ChartKind::Latency => "chart-latency",
            ChartKind::Percentiles => "chart-percentiles",
            ChartKind::Inflight => "chart-inflight",
            ChartKind::Batch => "chart-batch",
        }
    }
    pub fn caption(self) -> &'static str {
        match self {
            ChartKind::Throughput => "Throughput: MiB/s (solid, left axis) and IOPS (thin, right axis) over simulated time",
            ChartKind::Latency => "Completion latency (clat) CDF, p50 and p99 marked",
            ChartKind::Percentiles => "Completion latency percentiles p1 … p99.99 (fio's list): the tail spread out (log of 1/(100 − p)), latency on a log scale",
            ChartKind::Inflight => "Requests in flight (past blk-mq, not yet completed), average per bucket",
            ChartKind::Batch => "Requests completed per interrupt (share of interrupts)",
        }
    }
}

#[derive(Properties, PartialEq)]
pub struct LiveChartsProps {
    /// The data of each chart, in [`ChartKind::ALL`] order (the app may hand fresh data to one
    /// chart per frame, so no frame redraws all five canvases).
    pub data: [Rc<ChartData>; 5],
}

#[derive(Properties, PartialEq)]
struct CanvasProps {
    kind: ChartKind,
    data: Rc<ChartData>,
}

/// `data-empty` says a chart has nothing drawn yet ("Charts PNG" leaves it out rather than
/// save an empty frame).
#[function_component(ChartCanvas)]
fn chart_canvas(p: &CanvasProps) -> Html {
    let canvas = use_node_ref();
    {
        let canvas = canvas.clone();
        let kind = p.kind;
        // Drawn in a task of its own after the render (a chart with its axes' text is 5-15 ms:
        // five of them in the render's task held the page's first render over 100 ms, issue
        // 22); newer data cancels a draw not yet made.
        use_effect_with(p.data.clone(), move |data| {
            let data = data.clone();
            let draw = gloo_timers::callback::Timeout::new(0, move || {
                if let Some(c) = canvas.cast::<HtmlCanvasElement>() {
                    if let Err(e) = draw::draw(kind, c, &data) {
                        web_sys::console::error_1(&format!("{}: {e}", kind.id()).into());
                    }
                }
            });
            move || drop(draw)
        });
    }
    // The percentile chart says which p99 each side's point stands at (tests and assistive
    // technology read it; the canvas only draws it).
    let p99 = |s: &SideChart| {
        s.percentiles
            .iter()
            .find(|(q, _)| *q == 99.0)
            .map(|(_, v)| v.to_string())
    };
    let (p99_a, p99_b) = match p.kind {
        ChartKind::Percentiles => (p99(&p.data.a), p.data.b.as_ref().and_then(p99)),
        _ => (None, None),
    };
    html! {
        <figure class="chart small-chart">
            <canvas ref={canvas} id={p.kind.id()} width="560" height="220" aria-label={p.kind.caption()}
                    data-empty={p.data.a.series.is_empty().to_string()}
                    data-p99-a={p99_a} data-p99-b={p99_b}></canvas>
            <figcaption>{ p.kind.caption() }</figcaption>
        </figure>
    }
}

#[function_component(LiveCharts)]
pub fn live_charts(p: &LiveChartsProps) -> Html {
    html! {
        <div class="live-charts">
            if p.data[0].b.is_some() {
                <p class="ab-key"><span class="key-a">{ "■ A" }</span>{ " " }<span class="key-b">{ "■ B" }</span></p>
            }
            <div class="chart-grid">
                { for ChartKind::ALL.iter().zip(p.data.iter()).map(|(&kind, data)| html! { <ChartCanvas {kind} data={data.clone()} /> }) }
            </div>
        </div>
    }
}
