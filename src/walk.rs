//! Gallery walk-through steps that act on the "Watch the pipeline" view (`watch.rs`): play at
//! a speed, pause, point at a layer.
//!
//! The watch view owns its clock and takes no commands through its props, so a step does what
//! a reader would do: it uses the view's own controls (`#speed`, `#play`, a layer's frame
//! `g.stage[data-layer]` in the first pipeline, whose click selects the layer and explains it).
//! The end-to-end test of the gallery walks these steps, so a renamed control fails it.

use mmcsim_engine::explain::Layer;
use wasm_bindgen::JsCast;
use web_sys::{Element, Event, EventInit, HtmlElement, HtmlSelectElement};

use crate::live::SPEEDS;

fn find(sel: &str) -> Option<Element> {
    web_sys::window()?.document()?.query_selector(sel).ok()?
}

fn bubbling(name: &str) -> Option<Event> {
    let init = EventInit::new();
    init.set_bubbles(true);
    Event::new_with_event_init_dict(name, &init).ok()
}

/// Brings the watch view into sight.
fn show_watch() {
    if let Some(w) = find("#watch") {
        w.scroll_into_view();
    }
}

fn playing() -> bool {
    find("#play")
        .and_then(|b| b.get_attribute("aria-pressed"))
        .as_deref()
        == Some("true")
}

fn click(sel: &str) {
    if let Some(b) = find(sel).and_then(|e| e.dyn_into::<HtmlElement>().ok()) {
        b.click();
    }
}

/// Sets the speed control to `label` (one of [`SPEEDS`]) and plays.
pub fn play_at(label: &str) {
    show_watch();
    if let (Some(i), Some(sel)) = (
        SPEEDS.iter().position(|s| s.label == label),
        find("#speed").and_then(|e| e.dyn_into::<HtmlSelectElement>().ok()),
    ) {
        sel.set_value(&i.to_string());
        if let Some(ev) = bubbling("change") {
            let _ = sel.dispatch_event(&ev);
        }
    }
    if !playing() {
        click("#play");
    }
}

/// Pauses the watch view.
pub fn pause() {
    show_watch();
    if playing() {
        click("#play");
    }
}

/// Selects `layer` in the first pipeline: it is outlined and the "What is happening" panel
/// explains it, with its kernel functions.
pub fn point_at(layer: Layer) {
    show_watch();
    let sel = format!("#watch g.stage[data-layer=\"{layer:?}\"]");
    if let Some(g) = find(&sel) {
        if !g.class_list().contains("focused") {
            if let Some(ev) = bubbling("click") {
                let _ = g.dispatch_event(&ev);
            }
        }
    }
}
