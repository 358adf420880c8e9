//! The scenario: what to simulate, in fio's vocabulary plus mmcsim's host switches.
//!
//! One scenario language serves the CLI (`--name=value`), fio job files (`[global]` + job
//! sections) and the web app's URL query string: all of them go through [`options`] in this
//! module, so an option means the same thing everywhere.
//!
//! # Layers
//!
//! The modules import one way, each only from those listed before it (and from the floors
//! below the scenario: [`crate::board`], which the crate re-exports as `platform`, and the
//! vocabulary); none imports one that imports it. This module only declares them and re-exports
//! what callers name.
//!
//! 1. Leaves, importing nothing of the scenario: `error` ([`ScenarioError`] and the clipping
//!    every message goes through), [`units`] (fio's size, time and boolean syntax), `limits`
//!    (the bounds, one name each), [`vars`] (`${VAR}` in job files), [`steadystate`] (the
//!    criterion's syntax).
//! 2. The values: `job` ([`JobSpec`] and its enums), `host` (the switch types, [`HostConfig`]
//!    and [`SwitchValue`], re-exported from the vocabulary), [`iolog`] (traces for `read_iolog=`),
//!    [`prio`] (a job's I/O priorities and cgroup),
//!    `overrides` ([`Overrides`], the override map's own methods), `spec` ([`Scenario`] itself).
//! 3. [`table`]: the row types (`table::row`), the shared value parsers, one file per option
//!    family as fio's `options.c` groups them, the board parameters as rows, and [`OPTIONS`],
//!    the registry in print order.
//! 4. [`board`]: the board parameters in the option language and the scenario's effective
//!    platform.
//! 5. `apply`: one option at a time (set, reset, read back, the page's form text).
//! 6. `estimate`: the requests and events a run takes, counted as the engine counts them; then
//!    [`check`](mod@check): relations between options and every bound, on a whole scenario.
//! 7. [`options`]: fio's section semantics ([`options::ScenarioBuilder`], `parse_args`); it
//!    re-exports `apply`'s API.
//! 8. `write`: a scenario back as options, in table order (`to_options`, `to_args`).
//! 9. The formats: [`jobfile`] (fio job files in and out), [`board_file`] (platform files),
//!    [`url`] (links, A and B), and [`sweep`] on top of them.

// 1. Leaves.
mod error;
mod limits;
pub mod steadystate;
pub mod units;
pub mod vars;
// 2. The values.
mod host;
pub mod iolog;
mod job;
mod overrides;
pub mod prio;
pub mod queue;
mod spec;
// 3. The option table.
pub mod table;
// 4. - 8. Reading and writing options.
mod apply;
pub mod board;
pub mod check;
mod estimate;
pub mod options;
mod sim_time;
mod warnings;
mod write;
// 9. The formats.
pub mod board_file;
pub mod jobfile;
pub mod sweep;
pub mod url;

pub use check::{check, estimated_events};
pub use error::{
    bounded_message, clip, clip_to, escape_controls, ScenarioError, MAX_ECHO_CHARS,
    MAX_MESSAGE_CHARS,
};
pub use host::{HostConfig, HsqDepth, HsqDispatch, IoSched, MmcPath, SwitchValue};
pub use job::{IoEngine, JobSpec, RandomDistribution, Rw, SyncModel};
pub use options::{apply_option, OptionScope};
pub use overrides::Overrides;
pub use prio::JobPrio;
pub use queue::QueueTunables;
pub use spec::{ErrorInjection, ErrorKind, Scenario, DEFAULT_RANDSEED};
pub use table::OPTIONS;
pub use warnings::{warnings, what_ifs};
pub use write::shell_quote;
