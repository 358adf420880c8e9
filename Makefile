# mmcsim: set-up, build and tests of the web app, plus the native tests of the engine and CLI.
#
#   make setup   install what this machine lacks (skips what is present at the right version)
#   make serve   trunk serve on http://127.0.0.1:8080 (dev build, rebuilds on change)
#   make build   release build of the web app into dist/
#   make test    native tests, headless browser tests (wasm-bindgen-test), end-to-end test
#   make bench-web  frame time of the pipeline view in headless Chromium
#   make docs-screenshots  refresh the README's pictures in docs/ (tests save to target/screenshots/)
#
# Everything runs offline: tools are pinned and installed once by scripts/setup.sh.

SHELL := bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := test

# Tools installed by scripts/setup.sh come first, ahead of any other copy on the machine.
export PATH := $(HOME)/.cargo/bin:$(CURDIR)/node_modules/.bin:$(PATH)

# Crates whose tests run natively (plain #[test]s are silently skipped on wasm32).
# Extend this list rather than adding another cargo test line.
# mmcsim (the web app) too: its plain-logic modules (gallery, exports) have #[test]s; its
# browser tests are wasm32-only and compile to nothing here.
NATIVE_PACKAGES := mmcsim-engine mmcsim-cli mmcsim
# The web app crate; its tests/ are wasm-bindgen-test browser tests.
WEB_PACKAGE := mmcsim

WASM_TEST_ENV := CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
                 CHROMEDRIVER=/usr/bin/chromedriver

.PHONY: setup setup-browser serve build test test-native test-wasm test-e2e bench-web docs-screenshots

setup:
	scripts/setup.sh

setup-browser:
	scripts/setup.sh --browser

serve: setup
	trunk serve --offline --address 127.0.0.1 --port 8080

build: setup
	trunk build --release

test: setup-browser
	$(MAKE) --no-print-directory test-native test-wasm test-e2e

test-native:
	cargo test $(addprefix -p ,$(NATIVE_PACKAGES))

# --tests: without it the doc-test pass prints an empty last result line.
test-wasm:
	$(WASM_TEST_ENV) cargo test --target wasm32-unknown-unknown -p $(WEB_PACKAGE) --tests

test-e2e:
	trunk build --release
	node --test tests/e2e/

# Frame time of the pipeline view in headless Chromium (printed, not asserted).
bench-web:
	trunk build --release
	node tests/e2e/bench.mjs

# The end-to-end tests save their screenshots under target/screenshots/; this runs them with
# docs/ as the target instead, on purpose, to refresh the pictures the README shows.
docs-screenshots:
	trunk build --release
	SCREENSHOTS_DIR=docs node --test tests/e2e/
