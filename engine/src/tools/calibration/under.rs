//! The block layer a calibration runs under: each preset's own scheduler and dispatch (the
//! default), or one choice for every board (`mmcsim --calibration --ioscheduler=mq-deadline
//! --blk_dispatch=kernel`), so a preset's figures can be checked under the scheduler its kernel
//! may have run instead (`elevator_get_default`'s mq-deadline, or none).

use crate::scenario::options::parse_args;
use crate::scenario::{Scenario, ScenarioError};

/// The host switches a calibration may set for every case.
pub const UNDER_KEYS: [&str; 2] = ["ioscheduler", "blk_dispatch"];

/// Switch values applied to every case's scenario (none: the presets' own).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Under {
    switches: Vec<(String, u64)>,
    /// The options as given (`ioscheduler=mq-deadline`), for the table's heading.
    given: Vec<String>,
}

impl Under {
    /// The `ioscheduler=` and `blk_dispatch=` among `args` (fio-style `--key=value`), checked
    /// by the scenario parser; any other option is the caller's business.
    pub fn from_args(args: &[String]) -> Result<Under, ScenarioError> {
        let mine: Vec<&str> = args
            .iter()
            .map(String::as_str)
            .filter(|a| {
                let key = a.trim_start_matches('-').split('=').next().unwrap_or("");
                UNDER_KEYS.contains(&key)
            })
            .collect();
        let s = parse_args(&mine, Scenario::default())?;
        let switches = UNDER_KEYS
            .iter()
            .filter_map(|k| s.overrides.get(k).map(|v| (k.to_string(), *v)))
            .collect();
        let given = mine
            .iter()
            .map(|a| a.trim_start_matches('-').to_string())
            .collect();
        Ok(Under { switches, given })
    }

    /// True when every preset runs its own block layer.
    pub fn is_presets(&self) -> bool {
        self.switches.is_empty()
    }

    /// What every board runs under, as the options were given (empty: the presets' own).
    pub fn describe(&self) -> String {
        self.given.join(" ")
    }

    /// Sets the chosen switches on `s`.
    pub fn apply(&self, s: &mut Scenario) {
        for (k, v) in &self.switches {
            s.overrides.insert(k.clone(), *v);
        }
    }
}
