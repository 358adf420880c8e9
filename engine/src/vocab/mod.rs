//! The ground floor's words: what a request asks (`Op`), where it is and why it waits (`Stage`,
//! `Cause`, `TraceEvent`), the host's switches (`MmcPath`, `HsqDepth`, `HsqDispatch`,
//! `HostConfig`) and the kernel's constants. Every floor above speaks these; this module
//! imports nothing of the crate.

pub mod host;
pub mod kernel;
pub mod op;
pub mod trace;

pub use host::{BlkDispatch, HostConfig, HsqDepth, HsqDispatch, IoSched, MmcPath, SwitchValue};
pub use kernel::*;
pub use op::Op;
pub use trace::{Cause, Stage, TraceEvent};
