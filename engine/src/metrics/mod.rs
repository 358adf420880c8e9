//! Streaming metrics: memory is fixed by what the caller asks to keep, never by the number of
//! requests simulated.

pub mod histogram;
pub mod series;

pub use histogram::LatencyHistogram;
pub use series::{SeriesPoint, TimeSeries};
