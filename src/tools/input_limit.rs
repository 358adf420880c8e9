//! How much of a picked or pasted file the page reads. The page parses on its one thread, so
//! each kind of file has a size the page handles in a few tens of milliseconds; a larger one is
//! refused before it is read, with a message naming the size accepted here and the CLI command
//! that takes the file whole (`mmcsim` reads up to [`MAX_INPUT_BYTES`]). No browser code: tested
//! natively.
//!
//! Measured in Chromium on the project's 2-core machine (release build, main thread, from the
//! file picked to the scenario loaded): a 13.4 MB fio iolog (400 000 I/Os) about 350 ms of CPU
//! and 1.5 s of wall time under load, a 13.8 MB job file about 200 ms (most of it the
//! browser's text decoding and the copy into wasm). The limits below keep each under 60 ms of
//! CPU, so a frame is not held for 100 ms on a loaded machine.

use mmcsim_engine::scenario::check::MAX_INPUT_BYTES;

/// A kind of file the page reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PageInput {
    /// A fio job file (opened or pasted).
    JobFile,
    /// A trace to replay (fio iolog v2/v3 or blkparse text).
    Trace,
    /// A platform file (TOML).
    PlatformFile,
    /// A fio JSON result for the fit.
    FitResult,
}

impl PageInput {
    /// Most bytes the page reads of one such file.
    pub fn limit(self) -> u64 {
        match self {
            // About 70 000 iolog lines (a 2 MiB trace: about 55 ms of CPU).
            PageInput::Trace => 2 << 20,
            // Job files people write are a few KiB; fio's JSON output of a long job with
            // every percentile and histogram is well under 1 MiB.
            PageInput::JobFile | PageInput::PlatformFile | PageInput::FitResult => 1 << 20,
        }
    }

    /// The CLI command that reads such a file whole.
    fn cli(self) -> &'static str {
        match self {
            PageInput::JobFile => "mmcsim FILE",
            PageInput::Trace => "mmcsim --read_iolog=FILE",
            PageInput::PlatformFile => "mmcsim --platform_file=FILE",
            PageInput::FitResult => "mmcsim fit FILE...",
        }
    }
}

/// `bytes` as people read a file size: "13.4 MiB", "900 KiB", "12 bytes".
fn size_text(bytes: u64) -> String {
    if bytes >= 1 << 20 {
        format!("{:.1} MiB", bytes as f64 / (1u64 << 20) as f64)
    } else if bytes >= 1 << 10 {
        format!("{} KiB", bytes.div_ceil(1 << 10))
    } else {
        format!("{bytes} bytes")
    }
}

/// Whether the page reads the file `name` of `bytes` bytes as `kind`: the one-line refusal
/// otherwise.
pub fn check(kind: PageInput, name: &str, bytes: u64) -> Result<(), String> {
    let limit = kind.limit();
    if bytes <= limit {
        return Ok(());
    }
    // Sizes that round to the same text ("2.0 MiB is larger than ... 2.0 MiB") are said in
    // bytes.
    let size = match size_text(bytes) {
        s if s == size_text(limit) => format!("{bytes} bytes"),
        s => s,
    };
    Err(format!(
        "{name}: {size} is larger than the page reads; accepted here: at most {} ({limit} bytes), \
         which the page parses without holding up a frame. The CLI reads files up to {} MiB: {}",
        size_text(limit),
        MAX_INPUT_BYTES >> 20,
        kind.cli()
    ))
}

/// A file's name as messages echo it, as the CLI echoes a name: cut, a line break a space,
/// other control characters escaped (a name may hold any character but `/` and NUL).
pub fn shown_name(name: &str) -> String {
    mmcsim_engine::scenario::escape_controls(&mmcsim_engine::scenario::clip(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_up_to_the_limit_are_read_and_larger_ones_refused_with_the_cli_command() {
        assert_eq!(check(PageInput::Trace, "t.iolog", 2 << 20), Ok(()));
        assert_eq!(check(PageInput::JobFile, "j.fio", 0), Ok(()));
        let e = check(PageInput::Trace, "big.iolog", 13_363_811).unwrap_err();
        assert!(e.starts_with("big.iolog: 12.7 MiB is larger than the page reads; accepted here: at most 2.0 MiB (2097152 bytes)"), "{e}");
        assert!(
            e.ends_with("The CLI reads files up to 16 MiB: mmcsim --read_iolog=FILE"),
            "{e}"
        );
        let e = check(PageInput::JobFile, "j.fio", (1 << 20) + 1).unwrap_err();
        assert!(
            e.contains("1048577 bytes is larger")
                && e.contains("at most 1.0 MiB")
                && e.ends_with("mmcsim FILE"),
            "{e}"
        );
        for kind in [
            PageInput::JobFile,
            PageInput::Trace,
            PageInput::PlatformFile,
            PageInput::FitResult,
        ] {
            assert!(
                kind.limit() < MAX_INPUT_BYTES,
                "the page reads less than the CLI"
            );
            assert!(check(kind, "x", kind.limit() + 1).is_err());
        }
        // Just past the limit, the sizes would read alike: the file's is said in bytes.
        let e = check(PageInput::Trace, "t.iolog", (2 << 20) + 1).unwrap_err();
        assert!(
            e.starts_with("t.iolog: 2097153 bytes is larger than the page reads; accepted here: at most 2.0 MiB (2097152 bytes)"),
            "{e}"
        );
        let e = check(PageInput::JobFile, "j.fio", (1 << 20) + 1000).unwrap_err();
        assert!(e.starts_with("j.fio: 1049576 bytes is larger"), "{e}");
        assert_eq!(size_text(900), "900 bytes");
        assert_eq!(size_text(1025), "2 KiB");
    }

    /// A file name echoed in a message is the CLI's echo of it.
    #[test]
    fn a_file_name_is_echoed_escaped_and_cut() {
        assert_eq!(shown_name("a\nb\u{1b}[2J.fio"), "a b\\x1b[2J.fio");
        assert!(shown_name(&"n".repeat(300)).ends_with("… (300 chars)"));
    }
}
