//! The measured figures of the four patch series (engine/data/measurements.toml), as
//! data, with the scenario that reproduces each one, so the CLI (`--calibration`), the tests and
//! the UI can put model and measurement side by side.
//!
//! `cases.rs`: the measured figures and their scenarios; `run.rs`: running them and matching a
//! scenario to its figure; `latency.rs`: the measured latency distribution; `single.rs`: the
//! figures measured with one host configuration only; `under.rs`: the block layer they run under.

mod cases;
mod latency;
mod run;
mod single;
mod under;

pub use cases::*;
pub use latency::*;
pub use run::*;
pub use single::*;
pub use under::*;

use crate::scenario::Rw;

/// Unit the authors reported in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    MiBs,
    KiBs,
}

impl Unit {
    pub fn name(self) -> &'static str {
        match self {
            Unit::MiBs => "MiB/s",
            Unit::KiBs => "KiB/s",
        }
    }
    fn of_bytes_per_sec(self, bps: f64) -> f64 {
        match self {
            Unit::MiBs => bps / 1_048_576.0,
            Unit::KiBs => bps / 1024.0,
        }
    }
}

/// One measured platform (a `[platform.*]` table).
#[derive(Clone, Copy, Debug)]
pub struct Series {
    /// Key of the series (the platform's name for the first four; `[series.*]` for later ones).
    pub id: &'static str,
    pub platform: &'static str,
    pub source: &'static str,
    pub hardware: &'static str,
    pub unit: Unit,
    /// The authors' command line (fio or mmc_test), as published.
    pub command: &'static str,
    /// What the host change is, in a few words.
    pub change: &'static str,
    /// Column labels: (A, B) as in the authors' table.
    pub columns: (&'static str, &'static str),
}

/// One `[[case]]`: the same workload measured with the host change off (A) and on (B).
#[derive(Clone, Copy, Debug)]
pub struct Case {
    /// The [`Series`] it belongs to.
    pub series: &'static str,
    pub platform: &'static str,
    /// fio `rw` of the case (mmc_test: Read or Write).
    pub rw: Rw,
    /// Block (transfer) size, bytes.
    pub bs: u64,
    pub measured: (f64, f64),
    /// Why the model is not expected to match this case, when it is not.
    pub outlier: Option<&'static str>,
}

pub const SERIES: [Series; 5] = [
    Series {
        id: "sprd-hs400es-2020",
        platform: "sprd-hs400es-2020",
        source: "Baolin Wang, '[RFC PATCH v2 0/7] Add MMC packed request support', linux-mmc, 2020-04-26",
        hardware: "Spreadtrum SoC, sdhci-sprd with ADMA3, eMMC HBG4a2 29.1 GiB at HS400 ES, hsq",
        unit: Unit::MiBs,
        command: "fio --filename=/dev/mmcblk0p30 --direct=1 --iodepth=20 --rw=RW --bs=4K --size=512M --group_reporting --numjobs=20 --name=test",
        change: "packed=8: hsq hands up to 8 requests to the controller as one ADMA3 chain",
        columns: ("non_packed", "packed"),
    },
    Series {
        id: "unisoc-fua-2022",
        platform: "unisoc-fua-2022",
        source: "Wenchao Chen, '[PATCH] mmc: block: Support Host to control FUA', linux-mmc, 2022-10-20",
        hardware: "Unisoc SoC, sdhci-sprd, eMMC with write cache and reliable write, hsq",
        unit: Unit::MiBs,
        command: "AndroBench on F2FS, modelled as: --rw=RW --bs=512K|4K --sync=1 --numjobs=1 --size=64M",
        change: "fua=1: the host advertises FUA, so synchronous writes become reliable writes",
        columns: ("fua_off", "fua_on"),
    },
    Series {
        id: "u300-mmci-2011",
        platform: "u300-mmci-2011",
        source: "Per Forlin, '[PATCH v8 00/12] use nonblock mmc requests to minimize latency', tested by Linus Walleij, 2011-07-01",
        hardware: "ST-Ericsson U300 (ARM926, no L2), ARM PL180 MMCI with DMA, SD card, legacy path",
        unit: Unit::KiBs,
        command: "mmc_test cases 37-40 (128 MiB per transfer size)",
        change: "non-blocking: the next request is prepared (dma_map_sg) while the current one is on the bus",
        columns: ("blocking", "non_blocking"),
    },
    Series {
        id: "unisoc-hsq-2023",
        platform: "unisoc-hsq-2023",
        source: "Wenchao Chen, 'mmc: hsq: dynamic adjustment of hsq->depth' v4, linux-mmc, 2023-09",
        hardware: "Unisoc SoC, sdhci-sprd, eMMC, hsq without packing",
        unit: Unit::MiBs,
        command: "fio -filename=/dev/mmcblk0p72 -direct=1 -rw=RW -bs=BS -size=512M -group_reporting -name=test -numjobs=8 -thread -iodepth=64",
        change: "hsq_depth=dynamic: depth 5 while two or more 4 KiB writes are queued, else 2",
        columns: ("fixed", "dynamic"),
    },
    Series {
        id: "hsq-intro-2020",
        platform: "sprd-hs400es-2020",
        source: "Baolin Wang, '[PATCH v9 0/5] Add MMC software queue support' (merged), linux-mmc, 2020-02-12",
        hardware: "The same Spreadtrum board and eMMC HBG4a2 at HS400 ES as the packed-request RFC",
        unit: Unit::MiBs,
        command: "fio --filename=/dev/mmcblk0p30 --direct=1 --iodepth=20 --rw=RW --bs=4K --size=1G --group_reporting --numjobs=20 --name=test_read",
        change: "mmc_path=hsq: the next request goes out from the interrupt instead of a woken thread, and no CMD13 busy poll after writes",
        columns: ("legacy", "hsq"),
    },
];
