//! The request queue's and the I/O scheduler's sysfs settings (/sys/block/*/queue/ and its
//! iosched/ folder), under their sysfs names and units. Unset: the kernel's default for the
//! scheduler in use (`path/elevator/`); a tunable of a scheduler not in use is named in the
//! "no effect" warning (`scenario/check.rs`).

use super::values::*;
use super::OptionRow;
use crate::scenario::queue::NOMERGES_MAX;

pub(super) const NR_REQUESTS: OptionRow = scenario!("nr_requests", "4..=2048",
    "requests the queue holds: scheduler tags (default 2 x min(depth, 128); the tag set's 64 under none)",
    example "32",
    set |s, k, v| s.queue.nr_requests = Some(uint32(k, v1(v), 4, 2048)?),
    get |s| s.queue.nr_requests.map(|n| n.to_string()),
    reset |s| s.queue.nr_requests = None,
    form None);

pub(super) const NOMERGES: OptionRow = scenario!("nomerges", "0, 1, 2",
    "0: merge contiguous bios into waiting requests; 1: only the one-hit cache; 2: never",
    example "2",
    set |s, k, v| s.queue.nomerges = uint32(k, v1(v), 0, NOMERGES_MAX.into())? as u8,
    get |s| (s.queue.nomerges > 0).then(|| s.queue.nomerges.to_string()),
    reset |s| s.queue.nomerges = 0,
    form None);

pub(super) const FIFO_BATCH: OptionRow = scenario!("fifo_batch", "1..=1024",
    "mq-deadline: requests dispatched in a row in one direction (16)",
    example "1",
    set |s, k, v| s.queue.fifo_batch = Some(uint32(k, v1(v), 1, 1024)?),
    get |s| s.queue.fifo_batch.map(|n| n.to_string()),
    reset |s| s.queue.fifo_batch = None,
    form None);

pub(super) const READ_EXPIRE: OptionRow = scenario!("read_expire", "1..=60000 (ms)",
    "mq-deadline: a read's deadline after insertion, ms (500)",
    example "100",
    set |s, k, v| s.queue.read_expire_ms = Some(uint32(k, v1(v), 1, 60_000)?),
    get |s| s.queue.read_expire_ms.map(|n| n.to_string()),
    reset |s| s.queue.read_expire_ms = None,
    form None);

pub(super) const WRITE_EXPIRE: OptionRow = scenario!("write_expire", "1..=60000 (ms)",
    "mq-deadline: a write's deadline after insertion, ms (5000)",
    example "1000",
    set |s, k, v| s.queue.write_expire_ms = Some(uint32(k, v1(v), 1, 60_000)?),
    get |s| s.queue.write_expire_ms.map(|n| n.to_string()),
    reset |s| s.queue.write_expire_ms = None,
    form None);

pub(super) const WRITES_STARVED: OptionRow = scenario!("writes_starved", "0..=64",
    "mq-deadline: read batches that may pass waiting writes (2)",
    example "1",
    set |s, k, v| s.queue.writes_starved = Some(uint32(k, v1(v), 0, 64)?),
    get |s| s.queue.writes_starved.map(|n| n.to_string()),
    reset |s| s.queue.writes_starved = None,
    form None);

pub(super) const FRONT_MERGES: OptionRow = scenario!("front_merges", "0|1",
    "mq-deadline: merge a bio in front of a waiting request (1)",
    example "0",
    set |s, k, v| s.queue.front_merges = Some(flag(k, v)?),
    get |s| s.queue.front_merges.map(b),
    reset |s| s.queue.front_merges = None,
    form None);

pub(super) const PRIO_AGING_EXPIRE: OptionRow = scenario!("prio_aging_expire", "0..=600000 (ms)",
    "mq-deadline: how long a best-effort or idle request waits behind higher priorities before it goes anyway, ms (10000)",
    example "1000",
    set |s, k, v| s.queue.prio_aging_expire_ms = Some(uint32(k, v1(v), 0, 600_000)?),
    get |s| s.queue.prio_aging_expire_ms.map(|n| n.to_string()),
    reset |s| s.queue.prio_aging_expire_ms = None,
    form None);

pub(super) const READ_LAT_NSEC: OptionRow = scenario!("read_lat_nsec", "100000..=10000000000 (ns)",
    "kyber: the reads' target latency, ns (2000000)",
    example "1000000",
    set |s, k, v| s.queue.read_lat_nsec = Some(uint(k, v1(v), 100_000, 10_000_000_000)?),
    get |s| s.queue.read_lat_nsec.map(|n| n.to_string()),
    reset |s| s.queue.read_lat_nsec = None,
    form None);

pub(super) const WRITE_LAT_NSEC: OptionRow = scenario!("write_lat_nsec", "100000..=10000000000 (ns)",
    "kyber: the writes' target latency, ns (10000000)",
    example "5000000",
    set |s, k, v| s.queue.write_lat_nsec = Some(uint(k, v1(v), 100_000, 10_000_000_000)?),
    get |s| s.queue.write_lat_nsec.map(|n| n.to_string()),
    reset |s| s.queue.write_lat_nsec = None,
    form None);

pub(super) const SLICE_IDLE: OptionRow = scenario!("slice_idle", "0..=1000 (ms)",
    "bfq: how long an emptied synchronous queue keeps the device, ms (8; 0 = no idling)",
    example "0",
    set |s, k, v| s.queue.slice_idle_ms = Some(uint32(k, v1(v), 0, 1000)?),
    get |s| s.queue.slice_idle_ms.map(|n| n.to_string()),
    reset |s| s.queue.slice_idle_ms = None,
    form None);

pub(super) const LOW_LATENCY: OptionRow = scenario!("low_latency", "0|1",
    "bfq: raise the weight of interactive queues, who may preempt the queue in service (1)",
    example "0",
    set |s, k, v| s.queue.low_latency = Some(flag(k, v)?),
    get |s| s.queue.low_latency.map(b),
    reset |s| s.queue.low_latency = None,
    form None);
