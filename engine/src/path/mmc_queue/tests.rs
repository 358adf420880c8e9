use super::*;
use crate::vocab::{CQE_TASKS, HSQ_PACKED_QUEUE_DEPTH, HSQ_PERFORMANCE_DEPTH};

const HSQ: HostPath = HostPath::Hsq { packed: false };

#[test]
fn the_window_follows_the_host_queue() {
    let hsq = |d, packed| MmcQueue::new(HostPath::Hsq { packed }, d).window();
    assert_eq!(hsq(HsqDepth::Fixed(1), false), 2);
    assert_eq!(hsq(HsqDepth::Dynamic, false), HSQ_NORMAL_DEPTH + 1);
    assert_eq!(hsq(HsqDepth::Fixed(1), true), HSQ_PACKED_QUEUE_DEPTH);
    let legacy =
        |nonblocking| MmcQueue::new(HostPath::Legacy { nonblocking }, HsqDepth::Fixed(1)).window();
    assert_eq!((legacy(false), legacy(true)), (1, 2));
    let cqe = MmcQueue::new(CQE_EMMC, HsqDepth::Fixed(1));
    assert_eq!(cqe.window(), CQE_TASKS);
}

const CQE_EMMC: HostPath = HostPath::Cqe {
    tags: CQE_TASKS as u16,
    dcmd: true,
    max_posted_writes: 32,
};
const CQE_SD: HostPath = HostPath::Cqe {
    tags: CQE_TASKS as u16,
    dcmd: false,
    max_posted_writes: 1,
};

#[test]
fn the_cqe_refuses_no_read_or_write_for_depth_the_tags_bound_it() {
    let mut q = MmcQueue::new(CQE_EMMC, HsqDepth::Fixed(1));
    for i in 0..2 * CQE_TASKS {
        let op = if i % 2 == 0 { Op::Read } else { Op::Write };
        assert!(ok(q.try_queue(op)), "request {i}");
        q.issue_done();
    }
}

#[test]
fn a_dcmd_flush_queues_beside_the_data_one_at_a_time() {
    let mut q = MmcQueue::new(CQE_EMMC, HsqDepth::Fixed(1));
    assert!(ok(q.try_queue(Op::Write)));
    assert!(ok(q.try_queue(Op::Read)));
    assert_eq!(q.issue_type(Op::Flush), MmcIssueType::Dcmd);
    assert!(ok(q.try_queue(Op::Flush)), "no drain before a DCMD");
    assert_eq!(
        q.try_queue(Op::Flush),
        QueueRq::Resource,
        "mmc_cqe_dcmd_busy"
    );
    assert!(ok(q.try_queue(Op::Read)), "data goes on beside the flush");
    assert_eq!(
        q.try_queue(Op::Discard),
        QueueRq::Sleeps,
        "a discard waits for idle"
    );
    q.complete(Op::Flush);
    assert!(ok(q.try_queue(Op::Flush)));
    assert_eq!(q.total_in_flight(), 4);
}

#[test]
fn on_sd_one_write_is_queued_at_a_time_and_a_flush_waits_for_idle() {
    let mut q = MmcQueue::new(CQE_SD, HsqDepth::Fixed(1));
    assert!(ok(q.try_queue(Op::Write)));
    assert_eq!(
        q.try_queue(Op::Write),
        QueueRq::Resource,
        "max_posted_writes = 1"
    );
    for _ in 0..8 {
        assert!(ok(q.try_queue(Op::Read)), "reads queue beside the write");
    }
    assert_eq!(q.issue_type(Op::Flush), MmcIssueType::Sync, "no DCMD on SD");
    assert_eq!(q.try_queue(Op::Flush), QueueRq::Sleeps);
    q.complete(Op::Write);
    assert!(
        ok(q.try_queue(Op::Write)),
        "the write completed: the next one goes"
    );
    assert_eq!(q.pending_writes(), 1);
}

#[test]
fn queue_rq_refuses_when_the_window_is_full() {
    let mut q = MmcQueue::new(HSQ, HsqDepth::Fixed(1));
    assert!(ok(q.try_queue(Op::Write)));
    assert!(q.busy());
    q.issue_done();
    assert!(!q.busy());
    assert!(ok(q.try_queue(Op::Read)));
    assert_eq!(
        q.try_queue(Op::Write),
        QueueRq::Resource,
        "window of 2 is full"
    );
    q.set_hsq_depth(HSQ_PERFORMANCE_DEPTH);
    assert!(
        ok(q.try_queue(Op::Write)),
        "a deeper threshold opens the window"
    );
    assert_eq!(q.total_in_flight(), 3);
}

#[test]
fn a_flush_waits_for_everything_and_blocks_everything() {
    let mut q = MmcQueue::new(HSQ, HsqDepth::Fixed(4));
    assert!(ok(q.try_queue(Op::Write)));
    assert_eq!(
        q.try_queue(Op::Flush),
        QueueRq::Sleeps,
        "a write is in flight"
    );
    q.complete(Op::Write);
    assert!(ok(q.try_queue(Op::Flush)));
    assert_eq!(
        q.try_queue(Op::Read),
        QueueRq::Sleeps,
        "the flush is in flight"
    );
    q.complete(Op::Flush);
    assert_eq!(q.total_in_flight(), 0);
    assert!(ok(q.try_queue(Op::Read)));
}

#[test]
fn a_discard_is_synchronous_like_a_flush() {
    let mut q = MmcQueue::new(HSQ, HsqDepth::Fixed(4));
    assert!(ok(q.try_queue(Op::Read)));
    assert_eq!(
        q.try_queue(Op::Discard),
        QueueRq::Sleeps,
        "a read is in flight"
    );
    q.complete(Op::Read);
    assert!(ok(q.try_queue(Op::Discard)));
    assert_eq!(
        q.try_queue(Op::Write),
        QueueRq::Sleeps,
        "the discard is in flight"
    );
    q.complete(Op::Discard);
    assert!(ok(q.try_queue(Op::Write)));
}

#[test]
fn the_legacy_path_sleeps_where_hsq_refuses() {
    let mut q = MmcQueue::new(HostPath::Legacy { nonblocking: true }, HsqDepth::Fixed(2));
    assert!(ok(q.try_queue(Op::Write)));
    assert!(ok(q.try_queue(Op::Write)));
    assert_eq!(q.try_queue(Op::Write), QueueRq::Sleeps, "mmc_blk_rw_wait");
}

fn ok(r: QueueRq) -> bool {
    matches!(r, QueueRq::Issued(_))
}
