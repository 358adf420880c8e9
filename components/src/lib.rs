//! # mmcsim-components
//!
//! The web app's visual components, one per file. Each takes props and reports what the user
//! did through callbacks; none of them steps, builds or mutates a simulation. The engine types
//! they read (`Report`, `SeriesPoint`, the platform table) are plain data.
//!
//! | component | shows | reports |
//! |---|---|---|
//! | [`ControlsForm`] | platform, workload and host controls with per-control errors | `(option name, text)` |
//! | [`ProgressBar`] | how far the running simulation is | - |
//! | [`ResultsTable`] | a finished run's report, and the measured figure when there is one | - |
//! | [`ThroughputChart`] | MiB/s over simulated time, drawn with plotters on a canvas | - |

pub mod chart;
pub mod controls;
pub mod format;
pub mod progress;
pub mod results;

pub use chart::{ThroughputChart, ThroughputChartProps};
pub use controls::{
    form_spec, Choice, Control, ControlGroup, ControlKind, ControlsForm, ControlsFormProps,
    FieldError,
};
pub use progress::{ProgressBar, ProgressBarProps};
pub use results::{Measured, ResultsTable, ResultsTableProps};
