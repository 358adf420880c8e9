//! The charts' colours, one copy for the first screen's throughput chart ([`crate::chart`]) and
//! the live charts ([`crate::charts`]). The browser and end-to-end tests look for [`A`] and
//! [`B`] on the canvases.

use plotters::style::RGBColor;

/// Side A, and the only series of the first screen's chart: blue.
pub const A: RGBColor = RGBColor(0x25, 0x63, 0xeb);
/// Side B of an A/B comparison: orange.
pub const B: RGBColor = RGBColor(0xea, 0x58, 0x0c);
/// Axes, tick labels and axis titles.
pub const AXIS: RGBColor = RGBColor(0x64, 0x74, 0x8b);
/// Grid lines.
pub const GRID: RGBColor = RGBColor(0xe2, 0xe8, 0xf0);
