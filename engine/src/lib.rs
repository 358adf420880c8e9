//! # mmcsim-engine
//!
//! A deterministic discrete-event model of the Linux eMMC block I/O path:
//!
//! ```text
//! workload (fio jobs) -> blk_mq -> mmc_queue -> hsq | legacy | cqe -> host (SDHCI ADMA2/ADMA3)
//!                     -> bus -> card (cache, NAND, reliable write, flush)
//! ```
//!
//! Each layer is its own module under `path/` named after what it models, citing the kernel
//! function it stands for. A layer keeps its state private: its decisions are methods on its
//! own struct (unit-tested in its file), and the wiring between layers (`impl Simulator`
//! blocks) only calls them. The layer modules are crate-private; the few types a caller sees
//! are re-exported here. The modules stand on floors (docs/ARCHITECTURE.md): no import points
//! up a floor, which `engine/tests/architecture/` checks.
//!
//! Simulated time is integer nanoseconds; one seed (`randseed`) derives every random choice, so
//! the same scenario and seed give byte-identical results. The library is pure: no clocks, no
//! I/O, no wasm-bindgen; it builds for native targets and `wasm32-unknown-unknown`.
//!
//! Drive it with [`Simulator`] (step, run until a time, run to the end, snapshot, trace, live
//! metrics) or [`run`] for a whole run at once.

// The floors, from the ground up (docs/ARCHITECTURE.md; engine/tests/architecture.rs checks
// that no import points up):
// 0. vocabulary and math: words every floor speaks, random streams, statistics.
pub mod metrics;
mod rng;
mod variation;
mod vocab;
mod ziggurat;
// 1. the board: platform presets.
pub mod board;
// 2. the question and the shape of the answer: scenario language, report types.
pub mod figures;
pub mod report;
pub mod scenario;
// 3. the kernel path and the simulator that runs it (the one floor whose modules call each
//    other both ways: the layers' `impl Simulator` blocks).
mod path;
mod sim;
// 4. run-level tools: sweep and calibration runners, explanations, exports.
pub mod tools;

// Public module paths of the API, kept where callers know them.
pub use board as platform;
pub use tools::{calibration, explain, export, replay_check};
pub use vocab::trace;

pub use figures::Figures;
pub use path::bus::{Segment, SegmentKind};
pub use path::workload::{IoRecord, QueuedIo, MAX_IO_RECORDS};
pub use platform::{Platform, PLATFORMS};
pub use report::{DirStats, JobReport, PowerCutReport, PrioLat, Report, SimStats};
pub use scenario::{IoEngine, JobSpec, Overrides, Rw, Scenario, ScenarioError};
pub use sim::observe::{BfqView, JobView, RequestView, Snapshot};

/// Whether this build has bfq (the landing's `lean` build has not): a view may leave out what
/// draws bfq's state, which such a build never has.
pub const HAS_BFQ: bool = cfg!(not(feature = "lean"));
pub use sim::{run, Simulator};
pub use vocab::{
    BlkDispatch, Cause, HostConfig, HsqDepth, HsqDispatch, IoClass, IoPrio, IoSched, MmcPath, Op,
    Stage, SwitchValue, TraceEvent, CQE_TASKS, CQHCI_NUM_SLOTS, HSQ_NORMAL_DEPTH, HSQ_NUM_SLOTS,
    HSQ_PACKED_QUEUE_DEPTH, HSQ_PERFORMANCE_DEPTH, MMC_QUEUE_DEPTH,
};
