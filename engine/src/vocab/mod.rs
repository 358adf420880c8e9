//! The ground floor's words: what a request asks (`Op`), where it is and why it waits (`Stage`,
//! `Cause`, `TraceEvent`), the host's switches (`MmcPath`, `HsqDepth`, `HsqDispatch`,
//! `HostConfig`) and the kernel's constants. Every floor above speaks these; this module
//! imports nothing of the crate.

pub mod host;
pub mod ioprio;
pub mod kernel;
pub mod op;
pub mod trace;

pub use host::{BlkDispatch, HostConfig, HsqDepth, HsqDispatch, IoSched, MmcPath, SwitchValue};
pub use ioprio::{IoClass, IoPrio};
pub use kernel::*;
pub use op::Op;
pub use trace::{Cause, Stage, TraceEvent};

/// A help sentence of an option row or board parameter (`--help`, platform files, the Lab's
/// form and Board panel): empty in the `lean` build (the page's landing, whose screens show no
/// option help, and whose wasm bytes are what a first visit waits for).
pub const fn lean_text(s: &'static str) -> &'static str {
    if cfg!(feature = "lean") {
        ""
    } else {
        s
    }
}
