//! A job section: fio's `rw=`, `ioengine=`, `random_distribution=` and [`JobSpec`], the fields one
//! `[job]` section sets (cloned `numjobs` times when simulated).

use super::units;
use serde::{Deserialize, Serialize};

/// fio's `rw=`: the I/O pattern of a job.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Rw {
    Read,
    Write,
    RandRead,
    RandWrite,
    /// Mixed random reads and writes; the read share is `rwmixread` percent.
    RandRw,
    /// Mixed sequential reads and writes (`rw=rw` or `rw=readwrite`): one sequential stream,
    /// each I/O a read with probability `rwmixread` percent.
    ReadWrite,
    /// `rw=trim`: sequential discards (REQ_OP_DISCARD: CMD35/36/38 on the card).
    Trim,
    /// `rw=randtrim`: discards at random offsets.
    RandTrim,
    /// `rw=trimwrite`: each block is discarded, then written (sequential).
    TrimWrite,
}

impl Rw {
    pub const ALL: [Rw; 9] = [
        Rw::Read,
        Rw::Write,
        Rw::RandRead,
        Rw::RandWrite,
        Rw::RandRw,
        Rw::ReadWrite,
        Rw::Trim,
        Rw::RandTrim,
        Rw::TrimWrite,
    ];
    pub fn name(self) -> &'static str {
        match self {
            Rw::Read => "read",
            Rw::Write => "write",
            Rw::RandRead => "randread",
            Rw::RandWrite => "randwrite",
            Rw::RandRw => "randrw",
            Rw::ReadWrite => "rw",
            Rw::Trim => "trim",
            Rw::RandTrim => "randtrim",
            Rw::TrimWrite => "trimwrite",
        }
    }
    pub fn is_random(self) -> bool {
        matches!(
            self,
            Rw::RandRead | Rw::RandWrite | Rw::RandRw | Rw::RandTrim
        )
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

/// fio's `random_distribution=`: how a random job picks its blocks. Parameters are kept in
/// thousandths (`zipf:1.2` = 1200) so a scenario compares and prints exactly.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RandomDistribution {
    /// Uniform, each block once per pass (fio's random map): the default.
    #[default]
    Random,
    /// Zipf with exponent theta (`zipf:1.2`), theta > 0, != 1.
    Zipf(u32),
    /// Pareto with shape h (`pareto:0.9`), 0 < h < 1.
    Pareto(u32),
    /// Normal around the middle of the region, the deviation in percent of it (`normal:10`).
    Normal(u32),
    /// `zoned:50/5:30/15:20/80`: (percent of the accesses, percent of the region) per zone,
    /// in order from the region's start.
    Zoned(Vec<(u32, u32)>),
    /// `zoned_abs:50/10g:50/100g`: (percent of the accesses, bytes) per zone.
    ZonedAbs(Vec<(u32, u64)>),
}

impl RandomDistribution {
    /// The `random_distribution=` text.
    pub fn to_text(&self) -> String {
        let milli = |n: u32| {
            let frac = format!("{:03}", n % 1000);
            let frac = frac.trim_end_matches('0');
            if frac.is_empty() {
                format!("{}", n / 1000)
            } else {
                format!("{}.{}", n / 1000, frac)
            }
        };
        let zones = |z: Vec<String>| z.join(":");
        match self {
            RandomDistribution::Random => "random".to_string(),
            RandomDistribution::Zipf(t) => format!("zipf:{}", milli(*t)),
            RandomDistribution::Pareto(h) => format!("pareto:{}", milli(*h)),
            RandomDistribution::Normal(d) => format!("normal:{}", milli(*d)),
            RandomDistribution::Zoned(z) => format!(
                "zoned:{}",
                zones(z.iter().map(|(a, r)| format!("{a}/{r}")).collect())
            ),
            RandomDistribution::ZonedAbs(z) => format!(
                "zoned_abs:{}",
                zones(
                    z.iter()
                        .map(|(a, b)| format!("{a}/{}", units::format_size(*b)))
                        .collect()
                )
            ),
        }
    }
}

/// `fs=` (mmcsim's own): what the job's synchronous writes (`sync=1`) and fsyncs (`fsync=N`)
/// send to the device.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SyncModel {
    /// fio on the raw block device (`blkdev_write_iter`, block/fops.c): an O_SYNC write
    /// carries REQ_FUA, and `generic_write_sync` then sends an empty flush; an fsync is one
    /// empty flush (`blkdev_fsync`).
    #[default]
    Raw,
    /// A file on F2FS, as Linux 6.1 syncs it (fs/f2fs/file.c `f2fs_do_sync_file`, default
    /// `fsync_mode=posix`): the data write (REQ_SYNC, no FUA), then the file's node block
    /// (`f2fs_fsync_node_pages` -> `__write_node_page`: a plain write, since `atomic` is false
    /// for a regular fsync), waited for (`f2fs_wait_on_node_pages_writeback`), then an empty
    /// flush (`f2fs_issue_flush` -> `blkdev_issue_flush`). Nothing carries REQ_FUA. See
    /// `path/workload/f2fs.rs` for what it simplifies.
    F2fs,
    /// A file on F2FS synced with `atomic` true (an atomic write's commit,
    /// `F2FS_IOC_COMMIT_ATOMIC_WRITE`, SQLite's journal on Android; or `fsync_mode=strict`
    /// for data written out of place to an inode that needed no update): the data write,
    /// then the node block with REQ_PREFLUSH | REQ_FUA (`__write_node_page`), and no
    /// separate flush.
    F2fsAtomic,
}

impl SyncModel {
    pub const ALL: [SyncModel; 3] = [SyncModel::Raw, SyncModel::F2fs, SyncModel::F2fsAtomic];
    pub fn name(self) -> &'static str {
        match self {
            SyncModel::Raw => "raw",
            SyncModel::F2fs => "f2fs",
            SyncModel::F2fsAtomic => "f2fs-atomic",
        }
    }
}

/// One fio job section (cloned `numjobs` times when simulated).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
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
    /// I/Os fio queues before one `io_submit` (`iodepth_batch_submit=`, fio's default 1): the
    /// kernel plugs a submission of more than two (`AIO_PLUG_THRESHOLD`, fs/aio.c), so
    /// contiguous I/Os of one batch merge in the plug.
    pub iodepth_batch: u32,
    /// Completions fio waits for before it queues again (`iodepth_batch_complete_min=`, 1).
    pub iodepth_batch_complete_min: u32,
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
    /// `fs=`: what a synchronous write or an fsync sends (mmcsim's own option).
    pub fs: SyncModel,
    /// `offset=` in bytes: where the job's region starts on the device.
    pub offset: u64,
    /// `bsrange=MIN-MAX`: each I/O a multiple of MIN between MIN and MAX (overrides `bs`).
    pub bsrange: Option<(u64, u64)>,
    /// `bssplit=4k/10:64k/90`: block sizes and their percent of the I/Os (overrides `bs`).
    pub bssplit: Vec<(u64, u32)>,
    /// `bssplit=READS,WRITES`: the writes' own split, when it differs from the reads'.
    pub bssplit_write: Option<Vec<(u64, u32)>>,
    /// `rw=read:8k`: bytes skipped (negative: stepped back) after each sequential I/O.
    pub rw_skip: i64,
    /// `rate=`: bytes per second this clone may issue (0 = unlimited).
    pub rate: u64,
    /// `rate_iops=`: I/Os per second this clone may issue (0 = unlimited).
    pub rate_iops: u64,
    /// `thinktime=`: the job pauses this long (ns) after every `thinktime_blocks` I/Os.
    pub thinktime_ns: u64,
    pub thinktime_blocks: u32,
    pub random_distribution: RandomDistribution,
    /// `stonewall` / `wait_for_previous`: start after every earlier job has finished (and begin
    /// a new reporting group).
    pub stonewall: bool,
    /// `exitall`: when this job finishes, every job of its reporting group stops (fio's
    /// `fio_terminate_threads`, exit_what=group).
    pub exitall: bool,
    /// `steadystate=` (`ss`): the criterion, as written (fio's default when only ss_dur is set).
    pub steadystate: Option<String>,
    /// `steadystate_duration` (`ss_dur`, 0: off), `steadystate_ramp_time` (`ss_ramp`),
    /// `steadystate_check_interval` (`ss_interval`, default 1 s).
    pub ss_dur_ns: u64,
    pub ss_ramp_ns: u64,
    pub ss_interval_ns: u64,
    /// `new_group`: begin a new reporting group (without waiting).
    pub new_group: bool,
    /// `zonemode=strided`: the region is read or written in zones of `zonesize` bytes, each
    /// `zoneskip` bytes after the previous one.
    pub zone_strided: bool,
    /// `zonemode=zbd`: fio's emulated zones of `zonesize` bytes with write pointers (the eMMC is
    /// not zoned; fio emulates them on a plain device).
    pub zone_zbd: bool,
    /// `max_open_zones`: zones written at once under zonemode=zbd (0: no limit).
    pub max_open_zones: u32,
    /// `read_beyond_wp`: zbd reads may go past a zone's write pointer.
    pub read_beyond_wp: bool,
    /// `zone_reset_threshold` and `zone_reset_frequency`, parts per million.
    pub zone_reset_threshold_ppm: u64,
    pub zone_reset_frequency_ppm: u64,
    pub zonesize: Option<u64>,
    pub zoneskip: u64,
    /// `wait_for=NAME`: start when every clone of the earlier job section NAME has finished.
    pub wait_for: Option<String>,
    /// `loops=`: passes over the region.
    pub loops: u32,
    /// `io_size=` / `io_limit=`: bytes to transfer, independent of the region size.
    pub io_size: Option<u64>,
    /// `number_ios=`: stop after this many I/Os.
    pub number_ios: Option<u64>,
    /// `filesize=`: size of each of the `nrfiles` files (default `size / nrfiles`).
    pub filesize: Option<u64>,
    /// `nrfiles=`: files, laid out one after the other on the device from `offset`.
    pub nrfiles: u32,
    /// `offset_increment=`: clone k of the section starts at `offset + k * offset_increment`.
    pub offset_increment: u64,
    /// `ramp_time=` in ns: run this long before any statistics are recorded.
    pub ramp_time_ns: u64,
    /// `startdelay=` in ns: the job starts this long after its group.
    pub startdelay_ns: u64,
    /// `fdatasync=N`: a cache flush after every N writes (a block device has no metadata).
    pub fdatasync: u32,
    /// `end_fsync`: a cache flush when the job's writes are done.
    pub end_fsync: bool,
    /// `fsync_on_close`: a cache flush when the job closes its files (at its end).
    pub fsync_on_close: bool,
    /// `read_iolog=`: replay this trace (one of
    /// [`Scenario::iologs`](super::Scenario::iologs), by name) instead of `rw`.
    pub read_iolog: Option<String>,
    /// `replay_no_stall`: replay as fast as possible, ignoring the trace's timestamps.
    pub replay_no_stall: bool,
    /// `replay_events=`: a kernel trace's issue events (the default) or its queue events.
    pub replay_events: super::iolog::ReplayEvents,
    /// `write_iolog=`: write the I/Os issued as an iolog v2 file (read by the CLI).
    pub write_iolog: Option<String>,
    /// `write_bw_log=` / `write_lat_log=` / `write_iops_log=`: fio log file prefixes.
    pub write_bw_log: Option<String>,
    pub write_lat_log: Option<String>,
    pub write_iops_log: Option<String>,
    /// `log_avg_msec=`: average log entries over windows of this many ms (0 = one per I/O).
    pub log_avg_msec: u32,
    /// `prioclass=`, `prio=`, `cmdprio_*=`, `cgroup=`, `cgroup_weight=` (`scenario/prio.rs`).
    pub prio: super::prio::JobPrio,
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
            iodepth_batch: 1,
            iodepth_batch_complete_min: 1,
            ioengine: IoEngine::Psync,
            runtime_ns: None,
            time_based: false,
            direct: true,
            sync: false,
            fsync: 0,
            fs: SyncModel::Raw,
            offset: 0,
            bsrange: None,
            bssplit: Vec::new(),
            bssplit_write: None,
            rw_skip: 0,
            rate: 0,
            rate_iops: 0,
            thinktime_ns: 0,
            thinktime_blocks: 1,
            random_distribution: RandomDistribution::Random,
            stonewall: false,
            exitall: false,
            steadystate: None,
            ss_dur_ns: 0,
            ss_ramp_ns: 0,
            ss_interval_ns: 1_000_000_000,
            new_group: false,
            zone_strided: false,
            zone_zbd: false,
            max_open_zones: 0,
            read_beyond_wp: false,
            zone_reset_threshold_ppm: 0,
            zone_reset_frequency_ppm: 0,
            zonesize: None,
            zoneskip: 0,
            wait_for: None,
            loops: 1,
            io_size: None,
            number_ios: None,
            filesize: None,
            nrfiles: 1,
            offset_increment: 0,
            ramp_time_ns: 0,
            startdelay_ns: 0,
            fdatasync: 0,
            end_fsync: false,
            fsync_on_close: false,
            read_iolog: None,
            replay_no_stall: false,
            replay_events: super::iolog::ReplayEvents::Issue,
            write_iolog: None,
            write_bw_log: None,
            write_lat_log: None,
            write_iops_log: None,
            log_avg_msec: 0,
            prio: Default::default(),
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

    /// The smallest block size the job issues (`bs`, or the least of `bsrange` / `bssplit`).
    pub fn min_bs(&self) -> u64 {
        if let Some((lo, _)) = self.bsrange {
            return lo;
        }
        self.bssplit
            .iter()
            .map(|&(b, _)| b)
            .min()
            .unwrap_or(self.bs)
    }

    /// The largest block size the job issues.
    pub fn max_bs(&self) -> u64 {
        if let Some((_, hi)) = self.bsrange {
            return hi;
        }
        self.bssplit
            .iter()
            .map(|&(b, _)| b)
            .max()
            .unwrap_or(self.bs)
    }

    /// Bytes of the job's region: `nrfiles` files of `filesize` (or `size` split among them).
    pub fn region_bytes(&self) -> u64 {
        match self.filesize {
            Some(f) => f.saturating_mul(u64::from(self.nrfiles.max(1))),
            None => self.size,
        }
    }

    /// Bytes one clone transfers: `io_size`, else the region times `loops`.
    pub fn io_bytes(&self) -> u64 {
        self.io_size.unwrap_or_else(|| {
            self.region_bytes()
                .saturating_mul(u64::from(self.loops.max(1)))
        })
    }

    /// Whether the job issues a cache flush at its end (`end_fsync`, `fsync_on_close`).
    pub fn flush_at_end(&self) -> bool {
        self.end_fsync || self.fsync_on_close
    }

    /// Flush after every N writes (`fsync=N`, else `fdatasync=N`; 0 = never).
    pub fn flush_every(&self) -> u32 {
        if self.fsync > 0 {
            self.fsync
        } else {
            self.fdatasync
        }
    }
}
