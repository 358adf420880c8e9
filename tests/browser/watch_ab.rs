//! "Watch the pipeline" with a B scenario beside A (both pipelines, overlaid charts, the
//! change, B's host switches), and the commands the page sends through the `command` prop
//! (the gallery's walk-through: play at a speed, pause, point at a layer, seek).

use std::cell::RefCell;
use std::rc::Rc;

use mmcsim_engine::explain::Layer;
use mmcsim_engine::Overrides;
use mmcsim_web::run::pair::b_scenario;
use mmcsim_web::run::speed::speed_index;
use mmcsim_web::watch::command::{Target, WatchAction};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::wasm_bindgen_test;
use yew::Callback;

use crate::util::*;
use crate::watch_kit::*;

#[wasm_bindgen_test]
async fn ab_shows_both_pipelines_overlaid_charts_and_the_change() {
    let a = scenario(&[("numjobs", "20"), ("packed", "8"), ("size", "512k")]);
    let b = b_scenario(&a, &scenario(&[("packed", "0")]).overrides);
    let root = mount(a, Some(b), Callback::noop()).await;
    assert!(by_sel(&root, "#a-pipeline").is_some() && by_sel(&root, "#b-pipeline").is_some());
    assert_eq!(value(&root, "#b-ctl-packed"), "0");
    set_and_change(&root, "#speed", "8");
    settle().await;
    click(&root, "#play");
    let mut waited = 0;
    while !text(&root, "#play").contains("Replay") {
        assert!(waited < 60_000, "A/B not finished after 60 s");
        sleep(50).await;
        waited += 50;
    }
    settle().await;
    let change = text(&root, "#ab-table tr[data-metric=mib-s] td.change");
    let pct: f64 = change.trim_end_matches(" %").parse().unwrap();
    assert!(
        pct < -40.0,
        "non-packed B is far slower than packed A: {change}"
    );
    let per_irq = text(&root, "#ab-table tr[data-metric=per-irq] td.change");
    assert!(per_irq.starts_with('-'), "{per_irq}");
    // Both sides on the same axes.
    assert!(
        wait_pixels(&root, "#chart-throughput", [0x25, 0x63, 0xeb], 50).await > 50,
        "A's line"
    );
    assert!(
        wait_pixels(&root, "#chart-throughput", [0xea, 0x58, 0x0c], 50).await > 50,
        "B's line"
    );
    assert!(
        wait_pixels(&root, "#chart-batch", [0xea, 0x58, 0x0c], 50).await > 50,
        "B's batch bars"
    );
}

#[wasm_bindgen_test]
async fn compare_switch_and_b_controls_report_b_host_switches() {
    let got: Rc<RefCell<Vec<Option<Overrides>>>> = Rc::default();
    let sink = got.clone();
    let a = scenario(&[("numjobs", "20")]);
    let root = mount(
        a.clone(),
        None,
        Callback::from(move |h| sink.borrow_mut().push(h)),
    )
    .await;
    let toggle = by_sel(&root, "#ab-toggle").unwrap();
    toggle
        .dyn_ref::<web_sys::HtmlInputElement>()
        .unwrap()
        .set_checked(true);
    set_and_change(&root, "#ab-toggle", "on");
    settle().await;
    let first = got.borrow().last().cloned().flatten().expect("B turned on");
    assert_eq!(
        first.get("packed"),
        Some(&8),
        "on this platform B starts as the packed-chain contrast"
    );
    // With B mounted, a B control reports B's new switches.
    let b = b_scenario(&a, &first);
    let root2 = mount(
        a,
        Some(b),
        Callback::from({
            let sink = got.clone();
            move |h| sink.borrow_mut().push(h)
        }),
    )
    .await;
    set_and_change(&root2, "#b-ctl-packed", "4");
    settle().await;
    assert_eq!(
        got.borrow()
            .last()
            .cloned()
            .flatten()
            .and_then(|h| h.get("packed").copied()),
        Some(4)
    );
    set_and_change(&root2, "#b-ctl-packed", "many");
    settle().await;
    assert!(
        text(&root2, "#err-b").starts_with("B: packed"),
        "{}",
        text(&root2, "#err-b")
    );
}

#[wasm_bindgen_test]
async fn commands_play_at_a_speed_pause_and_point_at_a_layer() {
    let root = mount(scenario(&[("size", "4m")]), None, Callback::noop()).await;
    let slow = speed_index("200 µs/s").unwrap();
    command(WatchAction::Play(Some(slow))).await;
    assert_eq!(attr(&root, "#play", "aria-pressed"), "true");
    assert_eq!(value(&root, "#speed"), slow.to_string());
    sleep(300).await;
    command(WatchAction::Pause).await;
    assert_eq!(attr(&root, "#play", "aria-pressed"), "false");
    let paused = clock(&root);
    assert_ne!(paused, "0.0 µs · 0 %", "time moved while playing");
    // The same command again is a new command: still paused, nothing else changes.
    command(WatchAction::Pause).await;
    assert_eq!(attr(&root, "#play", "aria-pressed"), "false");
    assert_eq!(clock(&root), paused);
    // Pointing at a layer selects and explains it, as a click on its column does.
    command(WatchAction::Focus(Some(Target::Layer(Layer::Card)))).await;
    assert!(by_sel(&root, "#a-pipeline g.stage.focused[data-layer=Card]").is_some());
    assert!(
        text(&root, "#explain-title").contains("eMMC"),
        "{}",
        text(&root, "#explain-title")
    );
    command(WatchAction::Focus(None)).await;
    assert!(by_sel(&root, "g.stage.focused").is_none());
    assert_eq!(text(&root, "#explain-title"), "What is happening");
    // A speed command changes the speed and leaves play/pause alone.
    command(WatchAction::Speed(0)).await;
    assert_eq!(value(&root, "#speed"), "0");
    assert_eq!(attr(&root, "#play", "aria-pressed"), "false");
}

#[wasm_bindgen_test]
async fn commands_seek_to_a_time_back_in_time_and_to_the_end() {
    let a = scenario(&[("numjobs", "20"), ("packed", "8"), ("size", "256k")]);
    let b = b_scenario(&a, &scenario(&[("packed", "0")]).overrides);
    let root = mount(a, Some(b), Callback::noop()).await;
    command(WatchAction::Seek(Some(3_000_000))).await;
    wait_paused(&root, 30_000).await;
    assert!(clock(&root).starts_with("3.000 ms"), "{}", clock(&root));
    assert!(
        attr(&root, "#a-pipeline svg", "data-tokens")
            .parse::<u32>()
            .unwrap()
            > 0
    );
    // Back in time: the run starts again and stops at the earlier time.
    command(WatchAction::Seek(Some(1_000_000))).await;
    wait_paused(&root, 30_000).await;
    assert!(clock(&root).starts_with("1.000 ms"), "{}", clock(&root));
    // To the end: both sides finish, Play offers a replay, the A/B table has the run.
    command(WatchAction::Seek(None)).await;
    wait_paused(&root, 60_000).await;
    assert!(text(&root, "#play").contains("Replay"));
    assert!(clock(&root).ends_with("100 %"), "{}", clock(&root));
    let change = text(&root, "#ab-table tr[data-metric=mib-s] td.change");
    assert!(change.starts_with('-'), "non-packed B is slower: {change}");
}

/// Each side says, under its pipeline, the what-ifs it runs and the options without effect in
/// it (issue 28): A packed (the 2020 RFC, never merged), B asking for command queueing on a
/// board whose card has no queue (it runs legacy, and says why).
#[wasm_bindgen_test]
async fn each_side_says_its_what_ifs_and_warnings() {
    let a = scenario(&[("packed", "8"), ("size", "64k")]);
    let b = scenario(&[
        ("platform", "qemu-sdhci-pci"),
        ("mmc_path", "cqe"),
        ("size", "64k"),
    ]);
    let root = mount(a, Some(b), Callback::noop()).await;
    let a_notes = text(&root, ".side.a .side-notes");
    assert!(
        a_notes.starts_with("what-if: packed=8 — a 2020 RFC (ADMA3), never merged: mainline sends one request per command"),
        "{a_notes}"
    );
    let b_notes = text(&root, ".side.b .side-notes");
    assert!(
        b_notes.starts_with("warning: mmc_path: cqe not run: the SD card has no command queue"),
        "{b_notes}"
    );
    // A side that runs a kernel's path and every option it is given says nothing.
    let root = mount(scenario(&[("size", "64k")]), None, Callback::noop()).await;
    assert_eq!(text(&root, ".side.a .side-notes"), "");
}
