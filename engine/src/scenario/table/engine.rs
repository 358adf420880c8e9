//! I/O engine rows (fio's `FIO_OPT_G_IO_ENGINE`, `FIO_OPT_C_FILE` sync options): the engine,
//! its queue depth, O_DIRECT/O_SYNC and the cache flushes a job asks for.

use super::macros::*;
use super::values::*;
use super::{OptionRow, Widget};
use crate::scenario::{
    error::ScenarioError,
    job::{IoEngine, JobSpec, SyncModel},
};

const IOENGINE_NAMES: &[&str] = &["psync", "sync", "libaio", "io_uring"];

/// fio's `ioengine=` values. The synchronous engines (`sync`, `psync`, `vsync`, `pvsync`,
/// `pvsync2`) differ only in the system call: one I/O at a time, as psync. `posixaio` keeps
/// `iodepth` I/Os outstanding, as libaio.
fn parse_ioengine(key: &str, v: &str) -> Result<IoEngine, ScenarioError> {
    const ACCEPTED: &str = "psync, sync, vsync, pvsync, pvsync2, libaio, io_uring, posixaio";
    match v {
        "pvsync" | "pvsync2" | "vsync" => return Ok(IoEngine::Psync),
        "posixaio" => return Ok(IoEngine::Libaio),
        _ => {}
    }
    IoEngine::ALL
        .iter()
        .find(|e| e.name() == v)
        .copied()
        .ok_or_else(|| {
            bad(
                key,
                v,
                "not modelled (the model is a local eMMC block device)",
                ACCEPTED,
            )
        })
}

pub(super) const IODEPTH: OptionRow = job!("iodepth", &[], "1..=1024", "I/Os outstanding per clone with libaio/io_uring (default 1)",
    example "8",
    set |j, k, v| j.iodepth = uint32(k, v1(v), 1, 1024)?,
    get |j| Some(j.iodepth.to_string()),
    reset |j| j.iodepth = JobSpec::default().iodepth,
    form form(GW, "iodepth", "Outstanding I/Os per job (libaio, io_uring)", Widget::Text { placeholder: "1" }));

pub(super) const IODEPTH_BATCH: OptionRow = job!("iodepth_batch_submit", &["iodepth_batch"], "0..=1024 (0 = iodepth)",
    "I/Os queued before one io_submit (libaio, io_uring); more than 2 are plugged and may merge (default 1)",
    example "8",
    set |j, k, v| j.iodepth_batch = uint32(k, v1(v), 0, 1024)?,
    get |j| (j.iodepth_batch != 1).then(|| j.iodepth_batch.to_string()),
    reset |j| j.iodepth_batch = JobSpec::default().iodepth_batch,
    form None);

pub(super) const IODEPTH_BATCH_COMPLETE_MIN: OptionRow = job!("iodepth_batch_complete_min", &["iodepth_batch_complete"], "0..=1024",
    "completions fio waits for before queueing again (libaio, io_uring; default 1)",
    example "8",
    set |j, k, v| j.iodepth_batch_complete_min = uint32(k, v1(v), 0, 1024)?,
    get |j| (j.iodepth_batch_complete_min != 1).then(|| j.iodepth_batch_complete_min.to_string()),
    reset |j| j.iodepth_batch_complete_min = JobSpec::default().iodepth_batch_complete_min,
    form None);

pub(super) const IOENGINE: OptionRow = job!("ioengine", &[], "psync, sync, vsync, pvsync, pvsync2, libaio, io_uring, posixaio",
    "psync/sync/vsync/pvsync/pvsync2: one I/O at a time; libaio/io_uring/posixaio: iodepth",
    example "libaio",
    set |j, k, v| j.ioengine = parse_ioengine(k, v1(v))?,
    get |j| Some(j.ioengine.name().to_string()),
    reset |j| j.ioengine = JobSpec::default().ioengine,
    form form(GW, "ioengine", "psync, sync: one I/O at a time per job", Widget::Choices(IOENGINE_NAMES)));

pub(super) const DIRECT: OptionRow = job!("direct", &[], "0|1", "O_DIRECT; direct=0 runs as direct I/O (the model has no page cache)",
    example "0",
    set |j, k, v| j.direct = flag(k, v)?,
    get |j| Some(b(j.direct)),
    reset |j| j.direct = JobSpec::default().direct,
    form None);

pub(super) const SYNC: OptionRow = job!("sync", &[], "0|1", "O_SYNC: every write carries REQ_FUA",
    example "1",
    set |j, k, v| {
        j.sync = match v1(v) {
            "sync" | "dsync" => true,
            "none" => false,
            _ => flag(k, v)?,
        }
    },
    get |j| Some(b(j.sync)),
    reset |j| j.sync = JobSpec::default().sync,
    form form(GA, "sync", "O_SYNC: every write carries REQ_FUA", Widget::Choices(OFF_ON)));

pub(super) const FSYNC: OptionRow = job!("fsync", &[], "0..", "issue a cache flush after every N writes (0 = never)",
    example "8",
    set |j, k, v| j.fsync = uint32(k, v1(v), 0, u32::MAX)?,
    get |j| Some(j.fsync.to_string()),
    reset |j| j.fsync = JobSpec::default().fsync,
    form form(GA, "fsync", "A cache flush after every N writes (0 = never)", Widget::Text { placeholder: "0" }));

/// `fs=`: mmcsim's own (fio writes to a file on whatever file system it is given; the model
/// has only the device, so this says which kernel path a synchronous write takes).
pub(super) const FS: OptionRow = job!("fs", &[], "raw, f2fs, f2fs-atomic",
    "what sync=1 writes and fsync=N send: raw (a block device: the write with REQ_FUA, then an empty flush), f2fs (a file on F2FS, as Linux 6.1's f2fs_sync_file: the data write, the file's node block written to the node log, then an empty flush; no REQ_FUA) or f2fs-atomic (as an F2FS atomic write's commit: the data write, then the node block with REQ_PREFLUSH|REQ_FUA) (mmcsim's own)",
    example "f2fs",
    set |j, k, v| j.fs = one_of(k, v1(v), &SyncModel::ALL, SyncModel::name, "not a modelled file system (raw is the block device itself)")?,
    get |j| (j.fs != SyncModel::Raw).then(|| j.fs.name().to_string()),
    reset |j| j.fs = SyncModel::Raw,
    form None);

pub(super) const FDATASYNC: OptionRow = job!("fdatasync", &[], "0..", "issue a cache flush after every N writes (as fsync on a block device)",
    example "4",
    set |j, k, v| j.fdatasync = uint32(k, v1(v), 0, u32::MAX)?,
    get |j| Some(j.fdatasync.to_string()),
    reset |j| j.fdatasync = 0,
    form None);

pub(super) const END_FSYNC: OptionRow = job_flag!(
    "end_fsync",
    end_fsync,
    &[],
    "issue a cache flush when the job's I/O is done"
);

pub(super) const FSYNC_ON_CLOSE: OptionRow = job_flag!(
    "fsync_on_close",
    fsync_on_close,
    &[],
    "issue a cache flush when the job closes its files"
);
