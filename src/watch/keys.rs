//! The time controls' keyboard shortcuts: space plays or pauses, the right arrow steps. Keys
//! typed into a form field (a control's value) are left alone, as are those with Ctrl, Alt or
//! Meta.

use gloo::events::{EventListener, EventListenerOptions};
use wasm_bindgen::JsCast;
use yew::Callback;

/// Whether a key press belongs to a form field (typing a value must not play or step).
fn typing(e: &web_sys::KeyboardEvent) -> bool {
    e.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .map(|el| {
            matches!(el.tag_name().as_str(), "INPUT" | "SELECT" | "TEXTAREA")
                || el.has_attribute("contenteditable")
        })
        .unwrap_or(false)
}

/// Listens on the window until dropped: space calls `on_play`, the right arrow `on_step`.
pub fn time_keys(on_play: Callback<()>, on_step: Callback<()>) -> Option<EventListener> {
    let w = web_sys::window()?;
    let opts = EventListenerOptions::enable_prevent_default();
    Some(EventListener::new_with_options(
        &w,
        "keydown",
        opts,
        move |e| {
            let Some(e) = e.dyn_ref::<web_sys::KeyboardEvent>() else {
                return;
            };
            if typing(e) || e.ctrl_key() || e.alt_key() || e.meta_key() {
                return;
            }
            let cb = match e.key().as_str() {
                " " => &on_play,
                "ArrowRight" => &on_step,
                _ => return,
            };
            e.prevent_default();
            cb.emit(());
        },
    ))
}
