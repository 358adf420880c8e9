//! The request queue's sysfs settings a scenario may set (/sys/block/mmcblk0/queue/ and the
//! scheduler's iosched/ folder): unset means the kernel's default for the scheduler in use,
//! which the block layer resolves (`path/elevator/`), so "the default" is written once, there.

use crate::vocab::IoSched;
use serde::{Deserialize, Serialize};

/// `queue/nomerges`: 0 all merges, 1 only the one-hit cache (`QUEUE_FLAG_NOXMERGES`), 2 none
/// (`QUEUE_FLAG_NOMERGES`).
pub const NOMERGES_MAX: u8 = 2;

/// The queue's and the scheduler's tunables, as set by the scenario (None: the kernel's).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct QueueTunables {
    /// `queue/nr_requests`: scheduler tags (default 2 x min(depth, 128); the tag set's depth
    /// under `none`).
    pub nr_requests: Option<u32>,
    /// `queue/nomerges` (0, 1, 2).
    pub nomerges: u8,
    /// mq-deadline `fifo_batch`: requests dispatched in a row in one direction (16).
    pub fifo_batch: Option<u32>,
    /// mq-deadline `read_expire`, ms (500).
    pub read_expire_ms: Option<u32>,
    /// mq-deadline `write_expire`, ms (5000).
    pub write_expire_ms: Option<u32>,
    /// mq-deadline `writes_starved`: read batches before a write batch must run (2).
    pub writes_starved: Option<u32>,
    /// mq-deadline `front_merges` (1).
    pub front_merges: Option<bool>,
    /// mq-deadline `prio_aging_expire`, ms (10000).
    #[serde(default)]
    pub prio_aging_expire_ms: Option<u32>,
    /// kyber `read_lat_nsec`: the read domain's target latency (2 ms).
    pub read_lat_nsec: Option<u64>,
    /// kyber `write_lat_nsec` (10 ms).
    pub write_lat_nsec: Option<u64>,
    /// bfq `slice_idle`, ms: how long a sync queue that emptied keeps the device (8).
    pub slice_idle_ms: Option<u32>,
    /// bfq `low_latency`: weight raising of interactive queues (1).
    pub low_latency: Option<bool>,
}

impl QueueTunables {
    pub fn is_default(&self) -> bool {
        *self == QueueTunables::default()
    }

    /// The scheduler tunables set, each with the scheduler it belongs to.
    pub fn set_tunables(&self) -> Vec<(&'static str, IoSched)> {
        let t = self;
        [
            ("fifo_batch", t.fifo_batch.is_some(), IoSched::MqDeadline),
            (
                "read_expire",
                t.read_expire_ms.is_some(),
                IoSched::MqDeadline,
            ),
            (
                "write_expire",
                t.write_expire_ms.is_some(),
                IoSched::MqDeadline,
            ),
            (
                "writes_starved",
                t.writes_starved.is_some(),
                IoSched::MqDeadline,
            ),
            (
                "front_merges",
                t.front_merges.is_some(),
                IoSched::MqDeadline,
            ),
            (
                "prio_aging_expire",
                t.prio_aging_expire_ms.is_some(),
                IoSched::MqDeadline,
            ),
            ("read_lat_nsec", t.read_lat_nsec.is_some(), IoSched::Kyber),
            ("write_lat_nsec", t.write_lat_nsec.is_some(), IoSched::Kyber),
            ("slice_idle", t.slice_idle_ms.is_some(), IoSched::Bfq),
            ("low_latency", t.low_latency.is_some(), IoSched::Bfq),
        ]
        .into_iter()
        .filter(|&(_, set, _)| set)
        .map(|(name, _, s)| (name, s))
        .collect()
    }
}
