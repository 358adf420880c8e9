//! I/O traces for `read_iolog=` (fio's `init_iolog` / `read_iolog2`, `load_blktrace`): fio's
//! iolog v2 and v3 (HOWTO, "Trace file format"), the default text output of blkparse
//! (`blkparse -i TRACE`) and ftrace text of the kernel's block tracepoints
//! (`/sys/kernel/tracing/trace`, `trace-cmd report`), and Perfetto protobuf traces with block
//! events ([`parse_bytes`]), the format told by the file itself as fio tells a blktrace from an
//! iolog.
//!
//! A trace is parsed whole before anything runs: a malformed line is refused with its number and
//! nothing is half-loaded. A kernel trace is replayed from its issue events (blkparse `D`,
//! `block_rq_issue`: the requests the driver was given) or, with `replay_events=queue`, from its
//! queue events (blkparse `Q`, `block_bio_queue`: the bios the file system asked for); flushes,
//! FUA writes and discards are replayed as what they are. File actions (`add`, `open`, `close`)
//! change nothing on one block device.

mod blkparse;
mod blktrace;
mod block;
mod check;
mod fio;
mod ftrace;
mod perfetto;
#[cfg(test)]
mod tests;

use super::error::ScenarioError;
use super::limits::{DEVICE_BYTES, MAX_BS};
pub use check::{TraceD2c, TraceMeta};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// What one traced I/O asks of the device.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum LogOpKind {
    Read,
    Write,
    /// `sync` / `datasync` in an iolog; REQ_OP_FLUSH or an empty REQ_PREFLUSH bio (RWBS `F`,
    /// `FF`, `FN`, `FWS` of no sectors) in a kernel trace: a cache flush.
    Flush,
    /// `trim` in an iolog; REQ_OP_DISCARD (RWBS `D`) in a kernel trace.
    Discard,
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
    /// REQ_FUA (RWBS `WF...`).
    pub fua: bool,
    /// A queue event's place in its task's plug, as the trace's `block_plug` / `block_unplug`
    /// (blkparse `P` / `U`) bracket it; `None` for issue events and fio iologs.
    #[serde(default)]
    pub plug: LogPlug,
}

/// Where a queued bio stood in the plug the kernel submitted it in (`blk_start_plug` ..
/// `blk_finish_plug`): the trace's `block_plug` fires when the plug gets its first request
/// (`blk_add_rq_to_plug`), `block_unplug` when `blk_mq_flush_plug_list` flushes it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum LogPlug {
    #[default]
    None,
    /// Plugged; more bios of the same plug follow.
    Open,
    /// The plug's last bio: the plug is flushed after it.
    Last,
}

/// The format a trace was read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum IoLogFormat {
    FioV2,
    FioV3,
    Blkparse,
    /// ftrace text of the block tracepoints (the `trace` file, `trace-cmd report`).
    Ftrace,
    /// A Perfetto protobuf trace's ftrace block events.
    Perfetto,
    /// Binary blktrace (`blktrace -d`), one file per CPU.
    Blktrace,
}

impl IoLogFormat {
    pub fn name(self) -> &'static str {
        match self {
            IoLogFormat::FioV2 => "fio iolog v2",
            IoLogFormat::FioV3 => "fio iolog v3",
            IoLogFormat::Blkparse => "blkparse text",
            IoLogFormat::Ftrace => "ftrace text",
            IoLogFormat::Perfetto => "Perfetto trace",
            IoLogFormat::Blktrace => "binary blktrace",
        }
    }
}

/// Which events of a kernel trace are replayed (`replay_events=`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ReplayEvents {
    /// blkparse `D` / `block_rq_issue`: the requests as the driver got them, after the block
    /// layer's merges and splits (what fio's blktrace replay moved to in 2026).
    #[default]
    Issue,
    /// blkparse `Q` / `block_bio_queue`: the bios as submitted, merged and split again by the model.
    Queue,
}

impl ReplayEvents {
    pub fn name(self) -> &'static str {
        match self {
            ReplayEvents::Issue => "issue",
            ReplayEvents::Queue => "queue",
        }
    }
}

/// A list of traced I/Os, shared between the scenario and its simulators.
pub type Ops = Arc<Vec<LogOp>>;

/// A parsed trace, named as `read_iolog=` names it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct IoLog {
    pub name: String,
    pub format: IoLogFormat,
    /// The I/Os replayed: a fio iolog's, a kernel trace's issue events. Shared (not copied)
    /// with the simulators that replay them: a 16 MiB trace's million ops are held once.
    pub ops: Ops,
    /// A kernel trace's queue events (`replay_events=queue`); empty for a fio iolog.
    pub queued: Ops,
    /// The device (major, minor) of a kernel trace's events.
    pub dev: Option<(u32, u32)>,
    /// Events of no modelled kind left out (RWBS `DE`, secure erase; `N` with data: a
    /// driver-private request), said when the trace is loaded.
    pub skipped: u64,
    /// What a kernel trace says of itself, for the replay to be checked against.
    #[serde(default)]
    pub meta: TraceMeta,
}

impl IoLog {
    /// The I/Os a job replays with `replay_events=` `from` (a fio iolog has one list).
    pub fn ops_of(&self, from: ReplayEvents) -> &Ops {
        match from {
            ReplayEvents::Queue if self.format_has_events() => &self.queued,
            _ => &self.ops,
        }
    }

    /// A kernel trace (its events are the kernel's), not a fio iolog.
    pub fn format_has_events(&self) -> bool {
        matches!(
            self.format,
            IoLogFormat::Blkparse
                | IoLogFormat::Ftrace
                | IoLogFormat::Perfetto
                | IoLogFormat::Blktrace
        )
    }

    /// One line: the format, the I/Os of each kind replayed from `from`, what was left out.
    pub fn summary(&self, from: ReplayEvents) -> String {
        let ops = self.ops_of(from);
        let count = |k: LogOpKind| ops.iter().filter(|o| o.kind == k).count();
        let mut s = format!(
            "{} ({}{}): {} reads, {} writes ({} FUA), {} flushes, {} discards",
            self.name,
            self.format.name(),
            if self.format_has_events() {
                format!(", {} events", from.name())
            } else {
                String::new()
            },
            count(LogOpKind::Read),
            count(LogOpKind::Write),
            ops.iter().filter(|o| o.fua).count(),
            count(LogOpKind::Flush),
            count(LogOpKind::Discard),
        );
        if self.skipped > 0 {
            s.push_str(&format!(
                "; {} events left out (secure erase or driver-private requests: not modelled)",
                self.skipped
            ));
        }
        s
    }
}

const V2: &str = "fio version 2 iolog";
const V3: &str = "fio version 3 iolog";

/// Where in a trace: a text trace's line, a binary trace's byte offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Loc {
    Line(usize),
    Byte(usize),
}

impl From<usize> for Loc {
    fn from(n: usize) -> Loc {
        Loc::Line(n)
    }
}

impl std::fmt::Display for Loc {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Loc::Line(n) => write!(f, "line {n}"),
            Loc::Byte(n) => write!(f, "byte offset {n}"),
        }
    }
}

fn err(name: &str, at: impl Into<Loc>, msg: impl std::fmt::Display) -> ScenarioError {
    ScenarioError::new("read_iolog", format!("{name}: {}: {msg}", at.into()))
}

/// A header line of ftrace text: `# ...`, trace-cmd's `cpus=N` and `version = N`.
fn is_header(line: &str) -> bool {
    line.starts_with('#') || line.starts_with("cpus=") || line.starts_with("version =")
}

fn empty(name: &str, format: IoLogFormat) -> IoLog {
    IoLog {
        name: name.to_string(),
        format,
        ops: Ops::default(),
        queued: Ops::default(),
        dev: None,
        skipped: 0,
        meta: TraceMeta::default(),
    }
}

/// Whether `bytes` start as binary blktrace does (a `blk_io_trace` magic): a `DEV.blktrace.0`
/// file whose CPU siblings the caller gives [`parse_blktrace`] with it.
pub fn is_blktrace(bytes: &[u8]) -> bool {
    blktrace::looks_like(bytes)
}

/// Binary blktrace's per-CPU files of one run (name and bytes each), merged by time into the
/// trace `name`.
pub fn parse_blktrace(name: &str, files: &[(String, &[u8])]) -> Result<IoLog, ScenarioError> {
    let mut log = empty(name, IoLogFormat::Blktrace);
    blktrace::parse_blktrace(&mut log, files)?;
    checked(log)
}

/// Parses the file `bytes`: a Perfetto protobuf trace, binary blktrace (one CPU's file), or one
/// of the text formats ([`parse`]).
pub fn parse_bytes(name: &str, bytes: &[u8]) -> Result<IoLog, ScenarioError> {
    let text = std::str::from_utf8(bytes);
    if blktrace::looks_like(bytes) {
        return parse_blktrace(name, &[(name.to_string(), bytes)]);
    }
    let perfetto = || {
        let mut log = empty(name, IoLogFormat::Perfetto);
        perfetto::parse_perfetto(&mut log, bytes)?;
        checked(log)
    };
    if perfetto::looks_like(bytes) {
        // Text that starts with a blank line may read as protobuf too (0x0a is a packet's
        // key): text that parses as a trace is taken as text.
        return match text.map(|t| parse(name, t)) {
            Ok(Ok(log)) => Ok(log),
            _ => perfetto(),
        };
    }
    if text.is_err() && bytes.first() == Some(&0x0a) {
        return perfetto();
    }
    match text {
        Ok(t) => parse(name, t),
        Err(e) => Err(err(
            name,
            Loc::Byte(e.valid_up_to()),
            "binary data; accepted: a Perfetto protobuf trace, or text (fio iolog, blkparse, ftrace)",
        )),
    }
}

/// Parses `text` (the format is told by its first line, past ftrace's headers) into the trace
/// `name`.
pub fn parse(name: &str, text: &str) -> Result<IoLog, ScenarioError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.lines().enumerate().map(|(i, l)| (i, l.trim()));
    let first = lines
        .clone()
        .find(|(_, l)| !l.is_empty())
        .ok_or_else(|| ScenarioError::new("read_iolog", format!("{name}: the trace is empty")))?;
    let mut log = empty(name, IoLogFormat::FioV2);
    let event = lines.find(|(_, l)| !l.is_empty() && !is_header(l));
    match (first.1, event) {
        (V2, _) => fio::parse_fio(&mut log, text, false)?,
        (V3, _) => {
            log.format = IoLogFormat::FioV3;
            fio::parse_fio(&mut log, text, true)?
        }
        (l, _) if l.starts_with("fio version") => {
            return Err(err(
                name,
                first.0 + 1,
                format!("'{l}' is not modelled; accepted: '{V2}', '{V3}', blkparse text, ftrace text"),
            ))
        }
        (_, Some((_, l))) if blkparse::is_event(l) => {
            log.format = IoLogFormat::Blkparse;
            blkparse::parse_blkparse(&mut log, text)?
        }
        (_, Some((_, l))) if ftrace::split(l).is_some() => {
            log.format = IoLogFormat::Ftrace;
            ftrace::parse_ftrace(&mut log, text)?
        }
        (_, at) => {
            return Err(err(
                name,
                at.unwrap_or(first).0 + 1,
                format!("not a trace; accepted: a '{V2}' or '{V3}' header, blkparse's default text output, or ftrace text of block events ('TASK-PID [CPU] SECS: block_rq_issue: MAJ,MIN RWBS ...')"),
            ))
        }
    }
    checked(log)
}

/// A parsed trace has something to replay, within the bounds; its lists hold no spare room.
fn checked(mut log: IoLog) -> Result<IoLog, ScenarioError> {
    Arc::make_mut(&mut log.ops).shrink_to_fit();
    Arc::make_mut(&mut log.queued).shrink_to_fit();
    let name = &log.name;
    if log.ops.is_empty() && log.queued.is_empty() {
        return Err(ScenarioError::new(
            "read_iolog",
            format!("{name}: the trace has no read, write, flush or discard to replay"),
        ));
    }
    let limit = super::limits::MAX_TIME_NS;
    if let Some(op) = log
        .ops
        .iter()
        .chain(log.queued.iter())
        .find(|o| o.t_ns > limit)
    {
        // A fio iolog's times are from the trace's start; a kernel trace's from its first I/O.
        let from = match log.format {
            IoLogFormat::FioV2 | IoLogFormat::FioV3 => "from the trace's start",
            _ => "after the first",
        };
        let secs = format!("{}.{:09}", op.t_ns / 1_000_000_000, op.t_ns % 1_000_000_000);
        return Err(ScenarioError::new(
            "read_iolog",
            format!(
                "{name}: an I/O is issued {} s {from}; accepted: traces of at most {} s (one day) of issue times",
                secs.trim_end_matches('0').trim_end_matches('.'),
                limit / 1_000_000_000
            ),
        ));
    }
    Ok(log)
}

fn number(
    name: &str,
    n: impl Into<Loc> + Copy,
    what: &str,
    tok: Option<&str>,
) -> Result<u64, ScenarioError> {
    let tok = tok.ok_or_else(|| err(name, n, format!("{what} is missing")))?;
    tok.parse::<u64>()
        .map_err(|_| err(name, n, format!("{what} '{tok}' is not a number")))
}

/// Offset and length must be whole sectors and the length a block size the model takes.
fn extent(name: &str, n: impl Into<Loc>, offset: u64, len: u64) -> Result<(), ScenarioError> {
    let n = n.into();
    if len == 0 || !len.is_multiple_of(512) || !offset.is_multiple_of(512) || len > MAX_BS {
        return Err(err(
            name,
            n,
            format!(
                "offset {offset} / length {len}: accepted: whole 512-byte sectors, 512..={} MiB long",
                MAX_BS >> 20
            ),
        ));
    }
    within_device(
        name,
        n,
        format_args!("offset {offset} / length {len}"),
        offset.checked_add(len),
    )
}

/// A traced I/O ends within the modelled device ([`DEVICE_BYTES`], 2 TiB): `what` is the I/O as
/// the trace writes it, `end` its end in bytes (None: past 2^64).
fn within_device(
    name: &str,
    n: impl Into<Loc>,
    what: std::fmt::Arguments,
    end: Option<u64>,
) -> Result<(), ScenarioError> {
    if end.is_none_or(|e| e > DEVICE_BYTES) {
        return Err(err(
            name,
            n,
            format!(
                "{what} ends past the device's end; accepted: I/Os that end within the modelled device's {} TiB (sector {}, byte {DEVICE_BYTES}; fio stops with 'offset extends end')",
                DEVICE_BYTES >> 40,
                DEVICE_BYTES / 512
            ),
        ));
    }
    Ok(())
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
