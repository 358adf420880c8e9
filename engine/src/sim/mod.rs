//! STUB (being written): the simulator.
use crate::{Report, Scenario, ScenarioError};
pub struct Simulator;
pub fn run(_s: &Scenario) -> Result<Report, ScenarioError> { Err(ScenarioError::general("not yet")) }
