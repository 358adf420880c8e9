//! # mmcsim web app
//!
//! The eMMC block I/O path simulator in the browser: a Yew app that edits a scenario with the
//! engine's own option parser, runs `mmcsim_engine::Simulator` in budgeted slices inside
//! `requestAnimationFrame`, and shows progress, live throughput and the final report. The
//! visual components are in the `mmcsim-components` crate; this crate holds the page and the
//! run loops.
//!
//! The plain modules hold no browser code and are tested natively: [`session`] (the one
//! wrapper around `Simulator`: every simulation the app runs is built and stepped there),
//! [`clock`] and [`frames`] (the watch view's lockstep clock and frame bookkeeping),
//! [`follow`] (the speed of a first play, derived from a look-ahead run),
//! [`command`] (what the watch view is asked to do), [`engine_bridge`] (options, links,
//! calibration), [`live`], [`gallery`], [`exports`], [`slicer`]. The browser parts only build
//! for `wasm32`, so a native build of the workspace skips them.

#[cfg(test)]
mod claims;
pub mod clock;
pub mod command;
pub mod engine_bridge;
pub mod exports;
pub mod follow;
pub mod frames;
pub mod gallery;
pub mod lesson;
pub mod lesson_fifo;
pub mod live;
pub mod moment;
pub mod replay;
pub mod session;
pub mod slicer;
#[cfg(test)]
mod test_support;

#[cfg(target_arch = "wasm32")]
mod app;
#[cfg(target_arch = "wasm32")]
pub mod board_view;
#[cfg(target_arch = "wasm32")]
pub mod download;
#[cfg(target_arch = "wasm32")]
pub mod fit_view;
#[cfg(target_arch = "wasm32")]
pub mod gallery_view;
#[cfg(target_arch = "wasm32")]
mod keys;
#[cfg(target_arch = "wasm32")]
pub mod panic;
#[cfg(target_arch = "wasm32")]
pub mod sides;
#[cfg(target_arch = "wasm32")]
pub mod sweep_view;
#[cfg(target_arch = "wasm32")]
pub mod tools;
#[cfg(target_arch = "wasm32")]
pub mod trace_view;
#[cfg(target_arch = "wasm32")]
pub mod watch;
#[cfg(target_arch = "wasm32")]
pub mod workers;

#[cfg(target_arch = "wasm32")]
pub use app::{App, AppProps};

/// Mounts the app on `#app` (or the body) with the panic hook installed.
#[cfg(target_arch = "wasm32")]
pub fn start() {
    panic::install();
    let root = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("app"));
    match root {
        Some(root) => yew::Renderer::<App>::with_root(root).render(),
        None => yew::Renderer::<App>::new().render(),
    };
}
