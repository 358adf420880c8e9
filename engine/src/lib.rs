//! # mmcsim-engine
//!
//! A deterministic discrete-event model of the Linux eMMC block I/O path:
//!
//! ```text
//! workload (fio jobs) -> blk_mq -> mmc_queue -> hsq | legacy | cqe -> host (SDHCI ADMA2/ADMA3)
//!                     -> bus -> card (cache, NAND, reliable write, flush)
//! ```
//!
//! Each layer is its own module named after what it models, citing the kernel function it stands
//! for. A layer keeps its state private: its decisions are methods on its own struct (unit-tested
//! in its file), and the wiring between layers (`impl Simulator` blocks) only calls them. The
//! layer modules are crate-private; the few types a caller sees are re-exported here.
//!
//! Simulated time is integer nanoseconds; one seed (`randseed`) derives every random choice, so
//! the same scenario and seed give byte-identical results. The library is pure: no clocks, no
//! I/O, no wasm-bindgen; it builds for native targets and `wasm32-unknown-unknown`.
//!
//! Drive it with [`Simulator`] (step, run until a time, run to the end, snapshot, trace, live
//! metrics) or [`run`] for a whole run at once.

// The layers: crate-private; what a caller needs of them is re-exported below.
mod blk_mq;
mod bus;
mod card;
mod cqe;
mod host;
mod hsq;
mod legacy;
mod mmc_queue;
mod mmc_test;
mod power;
mod recovery;
mod rng;
mod sim;
mod variation;
mod workload;
mod ziggurat;

// The API modules: scenario language, platforms, results, exports, explanations.
pub mod board;
pub mod calibration;
pub mod explain;
pub mod export;
pub mod metrics;
pub mod platform;
pub mod report;
pub mod scenario;
pub mod trace;

pub use blk_mq::MMC_QUEUE_DEPTH;
pub use bus::{Segment, SegmentKind};
pub use cqe::CQHCI_NUM_SLOTS;
pub use hsq::HSQ_NUM_SLOTS;
pub use mmc_queue::{CQE_TASKS, HSQ_NORMAL_DEPTH, HSQ_PACKED_QUEUE_DEPTH, HSQ_PERFORMANCE_DEPTH};
pub use platform::{Platform, PLATFORMS};
pub use report::{DirStats, JobReport, PowerCutReport, Report, SimStats};
pub use scenario::{
    HostConfig, HostOptions, HsqDepth, HsqDispatch, IoEngine, JobSpec, MmcPath, Rw, Scenario,
    ScenarioError,
};
pub use sim::observe::{JobView, RequestView, Snapshot};
pub use sim::request::Op;
pub use sim::{run, Simulator};
pub use trace::{Cause, Stage, TraceEvent};
pub use workload::{IoRecord, MAX_IO_RECORDS};
