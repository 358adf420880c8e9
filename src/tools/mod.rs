//! The tools: the scenario's tools beside the form ([`panels`]: link, Share, the plug, job
//! files) and a finished run's beside the results ([`results`]: downloads, the power-cut
//! report), the Board panel ([`board`]) and its fit ([`fit`]), the Sweep ([`sweep`]), the
//! Sensitivity check ([`sensitivity`]), "Replay
//! a trace" ([`trace`], [`replay`]), and what they export and import ([`exports`],
//! [`download`]).
//!
//! [`exports`], [`input_limit`] and [`replay`] hold no browser code and are tested natively; the rest builds
//! for `wasm32` only.

pub mod exports;
pub mod input_limit;
pub mod replay;

#[cfg(target_arch = "wasm32")]
pub mod board;
#[cfg(target_arch = "wasm32")]
pub mod download;
#[cfg(target_arch = "wasm32")]
pub mod fit;
#[cfg(target_arch = "wasm32")]
pub mod fit_report;
#[cfg(target_arch = "wasm32")]
pub mod panels;
#[cfg(target_arch = "wasm32")]
pub mod results;
#[cfg(target_arch = "wasm32")]
pub mod sensitivity;
#[cfg(target_arch = "wasm32")]
pub mod sweep;
#[cfg(target_arch = "wasm32")]
pub mod trace;

#[cfg(target_arch = "wasm32")]
pub use panels::ScenarioTools;
#[cfg(target_arch = "wasm32")]
pub use results::ResultTools;
