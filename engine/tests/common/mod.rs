//! Helpers shared by the engine's test files (`crate::common`; tests/main.rs declares it).

pub mod generators;

use proptest::test_runner::{Config, FileFailurePersistence};

/// The configuration of every property test here: `full` random cases, as `make test` runs them,
/// or `PROPTEST_CASES` of them when it is set (`make check` sets it small: the same properties on
/// fewer inputs). The kept failures run first either way.
///
/// Kept failures are read from (and new ones written to) `<file>.proptest-regressions` beside
/// the test file. Proptest's default place (`SourceParallel`) is beside the first folder above
/// the file holding a `main.rs`: with tests/main.rs, a proptest-regressions folder in engine/,
/// where the kept cases would silently not be found; `kept_failures_are_found` checks it.
pub fn proptest_config(full: u32) -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(full);
    Config {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource(
            "proptest-regressions",
        ))),
        ..Config::default()
    }
}

/// Every property test uses [`proptest_config`], and every `.proptest-regressions` file is read
/// by the test file beside it: all its `cc` lines are loaded for that file.
#[test]
fn kept_failures_are_found() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let (mut props, mut kept_files) = (0, 0);
    for entry in std::fs::read_dir(&dir).expect("engine/tests").flatten() {
        let path = entry.path();
        match path.extension().and_then(|e| e.to_str()) {
            Some("rs") => {
                let text = std::fs::read_to_string(&path).expect("a test file");
                let blocks = text.matches("proptest! {").count();
                let configured = text
                    .matches("#![proptest_config(common::proptest_config(")
                    .count();
                assert_eq!(
                    blocks,
                    configured,
                    "{}: proptest! blocks without common::proptest_config",
                    path.display()
                );
                props += blocks;
            }
            Some("proptest-regressions") => {
                kept_files += 1;
                let source = path.with_extension("rs");
                assert!(
                    source.is_file(),
                    "{}: no test file beside it",
                    path.display()
                );
                let cc = std::fs::read_to_string(&path)
                    .expect("the kept failures")
                    .lines()
                    .filter(|l| l.starts_with("cc "))
                    .count();
                // As proptest! passes it: the test file's path (file!(), made absolute).
                let source: &'static str =
                    Box::leak(source.to_string_lossy().into_owned().into_boxed_str());
                let loaded = proptest_config(1)
                    .failure_persistence
                    .expect("a persistence")
                    .load_persisted_failures2(Some(source))
                    .len();
                assert!(
                    cc > 0 && loaded == cc,
                    "{}: {loaded} of {cc} kept failures loaded",
                    path.display()
                );
            }
            _ => {}
        }
    }
    assert!(
        props >= 6 && kept_files >= 4,
        "{props} proptest! blocks, {kept_files} files of kept failures"
    );
}
