//! A measured latency distribution (fio's clat percentiles) and the run that reproduces it.

use super::cases::K;
use crate::scenario::{IoEngine, JobSpec, Rw, Scenario};
use crate::vocab::MmcPath;

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
        s.set_switch::<MmcPath>("mmc_path", path);
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
    run_latency_under(case, &super::Under::default())
}

/// [`run_latency`] with the block layer `under` chooses.
pub fn run_latency_under(
    case: &LatencyCase,
    under: &super::Under,
) -> Result<LatencyResult, crate::ScenarioError> {
    let mut s = case.scenario(None);
    under.apply(&mut s);
    let report = crate::sim::run(&s)?;
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
