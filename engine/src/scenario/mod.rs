//! The scenario: what to simulate, in fio's vocabulary plus mmcsim's host switches.
//!
//! One scenario language serves the CLI (`--name=value`), fio job files (`[global]` + job
//! sections) and the web app's URL query string: all of them go through [`options`] in this
//! module, so an option means the same thing everywhere.

mod apply;
mod error;
mod host;
mod job;
mod limits;
mod spec;

pub mod board;
pub mod board_file;
pub mod check;
pub mod iolog;
pub mod jobfile;
pub mod options;
pub mod steadystate;
pub mod sweep;
pub mod table;
pub mod units;
pub mod url;
pub mod vars;
mod write;

pub use check::{check, estimated_events, warnings};
pub use error::{bounded_message, clip, clip_to, ScenarioError, MAX_ECHO_CHARS, MAX_MESSAGE_CHARS};
pub use host::{HostConfig, HostOptions, HsqDepth, HsqDispatch, MmcPath};
pub use job::{IoEngine, JobSpec, RandomDistribution, Rw};
pub use options::{apply_option, OptionScope};
pub use spec::{ErrorInjection, ErrorKind, Scenario, DEFAULT_RANDSEED};
pub use table::OPTIONS;
pub use write::shell_quote;
