//! "Watch the pipeline": the scenario run at a chosen speed of simulated time, drawn as it
//! goes (`view/`: the component), with what runs it: its run [`control`] (play, pause, seek,
//! commands), the lockstep [`clock`] (its speeds are
//! [`crate::run::speed`]), the sides A and B (`sides.rs`), the [`frames`] bookkeeping, the speed of a first
//! play ([`follow`]), the [`command`]s the page sends it, the [`moment`] a link stands at, and
//! what it says around the animation ([`live`]). The time row (`view/scrubber.rs`), the plug
//! (`view/plug.rs`) and the keyboard (`keys.rs`) are parts of the component.
//!
//! The plain modules hold no browser code and are tested natively; the component parts build
//! for `wasm32` only.

pub mod clock;
pub mod command;
pub mod control;
pub mod follow;
pub mod frames;
pub mod live;
pub mod moment;

#[cfg(target_arch = "wasm32")]
mod keys;
#[cfg(target_arch = "wasm32")]
pub mod sides;
#[cfg(target_arch = "wasm32")]
mod view;

#[cfg(target_arch = "wasm32")]
pub use view::{RunState, Watch, WatchProps, GLIDE_MS};
