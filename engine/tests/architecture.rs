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

// ---------------------------------------------------------------- tokens

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    PathSep,
    Punct(char),
}

/// Identifiers, `::` and punctuation with their line numbers; comments, strings and char
/// literals dropped.
fn tokens(src: &str) -> Vec<(Tok, usize)> {
    let c: Vec<char> = src.chars().collect();
    let (mut i, mut line, mut out) = (0, 1, Vec::new());
    while i < c.len() {
        let ch = c[i];
        let start = i;
        if ch == '/' && c.get(i + 1) == Some(&'/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && c.get(i + 1) == Some(&'*') {
            i = skip_block_comment(&c, i);
        } else if ch == '"' {
            i = skip_string(&c, i + 1, 0);
        } else if ch == '\'' {
            i = skip_char_or_lifetime(&c, i);
        } else if ch.is_alphabetic() || ch == '_' {
            if let Some(end) = raw_or_byte_string(&c, i) {
                i = end;
            } else {
                while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                    i += 1;
                }
                let word: String = c[start..i].iter().collect();
                if word == "r" && c.get(i) == Some(&'#') {
                    i += 1; // r#ident: the identifier follows
                } else {
                    out.push((Tok::Ident(word), line));
                }
            }
        } else if ch == ':' && c.get(i + 1) == Some(&':') {
            out.push((Tok::PathSep, line));
            i += 2;
        } else {
            if !ch.is_whitespace() {
                out.push((Tok::Punct(ch), line));
            }
            i += 1;
        }
        i = i.clamp(start + 1, c.len());
        line += c[start..i].iter().filter(|&&x| x == '\n').count();
    }
    out
}

fn skip_block_comment(c: &[char], mut i: usize) -> usize {
    let mut depth = 0;
    while i < c.len() {
        if c[i] == '/' && c.get(i + 1) == Some(&'*') {
            depth += 1;
            i += 2;
        } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    i
}

/// From just after the opening quote to just after the closing quote followed by `hashes` #.
fn skip_string(c: &[char], mut i: usize, hashes: usize) -> usize {
    while i < c.len() {
        if c[i] == '\\' && hashes == 0 {
            i += 2;
        } else if c[i] == '"' && (0..hashes).all(|k| c.get(i + 1 + k) == Some(&'#')) {
            return i + 1 + hashes;
        } else {
            i += 1;
        }
    }
    i
}

fn skip_char_or_lifetime(c: &[char], i: usize) -> usize {
    if c.get(i + 1) == Some(&'\\') {
        let mut j = i + 3; // past the backslash and the escaped character
        while j < c.len() && c[j] != '\'' {
            j += 1;
        }
        j + 1
    } else if c.get(i + 2) == Some(&'\'') {
        i + 3
    } else {
        i + 1 // a lifetime: its name follows as an identifier
    }
}

/// `b"…"`, `r"…"`, `r#"…"#`, `br#"…"#`, `c"…"`: the index after it, if one starts at `i`.
fn raw_or_byte_string(c: &[char], i: usize) -> Option<usize> {
    let mut j = i;
    if matches!(c[j], 'b' | 'c') {
        j += 1;
    }
    let raw = c.get(j) == Some(&'r');
    if raw {
        j += 1;
    }
    let hashes = c[j..].iter().take_while(|&&x| x == '#').count();
    if j == i || c.get(j + hashes) != Some(&'"') || (hashes > 0 && !raw) {
        return None;
    }
    Some(skip_string(c, j + hashes + 1, if raw { hashes } else { 0 }))
}

/// The tokens without `#[cfg(test)]` items (a test module, a test-only `use` or function).
fn without_test_items(toks: Vec<(Tok, usize)>) -> Vec<(Tok, usize)> {
    let attr: Vec<Tok> = "# [ cfg ( test ) ]"
        .split(' ')
        .map(|s| match s {
            "cfg" | "test" => Tok::Ident(s.to_string()),
            p => Tok::Punct(p.chars().next().unwrap()),
        })
        .collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let is_attr = toks.len() >= i + attr.len()
            && toks[i..i + attr.len()].iter().map(|t| &t.0).eq(attr.iter());
        if !is_attr {
            out.push(toks[i].clone());
            i += 1;
            continue;
        }
        i += attr.len();
        // The item: up to its `;` or through its balanced `{ … }`.
        while i < toks.len() && !matches!(toks[i].0, Tok::Punct(';') | Tok::Punct('{')) {
            i += 1;
        }
        if i < toks.len() && toks[i].0 == Tok::Punct('{') {
            let mut depth = 0;
            while i < toks.len() {
                match toks[i].0 {
                    Tok::Punct('{') => depth += 1,
                    Tok::Punct('}') => depth -= 1,
                    _ => {}
                }
                i += 1;
                if depth == 0 {
                    break;
                }
            }
        } else {
            i += 1;
        }
    }
    out
}

// ---------------------------------------------------------------- paths

/// One path a file names: its segments as written, and the line.
#[derive(Clone, Debug)]
struct Named {
    segs: Vec<String>,
    line: usize,
}

/// Every path a file names that starts at `crate`, `super` or `self` (in code), and every leaf
/// of every `use` tree (nested groups, `self`, renames and globs).
fn named_paths(toks: &[(Tok, usize)]) -> Vec<Named> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        match &toks[i].0 {
            Tok::Ident(w) if w == "use" => {
                let line = toks[i].1;
                let mut leaves = Vec::new();
                i = use_tree(toks, i + 1, Vec::new(), &mut leaves);
                out.extend(leaves.into_iter().map(|(segs, _)| Named { segs, line }));
            }
            Tok::Ident(w)
                if matches!(w.as_str(), "crate" | "super" | "self")
                    && toks.get(i + 1).map(|t| &t.0) == Some(&Tok::PathSep)
                    && !(i > 0 && toks[i - 1].0 == Tok::Punct('$')) =>
            {
                let line = toks[i].1;
                let mut segs = vec![w.clone()];
                i += 1;
                while toks.get(i).map(|t| &t.0) == Some(&Tok::PathSep) {
                    match toks.get(i + 1).map(|t| &t.0) {
                        Some(Tok::Ident(s)) => segs.push(s.clone()),
                        _ => break,
                    }
                    i += 2;
                }
                out.push(Named { segs, line });
            }
            _ => i += 1,
        }
    }
    out
}

/// A `use` leaf: the path, and the name it is known by (the last segment, or its `as` rename).
type Leaf = (Vec<String>, Option<String>);

/// Parses one use tree from `i` with `prefix` before it; pushes each leaf; returns the index
/// after the tree (after the `;` at the top level).
fn use_tree(
    toks: &[(Tok, usize)],
    mut i: usize,
    prefix: Vec<String>,
    leaves: &mut Vec<Leaf>,
) -> usize {
    let mut path = prefix;
    let mut name = None;
    loop {
        match toks.get(i).map(|t| &t.0) {
            Some(Tok::PathSep) => i += 1,
            Some(Tok::Ident(w)) if w == "as" => {
                // The rename: the path already ends at what it names.
                if let Some(Tok::Ident(n)) = toks.get(i + 1).map(|t| &t.0) {
                    name = Some(n.clone());
                }
                i += 2;
            }
            Some(Tok::Ident(w)) if w == "self" && !path.is_empty() => i += 1,
            Some(Tok::Ident(w)) => {
                path.push(w.clone());
                i += 1;
            }
            Some(Tok::Punct('*')) => i += 1,
            Some(Tok::Punct('{')) => {
                i += 1;
                while !matches!(toks.get(i).map(|t| &t.0), Some(Tok::Punct('}')) | None) {
                    i = use_tree(toks, i, path.clone(), leaves);
                    if toks.get(i).map(|t| &t.0) == Some(&Tok::Punct(',')) {
                        i += 1;
                    }
                }
                return finish_group(toks, i + 1);
            }
            _ => {
                let name = name.or_else(|| path.last().cloned());
                leaves.push((path, name));
                return if matches!(toks.get(i).map(|t| &t.0), Some(Tok::Punct(';'))) {
                    i + 1
                } else {
                    i
                };
            }
        }
    }
}

/// After a group's `}`: the `;` ends a top-level tree; a `,` or `}` is the enclosing group's.
fn finish_group(toks: &[(Tok, usize)], i: usize) -> usize {
    if matches!(toks.get(i).map(|t| &t.0), Some(Tok::Punct(';'))) {
        i + 1
    } else {
        i
    }
}

// ---------------------------------------------------------------- resolution

struct Crate {
    files: BTreeMap<Module, PathBuf>,
    /// Names the crate root re-exports: `platform` -> `board::platform`, `Report` -> `report::Report`.
    root_aliases: BTreeMap<String, Vec<String>>,
}

impl Crate {
    /// The module a path names, from a file that is module `from`; `None` for a path outside
    /// the crate (std, serde) or into the crate root itself.
    fn resolve(&self, from: &[String], segs: &[String]) -> Result<Option<Module>, String> {
        let mut abs: Vec<String> = match segs.first().map(String::as_str) {
            Some("crate") => segs[1..].to_vec(),
            Some("self") => from.iter().chain(&segs[1..]).cloned().collect(),
            Some("super") => {
                let ups = segs.iter().take_while(|s| *s == "super").count();
                if ups > from.len() {
                    return Err("more `super` than the module is deep".into());
                }
                from[..from.len() - ups]
                    .iter()
                    .chain(&segs[ups..])
                    .cloned()
                    .collect()
            }
            Some(first) => {
                // A relative `use` path: a child module of this one, or the root's own names.
                let child: Module = from.iter().chain([&first.to_string()]).cloned().collect();
                if self.files.contains_key(&child) {
                    from.iter().chain(segs).cloned().collect()
                } else if from.is_empty() && self.root_aliases.contains_key(first) {
                    segs.to_vec()
                } else {
                    return Ok(None);
                }
            }
            None => return Ok(None),
        };
        for _ in 0..8 {
            match abs.first() {
                None => return Ok(None),
                Some(first) if self.files.contains_key(&vec![first.clone()]) => break,
                Some(first) => match self.root_aliases.get(first) {
                    Some(target) if target.first() != Some(first) => {
                        abs = target.iter().chain(&abs[1..]).cloned().collect();
                    }
                    _ => {
                        return Err(format!(
                            "`{}` is no module or re-export of the crate root",
                            first
                        ))
                    }
                },
            }
        }
        let longest = (1..=abs.len())
            .rev()
            .map(|n| abs[..n].to_vec())
            .find(|m| self.files.contains_key(m));
        Ok(longest)
    }
}

fn root_aliases(lib_src: &str) -> BTreeMap<String, Vec<String>> {
    let toks = without_test_items(tokens(lib_src));
    let mut out = BTreeMap::new();
    let mut i = 0;
    while i < toks.len() {
        if toks[i].0 == Tok::Ident("use".into()) {
            let mut leaves = Vec::new();
            i = use_tree(&toks, i + 1, Vec::new(), &mut leaves);
            for (leaf, name) in leaves {
                if let Some(name) = name {
                    let crate_path = leaf.first().is_some_and(|s| s == "crate");
                    out.insert(name, if crate_path { leaf[1..].to_vec() } else { leaf });
                }
            }
        } else {
            i += 1;
        }
    }
    out
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
    let mut problems = Vec::new();

    // (b) the table and the files agree.
    for (floor, m) in &table {
        let dir = Path::new(SRC).join(m.join("/"));
        if !krate.files.contains_key(m) && !dir.is_dir() {
            problems.push(format!(
                "floor {floor} names `{}`, which is no file or folder under engine/src",
                show(m)
            ));
        }
    }
    for (m, p) in &krate.files {
        if !m.is_empty() && floor_of(&table, m).is_none() {
            problems.push(format!(
                "{} (module `{}`) is on no floor of the table in docs/ARCHITECTURE.md",
                rel(p),
                show(m)
            ));
        }
    }

    // (c) every import, resolved.
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
