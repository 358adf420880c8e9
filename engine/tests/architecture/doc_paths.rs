//! Every file or folder `docs/ARCHITECTURE.md` names in backticks (`card/`, `sim/event.rs`,
//! `src/series/mod.rs`) exists in the repository, and so does every one a doc comment of the
//! code names (inner and outer doc comments): a map that sends a newcomer to a file that moved
//! is worse than no map. A name matches when some tracked path ends with it; names with a
//! placeholder (`<name>`, `*`) are recipes, not paths, and are skipped.

use std::fs;
use std::path::Path;

pub(crate) const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
const DOC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/ARCHITECTURE.md");
/// The folders a map of the code may send a reader to.
const TREES: &[&str] = &[
    "engine",
    "cli",
    "fuzz",
    "src",
    "components",
    "fit",
    "worker",
    "bench",
    "tests",
    "static",
    "scripts",
    "docs",
    "oracle",
];

/// Every file and folder below the trees, as `/`-joined paths relative to the root, folders
/// ending in `/`.
pub(crate) fn repository_paths() -> Vec<String> {
    fn walk(dir: &Path, rel: &str, out: &mut Vec<String>) {
        let Ok(entries) = fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let path = format!("{rel}/{name}");
            if e.path().is_dir() {
                out.push(format!("{path}/"));
                walk(&e.path(), &path, out);
            } else {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    for t in TREES {
        out.push(format!("{t}/"));
        walk(&Path::new(ROOT).join(t), t, &mut out);
    }
    out
}

/// The backticked names that look like a source file or a folder of the code.
fn named_paths(doc: &str) -> Vec<String> {
    doc.split('`')
        .skip(1)
        .step_by(2)
        .filter(|s| !s.contains(['<', '*', ' ', '{', '(', ':', '=', '"']))
        .filter(|s| s.ends_with(".rs") || s.ends_with(".mjs") || (s.ends_with('/') && s.len() > 1))
        .map(String::from)
        .collect()
}

#[test]
fn every_path_the_architecture_map_names_exists() {
    let doc = fs::read_to_string(DOC).expect("docs/ARCHITECTURE.md");
    let paths = repository_paths();
    let missing: Vec<String> = named_paths(&doc)
        .into_iter()
        .filter(|name| {
            !paths
                .iter()
                .any(|p| p == name || p.ends_with(&format!("/{name}")))
        })
        .collect();
    assert!(
        missing.is_empty(),
        "docs/ARCHITECTURE.md names files or folders that do not exist: {missing:?}"
    );
}

#[test]
fn every_path_a_doc_comment_names_exists() {
    let paths = repository_paths();
    let exists = |name: &str| {
        paths
            .iter()
            .any(|p| p == name || p.ends_with(&format!("/{name}")))
    };
    let mut missing = Vec::new();
    for file in paths.iter().filter(|p| p.ends_with(".rs")) {
        let Ok(text) = fs::read_to_string(Path::new(ROOT).join(file)) else {
            continue;
        };
        for (i, line) in text.lines().enumerate() {
            let line = line.trim_start();
            if !(line.starts_with("//!") || line.starts_with("///")) {
                continue;
            }
            for name in named_paths(line) {
                if !exists(&name) {
                    missing.push(format!("{file}:{}: `{name}`", i + 1));
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "doc comments name files or folders that do not exist: {missing:#?}"
    );
}
