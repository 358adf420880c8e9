//! [`check`]: what no single option can say, checked once for every way a scenario arrives
//! (command line, job file, link, the page's form) before [`crate::Simulator::new`] builds it.
//!
//! Two kinds of rule: relations between options (`size` below `bs`, `time_based` without
//! `runtime`, a chain longer than the platform's ADMA3 limit), and bounds that keep every
//! accepted scenario's time and memory bounded. Each refusal names the option, the limit and
//! what is accepted. Each bound has one name, here.

use super::{HostConfig, HsqDepth, MmcPath, Scenario, ScenarioError};
use crate::platform::Platform;

/// Upper bound for `size=` and `offset=`: larger than any eMMC (1 TiB).
pub const MAX_DEVICE_BYTES: u64 = 1 << 40;
/// Upper bound for `bs=`: 64 MiB. Above the platform's largest request the block layer splits
/// each I/O into several requests (`bio_split_to_limits`).
pub const MAX_BS: u64 = 64 << 20;
/// Upper bound for `numjobs=` in one section.
pub const MAX_NUMJOBS: u32 = 256;
/// Latest simulated time any other time option may name (`power_cut=`): one day.
pub const MAX_TIME_NS: u64 = 86_400_000_000_000;
/// Longest `runtime=`: a day of simulated time, like every other time option. What bounds a
/// time-based run's cost is the I/O budget, [`MAX_TOTAL_IOS`]: the jobs stop issuing once the
/// run has issued that many I/Os, and the report says so.
pub const MAX_RUNTIME_NS: u64 = MAX_TIME_NS;
/// Most I/Os one run may simulate (about 6 s of CPU at the measured engine speed).
pub const MAX_TOTAL_IOS: u64 = 32_000_000;
/// Most job clones in a run (all sections' `numjobs` together).
pub const MAX_JOBS: u64 = 1024;
/// Most I/Os outstanding at once over all jobs (numjobs x iodepth): each is a request in memory.
pub const MAX_OUTSTANDING: u64 = 16_384;

/// Checks the scenario as a whole: the platform exists, the host switches fit it, the jobs make
/// sense together and the run stays within the bounds above.
pub fn check(scn: &Scenario) -> Result<(), ScenarioError> {
    let p = &scn.effective_platform()?;
    let cfg = scn.host_config()?;
    check_host(p, &cfg)?;
    if scn.mmc_test.is_some() {
        return check_mmc_test(scn);
    }
    check_jobs(scn)
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
        .map_or(crate::mmc_test::MMC_TEST_BYTES, |j| j.size);
    let ios = 2 * (bytes / 4096);
    if ios > MAX_TOTAL_IOS {
        return Err(ScenarioError::new(
            "size",
            format!(
                "mmc_test would simulate about {ios} transfers; at most {MAX_TOTAL_IOS} (size is the bytes per transfer size)"
            ),
        ));
    }
    Ok(())
}

fn check_jobs(scn: &Scenario) -> Result<(), ScenarioError> {
    if scn.jobs.is_empty() {
        return Err(ScenarioError::general(
            "no job to run; give --name=NAME or a job file",
        ));
    }
    let (mut clones, mut ios, mut outstanding) = (0u64, 0u64, 0u64);
    for j in &scn.jobs {
        if j.bs == 0 || j.bs % 512 != 0 {
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
            return Err(ScenarioError::new(
                "offset_increment",
                format!("job '{}': the regions reach past 2 TiB", j.name),
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
        clones += u64::from(j.numjobs);
        outstanding += u64::from(j.numjobs) * u64::from(j.outstanding());
        let per = if j.time_based {
            u64::MAX / 4
        } else if let Some(log) = j.read_iolog.as_ref().and_then(|n| scn.iolog(n)) {
            (log.ops.len() as u64).saturating_mul(u64::from(j.loops.max(1)))
        } else {
            j.io_bytes() / j.min_bs().max(1)
        };
        let per = j.number_ios.map_or(per, |n| per.min(n));
        ios = ios.saturating_add(per.saturating_mul(u64::from(j.numjobs)));
    }
    if outstanding > MAX_OUTSTANDING {
        return Err(ScenarioError::new(
            "iodepth",
            format!(
                "{outstanding} I/Os outstanding in total (numjobs x iodepth); at most {MAX_OUTSTANDING}"
            ),
        ));
    }
    if clones > MAX_JOBS {
        return Err(ScenarioError::new(
            "numjobs",
            format!("{clones} job clones in total; at most {MAX_JOBS}"),
        ));
    }
    let time_bounded = scn.jobs.iter().all(|j| j.runtime_ns.is_some());
    if ios > MAX_TOTAL_IOS && !time_bounded {
        return Err(ScenarioError::new(
            "size",
            format!(
                "the jobs would simulate {ios} I/Os; at most {MAX_TOTAL_IOS} (lower size or numjobs, or set runtime=)"
            ),
        ));
    }
    Ok(())
}
