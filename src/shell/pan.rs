//! The pipelines on a narrow screen (a phone), where each pans inside its own box: A and B pan
//! together (scrolling one scrolls the other to the same place), and the column a tour step or
//! a tap puts in focus (`g.stage.focused`) is panned to the middle of the box. Installed once
//! for the page's life; on a wide screen nothing overflows and nothing moves.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::events::{EventListener, EventListenerOptions, EventListenerPhase};
use wasm_bindgen::{closure::Closure, JsCast};
use web_sys::{Element, MutationObserver, MutationObserverInit};

/// The other side's pipeline box of `fig` (`#a-pipeline` <-> `#b-pipeline`).
fn other(fig: &Element) -> Option<Element> {
    let id = match fig.id().as_str() {
        "a-pipeline" => "b-pipeline",
        "b-pipeline" => "a-pipeline",
        _ => return None,
    };
    web_sys::window()?.document()?.get_element_by_id(id)
}

/// Pans the box holding `stage` so the column is in its middle, when the box overflows.
fn pan_to(stage: &Element) {
    let Some(fig) = stage.closest("figure.pipeline").ok().flatten() else {
        return;
    };
    if fig.scroll_width() <= fig.client_width() {
        return;
    }
    let (s, f) = (
        stage.get_bounding_client_rect(),
        fig.get_bounding_client_rect(),
    );
    let left = s.left() - f.left() + fig.scroll_left() as f64;
    let target = left - (fig.client_width() as f64 - s.width()) / 2.0;
    fig.set_scroll_left(target.max(0.0) as i32);
}

/// Installs the listeners (kept for the page's life).
pub fn install() {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    // Scroll events do not bubble: listen in the capture phase for every box's.
    let opts = EventListenerOptions {
        phase: EventListenerPhase::Capture,
        passive: true,
    };
    EventListener::new_with_options(&doc, "scroll", opts, |e| {
        let Some(fig) = e.target().and_then(|t| t.dyn_into::<Element>().ok()) else {
            return;
        };
        if let Some(o) = other(&fig) {
            if o.scroll_left() != fig.scroll_left() {
                o.set_scroll_left(fig.scroll_left());
            }
        }
    })
    .forget();
    // The column in focus, checked once per batch of changes (a frame's): panned to when it
    // changes, whether its class changed or the pipeline was drawn anew with it.
    let last: Rc<RefCell<Option<String>>> = Rc::default();
    let on_change = Closure::<dyn FnMut(js_sys::Array)>::new(move |_: js_sys::Array| {
        let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        let focused = doc
            .query_selector("figure.pipeline g.stage.focused")
            .ok()
            .flatten();
        let layer = focused.as_ref().and_then(|f| f.get_attribute("data-layer"));
        if *last.borrow() != layer {
            if let Some(f) = &focused {
                pan_to(f);
            }
            *last.borrow_mut() = layer;
        }
    });
    if let Ok(obs) = MutationObserver::new(on_change.as_ref().unchecked_ref()) {
        let init = MutationObserverInit::new();
        init.set_subtree(true);
        init.set_child_list(true);
        init.set_attributes(true);
        init.set_attribute_filter(&js_sys::Array::of1(&"class".into()));
        if let Some(body) = doc.body() {
            let _ = obs.observe_with_options(&body, &init);
        }
    }
    on_change.forget();
}
