//! One crate's floors: its floor table in `docs/ARCHITECTURE.md` (the table whose header is
//! `| floor | <the crate's source folder> | ... |`), its source files, every import resolved, and
//! what breaks the rule: a module of the table that is no file, a file on no floor, an import
//! pointing up, a circle between the table's modules or between files.

use super::doc_paths::ROOT;
use super::graph::circles;
use super::resolve::{root_aliases, Crate};
use super::rust::{named_paths, tokens, without_test_items};
use super::Module;
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

const DOC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/ARCHITECTURE.md");

pub(crate) fn show(m: &[String]) -> String {
    if m.is_empty() {
        "crate".to_string()
    } else {
        m.join("::")
    }
}

// ---------------------------------------------------------------- the floor table

/// `(floor, module)` for every module the floor table of source folder `folder` names, in
/// table order.
pub(crate) fn floor_table(doc: &str, folder: &str) -> Vec<(u32, Module)> {
    let mut lines = doc.lines().skip_while(|l| !is_floor_header(l, folder));
    assert!(
        lines.next().is_some(),
        "docs/ARCHITECTURE.md has no floor table of {folder} (a table whose header is `| floor | {folder} | ...`)"
    );
    let mut out = Vec::new();
    for line in lines
        .skip(1)
        .take_while(|l| l.trim_start().starts_with('|'))
    {
        let cells: Vec<&str> = line.trim().trim_matches('|').split('|').collect();
        let floor: u32 = cells[0].trim().parse().unwrap_or_else(|_| {
            panic!("floor table row without a floor number: {line}");
        });
        let names = cells.get(1).copied().unwrap_or("");
        for name in names.split('`').skip(1).step_by(2) {
            let name = name.trim_end_matches('/').trim_end_matches(".rs");
            out.push((
                floor,
                name.split(['/', ':'])
                    .filter(|s| !s.is_empty())
                    .map(String::from)
                    .collect(),
            ));
        }
    }
    assert!(
        !out.is_empty(),
        "the floor table of {folder} in docs/ARCHITECTURE.md names no modules"
    );
    out
}

fn is_floor_header(line: &str, folder: &str) -> bool {
    let cells: Vec<&str> = line
        .trim()
        .trim_matches('|')
        .split('|')
        .map(str::trim)
        .collect();
    line.trim_start().starts_with('|')
        && cells.len() > 1
        && cells[0].eq_ignore_ascii_case("floor")
        && cells[1] == folder
}

// ---------------------------------------------------------------- the source files

/// Every Rust file under `dir` (the source folder `src`), with the module it is.
fn source_files(src: &Path, dir: &Path, out: &mut BTreeMap<Module, PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        if p.is_dir() {
            source_files(src, &p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            let rel = p.strip_prefix(src).unwrap().with_extension("");
            let mut m: Module = rel
                .iter()
                .map(|s| s.to_string_lossy().into_owned())
                .collect();
            if m.last().is_some_and(|s| s == "mod" || s == "lib") {
                m.pop();
            }
            out.insert(m, p);
        }
    }
}

// ---------------------------------------------------------------- the check

/// An import from one file to a module.
pub(crate) struct Edge {
    pub(crate) file: String,
    pub(crate) line: usize,
    pub(crate) text: String,
    pub(crate) to: Module,
}

/// The floor table's entry a module is on: the longest module of the table it is in.
pub(crate) fn floor_of<'a>(table: &'a [(u32, Module)], m: &[String]) -> Option<&'a (u32, Module)> {
    table
        .iter()
        .filter(|(_, t)| m.starts_with(t))
        .max_by_key(|(_, t)| t.len())
}

/// One crate's floor rule: `folder` is its source folder from the repository root (`engine/src`),
/// `circle_floor` the module whose floor may import itself in circles (the engine's `sim`), if
/// any. Every problem, one line (or paragraph) each.
pub(crate) fn check(folder: &str, circle_floor: Option<&str>) -> Vec<String> {
    let doc = fs::read_to_string(DOC).expect("docs/ARCHITECTURE.md");
    let table = floor_table(&doc, folder);
    let src = Path::new(ROOT).join(folder);
    let mut files = BTreeMap::new();
    source_files(&src, &src, &mut files);
    let krate = Crate {
        root_aliases: root_aliases(&fs::read_to_string(&files[&Vec::new()]).unwrap()),
        files,
    };
    let rel = |p: &Path| format!("{folder}/{}", p.strip_prefix(&src).unwrap().display());
    let mut problems = table_and_files_agree(&table, &krate.files, &src, &rel);
    let edges = imports(&krate, &rel, &mut problems);
    for (from, e) in &edges {
        let (Some((ff, fm)), Some((tf, tm))) = (floor_of(&table, from), floor_of(&table, &e.to))
        else {
            continue;
        };
        if tf > ff {
            problems.push(format!(
                "{}:{}: `{}` points up: `{}` (floor {ff}) imports `{}` (floor {tf})",
                e.file,
                e.line,
                e.text,
                show(fm),
                show(tm)
            ));
        }
    }
    let exempt = circle_floor
        .and_then(|m| table.iter().find(|(_, t)| t.len() == 1 && t[0] == m))
        .map(|(f, _)| *f);
    // Circles between the table's modules (folders and the files it names) ...
    let on_table = |m: &Module| floor_of(&table, m).map(|(_, t)| t.clone());
    problems.extend(circles("import circle between", &edges, on_table, |m| {
        exempt.is_some() && table.iter().any(|(f, t)| t == m && Some(*f) == exempt)
    }));
    // ... and between files: a module's edges to its own ancestors and descendants (a `mod.rs`
    // re-exporting its children, a child's `super::`) are the module's inside, not a circle.
    let files_only: Vec<(Module, Edge)> = edges
        .into_iter()
        .filter(|(from, e)| !(from.starts_with(&e.to) || e.to.starts_with(from)))
        .collect();
    problems.extend(circles(
        "file circle between",
        &files_only,
        |m| Some(m.clone()),
        |m| exempt.is_some() && floor_of(&table, m).map(|(f, _)| *f) == exempt,
    ));
    problems
}

/// What is wrong between the floor table and the files: a named module that is no file or
/// folder, a file on no floor.
fn table_and_files_agree(
    table: &[(u32, Module)],
    files: &BTreeMap<Module, PathBuf>,
    src: &Path,
    rel: &dyn Fn(&Path) -> String,
) -> Vec<String> {
    let mut problems = Vec::new();
    for (floor, m) in table {
        let dir = src.join(m.join("/"));
        if !files.contains_key(m) && !dir.is_dir() {
            problems.push(format!(
                "floor {floor} names `{}`, which is no file or folder under {}",
                show(m),
                rel(src).trim_end_matches('/')
            ));
        }
    }
    for (m, p) in files {
        if !m.is_empty() && floor_of(table, m).is_none() {
            problems.push(format!(
                "{} (module `{}`) is on no floor of the table in docs/ARCHITECTURE.md",
                rel(p),
                show(m)
            ));
        }
    }
    problems
}

/// Every import of every file but `lib.rs` (the facade of re-exports, on no floor), resolved
/// to the module it names; what cannot be resolved goes to `problems`.
fn imports(
    krate: &Crate,
    rel: &dyn Fn(&Path) -> String,
    problems: &mut Vec<String>,
) -> Vec<(Module, Edge)> {
    let mut edges: Vec<(Module, Edge)> = Vec::new();
    for (m, p) in &krate.files {
        if m.is_empty() {
            continue; // lib.rs: the facade of re-exports, on no floor
        }
        let toks = without_test_items(tokens(&fs::read_to_string(p).unwrap()));
        for named in named_paths(&toks) {
            let text = named.segs.join("::");
            match krate.resolve(m, &named.segs) {
                Ok(Some(to)) if !to.is_empty() && &to != m => edges.push((
                    m.clone(),
                    Edge {
                        file: rel(p),
                        line: named.line,
                        text,
                        to,
                    },
                )),
                Ok(_) => {}
                Err(e) => problems.push(format!(
                    "{}:{}: cannot resolve `{text}`: {e}",
                    rel(p),
                    named.line
                )),
            }
        }
    }
    edges
}
