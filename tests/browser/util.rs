//! Mounting and DOM helpers shared by the browser tests.

use wasm_bindgen::JsCast;
use web_sys::{Element, Event, EventInit, HtmlInputElement, HtmlSelectElement};

pub fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

/// A fresh element under <body> to mount one test's component in.
pub fn mount_point() -> Element {
    let doc = document();
    let el = doc.create_element("div").unwrap();
    doc.body().unwrap().append_child(&el).unwrap();
    el
}

/// Lets Yew run its scheduled renders and effects.
pub async fn settle() {
    for _ in 0..3 {
        gloo_timers::future::TimeoutFuture::new(0).await;
    }
}

/// The whole page mounted (its URL left alone), once the Lab is drawn: the page draws what
/// follows the lesson a task after its first render (`Msg::ShowRest`), and a loaded machine may
/// run other timers between the two. Waits up to 5 s.
pub async fn mount_app() -> Element {
    let root = mount_point();
    yew::Renderer::<mmcsim_web::App>::with_root_and_props(
        root.clone(),
        mmcsim_web::AppProps { use_url: false },
    )
    .render();
    for _ in 0..500 {
        if by_sel(&root, "#run").is_some() {
            break;
        }
        gloo_timers::future::TimeoutFuture::new(10).await;
    }
    assert!(
        by_sel(&root, "#run").is_some(),
        "the Lab was not drawn within 5 s"
    );
    settle().await;
    root
}

pub fn by_sel(root: &Element, sel: &str) -> Option<Element> {
    root.query_selector(sel).unwrap()
}

pub fn text(root: &Element, sel: &str) -> String {
    by_sel(root, sel)
        .unwrap_or_else(|| panic!("no element matches {sel}"))
        .text_content()
        .unwrap_or_default()
}

/// The value of an <input> or <select>.
pub fn value(root: &Element, sel: &str) -> String {
    let el = by_sel(root, sel).unwrap_or_else(|| panic!("no element matches {sel}"));
    if let Some(i) = el.dyn_ref::<HtmlInputElement>() {
        i.value()
    } else {
        el.dyn_ref::<HtmlSelectElement>()
            .expect("input or select")
            .value()
    }
}

/// Types `v` into an <input> or picks it in a <select>, then fires a bubbling `change`, as a
/// browser does when the user leaves the field (Yew listens at the root).
pub fn set_and_change(root: &Element, sel: &str, v: &str) {
    let el = by_sel(root, sel).unwrap_or_else(|| panic!("no element matches {sel}"));
    if let Some(i) = el.dyn_ref::<HtmlInputElement>() {
        i.set_value(v);
    } else {
        el.dyn_ref::<HtmlSelectElement>()
            .expect("input or select")
            .set_value(v);
    }
    let init = EventInit::new();
    init.set_bubbles(true);
    el.dispatch_event(&Event::new_with_event_init_dict("change", &init).unwrap())
        .unwrap();
}

pub fn click(root: &Element, sel: &str) {
    let el = by_sel(root, sel).unwrap_or_else(|| panic!("no element matches {sel}"));
    el.dyn_ref::<web_sys::HtmlElement>()
        .expect("html element")
        .click();
}

/// Waits until the running run shows progress and returns its percentage (no fixed wait: how
/// far a run gets in a given time depends on the machine). Fails after 60 s without progress.
pub async fn under_way(root: &Element) -> u32 {
    let pct = || -> u32 {
        by_sel(root, "[role=progressbar]")
            .and_then(|e| e.get_attribute("aria-valuenow"))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    let mut waited_ms = 0;
    while pct() == 0 {
        assert!(waited_ms < 60_000, "no progress after 60 s");
        gloo_timers::future::TimeoutFuture::new(10).await;
        waited_ms += 10;
    }
    pct()
}
