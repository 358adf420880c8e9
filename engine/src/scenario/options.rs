//! STUB (being written): the option table shared by CLI, job files and URLs.
use super::{Scenario, ScenarioError};

/// Where an option is applied: to the whole scenario / every job (`[global]`, CLI before the
/// first `--name`), or to one job section.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionScope {
    Global,
    Job(usize),
}

/// One accepted option: its name, what values it takes, and a one-line help text.
#[derive(Clone, Copy, Debug)]
pub struct OptionInfo {
    pub name: &'static str,
    pub accepted: &'static str,
    pub help: &'static str,
}

pub static OPTIONS: &[OptionInfo] = &[];

pub fn apply_option(_scn: &mut Scenario, _scope: OptionScope, key: &str, _value: Option<&str>) -> Result<(), ScenarioError> {
    Err(ScenarioError::new(key, "not implemented yet"))
}
