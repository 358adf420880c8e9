//! Browser tests of the web app: mount the app or a component in headless Chromium, act as a
//! user would (set a control, press Run), and read the DOM. Run by `make test-wasm`
//! (wasm-bindgen-test-runner + chromedriver); plain `#[test]`s would be skipped on wasm32.
#![cfg(target_arch = "wasm32")]

mod app;
mod bridge;
mod components;
mod tools;
mod util;
mod watch;

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);
