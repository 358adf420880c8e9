//! mmcsim's host switches: the switch types, [`HostConfig`] (the resolved switches the layers
//! read) and [`SwitchValue`] (a switch value as the override map keeps it) are the vocabulary's.
//! A scenario overrides a preset's switches in [`super::Scenario::overrides`], as it overrides
//! board parameters.

// The switch types are vocabulary: the presets below the scenario and the layers above it read
// them.
pub use crate::vocab::{
    BlkDispatch, HostConfig, HsqDepth, HsqDispatch, IoSched, MmcPath, SwitchValue,
};
