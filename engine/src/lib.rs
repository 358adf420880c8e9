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
//! for. Simulated time is integer nanoseconds; one seed (`randseed`) derives every random choice,
//! so the same scenario and seed give byte-identical results. The library is pure: no clocks, no
//! I/O, no wasm-bindgen; it builds for native targets and `wasm32-unknown-unknown`.
//!
//! Drive it with [`Simulator`] (step, run until a time, run to the end, snapshot, trace, live
//! metrics) or [`run`] for a whole run at once.

pub mod blk_mq;
pub mod bus;
pub mod calibration;
pub mod card;
pub mod cqe;
pub mod explain;
pub mod export;
pub mod host;
pub mod hsq;
pub mod legacy;
pub mod metrics;
pub mod mmc_queue;
pub mod mmc_test;
pub mod platform;
pub mod power;
pub mod recovery;
pub mod report;
pub mod rng;
pub mod scenario;
pub mod sim;
pub mod trace;
pub mod workload;

pub use platform::{Platform, PLATFORMS};
pub use report::{DirStats, JobReport, PowerCutReport, Report, SimStats};
pub use scenario::{
    HostConfig, HostOptions, HsqDepth, IoEngine, JobSpec, MmcPath, Rw, Scenario, ScenarioError,
};
pub use sim::request::Op;
pub use sim::{run, Simulator};
pub use trace::{Stage, TraceEvent};
