//! The board: the `Platform` type (host, bus and card timing, the host controller) and the
//! presets, one per measured device. Below the scenario, which names a preset; above the
//! vocabulary. The crate root re-exports this module as `platform`.

mod platform;
mod presets;

pub use platform::*;
pub use presets::*;
