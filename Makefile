# mmcsim: set-up, build and tests of the web app, plus the native tests of the engine and CLI.
#
#   make setup   install what this machine lacks (skips what is present at the right version)
#   make serve   trunk serve on http://127.0.0.1:8080 (dev build, rebuilds on change)
#   make build   release build of the web app into dist/ (with .gz and .br copies of its files)
#   make serve-dist  the release build on http://127.0.0.1:8080, compressed (scripts/serve-dist.mjs)
#   make check   the inner loop, under a minute warm: cargo fmt --check, the floor check, clippy
#                of the native crates, the engine's and the CLI's fast tests (the docs' examples
#                and links among them); the slow suites are left to make test
#   make docs    the book (docs/, mdbook) into target/book/, and every link of the README and
#                the book checked
#   make test    lint, docs, native tests, headless browser tests (wasm-bindgen-test), end-to-end
#                test, oracle check; fails if the tests changed the work tree (scripts/tree-state.sh)
#   make lint    cargo fmt --check, the floor check (docs/ARCHITECTURE.md), cargo clippy
#                -D warnings (native crates, and the web crates on wasm32)
#   make screenshots  the end-to-end tests, saving the README's pictures into docs/ (make test
#                saves them into target/screenshots/, ignored)
#   make bench   the heaviest seed job natively and compiled to wasm in headless Chromium:
#                events per second of each and their ratio (engine/benches, bench/wasm)
#   make bench-web  the landing's first animated frame (bytes before it, time to it) and frame
#                time of the pipeline view in headless Chromium
#   make oracle  the kernel oracle (oracle/README.md): installs its tools if missing, boots
#                Debian's Linux 6.1 and 6.12 under QEMU, runs the fio suites, rewrites
#                oracle/fixtures/ (6.1) and oracle/fixtures/linux-6.12/
#   make oracle-check  one boot of the check subset on each kernel, compared with that
#                kernel's stable facts;
#                make test runs it when the oracle's tools are present (skips it, saying so,
#                when they are not)
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
# browser tests are wasm32-only and compile to nothing here. mmcsim-components: yew, web-sys and
# plotters compile natively, so its plain functions (format, pipeline_layout, abcompare's delta
# rows, timeline's rects, controls' form) are tested here too, next to them.
NATIVE_PACKAGES := mmcsim-engine mmcsim-cli mmcsim mmcsim-components mmcsim-fit
# The web app crate; its tests/ are wasm-bindgen-test browser tests.
WEB_PACKAGE := mmcsim

# WASM_BINDGEN_TEST_TIMEOUT: the runner gives one browser session (one test file) 20 s by
# default and then kills it ("Failed to detect test as having been run"). The suite was one file
# of 38 tests taking 18.3 s on a warm, quiet 2-core machine, so a fresh or loaded machine went red
# 2 runs of 3. It is now three files (tests/browser_*.rs), each well under 20 s warm, and the
# limit is set far above what a loaded machine needs: it is there to stop a hung browser, not to
# time a test (timing belongs in benchmarks).
WASM_TEST_ENV := CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
                 CHROMEDRIVER=/usr/bin/chromedriver WASM_BINDGEN_TEST_TIMEOUT=600

.PHONY: setup setup-browser serve serve-dist build check docs test lint test-native test-wasm test-e2e screenshots \
        bench bench-web oracle oracle-check test-oracle

setup:
	scripts/setup.sh

setup-browser:
	scripts/setup.sh --browser

serve: setup
	trunk serve --offline --address 127.0.0.1 --port 8080

build: setup
	trunk build --release

# trunk serve cannot compress: the release build, served with its precompressed copies
# (Content-Encoding br or gzip, as the browser accepts) by a small node server.
serve-dist: build
	node scripts/serve-dist.mjs --port 8080

# The work tree's state is taken before and after the tests: they may not change it (their
# outputs go to target/), while a developer's own uncommitted edits, there before and after,
# are no failure.
test: setup-browser
	@before=$$(scripts/tree-state.sh); \
	$(MAKE) --no-print-directory lint docs test-native test-wasm test-e2e test-oracle; \
	after=$$(scripts/tree-state.sh); \
	if [[ "$$before" != "$$after" ]]; then \
	    echo "make test: the tests changed the work tree (git status, before and after):" >&2; \
	    diff <(printf '%s\n' "$$before") <(printf '%s\n' "$$after") >&2 || true; \
	    exit 1; \
	fi; \
	echo "make test: the work tree is as the tests found it"

CLIPPY_NATIVE := cargo clippy $(addprefix -p ,$(NATIVE_PACKAGES)) -p mmcsim-bench --all-targets -- -D warnings

# The inner loop (docs/contributing.md), under a minute on a warm 2-core machine: formatting,
# the floor check, clippy of the native crates, and the engine's and the CLI's tests less what
# is slow. Left to make test: the fit crate's tests (most of test-native's time) and the CLI's
# two fits (cli/tests/progress.rs), the calibration sweep (engine/tests/calibration.rs),
# property tests at full size (here PROPTEST_CASES: the same properties on fewer random inputs,
# every kept failure still first; engine/tests/common/mod.rs), the engine's doc tests, the web
# crates (clippy on wasm32, browser tests), the end-to-end tests, mdbook's build, the oracle. The CLI's tests include the docs' examples (cli/tests/docs.rs)
# and the engine's the docs' links (tests/architecture/doc_links.rs).
CHECK_PROPTEST_CASES := 16
check:
	cargo fmt --all -- --check
	cargo test -q -p mmcsim-engine --test main architecture::
	$(CLIPPY_NATIVE)
	PROPTEST_CASES=$(CHECK_PROPTEST_CASES) cargo test -q -p mmcsim-engine --lib --test main -- \
	    --skip architecture:: --skip calibration::
	cargo test -q -p mmcsim-cli -- --skip a_fit_prints_its_estimate --skip ctrl_c_stops_a_fit

# The book: docs/SUMMARY.md is its reading order (docs/book.toml; mdbook is pinned and installed
# by scripts/setup.sh), built into target/book/. Then every relative link and #anchor of the
# README and the book is checked (tests/architecture/doc_links.rs; http links are not fetched).
docs:
	@command -v mdbook >/dev/null || { echo "make docs: mdbook is missing: make setup installs it" >&2; exit 1; }
	mdbook build docs
	cargo test -q -p mmcsim-engine --test main architecture::doc_links::

# Formatting and clippy, warnings as errors: the native crates, and the web crates on wasm32
# (where their browser code and browser tests compile).
lint:
	cargo fmt --all -- --check
	# The floor rule of docs/ARCHITECTURE.md (the engine, the components, the web app): no import
	# points up a floor, no circle of modules or files (but the engine's path+simulator floor),
	# every module on the tables exists; every path the map and the doc comments name exists.
	cargo test -q -p mmcsim-engine --test main architecture::
	$(CLIPPY_NATIVE)
	cargo clippy --target wasm32-unknown-unknown -p $(WEB_PACKAGE) -p mmcsim-components -p mmcsim-worker \
	    -p mmcsim-bench --all-targets -- -D warnings
	# The landing's build (index.html: mmcsim-landing, without the `full` feature).
	cargo clippy --target wasm32-unknown-unknown -p $(WEB_PACKAGE) --no-default-features --features landing --bins -- -D warnings

# Property tests at full size: PROPTEST_CASES, which make check sets small, is dropped here.
test-native:
	env -u PROPTEST_CASES cargo test $(addprefix -p ,$(NATIVE_PACKAGES))

# --tests: without it the doc-test pass prints an empty last result line.
# TMPDIR: chromedriver gives each browser session (each test file) a Chromium profile of about
# 80 MB in the temporary folder, and the runner leaves it there: three per `make test` piled up
# in /tmp until a disk was full. The browser tests get a temporary folder of their own in
# target/, removed after them, failed or not.
BROWSER_TMP := $(CURDIR)/target/browser-tmp
test-wasm:
	rm -rf $(BROWSER_TMP)
	mkdir -p $(BROWSER_TMP)
	status=0; TMPDIR=$(BROWSER_TMP) $(WASM_TEST_ENV) \
	    cargo test --target wasm32-unknown-unknown -p $(WEB_PACKAGE) --tests || status=$$?; \
	rm -rf $(BROWSER_TMP); exit $$status

test-e2e:
	trunk build --release
	node --test tests/e2e/

# The end-to-end tests with their screenshots saved into docs/ (the README's pictures).
screenshots: setup-browser
	trunk build --release
	MMCSIM_SCREENSHOTS=docs node --test tests/e2e/

# The heaviest seed job natively and as wasm in headless Chromium, side by side (printed, not
# asserted; bench/run.mjs). Three wasm builds: as the page builds it ([profile.web], opt-level
# "z", then wasm-opt -Oz as trunk runs it), the same with only the engine at opt-level 3, and
# everything at opt-level 3 ([profile.release], then wasm-opt -O3). The page's build is made last
# so target/wasm32-unknown-unknown/web/ holds what the page's profile makes.
BENCH_WASM := target/bench-wasm
WASM_OUT := target/wasm32-unknown-unknown
bench: setup-browser
	cargo build --release -p mmcsim-bench --bin mmcsim-bench
	mkdir -p $(BENCH_WASM)
	cargo build --target wasm32-unknown-unknown --release -p mmcsim-bench --lib
	wasm-opt -O3 $(WASM_OUT)/release/mmcsim_bench.wasm -o $(BENCH_WASM)/o3.wasm
	cargo build --target wasm32-unknown-unknown --profile web -p mmcsim-bench --lib
	wasm-opt -Oz $(WASM_OUT)/web/mmcsim_bench.wasm -o $(BENCH_WASM)/web.wasm
	cargo build --target wasm32-unknown-unknown --profile web -p mmcsim-bench --lib \
	    --config 'profile.web.package.mmcsim-engine.opt-level="z"'
	wasm-opt -Oz $(WASM_OUT)/web/mmcsim_bench.wasm -o $(BENCH_WASM)/web-all-z.wasm
	node bench/run.mjs

# The landing's first animated frame (bytes sent before it, time to it: README "Loading") and the
# frame time of the pipeline view in headless Chromium (printed, not asserted).
bench-web:
	trunk build --release
	node tests/e2e/bench.mjs

# The kernel oracle (oracle/README.md). `make oracle` installs what it lacks (apt, the kernel
# packages) and records every suite twice on Linux 6.1, then on 6.12 (about 20 minutes a kernel
# measured on a shared 2-core machine: 6.1 17 to 19 min, 6.12 22 min; ORACLE_KERNEL=6.12 for
# one); without the packages and without network it names what is missing and fails.
# `make oracle-check` installs nothing and needs no network: one boot of each kernel, side by
# side (about a minute and a half of QEMU), compared with oracle/fixtures/sd-1cpu.json (6.1) and
# oracle/fixtures/linux-6.12/sd-1cpu.json (6.12).
oracle:
	oracle/record.sh

oracle-check:
	oracle/check.sh

# make test's step: the oracle check when its tools (qemu-system-x86_64, the unpacked kernel,
# ...) are present, which scripts/setup.sh --browser installs; one line when they are not. The
# reducer's replay of the kept kernel traces (oracle/replay.py: python3 only, a second) runs
# either way.
test-oracle:
	@if oracle/install.sh --quiet-check; then \
	    oracle/check.sh; \
	else \
	    python3 oracle/replay.py; \
	    echo "make test: oracle-check skipped: $$(oracle/install.sh --check 2>&1 | tr '\n' ' ')"; \
	fi
