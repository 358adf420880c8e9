//! No output may destroy an input or another output: every file a command writes is compared
//! with every file it read (`input::read` keeps their names) and with every other file it is
//! about to write, as the file system sees them, before anything is written. Two names are one
//! file when they resolve to the same place (`./o.json`, `o.json` and `../tmp/o.json` from
//! `/tmp`: the folder canonicalised, then the file's name, for a file that does not exist yet)
//! or, for files that exist, when they are the same inode (a hard link, a symlink).

use std::path::{Path, PathBuf};

/// Where `name` is: canonicalised when it exists; else its folder canonicalised and the file
/// name; else the name made absolute, `.` and `..` taken lexically.
fn resolved(name: &str) -> PathBuf {
    let p = Path::new(name);
    if let Ok(c) = std::fs::canonicalize(p) {
        return c;
    }
    let dir = match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if let (Ok(d), Some(file)) = (std::fs::canonicalize(&dir), p.file_name()) {
        return d.join(file);
    }
    let abs = std::env::current_dir().unwrap_or_default().join(p);
    let mut out = PathBuf::new();
    for c in abs.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

/// The file's device and inode, when it exists.
#[cfg(unix)]
fn inode(name: &str) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(name).ok().map(|m| (m.dev(), m.ino()))
}

#[cfg(not(unix))]
fn inode(_: &str) -> Option<(u64, u64)> {
    None
}

/// Two names are one file (the same text, the same place, or the same existing inode).
pub fn same_file(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    if let (Some(x), Some(y)) = (inode(a), inode(b)) {
        return x == y;
    }
    resolved(a) == resolved(b)
}

/// Refuses the first output that is one file with an input the command read or with an
/// earlier output: one line naming both options and the path. `outputs` are (option, file) in
/// the order they are given; `inputs` (what the file was read as, file) as `input::read` took
/// them. Standard input (`-`) is no file.
pub fn check(outputs: &[(String, String)], inputs: &[(String, PathBuf)]) -> Result<(), String> {
    for (i, (opt, path)) in outputs.iter().enumerate() {
        writable(opt, path)?;
        for (what, input) in inputs {
            let input = input.to_string_lossy();
            if input != "-" && same_file(path, &input) {
                return Err(format!(
                    "{opt}: '{path}' is the {what} this command reads; an output may not overwrite an input, give it its own file"
                ));
            }
        }
        for (first, earlier) in &outputs[..i] {
            if same_file(path, earlier) {
                return Err(format!(
                    "{opt}: '{path}' is also the file of --{first}; give each output its own file"
                ));
            }
        }
    }
    Ok(())
}

/// An output is `-` (standard output, for the options that take it), a new file, a regular
/// file, or a character device (`/dev/null`): a FIFO with no reader would block the command
/// for ever, and a directory, a socket or a block device is no output.
fn writable(opt: &str, path: &str) -> Result<(), String> {
    let stdout_ok = STDOUT_OPTIONS.contains(&opt);
    if path == "-" && stdout_ok {
        return Ok(());
    }
    let accepted = if stdout_ok {
        "a regular file, a character device such as /dev/null, or - for standard output"
    } else {
        "a regular file or a character device such as /dev/null"
    };
    let Ok(meta) = std::fs::metadata(path) else {
        return Ok(());
    };
    #[cfg(unix)]
    let chardev = std::os::unix::fs::FileTypeExt::is_char_device(&meta.file_type());
    #[cfg(not(unix))]
    let chardev = false;
    if meta.is_file() || chardev {
        return Ok(());
    }
    let kind = if meta.is_dir() {
        "a directory"
    } else {
        "not a regular file (a FIFO, socket or block device)"
    };
    Err(format!("{opt}: '{path}' is {kind}; accepted: {accepted}"))
}

/// The outputs that `-` sends to standard output.
pub const STDOUT_OPTIONS: &[&str] = &["output", "write_trace", "write_csv", "write_jobfile"];

#[cfg(test)]
mod tests {
    use super::*;

    /// Names of one place are one file whether or not it exists yet; other names are not.
    #[test]
    fn names_of_one_place_are_one_file() {
        let dir = std::env::temp_dir().join(format!("mmcsim-paths-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        let d = dir.to_string_lossy();
        let (a, b) = (format!("{d}/o.json"), format!("{d}/sub/../o.json"));
        assert!(same_file(&a, &b), "not yet there");
        assert!(same_file(&a, &format!("{d}/./o.json")));
        assert!(!same_file(&a, &format!("{d}/sub/o.json")));
        std::fs::write(&a, "x").unwrap();
        assert!(same_file(&a, &b), "there");
        #[cfg(unix)]
        {
            let link = format!("{d}/hard.json");
            let _ = std::fs::remove_file(&link);
            std::fs::hard_link(&a, &link).unwrap();
            assert!(same_file(&a, &link), "a hard link");
        }
        let outs = [
            ("output".to_string(), a.clone()),
            ("write_csv".to_string(), b.clone()),
        ];
        let err = check(&outs, &[]).unwrap_err();
        assert!(
            err.starts_with("write_csv: ") && err.contains("--output"),
            "{err}"
        );
        let err = check(&outs[1..], &[("read_iolog 'x'".into(), PathBuf::from(&a))]).unwrap_err();
        assert!(err.contains("read_iolog 'x'"), "{err}");
        assert!(check(&outs[..1], &[("job file '-'".into(), PathBuf::from("-"))]).is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
