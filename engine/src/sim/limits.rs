//! Bounds and combination checks: every accepted scenario runs in bounded time and memory.
//! Each refusal names the option, the limit, and what is accepted.

use crate::platform::Platform;
use crate::scenario::{HostConfig, MmcPath, Scenario, ScenarioError};

/// Most I/Os one run may simulate (about 6 s of CPU at the measured engine speed).
pub const MAX_TOTAL_IOS: u64 = 32_000_000;
/// Longest simulated runtime for time-based jobs.
pub const MAX_RUNTIME_NS: u64 = 600_000_000_000;
/// Most job clones in a run.
pub const MAX_JOBS: u64 = 1024;
/// Most I/Os outstanding at once over all jobs (numjobs x iodepth): each is a request in memory.
pub const MAX_OUTSTANDING: u64 = 16_384;

pub fn check(scn: &Scenario, p: &Platform, cfg: &HostConfig) -> Result<(), ScenarioError> {
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
    if let crate::scenario::HsqDepth::Fixed(d) = cfg.hsq_depth {
        if d == 0 || d > 63 {
            return Err(ScenarioError::new(
                "hsq_depth",
                format!("{d} is out of range; accepted: 1..=63 or dynamic"),
            ));
        }
    }
    if scn.mmc_test.is_some() {
        // Five transfer sizes from 4 KiB up: fewer than 2 x bytes / 4 KiB transfers in all.
        let bytes = scn
            .jobs
            .first()
            .map_or(crate::mmc_test::MMC_TEST_BYTES, |j| j.size);
        let ios = 2 * (bytes / 4096);
        if ios > MAX_TOTAL_IOS {
            return Err(ScenarioError::new(
                "size",
                format!("mmc_test would simulate about {ios} transfers; at most {MAX_TOTAL_IOS} (size is the bytes per transfer size)"),
            ));
        }
        return Ok(());
    }
    if scn.jobs.is_empty() {
        return Err(ScenarioError::general(
            "no job to run: give at least one job (--name=NAME or a job file)",
        ));
    }
    let mut clones = 0u64;
    let mut ios = 0u64;
    let mut outstanding = 0u64;
    for j in &scn.jobs {
        if j.bs == 0 || j.bs % 512 != 0 {
            return Err(ScenarioError::new(
                "bs",
                format!("{} is not a multiple of 512 bytes", j.bs),
            ));
        }
        if j.bs > p.host.max_req_bytes {
            return Err(ScenarioError::new(
                "bs",
                format!(
                    "{} bytes exceeds the largest request of {} ({} bytes); accepted: 512..={}",
                    j.bs, p.name, p.host.max_req_bytes, p.host.max_req_bytes
                ),
            ));
        }
        if j.size < j.bs {
            return Err(ScenarioError::new(
                "size",
                format!("{} bytes is smaller than bs={}", j.size, j.bs),
            ));
        }
        clones += j.numjobs as u64;
        outstanding += j.numjobs as u64 * j.outstanding() as u64;
        let per = if j.time_based {
            u64::MAX / 4
        } else {
            j.size / j.bs
        };
        ios = ios.saturating_add(per.saturating_mul(j.numjobs as u64));
        if let Some(rt) = j.runtime_ns {
            if rt > MAX_RUNTIME_NS {
                return Err(ScenarioError::new(
                    "runtime",
                    format!(
                        "at most {} s of simulated time",
                        MAX_RUNTIME_NS / 1_000_000_000
                    ),
                ));
            }
        }
        if j.time_based && j.runtime_ns.is_none() {
            return Err(ScenarioError::new(
                "time_based",
                "needs runtime= to say when to stop",
            ));
        }
    }
    if outstanding > MAX_OUTSTANDING {
        return Err(ScenarioError::new(
            "iodepth",
            format!("{outstanding} I/Os outstanding in total (numjobs x iodepth); at most {MAX_OUTSTANDING}"),
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
            format!("the jobs would simulate {ios} I/Os; at most {MAX_TOTAL_IOS} (lower size or numjobs, or set runtime=)"),
        ));
    }
    Ok(())
}
