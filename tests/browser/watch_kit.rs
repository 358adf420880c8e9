//! What the Watch's browser tests share: mounting the Watch (one at a time), sending it the
//! page's commands, and reading the DOM and canvases back.

use std::cell::RefCell;

use mmcsim_engine::{Overrides, Scenario};
use mmcsim_web::run::engine_bridge::apply_control;
use mmcsim_web::watch::command::{Commands, WatchAction};
use mmcsim_web::watch::{Watch, WatchProps};
use wasm_bindgen::JsCast;
use web_sys::Element;
use yew::{AttrValue, Callback, Html};

use crate::util::*;

pub(crate) fn scenario(opts: &[(&str, &str)]) -> Scenario {
    let mut s = Scenario::default();
    for (k, v) in opts {
        s = apply_control(&s, k, v).unwrap_or_else(|e| panic!("{k}={v}: {e}"));
    }
    s
}

/// The Watch mounted by the running test, with what it was mounted with and the commands
/// sent to it.
pub(crate) struct Mounted {
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

pub(crate) async fn mount(
    a: Scenario,
    b: Option<Scenario>,
    on_b: Callback<Option<Overrides>>,
) -> Element {
    if let Some(m) = MOUNTED.with(|m| m.borrow_mut().take()) {
        m.handle.destroy();
    }
    let root = mount_point();
    let props = WatchProps {
        a: a.clone(),
        b: b.clone(),
        on_b: on_b.clone(),
        on_board_b: Callback::noop(),
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
pub(crate) async fn command(action: WatchAction) {
    MOUNTED.with(|m| {
        let mut m = m.borrow_mut();
        let m = m.as_mut().expect("a Watch is mounted");
        let command = Some(m.commands.send(action));
        let props = WatchProps {
            a: m.a.clone(),
            b: m.b.clone(),
            on_b: m.on_b.clone(),
            on_board_b: Callback::noop(),
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
pub(crate) async fn wait_pixels(root: &Element, sel: &str, rgb: [u8; 3], min: usize) -> usize {
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

pub(crate) async fn sleep(ms: u32) {
    gloo_timers::future::TimeoutFuture::new(ms).await;
}

pub(crate) fn clock(root: &Element) -> String {
    text(root, "#sim-clock")
}

pub(crate) fn attr(root: &Element, sel: &str, name: &str) -> String {
    by_sel(root, sel)
        .unwrap_or_else(|| panic!("no element matches {sel}"))
        .get_attribute(name)
        .unwrap_or_default()
}

/// A bubbling event of `kind` on the first element matching `sel` (SVG elements have no
/// `click()`).
pub(crate) fn fire(root: &Element, sel: &str, kind: &str) {
    let el = by_sel(root, sel).unwrap_or_else(|| panic!("no element matches {sel}"));
    let init = web_sys::MouseEventInit::new();
    init.set_bubbles(true);
    el.dispatch_event(&web_sys::MouseEvent::new_with_mouse_event_init_dict(kind, &init).unwrap())
        .unwrap();
}

pub(crate) fn key(target: &web_sys::EventTarget, k: &str) {
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
pub(crate) async fn step_until(
    root: &Element,
    max: usize,
    done: impl Fn(&Element) -> bool,
) -> usize {
    steps(root, max, 0, done).await
}

/// As [`step_until`], waiting after each step for the tokens to arrive: the pipeline's
/// counters and readouts change when the token that causes them does (`GLIDE_MS` later).
pub(crate) async fn step_until_arrived(
    root: &Element,
    max: usize,
    done: impl Fn(&Element) -> bool,
) -> usize {
    steps(root, max, mmcsim_web::watch::GLIDE_MS as u32 + 60, done).await
}

/// Clicks Step until `done` holds, waiting `wait_ms` more after each step.
async fn steps(root: &Element, max: usize, wait_ms: u32, done: impl Fn(&Element) -> bool) -> usize {
    for i in 0..max {
        if done(root) {
            return i;
        }
        click(root, "#step");
        settle().await;
        if wait_ms > 0 {
            gloo_timers::future::TimeoutFuture::new(wait_ms).await;
            settle().await;
        }
    }
    panic!("not reached after {max} steps");
}

/// Pixels of a canvas close to `rgb`.
pub(crate) fn pixels(root: &Element, sel: &str, rgb: [u8; 3]) -> usize {
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

/// Waits (up to `max_ms`) until the Play button no longer says Pause.
pub(crate) async fn wait_paused(root: &Element, max_ms: u32) {
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
