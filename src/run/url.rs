//! The page's URL and scrolling: the query string read at start and on back/forward, the URL
//! kept in step with the page, an anchor scrolled to.

/// The page's query string, with its '?'.
pub fn url_search() -> String {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default()
}

/// Writes the URL: `push` makes a history entry (a tour step), else the current one is replaced.
pub fn write_url(query: &str, push: bool) {
    let Some(w) = web_sys::window() else { return };
    let loc = w.location();
    let path = loc.pathname().unwrap_or_default();
    let hash = loc.hash().unwrap_or_default();
    let url = format!("{path}?{query}{hash}");
    if let Ok(h) = w.history() {
        let _ = if push {
            h.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url))
        } else {
            h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url))
        };
    }
}

/// Scrolls the element of id `id` into view.
pub fn scroll_to(id: &str) {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
    {
        el.scroll_into_view();
    }
}

/// The anchor of the page's URL, without its '#' (None: none).
pub fn anchor() -> Option<String> {
    let hash = web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default();
    hash.strip_prefix('#')
        .filter(|h| !h.is_empty())
        .map(str::to_string)
}
