//! The simulated timeline as Chrome trace-event JSON ("Trace Event Format", the JSON object
//! form that ui.perfetto.dev and chrome://tracing open):
//! `{"traceEvents":[...],"displayTimeUnit":"ns","otherData":{...}}`.
//!
//! Events are complete events (`"ph":"X"`, `ts` and `dur` in microseconds, written as exact
//! decimals of the simulated nanoseconds) and metadata events (`"ph":"M"`: `process_name`,
//! `thread_name`, `*_sort_index`) naming the tracks:
//! - pid 1 "fio jobs": one track per job clone; a slice per request from its system call to fio
//!   reaping it (args: id, op, offset, len; `"error":"EIO"` when it ended in an I/O error),
//!   with its stages (blk-mq, issue, host queue, command, data, ...) nested inside. An async job with several I/Os outstanding gets extra tracks
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
//!
//! `events.rs`: the event types and their writer; `tracks.rs`: the tracks and what goes on them.

mod events;
mod tracks;

use events::{to_buf, NameArgs, Out, SortArgs};
pub use events::{Meta, OtherData, Slice, TraceFormatter, Us};
pub(super) use tracks::Tracks;
use tracks::{Exporter, OpenReq};

use crate::vocab::Stage;
use crate::{Scenario, ScenarioError, Simulator};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt::Write;

/// The default cap on exported events (about 22 MB of JSON).
pub const DEFAULT_MAX_TRACE_EVENTS: usize = 200_000;
/// The largest cap a caller may ask for (`--trace_max_events`): about 150 MB of JSON.
pub const MAX_TRACE_EVENTS: usize = 1_000_000;
/// Trace and timeline ring sizes while exporting (drained after every step).
const RING: usize = 1 << 16;
/// Work budget: simulator steps plus live requests scanned for tags, offsets and lengths.
pub(super) const MAX_WORK: u64 = 400_000_000;

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
