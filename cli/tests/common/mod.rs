//! What the CLI's test files share: running the `mmcsim` binary, scratch folders, and the
//! check of a refusal (exit status 2, one line on stderr).
// Each test file uses some of these; the others would warn as dead code in that file.
#![allow(dead_code)]

use std::process::{Command, Output};

pub fn mmcsim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mmcsim"))
        .args(args)
        .output()
        .expect("run mmcsim")
}

/// A scratch folder for one test, `name` and the process id, created.
pub fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The standard output of a run that must succeed.
pub fn ok_stdout(args: &[&str]) -> String {
    let out = mmcsim(args);
    assert!(
        out.status.success(),
        "{:?}: {}",
        args,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Exit status 2 and exactly one line on stderr that contains `expect`.
pub fn bad(args: &[&str], expect: &str) {
    let out = mmcsim(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{:?}: {}", args, err);
    assert_eq!(err.lines().count(), 1, "{:?}: {}", args, err);
    assert!(
        err.starts_with("mmcsim: ") && err.contains(expect),
        "{:?}: {}",
        args,
        err
    );
    assert!(!err.contains("panicked"), "{}", err);
}
