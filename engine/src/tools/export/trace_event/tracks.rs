//! From the simulator's trace and timeline to slices on tracks: requests with their stages
//! nested, tags held, bus / host CPU / card segments, lanes so slices on a track never overlap.

use super::events::{Out, RequestArgs, SegmentArgs, StageArgs, TagArgs};
use super::{BUS, CARD, HOST_CPU, PID_HOST, PID_JOBS, PID_TAGS};
use crate::path::bus::{Segment, SegmentKind};
use crate::scenario::Scenario;
use crate::sim::Simulator;
use crate::vocab::{MmcPath, Op, Stage, TraceEvent};
use std::collections::HashMap;
use std::fmt::Write;

/// A request seen in the trace and not yet reaped.
pub(super) struct OpenReq {
    pub(super) job: u32,
    /// The I/O it belongs to (the id of its first request when the block layer split it).
    pub(super) io: u64,
    pub(super) op: Op,
    /// (offset, len) from the request slab.
    pub(super) extent: Option<(u64, u64)>,
    pub(super) stages: Vec<(Stage, u64)>,
    /// It ended in an I/O error (retries used up, or the power cut).
    pub(super) failed: bool,
}

/// Tracks of one process: each key (job, tag, host part) has lanes so slices never overlap.
#[derive(Default)]
pub(in crate::tools::export) struct Tracks {
    pub(super) lanes: HashMap<u64, Vec<(u64, u32)>>,
    pub(super) next_tid: u32,
}

impl Tracks {
    /// The tid for `[start, end)` on `key`'s first free lane; Some(lane) when a lane was added.
    pub(in crate::tools::export) fn place(
        &mut self,
        key: u64,
        start: u64,
        end: u64,
    ) -> (u32, Option<usize>) {
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
pub(super) struct Exporter {
    pub(super) sim: Simulator,
    pub(super) scn: Scenario,
    pub(super) open: HashMap<u64, OpenReq>,
    /// By tag: (request id, job, since) of the request holding it.
    pub(super) tags: Vec<Option<(u64, u32, u64)>>,
    /// Scratch for [`Exporter::scan`]: by tag, the request holding it now.
    pub(super) held: Vec<Option<(u64, u32)>>,
    pub(super) tracks: [Tracks; 3],
    pub(super) requests: u64,
}

impl Exporter {
    pub(super) fn job_name(&self, job: u32) -> String {
        match self.sim.jobs.get(job as usize) {
            Some(j) => format!("{}.{}", j.name, j.index),
            None => format!("mmc_test #{}", job),
        }
    }

    /// A slice on a lane of `key` in process `pid`, naming a new lane when one is added.
    pub(super) fn place<W: Write>(
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

    pub(super) fn trace_event<W: Write>(&mut self, out: &mut Out<W>, e: TraceEvent) {
        if !self.open.contains_key(&e.req) && matches!(e.stage, Stage::Submit | Stage::Issue) {
            self.open.insert(
                e.req,
                OpenReq {
                    job: e.job,
                    io: e.io,
                    op: e.op,
                    extent: None,
                    stages: Vec::new(),
                    failed: false,
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
    pub(super) fn request<W: Write>(
        &mut self,
        out: &mut Out<W>,
        id: u64,
        mut r: OpenReq,
        unfinished: bool,
    ) {
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
            error: r.failed.then_some("EIO"),
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

    pub(super) fn segment<W: Write>(&mut self, out: &mut Out<W>, s: Segment) {
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

    pub(super) fn tag_slice<W: Write>(
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
    pub(super) fn scan<W: Write>(&mut self, out: &mut Out<W>) -> u64 {
        let now = self.sim.now();
        self.held.iter_mut().for_each(|h| *h = None);
        let mut n = 0;
        for (_, r) in self.sim.reqs.iter() {
            n += 1;
            if let Some(o) = self.open.get_mut(&r.id) {
                o.extent.get_or_insert((r.offset, r.len));
                o.failed |= r.failed;
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
