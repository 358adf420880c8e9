//! `fs=f2fs`: the job's file is on F2FS, and a synchronous write (`sync=1`) or an fsync
//! (`fsync=N`, `end_fsync`) sends what Linux 6.1's `f2fs_do_sync_file` (fs/f2fs/file.c) sends in
//! the default `fsync_mode=posix`: the data write (no REQ_FUA on a file), the file's node block
//! to the node log, then an empty flush (`f2fs_issue_flush`). With `fs=f2fs-atomic` the node
//! write carries REQ_PREFLUSH | REQ_FUA and no flush follows.
//!
//! The steps, what they simplify and why: docs/model-durability.md, "F2FS: what a sync sends".

use super::reap::DoneIo;
use super::{Job, SyncingWrite};
use crate::scenario::SyncModel;
use crate::sim::request::Request;
use crate::sim::{Event, Simulator};
use crate::vocab::{Op, Stage};

/// F2FS's block: every node block is one (`F2FS_BLKSIZE`).
pub const F2FS_BLKSIZE: u64 = 4096;

/// F2FS's segment (`BLKS_PER_SEG` x 4 KiB): the node log starts on a segment boundary.
const SEGMENT_BYTES: u64 = 2 << 20;

/// The node log: where the next node block goes.
#[derive(Clone, Copy, Debug, Default)]
pub struct NodeLog {
    next: Option<u64>,
}

impl Job {
    /// `fs=f2fs*`: its fsyncs go through `f2fs_do_sync_file`.
    pub(crate) fn f2fs(&self) -> bool {
        self.fs != SyncModel::Raw
    }
}

impl Simulator {
    /// The next node block's offset: the log starts one segment past the end of every job's
    /// region, rounded to a segment, and goes on sequentially.
    fn node_log_next(&mut self) -> u64 {
        let next = match self.node_log.next {
            Some(n) => n,
            None => {
                let end = self.jobs.iter().map(|j| j.base + j.region).max();
                end.unwrap_or(0).div_ceil(SEGMENT_BYTES) * SEGMENT_BYTES + SEGMENT_BYTES
            }
        };
        self.node_log.next = Some(next + F2FS_BLKSIZE);
        next
    }

    /// `f2fs_do_sync_file` for I/O `io` of job `job`: its data is written (`w` says what the
    /// system call returns when it is done); the node block goes next, `submit_ns` from now.
    pub(super) fn f2fs_sync_file(&mut self, job: u32, io: u64, cpu: u16, w: SyncingWrite) {
        let now = self.now;
        self.syncing.insert(io, w);
        let offset = self.node_log_next();
        let atomic = self.jobs[job as usize].fs == SyncModel::F2fsAtomic;
        let mut node = Request::new(
            self.next_req_id,
            io,
            job,
            Op::Write,
            offset,
            F2FS_BLKSIZE,
            atomic,
            cpu,
            now,
        );
        node.preflush = atomic;
        // Written by the syncing thread: its priority (`get_current_ioprio`).
        node.ioprio = self.jobs[job as usize].prio.thread();
        self.next_req_id += 1;
        let req = self.reqs.insert(node);
        self.trace_stage(req, Stage::Submit, now);
        let submit = self.platform.host.submit_ns;
        self.q.push(now + submit, Event::BlkMqInsert { req });
    }

    /// The node write of I/O `io` is done (`f2fs_wait_on_node_pages_writeback` returns):
    /// `f2fs_issue_flush`, or with `atomic` nothing more. A failed node write fails the system
    /// call.
    pub(super) fn f2fs_node_written(&mut self, job: u32, io: u64, cpu: u16, failed: bool) {
        if failed || self.jobs[job as usize].fs == SyncModel::F2fsAtomic {
            let w = self
                .syncing
                .remove(&io)
                .expect("the node write's I/O waits");
            let failed = failed || w.failed;
            let now = self.now;
            // A synchronous engine's write: the thread's priority (no command priority).
            let j = &mut self.jobs[job as usize];
            let io = DoneIo::new(w.t_issue, w.op, w.offset, w.len, failed, j.prio.thread());
            j.complete(now, io);
            return self.job_kick(job);
        }
        let submit = self.platform.host.submit_ns;
        self.insert_flush(job, io, cpu, submit);
    }

    /// An fsync of an `fs=f2fs` job (its data writes are done): the node write, then the flush.
    pub(super) fn f2fs_fsync(&mut self, j: u32) {
        let cpu = crate::path::blk_mq::job_cpu(j, self.platform.host.cpus);
        let w = SyncingWrite {
            t_issue: self.now,
            op: Op::Flush,
            offset: 0,
            len: 0,
            fua: false,
            failed: false,
        };
        self.f2fs_sync_file(j, self.next_req_id, cpu, w);
    }
}
