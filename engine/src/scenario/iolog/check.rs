//! What a kernel trace says of itself, kept beside its I/Os so that a replay can be checked
//! against it: the issue-to-complete time of each request the trace saw issued and completed
//! (blkparse `D` then `C`, `block_rq_issue` then `block_rq_complete`: the driver's
//! `blk_mq_start_request` to `blk_update_request`), the span from its first event to its last
//! completion, the kernel it names (a `# ... kernel 6.1.0-57-amd64` header, Perfetto's
//! `SystemInfo.utsname.release`), and its plugs: the bios a task queued between `block_plug`
//! (`blk_add_rq_to_plug` fires it when the plug gets its first request, after that request's
//! bio was queued) and `block_unplug` (`blk_mq_flush_plug_list`), marked on the queue events so
//! that `replay_events=queue` submits them as one plugged batch.

use super::{IoLog, LogOp, LogOpKind, LogPlug};
use crate::board::KernelVersion;
use crate::metrics::histogram::LatencyHistogram;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, VecDeque};

/// A kernel trace's own figures (all zero or none for a fio iolog).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TraceMeta {
    /// Issue-to-complete of the data requests (reads, writes, discards) the trace saw issued and
    /// completed; None when it has no completions.
    pub d2c: Option<TraceD2c>,
    /// The kernel release the trace names (`6.1.0-57-amd64`), if it names one.
    pub kernel: Option<String>,
    /// ns from the trace's first I/O event to its last completion (0 without completions).
    pub span_ns: u64,
    /// Plugged batches marked on the queue events (`block_plug` .. `block_unplug`).
    pub plugs: u64,
}

/// The trace's issue-to-complete times, summed up with the model's own histogram (fio's
/// buckets), so that both sides' percentiles are computed alike.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TraceD2c {
    pub requests: u64,
    pub p50_ns: u64,
    pub p99_ns: u64,
    pub mean_ns: u64,
}

/// A request as its issue and completion events name it: operation and first sector (a
/// partial completion names the request's start and the bytes done).
type Key = (u8, u64);

/// Reads the completions and plugs as the events go by ([`super::block::Events`]).
#[derive(Default)]
pub(super) struct Tracker {
    issued: HashMap<Key, VecDeque<u64>>,
    d2c: LatencyHistogram,
    first: Option<u64>,
    last_complete: u64,
    /// The task of each queue event so far (parallel to the log's `queued`).
    queue_task: Vec<Option<u64>>,
    /// Per task, the index in `queued` of its open plug's first bio.
    open: HashMap<u64, usize>,
    plugs: u64,
}

fn key(o: &LogOp) -> Key {
    (o.kind as u8, o.offset)
}

impl Tracker {
    pub(super) fn seen(&mut self, t_ns: u64) {
        self.first = Some(self.first.map_or(t_ns, |f| f.min(t_ns)));
    }

    pub(super) fn issue(&mut self, o: &LogOp) {
        if o.kind != LogOpKind::Flush {
            self.issued.entry(key(o)).or_default().push_back(o.t_ns);
        }
    }

    /// A requeue takes the request's latest issue back.
    pub(super) fn requeue(&mut self, o: &LogOp) {
        if let Some(q) = self.issued.get_mut(&key(o)) {
            q.pop_back();
        }
    }

    /// A completion ends the oldest issue of the same request not yet completed.
    pub(super) fn complete(&mut self, o: &LogOp) {
        if o.kind == LogOpKind::Flush {
            return;
        }
        if let Some(t) = self.issued.get_mut(&key(o)).and_then(|q| q.pop_front()) {
            self.d2c.record(o.t_ns.saturating_sub(t));
            self.last_complete = self.last_complete.max(o.t_ns);
        }
    }

    /// A queue event of `task` was pushed at `queued[at..]`.
    pub(super) fn queued(&mut self, task: Option<u64>, len: usize) {
        self.queue_task.resize(len, task);
    }

    /// `block_plug` of `task`: its plug got its first request, whose bio is the task's latest
    /// queue event.
    pub(super) fn plug(&mut self, task: Option<u64>) {
        let Some(t) = task else { return };
        let first = self.queue_task.iter().rposition(|&q| q == Some(t));
        let at = first.unwrap_or(self.queue_task.len());
        self.open.insert(t, at);
    }

    /// `block_unplug` of `task`: the task's bios since its plug opened are one batch.
    pub(super) fn unplug(&mut self, task: Option<u64>, queued: &mut [LogOp]) {
        let Some(t) = task else { return };
        let Some(at) = self.open.remove(&t) else {
            return;
        };
        let mine: Vec<usize> = (at..queued.len().min(self.queue_task.len()))
            .filter(|&i| self.queue_task[i] == Some(t) && queued[i].plug == LogPlug::None)
            .collect();
        if let Some((&last, rest)) = mine.split_last() {
            rest.iter().for_each(|&i| queued[i].plug = LogPlug::Open);
            queued[last].plug = LogPlug::Last;
            self.plugs += 1;
        }
    }

    pub(super) fn finish(self, meta: &mut TraceMeta) {
        let h = &self.d2c;
        if h.count() > 0 {
            meta.d2c = Some(TraceD2c {
                requests: h.count(),
                p50_ns: h.percentile(50.0),
                p99_ns: h.percentile(99.0),
                mean_ns: h.mean().round() as u64,
            });
            meta.span_ns = self.last_complete.saturating_sub(self.first.unwrap_or(0));
        }
        meta.plugs = self.plugs;
    }
}

/// mmc_blk's block major (`MMC_BLOCK_MAJOR`, include/linux/major.h): the board's card is
/// `mmcblk0`, 179,0.
pub const MMC_BLOCK_MAJOR: u32 = 179;

impl IoLog {
    /// Where the trace's machine differs from the board it is replayed on: its device is not an
    /// MMC card (another major than mmc_blk's), or the kernel it names is another `major.minor`
    /// than the board's `kernel`. One warning each (a trace names no device size: none of the
    /// formats carries one).
    pub fn board_differences(&self, kernel: KernelVersion) -> Vec<String> {
        let mut w = Vec::new();
        let name = super::super::error::clip(&self.name);
        if let Some((maj, min)) = self.dev.filter(|d| d.0 != MMC_BLOCK_MAJOR) {
            w.push(format!(
                "read_iolog: '{name}' is a trace of device {maj},{min}, not an MMC card (mmc_blk's major is {MMC_BLOCK_MAJOR}: the board's card is mmcblk0, {MMC_BLOCK_MAJOR},0); its requests replay on the board's card, its timing was another device's"
            ));
        }
        let traced = self.meta.kernel.as_deref();
        if let Some((release, v)) = traced.and_then(|r| Some((r, version_of(r)?))) {
            if v != kernel {
                w.push(format!(
                    "read_iolog: '{name}' was recorded on Linux {release}; the board runs Linux {kernel} (kernel={v} replays it under the trace's kernel)"
                ));
            }
        }
        w
    }
}

/// `6.1` of `6.1.0-57-amd64`.
fn version_of(release: &str) -> Option<KernelVersion> {
    let mut parts = release.split(|c: char| !c.is_ascii_digit());
    KernelVersion::parse(&format!("{}.{}", parts.next()?, parts.next()?))
}

/// The kernel release a header line names: the word after `kernel`, `Linux` or `release`,
/// when it starts as a version does (`6.1.0-57-amd64`, `6.12.117+deb13-amd64`).
pub(super) fn kernel_of_header(line: &str) -> Option<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    words.windows(2).find_map(|w| {
        let named = ["kernel", "linux", "release", "uname_r"].contains(
            &w[0]
                .trim_end_matches([':', '='])
                .to_ascii_lowercase()
                .as_str(),
        );
        let v = w[1].trim_end_matches([',', ';', '|', ')']);
        (named && is_release(v)).then(|| v.to_string())
    })
}

/// `6.1...`: digits, a dot, a digit.
pub(super) fn is_release(v: &str) -> bool {
    let (major, rest) = v.split_once('.').unwrap_or((v, ""));
    !major.is_empty()
        && major.bytes().all(|b| b.is_ascii_digit())
        && rest.bytes().next().is_some_and(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_header_names_its_kernel() {
        let oracle = "# oracle ftrace: job x, scheduler mq-deadline, 1 vCPU, device mmcblk0, kernel 6.1.0-57-amd64 | #1 SMP";
        assert_eq!(kernel_of_header(oracle).as_deref(), Some("6.1.0-57-amd64"));
        assert_eq!(
            kernel_of_header("# Linux 6.12.117+deb13-amd64").as_deref(),
            Some("6.12.117+deb13-amd64")
        );
        assert_eq!(kernel_of_header("# tracer: nop"), None);
        assert_eq!(kernel_of_header("# kernel threads: 3"), None);
    }

    #[test]
    fn a_trace_of_another_device_or_kernel_is_said() {
        let mut l = super::super::parse("t", "179,0 0 1 0.1 9 D WS 0 + 8 [fio]\n").unwrap();
        let k61 = KernelVersion::new(6, 1);
        assert!(l.board_differences(k61).is_empty());
        l.meta.kernel = Some("6.12.117+deb13-amd64".into());
        let w = l.board_differences(k61);
        assert_eq!(w, ["read_iolog: 't' was recorded on Linux 6.12.117+deb13-amd64; the board runs Linux 6.1 (kernel=6.12 replays it under the trace's kernel)"]);
        assert!(l.board_differences(KernelVersion::new(6, 12)).is_empty());
        l.dev = Some((254, 0));
        let w = l.board_differences(KernelVersion::new(6, 12));
        assert!(w[0].contains("device 254,0, not an MMC card"), "{w:?}");
    }

    /// blkparse: a task's bios between its `P` and `U` are one plug (the bio queued just before
    /// the `P` is the plug's first request); `D` .. `C` pairs give the trace's own latency.
    #[test]
    fn blkparse_plugs_and_completions_are_read() {
        let bp = "\
  179,0 0 1 0.000100000 900 Q WS 0 + 8 [fio]
  179,0 0 2 0.000101000 900 G WS 0 + 8 [fio]
  179,0 0 3 0.000102000 900 P N [fio]
  179,0 0 4 0.000103000 900 Q WS 8 + 8 [fio]
  179,0 0 5 0.000104000 900 M WS 8 + 8 [fio]
  179,0 0 6 0.000105000 900 U N [fio] 1
  179,0 0 7 0.000110000 900 Q WS 100 + 8 [fio]
  179,0 0 8 0.000200000 38 D WS 0 + 16 [kworker]
  179,0 0 9 0.000300000 38 D WS 100 + 8 [kworker]
  179,0 0 10 0.000500000 0 C WS 100 + 8 [0]
  179,0 0 11 0.001200000 0 C WS 0 + 16 [0]
";
        let l = super::super::parse("p", bp).unwrap();
        let plugs: Vec<LogPlug> = l.queued.iter().map(|o| o.plug).collect();
        assert_eq!(plugs, [LogPlug::Open, LogPlug::Last, LogPlug::None]);
        assert_eq!(l.meta.plugs, 1);
        let d = l.meta.d2c.unwrap();
        assert_eq!((d.requests, d.mean_ns), (2, 600_000));
        assert_eq!(l.meta.span_ns, 1_100_000);
        assert!(l.ops.iter().all(|o| o.plug == LogPlug::None));
    }

    /// Binary blktrace: `__BLK_TA_PLUG` / `__BLK_TA_UNPLUG_IO` of the record's pid, and
    /// `__BLK_TA_COMPLETE`.
    #[test]
    fn blktrace_plugs_and_completions_are_read() {
        use super::super::blktrace::tests::record;
        const W: u32 = 1 << 1 << 16;
        let dev = 179 << 20;
        let recs = [
            record(100, 1 | W, 0, 4096, dev, 0),
            record(101, 9, 0, 0, dev, 0),
            record(102, 1 | W, 8, 4096, dev, 0),
            record(103, 10, 0, 0, dev, 0),
            record(200, 7 | W, 0, 8192, dev, 0),
            record(1200, 8 | W, 0, 8192, dev, 0),
        ]
        .concat();
        let l = super::super::parse_bytes("b.blktrace.0", &recs).unwrap();
        let plugs: Vec<LogPlug> = l.queued.iter().map(|o| o.plug).collect();
        assert_eq!(plugs, [LogPlug::Open, LogPlug::Last]);
        assert_eq!(l.meta.d2c.map(|d| (d.requests, d.mean_ns)), Some((1, 1000)));
    }
}
