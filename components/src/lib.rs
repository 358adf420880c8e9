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
//! | [`Pipeline`] | every live request as a token in its stage, blk-mq to the card (SVG) | hovered / clicked stage or request |
//! | [`BusTimeline`] | what the bus and the host CPU did over the last stretch of simulated time | - |
//! | [`TimeControls`] | play, pause, step, restart, speed | each button, the speed |
//! | [`LiveCharts`] | throughput + IOPS, latency CDF, in flight, batch sizes; A and B overlaid | - |
//! | [`ExplainPanel`] | "What is happening": the engine's explanation of a stage, request or run | - |
//! | [`AbEditor`], [`DeltaTable`] | B's host switches; A and B side by side with the change | `(option, text)`, on/off |
//! | [`GalleryCards`], [`GalleryTable`], [`Stepper`] | the seed experiments, the authors' table with simulated figures, a walk-through | card, case, step |
//! | [`JobFilePanel`] | paste / open / save a fio job file | text, file, save |
//! | [`JobTabs`] | the job sections of a multi-job file, one tab each (the form edits the selected one) | job |
//! | [`ExportsBar`], [`ShareBox`] | download buttons; the scenario's link | export kind, share |
//! | [`BoardPanel`] | every board parameter: preset value, unit, field, slider, reset; board files | `(option name, text)`, file, save |
//! | [`SweepResults`] | a sweep's charts (plotters: axes, legend, log axes), its points, exports and the pinned runs | pin, unpin, export |
//! | [`PlugPanel`], [`PowerCutView`], [`PlugButton`], [`WatchPowerCut`] | pull the plug now or at a time; what the cut lost | pull, `power_cut` text |

pub mod abcompare;
pub mod board;
pub mod chart;
pub mod charts;
pub mod controls;
pub mod explain;
pub mod exports;
pub mod figures;
pub mod format;
pub mod gallery;
pub mod glossary;
pub mod jobfile_io;
pub mod jobtabs;
pub mod palette;
pub mod part;
pub mod pipeline;
pub mod plug;
pub mod progress;
pub mod results;
pub mod sweep;
pub mod sweep_axes;
pub mod sweep_chart;
pub mod timecontrols;
pub mod timeline;

#[cfg(test)]
mod testing;

pub use abcompare::{delta_rows, AbEditor, DeltaRow, DeltaTable};
pub use board::{BoardPanel, BoardPanelProps};
pub use chart::{ThroughputChart, ThroughputChartProps};
pub use charts::{ChartData, ChartKind, LiveCharts, SideChart};
pub use controls::{
    form_spec, Choice, Control, ControlGroup, ControlKind, ControlsForm, ControlsFormProps,
    FieldError,
};
pub use explain::{ExplainPanel, Focus, LifeView};
pub use exports::{ExportKind, ExportsBar, ShareBox};
pub use gallery::{GalleryCard, GalleryCards, GalleryRow, GalleryTable, Stepper, WalkStep};
pub use glossary::Glossary;
pub use jobfile_io::JobFilePanel;
pub use jobtabs::JobTabs;
pub use part::use_opened;
pub use pipeline::layout as pipeline_layout;
pub use pipeline::{Pipeline, PipelineProps};
pub use plug::{PlugButton, PlugPanel, PowerCutView, WatchPowerCut};
pub use progress::{ProgressBar, ProgressBarProps};
pub use results::{Measured, ResultsTable, ResultsTableProps};
pub use sweep::{SweepResults, SweepResultsProps};
pub use timecontrols::{TimeControls, TimeControlsProps};
pub use timeline::{BusTimeline, BusTimelineProps};
