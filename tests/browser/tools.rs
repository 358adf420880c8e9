//! Job files, the gallery, the exports and the plug: as the page shows them, and the text the
//! exports produce.

use std::rc::Rc;

use mmcsim_components::gallery::{GalleryRow, GalleryTable, GalleryTableProps};
use mmcsim_engine::Scenario;
use mmcsim_web::gallery::TableRun;
use mmcsim_web::run::session::Session;
use mmcsim_web::tools::exports;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::wasm_bindgen_test;
use yew::Callback;

use crate::util::*;

/// Pastes `text` in the job-file box and presses Load text.
async fn load_jobfile(root: &web_sys::Element, text: &str) {
    let area = by_sel(root, "#jobfile-text").expect("job file box");
    js_sys::Reflect::set(&area, &JsValue::from_str("value"), &JsValue::from_str(text)).unwrap();
    click(root, "#jobfile-load");
    settle().await;
}

async fn wait_for(root: &web_sys::Element, sel: &str, what: &str) {
    let mut waited_ms = 0;
    while by_sel(root, sel).is_none() {
        assert!(waited_ms < 60_000, "no {what} after 60 s");
        gloo_timers::future::TimeoutFuture::new(20).await;
        waited_ms += 20;
    }
    settle().await;
}

#[wasm_bindgen_test]
async fn a_job_file_with_an_error_names_the_line_and_keeps_the_scenario() {
    let root = mount_app().await;
    set_and_change(&root, "#ctl-bs", "512k");
    settle().await;
    let before = text(&root, "#command-line");
    load_jobfile(
        &root,
        "[global]\nplatform=unisoc-fua-2022\n\n[w]\nrw=randwrite\nbs=4q\n",
    )
    .await;
    let msg = text(&root, "#jobfile-error");
    assert!(
        msg.contains("line 6: bs"),
        "names the line and the option: {msg}"
    );
    assert!(msg.contains("unchanged"), "says the scenario stays: {msg}");
    assert_eq!(text(&root, "#command-line"), before);
    assert_eq!(value(&root, "#ctl-bs"), "512k");

    // A limit the simulator checks as a whole is refused the same way.
    load_jobfile(&root, "[a]\npacked=8\nmmc_path=legacy\n").await;
    assert!(by_sel(&root, "#jobfile-error").is_some());
    assert_eq!(text(&root, "#command-line"), before);
}

#[wasm_bindgen_test]
async fn a_valid_job_file_becomes_the_scenario() {
    let root = mount_app().await;
    load_jobfile(
        &root,
        "; FUA off\n[global]\nplatform=unisoc-fua-2022\nfua=0\n\n[w]\nrw=randwrite\nbs=4k\nsync=1\nsize=2m\n",
    )
    .await;
    assert!(by_sel(&root, "#jobfile-error").is_none());
    assert!(text(&root, "#jobfile-status").contains("Loaded"));
    let cmd = text(&root, "#command-line");
    assert!(
        cmd.contains("--platform=unisoc-fua-2022")
            && cmd.contains("--sync=1")
            && cmd.contains("--fua=0"),
        "{cmd}"
    );
    assert_eq!(value(&root, "#ctl-platform"), "unisoc-fua-2022");
    assert_eq!(value(&root, "#ctl-rw"), "randwrite");
    assert_eq!(value(&root, "#ctl-size"), "2m");
}

#[wasm_bindgen_test]
async fn the_gallery_table_renders_a_row_per_case_with_simulated_figures() {
    // The FUA series at 1 MiB per job: four cases, both columns, in slices.
    let mut t = TableRun::new("unisoc-fua-2022", 1 << 20);
    let mut slices = 0;
    while !t.step(5_000).unwrap() {
        slices += 1;
    }
    assert!(slices > 4, "ran in slices: {slices}");
    let rows: Vec<GalleryRow> = t
        .rows()
        .iter()
        .map(|r| GalleryRow {
            case: r.case_index,
            workload: r.case.label(),
            measured: r.case.measured,
            simulated: r.simulated,
            outlier: None,
        })
        .collect();
    let root = mount_point();
    let props = GalleryTableProps {
        rows: Rc::new(rows),
        unit: "MiB/s".into(),
        columns: ("fua_off".into(), "fua_on".into()),
        tolerance_pct: 15.0,
        on_open_case: Callback::noop(),
    };
    yew::Renderer::<GalleryTable>::with_root_and_props(root.clone(), props).render();
    settle().await;
    let rows = root.query_selector_all("tbody tr[data-case]").unwrap();
    assert_eq!(rows.length(), 4);
    assert_eq!(
        text(
            &root,
            "tr[data-workload='randwrite 4KiB'] [data-col=measured-b]"
        ),
        "12.68"
    );
    let sim: f64 = text(&root, "tr[data-workload='randwrite 4KiB'] [data-col=sim-b]")
        .parse()
        .unwrap();
    assert!(
        (10.0..16.0).contains(&sim),
        "FUA-on random writes simulated: {sim}"
    );
    assert!(by_sel(&root, ".pending").is_none(), "every cell filled");
}

#[wasm_bindgen_test]
async fn a_gallery_card_loads_its_pair_and_starts_the_table() {
    let root = mount_app().await;
    click(&root, ".gallery-card[data-series='unisoc-hsq-2023']");
    settle().await;
    assert_eq!(value(&root, "#ctl-platform"), "unisoc-hsq-2023");
    assert_eq!(
        value(&root, "#ctl-hsq_depth"),
        "2",
        "column A: the fixed depth"
    );
    assert_eq!(
        root.query_selector_all(".gallery-table tbody tr[data-case]")
            .unwrap()
            .length(),
        4
    );
    // B differs in a host switch: the pipeline view compares A and B side by side.
    assert!(
        by_sel(&root, "#watch .side.b").is_some(),
        "A/B comparison on"
    );
    assert!(by_sel(&root, "#b-link").is_none());
    assert!(text(&root, ".stepper").contains("Step 1 of"));

    // The 2011 series' B is another mmc_test case, not a host switch: watched beside A all
    // the same (the tour keeps the pair on screen), and carried by the link.
    click(&root, ".gallery-card[data-series='u300-mmci-2011']");
    settle().await;
    assert!(by_sel(&root, "#watch .side.b").is_some(), "A/B on screen");
    assert!(text(&root, "#command-line-b").contains("mmc_test=38"));
}

#[wasm_bindgen_test]
async fn the_walk_through_plays_pauses_and_points_in_the_pipeline_view() {
    let root = mount_app().await;
    click(&root, ".gallery-card[data-series='unisoc-fua-2022']");
    settle().await;
    let step = |n: usize, label: &str| {
        assert_eq!(
            by_sel(&root, ".stepper")
                .unwrap()
                .get_attribute("data-step"),
            Some(n.to_string())
        );
        let button = text(&root, ".stepper-do");
        assert!(button.contains(label), "step {n}: {button}");
        click(&root, ".stepper-do");
    };
    step(0, "Load A");
    settle().await;
    assert_eq!(value(&root, "#ctl-fua"), "0");
    step(1, "Play at 200 µs/s");
    settle().await;
    let play = || {
        by_sel(&root, "#play")
            .unwrap()
            .get_attribute("aria-pressed")
    };
    assert_eq!(play().as_deref(), Some("true"), "the pipeline view plays");
    assert_eq!(value(&root, "#speed"), "3", "at 200 µs/s");
    gloo_timers::future::TimeoutFuture::new(200).await;
    step(2, "Pause");
    settle().await;
    assert_eq!(play().as_deref(), Some("false"), "and pauses");
    assert_ne!(text(&root, "#sim-clock"), "0.0 µs · 0 %");
    step(3, "Show: storage chip (eMMC");
    settle().await;
    assert!(
        by_sel(&root, "#watch g.stage.focused[data-layer=Card]").is_some(),
        "the card's column is selected"
    );
    assert!(text(&root, "#explain-title").contains("eMMC"));
}

#[wasm_bindgen_test]
fn exports_produce_the_expected_text() {
    let mut scn = Scenario::default();
    scn.jobs[0].size = 256 << 10;
    let mut sim = Session::start(&scn).unwrap();
    while !sim.run_events(u64::MAX) {}
    let report = sim.report();
    let json = exports::fio_json(&scn, &report);
    assert!(
        json.starts_with("{\n  \"fio version\" : \"mmcsim-"),
        "{}",
        &json[..40]
    );
    let csv = exports::series_csv(&sim.series());
    assert!(csv.starts_with("t_ms,mib_s,iops,read_mib_s,write_mib_s,avg_inflight\n"));
    assert!(csv.lines().count() > 2);
    let trace = exports::trace_json(&scn).unwrap();
    assert!(trace.starts_with("{\"traceEvents\":["));
    assert!(trace.trim_end().ends_with('}'));
    let job = exports::jobfile_text(&scn).unwrap();
    assert!(job.contains("[test]") || job.contains('['), "{job}");
    assert_eq!(
        exports::scenario_from_jobfile(&job).unwrap(),
        scn,
        "the job file reads back"
    );
    assert_eq!(
        exports::file_name(&scn, "json"),
        "mmcsim-sprd-hs400es-2020-read-4k.json"
    );
}

/// Writes that asked for no durability (no sync=1, no fsync) are acknowledged from the card's
/// cache; a power cut loses them, and the report says why. (O_SYNC writes with FUA off are not
/// lost: the block layer flushes behind each; the engine's power_cut tests hold that.)
#[wasm_bindgen_test]
async fn pulling_the_plug_of_plain_writes_shows_the_lost_writes() {
    let root = mount_app().await;
    load_jobfile(
        &root,
        "[global]\nplatform=sprd-hs400es-2020\n[w]\nrw=randwrite\nbs=4k\nsize=4g\nnumjobs=8\n",
    )
    .await;
    click(&root, "#run");
    // Pull the plug once the run is under way (8 million writes: seconds of engine time; no
    // fixed wait, how far a run gets in a given time depends on the machine).
    let pct = under_way(&root).await;
    assert!(pct < 100, "the run ended before the plug: {pct} %");
    click(&root, "#pull-plug");
    wait_for(&root, "#power-cut", "power-cut report").await;
    let lost: u64 = text(&root, "[data-metric=lost-acked-writes] td")
        .chars()
        .filter(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .unwrap();
    assert!(lost > 0, "acknowledged writes lost");
    assert!(
        text(&root, "#power-cut").contains("no sync=1"),
        "explains why"
    );
    assert!(by_sel(&root, "#power-cut .lost-range").is_some());
}
