//! Log rows (fio's `FIO_OPT_G_IOLOG` and `FIO_OPT_G_LOG`): trace replay, the iolog written and
//! the bandwidth, latency and IOPS logs.

use super::values::*;
use super::OptionRow;
use crate::scenario::error::ScenarioError;
use crate::scenario::iolog::ReplayEvents;

/// A log file option over the field `$field`: a prefix, or bare (or `1`) for the job's name.
macro_rules! log_file {
    ($name:literal, $field:ident, $help:literal) => {
        job!($name, &[], "flag or file prefix", $help,
            example "run",
            set |j, k, v| j.$field = Some(log_prefix(k, v)?),
            get |j| log_text(&j.$field),
            reset |j| j.$field = None,
            form None)
    };
}

/// A log option given bare (`write_bw_log`) is written back as the flag `1`.
fn log_text(v: &Option<String>) -> Option<String> {
    v.as_ref().map(|s| {
        if s.is_empty() {
            "1".to_string()
        } else {
            s.clone()
        }
    })
}

/// A log prefix, or none (bare, or `1`): fio then names the logs after the job.
fn log_prefix(key: &str, v: Option<&str>) -> Result<String, ScenarioError> {
    match v.map(str::trim) {
        None | Some("1") => Ok(String::new()),
        Some(p) => file_name(key, p),
    }
}

pub(super) const READ_IOLOG: OptionRow = job!("read_iolog", &[], "trace file (fio iolog v2/v3, blkparse text, binary blktrace, ftrace text, Perfetto trace)",
    "replay this trace instead of rw/bs/size",
    example "trace.log",
    set |j, k, v| j.read_iolog = Some(file_name(k, v1(v))?),
    get |j| opt_text(&j.read_iolog),
    reset |j| j.read_iolog = None,
    form None);

pub(super) const REPLAY_NO_STALL: OptionRow = job_flag!(
    "replay_no_stall",
    replay_no_stall,
    &[],
    "replay as fast as possible, ignoring the trace's times"
);

/// `replay_events=`: mmcsim's own (fio's blktrace replay reads `Q` events; its move to `D`
/// events in 2026 has no option name yet).
pub(super) const REPLAY_EVENTS: OptionRow = job!("replay_events", &[], "issue, queue",
    "which events of a kernel trace (blkparse, blktrace, ftrace, Perfetto) read_iolog replays: issue (D, block_rq_issue: the requests the driver got) or queue (Q, block_bio_queue: the bios submitted, each of the trace's plugs (block_plug..block_unplug) as one plugged batch, merged and split again by the model)",
    example "queue",
    set |j, k, v| j.replay_events = one_of(k, v1(v), &[ReplayEvents::Issue, ReplayEvents::Queue], ReplayEvents::name, "replayed events")?,
    get |j| Some(j.replay_events.name().to_string()),
    reset |j| j.replay_events = ReplayEvents::Issue,
    form None);

pub(super) const WRITE_IOLOG: OptionRow = job!("write_iolog", &[], "file", "write the I/Os issued as a fio iolog v2 file",
    example "out.iolog",
    set |j, k, v| j.write_iolog = Some(file_name(k, v1(v))?),
    get |j| opt_text(&j.write_iolog),
    reset |j| j.write_iolog = None,
    form None);

pub(super) const WRITE_BW_LOG: OptionRow = log_file!(
    "write_bw_log",
    write_bw_log,
    "write PREFIX_bw.N.log (KiB/s per I/O or per log_avg_msec)"
);

pub(super) const WRITE_LAT_LOG: OptionRow = log_file!(
    "write_lat_log",
    write_lat_log,
    "write PREFIX_{lat,clat,slat}.N.log (ns)"
);

pub(super) const WRITE_IOPS_LOG: OptionRow =
    log_file!("write_iops_log", write_iops_log, "write PREFIX_iops.N.log");

pub(super) const LOG_AVG_MSEC: OptionRow = job!("log_avg_msec", &[], "0..=86400000", "average log entries over windows of this many ms (0 = every I/O)",
    example "10",
    set |j, k, v| j.log_avg_msec = uint32(k, v1(v), 0, 86_400_000)?,
    get |j| Some(j.log_avg_msec.to_string()),
    reset |j| j.log_avg_msec = 0,
    form None);
