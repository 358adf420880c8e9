//! Reading the command's input files: each at most [`MAX_INPUT_BYTES`], and only regular files
//! (a device, a FIFO or a directory is refused before it is read), or `-` for stdin where the
//! input may come from there (a job file, as fio reads one).

use mmcsim_engine::scenario::check::MAX_INPUT_BYTES;
use std::io::Read;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// Most bytes one command reads over all its input files together (many merge or fit result
/// files, a job file's includes and traces): four times one file's cap.
pub const MAX_TOTAL_INPUT_BYTES: u64 = 4 * MAX_INPUT_BYTES;

/// Bytes read so far by this command.
static READ_SO_FAR: AtomicU64 = AtomicU64::new(0);

/// Every file read so far by this command, with what it was read as (`job file 'x.fio'`): the
/// inputs no output may overwrite (`paths::check`).
static FILES_READ: Mutex<Vec<(String, PathBuf)>> = Mutex::new(Vec::new());

/// The files this command has read so far, with what each was read as.
pub fn files_read() -> Vec<(String, PathBuf)> {
    FILES_READ.lock().map(|f| f.clone()).unwrap_or_default()
}

/// The cap as text for messages.
fn cap() -> String {
    format!("{} MiB", MAX_INPUT_BYTES >> 20)
}

/// Reads at most the cap from `r` as text; more is refused with `what` named.
fn read_capped(r: impl Read, what: &str) -> Result<String, String> {
    let buf = read_capped_bytes(r, what)?;
    String::from_utf8(buf).map_err(|_| format!("{what}: not UTF-8 text"))
}

/// Reads at most the cap from `r`; more is refused with `what` named.
fn read_capped_bytes(r: impl Read, what: &str) -> Result<Vec<u8>, String> {
    let mut buf = Vec::new();
    r.take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut buf)
        .map_err(|e| format!("{what}: {e}"))?;
    if buf.len() as u64 > MAX_INPUT_BYTES {
        return Err(format!(
            "{what}: larger than {}; accepted: input files of at most {} ({MAX_INPUT_BYTES} bytes)",
            cap(),
            cap()
        ));
    }
    let total = READ_SO_FAR.fetch_add(buf.len() as u64, Ordering::Relaxed) + buf.len() as u64;
    if total > MAX_TOTAL_INPUT_BYTES {
        return Err(format!(
            "{what}: the command's input files come to more than {} MiB in all; accepted: at most {} MiB of input per command",
            MAX_TOTAL_INPUT_BYTES >> 20,
            MAX_TOTAL_INPUT_BYTES >> 20
        ));
    }
    Ok(buf)
}

/// The text of the file at `path`, read for `what` (e.g. "job file 'x.fio'"). `stdin_ok`: `-`
/// reads standard input.
pub fn read(path: &std::path::Path, what: &str, stdin_ok: bool) -> Result<String, String> {
    if stdin_ok && path.as_os_str() == "-" {
        return read_capped(std::io::stdin().lock(), what);
    }
    let f = open(path, what, stdin_ok)?;
    // The file may grow between the two looks: the read is capped too.
    read_capped(f, what)
}

/// The bytes of the file at `path` (a trace may be binary: a Perfetto protobuf trace).
pub fn read_bytes(path: &std::path::Path, what: &str) -> Result<Vec<u8>, String> {
    read_capped_bytes(open(path, what, false)?, what)
}

/// The regular file at `path`, at most the cap long.
fn open(path: &std::path::Path, what: &str, stdin_ok: bool) -> Result<std::fs::File, String> {
    if let Ok(mut f) = FILES_READ.lock() {
        f.push((what.to_string(), path.to_path_buf()));
    }
    let meta = std::fs::metadata(path).map_err(|e| format!("{what}: {e}"))?;
    if !meta.is_file() {
        let kind = if meta.is_dir() {
            "a directory"
        } else {
            "not a regular file (a device, FIFO or socket)"
        };
        return Err(format!(
            "{what}: {kind}; accepted: a regular file of at most {}{}",
            cap(),
            if stdin_ok { ", or - for stdin" } else { "" }
        ));
    }
    if meta.len() > MAX_INPUT_BYTES {
        return Err(format!(
            "{what}: {} bytes, larger than {}; accepted: input files of at most {} ({MAX_INPUT_BYTES} bytes)",
            meta.len(),
            cap(),
            cap()
        ));
    }
    std::fs::File::open(path).map_err(|e| format!("{what}: {e}"))
}
