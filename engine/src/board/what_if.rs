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
//! - A feature newer than the board's kernel (`board/kernel_rules.rs`): hsq before Linux 5.8
//!   (mmc_hsq.c, 511ce378e16f), the dynamic hsq depth before 6.7 (a fixed window of 2 + 1 in
//!   6.1's and 6.6's `mmc_mq_queue_rq`), and a fixed depth of 2 from 6.7 on, where every hsq
//!   host adjusts it. A paper that measured such a patch on an older kernel (unisoc-hsq-2023:
//!   the dynamic depth on 6.6) runs it labelled so. (The CQE before 4.15 is refused instead:
//!   `cq.rs`.)
//! - A host path the board's host driver cannot run (`driver.rs`): `mmc_path=cqe` on a driver
//!   that never calls `cqhci_init` (sdhci-sprd, sunxi-mmc, mmci, sdhci-pci for QEMU's device),
//!   `mmc_path=hsq` on one that never calls `mmc_hsq_init` (all but sdhci-sprd).
//! - A scheduler newer than the board's kernel: kyber and bfq before Linux 4.12
//!   (`KYBER_BFQ_SINCE`; before it, bfq was out-of-tree patches for the legacy block layer).

use super::kernel_rules::{HSQ_DYNAMIC_SINCE, HSQ_SINCE, KYBER_BFQ_SINCE};
use super::Platform;
use crate::vocab::{HsqDepth, IoSched, MmcPath, HSQ_NORMAL_DEPTH};
use serde::Serialize;

/// One what-if in effect: the setting as its option text (`packed=8`) and why no kernel runs
/// it, naming what mainline does instead.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WhatIf {
    pub setting: String,
    pub reason: &'static str,
}

impl WhatIf {
    /// `packed=8 — a 2020 RFC (ADMA3), never merged: ...`: the line the CLI and the page show.
    pub fn line(&self) -> String {
        format!("{} — {}", self.setting, self.reason)
    }
}

const PACKED: &str = "a 2020 RFC (ADMA3), never merged: mainline sends one request per command";
const HSQ_DEPTH: &str = "no kernel's window: mainline's is 2, or 5 for 4 KiB writes (dynamic)";
const FUA_OFF: &str =
    "a 2022 patch, never merged: mainline (6.4) drops FUA only for MMC_QUIRK_AVOID_REL_WRITE cards";
// Board parameters, which the landing page cannot set (its B edits host switches only): left
// out of its build (`what_ifs`).
const SD_POSTED: &str = "the Raspberry Pi kernel's rule of March to June 2024; since, one (PR #6235); mainline has no SD queueing";
const EMMC_POSTED: &str = "no kernel limits an eMMC's queued writes";
// Features newer than the board's kernel.
const HSQ_NEWER: &str =
    "hsq came to mainline in Linux 5.8 (mmc_hsq.c): this kernel runs the series before its merge";
const DYNAMIC_NEWER: &str = "the 2023 dynamic depth, mainline from Linux 6.7: this kernel's mmc_mq_queue_rq keeps a window of 2 + 1";
const KYBER_NEWER: &str =
    "kyber came to mainline in Linux 4.12 (kyber-iosched.c): this kernel had no such scheduler";
const BFQ_NEWER: &str =
    "bfq came to mainline in Linux 4.12 (bfq-iosched.c): this kernel had it only as out-of-tree patches";
const FIXED_OLDER: &str = "Linux 6.7 and later adjust the depth (2, or 5 for 4 KiB writes: mmc_hsq_modify_threshold); a fixed 2 is 6.6's rule";

impl Platform {
    /// The what-ifs this board runs, resolved (`Scenario::effective_platform`: a refused
    /// `mmc_path=cqe` already runs legacy), in the option table's order; empty when everything
    /// it runs is some kernel's.
    pub fn what_ifs(&self) -> Vec<WhatIf> {
        let (s, c) = (&self.switches, &self.card);
        let mut w = Vec::new();
        // One call site builds every setting's text (the landing's wasm is at its size bar).
        let mut put = |name: &str, n: &str, reason| {
            let setting = name.to_string() + "=" + n;
            w.push(WhatIf { setting, reason })
        };
        let k = self.kernel;
        // The host path the board's driver cannot run (`driver.rs`), else one newer than its
        // kernel. A CQE the kernel or card cannot run was refused already (`cq.rs`).
        if s.mmc_path == MmcPath::Cqe {
            if let Some(why) = self.driver.cqhci_missing(k) {
                put("mmc_path", "cqe", why);
            }
        }
        if s.mmc_path == MmcPath::Hsq {
            if let Some(why) = self.driver.hsq_missing() {
                put("mmc_path", "hsq", why);
            } else if k < HSQ_SINCE {
                put("mmc_path", "hsq", HSQ_NEWER);
            }
            let dynamic = k >= HSQ_DYNAMIC_SINCE;
            match (s.packed, s.hsq_depth) {
                (0, HsqDepth::Fixed(d)) if d != HSQ_NORMAL_DEPTH => {
                    put("hsq_depth", &d.to_string(), HSQ_DEPTH)
                }
                (0, HsqDepth::Fixed(_)) if dynamic => put("hsq_depth", "2", FIXED_OLDER),
                (0, HsqDepth::Dynamic) if !dynamic => put("hsq_depth", "dynamic", DYNAMIC_NEWER),
                (0, _) => {}
                (n, _) => put("packed", &n.to_string(), PACKED),
            }
        }
        // Kyber and bfq are not in the landing page's build (`lean`).
        if !cfg!(feature = "lean") && k < KYBER_BFQ_SINCE {
            match s.iosched {
                IoSched::Kyber => put("ioscheduler", "kyber", KYBER_NEWER),
                IoSched::Bfq => put("ioscheduler", "bfq", BFQ_NEWER),
                _ => {}
            }
        }
        if !s.fua && c.reliable_write && !c.sd {
            put("fua", "0", FUA_OFF);
        }
        // Board parameters: not in the landing page's build, which cannot set them.
        if !cfg!(feature = "lean") && s.mmc_path == MmcPath::Cqe {
            let n = c.max_posted_writes;
            if c.sd && n > 1 {
                put("max_posted_writes", &n.to_string(), SD_POSTED);
            } else if !c.sd && n < c.cmdq_depth {
                put("max_posted_writes", &n.to_string(), EMMC_POSTED);
            }
        }
        w
    }
}

#[cfg(test)]
mod tests {
    use crate::board::PLATFORMS;

    #[test]
    fn every_preset_runs_some_kernels_path_or_names_the_patch_it_measured() {
        for p in PLATFORMS {
            let settings: Vec<String> = p.what_ifs().into_iter().map(|w| w.setting).collect();
            // The 2023 paper measured the dynamic depth on 6.6, before mainline took it (6.7).
            let measured: &[&str] = match p.name {
                "unisoc-hsq-2023" => &["hsq_depth=dynamic"],
                _ => &[],
            };
            assert_eq!(settings, measured, "{}", p.name);
        }
    }

    #[test]
    fn the_dynamic_depth_is_a_what_if_before_6_7_and_a_fixed_two_after() {
        use crate::board::KernelVersion;
        let mut p = crate::board::UNISOC_HSQ_2023;
        p.kernel = KernelVersion::new(6, 1);
        assert!(p.what_ifs()[0].line().contains("mainline from Linux 6.7"));
        p.kernel = KernelVersion::new(6, 12);
        assert_eq!(p.what_ifs(), Vec::new(), "6.12's own rule");
        p.switches.hsq_depth = crate::vocab::HsqDepth::Fixed(2);
        assert_eq!(p.what_ifs()[0].setting, "hsq_depth=2");
        p.kernel = KernelVersion::new(5, 4);
        assert_eq!(p.what_ifs()[0].setting, "mmc_path=hsq");
    }

    #[test]
    fn a_line_names_the_setting_then_the_reason() {
        let mut p = *PLATFORMS[0];
        p.switches.packed = 8;
        let w = p.what_ifs();
        assert_eq!(w.len(), 1);
        assert!(w[0]
            .line()
            .starts_with("packed=8 — a 2020 RFC (ADMA3), never merged"));
    }
}
