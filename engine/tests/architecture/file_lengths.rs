//! Small files: no source file of the repository (Rust, JavaScript, CSS, HTML, shell, Python:
//! the kernel oracle's scripts in oracle/ included) is over 450 lines, tests included, so a
//! newcomer can read any one of them in a sitting. A file that grows past it is split where its
//! parts already are (see docs/ARCHITECTURE.md, "Small files").

use super::doc_paths::{repository_paths, ROOT};
use std::fs;
use std::path::Path;

const MAX_LINES: usize = 450;
const SOURCE: &[&str] = &[".rs", ".mjs", ".js", ".css", ".html", ".sh", ".py"];

#[test]
fn no_source_file_is_over_450_lines() {
    let long: Vec<String> = repository_paths()
        .into_iter()
        .filter(|p| SOURCE.iter().any(|ext| p.ends_with(ext)))
        .filter_map(|p| {
            let text = fs::read_to_string(Path::new(ROOT).join(&p)).ok()?;
            let n = text.lines().count();
            (n > MAX_LINES).then(|| format!("{p}: {n} lines"))
        })
        .collect();
    assert!(
        long.is_empty(),
        "files over {MAX_LINES} lines (split them where their parts already are): {long:#?}"
    );
}
