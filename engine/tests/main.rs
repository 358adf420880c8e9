//! The engine's integration tests, as one test binary: engine/Cargo.toml sets `autotests = false`
//! and names this file, which includes every test file as a module (ripgrep's layout). One binary
//! is linked after an engine edit instead of one per file, and its tests share the two cores.
//!
//! Run one file's tests with its module path as the filter:
//! `cargo test -p mmcsim-engine --test main golden::` (the floor check, which `make lint` and
//! `make check` run, is `--test main architecture::`).
//!
//! A new test file needs a `mod` line here (`every_test_file_is_a_module_here` fails without
//! one) and reaches the shared helpers as `crate::common`.

mod architecture;
mod block_size_curves;
mod board;
mod busy_poll;
mod calibration;
mod command_queueing;
mod common;
mod completion;
mod cq_rules;
mod cqe_discard;
mod crash_consistency;
mod determinism;
mod export;
mod f2fs_sync;
mod fio_language;
mod fuzz_regressions;
mod golden;
mod invariants;
mod io_priority;
mod issue10;
mod issue32;
mod issue48;
mod issue48_no_effect;
mod kernel_exports;
mod kernel_versions;
mod measurements_file;
mod merging;
mod option_table;
mod oracle;
mod perfetto_export;
mod power_cut;
mod prio_stats;
mod replay_check;
mod rpi5_sd;
mod scenario_parse;
mod schedulers;
mod sensitivity;
mod shell_quote;
mod tags;
mod trace_replay;
mod trace_roundtrip;
mod url;
mod what_if;
mod why_slow;

/// With `autotests = false` cargo builds no test file on its own: one that is not a module here
/// would never run, silently.
#[test]
fn every_test_file_is_a_module_here() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let here = include_str!("main.rs");
    let missing: Vec<String> = std::fs::read_dir(&dir)
        .expect("engine/tests")
        .flatten()
        .filter_map(|e| {
            let path = e.path();
            let name = path.file_name()?.to_str()?.to_string();
            let module = if path.is_dir() {
                path.join("mod.rs").is_file().then(|| name.clone())?
            } else {
                name.strip_suffix(".rs")
                    .filter(|m| *m != "main")?
                    .to_string()
            };
            (!here.lines().any(|l| l == format!("mod {module};"))).then_some(name)
        })
        .collect();
    assert!(
        missing.is_empty(),
        "test files that are no module of engine/tests/main.rs (add `mod NAME;` there): {missing:?}"
    );
}
