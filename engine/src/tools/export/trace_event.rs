//! The simulated timeline as Chrome trace-event JSON ("Trace Event Format", the JSON object
//! form that ui.perfetto.dev and chrome://tracing open):
//! `{"traceEvents":[...],"displayTimeUnit":"ns","otherData":{...}}`.
//!
//! Events are complete events (`"ph":"X"`, `ts` and `dur` in microseconds, written as exact
//! decimals of the simulated nanoseconds) and metadata events (`"ph":"M"`: `process_name`,
//! `thread_name`, `*_sort_index`) naming the tracks:
//! - pid 1 "fio jobs": one track per job clone; a slice per request from its system call to fio
//!   reaping it (args: id, op, offset, len), with its stages (blk-mq, issue, host queue, command,
//!   data, ...) nested inside. An async job with several I/Os outstanding gets extra tracks
//!   (`name.N #2`, ...) so that slices on one track never overlap.
//! - pid 2 "blk-mq tags / hsq slots": one track per tag (= hsq slot index): the time a request
//!   holds it, from `blk_mq_get_tag` to `blk_mq_end_request`.
//! - pid 3 "mmc host": the bus (command, card access, data, card busy), the host CPU (IRQ and
//!   software gaps, ADMA3 chain builds) and the card (card access and busy).
//!
//! The run is streamed: trace events and timeline segments are drained after every simulator
//! step, and only requests and tags still open are kept. At most `max_events` events are written
//! (the first ones in simulated time order of completion); when the cap or the work budget cuts
//! the run, `otherData.truncated` is true and `otherData.note` says where.
//!
//! Each event is a typed struct ([`Meta`], [`Slice`]) written by `serde_json` into a reused
//! buffer and passed on to the writer, so memory stays flat however long the run.

use crate::path::bus::{Segment, SegmentKind};
use crate::vocab::MmcPath;
use crate::vocab::{Stage, TraceEvent};
use crate::{Op, Scenario, ScenarioError, Simulator};
use serde::{Deserialize, Serialize, Serializer};
use std::collections::HashMap;
use std::fmt::Write;
use std::io;

/// The default cap on exported events (about 30 MB of JSON).
pub const DEFAULT_MAX_TRACE_EVENTS: usize = 200_000;
/// The largest cap a caller may ask for (`--trace_max_events`): about 150 MB of JSON.
pub const MAX_TRACE_EVENTS: usize = 1_000_000;
/// Trace and timeline ring sizes while exporting (drained after every step).
const RING: usize = 1 << 16;
/// Work budget: simulator steps plus live requests scanned for tags, offsets and lengths.
const MAX_WORK: u64 = 400_000_000;

const PID_JOBS: u32 = 1;
const PID_TAGS: u32 = 2;
const PID_HOST: u32 = 3;
/// Host tracks (keys under [`PID_HOST`]).
const BUS: u64 = 0;
const HOST_CPU: u64 = 1;
const CARD: u64 = 2;

/// What an export wrote.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceStats {
    /// Events written (metadata included).
    pub events: usize,
    /// The run was cut by `max_events` or the work budget.
    pub truncated: bool,
    /// Simulated time covered, ns.
    pub simulated_ns: u64,
    /// Requests written.
    pub requests: u64,
}

/// A request seen in the trace and not yet reaped.
struct OpenReq {
    job: u32,
    /// The I/O it belongs to (the id of its first request when the block layer split it).
    io: u64,
    op: Op,
    /// (offset, len) from the request slab.
    extent: Option<(u64, u64)>,
    stages: Vec<(Stage, u64)>,
}

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
struct NameArgs<'a> {
    name: &'a str,
}

/// `{"sort_index": ...}`.
#[derive(Serialize)]
struct SortArgs {
    sort_index: u64,
}

/// A request's slice.
#[derive(Serialize)]
struct RequestArgs<'a> {
    id: u64,
    /// The split I/O it is part of (absent when the request is the whole I/O).
    #[serde(skip_serializing_if = "Option::is_none")]
    io: Option<u64>,
    op: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    offset: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    len: Option<u64>,
    /// Still in flight when the run ended (a power cut).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    unfinished: bool,
}

/// A stage of a request.
#[derive(Serialize)]
struct StageArgs {
    id: u64,
}

/// A host, bus or card segment, with the request it served.
#[derive(Serialize)]
struct SegmentArgs {
    #[serde(skip_serializing_if = "Option::is_none")]
    req: Option<u64>,
}

/// A tag held by a request.
#[derive(Serialize)]
struct TagArgs<'a> {
    id: u64,
    job: &'a str,
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
fn to_buf<T: Serialize>(buf: &mut Vec<u8>, v: &T) {
    let mut ser = serde_json::Serializer::with_formatter(buf, TraceFormatter);
    // Into memory, with string keys only: serializing cannot fail.
    v.serialize(&mut ser).expect("trace event serializes");
}

/// Writes events, counting them against the cap.
struct Out<W: Write> {
    w: W,
    /// One event's JSON (reused).
    buf: Vec<u8>,
    n: usize,
    max: usize,
    truncated: bool,
    err: std::fmt::Result,
}

impl<W: Write> Out<W> {
    /// Writes one event; false once the cap is reached.
    fn event<T: Serialize>(&mut self, ev: &T) -> bool {
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
    fn meta<A: Serialize>(&mut self, pid: u32, tid: u32, name: &str, args: A) {
        self.event(&Meta {
            ph: "M",
            pid,
            tid,
            name,
            args,
        });
    }
    fn thread(&mut self, pid: u32, tid: u32, name: &str, sort: u64) {
        self.meta(pid, tid, "thread_name", NameArgs { name });
        self.meta(pid, tid, "thread_sort_index", SortArgs { sort_index: sort });
    }
    /// A complete event from `start` to `end` ns.
    fn slice<A: Serialize>(
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

/// Tracks of one process: each key (job, tag, host part) has lanes so slices never overlap.
#[derive(Default)]
struct Tracks {
    lanes: HashMap<u64, Vec<(u64, u32)>>,
    next_tid: u32,
}

impl Tracks {
    /// The tid for `[start, end)` on `key`'s first free lane; Some(lane) when a lane was added.
    fn place(&mut self, key: u64, start: u64, end: u64) -> (u32, Option<usize>) {
        let lanes = self.lanes.entry(key).or_default();
        if let Some(l) = lanes.iter_mut().find(|l| l.0 <= start) {
            l.0 = end;
            return (l.1, None);
        }
        self.next_tid += 1;
        lanes.push((end, self.next_tid));
        (self.next_tid, Some(lanes.len() - 1))
    }
}

/// The exporter's state between simulator steps.
struct Exporter {
    sim: Simulator,
    scn: Scenario,
    open: HashMap<u64, OpenReq>,
    /// By tag: (request id, job, since) of the request holding it.
    tags: Vec<Option<(u64, u32, u64)>>,
    /// Scratch for [`Exporter::scan`]: by tag, the request holding it now.
    held: Vec<Option<(u64, u32)>>,
    tracks: [Tracks; 3],
    requests: u64,
}

impl Exporter {
    fn job_name(&self, job: u32) -> String {
        match self.sim.jobs.get(job as usize) {
            Some(j) => format!("{}.{}", j.name, j.index),
            None => format!("mmc_test #{}", job),
        }
    }

    /// A slice on a lane of `key` in process `pid`, naming a new lane when one is added.
    fn place<W: Write>(
        &mut self,
        out: &mut Out<W>,
        pid: u32,
        key: u64,
        start: u64,
        end: u64,
    ) -> u32 {
        let (tid, new_lane) = self.tracks[pid as usize - 1].place(key, start, end);
        if let Some(lane) = new_lane {
            let base = match pid {
                PID_JOBS => self.job_name(key as u32),
                PID_TAGS if self.sim.host_config().mmc_path == MmcPath::Hsq => {
                    format!("hsq slot {}", key)
                }
                PID_TAGS => format!("blk-mq tag {}", key),
                _ => ["bus", "host CPU", "card"][key.min(2) as usize].to_string(),
            };
            let name = if lane == 0 {
                base
            } else {
                format!("{} #{}", base, lane + 1)
            };
            out.thread(pid, tid, &name, key * 64 + lane as u64);
        }
        tid
    }

    fn trace_event<W: Write>(&mut self, out: &mut Out<W>, e: TraceEvent) {
        if !self.open.contains_key(&e.req) && matches!(e.stage, Stage::Submit | Stage::Issue) {
            self.open.insert(
                e.req,
                OpenReq {
                    job: e.job,
                    io: e.io,
                    op: e.op,
                    extent: None,
                    stages: Vec::new(),
                },
            );
        }
        let Some(r) = self.open.get_mut(&e.req) else {
            return;
        };
        r.stages.push((e.stage, e.t_ns));
        if e.stage == Stage::Done {
            if let Some(r) = self.open.remove(&e.req) {
                self.request(out, e.req, r, false);
            }
        }
    }

    /// Writes a request slice and its stages (the last stage ends the request).
    fn request<W: Write>(&mut self, out: &mut Out<W>, id: u64, mut r: OpenReq, unfinished: bool) {
        r.stages.sort_by_key(|s| s.1);
        let (Some(first), Some(last)) = (r.stages.first().copied(), r.stages.last().copied())
        else {
            return;
        };
        let (start, end) = (first.1, last.1.max(first.1));
        let tid = self.place(out, PID_JOBS, r.job as u64, start, end);
        let args = RequestArgs {
            id,
            io: (r.io != id).then_some(r.io),
            op: r.op.name(),
            offset: r.extent.map(|e| e.0),
            len: r.extent.map(|e| e.1),
            unfinished,
        };
        out.slice((PID_JOBS, tid), r.op.name(), "request", (start, end), args);
        for w in r.stages.windows(2) {
            let (s, e) = (w[0].1.max(start), w[1].1.min(end));
            if e > s {
                out.slice(
                    (PID_JOBS, tid),
                    w[0].0.name(),
                    "stage",
                    (s, e),
                    StageArgs { id },
                );
            }
        }
        self.requests += 1;
    }

    fn segment<W: Write>(&mut self, out: &mut Out<W>, s: Segment) {
        let args = SegmentArgs { req: s.req };
        let on_host = matches!(s.kind, SegmentKind::HostGap | SegmentKind::ChainBuild);
        let key = if on_host { HOST_CPU } else { BUS };
        let tid = self.place(out, PID_HOST, key, s.start, s.end);
        out.slice(
            (PID_HOST, tid),
            s.kind.name(),
            if on_host { "host" } else { "bus" },
            (s.start, s.end),
            &args,
        );
        if matches!(s.kind, SegmentKind::CardAccess | SegmentKind::CardBusy) {
            let tid = self.place(out, PID_HOST, CARD, s.start, s.end);
            out.slice(
                (PID_HOST, tid),
                s.kind.name(),
                "card",
                (s.start, s.end),
                &args,
            );
        }
    }

    fn tag_slice<W: Write>(
        &mut self,
        out: &mut Out<W>,
        tag: u16,
        (id, job, since): (u64, u32, u64),
        end: u64,
    ) {
        let tid = self.place(out, PID_TAGS, tag as u64, since, end);
        let job = self.job_name(job);
        out.slice(
            (PID_TAGS, tid),
            &format!("req {id}"),
            "tag",
            (since, end),
            TagArgs { id, job: &job },
        );
    }

    /// Scans live requests for offsets, lengths and tags; returns how many were scanned. Tags
    /// change only inside a step, so a change seen after a step happened at its time.
    fn scan<W: Write>(&mut self, out: &mut Out<W>) -> u64 {
        let now = self.sim.now();
        self.held.iter_mut().for_each(|h| *h = None);
        let mut n = 0;
        for (_, r) in self.sim.reqs.iter() {
            n += 1;
            if let Some(o) = self.open.get_mut(&r.id) {
                o.extent.get_or_insert((r.offset, r.len));
            }
            if let Some(t) = r.tag.map(usize::from) {
                if self.held.len() <= t {
                    self.held.resize(t + 1, None);
                }
                self.held[t] = Some((r.id, r.job));
            }
        }
        if self.tags.len() < self.held.len() {
            self.tags.resize(self.held.len(), None);
        }
        for t in 0..self.tags.len() {
            let h = self.held.get(t).copied().flatten();
            if let Some(v) = self.tags[t].filter(|v| h.map(|h| h.0) != Some(v.0)) {
                self.tags[t] = None;
                self.tag_slice(out, t as u16, v, now);
            }
            if let (None, Some((id, job))) = (self.tags[t], h) {
                self.tags[t] = Some((id, job, now));
            }
        }
        n
    }
}

/// Runs `scn` and writes its timeline to `w` as trace-event JSON (see the module doc), at most
/// `max_events` events.
pub fn write_trace_events<W: Write>(
    scn: &Scenario,
    max_events: usize,
    w: &mut W,
) -> Result<TraceStats, ScenarioError> {
    let mut t = TraceExport::new(scn, max_events, w)?;
    while !t.run_steps(u64::MAX) {}
    t.finish().map(|(_, stats)| stats)
}

/// A trace export that runs in slices: [`TraceExport::run_steps`] does a bounded amount of work
/// and returns, so a caller with a frame budget (the web app) never blocks for long;
/// [`TraceExport::finish`] writes the tail and gives the writer back with what was written.
/// [`write_trace_events`] is the same in one go.
pub struct TraceExport<W: Write> {
    x: Exporter,
    out: Out<W>,
    work: u64,
    note: &'static str,
    done: bool,
}

impl<W: Write> TraceExport<W> {
    /// Builds the simulator for `scn` and writes the head of the document into `w`.
    pub fn new(scn: &Scenario, max_events: usize, w: W) -> Result<Self, ScenarioError> {
        let mut sim = Simulator::new(scn)?;
        sim.set_trace_capacity(RING);
        sim.set_timeline_capacity(RING);
        let x = Exporter {
            sim,
            scn: scn.clone(),
            open: HashMap::new(),
            tags: Vec::new(),
            held: Vec::new(),
            tracks: Default::default(),
            requests: 0,
        };
        let mut out = Out {
            w,
            buf: Vec::with_capacity(256),
            n: 0,
            max: max_events,
            truncated: false,
            err: Ok(()),
        };
        out.err = out.w.write_str("{\"traceEvents\":[");
        for (pid, name) in [
            (PID_JOBS, "fio jobs"),
            (PID_TAGS, "blk-mq tags / hsq slots"),
            (PID_HOST, "mmc host"),
        ] {
            out.meta(pid, 0, "process_name", NameArgs { name });
            out.meta(
                pid,
                0,
                "process_sort_index",
                SortArgs {
                    sort_index: pid as u64,
                },
            );
        }
        Ok(TraceExport {
            x,
            out,
            work: 0,
            note: "",
            done: false,
        })
    }

    /// Runs at most `max_steps` simulator steps, writing their events. True once the export's
    /// run is over (the simulation ended, or the event cap or the work budget cut it).
    pub fn run_steps(&mut self, max_steps: u64) -> bool {
        let (x, out) = (&mut self.x, &mut self.out);
        let mut steps = 0;
        while !self.done && steps < max_steps {
            if out.truncated {
                self.done = true;
                break;
            }
            if self.work > MAX_WORK {
                (out.truncated, self.note) = (true, "cut by the work budget");
                self.done = true;
                break;
            }
            let more = x.sim.step();
            for e in x.sim.drain_trace() {
                x.trace_event(out, e);
            }
            for s in x.sim.drain_timeline() {
                x.segment(out, s);
            }
            self.work += 1 + x.scan(out);
            steps += 1;
            if !more {
                self.done = true;
            }
        }
        self.done
    }

    /// Events written so far (metadata included).
    pub fn events(&self) -> usize {
        self.out.n
    }

    /// Fraction of the run done so far (the simulator's progress).
    pub fn progress(&self) -> f64 {
        self.x.sim.progress()
    }

    /// Finishes the document (running what is left first) and returns the writer and what was
    /// written.
    pub fn finish(mut self) -> Result<(W, TraceStats), ScenarioError> {
        while !self.run_steps(u64::MAX) {}
        let (mut x, mut out) = (self.x, self.out);
        let mut note = self.note;
        if out.truncated && note.is_empty() {
            note = "cut at max_events; requests still in flight then are left out";
        }
        if !out.truncated {
            // Whatever is still open at the end (a power cut) ends with the run.
            let now = x.sim.now();
            let mut open: Vec<(u64, OpenReq)> = x.open.drain().collect();
            open.sort_by_key(|o| o.0);
            for (id, mut r) in open {
                r.stages.push((Stage::Done, now));
                x.request(&mut out, id, r, true);
            }
            let tags: Vec<_> = x
                .tags
                .drain(..)
                .enumerate()
                .filter_map(|(t, v)| Some((t as u16, v?)))
                .collect();
            for (t, v) in tags {
                x.tag_slice(&mut out, t, v, now);
            }
        }
        let stats = TraceStats {
            events: out.n,
            truncated: out.truncated,
            simulated_ns: x.sim.now(),
            requests: x.requests,
        };
        let link = crate::scenario::url::encode_query(&x.scn, None);
        let generator = format!("mmcsim-engine {}", env!("CARGO_PKG_VERSION"));
        let mut tail = b"\n],\"displayTimeUnit\":\"ns\",\"otherData\":".to_vec();
        to_buf(
            &mut tail,
            &OtherData {
                generator: &generator,
                platform: &x.scn.platform,
                scenario: &link,
                simulated_ns: stats.simulated_ns,
                events: stats.events,
                max_events: out.max,
                requests: stats.requests,
                truncated: stats.truncated,
                note,
            },
        );
        tail.extend_from_slice(b"}\n");
        let tail = std::str::from_utf8(&tail).expect("serde_json writes UTF-8");
        out.err
            .and(out.w.write_str(tail))
            .map_err(|_| ScenarioError::general("trace export: the writer failed"))?;
        Ok((out.w, stats))
    }
}

/// Runs `scn` and returns its timeline as trace-event JSON, at most `max_events` events (use
/// [`DEFAULT_MAX_TRACE_EVENTS`]).
pub fn trace_event_json(scn: &Scenario, max_events: usize) -> Result<String, ScenarioError> {
    let mut s = String::new();
    write_trace_events(scn, max_events, &mut s)?;
    Ok(s)
}
