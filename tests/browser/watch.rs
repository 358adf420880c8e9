//! "Watch the pipeline": play, pause, step, speed, keyboard, request selection and A/B, driven
//! as a user would, and the commands the page sends through the `command` prop (the gallery's
//! walk-through), read back from the DOM and the canvases.
//! A/B and the page's commands: watch_ab.rs; shared helpers: watch_kit.rs.

use mmcsim_components::LifeView;
use mmcsim_web::run::session::Session;
use mmcsim_web::watch::command::{Target, WatchAction};
use wasm_bindgen_test::wasm_bindgen_test;
use yew::Callback;

use crate::util::*;
use crate::watch_kit::*;

#[wasm_bindgen_test]
async fn step_runs_one_event_at_a_time_and_tokens_appear() {
    let root = mount(scenario(&[("size", "1m")]), None, Callback::noop()).await;
    assert_eq!(
        attr(&root, "#a-pipeline svg", "data-tokens"),
        "0",
        "nothing issued at t=0"
    );
    let before = clock(&root);
    click(&root, "#step");
    settle().await;
    assert!(
        attr(&root, "#a-pipeline svg", "data-tokens")
            .parse::<u32>()
            .unwrap()
            >= 1,
        "the job's first I/O is a token"
    );
    // A few more events: the request reaches the bus and the clock moves.
    step_until_arrived(&root, 50, |r| !attr(r, "#a-bus", "data-req").is_empty()).await;
    assert_ne!(clock(&root), before);
    assert!(by_sel(&root, "#a-pipeline .token[data-stage]").is_some());
}

#[wasm_bindgen_test]
async fn play_advances_simulated_time_and_pause_stops_it() {
    let root = mount(scenario(&[("size", "1m")]), None, Callback::noop()).await;
    click(&root, "#play");
    sleep(400).await;
    assert!(text(&root, "#play").contains("Pause"));
    click(&root, "#play");
    settle().await;
    let paused = clock(&root);
    assert_ne!(paused, "0.0 µs · 0 %", "time moved while playing");
    sleep(200).await;
    assert_eq!(clock(&root), paused, "paused: time stands still");
    assert!(text(&root, "#play").contains("Play"));
}

#[wasm_bindgen_test]
async fn speed_maps_real_time_to_simulated_time() {
    let root = mount(scenario(&[("size", "4m")]), None, Callback::noop()).await;
    // 2 µs of simulated time per second: 300 ms of real time is well under 2 µs.
    set_and_change(&root, "#speed", "0");
    settle().await;
    click(&root, "#play");
    sleep(300).await;
    click(&root, "#play");
    settle().await;
    assert!(clock(&root).contains("µs"), "slow motion: {}", clock(&root));
    // As fast as possible: the 4 MiB run ends within seconds and Play offers a replay.
    set_and_change(&root, "#speed", "8");
    settle().await;
    click(&root, "#play");
    let mut waited = 0;
    while !text(&root, "#play").contains("Replay") {
        assert!(waited < 30_000, "not finished after 30 s: {}", clock(&root));
        sleep(50).await;
        waited += 50;
    }
    assert!(clock(&root).ends_with("100 %"), "{}", clock(&root));
    // The live charts were drawn with A's series.
    let n = wait_pixels(&root, "#chart-throughput", [0x25, 0x63, 0xeb], 100).await;
    assert!(n > 100, "throughput line: {n} px");
    assert!(wait_pixels(&root, "#chart-latency", [0x25, 0x63, 0xeb], 50).await > 50);
}

#[wasm_bindgen_test]
async fn keyboard_space_plays_and_right_arrow_steps_but_not_in_a_text_field() {
    let root = mount(scenario(&[("size", "1m")]), None, Callback::noop()).await;
    let window: web_sys::EventTarget = web_sys::window().unwrap().into();
    key(&window, "ArrowRight");
    settle().await;
    assert!(
        attr(&root, "#a-pipeline svg", "data-tokens")
            .parse::<u32>()
            .unwrap()
            >= 1,
        "right arrow stepped"
    );
    // Typing in a field does not step.
    let input = document().create_element("input").unwrap();
    root.append_child(&input).unwrap();
    let c0 = clock(&root);
    for _ in 0..5 {
        key(&input, "ArrowRight");
    }
    settle().await;
    assert_eq!(clock(&root), c0);
    key(&window, " ");
    settle().await;
    assert!(text(&root, "#play").contains("Pause"), "space plays");
    key(&window, " ");
    settle().await;
    assert!(text(&root, "#play").contains("Play"), "space pauses");
}

#[wasm_bindgen_test]
async fn clicking_a_request_shows_its_life_and_a_column_its_kernel_functions() {
    let root = mount(scenario(&[("size", "1m")]), None, Callback::noop()).await;
    step_until_arrived(&root, 50, |r| !attr(r, "#a-bus", "data-req").is_empty()).await;
    fire(&root, "#a-pipeline .token", "click");
    settle().await;
    assert!(
        text(&root, "#explain-title").starts_with("Request "),
        "{}",
        text(&root, "#explain-title")
    );
    let life = by_sel(&root, "#request-life").expect("the request's life table");
    assert!(
        life.query_selector_all("tbody tr").unwrap().length() >= 2,
        "submit, ..., now"
    );
    assert!(by_sel(&root, "#request-life tr[data-stage=submit]").is_some());
    fire(&root, "#a-pipeline g[data-layer=HostQueue]", "click");
    settle().await;
    assert!(
        text(&root, "#explain-title").contains("hsq"),
        "{}",
        text(&root, "#explain-title")
    );
    assert!(text(&root, "#explain").contains("mmc_hsq_pump_requests"));
}

#[wasm_bindgen_test]
async fn packed_requests_leave_in_adma3_chains() {
    let a = scenario(&[("numjobs", "20"), ("packed", "8"), ("size", "256k")]);
    let root = mount(a, None, Callback::noop()).await;
    step_until(&root, 3000, |r| {
        attr(r, "#a-chain", "data-chained") == "true"
            && attr(r, "#a-chain", "data-len").parse::<u32>().unwrap_or(0) > 1
    })
    .await;
    assert!(
        text(&root, "#a-chain").contains("(ADMA3 chain)"),
        "{}",
        text(&root, "#a-chain")
    );
    assert_eq!(
        root.query_selector_all("#a-pipeline .desc")
            .unwrap()
            .length()
            .to_string(),
        attr(&root, "#a-chain", "data-len"),
        "one CMD + ADMA2 descriptor pair per request in the chain"
    );
}

#[wasm_bindgen_test]
async fn fua_writes_hold_the_card_busy_as_reliable_writes() {
    let a = scenario(&[
        ("platform", "unisoc-fua-2022"),
        ("rw", "randwrite"),
        ("size", "1m"),
    ]);
    let mut a = a;
    mmcsim_engine::scenario::apply_option(
        &mut a,
        mmcsim_engine::scenario::OptionScope::Global,
        "sync",
        Some("1"),
    )
    .unwrap();
    let root = mount(a, None, Callback::noop()).await;
    // The card's readout follows the token that arrives there (GLIDE_MS after the step): a
    // step taken before it arrived can move the run past the busy phase unseen.
    step_until_arrived(&root, 40, |r| by_sel(r, "#a-reliable").is_some()).await;
    assert!(
        by_sel(&root, "#a-pipeline .token.fua").is_some(),
        "the FUA write is drawn as a diamond"
    );
}

#[wasm_bindgen_test]
async fn crc_errors_show_the_recovery_path_at_the_controller() {
    let a = scenario(&[
        ("rw", "randread"),
        ("size", "1m"),
        ("inject_error", "crc:0.5"),
    ]);
    let root = mount(a, None, Callback::noop()).await;
    step_until(&root, 400, |r| by_sel(r, "#a-recovery").is_some()).await;
    let text = by_sel(&root, "#a-recovery")
        .unwrap()
        .text_content()
        .unwrap_or_default();
    assert!(text.contains("CMD13"), "{text}");
}

#[wasm_bindgen_test]
async fn dynamic_depth_widens_the_window_to_six_with_small_writes() {
    let a = scenario(&[
        ("platform", "unisoc-hsq-2023"),
        ("rw", "randwrite"),
        ("numjobs", "8"),
        ("size", "1m"),
    ]);
    let root = mount(a, None, Callback::noop()).await;
    assert_eq!(attr(&root, "#a-window", "data-window"), "3");
    step_until(&root, 3000, |r| attr(r, "#a-window", "data-window") == "6").await;
    assert!(
        // The depth is said with its +1, so it adds up to the window on screen.
        text(&root, "#a-depth").starts_with("hsq_depth 5+1"),
        "{}",
        text(&root, "#a-depth")
    );
}

#[wasm_bindgen_test]
fn a_request_life_folds_its_trace_into_stages_up_to_now() {
    let mut s = Session::watched(&scenario(&[("size", "64k")])).unwrap();
    assert!(s.advance_to(50_000, u64::MAX));
    let life = LifeView::from_trace(0, s.trace_of(0).unwrap(), s.now()).expect("a life");
    assert_eq!((life.id, life.job), (0, 0));
    assert_eq!(
        life.stages.first().map(|st| st.0),
        Some(mmcsim_engine::Stage::Submit)
    );
    let total: u64 = life.stages.iter().map(|st| st.2).sum();
    assert!(total <= 50_000);
    assert!(
        life.stages.windows(2).all(|w| w[0].0 != w[1].0),
        "one row per stage visit"
    );
    // At the end the request is done and its rows add up to its completion time.
    while !s.run_events(10_000) {}
    let life = LifeView::from_trace(0, s.trace_of(0).unwrap(), s.now()).unwrap();
    assert!(life.done);
    assert!(LifeView::from_trace(0, &[], 0).is_none());
}

#[wasm_bindgen_test]
async fn the_followed_request_says_why_it_was_slow() {
    // hsq's old dispatch order on the Allwinner board: some request waits while later ones go.
    let a = scenario(&[
        ("platform", "allwinner-hsq-2022"),
        ("rw", "randread"),
        ("numjobs", "8"),
        ("size", "4m"),
        ("mmc_path", "hsq"),
        ("hsq_dispatch", "next_tag"),
    ]);
    let mut plain = Session::start(&a).unwrap();
    while !plain.run_events(1 << 20) {}
    let (waited, id) = plain.report().sim.longest_host_wait;
    assert!(waited > 1_000_000, "the longest wait in hsq: {waited} ns");
    // When it is reaped (the page keeps the lives of the latest requests only).
    let mut watched = Session::watched(&a).unwrap();
    let done = |s: &Session| {
        s.trace_of(id)
            .is_some_and(|t| t.iter().any(|e| e.stage == mmcsim_engine::Stage::Done))
    };
    while !done(&watched) {
        assert!(
            !watched.run_events(1_000),
            "the run ended before request {id} was reaped"
        );
    }
    let t = watched.now();
    let root = mount(a, None, Callback::noop()).await;
    command(WatchAction::Seek(Some(t))).await;
    wait_paused(&root, 60_000).await;
    command(WatchAction::Focus(Some(Target::Request { b: false, id }))).await;
    let why = text(&root, "#request-why");
    assert!(why.contains("Why it took this long"), "{why}");
    assert!(why.contains("starvation"), "{why}");
    assert!(
        why.contains("arrived after it went to the bus first"),
        "{why}"
    );
}
