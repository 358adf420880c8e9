//! mmcsim's host switches as a scenario sets them ([`HostOptions`]: unset means the platform
//! preset's); the switch types and [`HostConfig`] (every default filled in) are the vocabulary's.

use serde::{Deserialize, Serialize};

// The switch types are vocabulary: the presets below the scenario and the layers above it read
// them.
pub use crate::vocab::{HostConfig, HsqDepth, HsqDispatch, MmcPath};

/// Host-side switches. `None` = the platform preset's default.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct HostOptions {
    pub mmc_path: Option<MmcPath>,
    /// Legacy path: prepare the next request while the current one is on the bus.
    pub nonblocking: Option<bool>,
    pub hsq_depth: Option<HsqDepth>,
    /// Slot order of hsq (`hsq_dispatch=`).
    #[serde(default)]
    pub hsq_dispatch: Option<HsqDispatch>,
    /// ADMA3 chain length (0 = off).
    pub packed: Option<u32>,
    /// The host advertises FUA (reliable write) to the block layer.
    pub fua: Option<bool>,
    /// The card's volatile write cache is enabled.
    pub cache: Option<bool>,
}
