//! The engine's floors: `docs/ARCHITECTURE.md` has a floor table (floor number, modules, what
//! they are); this test reads it and fails when
//!
//! - a module it names is not a file or folder under `engine/src`, or a source file is on no floor;
//! - an import points up: a module on floor n names (`use crate::…`, `super::…`, a `crate::…`
//!   path in code) a module on a floor above n;
//! - modules import each other in a circle, except on the floor of the kernel path and the
//!   simulator (the layers' `impl Simulator` blocks call the simulator, which calls them).
//!
//! `#[cfg(test)]` items, comments and string literals are skipped. A path through a `lib.rs`
//! re-export (`crate::Report`, `crate::platform::…`) counts as an import of the module it names.

mod doc_paths;
mod file_lengths;
mod resolve;
mod rust;

use resolve::{root_aliases, Crate};
use rust::{named_paths, tokens, without_test_items};
use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

const SRC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src");
const DOC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/ARCHITECTURE.md");

/// A module path below the crate root: `["path", "hsq"]`; the root is `[]`.
type Module = Vec<String>;

fn show(m: &[String]) -> String {
    if m.is_empty() {
        "crate".to_string()
    } else {
        m.join("::")
    }
}

// ---------------------------------------------------------------- the floor table

/// `(floor, module)` for every module the table names, in table order.
fn floor_table(doc: &str) -> Vec<(u32, Module)> {
    let mut lines = doc.lines().skip_while(|l| !is_floor_header(l));
    assert!(
        lines.next().is_some(),
        "docs/ARCHITECTURE.md has no floor table (a table whose first column is `floor`)"
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
        "the floor table in docs/ARCHITECTURE.md names no modules"
    );
    out
}

fn is_floor_header(line: &str) -> bool {
    let first = line
        .trim()
        .trim_start_matches('|')
        .split('|')
        .next()
        .unwrap_or("");
    line.trim_start().starts_with('|') && first.trim().eq_ignore_ascii_case("floor")
}

// ---------------------------------------------------------------- the source files

/// Every `.rs` file under `src`, with the module it is.
fn source_files(dir: &Path, out: &mut BTreeMap<Module, PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        if p.is_dir() {
            source_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            let rel = p.strip_prefix(SRC).unwrap().with_extension("");
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
struct Edge {
    file: PathBuf,
    line: usize,
    text: String,
    to: Module,
}

fn floor_of<'a>(table: &'a [(u32, Module)], m: &[String]) -> Option<&'a (u32, Module)> {
    table
        .iter()
        .filter(|(_, t)| m.starts_with(t))
        .max_by_key(|(_, t)| t.len())
}

fn rel(p: &Path) -> String {
    format!("engine/src/{}", p.strip_prefix(SRC).unwrap().display())
}

#[test]
fn no_import_points_up_and_no_circle_outside_the_path_floor() {
    let doc = fs::read_to_string(DOC).expect("docs/ARCHITECTURE.md");
    let table = floor_table(&doc);
    let mut files = BTreeMap::new();
    source_files(Path::new(SRC), &mut files);
    let krate = Crate {
        root_aliases: root_aliases(&fs::read_to_string(&files[&Vec::new()]).unwrap()),
        files,
    };
    // (b) the table and the files agree; (c) every import, resolved.
    let mut problems = table_and_files_agree(&table, &krate.files);
    let edges = imports(&krate, &mut problems);
    for (from, e) in &edges {
        let (Some((ff, fm)), Some((tf, tm))) = (floor_of(&table, from), floor_of(&table, &e.to))
        else {
            continue;
        };
        if tf > ff {
            problems.push(format!(
                "{}:{}: `{}` points up: `{}` (floor {ff}) imports `{}` (floor {tf})",
                rel(&e.file),
                e.line,
                e.text,
                show(fm),
                show(tm)
            ));
        }
    }

    // (d) circles between the table's modules.
    problems.extend(circles(&table, &edges));

    assert!(
        problems.is_empty(),
        "the engine's floors (docs/ARCHITECTURE.md, floor table) are broken:\n  {}\n",
        problems.join("\n  ")
    );
}

/// What is wrong between the floor table and the files: a named module that is no file or
/// folder, a file on no floor.
fn table_and_files_agree(
    table: &[(u32, Module)],
    files: &BTreeMap<Module, PathBuf>,
) -> Vec<String> {
    let mut problems = Vec::new();
    for (floor, m) in table {
        let dir = Path::new(SRC).join(m.join("/"));
        if !files.contains_key(m) && !dir.is_dir() {
            problems.push(format!(
                "floor {floor} names `{}`, which is no file or folder under engine/src",
                show(m)
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

/// Every import of every engine file but `lib.rs` (the facade of re-exports, on no floor),
/// resolved to the module it names; what cannot be resolved goes to `problems`.
fn imports(krate: &Crate, problems: &mut Vec<String>) -> Vec<(Module, Edge)> {
    let mut edges: Vec<(Module, Edge)> = Vec::new();
    for (m, p) in &krate.files {
        if m.is_empty() {
            continue; // lib.rs: the facade of re-exports, on no floor
        }
        let toks = without_test_items(tokens(&fs::read_to_string(p).unwrap()));
        for named in named_paths(&toks) {
            let text = named.segs.join("::");
            match krate.resolve(m, &named.segs) {
                Ok(Some(to)) if !to.is_empty() => edges.push((
                    m.clone(),
                    Edge {
                        file: p.clone(),
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

/// Circles between the table's modules, except among the modules of the floor that holds the
/// simulator (`sim`) and the kernel path.
fn circles(table: &[(u32, Module)], edges: &[(Module, Edge)]) -> Vec<String> {
    let mut graph: BTreeMap<&Module, BTreeMap<&Module, &Edge>> = BTreeMap::new();
    for (from, e) in edges {
        let (Some((_, a)), Some((_, b))) = (floor_of(table, from), floor_of(table, &e.to)) else {
            continue;
        };
        if a != b {
            graph.entry(a).or_default().entry(b).or_insert(e);
        }
    }
    let sim_floor = table.iter().find(|(_, m)| m == &["sim"]).map(|(f, _)| *f);
    let floor = |m: &Module| table.iter().find(|(_, t)| t == m).map(|(f, _)| *f);
    let mut out = Vec::new();
    for scc in strongly_connected(&graph) {
        if scc.len() < 2
            || scc
                .iter()
                .all(|m| floor(m).is_some() && floor(m) == sim_floor)
        {
            continue;
        }
        let members: BTreeSet<&Module> = scc.iter().copied().collect();
        let mut why = Vec::new();
        for a in &scc {
            for (b, e) in &graph[a] {
                if members.contains(b) {
                    why.push(format!(
                        "{}:{} `{}` ({} -> {})",
                        rel(&e.file),
                        e.line,
                        e.text,
                        show(a),
                        show(b)
                    ));
                }
            }
        }
        out.push(format!(
            "import circle between {}:\n    {}",
            scc.iter()
                .map(|m| format!("`{}`", show(m)))
                .collect::<Vec<_>>()
                .join(", "),
            why.join("\n    ")
        ));
    }
    out
}

/// Tarjan's strongly connected components.
fn strongly_connected<'a>(
    graph: &BTreeMap<&'a Module, BTreeMap<&'a Module, &Edge>>,
) -> Vec<Vec<&'a Module>> {
    struct State<'a> {
        index: BTreeMap<&'a Module, usize>,
        low: BTreeMap<&'a Module, usize>,
        stack: Vec<&'a Module>,
        out: Vec<Vec<&'a Module>>,
    }
    fn visit<'a>(
        v: &'a Module,
        g: &BTreeMap<&'a Module, BTreeMap<&'a Module, &Edge>>,
        s: &mut State<'a>,
    ) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        for w in g.get(v).into_iter().flat_map(|m| m.keys()) {
            if !s.index.contains_key(w) {
                visit(w, g, s);
                let lw = s.low[w];
                s.low.entry(v).and_modify(|l| *l = (*l).min(lw));
            } else if s.stack.contains(w) {
                let iw = s.index[w];
                s.low.entry(v).and_modify(|l| *l = (*l).min(iw));
            }
        }
        if s.low[v] == s.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = s.stack.pop() {
                comp.push(w);
                if w == v {
                    break;
                }
            }
            s.out.push(comp);
        }
    }
    let mut s = State {
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !s.index.contains_key(v) {
            visit(v, graph, &mut s);
        }
    }
    s.out
}

// ---------------------------------------------------------------- the checker checked

#[test]
fn use_trees_nested_groups_self_renames_and_globs_resolve_to_their_leaves() {
    let src = "use crate::{a::{b, c::{self, D}}, e as f, g::*};\nuse super::h;\n";
    let toks = tokens(src);
    let leaves: Vec<String> = named_paths(&toks)
        .iter()
        .map(|n| n.segs.join("::"))
        .collect();
    assert_eq!(
        leaves,
        [
            "crate::a::b",
            "crate::a::c",
            "crate::a::c::D",
            "crate::e",
            "crate::g",
            "super::h"
        ]
    );
}

#[test]
fn comments_strings_and_test_modules_are_not_imports() {
    let src = r##"
        // use crate::x;
        /* crate::y /* nested */ crate::z */
        const S: &str = "crate::s";
        const R: &str = r#"crate::"r""#;
        const C: char = '"';
        fn f<'a>(x: &'a u8) -> u8 { *x }
        #[cfg(test)]
        mod tests { use crate::t; }
        #[cfg(test)]
        use crate::u;
        use crate::kept;
    "##;
    let toks = without_test_items(tokens(src));
    let leaves: Vec<String> = named_paths(&toks)
        .iter()
        .map(|n| n.segs.join("::"))
        .collect();
    assert_eq!(leaves, ["crate::kept"]);
    assert_eq!(named_paths(&toks)[0].line, 12);
}

#[test]
fn the_floor_table_is_read_with_folders_files_and_submodules() {
    let doc = "| floor | modules | what |\n|---|---|---|\n| 0 | `vocab/`, `rng.rs` | words |\n| 3 | `path`, `tools::sweep` | x |\n\nafter\n";
    let t = floor_table(doc);
    let names: Vec<(u32, String)> = t.iter().map(|(f, m)| (*f, m.join("::"))).collect();
    assert_eq!(
        names,
        [
            (0, "vocab".into()),
            (0, "rng".into()),
            (3, "path".into()),
            (3, "tools::sweep".into())
        ]
    );
}
