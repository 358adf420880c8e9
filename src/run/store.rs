//! What the page keeps in the browser (localStorage, this origin only; nothing is sent
//! anywhere): the course's check (`crate::lesson::check`). A browser that refuses storage (a
//! private window's quota, storage turned off) keeps nothing and the page goes on.

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// The text kept under `key` (None: none, or no storage).
pub fn load(key: &str) -> Option<String> {
    storage()?.get_item(key).ok().flatten()
}

/// Keeps `value` under `key` (silently nothing without storage).
pub fn save(key: &str, value: &str) {
    if let Some(s) = storage() {
        let _ = s.set_item(key, value);
    }
}
