//! I/O traces for `read_iolog=`: fio's iolog v2 and v3 (HOWTO, "Trace file format") and the
//! default text output of blkparse (`blkparse -i TRACE`, one line per event:
//! `MAJ,MIN CPU SEQ SECS.NSECS PID ACTION RWBS SECTOR + NSECTORS [COMM]`).
//!
//! A trace is parsed whole before anything runs: a malformed line is refused with its number and
//! nothing is half-loaded. Trims and discards are counted and left out (replaying them is not
//! modelled; `rw=trim` is); file actions (`add`, `open`, `close`) change nothing on one block device.

use super::error::ScenarioError;
use super::limits::MAX_BS;
use serde::{Deserialize, Serialize};

/// What one traced I/O asks of the device.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum LogOpKind {
    Read,
    Write,
    /// `sync` / `datasync` in an iolog, a flush (`F` alone) in blkparse: a cache flush.
    Flush,
}

/// One traced I/O.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct LogOp {
    /// When it was issued, ns from the trace's first I/O (0 for iolog v2 without `wait`).
    pub t_ns: u64,
    pub kind: LogOpKind,
    /// Byte offset on the device.
    pub offset: u64,
    pub len: u64,
    /// REQ_FUA (blkparse RWBS `WF...`).
    pub fua: bool,
}

/// The format a trace was read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum IoLogFormat {
    FioV2,
    FioV3,
    Blkparse,
}

impl IoLogFormat {
    pub fn name(self) -> &'static str {
        match self {
            IoLogFormat::FioV2 => "fio iolog v2",
            IoLogFormat::FioV3 => "fio iolog v3",
            IoLogFormat::Blkparse => "blkparse text",
        }
    }
}

/// A parsed trace, named as `read_iolog=` names it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct IoLog {
    pub name: String,
    pub format: IoLogFormat,
    pub ops: Vec<LogOp>,
    /// Trims / discards left out.
    pub skipped_trims: u64,
}

const V2: &str = "fio version 2 iolog";
const V3: &str = "fio version 3 iolog";

fn err(name: &str, n: usize, msg: impl std::fmt::Display) -> ScenarioError {
    ScenarioError::new("read_iolog", format!("{name}: line {n}: {msg}"))
}

/// Parses `text` (the format is told by its first line) into the trace `name`.
pub fn parse(name: &str, text: &str) -> Result<IoLog, ScenarioError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let first = text
        .lines()
        .enumerate()
        .find(|(_, l)| !l.trim().is_empty())
        .ok_or_else(|| ScenarioError::new("read_iolog", format!("{name}: the trace is empty")))?;
    let mut log = IoLog {
        name: name.to_string(),
        format: IoLogFormat::FioV2,
        ops: Vec::new(),
        skipped_trims: 0,
    };
    match first.1.trim() {
        V2 => parse_fio(&mut log, text, false)?,
        V3 => {
            log.format = IoLogFormat::FioV3;
            parse_fio(&mut log, text, true)?
        }
        l if is_blkparse_event(l) => {
            log.format = IoLogFormat::Blkparse;
            parse_blkparse(&mut log, text)?
        }
        l if l.starts_with("fio version") => {
            return Err(err(
                name,
                first.0 + 1,
                format!("'{l}' is not modelled; accepted: '{V2}', '{V3}', blkparse text"),
            ))
        }
        _ => {
            return Err(err(
                name,
                first.0 + 1,
                format!("not a trace; accepted: a '{V2}' or '{V3}' header, or blkparse's default text output"),
            ))
        }
    }
    if log.ops.is_empty() {
        return Err(ScenarioError::new(
            "read_iolog",
            format!("{name}: the trace has no read, write or flush to replay"),
        ));
    }
    let limit = super::limits::MAX_TIME_NS;
    if let Some(op) = log.ops.iter().find(|o| o.t_ns > limit) {
        return Err(ScenarioError::new(
            "read_iolog",
            format!(
                "{name}: an I/O is issued {} s after the first; accepted: traces of at most {} s (one day) of issue times",
                op.t_ns / 1_000_000_000,
                limit / 1_000_000_000
            ),
        ));
    }
    Ok(log)
}

fn number(name: &str, n: usize, what: &str, tok: Option<&str>) -> Result<u64, ScenarioError> {
    let tok = tok.ok_or_else(|| err(name, n, format!("{what} is missing")))?;
    tok.parse::<u64>()
        .map_err(|_| err(name, n, format!("{what} '{tok}' is not a number")))
}

/// Offset and length must be whole sectors and the length a block size the model takes.
fn extent(name: &str, n: usize, offset: u64, len: u64) -> Result<(), ScenarioError> {
    if len == 0 || !len.is_multiple_of(512) || !offset.is_multiple_of(512) || len > MAX_BS {
        return Err(err(
            name,
            n,
            format!(
                "offset {offset} / length {len}: accepted: whole 512-byte sectors, 512..=64m long"
            ),
        ));
    }
    Ok(())
}

/// fio iolog v2 (`FILE ACTION [OFFSET LENGTH]`) or v3 (`USECS FILE ACTION [OFFSET LENGTH]`).
fn parse_fio(log: &mut IoLog, text: &str, v3: bool) -> Result<(), ScenarioError> {
    let name = log.name.clone();
    let mut header = false;
    // v2 has no timestamps; its `wait` actions (microseconds) delay what follows.
    let mut t_ns = 0u64;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        if !header {
            header = true;
            continue;
        }
        let mut tok = line.split_whitespace();
        if v3 {
            let us = number(&name, n, "timestamp", tok.next())?;
            t_ns = us.saturating_mul(1000);
        }
        let _file = tok
            .next()
            .ok_or_else(|| err(&name, n, "file name is missing"))?;
        let action = tok
            .next()
            .ok_or_else(|| err(&name, n, "action is missing"))?;
        let kind = match action {
            "add" | "open" | "close" => continue,
            "wait" if !v3 => {
                let us = number(&name, n, "wait (microseconds)", tok.next())?;
                t_ns = t_ns.saturating_add(us.saturating_mul(1000));
                continue;
            }
            "read" => LogOpKind::Read,
            "write" => LogOpKind::Write,
            "sync" | "datasync" => LogOpKind::Flush,
            "trim" => {
                log.skipped_trims += 1;
                continue;
            }
            other => {
                return Err(err(
                    &name,
                    n,
                    format!("action '{other}' is not modelled; accepted: add, open, close, read, write, sync, datasync, trim{}", if v3 { "" } else { ", wait" }),
                ))
            }
        };
        let (offset, len) = if kind == LogOpKind::Flush {
            (0, 0)
        } else {
            let offset = number(&name, n, "offset", tok.next())?;
            let len = number(&name, n, "length", tok.next())?;
            extent(&name, n, offset, len)?;
            (offset, len)
        };
        log.ops.push(LogOp {
            t_ns,
            kind,
            offset,
            len,
            fua: false,
        });
    }
    Ok(())
}

/// `8,0` and the like: a blkparse event line starts with the device's major,minor.
fn is_blkparse_event(line: &str) -> bool {
    let Some(dev) = line.split_whitespace().next() else {
        return false;
    };
    let Some((maj, min)) = dev.split_once(',') else {
        return false;
    };
    !maj.is_empty()
        && !min.is_empty()
        && maj.bytes().all(|b| b.is_ascii_digit())
        && min.bytes().all(|b| b.is_ascii_digit())
}

/// `SECS.NSECS` to ns.
fn secs_ns(tok: &str) -> Option<u64> {
    let (s, f) = tok.split_once('.').unwrap_or((tok, ""));
    if f.len() > 9 || !f.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let s: u64 = s.parse().ok()?;
    let f: u64 = if f.is_empty() {
        0
    } else {
        format!("{f:0<9}").parse().ok()?
    };
    s.checked_mul(1_000_000_000)?.checked_add(f)
}

/// blkparse's default output: the `Q` (queued) events are the I/Os the file system asked for; a
/// request is replayed at its queue time. Other actions (G, I, D, C, M, P, U, m...) are the
/// kernel's own handling of them and are skipped, as is the summary blkparse prints at the end.
fn parse_blkparse(log: &mut IoLog, text: &str) -> Result<(), ScenarioError> {
    let name = log.name.clone();
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        if !is_blkparse_event(line) {
            // The summary ("CPU0 (8,0):", "Total (8,0):", ...) ends the events.
            let summary = ["CPU", "Total", "Throughput", "Events", "Skips"]
                .iter()
                .any(|p| line.starts_with(p));
            if summary {
                break;
            }
            return Err(err(
                &name,
                n,
                "not a blkparse event (MAJ,MIN CPU SEQ SECS PID ACTION RWBS ...)",
            ));
        }
        let tok: Vec<&str> = line.split_whitespace().collect();
        if tok.len() < 6 {
            return Err(err(&name, n, "too few fields for a blkparse event"));
        }
        if tok[5] != "Q" {
            continue;
        }
        queued_event(log, &name, n, &tok)?;
    }
    // Events of several CPUs may be out of time order in the text: replay them in time order,
    // from the first one.
    log.ops.sort_by_key(|o| o.t_ns);
    let t0 = log.ops.first().map_or(0, |o| o.t_ns);
    log.ops.iter_mut().for_each(|o| o.t_ns -= t0);
    Ok(())
}

/// One `Q` event (`tok`: its fields, line `n`): its flush, read or write; a discard is counted
/// and left out.
fn queued_event(log: &mut IoLog, name: &str, n: usize, tok: &[&str]) -> Result<(), ScenarioError> {
    let t = secs_ns(tok[3])
        .ok_or_else(|| err(name, n, format!("time '{}' is not SECS.NSECS", tok[3])))?;
    let rwbs = *tok
        .get(6)
        .ok_or_else(|| err(name, n, "RWBS field is missing"))?;
    let (preflush, rest) = match rwbs.strip_prefix('F') {
        Some(r) => (true, r),
        None => (false, rwbs),
    };
    let mut chars = rest.chars();
    let dir = chars.next();
    let fua = chars.as_str().contains('F');
    let sector = tok.get(7).filter(|s| !s.starts_with('['));
    let t_rel = t;
    let mut push = |kind, offset, len, fua| {
        log.ops.push(LogOp {
            t_ns: t_rel,
            kind,
            offset,
            len,
            fua,
        })
    };
    let kind = match dir {
        Some('R') => LogOpKind::Read,
        Some('W') => LogOpKind::Write,
        Some('D') | Some('E') => {
            log.skipped_trims += 1;
            return Ok(());
        }
        // `FN`: an empty flush; `N` without data: nothing for the device.
        Some('N') | None => {
            if preflush {
                push(LogOpKind::Flush, 0, 0, false);
            }
            return Ok(());
        }
        Some(c) => {
            return Err(err(
                name,
                n,
                format!(
                    "RWBS '{rwbs}': '{c}' is not modelled; accepted: R, W, D, N with F/S/M/A flags"
                ),
            ))
        }
    };
    let Some(sector) = sector else {
        if preflush {
            push(LogOpKind::Flush, 0, 0, false);
        }
        return Ok(());
    };
    let sector: u64 = sector
        .parse()
        .map_err(|_| err(name, n, format!("sector '{sector}' is not a number")))?;
    if tok.get(8) != Some(&"+") {
        return Err(err(name, n, "expected 'SECTOR + NSECTORS'"));
    }
    let nsect = number(name, n, "sector count", tok.get(9).copied())?;
    let (offset, len) = (sector.saturating_mul(512), nsect.saturating_mul(512));
    extent(name, n, offset, len)?;
    if preflush {
        push(LogOpKind::Flush, 0, 0, false);
    }
    push(kind, offset, len, fua);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issue_times_past_a_day_are_refused() {
        for v3 in [
            "fio version 3 iolog\n0 f add\n18446744073709551615 f write 0 4096\n",
            "fio version 3 iolog\n0 f add\n0 f write 0 4096\n86400000001 f write 0 4096\n",
        ] {
            let e = parse("t", v3).unwrap_err().to_string();
            assert!(e.contains("at most 86400 s (one day)"), "{e}");
        }
        let v2 = "fio version 2 iolog\nf add\nf write 0 4096\nf wait 18446744073709551615\nf write 0 4096\n";
        assert!(parse("w", v2).is_err());
        let day = "fio version 3 iolog\n0 f add\n86400000000 f write 0 4096\n";
        assert_eq!(parse("d", day).unwrap().ops[0].t_ns, 86_400_000_000_000);
    }

    #[test]
    fn reads_each_format_and_names_a_bad_line() {
        let v2 = "fio version 2 iolog\n/dev/mmcblk0 add\n/dev/mmcblk0 open\n/dev/mmcblk0 write 0 4096\n/dev/mmcblk0 wait 100\n/dev/mmcblk0 read 8192 8192\n/dev/mmcblk0 sync 0 0\n/dev/mmcblk0 trim 0 4096\n/dev/mmcblk0 close\n";
        let l = parse("a", v2).unwrap();
        assert_eq!(l.format, IoLogFormat::FioV2);
        assert_eq!(l.ops.len(), 3);
        assert_eq!(
            (l.ops[1].t_ns, l.ops[1].offset, l.ops[1].len),
            (100_000, 8192, 8192)
        );
        assert_eq!((l.ops[2].kind, l.skipped_trims), (LogOpKind::Flush, 1));
        let v3 = "fio version 3 iolog\n0 f add\n5 f write 4096 4096\n";
        assert_eq!(parse("b", v3).unwrap().ops[0].t_ns, 5_000);
        let bp = "  179,0    2        1     0.000100000  812  Q  WS 16 + 8 [kworker]\n  179,0    2        2     0.000101000  812  G  WS 16 + 8 [kworker]\n  179,0    1        3     0.000200000  812  Q FWFS 32 + 8 [jbd2]\nCPU1 (179,0):\n Reads Queued: 0\n";
        let l = parse("c", bp).unwrap();
        assert_eq!(l.format, IoLogFormat::Blkparse);
        assert_eq!(l.ops.len(), 3);
        assert_eq!(
            (l.ops[0].t_ns, l.ops[0].offset, l.ops[0].len),
            (0, 8192, 4096)
        );
        assert_eq!(
            (l.ops[1].kind, l.ops[2].fua, l.ops[2].t_ns),
            (LogOpKind::Flush, true, 100_000)
        );
        let e = parse("d", "fio version 2 iolog\nf write 0\n").unwrap_err();
        assert!(
            e.to_string().contains("d: line 2: length is missing"),
            "{e}"
        );
        let e = parse("e", "  8,0 0 1 0.1 3 Q W x + 8 [a]\n").unwrap_err();
        assert!(e.to_string().contains("line 1: sector 'x'"), "{e}");
        assert!(parse("f", "hello\n").is_err());
        assert!(parse("g", "fio version 2 iolog\nf write 1 4096\n").is_err());
    }
}
