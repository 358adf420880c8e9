//! Plain-words explanations for the UI's "What is happening" panel: what each stage and layer
//! is, which kernel function stands for it, and what the current run shows, with every figure
//! taken from the simulated events (the report), never from a formula.
//!
//! `info.rs`: the stages and layers; `summary.rs`: what a run shows and how two runs differ;
//! `why.rs`: why a request waited.

mod info;
mod summary;
mod why;

pub use info::*;
pub use summary::*;
pub use why::*;

#[cfg(test)]
mod tests;
