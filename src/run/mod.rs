//! The run plumbing, the web app's bottom floor: the one wrapper around the engine's
//! `Simulator` ([`session`]), the scenario pair the page shows ([`pair`]), the glue to the
//! engine's option language ([`engine_bridge`]), budgeted slices ([`slicer`]), the speeds of
//! "Watch the pipeline" ([`speed`]), the URL ([`url`]), what the browser keeps (`store`: the
//! course's check, localStorage) and the Web Workers ([`workers`]). Every
//! floor above reads them; they import nothing of the page (docs/ARCHITECTURE.md, the floor
//! table of `src`).
//!
//! [`session`], [`pair`], [`engine_bridge`], [`slicer`] and [`speed`] hold no browser code and
//! are tested natively.

pub mod engine_bridge;
pub mod pair;
pub mod session;
pub mod slicer;
pub mod speed;
#[cfg(test)]
pub(crate) mod test_support;

#[cfg(all(target_arch = "wasm32", feature = "full"))]
pub mod store;
#[cfg(target_arch = "wasm32")]
pub mod url;
#[cfg(target_arch = "wasm32")]
pub mod workers;
