//! fio's per-job log files, from the I/O records the engine keeps for jobs that ask for them:
//! `write_iolog=FILE` (fio iolog v2, replayable with `read_iolog=`) and
//! `write_bw_log=` / `write_lat_log=` / `write_iops_log=PREFIX` (fio's log format, HOWTO "Log
//! File Formats": `time (msec), value, data direction, block size (bytes), offset (bytes)`).
//!
//! Without `log_avg_msec` there is one entry per I/O: latency in ns, the I/O's own bandwidth in
//! KiB/s (its bytes over its latency), an IOPS entry of 1. With `log_avg_msec=W`, one entry per
//! direction per W ms window: the mean latency, the KiB/s and the I/Os per second completed in
//! the window, block size 0, as fio averages. Times are ms from the job's statistics start
//! (after `ramp_time`); files are numbered by job clone from 1, as fio's `per_job_logs`.

use mmcsim_engine::{IoRecord, JobSpec, Op, QueuedIo, Scenario, Simulator};
use std::fmt::Write;

/// The device every iolog line names.
const DEVICE: &str = "/dev/mmcblk0";

/// What one of a clone's log files holds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Content {
    Iolog,
    Log(Kind),
}

/// The log files job clone `i` (of section `spec`, clone `k` of its section) writes: (option,
/// file, content), named as fio names them: `write_iolog=FILE` as FILE for a section's first
/// clone and FILE.k for the others, `PREFIX_lat.N.log` (and `_clat`, `_slat`, `_bw`, `_iops`)
/// with N the clone's number from 1 over the run.
fn files_of(spec: &JobSpec, i: usize, k: usize) -> Vec<(&'static str, String, Content)> {
    let mut files = Vec::new();
    if let Some(file) = &spec.write_iolog {
        let path = if k == 0 {
            file.clone()
        } else {
            format!("{file}.{k}")
        };
        files.push(("write_iolog", path, Content::Iolog));
    }
    let n = i + 1;
    // A bare `write_bw_log` names the logs after the job, as fio does.
    let prefix = |p: &String| {
        if p.is_empty() {
            spec.name.clone()
        } else {
            p.clone()
        }
    };
    if let Some(p) = spec.write_lat_log.as_ref().map(prefix) {
        for (log, kind) in [
            ("lat", Kind::Lat),
            ("clat", Kind::Lat),
            ("slat", Kind::Slat),
        ] {
            files.push((
                "write_lat_log",
                format!("{p}_{log}.{n}.log"),
                Content::Log(kind),
            ));
        }
    }
    if let Some(p) = spec.write_bw_log.as_ref().map(prefix) {
        files.push((
            "write_bw_log",
            format!("{p}_bw.{n}.log"),
            Content::Log(Kind::Bw),
        ));
    }
    if let Some(p) = spec.write_iops_log.as_ref().map(prefix) {
        files.push((
            "write_iops_log",
            format!("{p}_iops.{n}.log"),
            Content::Log(Kind::Iops),
        ));
    }
    files
}

/// Each job clone's section and its clone number within the section.
fn clones_of(scn: &Scenario) -> impl Iterator<Item = (&JobSpec, usize)> {
    scn.jobs
        .iter()
        .flat_map(|j| (0..j.numjobs as usize).map(move |k| (j, k)))
}

/// Every log file the scenario's jobs will write, (option, file), in the order they are
/// written (none for `mmc_test`, which writes no logs).
pub fn outputs(scn: &Scenario) -> Vec<(String, String)> {
    if scn.mmc_test.is_some() {
        return Vec::new();
    }
    clones_of(scn)
        .enumerate()
        .flat_map(|(i, (spec, k))| files_of(spec, i, k))
        .map(|(opt, path, _)| (opt.to_string(), path))
        .collect()
}

/// The log files of a run, open while it goes: each job clone's files, written as the engine
/// hands over what it logged ([`Simulator::take_job_logs`]), so memory stays that of a stretch
/// of the run whatever its I/O count.
pub struct Logs {
    /// Per job clone: its files.
    clones: Vec<Vec<LogFile>>,
}

/// One open log file.
struct LogFile {
    opt: &'static str,
    path: String,
    out: std::io::BufWriter<std::fs::File>,
    content: Content,
    avg_ns: u64,
    /// The averaging window being summed (`log_avg_msec`).
    win: Option<Window>,
}

/// A window of `log_avg_msec`: its index and (count, bytes, latency sum) per direction.
type Window = (u64, [(u64, u64, u64); 2]);

/// Events between two hand-overs of the logs.
pub const CHUNK_EVENTS: u64 = 1 << 20;

impl Logs {
    /// Creates every log file the scenario's jobs ask for (none for `mmc_test`, which writes no
    /// logs); an iolog gets its header.
    pub fn create(scn: &Scenario) -> Result<Logs, String> {
        let mut clones = Vec::new();
        if scn.mmc_test.is_none() {
            for (i, (spec, k)) in clones_of(scn).enumerate() {
                let mut files = Vec::new();
                for (opt, path, content) in files_of(spec, i, k) {
                    let f =
                        std::fs::File::create(&path).map_err(|e| format!("{opt} '{path}': {e}"))?;
                    let mut file = LogFile {
                        opt,
                        path,
                        out: std::io::BufWriter::new(f),
                        content,
                        avg_ns: u64::from(spec.log_avg_msec) * 1_000_000,
                        win: None,
                    };
                    if content == Content::Iolog {
                        file.put(IOLOG_HEAD)?;
                    }
                    files.push(file);
                }
                clones.push(files);
            }
        }
        Ok(Logs { clones })
    }

    /// Whether any job writes a log.
    pub fn any(&self) -> bool {
        self.clones.iter().any(|c| !c.is_empty())
    }

    /// Writes what the jobs logged since the last take.
    pub fn take(&mut self, sim: &mut Simulator) -> Result<(), String> {
        for (i, files) in self.clones.iter_mut().enumerate().take(sim.job_count()) {
            if files.is_empty() {
                continue;
            }
            let Some((t0, recs, queued)) = sim.take_job_logs(i) else {
                continue;
            };
            for f in files.iter_mut() {
                let mut text = String::new();
                match f.content {
                    Content::Iolog => iolog_lines(&mut text, &queued),
                    Content::Log(kind) => {
                        log_lines(&mut text, &recs, t0, f.avg_ns, kind, &mut f.win)
                    }
                }
                f.put(&text)?;
            }
        }
        Ok(())
    }

    /// The run is over: the last of what was logged, the last window, an iolog's close.
    pub fn finish(mut self, sim: &mut Simulator) -> Result<(), String> {
        use std::io::Write as _;
        self.take(sim)?;
        for f in self.clones.iter_mut().flatten() {
            let mut text = String::new();
            match f.content {
                Content::Iolog => {
                    let _ = writeln!(text, "{DEVICE} close");
                }
                Content::Log(kind) => end_window(&mut text, f.avg_ns, kind, f.win.take()),
            }
            f.put(&text)?;
            f.out
                .flush()
                .map_err(|e| format!("{} '{}': {}", f.opt, f.path, e))?;
        }
        Ok(())
    }
}

impl LogFile {
    fn put(&mut self, text: &str) -> Result<(), String> {
        use std::io::Write as _;
        self.out
            .write_all(text.as_bytes())
            .map_err(|e| format!("{} '{}': {}", self.opt, self.path, e))
    }
}

/// An iolog v2's first lines.
const IOLOG_HEAD: &str = "fio version 2 iolog\n/dev/mmcblk0 add\n/dev/mmcblk0 open\n";

/// fio iolog v2 lines of the I/Os in the order they were queued.
fn iolog_lines(out: &mut String, queued: &[QueuedIo]) {
    for q in queued {
        let _ = match q.op {
            Op::Flush => writeln!(out, "{DEVICE} sync 0 0"),
            op => writeln!(out, "{DEVICE} {} {} {}", op.name(), q.offset, q.len),
        };
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Lat,
    Slat,
    Bw,
    Iops,
}

fn ddir(op: Op) -> Option<u32> {
    match op {
        Op::Read => Some(0),
        Op::Write => Some(1),
        Op::Discard => Some(2),
        Op::Flush => None,
    }
}

/// Log lines in fio's format of records `recs` (in completion order), `t0` the statistics
/// start; with `avg_ns` the records are summed into windows, `win` the one still open (written
/// once a record of a later window arrives, or by [`end_window`]).
fn log_lines(
    out: &mut String,
    recs: &[IoRecord],
    t0: u64,
    avg_ns: u64,
    kind: Kind,
    win: &mut Option<Window>,
) {
    let recs = recs.iter().filter(|r| r.counted && ddir(r.op).is_some());
    if avg_ns == 0 {
        for r in recs {
            let lat = r.t_done - r.t_issue;
            let value = match kind {
                Kind::Lat => lat,
                Kind::Slat => 0,
                Kind::Bw => (r.len as u128 * 1_000_000_000 / 1024 / u128::from(lat.max(1))) as u64,
                Kind::Iops => 1,
            };
            let ms = (r.t_done - t0) / 1_000_000;
            let d = ddir(r.op).unwrap_or(0);
            let _ = writeln!(out, "{ms}, {value}, {d}, {}, {}", r.len, r.offset);
        }
        return;
    }
    for r in recs {
        let w = (r.t_done - t0) / avg_ns;
        if win.is_some_and(|(at, _)| at != w) {
            end_window(out, avg_ns, kind, win.take());
        }
        let (_, dirs) = win.get_or_insert((w, [(0, 0, 0); 2]));
        let e = &mut dirs[ddir(r.op).unwrap_or(0) as usize];
        e.0 += 1;
        e.1 += r.len;
        e.2 += r.t_done - r.t_issue;
    }
}

/// The lines of a finished window: its mean latency, KiB/s and I/Os per second per direction
/// that completed I/Os in it, block size 0, as fio averages.
fn end_window(out: &mut String, avg_ns: u64, kind: Kind, win: Option<Window>) {
    let Some((w, dirs)) = win else {
        return;
    };
    let ms = (w + 1) * avg_ns / 1_000_000;
    for (d, &(count, bytes, lat_sum)) in dirs.iter().enumerate() {
        if count == 0 {
            continue;
        }
        let value = match kind {
            Kind::Lat => lat_sum / count,
            Kind::Slat => 0,
            Kind::Bw => (bytes as u128 * 1_000_000_000 / 1024 / u128::from(avg_ns)) as u64,
            Kind::Iops => (count as u128 * 1_000_000_000 / u128::from(avg_ns)) as u64,
        };
        let _ = writeln!(out, "{ms}, {value}, {d}, 0, 0");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(t_issue: u64, t_done: u64, op: Op, offset: u64) -> IoRecord {
        IoRecord {
            t_issue,
            t_done,
            op,
            offset,
            len: 4096,
            counted: true,
        }
    }

    /// A whole log of `recs` in one take.
    fn log(recs: &[IoRecord], t0: u64, avg_ns: u64, kind: Kind) -> String {
        let (mut out, mut win) = (String::new(), None);
        log_lines(&mut out, recs, t0, avg_ns, kind, &mut win);
        end_window(&mut out, avg_ns, kind, win);
        out
    }

    #[test]
    fn logs_are_in_fios_format() {
        let recs = [
            rec(0, 1_000_000, Op::Write, 0),
            rec(1_000_000, 3_000_000, Op::Read, 4096),
            rec(3_000_000, 3_500_000, Op::Flush, 0),
        ];
        assert_eq!(
            log(&recs, 0, 0, Kind::Lat),
            "1, 1000000, 1, 4096, 0\n3, 2000000, 0, 4096, 4096\n"
        );
        assert_eq!(
            log(&recs, 0, 0, Kind::Bw),
            "1, 4000, 1, 4096, 0\n3, 2000, 0, 4096, 4096\n"
        );
        assert_eq!(
            log(&recs, 0, 2_000_000, Kind::Iops),
            "2, 500, 1, 0, 0\n4, 500, 0, 0, 0\n"
        );
        let q = |op, offset| QueuedIo {
            op,
            offset,
            len: 4096,
        };
        let mut v2 = IOLOG_HEAD.to_string();
        iolog_lines(
            &mut v2,
            &[q(Op::Write, 0), q(Op::Read, 4096), q(Op::Flush, 0)],
        );
        assert!(v2.starts_with("fio version 2 iolog\n/dev/mmcblk0 add\n"));
        assert!(v2.contains("/dev/mmcblk0 read 4096 4096\n/dev/mmcblk0 sync 0 0\n"));
        let back = mmcsim_engine::scenario::iolog::parse("x", &v2).unwrap();
        assert_eq!(back.ops.len(), 3);
    }
}
