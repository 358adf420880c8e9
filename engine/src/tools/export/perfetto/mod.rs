//! The simulated run as a Perfetto trace in Perfetto's own protobuf format (`Trace`, a stream
//! of `TracePacket`s; protos/perfetto/trace/trace.proto), which ui.perfetto.dev and its trace
//! processor read as they read a trace recorded on a phone (`--trace_format=perfetto`):
//!
//! - ftrace events, as the kernel's tracepoints would have fired for the run
//!   ([`kernel_events`](super::kernel_events)), in `FtraceEventBundle`s per CPU (the CPU the
//!   request was submitted on): `block_bio_queue`, `block_bio_backmerge`, `block_rq_insert`,
//!   `block_rq_issue`, `block_rq_requeue`, `block_rq_complete`, `block_io_start`,
//!   `block_io_done` (ftrace/block.proto), with the mmcblk device 179:0 as the kernel's dev_t
//!   (`(major << 20) | minor`), and the mmc requests (`mmc_request_start` / `mmc_request_done`,
//!   which Perfetto's schema has no message for) as `GenericFtraceEvent`s.
//! - the simulator's own tracks as track events (`TrackDescriptor` + `TrackEvent` slices):
//!   under "fio jobs" a track per job clone with each request and its stages nested, under
//!   "blk-mq tags / hsq slots" the tag (slot) each request held, under "mmc host" the bus, the
//!   host CPU and the card.
//! - errors as the kernel reports them: `block_rq_complete`'s `error` is -5 (`-EIO`) for a
//!   request that failed, `mmc_request_done` carries `cmd_err` / `data_err`, and a failed
//!   request's slice is named `OP ID EIO`.
//!
//! Streamed as the JSON export is: packets are written as the run goes, only requests still open
//! are kept, at most `max_events` events (ftrace events and slices) are written.

mod proto;

use super::kernel_events::{KEvent, KernelEvents, Open, Sink, Tp, MMCBLK_DEV};
use super::trace_event::Tracks;
use crate::path::bus::{Segment, SegmentKind};
use crate::vocab::MmcPath;
use crate::{Scenario, ScenarioError, Simulator};
use proto::Msg;
use std::collections::BTreeMap;

/// Field numbers of Perfetto's protos (protos/perfetto/trace/...).
mod field {
    /// trace.proto: `Trace.packet`.
    pub const TRACE_PACKET: u32 = 1;
    // trace_packet.proto: TracePacket.
    pub const FTRACE_EVENTS: u32 = 1;
    pub const TIMESTAMP: u32 = 8;
    pub const SEQUENCE_ID: u32 = 10;
    pub const TRACK_EVENT: u32 = 11;
    pub const SEQUENCE_FLAGS: u32 = 13;
    pub const TRACK_DESCRIPTOR: u32 = 60;
    // ftrace/ftrace_event_bundle.proto: FtraceEventBundle.
    pub const BUNDLE_CPU: u32 = 1;
    pub const BUNDLE_EVENT: u32 = 2;
    pub const BUNDLE_LOST_EVENTS: u32 = 3;
    // ftrace/ftrace_event.proto: FtraceEvent and its oneof.
    pub const EVENT_TIMESTAMP: u32 = 1;
    pub const EVENT_PID: u32 = 2;
    pub const BLOCK_RQ_ISSUE: u32 = 45;
    pub const BLOCK_BIO_BACKMERGE: u32 = 115;
    pub const BLOCK_BIO_QUEUE: u32 = 119;
    pub const BLOCK_RQ_COMPLETE: u32 = 125;
    pub const BLOCK_RQ_INSERT: u32 = 126;
    pub const BLOCK_RQ_REQUEUE: u32 = 129;
    pub const GENERIC: u32 = 327;
    pub const BLOCK_IO_START: u32 = 546;
    pub const BLOCK_IO_DONE: u32 = 547;
    // track_event/track_descriptor.proto: TrackDescriptor.
    pub const TRACK_UUID: u32 = 1;
    pub const TRACK_NAME: u32 = 2;
    pub const TRACK_PARENT: u32 = 5;
    // track_event/track_event.proto: TrackEvent.
    pub const TE_TYPE: u32 = 9;
    pub const TE_TRACK_UUID: u32 = 11;
    pub const TE_CATEGORIES: u32 = 22;
    pub const TE_NAME: u32 = 23;
}

/// TrackEvent.Type.
const SLICE_BEGIN: u64 = 1;
const SLICE_END: u64 = 2;
/// TracePacket.SequenceFlags: SEQ_INCREMENTAL_STATE_CLEARED.
const SEQ_CLEARED: u64 = 1;
/// The packet sequence of the track events; ftrace bundles take `FTRACE_SEQ + cpu`.
const TRACK_SEQ: u64 = 1;
const FTRACE_SEQ: u64 = 16;
/// Events in one bundle before it is written.
const BUNDLE: usize = 256;
/// Parent tracks (the JSON export's pids): requests, tags, the host.
const JOBS: u64 = 1;
const TAGS: u64 = 2;
const HOST: u64 = 3;

/// The kernel's dev_t of (major, minor): `MKDEV`.
pub fn dev_t((major, minor): (u32, u32)) -> u64 {
    (u64::from(major) << 20) | u64::from(minor)
}

struct Out<'w, W: std::io::Write> {
    w: &'w mut W,
    n: usize,
    max: usize,
    err: Option<std::io::Error>,
    bundles: BTreeMap<u32, (Msg, usize)>,
    tracks: [Tracks; 3],
    slots: bool,
}

impl<W: std::io::Write> Out<'_, W> {
    fn packet(&mut self, p: &Msg) {
        let mut t = Msg::new();
        t.msg(field::TRACE_PACKET, p);
        if self.err.is_none() {
            self.err = self.w.write_all(&t.0).err();
        }
    }

    fn full(&self) -> bool {
        self.n >= self.max
    }

    fn bundle(&mut self, cpu: u32) {
        if let Some((events, _)) = self.bundles.remove(&cpu).filter(|b| b.1 > 0) {
            let mut b = Msg::new();
            b.uint(field::BUNDLE_CPU, u64::from(cpu));
            b.0.extend_from_slice(&events.0);
            let mut p = Msg::new();
            p.msg(field::FTRACE_EVENTS, &b)
                .uint(field::SEQUENCE_ID, FTRACE_SEQ + u64::from(cpu));
            self.packet(&p);
        }
    }

    fn descriptor(&mut self, uuid: u64, parent: Option<u64>, name: &str, first: bool) {
        let mut d = Msg::new();
        d.uint(field::TRACK_UUID, uuid).str(field::TRACK_NAME, name);
        if let Some(p) = parent {
            d.uint(field::TRACK_PARENT, p);
        }
        let mut p = Msg::new();
        p.msg(field::TRACK_DESCRIPTOR, &d)
            .uint(field::SEQUENCE_ID, TRACK_SEQ);
        if first {
            p.uint(field::SEQUENCE_FLAGS, SEQ_CLEARED);
        }
        self.packet(&p);
    }

    /// A track event on `track`: a slice's begin (with its name) or end.
    fn slice_edge(&mut self, track: u64, t: u64, begin: Option<(&str, &str)>) {
        let mut e = Msg::new();
        e.uint(field::TE_TRACK_UUID, track);
        match begin {
            Some((name, cat)) => {
                e.uint(field::TE_TYPE, SLICE_BEGIN)
                    .str(field::TE_CATEGORIES, cat)
                    .str(field::TE_NAME, name);
            }
            None => {
                e.uint(field::TE_TYPE, SLICE_END);
            }
        }
        let mut p = Msg::new();
        p.uint(field::TIMESTAMP, t)
            .msg(field::TRACK_EVENT, &e)
            .uint(field::SEQUENCE_ID, TRACK_SEQ);
        self.packet(&p);
    }

    /// The track for `[start, end)` on `key` of `parent`, described when it is new.
    fn track(&mut self, sim: &Simulator, parent: u64, key: u64, start: u64, end: u64) -> u64 {
        let (tid, new_lane) = self.tracks[parent as usize - 1].place(key, start, end);
        let uuid = (parent << 40) | u64::from(tid);
        if let Some(lane) = new_lane {
            let base = match parent {
                JOBS => match sim.jobs.get(key as usize) {
                    Some(j) => format!("{}.{}", j.name, j.index),
                    None => format!("mmc_test #{key}"),
                },
                TAGS if self.slots => format!("hsq slot {key}"),
                TAGS => format!("blk-mq tag {key}"),
                _ => ["bus", "host CPU", "card"][key.min(2) as usize].to_string(),
            };
            let name = if lane == 0 {
                base
            } else {
                format!("{base} #{}", lane + 1)
            };
            self.descriptor(uuid, Some(parent), &name, false);
        }
        uuid
    }
}

/// The FtraceEvent of one tracepoint hit (ftrace/block.proto's field numbers).
fn ftrace_event(sim: &Simulator, e: &KEvent) -> Msg {
    let job = sim
        .jobs
        .get(e.job as usize)
        .map_or("mmc_test", |j| j.name.as_str());
    // The task that issued it: kblockd's kworker or the job's thread (`KEvent::issuer`).
    let (task, task_pid) = e.issuer(job);
    let comm = task.as_str();
    let mut m = Msg::new();
    m.uint(1, dev_t(MMCBLK_DEV))
        .uint(2, e.sector)
        .uint(3, u64::from(e.nr_sector));
    let (id, body) = match e.tp {
        Tp::BioQueue | Tp::BioBackmerge => {
            m.str(4, e.rwbs()).str(5, comm);
            let id = if e.tp == Tp::BioQueue {
                field::BLOCK_BIO_QUEUE
            } else {
                field::BLOCK_BIO_BACKMERGE
            };
            (id, m)
        }
        Tp::RqInsert | Tp::RqIssue => {
            m.uint(4, u64::from(e.bytes()))
                .str(5, e.rwbs())
                .str(6, comm)
                .str(7, "");
            let id = if e.tp == Tp::RqIssue {
                field::BLOCK_RQ_ISSUE
            } else {
                field::BLOCK_RQ_INSERT
            };
            (id, m)
        }
        Tp::RqComplete => {
            m.int(4, 0)
                .str(5, e.rwbs())
                .str(6, "")
                .int(7, i64::from(e.error));
            (field::BLOCK_RQ_COMPLETE, m)
        }
        Tp::RqRequeue => {
            m.int(4, 0).str(5, e.rwbs()).str(6, "");
            (field::BLOCK_RQ_REQUEUE, m)
        }
        Tp::IoStart | Tp::IoDone => {
            m.uint(4, u64::from(e.bytes()))
                .uint(5, 0)
                .str(6, e.rwbs())
                .str(7, comm)
                .str(8, "");
            let id = if e.tp == Tp::IoStart {
                field::BLOCK_IO_START
            } else {
                field::BLOCK_IO_DONE
            };
            (id, m)
        }
        Tp::MmcStart | Tp::MmcDone => {
            // GenericFtraceEvent { event_name = 1; repeated Field field = 2 }, Field { name = 1;
            // uint_value = 5 }.
            let mut g = Msg::new();
            g.str(1, e.tp.name());
            for (name, v) in [
                ("cmd_opcode", u64::from(e.opcode())),
                ("blocks", u64::from(e.nr_sector)),
                ("block_size", 512),
                ("blk_addr", e.sector),
                ("mrq", e.req),
            ] {
                let mut f = Msg::new();
                f.str(1, name).uint(5, v);
                g.msg(2, &f);
            }
            if e.tp == Tp::MmcDone {
                // Field { int_value = 4 }: the errnos, as the ftrace text's.
                let (cmd_err, data_err) = crate::tools::export::ftrace_text::mmc_errors(e);
                for (name, v) in [("cmd_err", cmd_err), ("data_err", data_err)] {
                    let mut f = Msg::new();
                    f.str(1, name).int(4, i64::from(v));
                    g.msg(2, &f);
                }
            }
            (field::GENERIC, g)
        }
    };
    let pid = match e.tp {
        Tp::MmcDone | Tp::RqComplete | Tp::IoDone => 0,
        _ => u64::from(task_pid),
    };
    let mut ev = Msg::new();
    ev.uint(field::EVENT_TIMESTAMP, e.t_ns)
        .uint(field::EVENT_PID, pid)
        .msg(id, &body);
    ev
}

impl<W: std::io::Write> Sink for Out<'_, W> {
    fn event(&mut self, sim: &Simulator, e: &KEvent) {
        if self.full() {
            return;
        }
        self.n += 1;
        let ev = ftrace_event(sim, e);
        let b = self.bundles.entry(e.cpu).or_default();
        b.0.msg(field::BUNDLE_EVENT, &ev);
        b.1 += 1;
        if b.1 >= BUNDLE {
            self.bundle(e.cpu);
        }
    }

    fn request(&mut self, sim: &Simulator, id: u64, r: &Open) {
        let mut stages = r.stages.clone();
        stages.sort_by_key(|s| s.1);
        let (Some(first), Some(last)) = (stages.first(), stages.last()) else {
            return;
        };
        let (start, end) = (first.1, last.1.max(first.1));
        if self.full() {
            return;
        }
        self.n += 1;
        let track = self.track(sim, JOBS, u64::from(r.job), start, end);
        // A request that ended in an I/O error says so in its name (`write 12 EIO`).
        let name = format!("{} {id}{}", r.op.name(), if r.failed { " EIO" } else { "" });
        self.slice_edge(track, start, Some((&name, "request")));
        for w in stages.windows(2) {
            let (s, e) = (w[0].1.max(start), w[1].1.min(end));
            if e > s {
                self.slice_edge(track, s, Some((w[0].0.name(), "stage")));
                self.slice_edge(track, e, None);
            }
        }
        self.slice_edge(track, end, None);
        if let Some((tag, since)) = r.tag.filter(|t| t.1 < end) {
            let track = self.track(sim, TAGS, u64::from(tag), since, end);
            self.slice_edge(track, since, Some((&format!("req {id}"), "tag")));
            self.slice_edge(track, end, None);
        }
    }

    fn segment(&mut self, sim: &Simulator, s: &Segment) {
        if self.full() || s.end <= s.start {
            return;
        }
        self.n += 1;
        let on_host = matches!(s.kind, SegmentKind::HostGap | SegmentKind::ChainBuild);
        let mut keys = vec![(u64::from(on_host), if on_host { "host" } else { "bus" })];
        if matches!(s.kind, SegmentKind::CardAccess | SegmentKind::CardBusy) {
            keys.push((2, "card"));
        }
        for (key, cat) in keys {
            let track = self.track(sim, HOST, key, s.start, s.end);
            self.slice_edge(track, s.start, Some((s.kind.name(), cat)));
            self.slice_edge(track, s.end, None);
        }
    }
}

/// Runs `scn` and writes it to `w` as a Perfetto protobuf trace (see the module doc), at most
/// `max_events` events.
pub fn write_perfetto<W: std::io::Write>(
    scn: &Scenario,
    max_events: usize,
    w: &mut W,
) -> Result<super::TraceStats, ScenarioError> {
    let sim = Simulator::new(scn)?;
    let slots = sim.host_config().mmc_path == MmcPath::Hsq;
    let mut k = KernelEvents::new(sim, 1 << 16);
    let mut out = Out {
        w,
        n: 0,
        max: max_events,
        err: None,
        bundles: BTreeMap::new(),
        tracks: Default::default(),
        slots,
    };
    for (i, (uuid, name)) in [
        (JOBS, "fio jobs"),
        (TAGS, "blk-mq tags / hsq slots"),
        (HOST, "mmc host"),
    ]
    .into_iter()
    .enumerate()
    {
        out.descriptor(uuid, None, name, i == 0);
    }
    let mut truncated = false;
    while k.step(&mut out) {
        if out.full() || k.work > super::trace_event::MAX_WORK {
            truncated = true;
            break;
        }
    }
    if !truncated {
        k.finish(&mut out);
    }
    let cpus: Vec<u32> = out.bundles.keys().copied().collect();
    for cpu in cpus {
        out.bundle(cpu);
    }
    let truncated = truncated || out.full();
    if truncated {
        // A cut run says so as a kernel's ring buffer does: a bundle with `lost_events`, which
        // `read_iolog=` refuses to replay.
        let mut b = Msg::new();
        b.uint(field::BUNDLE_CPU, 0)
            .uint(field::BUNDLE_LOST_EVENTS, 1);
        let mut p = Msg::new();
        p.msg(field::FTRACE_EVENTS, &b)
            .uint(field::SEQUENCE_ID, FTRACE_SEQ);
        out.packet(&p);
    }
    if let Some(e) = out.err.take() {
        return Err(ScenarioError::general(format!(
            "trace export: the writer failed: {e}"
        )));
    }
    Ok(super::TraceStats {
        events: out.n,
        truncated,
        simulated_ns: k.sim.now(),
        requests: k.requests,
    })
}
