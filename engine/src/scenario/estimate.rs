//! How much work a scenario is: an upper estimate of the requests and simulator events a run
//! takes, counted as the engine counts them (an I/O larger than the host's `max_req_kib` is
//! split into several requests, each simulated). [`check`](super::check) refuses what is over
//! the bounds in `limits`; callers that budget work (the page, sweeps, fits, `--calibration`)
//! add estimates up.

use super::iolog::LogOpKind;
use super::job::{JobSpec, Rw};
use super::limits::{EVENTS_PER_FLUSH, EVENTS_PER_IO, MAX_TOTAL_IOS};
use super::spec::Scenario;
use crate::platform::Platform;

/// What [`estimated_events`] found.
pub(super) struct Estimate {
    /// Requests (an I/O split by the block layer counts each of its requests).
    pub(super) ios: u64,
    pub(super) events: u64,
    /// The time bound (runtime or power_cut), not the sizes, limits the count.
    pub(super) time_bound: bool,
    /// Some job's I/Os are split into several requests.
    pub(super) split: bool,
}

/// An upper estimate of the simulator events `scn` takes (see [`MAX_EVENTS`]), for the
/// checks and for callers that budget work (the page, `--calibration`). It counts requests,
/// not I/Os: an I/O larger than the host's `max_req_kib` is split into several requests, each
/// simulated. Sized jobs count `size / bs` I/Os per clone, each its requests; jobs bounded by `runtime=` (and any run with `power_cut=`)
/// count at most what the bus could carry in that time: every request holds the bus for at
/// least its command or its data transfer, whichever is longer.
pub fn estimated_events(scn: &Scenario) -> u64 {
    match (scn.effective_platform(), scn.mmc_test) {
        (Ok(p), None) => estimate(scn, &p).events,
        (Ok(_), Some(_)) => {
            let bytes = scn
                .jobs
                .first()
                .map_or(crate::vocab::MMC_TEST_BYTES, |j| j.size);
            (2 * (bytes / 4096)).saturating_mul(EVENTS_PER_IO)
        }
        (Err(_), _) => 0,
    }
}

pub(super) fn estimate(scn: &Scenario, p: &Platform) -> Estimate {
    let bus = &p.bus;
    let req_ns = |bs: u64| {
        let data = crate::vocab::xfer_ns(bs, bus.bytes_per_sec());
        data.max(bus.cmd_ns()).max(1)
    };
    let max_req = max_req_bytes(p);
    // A request holds the bus for its own length: at most the host's largest request.
    let min_req_ns = scn
        .jobs
        .iter()
        .map(|j| req_ns(j.min_bs().min(max_req.data)))
        .min()
        .unwrap_or(1);
    let sized = |j: &JobSpec| sized_requests(scn, j, max_req);
    // Each I/O the engine's budget lets through may be split into this many requests.
    let most_parts = scn
        .jobs
        .iter()
        .map(|j| requests_per_io(scn, j, max_req))
        .max()
        .unwrap_or(1);
    let (mut untimed, mut timed, mut longest) = (0u64, 0u64, 0u64);
    for j in &scn.jobs {
        match j.runtime_ns {
            None => untimed = untimed.saturating_add(sized(j)),
            Some(rt) => {
                longest = longest.max(rt);
                timed = timed.saturating_add(if j.time_based { u64::MAX } else { sized(j) });
            }
        }
    }
    // `exitall` on every job: the run ends when the first job does, by the shortest runtime at
    // the latest.
    if scn.jobs.iter().all(|j| j.exitall) {
        if let Some(rt) = scn.jobs.iter().filter_map(|j| j.runtime_ns).min() {
            longest = rt;
            timed = timed.saturating_add(untimed);
            untimed = 0;
        }
    }
    // The jobs stop issuing at the I/O budget, whatever their runtime.
    let by_time = (longest / min_req_ns + 1).min(MAX_TOTAL_IOS.saturating_mul(most_parts));
    let mut time_bound = timed > by_time;
    let mut ios = untimed
        .saturating_add(timed.min(by_time))
        .min(untimed.max(MAX_TOTAL_IOS.saturating_mul(most_parts)));
    if let Some(cut) = scn.power_cut_ns {
        let by_cut = cut / min_req_ns + 1;
        if by_cut < ios {
            (ios, time_bound) = (by_cut, true);
        }
    }
    let min_fsync = scn.jobs.iter().map(|j| j.fsync).filter(|&f| f > 0).min();
    let flushes = min_fsync
        .map_or(0, |f| ios / u64::from(f))
        .saturating_add(sync_flushes(scn, p, ios));
    let mut events = ios
        .saturating_mul(EVENTS_PER_IO)
        .saturating_add(flushes.saturating_mul(EVENTS_PER_FLUSH));
    // The requests of a split I/O enter the event queue together, in one move
    // (`EventQueue::push_all`): they cost their number, which `ios` counts.
    if let Some(e) = &scn.inject_error {
        // Each failed transfer is retried (at most 5 times): at most 1 + 5 x rate attempts.
        let extra = u128::from(events) * u128::from(e.rate_ppm) * 5 / 1_000_000;
        events = events.saturating_add(u64::try_from(extra).unwrap_or(u64::MAX));
    }
    Estimate {
        ios,
        events,
        time_bound,
        split: most_parts > 1,
    }
}

/// The flushes O_SYNC writes bring, at most: with a volatile cache, a post-flush per request
/// when the queue has no FUA (`path/blk_flush.rs`), and `generic_write_sync`'s flush per I/O of
/// a synchronous engine.
fn sync_flushes(scn: &Scenario, p: &Platform, ios: u64) -> u64 {
    let sync: Vec<&JobSpec> = scn.jobs.iter().filter(|j| j.sync).collect();
    if sync.is_empty() || !p.switches.cache {
        return 0;
    }
    let post = u64::from(!(p.switches.fua && p.card.reliable_write));
    let wsync = u64::from(sync.iter().any(|j| !j.ioengine.is_async()));
    ios.saturating_mul(post + wsync)
}

/// Bytes as KiB, with a decimal for half a KiB (`0.5`, `127.5`, `512`).
pub(super) fn fmt_kib(bytes: u64) -> String {
    if bytes.is_multiple_of(1024) {
        (bytes / 1024).to_string()
    } else {
        format!("{}", bytes as f64 / 1024.0)
    }
}

/// The largest requests the engine splits I/Os into, as `submit_io` splits: a read or write at
/// the host's largest request (`max_req_kib`), a discard at the card's `max_discard_sectors`;
/// at least one sector each.
#[derive(Clone, Copy)]
pub(super) struct MaxReq {
    pub(super) data: u64,
    pub(super) discard: u64,
}

pub(super) fn max_req_bytes(p: &Platform) -> MaxReq {
    MaxReq {
        data: p.host.max_req_bytes.max(512),
        discard: p.card.max_discard_sectors.max(1) * 512,
    }
}

/// What an I/O asks, as its split goes.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Data,
    Discard,
    Flush,
}

/// Requests one I/O of `len` bytes becomes: the block layer splits a read or write larger than
/// the host's largest request (`bio_split_to_limits`), a discard larger than
/// `max_discard_sectors` (`bio_split_discard`); a flush stays one request.
fn requests_of(len: u64, max_req: MaxReq, kind: Kind) -> u64 {
    let max = match kind {
        Kind::Data => max_req.data,
        Kind::Discard => max_req.discard,
        Kind::Flush => return 1,
    };
    len.div_ceil(max).max(1)
}

/// Requests the job's largest I/O becomes (a trim's at the discard limit).
fn job_requests_per_io(j: &JobSpec, max_req: MaxReq) -> u64 {
    let discard = requests_of(j.max_bs(), max_req, Kind::Discard);
    match j.rw {
        Rw::Trim | Rw::RandTrim => discard,
        Rw::TrimWrite => discard.max(requests_of(j.max_bs(), max_req, Kind::Data)),
        _ => requests_of(j.max_bs(), max_req, Kind::Data),
    }
}

/// Requests one traced op becomes (as [`requests_of`], `submit_io`).
fn op_requests(op: &super::iolog::LogOp, max_req: MaxReq) -> u64 {
    let kind = match op.kind {
        LogOpKind::Read | LogOpKind::Write => Kind::Data,
        LogOpKind::Discard => Kind::Discard,
        LogOpKind::Flush => Kind::Flush,
    };
    requests_of(op.len, max_req, kind)
}

/// Requests the largest I/O the job issues becomes: of a replayed trace (`read_iolog=`, once
/// attached), the largest op of the events the job replays (`replay_events=`: issue or queue),
/// whatever `bs` says; else the largest block's.
pub(super) fn requests_per_io(scn: &Scenario, j: &JobSpec, max_req: MaxReq) -> u64 {
    match j.read_iolog.as_ref().and_then(|n| scn.iolog(n)) {
        Some(log) => log
            .ops_of(j.replay_events)
            .iter()
            .map(|op| op_requests(op, max_req))
            .max()
            .unwrap_or(1),
        None => job_requests_per_io(j, max_req),
    }
}

/// Requests one job section's clones issue, by size (or its replayed trace), ignoring time.
fn sized_requests(scn: &Scenario, j: &JobSpec, max_req: MaxReq) -> u64 {
    let per = match j.read_iolog.as_ref().and_then(|n| scn.iolog(n)) {
        Some(log) => {
            let ops = log.ops_of(j.replay_events);
            let reqs = ops
                .iter()
                .map(|op| op_requests(op, max_req))
                .fold(0u64, u64::saturating_add);
            let all = reqs.saturating_mul(u64::from(j.loops.max(1)));
            j.number_ios.map_or(all, |n| {
                // n ops at most, each at most the largest op's requests.
                let most = ops
                    .iter()
                    .map(|op| op_requests(op, max_req))
                    .max()
                    .unwrap_or(1);
                all.min(n.saturating_mul(most))
            })
        }
        None => {
            let ios = j.io_bytes() / j.min_bs().max(1);
            let ios = j.number_ios.map_or(ios, |n| ios.min(n));
            ios.saturating_mul(job_requests_per_io(j, max_req))
                .min(ios.saturating_add(j.io_bytes() / max_req.data.min(max_req.discard)))
        }
    };
    per.saturating_mul(u64::from(j.numjobs))
}
