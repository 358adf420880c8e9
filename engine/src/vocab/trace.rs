//! Trace events: where a request is, and when it got there. The UI animates these and the
//! exporters turn them into timelines.

/// The stages of a request's life, in kernel-path order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Stage {
    /// fio's system call, bio build and blk-mq insert (`blk_mq_submit_bio`).
    Submit,
    /// Waiting in blk-mq: no tag, or on `hctx->dispatch` after BLK_STS_RESOURCE.
    BlkMq,
    /// `mmc_mq_queue_rq` -> `mmc_blk_mq_issue_rq`: building the mrq, pre_req (`dma_map_sg`).
    Issue,
    /// In a host queue slot (hsq slot, legacy prepared request, CQE task) waiting for the bus.
    HostQueue,
    /// CMD23 + CMD18/CMD25 (or CMD6 flush) on the command line.
    Command,
    /// Card read latency, or a write waiting for cache space.
    CardAccess,
    /// Data on the DAT lines.
    Data,
    /// Card busy on DAT0: write into cache, reliable-write program, or cache flush.
    CardBusy,
    /// Transfer over: the hard interrupt (`sdhci_irq` -> `mmc_hsq_finalize_request`, the next
    /// request pumped, `mmc_blk_hsq_req_done` -> `blk_mq_complete_request` raising the softirq).
    Irq,
    /// The block softirq's completion (`mmc_blk_mq_complete` -> `mmc_blk_cqe_complete_rq`,
    /// after an IPI when it runs on the submitting CPU): post_req (`dma_unmap_sg`), the request
    /// ended, its waiter woken, in_flight--.
    Softirq,
    /// The recovery path after an error: CMD13 status, card reset, retry (`mmc_blk_mq_rw_recovery`).
    Recovery,
    /// The waiting thread's wake-up: from the bio's `end_io` (`wake_up_process`) to fio back
    /// in user space with the completion.
    Complete,
    /// Completed and reaped.
    Done,
}

impl Stage {
    pub const ALL: [Stage; 13] = [
        Stage::Submit,
        Stage::BlkMq,
        Stage::Issue,
        Stage::HostQueue,
        Stage::Command,
        Stage::CardAccess,
        Stage::Data,
        Stage::CardBusy,
        Stage::Irq,
        Stage::Softirq,
        Stage::Recovery,
        Stage::Complete,
        Stage::Done,
    ];
    pub fn index(self) -> usize {
        self as usize
    }
    pub fn name(self) -> &'static str {
        match self {
            Stage::Submit => "submit",
            Stage::BlkMq => "blk-mq",
            Stage::Issue => "issue",
            Stage::HostQueue => "host queue",
            Stage::Command => "command",
            Stage::CardAccess => "card access",
            Stage::Data => "data",
            Stage::CardBusy => "card busy",
            Stage::Irq => "irq",
            Stage::Softirq => "softirq",
            Stage::Recovery => "recovery",
            Stage::Complete => "wake-up",
            Stage::Done => "done",
        }
    }
}

/// What the simulation drew or decided that made the stage an event opens longer than usual:
/// the engine knows which draws it made, so the page can say why a request was slow.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Cause {
    #[default]
    None,
    /// Entering the host queue: `ahead` requests were queued or on the bus before it.
    QueuedBehind { ahead: u32 },
    /// Leaving the host queue for the bus: `later` requests that arrived after it were sent
    /// first (`hsq_dispatch=next_tag`'s slot order).
    PassedOver { later: u32 },
    /// The NAND page read: its page type's tR (percent of the mean) and the ECC read retries
    /// it needed (each one more tR).
    NandRead { tr_pct: u32, retries: u32 },
    /// The card's busy time carried a housekeeping pause (garbage collection, wear levelling,
    /// cache eviction) of `ns`.
    Housekeeping { ns: u64 },
    /// The woken thread waited `ns` for the CPU (preempted) before it ran.
    Preempted { ns: u64 },
    /// The bio never became a request of its own: it joined waiting request `into` (a plug,
    /// software-queue or elevator merge, block/blk-merge.c) and completes with it.
    MergedInto { into: u64 },
}

/// One timestamped trace event: request `req` (of job `job`, doing `op`) entered `stage` at `t_ns`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct TraceEvent {
    pub t_ns: u64,
    pub req: u64,
    /// The I/O the request belongs to (requests of one split I/O share it).
    pub io: u64,
    pub job: u32,
    pub op: super::Op,
    pub stage: Stage,
    /// Why the stage it opens (or, for [`Stage::Done`], the one it closes) took longer than
    /// usual, when the simulation knows.
    pub cause: Cause,
}
