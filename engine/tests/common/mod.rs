//! Helpers shared by the engine's test files (each file includes them with `mod common;`).

pub mod generators;
