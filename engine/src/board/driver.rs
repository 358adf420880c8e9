//! The board's host controller driver (drivers/mmc/host/), and what it provides to the mmc core
//! in mainline Linux: a host software queue (`mmc_hsq_init`, mmc_hsq.c, Linux 5.8) and a
//! command queueing engine (`cqhci_init`, cqhci-core.c, Linux 4.15). A path the board's driver
//! cannot run is a what-if (`what_if.rs`), with the driver's reason; whether the kernel and the
//! card can queue at all is `cq.rs`'s refusal, checked first.
//!
//! Checked against the kernel sources (mainline unless said):
//!
//! - **sdhci-sprd** (Spreadtrum/Unisoc): `sdhci_sprd_probe` calls `mmc_hsq_init` and
//!   `sdhci_sprd_request_done` hands each request to `mmc_hsq_finalize_request` (Baolin Wang,
//!   "mmc: host: sdhci-sprd: Add software queue support", merged with mmc_hsq.c for 5.8); no
//!   `cqhci_init` (the driver includes no cqhci.h). ADMA3 chains (packed requests) only in the
//!   2020 RFC, never merged. Unisoc's own Android trees add a CQE to their sdhci-sprd
//!   (`support_cqe`, `cqhci_init` with inline encryption): not mainline's.
//! - **sunxi-mmc** (Allwinner): its own controller (IDMAC descriptors, one `host->mrq` at a
//!   time in `sunxi_mmc_request`); mainline's driver calls neither `mmc_hsq_init` nor
//!   `cqhci_init`. Allwinner's Android BSP driver has a host software queue: the 2022 FIFO
//!   dispatch patch's author measured its board "after enabling the hsq configuration".
//! - **sdhci-brcmstb** (Broadcom): `sdhci_brcmstb_add_host` calls `cqhci_init` when the device
//!   tree says `supports-cqe` (the 7216's Arasan controller; Al Cooper's d46ba2d17f90, Linux
//!   5.6); no hsq. SD command queueing through the same CQHCI is the Raspberry Pi kernel's
//!   (rpi-6.6.y, PR #6046: `cq.rs`).
//! - **mmci** (ARM PL180/PL181, ST-Ericsson U300): one request at a time (`host->mrq`), the next
//!   one's DMA prepared in `mmci_pre_request` (the 2011 non-blocking series); no hsq, no cqhci.
//! - **sdhci-pci**: `cqhci_init` only for Intel GLK eMMC (`glk_emmc_add_host`) and the
//!   GL9763E (`gl9763e_add_host`, sdhci-pci-gli.c); QEMU's `sdhci-pci` device matches the
//!   generic SDHCI class entry (`PCI_DEVICE_CLASS(SYSTEM_SDHCI, ...)`) with no fixes: neither
//!   cqhci nor hsq.

use super::KernelVersion;
use serde::Serialize;

/// A host controller driver, as the board's kernel has it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum HostDriver {
    SdhciSprd,
    SunxiMmc,
    SdhciBrcmstb,
    Mmci,
    SdhciPci,
}

/// sdhci-brcmstb's CQE (d46ba2d17f90, merged for Linux 5.6).
pub const BRCMSTB_CQE_SINCE: KernelVersion = KernelVersion::new(5, 6);

// Each says why, then what mainline runs instead.
const NO_CQHCI_SPRD: &str = "sdhci-sprd has no CQE (no cqhci_init): mainline runs hsq on it";
const NO_CQHCI_SUNXI: &str = "sunxi-mmc has no CQE (no cqhci_init): mainline runs the legacy path";
const NO_CQHCI_MMCI: &str = "mmci has no CQE (no cqhci_init): mainline runs the legacy path";
const NO_CQHCI_PCI: &str =
    "sdhci-pci calls cqhci_init only for Intel GLK and GL9763E eMMC hosts: the legacy path here";
const OLD_CQHCI_BRCMSTB: &str =
    "sdhci-brcmstb's CQE came in Linux 5.6 (cqhci_init): this kernel runs the legacy path";
const NO_HSQ_SUNXI: &str = "sunxi-mmc has no hsq in mainline (no mmc_hsq_init; Allwinner's Android BSP has one): mainline runs the legacy path";
const NO_HSQ_BRCMSTB: &str =
    "sdhci-brcmstb has no hsq (no mmc_hsq_init): mainline runs the legacy path";
const NO_HSQ_MMCI: &str = "mmci has no hsq (no mmc_hsq_init): mainline runs the legacy path";
const NO_HSQ_PCI: &str = "sdhci-pci has no hsq (no mmc_hsq_init): mainline runs the legacy path";

impl HostDriver {
    pub const ALL: [HostDriver; 5] = [
        HostDriver::SdhciSprd,
        HostDriver::SunxiMmc,
        HostDriver::SdhciBrcmstb,
        HostDriver::Mmci,
        HostDriver::SdhciPci,
    ];

    /// The driver's name in drivers/mmc/host/ (`sdhci-sprd`): options, platform files, screens.
    pub fn name(self) -> &'static str {
        match self {
            HostDriver::SdhciSprd => "sdhci-sprd",
            HostDriver::SunxiMmc => "sunxi-mmc",
            HostDriver::SdhciBrcmstb => "sdhci-brcmstb",
            HostDriver::Mmci => "mmci",
            HostDriver::SdhciPci => "sdhci-pci",
        }
    }

    /// The driver named `name` (as [`HostDriver::name`] writes it).
    pub fn from_name(name: &str) -> Option<HostDriver> {
        let n = name.trim().to_ascii_lowercase();
        HostDriver::ALL.into_iter().find(|d| d.name() == n)
    }

    /// The driver a board parameter's value stands for (its place in [`HostDriver::ALL`]).
    pub fn from_code(v: u64) -> HostDriver {
        HostDriver::ALL[(v as usize).min(HostDriver::ALL.len() - 1)]
    }

    /// Why this driver cannot run the host software queue (`None`: it calls `mmc_hsq_init`).
    /// The kernel's own rule (hsq from 5.8) is `what_if.rs`'s.
    pub fn hsq_missing(self) -> Option<&'static str> {
        match self {
            HostDriver::SdhciSprd => None,
            HostDriver::SunxiMmc => Some(NO_HSQ_SUNXI),
            HostDriver::SdhciBrcmstb => Some(NO_HSQ_BRCMSTB),
            HostDriver::Mmci => Some(NO_HSQ_MMCI),
            HostDriver::SdhciPci => Some(NO_HSQ_PCI),
        }
    }

    /// Why this driver cannot run a CQE in `kernel` (`None`: it calls `cqhci_init`), once the
    /// kernel and card can queue (`Platform::cq_refusal`).
    pub fn cqhci_missing(self, kernel: KernelVersion) -> Option<&'static str> {
        match self {
            HostDriver::SdhciSprd => Some(NO_CQHCI_SPRD),
            HostDriver::SunxiMmc => Some(NO_CQHCI_SUNXI),
            HostDriver::Mmci => Some(NO_CQHCI_MMCI),
            HostDriver::SdhciPci => Some(NO_CQHCI_PCI),
            HostDriver::SdhciBrcmstb => (kernel < BRCMSTB_CQE_SINCE).then_some(OLD_CQHCI_BRCMSTB),
        }
    }

    /// What the driver provides, in words for `--list-platforms` (`hsq; no cqhci; ...`).
    pub fn provides(self) -> &'static str {
        match self {
            HostDriver::SdhciSprd => "hsq; no cqhci; ADMA3 chains only in the 2020 RFC",
            HostDriver::SunxiMmc => "no hsq (Allwinner's Android BSP has one); no cqhci",
            HostDriver::SdhciBrcmstb => {
                "cqhci: eMMC from 5.6, SD on the Raspberry Pi kernel from 6.6; no hsq"
            }
            HostDriver::Mmci => "no hsq; no cqhci",
            HostDriver::SdhciPci => "no hsq; no cqhci for QEMU's device",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back() {
        for d in HostDriver::ALL {
            assert_eq!(HostDriver::from_name(d.name()), Some(d));
        }
        assert_eq!(
            HostDriver::from_name(" SDHCI-SPRD"),
            Some(HostDriver::SdhciSprd)
        );
        assert_eq!(HostDriver::from_name("sdhci"), None);
    }

    #[test]
    fn every_reason_names_its_driver_and_kernel_function() {
        let k = KernelVersion::new(5, 4);
        for d in HostDriver::ALL {
            for why in [d.hsq_missing(), d.cqhci_missing(k)].into_iter().flatten() {
                assert!(why.starts_with(d.name()), "{why}");
                assert!(
                    why.contains("mmc_hsq_init") || why.contains("cqhci_init"),
                    "{why}"
                );
            }
        }
    }

    #[test]
    fn only_brcmstb_runs_a_cqe_and_only_from_5_6() {
        let k = KernelVersion::new(6, 1);
        let with: Vec<_> = HostDriver::ALL
            .into_iter()
            .filter(|d| d.cqhci_missing(k).is_none())
            .collect();
        assert_eq!(with, [HostDriver::SdhciBrcmstb]);
        let old = HostDriver::SdhciBrcmstb.cqhci_missing(KernelVersion::new(5, 4));
        assert!(old.unwrap().contains("5.6"));
    }
}
