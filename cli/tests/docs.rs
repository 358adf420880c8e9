//! Every `mmcsim` example of the README and the book (docs/), run and its output compared
//! (trycmd): a ```console block's `$ mmcsim ...` lines are run, `> ` lines continue a command,
//! `? 2` is the exit status, `[..]` stands for what may vary on a line, `...` for lines left out.
//! Commands that are not mmcsim go in ```sh blocks, which trycmd leaves alone (as it does
//! ```text); a fence with no language is run, so every block names one.
//!
//! The examples run in a scratch folder (target/docs-examples) with `cli`, `engine` and
//! `oracle` linked into it, so they name the repository's files as from its root and whatever
//! they write stays out of the work tree. `TRYCMD=overwrite cargo test -p mmcsim-cli --test docs`
//! writes the outputs into the Markdown (check the diff before committing it).

use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A fresh folder where the examples run, the repository's input folders linked into it.
fn scratch() -> PathBuf {
    let root = root().canonicalize().expect("the repository root");
    let dir = root.join("target/docs-examples");
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("target/docs-examples");
    for name in ["cli", "engine", "oracle"] {
        #[cfg(unix)]
        std::os::unix::fs::symlink(root.join(name), dir.join(name)).expect("link into the scratch");
    }
    dir
}

#[test]
fn the_readme_and_the_book_show_what_mmcsim_prints() {
    let root = root();
    let dir = scratch();
    // trycmd runs a Markdown case in the test's working folder.
    std::env::set_current_dir(&dir).expect("cd into the scratch");
    let cases = trycmd::TestCases::new();
    cases
        .register_bin("mmcsim", Path::new(env!("CARGO_BIN_EXE_mmcsim")))
        .case(root.join("README.md"));
    for page in fs::read_dir(root.join("docs")).expect("docs/").flatten() {
        let path = page.path();
        if path.extension().is_some_and(|e| e == "md") {
            cases.case(path);
        }
    }
    cases.run();
}
