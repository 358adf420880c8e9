//! What-ifs: switches and card figures that make a board run what no kernel runs (an RFC never
//! merged, a patch mainline took another way, a rule a kernel dropped), each with what mainline
//! does instead. The one list the CLI (`what-if:` lines, JSON `what_if`) and the page (every
//! side of the Watch, the Lab, the tours) show. Checked against the kernel sources:
//!
//! - `packed`: Baolin Wang's "[RFC PATCH v2 0/7] Add MMC packed request support" (2020: ADMA3
//!   in sdhci, `HSQ_PACKED_QUEUE_DEPTH` in mmc_hsq.c) was never merged: mainline's mmc_hsq.h
//!   has no packing, and sdhci issues one request per command.
//! - `hsq_depth`: mainline's hsq window is `in_flight > 2` in `mmc_mq_queue_rq` (queue.c), then
//!   `host->hsq_depth`, set only to `HSQ_NORMAL_DEPTH` (2) or `HSQ_PERFORMANCE_DEPTH` (5) by
//!   `mmc_hsq_modify_threshold` (2023): any other fixed depth is no kernel's.
//! - `fua=0` on an eMMC with reliable write: Wenchao Chen's "[PATCH] mmc: block: Support Host
//!   to control FUA" (2022-10) was never merged; mainline took Ulf Hansson's card quirk
//!   instead (`MMC_QUIRK_AVOID_REL_WRITE`, `mmc_blk_alloc_req`, Linux 6.4): FUA is advertised
//!   on every card with reliable write but one with the quirk and its cache on.
//! - `max_posted_writes` under command queueing: on SD, several posted writes are the Raspberry
//!   Pi kernel's first SD command queueing (PR #6046, merged March 2024, behind
//!   `dtparam=sd_cqe`), which PR #6235 (June 2024) limited to one posted write; mainline has no
//!   SD command queueing. On eMMC no kernel limits the queued writes (cqhci queues up to the
//!   tag set; #6235 is for SD cards).

use super::Platform;
use crate::vocab::{HsqDepth, MmcPath, HSQ_NORMAL_DEPTH};
use serde::Serialize;

/// One what-if in effect: the setting as its option text (`packed=8`) and why no kernel runs
/// it, naming what mainline does instead.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WhatIf {
    pub setting: String,
    pub reason: &'static str,
}

impl WhatIf {
    /// `packed=8 — ADMA3 packed requests were ...`: the line the CLI and the page show.
    pub fn line(&self) -> String {
        format!("{} — {}", self.setting, self.reason)
    }
}

const PACKED: &str = "ADMA3 packed requests were an RFC (Baolin Wang, 2020), never merged; mainline's hsq and sdhci send one request per command and interrupt";
const HSQ_DEPTH: &str = "no kernel has this hsq window; mainline's hsq lets 2 requests be in flight (HSQ_NORMAL_DEPTH), 5 while 4 KiB writes queue since 2023 (hsq_depth=dynamic)";
const FUA_OFF: &str = "a host switch for FUA was a 2022 patch (Wenchao Chen), never merged; mainline advertises FUA on every eMMC with reliable write except, from 6.4, a card with MMC_QUIRK_AVOID_REL_WRITE and its cache on";
const SD_POSTED: &str = "several queued writes on an SD card were the Raspberry Pi kernel's rule of March to June 2024 (PR #6046); since PR #6235 it posts one at a time, and mainline has no SD command queueing";
const EMMC_POSTED: &str = "no kernel limits an eMMC's queued writes: cqhci queues them up to the tag set (the Raspberry Pi kernel's limit is for SD cards)";

impl Platform {
    /// The what-ifs this board runs, resolved (`Scenario::effective_platform`: a refused
    /// `mmc_path=cqe` already runs legacy), in the option table's order; empty when everything
    /// it runs is some kernel's.
    pub fn what_ifs(&self) -> Vec<WhatIf> {
        let (s, c) = (&self.switches, &self.card);
        let mut w = Vec::new();
        let mut put = |setting: String, reason| w.push(WhatIf { setting, reason });
        if s.mmc_path == MmcPath::Hsq {
            match (s.packed, s.hsq_depth) {
                (0, HsqDepth::Fixed(d)) if d != HSQ_NORMAL_DEPTH => {
                    put(format!("hsq_depth={d}"), HSQ_DEPTH)
                }
                (0, _) => {}
                (n, _) => put(format!("packed={n}"), PACKED),
            }
        }
        if !s.fua && c.reliable_write && !c.sd {
            put("fua=0".to_string(), FUA_OFF);
        }
        if s.mmc_path == MmcPath::Cqe {
            let n = c.max_posted_writes;
            if c.sd && n > 1 {
                put(format!("max_posted_writes={n}"), SD_POSTED);
            } else if !c.sd && n < c.cmdq_depth {
                put(format!("max_posted_writes={n}"), EMMC_POSTED);
            }
        }
        w
    }
}

#[cfg(test)]
mod tests {
    use crate::board::PLATFORMS;

    #[test]
    fn every_preset_runs_some_kernels_path() {
        for p in PLATFORMS {
            assert_eq!(p.what_ifs(), Vec::new(), "{}", p.name);
        }
    }

    #[test]
    fn a_line_names_the_setting_then_the_reason() {
        let mut p = *PLATFORMS[0];
        p.switches.packed = 8;
        let w = p.what_ifs();
        assert_eq!(w.len(), 1);
        assert!(w[0]
            .line()
            .starts_with("packed=8 — ADMA3 packed requests were an RFC"));
    }
}
