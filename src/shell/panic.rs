//! A panic hook that tells the user in the page (and the console), instead of a silently
//! frozen app. With `panic = "abort"` in the web profile the hook still runs before the abort.

use wasm_bindgen::JsCast;

/// Id of the element that shows the message (index.html has it; created when missing).
pub const PANIC_ELEMENT_ID: &str = "panic";

/// Installs the hook. Through Yew's `set_custom_panic_hook`: a plain `std::panic::set_hook`
/// would be replaced by Yew's console-only hook when the app is rendered.
pub fn install() {
    yew::set_custom_panic_hook(Box::new(|info| {
        let msg = info.to_string();
        web_sys::console::error_1(&format!("mmcsim panicked: {msg}").into());
        show(&msg);
    }));
}

/// Puts the message in the page's panic banner (creating it at the top of <body> if the page
/// has none) and makes it visible.
pub fn show(msg: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let el = match doc.get_element_by_id(PANIC_ELEMENT_ID) {
        Some(el) => el,
        None => {
            let Ok(el) = doc.create_element("div") else {
                return;
            };
            el.set_id(PANIC_ELEMENT_ID);
            if let Some(body) = doc.body() {
                let _ = body.prepend_with_node_1(&el);
            }
            el
        }
    };
    let _ = el.set_attribute("class", "panic");
    let _ = el.set_attribute("role", "alert");
    el.set_text_content(Some(&format!(
        "mmcsim stopped with an internal error: {msg}. Reload the page to start again; \
         if it happens again, please report it with the page's URL."
    )));
    if let Ok(h) = el.dyn_into::<web_sys::HtmlElement>() {
        h.set_hidden(false);
    }
}
