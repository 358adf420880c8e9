#!/usr/bin/env bash
# Installs what the web app's build and tests need on a fresh machine of this kind, and skips
# whatever is already there at the right version (so a second run takes about a second).
#
#   scripts/setup.sh            wasm target, clippy + rustfmt, trunk, wasm-bindgen-cli, mdbook
#                               (make docs), npm tools (wasm-opt), protoc and PyPI perfetto (the
#                               Perfetto export's test)
#   scripts/setup.sh --browser  the same, plus Debian's chromium + chromium-driver (tests), and
#                               the kernel oracle's tools (oracle/install.sh: qemu-system-x86,
#                               fio, busybox-static, cpio, kmod, Debian's kernel package unpacked
#                               into ~/.cache/mmcsim-oracle/), which make test's oracle-check uses
#
# Versions: see the variables below and docs in /README.md ("Web app"). The traps behind
# them (trunk 0.22 needs a newer rustc, `--locked` breaks wasm-bindgen-cli, Debian's
# binaryen is too old for rustc 1.95) are why nothing here says "latest".
set -euo pipefail
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.21.14
MDBOOK_VERSION=0.5.4
# wasm-bindgen-cli must match the wasm-bindgen crate exactly: read it from Cargo.lock.
WASM_BINDGEN_VERSION=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
BROWSER=0
[[ "${1:-}" == "--browser" ]] && BROWSER=1

export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"
say() { printf '[setup] %s\n' "$*"; }

if [[ -z "$WASM_BINDGEN_VERSION" ]]; then
    echo "[setup] cannot find the wasm-bindgen version in Cargo.lock" >&2
    exit 1
fi
if ! grep -qx "wasm_bindgen = \"$WASM_BINDGEN_VERSION\"" Trunk.toml; then
    echo "[setup] Trunk.toml's [tools] wasm_bindgen must be \"$WASM_BINDGEN_VERSION\" (the version in Cargo.lock)" >&2
    exit 1
fi

# 0. Disk space. A cold `make test` writes about 7 GB (target/: native and wasm builds, the
#    release page; the tool installs; node_modules), and a full disk fails it 20 minutes in with
#    a message of wasm-bindgen's that does not say why. Measured: a fresh clone's `make test`
#    left 6.6 GB behind it (2026-12-01). A warm target/ needs much less.
need_gb=8
[[ -d target/wasm32-unknown-unknown/debug ]] && need_gb=2
mkdir -p target
free_gb=$(( $(df --output=avail -B1 target | tail -n 1) / 1000000000 ))
if (( free_gb < need_gb )); then
    echo "[setup] not enough disk space: the build and tests need about $need_gb GB free for" \
         "target/ ($PWD/target), and its disk has $free_gb GB free" >&2
    exit 1
fi
say "disk: $free_gb GB free (about $need_gb GB needed)"

# 1. The wasm target of the one rustup toolchain.
if rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    say "wasm32-unknown-unknown: present"
else
    say "adding rustup target wasm32-unknown-unknown"
    rustup target add wasm32-unknown-unknown
fi

# 1b. clippy and rustfmt (`make lint`, run first by `make test`): a minimal rustup profile
#     lacks them.
if cargo clippy --version >/dev/null 2>&1 && cargo fmt --version >/dev/null 2>&1; then
    say "clippy + rustfmt: present"
else
    say "adding rustup components clippy and rustfmt"
    rustup component add clippy rustfmt
fi

# Steps 2-5 are independent, so the missing ones run side by side (a cold machine spends its
# time compiling trunk and wasm-bindgen-cli; npm and apt download meanwhile). Each writes to its
# own log in target/setup/, printed if it fails.
LOGS=target/setup
mkdir -p "$LOGS"
pids=() names=()
run_bg() {  # run_bg NAME COMMAND...: start one install in the background
    local name=$1; shift
    say "installing $name (log: $LOGS/$name.log)"
    ( "$@" ) >"$LOGS/$name.log" 2>&1 &
    pids+=($!) names+=("$name")
}

# 2. trunk, without its default features: `update_check` asks crates.io for a newer trunk on
#    every run, and TLS (rustls, ring) only serves https and tool downloads; this project pins
#    0.21.14, serves http and finds wasm-bindgen and wasm-opt on PATH, offline. Measured on a
#    loaded 2-core machine (2026-12-01): the same dist/, byte for byte, from either build.
if [[ "$(trunk --version 2>/dev/null || true)" == "trunk $TRUNK_VERSION" ]]; then
    say "trunk $TRUNK_VERSION: present"
else
    run_bg trunk cargo install --locked --force trunk --version "$TRUNK_VERSION" \
        --no-default-features
fi

# 2b. mdbook for `make docs` (the book in docs/), with only its search feature: `make docs` runs
#     `mdbook build`, never `serve` or `watch` (tokio, axum, notify: most of its compile time).
if [[ "$(mdbook --version 2>/dev/null || true)" == "mdbook v$MDBOOK_VERSION" ]]; then
    say "mdbook $MDBOOK_VERSION: present"
else
    run_bg mdbook cargo install --locked --force mdbook --version "$MDBOOK_VERSION" \
        --no-default-features --features search
fi

# 3. wasm-bindgen-cli, same version as the crate (without --locked: its lockfile names a
#    crate version the registry lacks).
if [[ "$(wasm-bindgen --version 2>/dev/null || true)" == "wasm-bindgen $WASM_BINDGEN_VERSION" \
   && -x "$HOME/.cargo/bin/wasm-bindgen-test-runner" ]]; then
    say "wasm-bindgen-cli $WASM_BINDGEN_VERSION: present"
else
    run_bg wasm-bindgen-cli cargo install --force wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
fi

# 4. npm tools pinned in package-lock.json: binaryen 132 (wasm-opt) and playwright-core.
want_wasm_opt="version_132"
want_playwright=$(node -p "require('./package.json').devDependencies['playwright-core']")
have_playwright=$(node -p "try { require('playwright-core/package.json').version } catch (e) { '' }" 2>/dev/null || true)
if [[ "$(wasm-opt --version 2>/dev/null || true)" == *"($want_wasm_opt)"* && "$have_playwright" == "$want_playwright" ]]; then
    say "npm tools (wasm-opt $want_wasm_opt, playwright-core $want_playwright): present"
else
    run_bg npm-tools npm ci --no-audit --no-fund
fi

# 5. Browser for the tests: Debian's chromium and the chromedriver of the same version
#    (browser downloads by npm tools fail on this network).
install_chromium() {
    local sudo=""
    (( EUID != 0 )) && sudo="sudo"
    $sudo apt-get update
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y chromium chromium-driver
}
# 6. The kernel oracle's tools (oracle/README.md), for make test's oracle-check: Debian's
#    qemu-system-x86, fio, busybox-static, cpio, kmod, and the kernel package fetched with
#    apt-get download and unpacked (dpkg-deb -x, not installed) into ~/.cache/mmcsim-oracle/,
#    outside target/ so that cargo clean keeps it (oracle/install.sh, which skips what is there).
#    apt takes one install at a time (its lock), so a machine lacking both chromium and the
#    oracle's packages installs them one after the other in one job.
apt_steps=() apt_names=()
if (( BROWSER )); then
    chrome_v=$(/usr/bin/chromium --version 2>/dev/null | awk '{ print $2 }' || true)
    driver_v=$(/usr/bin/chromedriver --version 2>/dev/null | awk '{ print $2 }' || true)
    if [[ -n "$chrome_v" && "$chrome_v" == "$driver_v" ]]; then
        say "chromium + chromedriver $chrome_v: present"
    else
        apt_steps+=(install_chromium) apt_names+=(chromium)
    fi
    if oracle/install.sh --quiet-check; then
        say "kernel oracle tools: present ($(oracle/install.sh --check | sed 's/^.*present: //'))"
    else
        apt_steps+=(oracle/install.sh) apt_names+=(oracle)
    fi
fi
# 7. The Perfetto export's test (engine/tests/perfetto_export.rs, run by cargo test): Debian's
#    protobuf-compiler (protoc decodes the exported trace) and PyPI's perfetto (it ships
#    Perfetto's perfetto_trace.proto compiled: the schema protoc decodes with). Offline once here.
PERFETTO_VERSION=0.59.1
install_protoc() {
    local sudo=""
    (( EUID != 0 )) && sudo="sudo"
    $sudo apt-get update
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y protobuf-compiler
}
if command -v protoc >/dev/null 2>&1; then
    say "protoc: present ($(protoc --version))"
else
    apt_steps+=(install_protoc) apt_names+=(protoc)
fi
if python3 -c 'import perfetto.protos.perfetto.trace.perfetto_trace_pb2' >/dev/null 2>&1; then
    say "perfetto (PyPI): present"
else
    run_bg perfetto python3 -m pip install "perfetto==$PERFETTO_VERSION"
fi
run_steps() { local step; for step in "$@"; do "$step" || return 1; done; }
if (( ${#apt_steps[@]} )); then
    names_joined=$(IFS=+; echo "${apt_names[*]}")
    run_bg "$names_joined" run_steps "${apt_steps[@]}"
fi

failed=0
for i in "${!pids[@]}"; do
    if wait "${pids[$i]}"; then
        say "${names[$i]}: installed"
    else
        echo "[setup] installing ${names[$i]} failed; its log ($LOGS/${names[$i]}.log) ends:" >&2
        tail -n 40 "$LOGS/${names[$i]}.log" >&2
        failed=1
    fi
done
(( failed == 0 )) || exit 1
say "done"
