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
    /// eMMC 5.1 command queueing engine (drivers/mmc/host/cqhci-core.c): a what-if mode.
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

/// `hsq_depth=`: the hsq window (mmc_mq_queue_rq refuses once in_flight > depth).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum HsqDepth {
    Fixed(u32),
    /// mmc_hsq_modify_threshold (2023): 5 while >= 2 queued slots hold 4 KiB writes, else 2.
    Dynamic,
}

/// Host switches with every default filled in from the platform.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct HostConfig {
    pub mmc_path: MmcPath,
    pub nonblocking: bool,
    pub hsq_depth: HsqDepth,
    pub hsq_dispatch: HsqDispatch,
    pub packed: u32,
    pub fua: bool,
    pub cache: bool,
}
