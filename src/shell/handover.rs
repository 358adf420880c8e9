//! The landing hands the page over to the whole app (only in the landing's build,
//! `mmcsim-landing`, without the `full` feature). The landing is the lesson and "Watch the
//! pipeline"; the Lab, the sweep and the gallery are placeholders. Opening one (their buttons,
//! the header's links) fetches the whole app, `mmcsim-web` (index.html's `mmcsimFull`), and
//! once it is compiled, the landing unmounts and the whole app mounts in its place on the same
//! URL: the scenario, the tour and its step, and the anchor of what was opened.

use std::cell::RefCell;

use wasm_bindgen::{closure::Closure, JsCast, JsValue};

/// The ids of what only the whole app has: a link to one of them opens it (index.html loads
/// the whole app directly for a URL with one of them as its anchor).
pub const FULL_ANCHORS: [&str; 3] = ["lab", "sweep", "gallery"];

thread_local! {
    /// The landing's app, unmounted when the whole app takes over.
    static LANDING: RefCell<Option<Box<dyn FnOnce()>>> = const { RefCell::new(None) };
    /// The whole app is on its way (a second click waits for the same one).
    static LOADING: RefCell<bool> = const { RefCell::new(false) };
}

/// Keeps what unmounts the landing's app (its handle's `destroy`) for the hand-over. A
/// closure rather than the `AppHandle<App>` itself: the app calls this file, so this file
/// names no `App` (no file circle, docs/ARCHITECTURE.md).
pub fn keep(unmount: impl FnOnce() + 'static) {
    LANDING.with(|l| *l.borrow_mut() = Some(Box::new(unmount)));
}

/// Follows the page's anchor: a link to the Lab, the sweep or the gallery (the header's, the
/// lesson's "Open the Lab") opens the whole app there.
pub fn follow_anchors() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let w = window.clone();
    gloo::events::EventListener::new(&window, "hashchange", move |_| {
        if let Some(id) = w.location().hash().ok().as_deref().and_then(wants_full) {
            to_full(id);
        }
    })
    .forget();
}

/// Opens the whole app at `anchor` (one of [`FULL_ANCHORS`]): the URL gets the anchor, then
/// index.html's `mmcsimFull` fetches and compiles mmcsim-web, calls back to unmount the landing,
/// and starts it.
pub fn to_full(anchor: &'static str) {
    if LOADING.with(|l| l.replace(true)) {
        return;
    }
    let Some(window) = web_sys::window() else {
        return;
    };
    if let (Ok(history), Ok(search)) = (window.history(), window.location().search()) {
        let url = format!("{}{search}#{anchor}", path(&window));
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&url));
    }
    let stop = Closure::once_into_js(|| {
        if let Some(unmount) = LANDING.with(|l| l.borrow_mut().take()) {
            unmount();
        }
    });
    let full = js_sys::Reflect::get(&window, &JsValue::from_str("mmcsimFull"))
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    match full {
        Some(f) => {
            let _ = f.call1(&JsValue::NULL, &stop);
        }
        None => crate::shell::panic::show("the page has no loader for the Lab (mmcsimFull)"),
    }
}

/// The page's path (without query and anchor).
fn path(window: &web_sys::Window) -> String {
    window.location().pathname().unwrap_or_else(|_| "/".into())
}

/// Whether the page's anchor asks for the whole app (a header link clicked on the landing).
pub fn wants_full(hash: &str) -> Option<&'static str> {
    let id = hash.trim_start_matches('#');
    FULL_ANCHORS.into_iter().find(|a| *a == id)
}
