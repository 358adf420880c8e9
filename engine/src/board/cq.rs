//! Whether a board's kernel and card can run command queueing at all (`mmc_path=cqe`): the rules
//! of the kernels that have it, so that a what-if no kernel could run is refused with a warning
//! and the board runs what its kernel does run (the legacy path, `mmc_blk_mq_issue_rw_rq`).
//!
//! - **eMMC**: Linux 4.15 brought the CQE to the mmc block layer (cqhci-core.c and
//!   `mmc_blk_cqe_issue_rq`, Adrian Hunter's series); a card with a command queue
//!   (EXT_CSD CMDQ_SUPPORT, `cmdq_depth` > 0) is enabled by `mmc_cmdq_enable`. Whether the
//!   board's controller has a CQE is the what-if itself and is not checked.
//! - **SD**: mainline Linux has no SD command queueing. The Raspberry Pi kernel has it from
//!   rpi-6.6.y (2024, PR #6046: CMD44/45/46/47 through the CQHCI); `mmc_sd_init_card` enables
//!   it only for a card whose performance enhancement register reports a queue, a write cache
//!   and power-off notification (PR #6235: "Command Queueing requires Write Cache and Power off
//!   Notification support from the card"). The model takes a kernel of 6.6 or later on an SD
//!   board to be that kernel, and a card with a cache to have power-off notification (an A2
//!   card has both). Simplification: the allow-list of January 2025 (PR #6591, rpi-6.12.y) is
//!   not modelled; the card is taken as listed.

use super::{KernelVersion, Platform};

/// The first Linux with the CQE in the mmc block layer.
pub const CQE_SINCE: KernelVersion = KernelVersion::new(4, 15);
/// The first Raspberry Pi kernel with SD command queueing.
pub const SD_CQ_SINCE: KernelVersion = KernelVersion::new(6, 6);

impl Platform {
    /// Why this board's kernel and card cannot queue commands (`None`: they can), in words that
    /// follow "mmc_path=cqe: ".
    pub fn cq_refusal(&self) -> Option<String> {
        let k = self.kernel;
        let card = &self.card;
        if card.cmdq_depth == 0 {
            let what = if card.sd { "SD card" } else { "eMMC" };
            return Some(format!("the {what} has no command queue (cmdq_depth=0)"));
        }
        if !card.sd {
            return (k < CQE_SINCE).then(|| {
                format!("Linux {k} has no command queueing (the CQE came to the mmc block layer in {CQE_SINCE}: cqhci, mmc_blk_cqe_issue_rq)")
            });
        }
        if k < SD_CQ_SINCE {
            return Some(format!(
                "Linux {k} has no SD command queueing (mainline has none; the Raspberry Pi kernel has it from {SD_CQ_SINCE})"
            ));
        }
        if !self.switches.cache || card.cache_bytes == 0 {
            return Some(
                "the Raspberry Pi kernel queues commands on an SD card only with its write cache on (cache=1 and a card_cache_kib above 0: command queueing needs the cache and power-off notification)"
                    .to_string(),
            );
        }
        None
    }
}
