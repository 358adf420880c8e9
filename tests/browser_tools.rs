//! Browser tests of the components and the tools (gallery table, exports, sweep, fit),
//! mounted on their own.
//! Run by `make test-wasm` (wasm-bindgen-test-runner + chromedriver), one browser session per
//! file: the suite is split in three so that no runner invocation carries all of it (see the
//! Makefile's WASM_BINDGEN_TEST_TIMEOUT). Plain `#[test]`s would be skipped on wasm32.
#![cfg(target_arch = "wasm32")]

// Each file uses a part of the shared helpers.
#[path = "browser/components.rs"]
mod components;
#[path = "browser/tools.rs"]
mod tools;
#[allow(dead_code)]
#[path = "browser/util.rs"]
mod util;

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);
