//! "Watch the pipeline": play, pause, step, speed, keyboard, request selection and A/B, driven
//! as a user would, and the commands the page sends through the `command` prop (the gallery's
//! walk-through), read back from the DOM and the canvases.

use std::cell::RefCell;
use std::rc::Rc;

use mmcsim_components::LifeView;
use mmcsim_engine::explain::Layer;
use mmcsim_engine::{Overrides, Scenario};
use mmcsim_web::shell::engine_bridge::apply_control;
use mmcsim_web::shell::session::Session;
use mmcsim_web::watch::command::{Commands, Target, WatchAction};
use mmcsim_web::watch::live::b_scenario;
use mmcsim_web::watch::speed::speed_index;
use mmcsim_web::watch::{Watch, WatchProps};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::wasm_bindgen_test;
use web_sys::Element;
use yew::{AttrValue, Callback, Html};

use crate::util::*;

fn scenario(opts: &[(&str, &str)]) -> Scenario {
    let mut s = Scenario::default();
    for (k, v) in opts {
        s = apply_control(&s, k, v).unwrap_or_else(|e| panic!("{k}={v}: {e}"));
    }
    s
}

/// The Watch mounted by the running test, with what it was mounted with and the commands
/// sent to it.
struct Mounted {
    handle: yew::AppHandle<Watch>,
    a: Scenario,
    b: Option<Scenario>,
    on_b: Callback<Option<Overrides>>,
    commands: Commands,
}

thread_local! {
    /// The previous test's Watch is destroyed first, so its window key listener and animation
    /// frames do not act on this one.
    static MOUNTED: RefCell<Option<Mounted>> = const { RefCell::new(None) };
}

async fn mount(a: Scenario, b: Option<Scenario>, on_b: Callback<Option<Overrides>>) -> Element {
    if let Some(m) = MOUNTED.with(|m| m.borrow_mut().take()) {
        m.handle.destroy();
    }
    let root = mount_point();
    let props = WatchProps {
        a: a.clone(),
        b: b.clone(),
        on_b: on_b.clone(),
        command: None,
        link_base: AttrValue::default(),
        on_run: Callback::noop(),
        children: Html::default(),
        compact: false,
    };
    let handle = yew::Renderer::<Watch>::with_root_and_props(root.clone(), props).render();
    let commands = Commands::default();
    MOUNTED.with(|m| {
        *m.borrow_mut() = Some(Mounted {
            handle,
            a,
            b,
            on_b,
            commands,
        })
    });
    settle().await;
    root
}

/// Sends `action` to the mounted Watch through its `command` prop, as the page does.
async fn command(action: WatchAction) {
    MOUNTED.with(|m| {
        let mut m = m.borrow_mut();
        let m = m.as_mut().expect("a Watch is mounted");
        let command = Some(m.commands.send(action));
        let props = WatchProps {
            a: m.a.clone(),
            b: m.b.clone(),
            on_b: m.on_b.clone(),
            command,
            link_base: AttrValue::default(),
            on_run: Callback::noop(),
            children: Html::default(),
            compact: false,
        };
        m.handle.update(props);
    });
    settle().await;
}

/// Waits (up to 2 s) for a canvas to show at least `min` pixels of a colour: charts are drawn
/// by effects after the render that changed their data.
async fn wait_pixels(root: &Element, sel: &str, rgb: [u8; 3], min: usize) -> usize {
    let mut n = 0;
    for _ in 0..40 {
        n = pixels(root, sel, rgb);
        if n > min {
            break;
        }
        sleep(50).await;
    }
    n
}

async fn sleep(ms: u32) {
    gloo_timers::future::TimeoutFuture::new(ms).await;
}

fn clock(root: &Element) -> String {
    text(root, "#sim-clock")
}

fn attr(root: &Element, sel: &str, name: &str) -> String {
    by_sel(root, sel)
        .unwrap_or_else(|| panic!("no element matches {sel}"))
        .get_attribute(name)
        .unwrap_or_default()
}

/// A bubbling event of `kind` on the first element matching `sel` (SVG elements have no
/// `click()`).
fn fire(root: &Element, sel: &str, kind: &str) {
    let el = by_sel(root, sel).unwrap_or_else(|| panic!("no element matches {sel}"));
    let init = web_sys::MouseEventInit::new();
    init.set_bubbles(true);
    el.dispatch_event(&web_sys::MouseEvent::new_with_mouse_event_init_dict(kind, &init).unwrap())
        .unwrap();
}

fn key(target: &web_sys::EventTarget, k: &str) {
    let init = web_sys::KeyboardEventInit::new();
    init.set_key(k);
    init.set_bubbles(true);
    init.set_cancelable(true);
    target
        .dispatch_event(
            &web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap(),
        )
        .unwrap();
}

/// Clicks Step until `done` holds (at most `max` times); returns the steps taken.
async fn step_until(root: &Element, max: usize, done: impl Fn(&Element) -> bool) -> usize {
    for i in 0..max {
        if done(root) {
            return i;
        }
        click(root, "#step");
        settle().await;
    }
    panic!("not reached after {max} steps");
}

/// As [`step_until`], waiting after each step for the tokens to arrive: the pipeline's
/// counters and readouts change when the token that causes them does (`GLIDE_MS` later).
async fn step_until_arrived(root: &Element, max: usize, done: impl Fn(&Element) -> bool) -> usize {
    for i in 0..max {
        if done(root) {
            return i;
        }
        click(root, "#step");
        settle().await;
        gloo_timers::future::TimeoutFuture::new(mmcsim_web::watch::GLIDE_MS as u32 + 60).await;
        settle().await;
    }
    panic!("not reached after {max} steps");
}

/// Pixels of a canvas close to `rgb`.
fn pixels(root: &Element, sel: &str, rgb: [u8; 3]) -> usize {
    let c: web_sys::HtmlCanvasElement = root
        .query_selector(sel)
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    let ctx: web_sys::CanvasRenderingContext2d =
        c.get_context("2d").unwrap().unwrap().dyn_into().unwrap();
    let d = ctx
        .get_image_data(0.0, 0.0, c.width() as f64, c.height() as f64)
        .unwrap()
        .data();
    d.chunks(4)
        .filter(|p| (0..3).all(|i| (p[i] as i32 - rgb[i] as i32).abs() < 24))
        .count()
}

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
        text(&root, "#a-depth").contains("5 (dynamic)"),
        "{}",
        text(&root, "#a-depth")
    );
}

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

/// Waits (up to `max_ms`) until the Play button no longer says Pause.
async fn wait_paused(root: &Element, max_ms: u32) {
    let mut waited = 0;
    while attr(root, "#play", "aria-pressed") == "true" {
        assert!(
            waited < max_ms,
            "still running after {max_ms} ms: {}",
            clock(root)
        );
        sleep(50).await;
        waited += 50;
    }
    settle().await;
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
