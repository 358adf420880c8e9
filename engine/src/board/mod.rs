//! The board: the `Platform` type (host, bus and card timing, the host controller), the presets,
//! one per measured device, and the board parameters (`params`: every physical figure as a named
//! value in a unit) with platform files (`file`). Below the scenario, which names a preset and
//! its parameters; above the vocabulary. The crate root re-exports this module as `platform`.

mod cq;
mod driver;
pub mod evidence;
pub mod file;
mod kernel;
mod kernel_rules;
pub mod params;
mod platform;
mod presets;
mod what_if;

pub use cq::{CQE_SINCE, SD_CQ_SINCE};
pub use driver::BRCMSTB_CQE_SINCE;
pub use kernel_rules::{BlockRules, CARRIED, HSQ_DYNAMIC_SINCE, HSQ_SINCE};
pub use platform::*;
pub use presets::*;
pub use what_if::WhatIf;
