//! Components alone, given props.

use std::rc::Rc;

use mmcsim_components::{
    Measured, ProgressBar, ProgressBarProps, ResultsTable, ResultsTableProps, ThroughputChart,
    ThroughputChartProps,
};
use mmcsim_engine::metrics::{LatencyHistogram, SeriesPoint};
use mmcsim_engine::{DirStats, JobReport, Report, SimStats};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::wasm_bindgen_test;

use crate::util::*;

fn read_stats(ios: u64, runtime_ns: u64, lat_ns: &[u64]) -> DirStats {
    let mut clat = LatencyHistogram::new();
    for &l in lat_ns {
        clat.record(l);
    }
    DirStats {
        io_bytes: ios * 4096,
        total_ios: ios,
        runtime_ns,
        clat,
        prios: Vec::new(),
    }
}

fn report() -> Report {
    // 2 jobs x 12800 reads of 4 KiB in 1 s: 100 MiB/s, 25600 IOPS.
    let lat: Vec<u64> = (0..1000).map(|i| 60_000 + i * 10).collect();
    let job = |index| JobReport {
        name: "web".into(),
        index,
        read: read_stats(12_800, 1_000_000_000, &lat),
        write: DirStats::default(),
        trim: DirStats::default(),
        flushes: 0,
        errors: 0,
        runtime_ns: 1_000_000_000,
        groupid: 0,
        ramp_ios: 0,
        ioprio: Default::default(),
    };
    // A real (tiny) run's report with its figures replaced: stays valid when the engine adds
    // fields to Report.
    let mut scn = mmcsim_engine::Scenario::default();
    scn.jobs[0].size = 4096;
    let mut r = mmcsim_engine::run(&scn).expect("a one-I/O run");
    r.jobs = vec![job(0), job(1)];
    r.sim = SimStats {
        simulated_ns: 1_000_000_000,
        events: 123_456,
        interrupts: 8_000,
        batch_hist: vec![0, 4_000, 0, 4_000],
        ..Default::default()
    };
    r
}

#[wasm_bindgen_test]
async fn results_table_renders_a_report() {
    let root = mount_point();
    let props = ResultsTableProps {
        report: Rc::new(report()),
        measured: Some(Measured {
            measured: 95.0,
            simulated: Some(100.0),
            unit: "MiB/s".into(),
            column: "packed".into(),
            source: "a paper".into(),
            note: None,
        }),
    };
    yew::Renderer::<ResultsTable>::with_root_and_props(root.clone(), props).render();
    settle().await;
    assert_eq!(text(&root, "[data-metric=total-mib-s] .value"), "100.00");
    assert_eq!(
        text(&root, "[data-metric=total-iops] .value"),
        "25\u{2009}600"
    );
    assert_eq!(text(&root, "tr[data-metric=mib-s] td"), "100.00");
    assert_eq!(
        root.query_selector_all("thead th").unwrap().length(),
        2,
        "one direction: read"
    );
    let p50 = text(&root, "tr[data-metric=p50] td");
    assert!(
        p50.ends_with("µs") && p50.starts_with('6'),
        "p50 around 65 µs: {p50}"
    );
    assert_eq!(text(&root, "tr[data-metric=interrupts] td"), "8\u{2009}000");
    assert_eq!(text(&root, "tr[data-metric=avg-batch] td"), "2.00");
    let err = text(&root, "[data-metric=error]");
    assert!(
        err.starts_with("simulated ") && err.ends_with(" (+5.3 %)"),
        "{err}"
    );
    assert!(text(&root, ".source").contains("a paper"));
}

#[wasm_bindgen_test]
async fn a_run_the_model_left_unfinished_shows_no_figures_but_says_so() {
    let root = mount_point();
    let mut r = report();
    r.stranded_requests = 3;
    let props = ResultsTableProps {
        report: Rc::new(r),
        measured: None,
    };
    yew::Renderer::<ResultsTable>::with_root_and_props(root.clone(), props).render();
    settle().await;
    assert!(by_sel(&root, "[data-metric=total-mib-s]").is_none());
    let t = text(&root, ".stranded");
    assert!(
        t.starts_with(
            "The model stopped at 1000.000 ms of simulated time with 3 request(s) unfinished"
        ),
        "{t}"
    );
}

#[wasm_bindgen_test]
async fn progress_bar_reports_its_fraction() {
    let root = mount_point();
    let props = ProgressBarProps {
        fraction: 0.42,
        label: "1 ms simulated".into(),
    };
    yew::Renderer::<ProgressBar>::with_root_and_props(root.clone(), props).render();
    settle().await;
    let bar = by_sel(&root, "[role=progressbar]").unwrap();
    assert_eq!(bar.get_attribute("aria-valuenow").as_deref(), Some("42"));
    assert!(text(&root, ".progress-label").contains("1 ms simulated"));
}

/// Pixels of the canvas close to the series colour.
fn series_pixels(canvas: &web_sys::HtmlCanvasElement) -> usize {
    let ctx: web_sys::CanvasRenderingContext2d = canvas
        .get_context("2d")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    let data = ctx
        .get_image_data(0.0, 0.0, canvas.width() as f64, canvas.height() as f64)
        .unwrap()
        .data();
    let c = mmcsim_components::chart::LINE;
    data.chunks(4)
        .filter(|p| {
            (p[0] as i32 - c.0 as i32).abs() < 24
                && (p[1] as i32 - c.1 as i32).abs() < 24
                && (p[2] as i32 - c.2 as i32).abs() < 24
        })
        .count()
}

#[wasm_bindgen_test]
async fn chart_draws_the_series() {
    let root = mount_point();
    let points: Vec<SeriesPoint> = (0..50)
        .map(|i| SeriesPoint {
            t_ns: i * 1_000_000,
            width_ns: 1_000_000,
            read_bytes: 60 * 1024 * (i % 5 + 1),
            ios: 15,
            ..Default::default()
        })
        .collect();
    let props = ThroughputChartProps {
        points: Rc::new(points),
        width: 600,
        height: 240,
    };
    yew::Renderer::<ThroughputChart>::with_root_and_props(root.clone(), props).render();
    settle().await;
    let canvas: web_sys::HtmlCanvasElement = by_sel(&root, "canvas").unwrap().dyn_into().unwrap();
    assert!(
        series_pixels(&canvas) > 200,
        "the line is drawn: {} pixels",
        series_pixels(&canvas)
    );

    let empty = mount_point();
    let props = ThroughputChartProps {
        points: Rc::new(Vec::new()),
        width: 600,
        height: 240,
    };
    yew::Renderer::<ThroughputChart>::with_root_and_props(empty.clone(), props).render();
    settle().await;
    let canvas: web_sys::HtmlCanvasElement = by_sel(&empty, "canvas").unwrap().dyn_into().unwrap();
    assert_eq!(series_pixels(&canvas), 0, "no series before a run");
}

#[wasm_bindgen_test]
fn panic_banner_shows_the_message_in_the_page() {
    mmcsim_web::shell::panic::show("index out of bounds");
    let el = document()
        .get_element_by_id(mmcsim_web::shell::panic::PANIC_ELEMENT_ID)
        .expect("banner created");
    let text = el.text_content().unwrap_or_default();
    assert!(
        text.contains("index out of bounds") && text.contains("Reload"),
        "{text}"
    );
    assert!(!el.unchecked_ref::<web_sys::HtmlElement>().hidden());
    assert_eq!(el.get_attribute("role").as_deref(), Some("alert"));
}
