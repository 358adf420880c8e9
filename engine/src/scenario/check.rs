//! [`check`]: what no single option can say, checked once for every way a scenario arrives
//! (command line, job file, link, the page's form) before [`crate::Simulator::new`] builds it.
//!
//! Two kinds of rule: relations between options (`size` below `bs`, `time_based` without
//! `runtime`, a chain longer than the platform's ADMA3 limit), and bounds that keep every
//! accepted scenario's time and memory bounded. Each refusal names the option, the limit and
//! what is accepted. Each bound has one name, in `limits` (re-exported here).

use super::{
    error::ScenarioError,
    host::{HostConfig, HsqDepth, MmcPath},
    job::JobSpec,
    spec::Scenario,
};
use crate::platform::Platform;

pub use super::estimate::estimated_events;
use super::estimate::{estimate, fmt_kib, max_req_bytes, requests_per_io};
pub use super::limits::{
    DEVICE_BYTES, EVENTS_PER_IO, MAX_BS, MAX_COMMAND_EVENTS, MAX_DEVICE_BYTES, MAX_EVENTS,
    MAX_INPUT_BYTES, MAX_JOBS, MAX_NUMJOBS, MAX_OUTSTANDING, MAX_RUNTIME_NS, MAX_TIME_NS,
    MAX_TOTAL_IOS, MAX_TRACE_BYTES,
};

/// Checks the scenario as a whole: the platform exists, the host switches fit it, the jobs make
/// sense together and the run stays within the bounds above.
pub fn check(scn: &Scenario) -> Result<(), ScenarioError> {
    let p = &scn.effective_platform()?;
    let cfg = p.switches;
    if !cfg.iosched.in_this_build() {
        return Err(ScenarioError::new(
            "ioscheduler",
            "kyber and bfq are not in this build (the landing page's); accepted here: none, \
             mq-deadline (the Lab has all four)",
        ));
    }
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
    let hs400 = matches!(
        p.bus.mode,
        crate::board::BusMode::Hs400 | crate::board::BusMode::Hs400Es
    );
    if hs400 && p.bus.width != 8 {
        return Err(ScenarioError::new(
            "bus_width",
            format!(
                "{} data lines with bus_mode={}; HS400 is 8-bit only (JEDEC eMMC 5.1); accepted: bus_width=8, or bus_mode=hs200, ddr52, hs52 or legacy",
                p.bus.width,
                p.bus.mode.key()
            ),
        ));
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
    if bytes < 4096 {
        return Err(ScenarioError::new(
            "size",
            format!(
                "{bytes} bytes per transfer size is below mmc_test's smallest transfer (4 KiB): every size would still make one transfer; accepted: at least 4k"
            ),
        ));
    }
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
    let (mut clones, mut out) = (0u64, Outstanding::default());
    for j in &scn.jobs {
        check_job_region(j)?;
        check_job_modes(j)?;
        clones += u64::from(j.numjobs);
        // Every request of a split I/O is in memory at once: of a replayed trace, what its
        // largest op splits into.
        let parts = requests_per_io(scn, j, max_req);
        out.requests = out.requests.saturating_add(
            (u64::from(j.numjobs) * u64::from(j.outstanding())).saturating_mul(parts),
        );
        out.deep |= j.outstanding() > 1;
        out.many |= j.numjobs > 1 || scn.jobs.len() > 1;
        out.split_bs |= parts > 1 && j.read_iolog.is_none();
        out.split_trace |= parts > 1 && j.read_iolog.is_some();
    }
    super::limits::check_zbd_zones(scn)?;
    check_totals(scn, p, clones, &out)?;
    super::sim_time::check(scn)
}

/// The requests the jobs may have in memory at once, and what makes them many: the levers a
/// refusal can name.
#[derive(Default)]
struct Outstanding {
    requests: u64,
    /// Some job has more than one I/O in flight (`iodepth` with an async engine).
    deep: bool,
    /// More than one clone.
    many: bool,
    /// Some job's blocks, or some replayed trace's ops, are split into several requests.
    split_bs: bool,
    split_trace: bool,
}

impl Outstanding {
    /// The refusal: keyed by the option that makes the count large, naming only the options
    /// that would lower it (no "lower iodepth" at iodepth 1).
    fn refusal(&self, max_req: &str) -> ScenarioError {
        let key = match (self.deep, self.split_trace, self.split_bs) {
            (true, _, _) => "iodepth",
            (false, true, _) => "read_iolog",
            (false, false, true) => "bs",
            (false, false, false) => "numjobs",
        };
        let mut levers: Vec<&str> = Vec::new();
        if self.deep {
            levers.push("lower iodepth");
        }
        if self.many {
            levers.push("lower numjobs");
        }
        if self.split_bs {
            levers.push("lower bs");
        }
        if self.split_trace {
            levers.push("replay a trace of smaller I/Os");
        }
        if self.split_bs || self.split_trace {
            levers.push("raise max_req_kib");
        }
        ScenarioError::new(
            key,
            format!(
                "{} requests outstanding in total (numjobs x iodepth x the requests of one I/O: an I/O{} larger than max_req_kib={max_req} is split); at most {MAX_OUTSTANDING} ({})",
                self.requests,
                if self.split_trace { " or a replayed trace's op" } else { "" },
                levers.join(", ")
            ),
        )
    }
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
    if j.offset + j.region_bytes() + u64::from(j.numjobs) * j.offset_increment > DEVICE_BYTES {
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
    // An I/O never crosses a zone's write pointer boundary (zbd.c `zbd_adjust_block`): with
    // zones smaller than a block, no I/O is issued.
    if let Some(zs) = j.zonesize.filter(|&z| j.zone_zbd && z < j.max_bs()) {
        return Err(ScenarioError::new(
            "zonesize",
            format!(
                "zonesize={zs}: job '{}': zones smaller than its largest block ({} bytes) take no I/O with zonemode=zbd; accepted: a zonesize of at least {} bytes",
                j.name,
                j.max_bs(),
                j.max_bs()
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
    outstanding: &Outstanding,
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
    if outstanding.requests > MAX_OUTSTANDING {
        return Err(outstanding.refusal(&fmt_kib(p.host.max_req_bytes)));
    }
    let est = estimate(scn, p);
    if est.events > MAX_EVENTS {
        let (option, lower) = match (est.time_bound, est.split) {
            (true, false) => ("runtime", "lower runtime"),
            (true, true) => ("runtime", "lower runtime or bs, or raise max_req_kib"),
            // A replayed trace's length is its own: `loops` repeats it.
            (false, _) if scn.jobs.iter().any(|j| j.loops > 1) => {
                ("loops", "lower loops, size or numjobs, or set runtime=")
            }
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
