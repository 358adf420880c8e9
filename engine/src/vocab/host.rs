//! The host's switches (`mmc_path=`, `hsq_depth=`, `hsq_dispatch=`, ...) as types: a platform
//! preset fills them in, the scenario may override them, and the layers read them.

use serde::{Deserialize, Serialize};

/// Which mmc request path the host uses (`mmc_path=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MmcPath {
    /// Host software queue (drivers/mmc/host/mmc_hsq.c).
    Hsq,
    /// The classic path: one request on the bus, optional non-blocking pre/post_req.
    Legacy,
    /// Command queueing through the CQE (drivers/mmc/host/cqhci-core.c, Linux 6.1; SD as the
    /// Raspberry Pi kernel runs it): a what-if mode on every preset.
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

/// `ioscheduler=`: the block layer's I/O scheduler (block/elevator.c). Linux gives a device
/// with one hardware queue mq-deadline when nothing else is asked for (`elevator_get_default`,
/// `blk_mq_is_shared_tags` aside): every mmcblk has one hardware queue, so mq-deadline is the
/// kernel's default; `none` bypasses the elevator (requests go straight to the driver).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum IoSched {
    /// No elevator: the software queues and direct issue (block/blk-mq.c).
    None,
    /// block/mq-deadline.c: sector-sorted and FIFO lists per direction.
    MqDeadline,
    /// block/kyber-iosched.c: token depths per domain, tuned to latency targets.
    Kyber,
    /// block/bfq-iosched.c: per-process queues served by budget, with idling.
    Bfq,
}

impl IoSched {
    pub const ALL: [IoSched; 4] = [
        IoSched::None,
        IoSched::MqDeadline,
        IoSched::Kyber,
        IoSched::Bfq,
    ];
    /// The name `/sys/block/*/queue/scheduler` shows.
    pub fn name(self) -> &'static str {
        match self {
            IoSched::None => "none",
            IoSched::MqDeadline => "mq-deadline",
            IoSched::Kyber => "kyber",
            IoSched::Bfq => "bfq",
        }
    }
    /// Whether this build has it: the landing page's (the `lean` feature) has none and
    /// mq-deadline only.
    pub fn in_this_build(self) -> bool {
        !(cfg!(feature = "lean") && matches!(self, IoSched::Kyber | IoSched::Bfq))
    }
}

/// `blk_dispatch=`: how blk-mq dispatches without an I/O scheduler.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BlkDispatch {
    /// Linux 6.1's rules (block/blk-mq.c): a request that finds another context inside
    /// `->queue_rq` is refused (`mq->busy`: a requeue) and kblockd re-runs the queue; while
    /// refusals go on (`dispatch_busy`) new requests wait in the software queue for kblockd;
    /// a psync write's plug is flushed as its thread sleeps, so kblockd issues it; on the
    /// legacy path the dispatcher sleeps in `->queue_rq` until the window has room.
    Kernel,
    /// The presets' fit (not Linux's rules): the context inside `->queue_rq` takes the
    /// requests that arrive meanwhile, a full window (legacy path included) refuses, the
    /// refused request waits for a completion's re-run, and a bio merges in a plug or into its own
    /// submitter's waiting requests (Linux: any of its CPU's software queue). The 2020
    /// and 2022 phone presets are calibrated with it (each preset says why); with an I/O
    /// scheduler, dispatch follows the kernel either way.
    Fitted,
}

impl BlkDispatch {
    pub const ALL: [BlkDispatch; 2] = [BlkDispatch::Kernel, BlkDispatch::Fitted];
    pub fn name(self) -> &'static str {
        match self {
            BlkDispatch::Kernel => "kernel",
            BlkDispatch::Fitted => "fitted",
        }
    }
}

impl SwitchValue for BlkDispatch {
    fn to_u64(self) -> u64 {
        index_of(&BlkDispatch::ALL, &self)
    }
    fn from_u64(v: u64) -> Self {
        BlkDispatch::ALL[(v as usize).min(BlkDispatch::ALL.len() - 1)]
    }
}

/// `hsq_depth=`: the hsq window (mmc_mq_queue_rq refuses once in_flight > depth).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum HsqDepth {
    Fixed(u32),
    /// mmc_hsq_modify_threshold (2023): 5 while >= 2 queued slots hold 4 KiB writes, else 2.
    Dynamic,
}

impl HsqDepth {
    /// The `hsq_depth=` text: the window, or `dynamic`.
    pub fn text(self) -> String {
        match self {
            HsqDepth::Fixed(n) => n.to_string(),
            HsqDepth::Dynamic => "dynamic".to_string(),
        }
    }
}

/// Host switches, resolved: the platform preset's (`Platform::switches`) with the scenario's
/// overrides applied. What the layers read.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct HostConfig {
    pub mmc_path: MmcPath,
    pub nonblocking: bool,
    pub hsq_depth: HsqDepth,
    pub hsq_dispatch: HsqDispatch,
    pub packed: u32,
    pub fua: bool,
    pub cache: bool,
    /// The I/O scheduler the board's kernel runs (`ioscheduler=`).
    pub iosched: IoSched,
    /// How blk-mq dispatches without a scheduler (`blk_dispatch=`).
    pub dispatch: BlkDispatch,
}

impl HostConfig {
    /// The kernel's dispatch rules are in force: a scheduler is attached, or `blk_dispatch`
    /// says so.
    pub fn kernel_dispatch(&self) -> bool {
        self.iosched != IoSched::None || self.dispatch == BlkDispatch::Kernel
    }
}

/// A switch value as the scenario's override map keeps it (`Scenario::overrides`: option name
/// -> u64). The encoding only has to agree within one build: links, job files and worker
/// messages carry option text, never these numbers.
pub trait SwitchValue: Copy {
    fn to_u64(self) -> u64;
    fn from_u64(v: u64) -> Self;
}

impl SwitchValue for bool {
    fn to_u64(self) -> u64 {
        u64::from(self)
    }
    fn from_u64(v: u64) -> Self {
        v != 0
    }
}

impl SwitchValue for u32 {
    fn to_u64(self) -> u64 {
        u64::from(self)
    }
    fn from_u64(v: u64) -> Self {
        v.min(u32::MAX.into()) as u32
    }
}

/// The index in `ALL`, clamped to the last.
fn index_of<T: PartialEq>(all: &[T], x: &T) -> u64 {
    all.iter().position(|a| a == x).unwrap_or(0) as u64
}

impl SwitchValue for MmcPath {
    fn to_u64(self) -> u64 {
        index_of(&MmcPath::ALL, &self)
    }
    fn from_u64(v: u64) -> Self {
        MmcPath::ALL[(v as usize).min(MmcPath::ALL.len() - 1)]
    }
}

impl SwitchValue for IoSched {
    fn to_u64(self) -> u64 {
        index_of(&IoSched::ALL, &self)
    }
    fn from_u64(v: u64) -> Self {
        IoSched::ALL[(v as usize).min(IoSched::ALL.len() - 1)]
    }
}

impl SwitchValue for HsqDispatch {
    fn to_u64(self) -> u64 {
        index_of(&HsqDispatch::ALL, &self)
    }
    fn from_u64(v: u64) -> Self {
        HsqDispatch::ALL[(v as usize).min(HsqDispatch::ALL.len() - 1)]
    }
}

/// `Dynamic` is 0, `Fixed(n)` is n (`Fixed(0)` has no encoding; the parser refuses 0).
impl SwitchValue for HsqDepth {
    fn to_u64(self) -> u64 {
        match self {
            HsqDepth::Dynamic => 0,
            HsqDepth::Fixed(n) => u64::from(n),
        }
    }
    fn from_u64(v: u64) -> Self {
        match v {
            0 => HsqDepth::Dynamic,
            n => HsqDepth::Fixed(n.min(u32::MAX.into()) as u32),
        }
    }
}
