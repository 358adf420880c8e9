//! The presets: one `Platform` per measured device, each value documented with where it came
//! from, one file per vendor.

mod allwinner;
mod brcm;
mod qemu;
mod sprd;
mod u300;
mod unisoc;

pub use allwinner::{ALLWINNER_FS_CRYPT_NS, ALLWINNER_HSQ_2022, ALLWINNER_VARIATION};
pub use brcm::RPI5_SD_2024;
pub use qemu::QEMU_SDHCI_PCI;
pub use sprd::SPRD_HS400ES_2020;
pub use u300::{MLC_SD_2011, U300_MMCI_2011};
pub use unisoc::{UNISOC_FUA_2022, UNISOC_HSQ_2023};

use crate::board::platform::{MmcTestTiming, Platform, VariationTiming};
use crate::vocab::{BlkDispatch, HostConfig, HsqDepth, HsqDispatch, IoSched, MmcPath};

/// The preset used when a scenario names none.
pub const DEFAULT_PLATFORM: &str = "sprd-hs400es-2020";

const MB: u64 = 1_000_000;
const MHZ: u64 = 1_000_000;
const KIB: u64 = 1024;
const MIB: u64 = 1024 * 1024;

/// A TLC eMMC of 2020-2023 behind an 8-core phone SoC (the variation module's table says where
/// each figure comes from). The shares of the mean: read retries +0.05 %, housekeeping about
/// 1.5 ms per 8 MiB written (+0.7 us per 4 KiB write), preemption 200 ppm x 1.5 ms (+0.3 us per
/// wake-up).
pub const TLC_EMMC_2020: VariationTiming = VariationTiming {
    nand_page_tr_pct: [70, 100, 130],
    read_retry_ppm: 500,
    program_sigma_milli: 300,
    gc_every_bytes: 8 * MIB,
    gc_pause_ns: 1_500_000,
    sw_shape_milli: 25_000,
    preempt_ppm: 200,
    preempt_ns: 1_500_000,
};

/// Every preset, in the order `--list-platforms` prints them.
pub const PLATFORMS: [&Platform; 7] = [
    &SPRD_HS400ES_2020,
    &UNISOC_FUA_2022,
    &U300_MMCI_2011,
    &UNISOC_HSQ_2023,
    &ALLWINNER_HSQ_2022,
    &RPI5_SD_2024,
    &QEMU_SDHCI_PCI,
];

pub fn by_name(name: &str) -> Option<&'static Platform> {
    PLATFORMS.iter().copied().find(|p| p.name == name)
}

pub fn names() -> Vec<&'static str> {
    PLATFORMS.iter().map(|p| p.name).collect()
}

/// The host switches of the phone SoCs with hsq (2020-2022): a window of two, FIFO dispatch,
/// no packing, FUA advertised and the card's cache on; no I/O scheduler and the fitted dispatch
/// (`blk_dispatch=fitted`), whose reasons the 2020 and 2022 presets give (the 2023 one runs
/// mq-deadline with the kernel's dispatch).
const PHONE_HSQ: HostConfig = HostConfig {
    mmc_path: MmcPath::Hsq,
    nonblocking: true,
    hsq_depth: HsqDepth::Fixed(2),
    hsq_dispatch: HsqDispatch::Fifo,
    packed: 0,
    fua: true,
    cache: true,
    iosched: IoSched::None,
    dispatch: BlkDispatch::Fitted,
};

/// mmc_test's own steps on a phone SoC: starting a transfer and waking the test thread (10 us
/// each).
const PHONE_MMC_TEST: MmcTestTiming = MmcTestTiming {
    start_ns: 10_000,
    wait_done_ns: 10_000,
};
