//! Golden outputs: a dozen scenarios across the presets, each a fio job file in
//! `tests/golden/<name>/job.fio`, with the outputs a user sees pinned byte for byte:
//!
//! - `fio.json`: the fio `--output-format=json` document of the run,
//! - `link.txt`: the scenario's link query string,
//! - `written.fio`: the job file the scenario is written back as.
//!
//! They pin the model's behaviour and the option language through refactors. When a change is
//! meant to alter them, re-bless with
//! `MMCSIM_BLESS=1 cargo test -p mmcsim-engine --test main golden::`
//! and explain the difference in the commit.

use std::path::{Path, PathBuf};

use mmcsim_engine::export::fio_json;
use mmcsim_engine::scenario::jobfile::{parse_jobfile, to_jobfile};
use mmcsim_engine::scenario::url::{decode_query, encode_query};
use mmcsim_engine::{Scenario, Simulator};

fn golden_dirs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("tests/golden exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.join("job.fio").is_file())
        .collect();
    dirs.sort();
    dirs
}

/// Compares `actual` with the file, or writes it when blessing. Returns a difference report.
fn check(path: &Path, actual: &str, bless: bool) -> Option<String> {
    if bless {
        std::fs::write(path, actual).expect("write golden file");
        return None;
    }
    let expected = std::fs::read_to_string(path).unwrap_or_default();
    if expected == actual {
        return None;
    }
    let line = expected
        .lines()
        .zip(actual.lines())
        .position(|(e, a)| e != a)
        .unwrap_or_else(|| expected.lines().count().min(actual.lines().count()));
    Some(format!(
        "{}: differs from line {} on\n  expected: {:?}\n  actual:   {:?}",
        path.display(),
        line + 1,
        expected.lines().nth(line).unwrap_or("<end>"),
        actual.lines().nth(line).unwrap_or("<end>"),
    ))
}

#[test]
fn golden_outputs_are_unchanged() {
    let bless = std::env::var_os("MMCSIM_BLESS").is_some();
    let dirs = golden_dirs();
    assert!(
        dirs.len() >= 12,
        "expected a dozen golden scenarios, found {}",
        dirs.len()
    );
    let mut failures = Vec::new();
    for dir in &dirs {
        let text = std::fs::read_to_string(dir.join("job.fio")).expect("job.fio");
        let scn = parse_jobfile(&text, Scenario::default())
            .unwrap_or_else(|e| panic!("{}: {}", dir.display(), e));
        let mut sim = Simulator::new(&scn).unwrap_or_else(|e| panic!("{}: {}", dir.display(), e));
        sim.run_to_end();
        let json = fio_json(&scn, &sim.report());
        let link = format!("{}\n", encode_query(&scn, None));
        let written = to_jobfile(&scn);
        // The written forms read back as the same scenario.
        assert_eq!(
            decode_query(link.trim_end()).a,
            scn,
            "{}: link round trip",
            dir.display()
        );
        assert_eq!(
            parse_jobfile(&written, Scenario::default()).as_ref(),
            Ok(&scn),
            "{}: job file round trip",
            dir.display()
        );
        for (file, actual) in [
            ("fio.json", &json),
            ("link.txt", &link),
            ("written.fio", &written),
        ] {
            failures.extend(check(&dir.join(file), actual, bless));
        }
    }
    assert!(
        failures.is_empty(),
        "golden outputs changed (re-bless with MMCSIM_BLESS=1 if meant):\n{}",
        failures.join("\n")
    );
}
