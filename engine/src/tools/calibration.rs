//! The measured figures of the four patch series (engine/data/measurements.toml), as
//! data, with the scenario that reproduces each one, so the CLI (`--calibration`), the tests and
//! the UI can put model and measurement side by side.

use crate::path::mmc_test::size_name;
use crate::scenario::{IoEngine, JobSpec, Rw, Scenario};
use crate::vocab::{HsqDepth, MmcPath};

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

const K: u64 = 1024;

const SPRD_RANDREAD_NOTE: &str = "The packed figure needs ~6 us of card time per random 4 KiB read, but the \
non-packed figure of the same card is bus-bound at ~125 us per read (a 100 us NAND read). A card without command \
queueing cannot overlap NAND reads with an ADMA3 chain, so no single preset reproduces both; mmcsim keeps the \
physically consistent 100 us NAND read and flags this case.";

pub const CASES: [Case; 20] = [
    Case {
        series: "sprd-hs400es-2020",
        platform: "sprd-hs400es-2020",
        rw: Rw::Read,
        bs: 4 * K,
        measured: (60.68, 229.6),
        outlier: None,
    },
    Case {
        series: "sprd-hs400es-2020",
        platform: "sprd-hs400es-2020",
        rw: Rw::RandRead,
        bs: 4 * K,
        measured: (31.36, 180.8),
        outlier: Some(SPRD_RANDREAD_NOTE),
    },
    Case {
        series: "sprd-hs400es-2020",
        platform: "sprd-hs400es-2020",
        rw: Rw::Write,
        bs: 4 * K,
        measured: (71.66, 172.0),
        outlier: None,
    },
    Case {
        series: "sprd-hs400es-2020",
        platform: "sprd-hs400es-2020",
        rw: Rw::RandWrite,
        bs: 4 * K,
        measured: (68.76, 169.2),
        outlier: None,
    },
    Case {
        series: "unisoc-fua-2022",
        platform: "unisoc-fua-2022",
        rw: Rw::Read,
        bs: 512 * K,
        measured: (265.74, 257.86),
        outlier: None,
    },
    Case {
        series: "unisoc-fua-2022",
        platform: "unisoc-fua-2022",
        rw: Rw::RandRead,
        bs: 4 * K,
        measured: (98.81, 100.2),
        outlier: None,
    },
    Case {
        series: "unisoc-fua-2022",
        platform: "unisoc-fua-2022",
        rw: Rw::Write,
        bs: 512 * K,
        measured: (200.5, 149.48),
        outlier: None,
    },
    Case {
        series: "unisoc-fua-2022",
        platform: "unisoc-fua-2022",
        rw: Rw::RandWrite,
        bs: 4 * K,
        measured: (70.32, 12.68),
        outlier: None,
    },
    Case {
        series: "u300-mmci-2011",
        platform: "u300-mmci-2011",
        rw: Rw::Write,
        bs: 4 * K,
        measured: (2818.0, 2864.0),
        outlier: None,
    },
    Case {
        series: "u300-mmci-2011",
        platform: "u300-mmci-2011",
        rw: Rw::Write,
        bs: 127 * 512,
        measured: (4749.0, 4849.0),
        outlier: None,
    },
    Case {
        series: "u300-mmci-2011",
        platform: "u300-mmci-2011",
        rw: Rw::Read,
        bs: 4 * K,
        measured: (3880.0, 4002.0),
        outlier: None,
    },
    Case {
        series: "u300-mmci-2011",
        platform: "u300-mmci-2011",
        rw: Rw::Read,
        bs: 127 * 512,
        measured: (8069.0, 8327.0),
        outlier: None,
    },
    Case {
        series: "unisoc-hsq-2023",
        platform: "unisoc-hsq-2023",
        rw: Rw::Write,
        bs: 512 * K,
        measured: (165.67, 166.33),
        outlier: None,
    },
    Case {
        series: "unisoc-hsq-2023",
        platform: "unisoc-hsq-2023",
        rw: Rw::Read,
        bs: 512 * K,
        measured: (326.0, 326.3),
        outlier: None,
    },
    Case {
        series: "unisoc-hsq-2023",
        platform: "unisoc-hsq-2023",
        rw: Rw::RandWrite,
        bs: 4 * K,
        measured: (82.87, 86.67),
        outlier: None,
    },
    Case {
        series: "unisoc-hsq-2023",
        platform: "unisoc-hsq-2023",
        rw: Rw::RandRead,
        bs: 4 * K,
        measured: (48.03, 48.03),
        outlier: None,
    },
    Case {
        series: "hsq-intro-2020",
        platform: "sprd-hs400es-2020",
        rw: Rw::Read,
        bs: 4 * K,
        measured: (59.66, 60.68),
        outlier: None,
    },
    Case {
        series: "hsq-intro-2020",
        platform: "sprd-hs400es-2020",
        rw: Rw::RandRead,
        bs: 4 * K,
        measured: (27.04, 31.36),
        outlier: None,
    },
    Case {
        series: "hsq-intro-2020",
        platform: "sprd-hs400es-2020",
        rw: Rw::Write,
        bs: 4 * K,
        measured: (69.68, 71.66),
        outlier: None,
    },
    Case {
        series: "hsq-intro-2020",
        platform: "sprd-hs400es-2020",
        rw: Rw::RandWrite,
        bs: 4 * K,
        measured: (35.96, 68.76),
        outlier: None,
    },
];

/// Bytes per job the authors used (fio `size=`; mmc_test: 128 MiB per transfer size).
pub fn authors_size(platform: &str) -> u64 {
    match platform {
        "unisoc-fua-2022" => 64 << 20,
        "u300-mmci-2011" => crate::vocab::MMC_TEST_BYTES,
        _ => 512 << 20,
    }
}

impl Case {
    pub fn series(&self) -> &'static Series {
        SERIES
            .iter()
            .find(|s| s.id == self.series)
            .expect("every case has a series")
    }

    /// "randread 4KiB"-style label.
    pub fn label(&self) -> String {
        format!("{} {}", self.rw.name(), size_name(self.bs))
    }

    /// The case's figure from a finished run of `scn`, in the series' unit: the run's
    /// bandwidth, or for mmc_test the entry of the case's transfer size.
    pub fn figure(&self, scn: &Scenario, report: &crate::Report) -> Option<f64> {
        let bps = if scn.mmc_test.is_some() {
            let name = size_name(self.bs);
            let j = report.jobs.iter().find(|j| j.name == name)?;
            j.read.bw_bytes() + j.write.bw_bytes()
        } else {
            let m = report.merged();
            m.read.bw_bytes() + m.write.bw_bytes()
        };
        Some(self.series().unit.of_bytes_per_sec(bps))
    }

    /// The scenario of column A (`b = false`) or B (`b = true`), `size` bytes per job.
    pub fn scenario(&self, b: bool, size: u64) -> Scenario {
        let mut s = Scenario {
            platform: self.platform.to_string(),
            group_reporting: true,
            ..Scenario::default()
        };
        let job = |numjobs: u32| JobSpec {
            name: "test".to_string(),
            rw: self.rw,
            bs: self.bs,
            size,
            numjobs,
            iodepth: 1,
            ioengine: IoEngine::Psync,
            direct: true,
            ..JobSpec::default()
        };
        match self.series {
            "hsq-intro-2020" => {
                s.jobs = vec![JobSpec {
                    iodepth: 20,
                    ..job(20)
                }];
                s.host.mmc_path = Some(if b { MmcPath::Hsq } else { MmcPath::Legacy });
            }
            "sprd-hs400es-2020" => {
                s.jobs = vec![JobSpec {
                    iodepth: 20,
                    ..job(20)
                }];
                s.host.packed = Some(if b { 8 } else { 0 });
            }
            "unisoc-fua-2022" => {
                s.jobs = vec![JobSpec {
                    sync: matches!(self.rw, Rw::Write | Rw::RandWrite),
                    ..job(1)
                }];
                s.host.fua = Some(b);
            }
            "u300-mmci-2011" => {
                let base = if self.rw == Rw::Write { 37 } else { 39 };
                s.mmc_test = Some(base + b as u32);
                s.jobs = vec![job(1)];
            }
            _ => {
                s.jobs = vec![JobSpec {
                    iodepth: 64,
                    ..job(8)
                }];
                s.host.hsq_depth = Some(if b {
                    HsqDepth::Dynamic
                } else {
                    HsqDepth::Fixed(2)
                });
            }
        }
        s
    }
}

/// One case run through the model.
#[derive(Clone, Debug)]
pub struct CaseResult {
    pub case: Case,
    pub simulated: (f64, f64),
}

impl CaseResult {
    /// Relative error of the simulated figure, percent.
    pub fn error_pct(&self) -> (f64, f64) {
        let e = |s: f64, m: f64| (s - m) / m * 100.0;
        (
            e(self.simulated.0, self.case.measured.0),
            e(self.simulated.1, self.case.measured.1),
        )
    }
    /// B / A, measured and simulated.
    pub fn ratios(&self) -> (f64, f64) {
        (
            self.case.measured.1 / self.case.measured.0,
            self.simulated.1 / self.simulated.0,
        )
    }
}

fn throughput(case: &Case, scn: &Scenario) -> Result<f64, crate::ScenarioError> {
    let report = crate::sim::run(scn)?;
    case.figure(scn, &report).ok_or_else(|| {
        crate::ScenarioError::general(format!("mmc_test ran no {} transfer", size_name(case.bs)))
    })
}

/// Runs one case, both columns. `size_override` replaces the authors' per-job size.
pub fn run_case(
    case: &Case,
    size_override: Option<u64>,
) -> Result<CaseResult, crate::ScenarioError> {
    let size = size_override.unwrap_or_else(|| authors_size(case.platform));
    let a = throughput(case, &case.scenario(false, size))?;
    let b = throughput(case, &case.scenario(true, size))?;
    Ok(CaseResult {
        case: *case,
        simulated: (a, b),
    })
}

/// Largest `--size` a whole calibration run takes: the authors' 512 MiB per job, about 14 s of
/// CPU for all 64 runs on the project's 2-core machine (each run alone is also within
/// [`crate::scenario::check::MAX_EVENTS`]).
pub const MAX_CALIBRATION_SIZE: u64 = 512 << 20;

/// Runs every case. A `size_override` above [`MAX_CALIBRATION_SIZE`] is refused.
pub fn run_all(size_override: Option<u64>) -> Result<Vec<CaseResult>, crate::ScenarioError> {
    if let Some(size) = size_override.filter(|&s| s > MAX_CALIBRATION_SIZE) {
        return Err(crate::ScenarioError::new(
            "size",
            format!(
                "--calibration runs every case at size={size} bytes per job; at most {} (512 MiB, the authors' size, about 14 s of CPU in all)",
                MAX_CALIBRATION_SIZE
            ),
        ));
    }
    CASES.iter().map(|c| run_case(c, size_override)).collect()
}

/// A measured figure matching a scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct MeasuredFigure {
    pub value: f64,
    pub unit: Unit,
    pub column: &'static str,
    pub source: &'static str,
    pub outlier: Option<&'static str>,
}

/// The measured case and column (`true` = B) matching `scn` (any size, any seed).
fn case_for(scn: &Scenario) -> Option<(&'static Case, bool)> {
    let key = |s: &Scenario| {
        let j = s.jobs.first().map(|j| {
            (
                j.rw,
                j.bs,
                j.numjobs,
                j.outstanding(),
                j.sync,
                j.fsync,
                s.jobs.len(),
            )
        });
        (
            s.platform.clone(),
            s.host_config().ok(),
            s.mmc_test,
            if s.mmc_test.is_some() { None } else { j },
        )
    };
    let want = key(scn);
    for case in CASES.iter().filter(|c| c.platform == scn.platform) {
        for b in [false, true] {
            let cand = case.scenario(b, authors_size(case.platform));
            if key(&cand) == want {
                return Some((case, b));
            }
        }
    }
    None
}

/// The measured figure for `scn`, if it is one of the measured cases (any size, any seed).
/// For an mmc_test scenario (several transfer sizes) this is the 4 KiB case.
pub fn measured_for(scn: &Scenario) -> Option<MeasuredFigure> {
    let (case, b) = case_for(scn)?;
    let series = case.series();
    Some(MeasuredFigure {
        value: if b { case.measured.1 } else { case.measured.0 },
        unit: series.unit,
        column: if b {
            series.columns.1
        } else {
            series.columns.0
        },
        source: series.source,
        outlier: case.outlier,
    })
}

/// The simulated figure of a finished run of `scn`, in the unit of the measured case it matches
/// (MiB/s, or KiB/s for mmc_test), to set beside [`measured_for`].
pub fn simulated_for(scn: &Scenario, report: &crate::Report) -> Option<f64> {
    let (case, _) = case_for(scn)?;
    case.figure(scn, report)
}

/// A measured latency distribution (fio's clat percentiles) with its IOPS: the Allwinner board
/// without hsq (2022).
#[derive(Clone, Copy, Debug)]
pub struct LatencyCase {
    pub platform: &'static str,
    pub source: &'static str,
    /// The host configuration it was measured with.
    pub host: &'static str,
    pub command: &'static str,
    pub iops: f64,
    /// (percentile, microseconds), fio's default list.
    pub clat_us: [(f64, f64); 17],
    /// The percentiles the fit is held to (the others are shown, not checked): p10 to p99.9.
    pub checked: (f64, f64),
}

pub const ALLWINNER_NO_HSQ: LatencyCase = LatencyCase {
    platform: "allwinner-hsq-2022",
    source: "Michael Wu, '[PATCH] mmc:mmc-hsq:use fifo to dispatch mmc_request' v2, linux-mmc, 2022-11-28 (reply with the measurements)",
    host: "without hsq (legacy path)",
    command: "fio -name=Rand_Read_IOPS_Test -group_reporting -rw=randread -bs=4K -numjobs=8 -directory=/data/data -size=1G -io_size=64M -nrfiles=1 -direct=1 -thread",
    iops: 7544.62,
    clat_us: [
        (1.0, 799.0),
        (5.0, 938.0),
        (10.0, 963.0),
        (20.0, 979.0),
        (30.0, 996.0),
        (40.0, 1004.0),
        (50.0, 1020.0),
        (60.0, 1045.0),
        (70.0, 1074.0),
        (80.0, 1106.0),
        (90.0, 1172.0),
        (95.0, 1237.0),
        (99.0, 1450.0),
        (99.5, 1516.0),
        (99.9, 1762.0),
        (99.95, 2180.0),
        (99.99, 9503.0),
    ],
    checked: (10.0, 99.9),
};

impl LatencyCase {
    /// The measured command as a scenario: 8 psync threads, each reading 64 MiB (`io_size`) at
    /// random 4 KiB offsets; `mmc_path` and `hsq_dispatch` as given (None: the preset's).
    pub fn scenario(&self, path: Option<MmcPath>) -> Scenario {
        let mut s = Scenario {
            platform: self.platform.to_string(),
            group_reporting: true,
            ..Scenario::default()
        };
        s.host.mmc_path = path;
        s.jobs = vec![JobSpec {
            name: "Rand_Read_IOPS_Test".to_string(),
            rw: Rw::RandRead,
            bs: 4 * K,
            size: 64 << 20,
            numjobs: 8,
            iodepth: 1,
            ioengine: IoEngine::Psync,
            direct: true,
            ..JobSpec::default()
        }];
        s
    }
}

/// A latency case run through the model: IOPS and the clat percentiles (microseconds).
#[derive(Clone, Debug)]
pub struct LatencyResult {
    pub case: LatencyCase,
    pub iops: f64,
    pub clat_us: Vec<(f64, f64)>,
}

impl LatencyResult {
    /// (percentile, measured, simulated, error %) for every percentile.
    pub fn rows(&self) -> Vec<(f64, f64, f64, f64)> {
        self.case
            .clat_us
            .iter()
            .zip(&self.clat_us)
            .map(|(&(p, m), &(_, s))| (p, m, s, (s - m) / m * 100.0))
            .collect()
    }
    pub fn iops_error_pct(&self) -> f64 {
        (self.iops - self.case.iops) / self.case.iops * 100.0
    }
}

/// Runs a latency case as measured (the preset's own host path).
pub fn run_latency(case: &LatencyCase) -> Result<LatencyResult, crate::ScenarioError> {
    let report = crate::sim::run(&case.scenario(None))?;
    let m = report.merged();
    let clat_us = case
        .clat_us
        .iter()
        .map(|&(p, _)| (p, m.read.clat.percentile(p) as f64 / 1000.0))
        .collect();
    Ok(LatencyResult {
        case: *case,
        iops: m.read.iops(),
        clat_us,
    })
}
