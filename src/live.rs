//! Watching a run: the simulator driven at a chosen speed of simulated time, one event at a
//! time, or as fast as the frame budget allows, with what the pipeline view, the bus strip,
//! the live charts and the "What is happening" panel read from it.
//!
//! Plain logic, no browser code (the page in `watch.rs` owns the clock and the frames), so it
//! builds natively and the browser tests drive it directly. Like `engine_bridge`, it calls only
//! the engine's public API: `run_until`, `step`, `snapshot`, `drain_trace`, `timeline`,
//! `series`, `report`.

use std::collections::BTreeMap;

use mmcsim_engine::explain::effect_summary;
use mmcsim_engine::metrics::SeriesPoint;
use mmcsim_engine::Segment;
use mmcsim_engine::Snapshot;
use mmcsim_engine::{
    HostConfig, HostOptions, HsqDepth, MmcPath, Report, Rw, Scenario, Simulator, Stage,
};

use crate::engine_bridge::RunError;

/// One step of the speed control: simulated time per second of real time, or `None` for "as
/// fast as the frame budget allows".
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Speed {
    pub label: &'static str,
    pub sim_ns_per_s: Option<u64>,
}

/// The speed control, slowest first. The slowest steps show one request crossing the bus in
/// slow motion (a 4 KiB transfer on HS400 takes about 10 µs); the default lets a reader follow
/// each request of a non-packed 4 KiB run (about 170 µs apart) without losing track.
pub const SPEEDS: [Speed; 9] = [
    Speed {
        label: "2 µs/s",
        sim_ns_per_s: Some(2_000),
    },
    Speed {
        label: "10 µs/s",
        sim_ns_per_s: Some(10_000),
    },
    Speed {
        label: "50 µs/s",
        sim_ns_per_s: Some(50_000),
    },
    Speed {
        label: "200 µs/s",
        sim_ns_per_s: Some(200_000),
    },
    Speed {
        label: "1 ms/s",
        sim_ns_per_s: Some(1_000_000),
    },
    Speed {
        label: "5 ms/s",
        sim_ns_per_s: Some(5_000_000),
    },
    Speed {
        label: "25 ms/s",
        sim_ns_per_s: Some(25_000_000),
    },
    Speed {
        label: "100 ms/s",
        sim_ns_per_s: Some(100_000_000),
    },
    Speed {
        label: "as fast as possible",
        sim_ns_per_s: None,
    },
];

/// "Normal" speed: 1 ms of simulated time per second.
pub const DEFAULT_SPEED: usize = 4;

/// Longest real time one frame may account for, ms: after a hidden tab or a long pause the
/// clock resumes instead of jumping ahead.
pub const MAX_FRAME_DT_MS: f64 = 100.0;

/// Simulated time the bus strip shows at a speed: about three seconds of watching, at least a
/// few requests' worth and at most 5 ms.
pub fn strip_window_ns(speed: &Speed) -> u64 {
    match speed.sim_ns_per_s {
        Some(r) => (r * 3).clamp(200_000, 5_000_000),
        None => 2_000_000,
    }
}

/// Trace events kept by the engine between two frames.
const TRACE_CAPACITY: usize = 16_384;
/// Bus/host timeline segments kept (a few ms of a busy 4 KiB run).
const TIMELINE_CAPACITY: usize = 3_000;
/// Requests whose life (stage entries) is remembered for the request panel.
const LIVES_KEPT: usize = 2_048;

/// Where one request spent its time so far, from the trace.
#[derive(Clone, Debug, PartialEq)]
pub struct RequestLife {
    pub id: u64,
    pub job: u32,
    pub op: mmcsim_engine::Op,
    /// (stage, entered at ns, time spent ns, times entered in a row); the last entry's time
    /// runs to `now` unless the request is done.
    pub stages: Vec<(Stage, u64, u64, u32)>,
    pub done: bool,
}

/// What the trace said of one request: its job, its operation, and the stages it entered.
type Life = (u32, mmcsim_engine::Op, Vec<(u64, Stage)>);

/// A simulator being watched.
pub struct LiveSim {
    sim: Simulator,
    lives: BTreeMap<u64, Life>,
}

impl LiveSim {
    /// The simulator for `scn` with tracing and the bus timeline on.
    pub fn new(scn: &Scenario) -> Result<LiveSim, RunError> {
        let mut sim = Simulator::new(scn).map_err(|e| RunError {
            option: e.option.clone(),
            message: e.to_string(),
        })?;
        sim.set_trace_capacity(TRACE_CAPACITY);
        sim.set_timeline_capacity(TIMELINE_CAPACITY);
        Ok(LiveSim {
            sim,
            lives: BTreeMap::new(),
        })
    }

    pub fn now(&self) -> u64 {
        self.sim.now()
    }
    pub fn is_finished(&self) -> bool {
        self.sim.is_finished()
    }
    pub fn progress(&self) -> f64 {
        self.sim.progress()
    }
    pub fn host_config(&self) -> HostConfig {
        self.sim.host_config()
    }
    pub fn events(&self) -> u64 {
        self.sim.events()
    }
    pub fn next_event_time(&self) -> Option<u64> {
        self.sim.next_event_time()
    }

    /// Runs the events due up to `target_ns` (at most `max_events` of them) and stands at
    /// `target_ns` when all were run. Returns true when the target was reached.
    pub fn advance_to(&mut self, target_ns: u64, max_events: u64) -> bool {
        let mut n = 0;
        while n < max_events && self.sim.next_event_time().is_some_and(|t| t <= target_ns) {
            self.sim.step();
            n += 1;
        }
        let reached = self.sim.next_event_time().is_none_or(|t| t > target_ns);
        if reached {
            self.sim.run_until(target_ns);
        }
        self.absorb_trace();
        reached
    }

    /// Runs at most `n` events (the "as fast as possible" speed). True when finished.
    pub fn run_events(&mut self, n: u64) -> bool {
        let done = self.sim.run_events(n);
        self.absorb_trace();
        done
    }

    /// When the picture next changes: the next event, or the next phase boundary on the bus
    /// (a transfer's command, access, data and busy phases are booked when it starts, so they
    /// are no events of their own; single steps stop at them too).
    pub fn next_change(&self) -> Option<u64> {
        let now = self.sim.now();
        let boundary = self
            .sim
            .timeline()
            .iter()
            .flat_map(|s| [s.start, s.end])
            .filter(|&t| t > now)
            .min();
        match (self.sim.next_event_time(), boundary) {
            (Some(e), Some(b)) => Some(e.min(b)),
            (e, b) => e.or(b),
        }
    }

    /// A single step: runs the next event, or moves to the next bus phase boundary if that
    /// comes first. False when nothing is left.
    pub fn step_event(&mut self) -> bool {
        let Some(t) = self.next_change() else {
            return false;
        };
        let stepped = if self.sim.next_event_time() == Some(t) {
            self.sim.step()
        } else {
            self.sim.run_until(t);
            true
        };
        self.absorb_trace();
        stepped
    }

    /// Takes the engine's new trace events into the per-request lives.
    pub fn absorb_trace(&mut self) {
        for ev in self.sim.drain_trace() {
            let e = self
                .lives
                .entry(ev.req)
                .or_insert_with(|| (ev.job, ev.op, Vec::new()));
            e.2.push((ev.t_ns, ev.stage));
        }
        while self.lives.len() > LIVES_KEPT {
            self.lives.pop_first();
        }
    }

    pub fn snapshot(&mut self) -> Snapshot {
        self.sim.snapshot()
    }
    pub fn timeline(&self) -> Vec<Segment> {
        self.sim.timeline()
    }
    pub fn series(&self) -> Vec<SeriesPoint> {
        self.sim.series()
    }
    pub fn report(&self) -> Report {
        self.sim.report()
    }
    /// The engine's sentences about what this run shows (so far).
    pub fn summary(&self) -> Vec<String> {
        effect_summary(&self.sim.report(), &self.sim.host_config())
    }

    /// Request `id`'s life so far (None when it is older than the requests remembered).
    pub fn life(&self, id: u64) -> Option<RequestLife> {
        let (job, op, entries) = self.lives.get(&id)?;
        let now = self.sim.now();
        let mut entries: Vec<(u64, Stage)> =
            entries.iter().copied().filter(|e| e.0 <= now).collect();
        entries.sort_by_key(|e| e.0);
        let done = entries.last().is_some_and(|e| e.1 == Stage::Done);
        // Consecutive entries of one stage (a request refused by mmc_mq_queue_rq goes back to
        // blk-mq) are one row whose count says how often it went round.
        let mut stages: Vec<(Stage, u64, u64, u32)> = Vec::new();
        for (i, &(t, st)) in entries.iter().enumerate() {
            if st == Stage::Done {
                continue;
            }
            let end = entries.get(i + 1).map(|e| e.0).unwrap_or(now);
            let d = end.saturating_sub(t);
            match stages.last_mut() {
                Some(last) if last.0 == st => {
                    last.2 += d;
                    last.3 += 1;
                }
                _ => stages.push((st, t, d, 1)),
            }
        }
        Some(RequestLife {
            id,
            job: *job,
            op: *op,
            stages,
            done,
        })
    }
}

/// Scenario B of an A/B comparison: A's workload, platform and seed with B's host switches
/// ("two host configurations on the same workload and seed").
pub fn b_scenario(a: &Scenario, b_host: &HostOptions) -> Scenario {
    Scenario {
        host: b_host.clone(),
        ..a.clone()
    }
}

/// Completion latency CDF of a report (read and write together): (latency ns, fraction <=).
pub fn latency_cdf(r: &Report) -> (Vec<(u64, f64)>, u64, u64) {
    let m = r.merged();
    let mut clat = m.read.clat.clone();
    clat.merge(&m.write.clat);
    let total = clat.count().max(1) as f64;
    let mut sum = 0u64;
    let cdf = clat
        .buckets()
        .map(|(v, c)| {
            sum += c;
            (v, sum as f64 / total)
        })
        .collect();
    (cdf, clat.percentile(50.0), clat.percentile(99.0))
}

/// A first B side for a scenario: the host change its platform's patch series measured
/// (packed chains, FUA, non-blocking requests, dynamic hsq depth), flipped against A.
pub fn suggest_b(a: &Scenario) -> HostOptions {
    let mut h = a.host.clone();
    let Ok(cfg) = a.host_config() else { return h };
    let max_packed = a.platform().map(|p| p.host.max_packed).unwrap_or(0);
    match (a.platform.as_str(), cfg.mmc_path) {
        ("unisoc-fua-2022", _) => h.fua = Some(!cfg.fua),
        ("unisoc-hsq-2023", MmcPath::Hsq) => {
            h.hsq_depth = Some(match cfg.hsq_depth {
                HsqDepth::Dynamic => HsqDepth::Fixed(2),
                HsqDepth::Fixed(_) => HsqDepth::Dynamic,
            })
        }
        (_, MmcPath::Legacy) => h.nonblocking = Some(!cfg.nonblocking),
        (_, MmcPath::Hsq) if max_packed > 0 => {
            h.packed = Some(if cfg.packed > 0 { 0 } else { max_packed })
        }
        _ => {
            h.mmc_path = Some(if cfg.mmc_path == MmcPath::Cqe {
                MmcPath::Hsq
            } else {
                MmcPath::Cqe
            })
        }
    }
    h
}

/// What to watch for in this scenario, in plain words: where in the pipeline view the effect
/// of its host switches shows. (The engine's `explain` texts say what each layer is; these say
/// where to look.)
pub fn watch_hints(scn: &Scenario, cfg: &HostConfig) -> Vec<String> {
    let writes = scn
        .jobs
        .iter()
        .any(|j| !matches!(j.rw, Rw::Read | Rw::RandRead));
    let sync_writes = scn
        .jobs
        .iter()
        .any(|j| j.sync && !matches!(j.rw, Rw::Read | Rw::RandRead));
    let small_writes = scn
        .jobs
        .iter()
        .any(|j| j.bs <= 4096 && !matches!(j.rw, Rw::Read | Rw::RandRead));
    let mut out = Vec::new();
    match cfg.mmc_path {
        MmcPath::Hsq if cfg.packed > 0 => out.push(format!(
            "Packed: hsq hands the SDHCI controller up to {} requests as one ADMA3 chain (a CMD descriptor and an \
             ADMA2 table each). They cross the bus one after another, then a single interrupt (the IRQ lamp) \
             completes them all: one software pass per chain instead of per request, so the bus strip has \
             few idle gaps.",
            cfg.packed
        )),
        MmcPath::Hsq => {
            out.push(
                "One request at a time leaves its hsq slot for the bus. Each completion interrupt runs the software \
                 that finishes it and pumps the next (mmc_hsq_finalize_request, mmc_hsq_pump_requests): the \
                 orange stretches on the host CPU row are the idle gaps on the bus row."
                    .to_string(),
            );
            if cfg.hsq_depth == HsqDepth::Dynamic {
                out.push(if small_writes {
                    "Dynamic depth: while at least two queued slots hold 4 KiB writes, mmc_hsq_modify_threshold raises \
                     hsq_depth to 5, so the mmc queue window widens from 3 to 6 (watch the window column flash)."
                        .to_string()
                } else {
                    "Dynamic depth only changes for 4 KiB writes: with this workload the window stays at 3.".to_string()
                });
            }
        }
        MmcPath::Legacy => out.push(if cfg.nonblocking {
            "Legacy, non-blocking: the next request is prepared (dma_map_sg) while the current one is on the bus, \
             so only the map/unmap time is hidden; the card still serves one request at a time."
                .to_string()
        } else {
            "Legacy, blocking: map, transfer, wait, unmap, then the next request: one request in the whole host path."
                .to_string()
        }),
        MmcPath::Cqe => out.push(
            "CQE is a what-if: none of the measured patch series used command queueing. Tasks queue on the card and \
             run back to back without host software between them."
                .to_string(),
        ),
    }
    if sync_writes && cfg.fua {
        out.push(
            "FUA: each synchronous write goes out as a reliable write (diamond). The card holds DAT0 busy until the \
             data is programmed into NAND (long card-busy stretches in the bus strip), and nothing else can use \
             the bus meanwhile."
                .to_string(),
        );
    } else if sync_writes {
        out.push(
            "FUA is off: synchronous writes complete as soon as they are in the card's volatile cache (watch the \
             cache fill), which a power cut can lose."
                .to_string(),
        );
    } else if writes && cfg.cache {
        out.push("Writes land in the card's volatile cache and are programmed to NAND in the background.".to_string());
    }
    out
}
