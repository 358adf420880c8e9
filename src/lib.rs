//! # mmcsim web app
//!
//! The eMMC block I/O path simulator in the browser: a Yew app that edits a scenario with the
//! engine's own option parser, runs `mmcsim_engine::Simulator` in budgeted slices inside
//! `requestAnimationFrame`, and shows progress, live throughput and the final report. The
//! visual components are in the `mmcsim-components` crate; this crate holds the page and the
//! run loops.
//!
//! Folders by what a reader of the page sees:
//!
//! | folder | what it is |
//! |---|---|
//! | [`series`] | the measured patch series as data: one file each, the registry in `mod.rs` |
//! | [`lesson`] | the landing and the guided tours (one scaffold, the series' scripts) |
//! | [`lab`] | the Lab: the scenario form, Run/Stop, the results of the one run |
//! | [`watch`] | "Watch the pipeline": clock, sides, frames, commands, moment links |
//! | [`tools`] | board, sweep, fit, exports, replay, trace, downloads |
//! | [`gallery`] | the gallery of the series: cards, walk-throughs, the authors' tables |
//! | [`shell`] | the page itself: the `App` that lays the panels out, the landing's hand-over |
//! | [`run`] | the run plumbing: the session around `Simulator`, the pair, bridge, slicer, speeds, workers, URL |
//!
//! The plain modules hold no browser code and are tested natively ([`run::session`],
//! [`watch::clock`], [`series`], [`gallery`], [`lesson`] ...). The browser parts only build
//! for `wasm32`, so a native build of the workspace skips them.
//!
//! Two builds: `mmcsim-web`, the whole page, and `mmcsim-landing` without the `full` feature,
//! the first screen only (lesson and "Watch the pipeline"), which hands over to the whole page
//! when the Lab, the sweep or the gallery is opened (`shell::handover`).

pub mod gallery;
#[cfg(target_arch = "wasm32")]
pub mod lab;
pub mod lesson;
pub mod run;
pub mod series;
pub mod shell;
pub mod tools;
pub mod watch;

#[cfg(target_arch = "wasm32")]
pub use shell::app::{App, AppProps};

/// Mounts the app on `#app` (or the body) with the panic hook installed.
#[cfg(target_arch = "wasm32")]
pub fn start() {
    shell::panic::install();
    let root = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("app"));
    let handle = match root {
        Some(root) => yew::Renderer::<App>::with_root(root).render(),
        None => yew::Renderer::<App>::new().render(),
    };
    // The landing's build keeps its app to unmount it when the whole app takes over.
    #[cfg(not(feature = "full"))]
    {
        shell::handover::keep(move || handle.destroy());
        shell::handover::follow_anchors();
    }
    #[cfg(feature = "full")]
    drop(handle);
}
