//! The tools: the scenario's tools beside the form and a finished run's beside the results
//! ([`panels`]: link, Share, job files, the plug, downloads), the Board panel ([`board`]) and
//! its fit ([`fit`]), the Sweep ([`sweep`]), "Replay a trace" ([`trace`], [`replay`]), and what
//! they export and import ([`exports`], [`download`]).
//!
//! [`exports`] and [`replay`] hold no browser code and are tested natively; the rest builds
//! for `wasm32` only.

pub mod exports;
pub mod replay;

#[cfg(target_arch = "wasm32")]
pub mod board;
#[cfg(target_arch = "wasm32")]
pub mod download;
#[cfg(target_arch = "wasm32")]
pub mod fit;
#[cfg(target_arch = "wasm32")]
pub mod panels;
#[cfg(target_arch = "wasm32")]
pub mod sweep;
#[cfg(target_arch = "wasm32")]
pub mod trace;

#[cfg(target_arch = "wasm32")]
pub use panels::{ResultTools, ScenarioTools};
