//! The app shell, the top floor: the page ([`app`]: the `App` component that lays out the
//! lesson, the watch, the Lab, the tools and the gallery, and its messages in `app_update.rs`),
//! the pipelines' panning on a phone ([`pan`]), the landing's hand-over to the whole app
//! (`handover`, in the landing's build only) and the panic hook ([`panic`](mod@panic)). What
//! runs a scenario (the session, the pair, the bridge, the slicer, the workers, the URL) is
//! the bottom floor, [`crate::run`].

#[cfg(target_arch = "wasm32")]
pub mod app;
#[cfg(target_arch = "wasm32")]
mod app_check;
#[cfg(target_arch = "wasm32")]
mod app_update;
#[cfg(all(target_arch = "wasm32", not(feature = "full")))]
pub mod handover;
#[cfg(target_arch = "wasm32")]
pub mod pan;
#[cfg(target_arch = "wasm32")]
pub mod panic;
