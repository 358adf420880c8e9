//! The kernel's mmc_test module (drivers/mmc/core/mmc_test.c), performance cases 37-44:
//! sequential transfers straight to the host, no blk-mq, no fio. 128 MiB per transfer size,
//! sizes 4 KiB, 8 KiB, 16 KiB, 32 KiB and the host's largest request.
//!
//! - 37/38: write, blocking / non-blocking; 39/40: read, blocking / non-blocking
//!   (`mmc_test_profile_seq_blocking_*` / `..._nonblock_*`: 4k to 4MB);
//! - 41-44: the same with 1 to 512 scatterlist elements; the model charges dma mapping per KiB,
//!   so they run like 37-40.
//!
//! Blocking (`mmc_test_area_io_seq` -> `mmc_wait_for_req`): prepare (map), start, wait for the
//! completion, unprepare (unmap), next. Non-blocking (`mmc_test_nonblock_transfer` with
//! `mmc_start_req`): the next request is prepared while the current one is on the bus; after the
//! completion the thread starts the prepared one and only then unprepares the finished one.
//! The test thread is one CPU: its steps run one after another.

use crate::report::{DirStats, JobReport};
use crate::sim::request::Request;
use crate::sim::{Event, ReqIdx, Simulator};
use crate::vocab::Op;
use crate::vocab::Stage;

/// What the test thread is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Thread {
    /// Not started: the first step prepares the first transfer.
    Start,
    /// Preparing (mapping) `req`; done at the pending MmcTestStep.
    Preparing(ReqIdx),
    /// Starting `req` on the host (non-blocking: after the previous completion).
    Starting(ReqIdx),
    /// Unpreparing (unmapping) the finished `req`.
    Unpreparing(ReqIdx),
    /// Sleeping in `mmc_wait_for_req_done` for the request on the bus.
    Waiting,
    /// Woken by the completion, running from `mmc_wait_for_req_done`.
    Waking,
    Finished,
}

/// The test thread (`struct mmc_test_card` and the loop of `mmc_test_area_io_seq`).
#[derive(Debug)]
pub struct MmcTest {
    write: bool,
    nonblocking: bool,
    sizes: Vec<u64>,
    bytes_per_size: u64,
    size_idx: usize,
    /// Transfers issued / finished for the current size.
    issued: u64,
    finished: u64,
    size_start: u64,
    thread: Thread,
    /// The request on the bus, and whether its transfer already completed.
    on_bus: Option<ReqIdx>,
    on_bus_done: bool,
    /// Prepared and waiting to start (non-blocking).
    prepared: Option<ReqIdx>,
    /// Transfer whose completion the thread has seen but not yet unprepared.
    finished_req: Option<ReqIdx>,
    reports: Vec<JobReport>,
    current: DirStats,
    /// Transfers of the current size that failed (retries exhausted).
    errors: u64,
}

/// Formats a transfer size as mmc_test's jobname: "4KiB", "63.5KiB".
pub fn size_name(bytes: u64) -> String {
    if bytes.is_multiple_of(1024) {
        format!("{}KiB", bytes / 1024)
    } else {
        let v = bytes as f64 / 1024.0;
        format!("{}KiB", (v * 10.0).round() / 10.0)
    }
}

impl MmcTest {
    /// Case 37..=44 on a host whose largest request is `max_req`.
    pub fn new(case: u32, max_req: u64, bytes_per_size: u64) -> MmcTest {
        let write = matches!(case, 37 | 38 | 41 | 42);
        let nonblocking = case.is_multiple_of(2);
        let mut sizes: Vec<u64> = [4096u64, 8192, 16384, 32768]
            .into_iter()
            .filter(|&s| s < max_req)
            .collect();
        sizes.push(max_req);
        MmcTest {
            write,
            nonblocking,
            sizes,
            bytes_per_size: bytes_per_size.max(1),
            size_idx: 0,
            issued: 0,
            finished: 0,
            size_start: 0,
            thread: Thread::Start,
            on_bus: None,
            on_bus_done: false,
            prepared: None,
            finished_req: None,
            reports: Vec::new(),
            current: DirStats::default(),
            errors: 0,
        }
    }

    fn size(&self) -> u64 {
        self.sizes[self.size_idx]
    }
    fn count(&self) -> u64 {
        (self.bytes_per_size / self.size()).max(1)
    }
    /// Bytes the whole test transfers (every size).
    pub fn total_bytes(&self) -> u64 {
        self.sizes.len() as u64 * self.bytes_per_size
    }
    /// One report per transfer size finished, as fio jobs.
    pub fn reports(&self) -> &[JobReport] {
        &self.reports
    }
    /// Writes completed (seen done by the test thread and recorded): what mmc_test was told is
    /// written.
    pub fn acked_writes(&self) -> u64 {
        if !self.write {
            return 0;
        }
        let done: u64 = self.reports.iter().map(|r| r.write.total_ios).sum();
        done + self.current.total_ios
    }

    /// The power failed at `now` with `failed` transfers in flight: the size in progress ends
    /// there, reported like a finished one (its failed transfers as errors), and the test stops.
    pub fn cut(&mut self, now: u64, failed: u64) {
        if self.size_idx >= self.sizes.len() {
            return;
        }
        self.errors += failed;
        if self.issued > 0 || self.current.total_ios > 0 || self.errors > 0 {
            self.close_size(now);
        }
        self.size_idx = self.sizes.len();
        self.thread = Thread::Finished;
    }

    /// Adds the report of the current size (its transfers so far).
    fn close_size(&mut self, now: u64) {
        let name = size_name(self.size());
        let stats = std::mem::take(&mut self.current);
        let (read, write) = if self.write {
            (DirStats::default(), stats)
        } else {
            (stats, DirStats::default())
        };
        let errors = std::mem::take(&mut self.errors);
        self.reports.push(JobReport {
            name,
            index: self.size_idx as u32,
            groupid: 0,
            read,
            write,
            trim: DirStats::default(),
            flushes: 0,
            errors,
            runtime_ns: now - self.size_start,
            ramp_ios: 0,
            ioprio: Default::default(),
        });
    }

    /// Bytes done over bytes to do, for progress.
    pub fn progress(&self) -> f64 {
        let per = 1.0 / self.sizes.len() as f64;
        let within = if self.size_idx < self.sizes.len() {
            self.finished as f64 / self.count() as f64
        } else {
            0.0
        };
        (self.size_idx as f64 + within) * per
    }
}

impl Simulator {
    fn mmc_test_mut(&mut self) -> &mut MmcTest {
        self.mmc_test.as_mut().expect("mmc_test running")
    }

    /// Starts the test thread at time 0 (with the first step, so tracing can be turned on).
    pub(crate) fn mmc_test_begin(&mut self) {
        self.q.push(0, Event::MmcTestStep);
    }

    /// Allocates the next sequential transfer and starts preparing it (start_ns + dma map).
    fn mmc_test_prepare_next(&mut self) {
        let t = self.mmc_test.as_ref().expect("mmc_test");
        if t.issued >= t.count() {
            let t = self.mmc_test_mut();
            t.thread = Thread::Waiting;
            return;
        }
        let (size, write, offset) = (t.size(), t.write, t.issued * t.size());
        let id = self.next_req_id;
        self.next_req_id += 1;
        let now = self.now;
        let job = self
            .mmc_test
            .as_ref()
            .map(|t| t.size_idx as u32)
            .unwrap_or(0);
        let op = if write { Op::Write } else { Op::Read };
        // The test thread hands it straight to the host: already past blk-mq and queue_rq.
        let mut r = Request::new(id, id, job, op, offset, size, false, 0, now);
        r.stage = Stage::Issue;
        r.in_mmc = true;
        r.from_mmc_test = true;
        let req = self.reqs.insert(r);
        self.trace_stage(req, Stage::Issue, now);
        let t = self.mmc_test_mut();
        t.issued += 1;
        t.thread = Thread::Preparing(req);
        let inflight = t.issued - t.finished;
        self.series.set_inflight(now, inflight);
        let blocking_start = if self.mmc_test.as_ref().map(|t| t.nonblocking) == Some(false) {
            self.platform.mmc_test.start_ns
        } else {
            0
        };
        let cost = self.dma_map_cost(req) + blocking_start;
        self.q.push(now + cost, Event::MmcTestStep);
    }

    /// `Event::MmcTestStep`: the thread finished its current step.
    pub(crate) fn mmc_test_step(&mut self) {
        let thread = self.mmc_test.as_ref().expect("mmc_test").thread;
        let nonblocking = self.mmc_test.as_ref().expect("mmc_test").nonblocking;
        match thread {
            Thread::Start => self.mmc_test_prepare_next(),
            Thread::Preparing(req) => {
                self.set_stage(req, Stage::HostQueue);
                if self.mmc_test.as_ref().expect("mmc_test").on_bus.is_none() {
                    if nonblocking {
                        // Nothing on the bus (first transfer): start it right away.
                        self.mmc_test_mut().thread = Thread::Starting(req);
                        let start = self.platform.mmc_test.start_ns;
                        self.q.push(self.now + start, Event::MmcTestStep);
                    } else {
                        self.mmc_test_start_on_host(req);
                        self.mmc_test_mut().thread = Thread::Waiting;
                    }
                } else {
                    // Non-blocking: prepared while the previous one is on the bus.
                    let t = self.mmc_test_mut();
                    t.prepared = Some(req);
                    if t.on_bus_done {
                        self.mmc_test_wake();
                    } else {
                        t.thread = Thread::Waiting;
                    }
                }
            }
            Thread::Starting(req) => {
                self.mmc_test_start_on_host(req);
                // Now unprepare the finished one (if any), else prepare the next.
                self.mmc_test_after_start();
            }
            Thread::Waking => {
                // Blocking: unprepare the finished transfer. Non-blocking: start the prepared one.
                let t = self.mmc_test.as_ref().expect("mmc_test");
                if nonblocking && t.prepared.is_some() {
                    let req = self.mmc_test_mut().prepared.take().expect("prepared");
                    self.mmc_test_mut().thread = Thread::Starting(req);
                    let start = self.platform.mmc_test.start_ns;
                    self.q.push(self.now + start, Event::MmcTestStep);
                } else {
                    self.mmc_test_after_start();
                }
            }
            Thread::Unpreparing(req) => {
                self.mmc_test_record(req);
                if !self.mmc_test_size_done() {
                    self.mmc_test_prepare_next();
                }
            }
            Thread::Waiting | Thread::Finished => {}
        }
    }

    fn mmc_test_start_on_host(&mut self, req: ReqIdx) {
        let t = self.mmc_test_mut();
        t.on_bus = Some(req);
        t.on_bus_done = false;
        self.legacy_request(req);
    }

    /// After a start: unprepare the previously finished transfer if there is one waiting.
    fn mmc_test_after_start(&mut self) {
        if let Some(done) = self.mmc_test_mut().finished_req.take() {
            let cost = self.dma_unmap_cost(done);
            self.mmc_test_mut().thread = Thread::Unpreparing(done);
            self.q.push(self.now + cost, Event::MmcTestStep);
        } else {
            self.mmc_test_prepare_next();
        }
    }

    /// The host's interrupt for an mmc_test transfer (`mmc_request_done` -> complete()).
    pub(crate) fn mmc_test_transfer_done(&mut self, req: ReqIdx) {
        let t = self.mmc_test_mut();
        debug_assert_eq!(t.on_bus, Some(req));
        t.on_bus = None;
        t.on_bus_done = true;
        t.finished_req = Some(req);
        if t.thread == Thread::Waiting {
            self.mmc_test_wake();
        }
    }

    /// The thread wakes from `mmc_wait_for_req_done`.
    fn mmc_test_wake(&mut self) {
        let t = self.mmc_test_mut();
        t.thread = Thread::Waking;
        t.on_bus_done = false;
        let wake = self.platform.mmc_test.wait_done_ns;
        self.q.push(self.now + wake, Event::MmcTestStep);
    }

    fn mmc_test_record(&mut self, req: ReqIdx) {
        self.set_stage(req, Stage::Done);
        let r = self.reqs.remove(req);
        let now = self.now;
        let t = self.mmc_test_mut();
        t.finished += 1;
        let inflight = t.issued - t.finished;
        self.series.set_inflight(now, inflight);
        let t = self.mmc_test_mut();
        if r.failed {
            t.errors += 1;
            return;
        }
        t.current.io_bytes += r.len;
        t.current.total_ios += 1;
        t.current.clat.record(now - r.t_issue);
        let start = t.size_start;
        t.current.runtime_ns = now - start;
        self.series.record_completion(now, r.len, r.op == Op::Write);
        self.bytes_done += r.len;
    }

    /// Closes the current size when all its transfers are recorded; starts the next size.
    /// Returns true when the thread moved on (or finished).
    fn mmc_test_size_done(&mut self) -> bool {
        let now = self.now;
        let t = self.mmc_test_mut();
        if t.finished < t.count() {
            return false;
        }
        t.close_size(now);
        t.size_idx += 1;
        t.issued = 0;
        t.finished = 0;
        t.size_start = now;
        if t.size_idx >= t.sizes.len() {
            t.thread = Thread::Finished;
            return true;
        }
        self.mmc_test_prepare_next();
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cases_choose_direction_blocking_and_sizes() {
        let t = MmcTest::new(37, 512 << 10, 1 << 20);
        assert!(t.write && !t.nonblocking);
        assert_eq!(t.sizes, vec![4096, 8192, 16384, 32768, 512 << 10]);
        assert_eq!(t.total_bytes(), 5 << 20);
        let t = MmcTest::new(40, 16384, 1 << 20);
        assert!(!t.write && t.nonblocking);
        assert_eq!(
            t.sizes,
            vec![4096, 8192, 16384],
            "sizes up to the largest request"
        );
        assert_eq!(t.progress(), 0.0);
    }

    #[test]
    fn size_names_read_like_mmc_test() {
        assert_eq!(size_name(4096), "4KiB");
        assert_eq!(size_name(65024), "63.5KiB");
    }
}
