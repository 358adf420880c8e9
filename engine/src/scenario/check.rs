//! [`check`]: what no single option can say, checked once for every way a scenario arrives
//! (command line, job file, link, the page's form) before [`crate::Simulator::new`] builds it.
//!
//! Two kinds of rule: relations between options (`size` below `bs`, `time_based` without
//! `runtime`, a chain longer than the platform's ADMA3 limit), and bounds that keep every
//! accepted scenario's time and memory bounded. Each refusal names the option, the limit and
//! what is accepted. Each bound has one name, in `limits` (re-exported here).

use super::iolog::LogOpKind;
use super::job::Rw;
use super::table::Access;
use super::{
    error::{clip, ScenarioError},
    host::{HostConfig, HsqDepth, MmcPath},
    job::JobSpec,
    spec::Scenario,
    table::OPTIONS,
};
use crate::platform::Platform;

use super::limits::{EVENTS_PER_FLUSH, QUEUE_WALK_PER_EVENT};
pub use super::limits::{
    EVENTS_PER_IO, MAX_BS, MAX_COMMAND_EVENTS, MAX_DEVICE_BYTES, MAX_EVENTS, MAX_INPUT_BYTES,
    MAX_JOBS, MAX_NUMJOBS, MAX_OUTSTANDING, MAX_RUNTIME_NS, MAX_TIME_NS, MAX_TOTAL_IOS,
};

/// Checks the scenario as a whole: the platform exists, the host switches fit it, the jobs make
/// sense together and the run stays within the bounds above.
pub fn check(scn: &Scenario) -> Result<(), ScenarioError> {
    let p = &scn.effective_platform()?;
    let cfg = p.switches;
    check_host(p, &cfg)?;
    if scn.mmc_test.is_some() {
        return check_mmc_test(scn);
    }
    check_jobs(scn, p)
}

fn check_host(p: &Platform, cfg: &HostConfig) -> Result<(), ScenarioError> {
    if cfg.packed > 0 {
        if p.host.max_packed == 0 {
            return Err(ScenarioError::new(
                "packed",
                format!("{} has no ADMA3 controller; accepted: packed=0", p.name),
            ));
        }
        if cfg.packed > p.host.max_packed {
            return Err(ScenarioError::new(
                "packed",
                format!(
                    "{} exceeds the ADMA3 chain limit of {} on {}; accepted: 0 or 2..={}",
                    cfg.packed, p.host.max_packed, p.name, p.host.max_packed
                ),
            ));
        }
        if cfg.packed == 1 {
            return Err(ScenarioError::new(
                "packed",
                "a chain of 1 is not a chain; accepted: 0 (off) or 2..=16",
            ));
        }
        if cfg.mmc_path != MmcPath::Hsq {
            return Err(ScenarioError::new(
                "packed",
                "packed requests need the host software queue; use mmc_path=hsq or packed=0",
            ));
        }
    }
    if let HsqDepth::Fixed(d) = cfg.hsq_depth {
        if d == 0 || d > 63 {
            return Err(ScenarioError::new(
                "hsq_depth",
                format!("{d} is out of range; accepted: 1..=63 or dynamic"),
            ));
        }
    }
    Ok(())
}

fn check_mmc_test(scn: &Scenario) -> Result<(), ScenarioError> {
    // Five transfer sizes from 4 KiB up: fewer than 2 x bytes / 4 KiB transfers in all.
    let bytes = scn
        .jobs
        .first()
        .map_or(crate::vocab::MMC_TEST_BYTES, |j| j.size);
    let ios = 2 * (bytes / 4096);
    let events = estimated_events(scn);
    if ios > MAX_TOTAL_IOS || events > MAX_EVENTS {
        return Err(ScenarioError::new(
            "size",
            format!(
                "mmc_test would simulate about {ios} transfers ({events} events); at most {MAX_EVENTS} events, about 10 s of CPU (size is the bytes per transfer size)"
            ),
        ));
    }
    Ok(())
}

fn check_jobs(scn: &Scenario, p: &Platform) -> Result<(), ScenarioError> {
    if scn.jobs.is_empty() {
        return Err(ScenarioError::general(
            "no job to run; give --name=NAME or a job file",
        ));
    }
    let max_req = max_req_bytes(p);
    let (mut clones, mut outstanding) = (0u64, 0u64);
    for j in &scn.jobs {
        check_job_region(j)?;
        check_job_modes(j)?;
        clones += u64::from(j.numjobs);
        // Every request of a split I/O is in memory at once.
        outstanding = outstanding.saturating_add(
            (u64::from(j.numjobs) * u64::from(j.outstanding()))
                .saturating_mul(job_requests_per_io(j, max_req)),
        );
    }
    check_totals(scn, p, clones, outstanding)
}

/// One job's block size against its region, files and offsets.
fn check_job_region(j: &JobSpec) -> Result<(), ScenarioError> {
    if j.bs == 0 || !j.bs.is_multiple_of(512) {
        return Err(ScenarioError::new(
            "bs",
            format!("{} is not a multiple of 512 bytes", j.bs),
        ));
    }
    if j.read_iolog.is_none() && j.region_bytes() < j.max_bs() {
        let what = if j.filesize.is_some() {
            "filesize"
        } else {
            "size"
        };
        return Err(ScenarioError::new(
            what,
            format!(
                "job '{}': the region ({} bytes) is smaller than the largest block ({} bytes)",
                j.name,
                j.region_bytes(),
                j.max_bs()
            ),
        ));
    }
    if j.filesize.is_none() && j.size / u64::from(j.nrfiles.max(1)) < j.max_bs() {
        return Err(ScenarioError::new(
            "nrfiles",
            format!(
                "job '{}': {} files of size={} hold less than one block each",
                j.name, j.nrfiles, j.size
            ),
        ));
    }
    if j.offset + j.region_bytes() + u64::from(j.numjobs) * j.offset_increment
        > MAX_DEVICE_BYTES + MAX_DEVICE_BYTES
    {
        // As fio on a device smaller than the regions: a clone that starts past the end
        // stops with "offset extends end".
        let last = u64::from(j.numjobs.max(1) - 1);
        let start = j.offset + last * j.offset_increment;
        return Err(ScenarioError::new(
            "offset_increment",
            format!(
                "job '{}': the regions reach past 2 TiB (clone {last} starts at {} GiB; fio stops a clone that starts past the device's end with 'offset extends end')",
                j.name,
                start >> 30
            ),
        ));
    }
    Ok(())
}

/// One job's zone mode and time bounds.
fn check_job_modes(j: &JobSpec) -> Result<(), ScenarioError> {
    if j.zone_zbd && j.zonesize.is_none() {
        return Err(ScenarioError::new(
            "zonemode",
            format!(
                "job '{}': zbd on a device that is not zoned needs zonesize= (fio: \"Specifying the zone size is mandatory for regular file/block device with --zonemode=zbd\")",
                j.name
            ),
        ));
    }
    if j.runtime_ns.is_some_and(|rt| rt > MAX_RUNTIME_NS) {
        return Err(ScenarioError::new(
            "runtime",
            format!(
                "at most {} s of simulated time",
                MAX_RUNTIME_NS / 1_000_000_000
            ),
        ));
    }
    if j.time_based && j.runtime_ns.is_none() {
        return Err(ScenarioError::new(
            "time_based",
            format!("job '{}': needs runtime= to say when to stop", j.name),
        ));
    }
    Ok(())
}

/// The jobs together: sections, clones, I/Os outstanding and the events the run would take.
fn check_totals(
    scn: &Scenario,
    p: &Platform,
    clones: u64,
    outstanding: u64,
) -> Result<(), ScenarioError> {
    if scn.jobs.len() as u64 > MAX_JOBS {
        return Err(ScenarioError::new(
            "name",
            format!(
                "{} job sections; at most {MAX_JOBS} jobs in all",
                scn.jobs.len()
            ),
        ));
    }
    if clones > MAX_JOBS {
        return Err(ScenarioError::new(
            "numjobs",
            format!("{clones} job clones in total; at most {MAX_JOBS}"),
        ));
    }
    if outstanding > MAX_OUTSTANDING {
        return Err(ScenarioError::new(
            "iodepth",
            format!(
                "{outstanding} requests outstanding in total (numjobs x iodepth x the requests of one I/O: an I/O larger than max_req_kib={} is split); at most {MAX_OUTSTANDING} (lower iodepth, numjobs or bs)",
                fmt_kib(p.host.max_req_bytes)
            ),
        ));
    }
    let est = estimate(scn, p);
    if est.events > MAX_EVENTS {
        let (option, lower) = match (est.time_bound, est.split) {
            (true, false) => ("runtime", "lower runtime"),
            (true, true) => ("runtime", "lower runtime or bs, or raise max_req_kib"),
            (false, false) => ("size", "lower size or numjobs, or set runtime="),
            (false, true) => (
                "size",
                "lower size or bs, or raise max_req_kib, or set runtime=",
            ),
        };
        return Err(ScenarioError::new(
            option,
            format!(
                "the jobs would simulate about {} requests ({} events; an I/O larger than max_req_kib={} is split into several requests); at most {MAX_EVENTS} events, about 10 s of CPU ({lower})",
                est.ios, est.events, fmt_kib(p.host.max_req_bytes)
            ),
        ));
    }
    Ok(())
}

/// What [`estimated_events`] found.
struct Estimate {
    /// Requests (an I/O split by the block layer counts each of its requests).
    ios: u64,
    events: u64,
    /// The time bound (runtime or power_cut), not the sizes, limits the count.
    time_bound: bool,
    /// Some job's I/Os are split into several requests.
    split: bool,
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

fn estimate(scn: &Scenario, p: &Platform) -> Estimate {
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
        .map(|j| req_ns(j.min_bs().min(max_req)))
        .min()
        .unwrap_or(1);
    let sized = |j: &JobSpec| {
        let per = match j.read_iolog.as_ref().and_then(|n| scn.iolog(n)) {
            Some(log) => {
                let reqs = log
                    .ops
                    .iter()
                    .map(|op| requests_of(op.len, max_req, op.kind != LogOpKind::Flush))
                    .fold(0u64, u64::saturating_add);
                let all = reqs.saturating_mul(u64::from(j.loops.max(1)));
                j.number_ios.map_or(all, |n| {
                    // n ops at most, each at most the largest op's requests.
                    let most = log
                        .ops
                        .iter()
                        .map(|op| requests_of(op.len, max_req, true))
                        .max()
                        .unwrap_or(1);
                    all.min(n.saturating_mul(most))
                })
            }
            None => {
                let ios = j.io_bytes() / j.min_bs().max(1);
                let ios = j.number_ios.map_or(ios, |n| ios.min(n));
                ios.saturating_mul(job_requests_per_io(j, max_req))
                    .min(ios.saturating_add(j.io_bytes() / max_req))
            }
        };
        per.saturating_mul(u64::from(j.numjobs))
    };
    // Each I/O the engine's budget lets through may be split into this many requests.
    let most_parts = scn
        .jobs
        .iter()
        .map(|j| job_requests_per_io(j, max_req))
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
    let flushes = min_fsync.map_or(0, |f| ios / u64::from(f));
    let mut events = ios
        .saturating_mul(EVENTS_PER_IO)
        .saturating_add(flushes.saturating_mul(EVENTS_PER_FLUSH));
    if most_parts > 1 {
        // The requests of a split I/O are queued together (see QUEUE_WALK_PER_EVENT).
        events = events.saturating_add(ios.saturating_mul(most_parts) / QUEUE_WALK_PER_EVENT);
    }
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

/// Bytes as KiB, with a decimal for half a KiB (`0.5`, `127.5`, `512`).
fn fmt_kib(bytes: u64) -> String {
    if bytes.is_multiple_of(1024) {
        (bytes / 1024).to_string()
    } else {
        format!("{}", bytes as f64 / 1024.0)
    }
}

/// The host's largest request (`max_req_kib`), at least one sector, as the engine splits.
fn max_req_bytes(p: &Platform) -> u64 {
    p.host.max_req_bytes.max(512)
}

/// Requests one I/O of `len` bytes becomes: the block layer splits a data I/O larger than the
/// host's largest request (`bio_split_to_limits`); a discard or a flush stays one request.
fn requests_of(len: u64, max_req: u64, data: bool) -> u64 {
    if data && len > max_req {
        len.div_ceil(max_req)
    } else {
        1
    }
}

/// Requests the job's largest I/O becomes (a trim-only job's discards are not split).
fn job_requests_per_io(j: &JobSpec, max_req: u64) -> u64 {
    let data = !matches!(j.rw, Rw::Trim | Rw::RandTrim);
    requests_of(j.max_bs(), max_req, data)
}

/// Options that have no effect in this configuration, one line each (the CLI prints them on
/// stderr as `mmcsim: warning: ...`, the page under the command line). An option is never
/// silently ignored: it either changes the run, or is refused by [`check`], or is named here.
pub fn warnings(scn: &Scenario) -> Vec<String> {
    let Ok(cfg) = scn.effective_platform().map(|p| p.switches) else {
        return Vec::new();
    };
    // A switch given, even at the preset's value.
    let given = |key: &str| scn.overrides.contains_key(key);
    let mut w = Vec::new();
    if let Some(case) = scn.mmc_test {
        for (key, set) in [
            ("mmc_path", given("mmc_path")),
            ("nonblocking", given("nonblocking")),
            ("hsq_depth", given("hsq_depth")),
            ("packed", scn.switch::<u32>("packed").is_some_and(|p| p > 0)),
        ] {
            if set {
                w.push(format!(
                    "{key}: no effect with mmc_test={case} (the case runs on the legacy path, {} by its number)",
                    if case % 2 == 0 { "non-blocking" } else { "blocking" }
                ));
            }
        }
        let d = JobSpec::default();
        for j in &scn.jobs {
            for row in OPTIONS
                .iter()
                .filter(|r| !matches!(r.name, "name" | "size"))
            {
                if let Access::Job { get, .. } = row.access {
                    if get(j) != get(&d) {
                        w.push(format!(
                            "{}: no effect with mmc_test={case} (the test sets its own transfers; only size= is used)",
                            row.name
                        ));
                    }
                }
            }
        }
        if scn.jobs.len() > 1 {
            w.push(format!(
                "mmc_test={case}: runs once; the {} job sections are not run",
                scn.jobs.len()
            ));
        }
        w.dedup();
        return w;
    }
    let path = cfg.mmc_path;
    if given("hsq_depth") && path != MmcPath::Hsq {
        w.push(format!(
            "hsq_depth: no effect on mmc_path={} (only the host software queue has that window)",
            path.name()
        ));
    }
    if given("nonblocking") && path != MmcPath::Legacy {
        w.push(format!(
            "nonblocking: no effect on mmc_path={} (only the legacy path prepares the next request)",
            path.name()
        ));
    }
    for j in &scn.jobs {
        if j.iodepth > 1 && !j.ioengine.is_async() {
            w.push(format!(
                "iodepth: no effect with ioengine={} in job '{}' (one I/O at a time; use libaio or io_uring)",
                j.ioengine.name(),
                clip(&j.name)
            ));
        }
    }
    w.dedup();
    w
}
