//! The board: the platform presets (host, bus and card timing of each measured device) and the
//! `Platform` type they fill in. Below the scenario, which names a preset; above the vocabulary.

pub mod platform;
