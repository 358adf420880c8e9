//! The board floor: what the simulated hardware is, below the scenario language that names it.

pub mod file;
pub mod params;
