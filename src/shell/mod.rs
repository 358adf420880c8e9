//! The app shell: the page ([`app`]: the `App` component that lays out the lesson, the watch,
//! the Lab, the tools and the gallery), the one wrapper around the engine's `Simulator`
//! ([`session`]), the scenario pair the page shows ([`pair`]), the glue to the engine's option
//! language ([`engine_bridge`]), budgeted slices ([`slicer`]), the URL ([`url`]), the Web
//! Workers ([`workers`]), the pipelines' panning on a phone ([`pan`]), the landing's hand-over to
//! the whole app (`handover`, in the landing's build only) and the panic hook
//! ([`panic`](mod@panic)).
//!
//! [`session`], [`pair`], [`engine_bridge`] and [`slicer`] hold no browser code and are tested
//! natively.

pub mod engine_bridge;
pub mod pair;
pub mod session;
pub mod slicer;
#[cfg(test)]
pub(crate) mod test_support;

#[cfg(target_arch = "wasm32")]
pub mod app;
#[cfg(target_arch = "wasm32")]
mod app_update;
#[cfg(all(target_arch = "wasm32", not(feature = "full")))]
pub mod handover;
#[cfg(target_arch = "wasm32")]
pub mod pan;
#[cfg(target_arch = "wasm32")]
pub mod panic;
#[cfg(target_arch = "wasm32")]
pub mod url;
#[cfg(target_arch = "wasm32")]
pub mod workers;
