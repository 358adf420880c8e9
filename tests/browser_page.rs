//! Browser tests of the whole page: mount the app, act as a user would (set a control,
//! press Run), read the DOM; and the bridge between the page and the engine's option language.
//! Run by `make test-wasm` (wasm-bindgen-test-runner + chromedriver), one browser session per
//! file: the suite is split in three so that no runner invocation carries all of it (see the
//! Makefile's WASM_BINDGEN_TEST_TIMEOUT). Plain `#[test]`s would be skipped on wasm32.
#![cfg(target_arch = "wasm32")]

// Each file uses a part of the shared helpers.
#[path = "browser/app.rs"]
mod app;
#[path = "browser/bridge.rs"]
mod bridge;
#[allow(dead_code)]
#[path = "browser/util.rs"]
mod util;

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);
