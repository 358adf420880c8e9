//! The whole page: controls go through the engine's parser; Run drives the simulator.

use wasm_bindgen_test::wasm_bindgen_test;

use crate::util::*;

#[wasm_bindgen_test]
async fn invalid_value_shows_the_parsers_message_and_keeps_the_previous_value() {
    let root = mount_app().await;
    assert_eq!(value(&root, "#ctl-bs"), "4k");
    set_and_change(&root, "#ctl-bs", "4q");
    settle().await;
    let msg = text(&root, "#err-bs");
    assert!(msg.starts_with("bs"), "message names the option: {msg}");
    assert!(
        msg.contains("kept 4k"),
        "message says what stays in effect: {msg}"
    );
    // The refused text stays in its field beside the message (which says what is in effect),
    // so clearing or correcting it is an edit, and the edit clears the message.
    assert_eq!(
        value(&root, "#ctl-bs"),
        "4q",
        "the field keeps the refused text"
    );
    assert!(by_sel(&root, ".field.invalid #ctl-bs").is_some());
    assert!(
        !text(&root, "#command-line").contains("--bs="),
        "the scenario keeps the default bs"
    );

    // The same bad text again: still rejected, still said to keep 4k.
    set_and_change(&root, "#ctl-bs", "4q");
    settle().await;
    assert!(text(&root, "#err-bs").contains("kept 4k"));

    // A good value clears the message and reaches the scenario.
    set_and_change(&root, "#ctl-bs", "512k");
    settle().await;
    assert!(by_sel(&root, "#err-bs").is_none());
    assert_eq!(value(&root, "#ctl-bs"), "512k");
    assert!(text(&root, "#command-line").contains("--bs=512k"));
}

#[wasm_bindgen_test]
async fn out_of_range_numbers_are_rejected() {
    let root = mount_app().await;
    set_and_change(&root, "#ctl-numjobs", "0");
    settle().await;
    assert!(by_sel(&root, "#err-numjobs").is_some());
    assert_eq!(value(&root, "#ctl-numjobs"), "0");
    assert!(text(&root, "#err-numjobs").contains("kept 1"));
    set_and_change(&root, "#ctl-numjobs", "20");
    settle().await;
    assert!(by_sel(&root, "#err-numjobs").is_none());
    assert!(text(&root, "#command-line").contains("--numjobs=20"));
}

#[wasm_bindgen_test]
async fn host_switches_show_and_restore_the_platform_default() {
    let root = mount_app().await;
    assert_eq!(value(&root, "#ctl-fua"), "");
    set_and_change(&root, "#ctl-fua", "0");
    settle().await;
    assert!(text(&root, "#command-line").contains("--fua=0"));
    set_and_change(&root, "#ctl-fua", "");
    settle().await;
    assert!(!text(&root, "#command-line").contains("--fua"));
    // Another preset: its name reaches the scenario.
    set_and_change(&root, "#ctl-platform", "u300-mmci-2011");
    settle().await;
    assert!(text(&root, "#command-line").contains("--platform=u300-mmci-2011"));
}

#[wasm_bindgen_test]
async fn run_simulates_in_frames_and_shows_the_report() {
    let root = mount_app().await;
    set_and_change(&root, "#ctl-size", "8m");
    settle().await;
    click(&root, "#run");
    settle().await;
    // Runs across animation frames: the page gets a Stop button meanwhile.
    let mut waited_ms = 0;
    while by_sel(&root, "[data-metric=total-mib-s]").is_none() {
        assert!(waited_ms < 60_000, "no results after 60 s");
        gloo_timers::future::TimeoutFuture::new(50).await;
        waited_ms += 50;
    }
    settle().await;
    let mib_s: f64 = text(&root, "[data-metric=total-mib-s] .value")
        .parse()
        .unwrap();
    assert!((10.0..1000.0).contains(&mib_s), "plausible MiB/s: {mib_s}");
    assert_eq!(
        by_sel(&root, "[role=progressbar]")
            .unwrap()
            .get_attribute("aria-valuenow")
            .as_deref(),
        Some("100")
    );
    assert!(by_sel(&root, "#run").is_some(), "Run is back");
    assert!(text(&root, "tr[data-metric=p99] td").ends_with('s'));
    // 8 MiB of 4 KiB reads by one job.
    assert_eq!(text(&root, "tr[data-metric=ios] td"), "2\u{2009}048");
}

async fn run_to_results(root: &web_sys::Element) {
    click(root, "#run");
    let mut waited_ms = 0;
    while by_sel(root, "[data-metric=total-mib-s]").is_none() {
        assert!(waited_ms < 60_000, "no results after 60 s");
        gloo_timers::future::TimeoutFuture::new(50).await;
        waited_ms += 50;
    }
    settle().await;
}

#[wasm_bindgen_test]
async fn stop_pauses_the_one_run_without_a_report() {
    let root = mount_app().await;
    // 20 jobs x 1800 MiB of 4 KiB reads (9.2 million requests, near the I/O budget): seconds
    // of engine time even untraced, far more than the frames it takes to see the run under way.
    set_and_change(&root, "#ctl-numjobs", "20");
    set_and_change(&root, "#ctl-size", "1800m");
    settle().await;
    click(&root, "#run");
    // Stop as soon as the run shows progress (no fixed wait: how far a run gets in a given
    // time depends on the machine).
    let pct = under_way(&root).await;
    assert!(pct < 100, "still running once under way: {pct} %");
    click(&root, "#stop");
    settle().await;
    assert!(by_sel(&root, "#run").is_some());
    assert!(by_sel(&root, "#stop").is_none());
    assert!(by_sel(&root, "[data-metric=total-mib-s]").is_none());
    // The run the results follow is the pipeline view's: it stands paused there.
    assert!(
        text(&root, ".progress-label").ends_with("paused"),
        "{}",
        text(&root, ".progress-label")
    );
    assert!(text(&root, "#play").contains("Play"));
}

#[wasm_bindgen_test]
async fn a_measured_case_shows_the_published_figure_and_the_error() {
    let root = mount_app().await;
    // The 2020 packed-request RFC's non-packed sequential read: 20 psync jobs of 4 KiB reads
    // on the default platform (measured 60.68 MiB/s); any size matches.
    set_and_change(&root, "#ctl-numjobs", "20");
    set_and_change(&root, "#ctl-size", "1m");
    settle().await;
    run_to_results(&root).await;
    assert_eq!(text(&root, "[data-metric=measured] .value"), "60.68");
    let err = text(&root, "[data-metric=error]");
    // "simulated 62.10 MiB/s (+2.3 %)": the simulated figure in the measured one's unit.
    assert!(
        err.starts_with("simulated ") && err.contains(" MiB/s ("),
        "{err}"
    );
    let pct: f64 = err
        .rsplit('(')
        .next()
        .unwrap()
        .trim_end_matches(" %)")
        .parse()
        .unwrap();
    assert!(pct.abs() < 15.0, "within the calibration tolerance: {err}");
    assert!(
        text(&root, "#results .source").contains("packed request"),
        "{}",
        text(&root, "#results .source")
    );
}

#[wasm_bindgen_test]
async fn a_combination_the_simulator_refuses_is_shown_at_its_control() {
    let root = mount_app().await;
    // packed=16 passes the option parser (2..=16) but the default platform's ADMA3 chains
    // hold at most 8: the simulator refuses it when Run is pressed.
    set_and_change(&root, "#ctl-packed", "16");
    settle().await;
    assert!(by_sel(&root, "#err-packed").is_none());
    click(&root, "#run");
    settle().await;
    let msg = text(&root, "#err-packed");
    assert!(msg.starts_with("packed") && msg.contains('8'), "{msg}");
    assert_eq!(
        value(&root, "#ctl-packed"),
        "16",
        "the value stays for the user to fix"
    );
    assert!(by_sel(&root, "#run").is_some(), "no run started");
    assert!(by_sel(&root, "[data-metric=total-mib-s]").is_none());
}
