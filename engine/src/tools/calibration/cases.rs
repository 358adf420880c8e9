//! The cases: each measured figure with the scenario that reproduces it, and the job size the
//! authors ran.

use super::{Case, Series, SERIES};
use crate::path::mmc_test::size_name;
use crate::scenario::{IoEngine, JobSpec, Rw, Scenario};
use crate::vocab::{HsqDepth, MmcPath};

pub(super) const K: u64 = 1024;

const SPRD_RANDREAD_NOTE: &str = "The packed figure needs ~6 us of card time per random 4 KiB read, but the \
non-packed figure of the same card is card-bound at ~125 us per read (a 100 us NAND read). A card without command \
queueing cannot overlap NAND reads with an ADMA3 chain, so no single preset reproduces both; mmcsim keeps the \
physical 100 us NAND read and flags this case.";

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
                s.set_switch::<MmcPath>(
                    "mmc_path",
                    Some(if b { MmcPath::Hsq } else { MmcPath::Legacy }),
                );
            }
            "sprd-hs400es-2020" => {
                s.jobs = vec![JobSpec {
                    iodepth: 20,
                    ..job(20)
                }];
                s.set_switch::<u32>("packed", Some(if b { 8 } else { 0 }));
            }
            "unisoc-fua-2022" => {
                s.jobs = vec![JobSpec {
                    sync: matches!(self.rw, Rw::Write | Rw::RandWrite),
                    ..job(1)
                }];
                s.set_switch::<bool>("fua", Some(b));
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
                s.set_switch::<HsqDepth>(
                    "hsq_depth",
                    Some(if b {
                        HsqDepth::Dynamic
                    } else {
                        HsqDepth::Fixed(2)
                    }),
                );
            }
        }
        s
    }
}
