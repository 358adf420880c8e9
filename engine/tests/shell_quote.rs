//! Issue 10, item 3: every command line mmcsim prints is safe to paste. `Scenario::to_command_line`
//! (the page's command line) quotes each argument a POSIX shell would split or interpret; a real
//! `sh` reads the line back to the same arguments, and so does a small shell-word reader.

use std::process::Command;

use mmcsim_engine::scenario::options::parse_args;
use mmcsim_engine::scenario::shell_quote;
use mmcsim_engine::{JobSpec, Scenario};
use proptest::prelude::*;

use crate::common;

/// Splits `line` into words as a POSIX shell does for a simple command: blanks separate words,
/// `'...'` quotes literally, `\` escapes one character outside quotes. Anything a shell would
/// interpret (`;&|<>()$\`"*?[#~` unquoted, a newline) is an error: it must have been quoted.
fn shell_words(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut cur: Option<String> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => {
                if let Some(w) = cur.take() {
                    words.push(w);
                }
            }
            '\'' => {
                let w = cur.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => w.push(c),
                        None => return Err("unterminated quote".into()),
                    }
                }
            }
            '\\' => {
                let n = chars.next().ok_or("trailing backslash")?;
                cur.get_or_insert_with(String::new).push(n);
            }
            c if ";&|<>()$`\"*?[#~\n".contains(c) => {
                return Err(format!("unquoted {c:?} in {line:?}"))
            }
            c => cur.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(cur);
    Ok(words)
}

fn with_name(name: &str) -> Scenario {
    Scenario {
        jobs: vec![JobSpec {
            name: name.into(),
            ..JobSpec::default()
        }],
        ..Scenario::default()
    }
}

/// Reads `line` with the system's `sh`, printing each argument after `mmcsim` NUL-terminated.
fn sh_words(line: &str) -> Vec<String> {
    let rest = line.strip_prefix("mmcsim ").expect("starts with mmcsim");
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!("printf '%s\\0' {rest}"))
        .output()
        .expect("sh runs");
    assert!(out.status.success(), "sh failed on {line:?}");
    String::from_utf8(out.stdout)
        .unwrap()
        .split_terminator('\0')
        .map(str::to_string)
        .collect()
}

const HOSTILE: &[&str] = &[
    "; echo PWNED",
    "a b",
    "$(echo PWNED)",
    "`echo PWNED`",
    "it's",
    "'",
    "''",
    "\"quoted\"",
    "a\\b",
    "*",
    "~",
    "x|echo PWNED",
    "x&&echo PWNED",
    "x>out",
    "$HOME",
    "#comment",
    "tab\there",
    "new\nline",
    "ünïcödé",
    "(sub)",
    "[a]",
    "a;b'c\"d$e`f",
];

#[test]
fn hostile_names_read_back_through_sh() {
    assert!(
        Command::new("sh").arg("-c").arg("true").status().is_ok(),
        "sh is available"
    );
    for name in HOSTILE {
        let s = with_name(name);
        let line = s.to_command_line();
        assert!(!line.contains("PWNED") || line.contains('\''), "{line}");
        let args = s.to_args();
        // `sh -n` accepts it and sh reads back exactly the arguments.
        let syntax = Command::new("sh").arg("-n").arg("-c").arg(&line).status();
        assert!(syntax.unwrap().success(), "sh -n refuses {line:?}");
        assert_eq!(sh_words(&line), args, "{line}");
        assert_eq!(shell_words(&line).unwrap()[1..], args[..], "{line}");
        // And the CLI's parser gives the same scenario back.
        // (a name with ']' or a control character is refused by the parser, by design)
        match parse_args(&args, Scenario::default()) {
            Ok(back) => assert_eq!(back.jobs[0].name, *name),
            Err(e) => assert!(
                name.contains(']') || name.chars().any(char::is_control),
                "{name:?}: {e}"
            ),
        }
    }
}

#[test]
fn plain_arguments_stay_unquoted() {
    assert_eq!(shell_quote("--bs=4k"), "--bs=4k");
    assert_eq!(shell_quote("--power_cut=50ms"), "--power_cut=50ms");
    assert_eq!(shell_quote("--name=a b"), "'--name=a b'");
    assert_eq!(shell_quote("--name=it's"), "'--name=it'\\''s'");
    assert_eq!(shell_quote(""), "''");
    let line = with_name("test").to_command_line();
    assert!(!line.contains('\''), "{line}");
}

proptest! {
    #![proptest_config(common::proptest_config(256))]
    #[test]
    fn any_name_reads_back(name in "[ -~\\t]{1,24}") {
        let s = with_name(&name);
        let line = s.to_command_line();
        let words = shell_words(&line).map_err(TestCaseError::fail)?;
        prop_assert_eq!(&words[0], "mmcsim");
        prop_assert_eq!(&words[1..], &s.to_args()[..]);
    }
}
