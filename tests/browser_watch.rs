//! Browser tests of the pipeline view (Watch): play, pause, step, follow a request, the
//! A/B pair.
//! Run by `make test-wasm` (wasm-bindgen-test-runner + chromedriver), one browser session per
//! file: the suite is split in three so that no runner invocation carries all of it (see the
//! Makefile's WASM_BINDGEN_TEST_TIMEOUT). Plain `#[test]`s would be skipped on wasm32.
#![cfg(target_arch = "wasm32")]

// Each file uses a part of the shared helpers.
#[allow(dead_code)]
#[path = "browser/util.rs"]
mod util;
#[path = "browser/watch.rs"]
mod watch;
#[path = "browser/watch_ab.rs"]
mod watch_ab;
#[path = "browser/watch_kit.rs"]
mod watch_kit;

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);
