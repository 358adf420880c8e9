//! Exports of a scenario's run, for the CLI (`--output-format=json`, `--write_trace=`,
//! `--write_csv=`, `--write_jobfile=`) and the web app's download buttons. No I/O: every
//! function returns text or writes to a `std::fmt::Write`, so it builds for wasm32 as well. The
//! JSON documents are typed structs written by `serde_json`, each with a
//! `serde_json::ser::Formatter` for its layout.
//!
//! - [`fio_json`]: fio's `--output-format=json` document of a report.
//! - [`trace_event`]: the simulated timeline as Chrome trace-event JSON (Perfetto,
//!   chrome://tracing).
//! - [`perfetto`]: the run as a Perfetto protobuf trace (ftrace block and mmc events per CPU,
//!   the simulator's tracks as track events); [`ftrace_text`]: its tracepoints as ftrace text
//!   (which `read_iolog=` replays); both from [`kernel_events`].
//! - [`csv`]: the throughput / IOPS / in-flight time series.
//! - [`normal`]: fio's normal-format text of a report (`--output-format=normal`, the page's
//!   "fio output"), with fio's number formatting ([`num2str`]).
//! - [`sweep`]: a sweep's points as JSON or CSV (`--sweep=`, the page's Sweep panel).
//! - The job file is [`crate::scenario::jobfile::to_jobfile`]; the link is
//!   [`crate::scenario::url::encode_query`].

pub mod csv;
pub mod fio_json;
pub mod ftrace_text;
pub mod kernel_events;
pub mod normal;
pub mod num2str;
pub mod perfetto;
pub mod sweep;
pub mod trace_event;

pub use csv::{series_csv, series_csv_of};
pub use fio_json::render as fio_json;
pub use fio_json::render_plus as fio_json_plus;
pub use ftrace_text::write_ftrace;
pub use perfetto::write_perfetto;
pub use sweep::{sweep_csv, sweep_json, SweepDoc};
pub use trace_event::{
    trace_event_json, write_trace_events, TraceExport, TraceStats, DEFAULT_MAX_TRACE_EVENTS,
    MAX_TRACE_EVENTS,
};
