//! Figures measured with one host configuration only (no A/B column): the 2019 large read of the
//! 2020 board and the Raspberry Pi 5's command-queueing-OFF figures
//! (`measurements.toml [series.hsq-large-read-2019]`, `[board.rpi5-sd-2024]`), each with the
//! fio command line that reproduces it.

use crate::scenario::options::parse_args;
use crate::scenario::Scenario;

/// What a single figure measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    /// Total bandwidth, MiB/s (1 MiB = 1048576 bytes).
    MiBs,
    /// Total bandwidth, KB/s (1000 bytes).
    KBs,
    /// I/Os per second.
    Iops,
}

impl Measure {
    pub fn name(self) -> &'static str {
        match self {
            Measure::MiBs => "MiB/s",
            Measure::KBs => "KB/s",
            Measure::Iops => "IOPS",
        }
    }
    fn of(self, r: &crate::Report) -> f64 {
        let m = r.merged();
        let bps = m.read.bw_bytes() + m.write.bw_bytes();
        match self {
            Measure::MiBs => bps / 1_048_576.0,
            Measure::KBs => bps / 1000.0,
            Measure::Iops => m.read.iops() + m.write.iops(),
        }
    }
}

/// One measured figure, one host configuration.
#[derive(Clone, Copy, Debug)]
pub struct Single {
    /// The `[series.*]` or `[board.*]` table it comes from.
    pub series: &'static str,
    pub platform: &'static str,
    /// The workload, e.g. "read 1MiB".
    pub case: &'static str,
    /// The host configuration, as the source names it.
    pub column: &'static str,
    pub measure: Measure,
    pub measured: f64,
    /// The fio options that reproduce it, as the source ran it (`--size=` is the per-job size
    /// a size override replaces).
    pub args: &'static [&'static str],
}

/// Raspberry Pi's sd_bench.fio: libaio, iodepth=32, direct, 256 MiB, end_fsync=1; the 4 KiB
/// jobs stop at 10 s.
const RPI5_JOB: [&str; 7] = [
    "--platform=rpi5-sd-2024",
    "--name=sd_bench",
    "--ioengine=libaio",
    "--iodepth=32",
    "--direct=1",
    "--size=256m",
    "--end_fsync=1",
];

macro_rules! rpi5 {
    ($case:expr, $measure:expr, $measured:expr, $($arg:expr),*) => {
        Single {
            series: "rpi5-sd-2024",
            platform: "rpi5-sd-2024",
            case: $case,
            column: "cq_off",
            measure: $measure,
            measured: $measured,
            args: &[RPI5_JOB[0], RPI5_JOB[1], RPI5_JOB[2], RPI5_JOB[3], RPI5_JOB[4], RPI5_JOB[5], RPI5_JOB[6], $($arg),*],
        }
    };
}

pub const SINGLES: [Single; 5] = [
    Single {
        series: "hsq-large-read-2019",
        platform: "sprd-hs400es-2020",
        case: "read 1MiB",
        column: "legacy",
        measure: Measure::MiBs,
        measured: 251.0,
        args: &[
            "--platform=sprd-hs400es-2020",
            "--mmc_path=legacy",
            "--direct=1",
            "--iodepth=20",
            "--rw=read",
            "--bs=1M",
            "--size=512M",
            "--group_reporting",
            "--numjobs=20",
            "--name=test_read",
        ],
    },
    rpi5!(
        "randread 4KiB",
        Measure::Iops,
        2540.0,
        "--rw=randread",
        "--bs=4k",
        "--runtime=10s"
    ),
    rpi5!(
        "randwrite 4KiB",
        Measure::Iops,
        1147.0,
        "--rw=randwrite",
        "--bs=4k",
        "--runtime=10s"
    ),
    rpi5!("read 4MiB", Measure::KBs, 92467.0, "--rw=read", "--bs=4m"),
    rpi5!("write 4MiB", Measure::KBs, 62751.0, "--rw=write", "--bs=4m"),
];

impl Single {
    /// The scenario, `size` bytes per job if given (else the source's).
    pub fn scenario(&self, size: Option<u64>) -> Result<Scenario, crate::ScenarioError> {
        let mut args: Vec<String> = self.args.iter().map(|a| a.to_string()).collect();
        if let Some(size) = size {
            args.push(format!("--size={size}"));
        }
        parse_args(&args, Scenario::default())
    }

    /// The simulated figure, in the figure's measure.
    pub fn run(&self, size: Option<u64>) -> Result<f64, crate::ScenarioError> {
        self.run_under(size, &super::Under::default())
    }

    /// [`run`](Self::run) with the block layer `under` chooses.
    pub fn run_under(
        &self,
        size: Option<u64>,
        under: &super::Under,
    ) -> Result<f64, crate::ScenarioError> {
        let mut s = self.scenario(size)?;
        under.apply(&mut s);
        let r = crate::sim::run(&s)?;
        Ok(self.measure.of(&r))
    }
}
