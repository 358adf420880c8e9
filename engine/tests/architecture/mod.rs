//! The floors of the engine, the components and the web app: `docs/ARCHITECTURE.md` has one
//! floor table per crate (floor number, modules, what they are; the header names the crate's
//! source folder); this test reads each and fails when
//!
//! - a module it names is not a file or folder under the source folder, or a source file is on
//!   no floor;
//! - an import points up: a module on floor n names (`use crate::…`, `super::…`, a `crate::…`
//!   path in code) a module on a floor above n;
//! - modules of the table import each other in a circle, or files do (a module's imports of its
//!   own parent or children are its inside, not a circle), except on the engine's floor of the
//!   kernel path and the simulator (the layers' `impl Simulator` blocks call the simulator,
//!   which calls them).
//!
//! `#[cfg(test)]` items, comments and string literals are skipped. A path through a `lib.rs`
//! re-export (`crate::Report`, `crate::platform::…`) counts as an import of the module it names.
//! Imports between crates are the crate table's business (`Cargo.toml`), not this test's.

mod doc_links;
mod doc_paths;
mod file_lengths;
mod floors;
mod graph;
mod resolve;
mod rust;

use floors::{check, floor_table};
use rust::{named_paths, tokens, without_test_items};

/// A module path below the crate root: `["path", "hsq"]`; the root is `[]`.
type Module = Vec<String>;

fn assert_floors(folder: &str, circle_floor: Option<&str>) {
    let problems = check(folder, circle_floor);
    assert!(
        problems.is_empty(),
        "the floors of {folder} (docs/ARCHITECTURE.md, its floor table) are broken:\n  {}\n",
        problems.join("\n  ")
    );
}

#[test]
fn the_engine_imports_no_floor_up_and_circles_only_on_the_path_floor() {
    assert_floors("engine/src", Some("sim"));
}

#[test]
fn the_components_import_no_floor_up_and_no_circle() {
    assert_floors("components/src", None);
}

#[test]
fn the_web_app_imports_no_floor_up_and_no_circle() {
    assert_floors("src", None);
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
    let doc = "| floor | engine/src | what |\n|---|---|---|\n| 0 | `vocab/`, `rng.rs` | words |\n| 3 | `path`, `tools::sweep` | x |\n\nafter\n";
    let t = floor_table(doc, "engine/src");
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

#[test]
fn a_circle_is_reported_with_the_imports_that_close_it_and_an_exempt_one_is_not() {
    let m = |s: &str| -> Module { s.split("::").map(String::from).collect() };
    let edge = |from: &str, to: &str, line| {
        (
            m(from),
            floors::Edge {
                file: format!("src/{from}.rs"),
                line,
                text: format!("crate::{to}"),
                to: m(to),
            },
        )
    };
    let edges = [edge("a", "b", 3), edge("b", "a", 7), edge("b", "c", 9)];
    let found = graph::circles(
        "file circle between",
        &edges,
        |x| Some(x.clone()),
        |_| false,
    );
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with("file circle between"), "{}", found[0]);
    assert!(
        found[0].contains("src/a.rs:3 `crate::b`") && found[0].contains("src/b.rs:7 `crate::a`"),
        "{}",
        found[0]
    );
    assert!(!found[0].contains("crate::c"), "{}", found[0]);
    let exempt = graph::circles("circle", &edges, |x| Some(x.clone()), |x| x != &m("c"));
    assert!(exempt.is_empty(), "{exempt:?}");
}
