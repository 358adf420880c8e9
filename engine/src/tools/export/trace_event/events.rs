//! The events as typed structs ([`Meta`], [`Slice`] and their args) and the writer that
//! serialises each into a reused buffer, with times as exact decimal microseconds.

use serde::{Serialize, Serializer};
use std::fmt::Write;
use std::io;

/// A time of the trace: ns, written as an exact decimal number of microseconds (`12.345`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Us(pub u64);

impl Serialize for Us {
    /// A float of microseconds; [`TraceFormatter`] writes it with exactly three decimals, which
    /// gives back the ns exactly (below 2^50 ns, 13 days of simulated time).
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(self.0 as f64 / 1000.0)
    }
}

/// serde_json's compact layout, with floats (only ever [`Us`] times here) written with three
/// decimals: the microseconds of an exact number of nanoseconds.
#[derive(Clone, Copy, Debug, Default)]
pub struct TraceFormatter;

impl serde_json::ser::Formatter for TraceFormatter {
    fn write_f64<W: ?Sized + io::Write>(&mut self, w: &mut W, v: f64) -> io::Result<()> {
        let ns = (v * 1000.0).round() as u64;
        write!(w, "{}.{:03}", ns / 1000, ns % 1000)
    }
}

/// A metadata event (`"ph":"M"`) naming or ordering a process or track.
#[derive(Serialize)]
pub struct Meta<'a, A> {
    pub ph: &'static str,
    pub pid: u32,
    pub tid: u32,
    pub name: &'a str,
    pub args: A,
}

/// A complete event (`"ph":"X"`): a slice of a track.
#[derive(Serialize)]
pub struct Slice<'a, A> {
    pub ph: &'static str,
    pub pid: u32,
    pub tid: u32,
    pub ts: Us,
    pub dur: Us,
    pub name: &'a str,
    pub cat: &'a str,
    pub args: A,
}

/// `{"name": ...}`: a process or track name.
#[derive(Serialize)]
pub(super) struct NameArgs<'a> {
    pub(super) name: &'a str,
}

/// `{"sort_index": ...}`.
#[derive(Serialize)]
pub(super) struct SortArgs {
    pub(super) sort_index: u64,
}

/// A request's slice.
#[derive(Serialize)]
pub(super) struct RequestArgs<'a> {
    pub(super) id: u64,
    /// The split I/O it is part of (absent when the request is the whole I/O).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) io: Option<u64>,
    pub(super) op: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) offset: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) len: Option<u64>,
    /// Still in flight when the run ended (a power cut).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub(super) unfinished: bool,
    /// `"EIO"`: the request ended in an I/O error (its retries used up, or the power cut), so
    /// its I/O was not acknowledged.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) error: Option<&'static str>,
}

/// A stage of a request.
#[derive(Serialize)]
pub(super) struct StageArgs {
    pub(super) id: u64,
}

/// A host, bus or card segment, with the request it served.
#[derive(Serialize)]
pub(super) struct SegmentArgs {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) req: Option<u64>,
}

/// A tag held by a request.
#[derive(Serialize)]
pub(super) struct TagArgs<'a> {
    pub(super) id: u64,
    pub(super) job: &'a str,
}

/// The document's `otherData` object: what the export covers.
#[derive(Serialize)]
pub struct OtherData<'a> {
    pub generator: &'a str,
    pub platform: &'a str,
    /// The scenario's link query string.
    pub scenario: &'a str,
    pub simulated_ns: u64,
    pub events: usize,
    pub max_events: usize,
    pub requests: u64,
    pub truncated: bool,
    pub note: &'a str,
}

/// Serializes `v` onto `buf` in the trace's layout.
pub(super) fn to_buf<T: Serialize>(buf: &mut Vec<u8>, v: &T) {
    let mut ser = serde_json::Serializer::with_formatter(buf, TraceFormatter);
    // Into memory, with string keys only: serializing cannot fail.
    v.serialize(&mut ser).expect("trace event serializes");
}

/// Writes events, counting them against the cap.
pub(super) struct Out<W: Write> {
    pub(super) w: W,
    /// One event's JSON (reused).
    pub(super) buf: Vec<u8>,
    pub(super) n: usize,
    pub(super) max: usize,
    pub(super) truncated: bool,
    pub(super) err: std::fmt::Result,
}

impl<W: Write> Out<W> {
    /// Writes one event; false once the cap is reached.
    pub(super) fn event<T: Serialize>(&mut self, ev: &T) -> bool {
        if self.n >= self.max {
            self.truncated = true;
            return false;
        }
        self.buf.clear();
        self.buf
            .extend_from_slice(if self.n == 0 { b"\n" } else { b",\n" });
        to_buf(&mut self.buf, ev);
        let text = std::str::from_utf8(&self.buf).expect("serde_json writes UTF-8");
        self.err = self.err.and(self.w.write_str(text));
        self.n += 1;
        true
    }
    pub(super) fn meta<A: Serialize>(&mut self, pid: u32, tid: u32, name: &str, args: A) {
        self.event(&Meta {
            ph: "M",
            pid,
            tid,
            name,
            args,
        });
    }
    pub(super) fn thread(&mut self, pid: u32, tid: u32, name: &str, sort: u64) {
        self.meta(pid, tid, "thread_name", NameArgs { name });
        self.meta(pid, tid, "thread_sort_index", SortArgs { sort_index: sort });
    }
    /// A complete event from `start` to `end` ns.
    pub(super) fn slice<A: Serialize>(
        &mut self,
        (pid, tid): (u32, u32),
        name: &str,
        cat: &str,
        (start, end): (u64, u64),
        args: A,
    ) {
        self.event(&Slice {
            ph: "X",
            pid,
            tid,
            ts: Us(start),
            dur: Us(end.saturating_sub(start)),
            name,
            cat,
            args,
        });
    }
}
