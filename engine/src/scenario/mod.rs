//! The scenario: what to simulate, in fio's vocabulary plus mmcsim's host switches.
//!
//! One scenario language serves the CLI (`--name=value`), fio job files (`[global]` + job
//! sections) and the web app's URL query string: all of them go through [`options`] in this
//! module, so an option means the same thing everywhere.

use serde::{Deserialize, Serialize};

pub mod check;
pub mod jobfile;
pub mod options;
pub mod table;
pub mod units;
pub mod url;
mod write;

pub use check::check;
pub use options::{apply_option, OptionScope};
pub use table::OPTIONS;

/// fio's `rw=`: the I/O pattern of a job.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Rw {
    Read,
    Write,
    RandRead,
    RandWrite,
    /// Mixed random reads and writes; the read share is `rwmixread` percent.
    RandRw,
}

impl Rw {
    pub const ALL: [Rw; 5] = [Rw::Read, Rw::Write, Rw::RandRead, Rw::RandWrite, Rw::RandRw];
    pub fn name(self) -> &'static str {
        match self {
            Rw::Read => "read",
            Rw::Write => "write",
            Rw::RandRead => "randread",
            Rw::RandWrite => "randwrite",
            Rw::RandRw => "randrw",
        }
    }
    pub fn is_random(self) -> bool {
        matches!(self, Rw::RandRead | Rw::RandWrite | Rw::RandRw)
    }
}

/// fio's `ioengine=`: how many I/Os one job keeps outstanding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum IoEngine {
    /// fio's default: one I/O at a time per job, `iodepth` ignored.
    Psync,
    /// Same as psync for this model (read/write system calls).
    Sync,
    /// Asynchronous: up to `iodepth` I/Os outstanding per job.
    Libaio,
    /// Asynchronous: up to `iodepth` I/Os outstanding per job.
    IoUring,
}

impl IoEngine {
    pub const ALL: [IoEngine; 4] = [
        IoEngine::Psync,
        IoEngine::Sync,
        IoEngine::Libaio,
        IoEngine::IoUring,
    ];
    pub fn name(self) -> &'static str {
        match self {
            IoEngine::Psync => "psync",
            IoEngine::Sync => "sync",
            IoEngine::Libaio => "libaio",
            IoEngine::IoUring => "io_uring",
        }
    }
    pub fn is_async(self) -> bool {
        matches!(self, IoEngine::Libaio | IoEngine::IoUring)
    }
}

/// One fio job section (cloned `numjobs` times when simulated).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobSpec {
    /// fio `name=` (or the section name in a job file).
    pub name: String,
    pub rw: Rw,
    /// Percent of reads in `randrw`.
    pub rwmixread: u32,
    /// Block size in bytes (`bs=`).
    pub bs: u64,
    /// Bytes each clone transfers (`size=`): fio's per-job size.
    pub size: u64,
    /// Clones of this job (`numjobs=`).
    pub numjobs: u32,
    /// Outstanding I/Os per clone for async engines (`iodepth=`).
    pub iodepth: u32,
    pub ioengine: IoEngine,
    /// `runtime=` in ns of simulated time (None = until `size` is done).
    pub runtime_ns: Option<u64>,
    /// `time_based`: loop over `size` until `runtime` is over.
    pub time_based: bool,
    /// `direct=` (accepted; the model is always direct I/O: there is no page cache).
    pub direct: bool,
    /// `sync=1`: every write carries REQ_FUA (O_SYNC on a block device).
    pub sync: bool,
    /// `fsync=N`: a cache flush after every N writes (0 = never).
    pub fsync: u32,
    /// `offset=` in bytes: where the job's region starts on the device.
    pub offset: u64,
}

impl Default for JobSpec {
    fn default() -> Self {
        JobSpec {
            name: "job".to_string(),
            rw: Rw::Read,
            rwmixread: 50,
            bs: 4096,
            size: 64 << 20,
            numjobs: 1,
            iodepth: 1,
            ioengine: IoEngine::Psync,
            runtime_ns: None,
            time_based: false,
            direct: true,
            sync: false,
            fsync: 0,
            offset: 0,
        }
    }
}

impl JobSpec {
    /// I/Os one clone keeps outstanding: 1 for the synchronous engines, `iodepth` otherwise.
    pub fn outstanding(&self) -> u32 {
        if self.ioengine.is_async() {
            self.iodepth.max(1)
        } else {
            1
        }
    }
}

/// Which mmc request path the host uses (`mmc_path=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MmcPath {
    /// Host software queue (drivers/mmc/host/mmc_hsq.c).
    Hsq,
    /// The classic path: one request on the bus, optional non-blocking pre/post_req.
    Legacy,
    /// eMMC 5.1 command queueing engine (drivers/mmc/host/cqhci-core.c): a what-if mode.
    Cqe,
}

impl MmcPath {
    pub const ALL: [MmcPath; 3] = [MmcPath::Hsq, MmcPath::Legacy, MmcPath::Cqe];
    pub fn name(self) -> &'static str {
        match self {
            MmcPath::Hsq => "hsq",
            MmcPath::Legacy => "legacy",
            MmcPath::Cqe => "cqe",
        }
    }
}

/// `hsq_dispatch=`: the order in which hsq serves its slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum HsqDispatch {
    /// Arrival order: Michael Wu's patch (applied for 6.2, 2022-11) and every kernel since.
    Fifo,
    /// `mmc_hsq_update_next_tag` before that patch: the tag after the last one served if its
    /// slot holds a request, else the lowest occupied slot.
    NextTag,
}

impl HsqDispatch {
    pub const ALL: [HsqDispatch; 2] = [HsqDispatch::Fifo, HsqDispatch::NextTag];
    pub fn name(self) -> &'static str {
        match self {
            HsqDispatch::Fifo => "fifo",
            HsqDispatch::NextTag => "next_tag",
        }
    }
}

/// `hsq_depth=`: the hsq window (mmc_mq_queue_rq refuses once in_flight > depth).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum HsqDepth {
    Fixed(u32),
    /// mmc_hsq_modify_threshold (2023): 5 while >= 2 queued slots hold 4 KiB writes, else 2.
    Dynamic,
}

/// Host-side switches. `None` = the platform preset's default.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct HostOptions {
    pub mmc_path: Option<MmcPath>,
    /// Legacy path: prepare the next request while the current one is on the bus.
    pub nonblocking: Option<bool>,
    pub hsq_depth: Option<HsqDepth>,
    /// Slot order of hsq (`hsq_dispatch=`).
    #[serde(default)]
    pub hsq_dispatch: Option<HsqDispatch>,
    /// ADMA3 chain length (0 = off).
    pub packed: Option<u32>,
    /// The host advertises FUA (reliable write) to the block layer.
    pub fua: Option<bool>,
    /// The card's volatile write cache is enabled.
    pub cache: Option<bool>,
}

/// Host switches with every default filled in from the platform.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct HostConfig {
    pub mmc_path: MmcPath,
    pub nonblocking: bool,
    pub hsq_depth: HsqDepth,
    pub hsq_dispatch: HsqDispatch,
    pub packed: u32,
    pub fua: bool,
    pub cache: bool,
}

/// The complete scenario: platform, host switches, jobs, seed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Scenario {
    /// Platform preset name (see [`crate::platform::PLATFORMS`]).
    pub platform: String,
    pub host: HostOptions,
    /// Job sections; each is cloned `numjobs` times.
    pub jobs: Vec<JobSpec>,
    /// fio's `randseed`: derives every random choice.
    pub randseed: u64,
    /// fio's `group_reporting`: report all jobs as one.
    pub group_reporting: bool,
    /// Run this kernel mmc_test performance case (37..=44) instead of fio jobs.
    pub mmc_test: Option<u32>,
    /// Cut the power at this simulated time, ns (`power_cut=`).
    pub power_cut_ns: Option<u64>,
    /// Make the card return errors (`inject_error=crc:RATE`).
    pub inject_error: Option<ErrorInjection>,
}

/// Which error the card returns (`inject_error=KIND:RATE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ErrorKind {
    /// Data CRC error on a read or write transfer (`-EILSEQ` in `data->error`).
    Crc,
}

/// Fault injection: each data transfer fails with probability `rate_ppm` / 1e6.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ErrorInjection {
    pub kind: ErrorKind,
    pub rate_ppm: u32,
}

impl ErrorInjection {
    /// Largest accepted rate (half of all transfers).
    pub const MAX_PPM: u32 = 500_000;

    /// Parses `crc:0.01` (a probability per transfer, 0 < rate <= 0.5, resolution 1e-6).
    pub fn parse(v: &str) -> Result<ErrorInjection, String> {
        let accepted = "crc:RATE with 0 < RATE <= 0.5, e.g. crc:0.01";
        let (kind, rate) = v
            .split_once(':')
            .ok_or_else(|| format!("'{v}' is not KIND:RATE; accepted: {accepted}"))?;
        let kind = match kind {
            "crc" => ErrorKind::Crc,
            _ => {
                return Err(format!(
                    "'{kind}' is not an error kind; accepted: {accepted}"
                ))
            }
        };
        let ppm = parse_ppm(rate).filter(|&p| p > 0 && p <= Self::MAX_PPM);
        let rate_ppm =
            ppm.ok_or_else(|| format!("'{rate}' is not a rate; accepted: {accepted}"))?;
        Ok(ErrorInjection { kind, rate_ppm })
    }

    /// The `inject_error=` text that parses back to this value.
    pub fn to_text(&self) -> String {
        let whole = self.rate_ppm / 1_000_000;
        let frac = format!("{:06}", self.rate_ppm % 1_000_000);
        let frac = frac.trim_end_matches('0');
        if frac.is_empty() {
            format!("crc:{whole}")
        } else {
            format!("crc:{whole}.{frac}")
        }
    }
}

/// "0.01" -> 10000 parts per million (no floating point, at most 6 decimals).
fn parse_ppm(s: &str) -> Option<u32> {
    let (int, frac) = s.split_once('.').unwrap_or((s, ""));
    if int.is_empty() && frac.is_empty()
        || frac.len() > 6
        || !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let i: u32 = if int.is_empty() {
        0
    } else {
        int.parse().ok().filter(|&i: &u32| i <= 1)?
    };
    let f: u32 = if frac.is_empty() {
        0
    } else {
        format!("{frac:0<6}").parse().ok()?
    };
    i.checked_mul(1_000_000)?.checked_add(f)
}

/// fio's default `randseed`.
pub const DEFAULT_RANDSEED: u64 = 0x89;

impl Default for Scenario {
    fn default() -> Self {
        Scenario {
            platform: crate::platform::DEFAULT_PLATFORM.to_string(),
            host: HostOptions::default(),
            jobs: vec![JobSpec::default()],
            randseed: DEFAULT_RANDSEED,
            group_reporting: false,
            mmc_test: None,
            power_cut_ns: None,
            inject_error: None,
        }
    }
}

/// A scenario or option error: one clear line naming what is wrong and what is accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    /// The option (or job-file line) at fault, if any.
    pub option: Option<String>,
    pub message: String,
}

impl ScenarioError {
    pub fn new(option: impl Into<String>, message: impl Into<String>) -> Self {
        ScenarioError {
            option: Some(option.into()),
            message: message.into(),
        }
    }
    pub fn general(message: impl Into<String>) -> Self {
        ScenarioError {
            option: None,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.option {
            Some(o) => write!(f, "{}: {}", o, self.message),
            None => write!(f, "{}", self.message),
        }
    }
}

impl std::error::Error for ScenarioError {}

impl Scenario {
    /// The platform preset this scenario names.
    pub fn platform(&self) -> Result<&'static crate::platform::Platform, ScenarioError> {
        crate::platform::by_name(&self.platform).ok_or_else(|| {
            ScenarioError::new(
                "platform",
                format!(
                    "unknown platform '{}'; accepted: {}",
                    self.platform,
                    crate::platform::names().join(", ")
                ),
            )
        })
    }

    /// Host switches with the platform defaults filled in.
    pub fn host_config(&self) -> Result<HostConfig, ScenarioError> {
        let p = self.platform()?;
        let d = &p.defaults;
        Ok(HostConfig {
            mmc_path: self.host.mmc_path.unwrap_or(d.mmc_path),
            nonblocking: self.host.nonblocking.unwrap_or(d.nonblocking),
            hsq_depth: self.host.hsq_depth.unwrap_or(d.hsq_depth),
            hsq_dispatch: self.host.hsq_dispatch.unwrap_or(d.hsq_dispatch),
            packed: self.host.packed.unwrap_or(d.packed),
            fua: self.host.fua.unwrap_or(d.fua),
            cache: self.host.cache.unwrap_or(d.cache),
        })
    }
}
