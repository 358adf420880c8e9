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
    decode_text(read_capped_bytes(r, what)?, what)
}

/// The text of a file's bytes: UTF-8 (a byte-order mark is the parsers' to drop), or UTF-16
/// with its byte-order mark, as Windows editors and PowerShell's `>` write it.
fn decode_text(buf: Vec<u8>, what: &str) -> Result<String, String> {
    const ACCEPTED: &str = "accepted: UTF-8 text, or UTF-16 with a byte-order mark";
    let utf16 = |bytes: &[u8], le: bool| {
        let units = bytes.chunks(2).map(|c| match (c, le) {
            ([a, b], true) => Ok(u16::from_le_bytes([*a, *b])),
            ([a, b], false) => Ok(u16::from_be_bytes([*a, *b])),
            _ => Err(()),
        });
        let units: Result<Vec<u16>, ()> = units.collect();
        units
            .ok()
            .and_then(|u| String::from_utf16(&u).ok())
            .ok_or_else(|| {
                format!("{what}: not valid UTF-16 text after its byte-order mark; {ACCEPTED}")
            })
    };
    match buf.as_slice() {
        [0xFF, 0xFE, rest @ ..] => return utf16(rest, true),
        [0xFE, 0xFF, rest @ ..] => return utf16(rest, false),
        _ => {}
    }
    // Every other byte NUL: UTF-16 whose byte-order mark was lost (ASCII in it is valid UTF-8).
    let nuls = buf.iter().skip(1).step_by(2).filter(|&&c| c == 0).count();
    if buf.len() >= 4 && nuls * 4 >= buf.len() {
        return Err(format!(
            "{what}: looks like UTF-16 without a byte-order mark; {ACCEPTED} (save it as UTF-8)"
        ));
    }
    String::from_utf8(buf).map_err(|e| {
        format!(
            "{what}: not UTF-8 text (byte {} is not); {ACCEPTED}",
            e.utf8_error().valid_up_to()
        )
    })
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

#[cfg(test)]
mod tests {
    use super::decode_text;

    fn utf16(s: &str, le: bool) -> Vec<u8> {
        let mut out = if le {
            vec![0xFF, 0xFE]
        } else {
            vec![0xFE, 0xFF]
        };
        for u in s.encode_utf16() {
            out.extend(if le { u.to_le_bytes() } else { u.to_be_bytes() });
        }
        out
    }

    #[test]
    fn utf16_with_its_byte_order_mark_reads_as_its_text() {
        let job = "[global]\nrw=read\n[j]\nsize=1m # µs\n";
        assert_eq!(decode_text(utf16(job, true), "f").unwrap(), job);
        assert_eq!(decode_text(utf16(job, false), "f").unwrap(), job);
        assert_eq!(decode_text(job.as_bytes().to_vec(), "f").unwrap(), job);
    }

    #[test]
    fn other_bytes_are_refused_naming_what_is_accepted() {
        let lost_bom = utf16("[global]\nrw=read\n", true)[2..].to_vec();
        let e = decode_text(lost_bom, "job file 'x.fio'").unwrap_err();
        assert!(
            e.starts_with("job file 'x.fio': looks like UTF-16 without a byte-order mark"),
            "{e}"
        );
        let e = decode_text(b"rw=read\n\xe9\n".to_vec(), "f").unwrap_err();
        assert_eq!(e, "f: not UTF-8 text (byte 8 is not); accepted: UTF-8 text, or UTF-16 with a byte-order mark");
        let e = decode_text(vec![0xFF, 0xFE, 0x00, 0xD8], "f").unwrap_err();
        assert!(e.contains("not valid UTF-16"), "{e}");
    }
}
